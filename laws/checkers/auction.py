"""Checkers for the auction: Laws 17-22 (correct procedure) and the
inadmissible calls of Laws 27 and 35-39."""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from laws.checkers.cards import SEAT_NAMES, SEATS, STRAINS, SUIT_NAMES, same_side, seat_after
from laws.checkers.registry import Edition, Result, checker
from laws.errors import BadInput as BadRequest

_PASS = {"P", "PASS", "NB", "NO BID", "-"}
_DOUBLE = {"X", "D", "DBL", "DOUBLE"}
_REDOUBLE = {"XX", "R", "RDBL", "REDOUBLE"}
_BID = re.compile(r"^([0-9]+)\s*(C|D|H|S|N|NT|♣|♦|♥|♠)$")  # ASCII digits, as the JavaScript port reads them
_SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "N": "NT"}


@dataclass(frozen=True)
class Call:
    kind: str  # 'pass', 'double', 'redouble', 'bid'
    level: int = 0
    strain: str = ""

    def __str__(self) -> str:
        return {"pass": "P", "double": "X", "redouble": "XX"}.get(self.kind) or f"{self.level}{self.strain}"


def parse_call(text: str, index: int) -> Call:
    raw = " ".join(str(text).strip().upper().split())
    if raw in _PASS:
        return Call("pass")
    if raw in _DOUBLE:
        return Call("double")
    if raw in _REDOUBLE:
        return Call("redouble")
    m = _BID.match(raw)
    if m and len(m.group(1)) <= 3 and int(m.group(1)) >= 1:
        return Call("bid", int(m.group(1)), _SYMBOL.get(m.group(2), m.group(2)))
    raise BadRequest(f"Call {index + 1}, {str(text)!r}, is not a call: write P for pass, X for double, "
                     "XX for redouble, or a bid such as 1C, 3NT, 7S.", "calls")


def _supersedes(bid: Call, last: Call | None) -> bool:
    """Law 18B."""
    if last is None:
        return True
    return (bid.level, STRAINS.index(bid.strain)) > (last.level, STRAINS.index(last.strain))


def _ruling_address(ed: Edition, dealer: str, calls: list[Call], irregularity, must_pass: set) -> str | None:
    """Where the ruling on the first inadmissible call is (/rulings/auction,
    in the checker's edition), or None for a legal auction: the checker finds
    the irregularity, the ruling says what the Laws give for it."""
    if irregularity is None:
        return None
    query = {"edition": ed.edition, "dealer": dealer,
             "calls": " ".join(str(c) for c in calls[:irregularity["index"] + 1])}
    if must_pass:
        query["required_to_pass"] = " ".join(sorted(must_pass))
    return ed.get("ruling") + "?" + urlencode(query)


@checker("auction")
def auction(data: dict, ed: Edition) -> Result:
    """Whether an auction is complete and legal, who calls next, and the contract and declarer.

    Inputs: `dealer` (N, E, S, W); `calls`, in rotation from the dealer (P,
    X, XX, and bids 1C … 7NT); optionally `required_to_pass`, players an
    earlier rectification obliges to pass.  Result: `complete`, `legal`,
    `next` (the player to call, or null), `passed_out`, `contract` (such as
    '4HX'), `level`, `strain`, `risk`, `declarer` (the first player of the
    declaring side to name the strain, Law 22A2 with the definition of
    declarer) and, for the first inadmissible call, `irregularity`: its
    `index` (from 0), the `call`, the `player`, what is wrong, and the `law`
    that applies: 27 (insufficient bid), 36 (double or redouble not permitted
    by Law 19), 37 (call by a player required to pass), 38 (bid of more than
    seven), 39 (call after the final pass).  Checking stops at that call;
    `ruling` is the address of the ruling on it (/rulings/auction), which
    says what the Laws give: options, who must pass, lead restrictions.
    `edition`: the code applied (the code in force unless another is
    chosen); the provisions differ in number only (2007's 35.1-35.4 and
    22A1-22A2 are 2017's 35A-35D, 22B and 22A)."""
    dealer = data["dealer"]
    calls = [parse_call(c, i) for i, c in enumerate(data["calls"])]
    must_pass = set(data.get("required_to_pass", []))
    law = ed.law
    cites = [law("dealer"), law("rotation")]

    last_bid: Call | None = None
    last_bidder: str | None = None
    risk = ""  # state of the last bid: '', 'X', 'XX'
    doubler: str | None = None
    passes = 0
    first_namer: dict[tuple[str, str], str] = {}  # (side parity, strain) -> first seat to name it
    complete = False
    irregularity = None

    def problem(i: int, seat: str, what: str, law: str, extra: list[str]):
        return {"index": i, "call": str(calls[i]), "player": seat, "problem": what, "law": law,
                "cites": extra + [law]}

    for i, call in enumerate(calls):
        seat = seat_after(dealer, i)
        if complete:
            irregularity = problem(i, seat, "a call after the final pass of the auction",
                                   law("rectify_after_final_pass"), [law("after_final_pass")])
            break
        # Law 37 applies to a call by a player required to pass, but not to one
        # contrary to Law 19A1 or 19B1 (Law 36) nor, more specifically, to a
        # bid of more than seven (Law 38)
        required = (f"{SEAT_NAMES[seat]} is required to pass but made a "
                    f"{'bid' if call.kind == 'bid' else call.kind}")
        if call.kind == "bid":
            if call.level > 7:
                irregularity = problem(i, seat, f"a bid of more than seven ({call})", law("rectify_above_seven"),
                                       [law("above_seven"), law("bid")])
                break
            if seat in must_pass:
                irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")])
                break
            if not _supersedes(call, last_bid):
                irregularity = problem(i, seat, f"an insufficient bid: {call} does not supersede {last_bid}",
                                       law("insufficient_bid"), [law("insufficient")])
                break
            last_bid, last_bidder, risk, doubler, passes = call, seat, "", None, 0
            first_namer.setdefault((SEATS.index(seat) % 2, call.strain), seat)
            continue
        if call.kind == "double":
            why = None
            if last_bid is None:
                why = "a double when there is no bid to double"
            elif same_side(seat, last_bidder):
                why = f"a double of {'his own' if seat == last_bidder else 'his partner’s'} bid"
            elif risk:
                why = f"a double of a bid already {'doubled' if risk == 'X' else 'redoubled'}"
            if why:
                irregularity = problem(i, seat, why + f" (Law {law('double')})", law("rectify_double"),
                                       [law("inadmissible_double"), law("double")])
                break
            if seat in must_pass:
                irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")])
                break
            risk, doubler, passes = "X", seat, 0
            if law("double") not in cites:
                cites.append(law("double"))
            continue
        if call.kind == "redouble":
            why = None
            if risk != "X":
                why = ("a redouble of a bid already redoubled" if risk == "XX"
                       else "a redouble when there is no double to redouble")
            elif same_side(seat, doubler):
                why = f"a redouble of {'his own' if seat == doubler else 'his partner’s'} double"
            if why:
                irregularity = problem(i, seat, why + f" (Law {law('redouble')})", law("rectify_double"),
                                       [law("inadmissible_double"), law("redouble")])
                break
            if seat in must_pass:
                irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")])
                break
            risk, passes = "XX", 0
            if law("redouble") not in cites:
                cites.append(law("redouble"))
            continue
        passes += 1
        if (last_bid is None and passes == 4) or (last_bid is not None and passes == 3):
            complete = True

    n_valid = irregularity["index"] if irregularity else len(calls)
    next_seat = None if complete else seat_after(dealer, n_valid)
    passed_out = complete and last_bid is None
    result = {"complete": complete, "legal": irregularity is None, "next": next_seat, "passed_out": passed_out,
              "contract": None, "level": None, "strain": None, "risk": None, "declarer": None,
              "last_bid": str(last_bid) if last_bid else None, "irregularity": irregularity,
              "ruling": _ruling_address(ed, dealer, calls, irregularity, must_pass)}
    if complete and not passed_out:
        parity = SEATS.index(last_bidder) % 2
        declarer = first_namer[(parity, last_bid.strain)]
        result.update(contract=f"{last_bid}{risk}", level=last_bid.level, strain=last_bid.strain, risk=risk,
                      declarer=declarer)
        cites += [law("supersedes"), law("contract")] + ([law("doubled")] if risk else [])
    elif passed_out:
        cites.append(law("passed_out"))
    elif last_bid is not None:
        cites.append(law("sufficient"))

    if complete and not passed_out:
        state = (f"The auction is complete: the contract is {result['contract']} by "
                 f"{SEAT_NAMES[result['declarer']]}, the first of {'North-South' if parity == 0 else 'East-West'}"
                 f" to name {SUIT_NAMES[last_bid.strain]}")
    elif passed_out:
        state = "All four players passed: the board is passed out and each side scores zero"
    elif last_bid is None:
        state = (f"The auction is not complete; no one has bid yet and {SEAT_NAMES[next_seat]} "
                 f"calls next" if next_seat else "")
    else:
        state = (f"The auction is not complete: the last bid is {last_bid}{risk} by {SEAT_NAMES[last_bidder]} "
                 f"and {SEAT_NAMES[next_seat]} calls next")
    if irregularity:
        cites += [c for c in irregularity["cites"] if c not in cites]
        state = (f"Call {irregularity['index'] + 1} ({irregularity['call']} by {SEAT_NAMES[irregularity['player']]}) "
                 f"is inadmissible, {irregularity['problem']}, and Law {irregularity['law']} applies. "
                 f"Before it: " + state[0].lower() + state[1:])
        if not complete:
            state = state.replace(" calls next", " was to call")
    else:
        state += "; every call so far is legal"
    return Result(result, state + ".", cites)
