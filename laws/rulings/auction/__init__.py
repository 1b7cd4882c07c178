"""Rulings on irregularities of the auction (Laws 16, 17, 23–39).

`rule(payload)` reads a request (edition, dealer, the calls as made with the
seat that made each, the Director's findings), finds the first irregularity,
establishes the facts the decision trees branch on, and walks the edition's
tree (2007.json, 2017.json in this folder).  static/rulings/auction.js does
the same in the browser; keep the two alike (the fixture cases run on both).

The facts computed here are matters of the calls (who called at whose turn,
whether the offender's LHO has called since, what the replacement is); every
matter of judgement (is a call comparable, artificial, intended?) is a finding
the Director supplies, and the tree asks for it when it is missing.
"""
from __future__ import annotations

import re

from laws.errors import quotable
from laws.rulings import RulingError
from laws.rulings import data as rulings_data
from laws.rulings import requests
from laws.rulings.walker import walk

PERIOD = "auction"
SEATS = "NESW"
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
STRAINS = ("C", "D", "H", "S", "NT")
_BID = re.compile(r"^([1-9][0-9]?)(C|D|H|S|NT|N)$")
_CARD = re.compile(r"^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$")
HONOURS = ("A", "K", "Q", "J", "T", "10")
BOOLEAN_FINDINGS = {
    "accepted": "offender's LHO accepts the irregular call (27A1, 29A, 25B1)",
    "comparable": "the replacement is a comparable call (2017 23A) / has the same or a more precise "
                  "meaning (2007 27B1(b))",
    "natural": "both the insufficient bid and its replacement are incontrovertibly not artificial (2007 27B1(a))",
    "same_denominations": "the replacement specifies the same denomination(s) as the insufficient bid "
                          "(2017 27B1(a))",
    "artificial": "the irregular call was artificial (29C), or a pass of partner's artificial call (30C)",
    "repeats_denomination": "the offender's call at his turn repeats the denomination(s) specified by "
                            "his bid out of rotation (2007 31A2, 29C)",
    "intended": "the call made was the call the player intended (25A)",
    "without_pause": "the player changed, or tried to change, the call without pause for thought (2007 25A1)",
    "suit_specific": "the withdrawn call related solely to a specified suit or suits (2007 26A)",
    "suits_shown": "each such suit was specified in the legal auction by the offender (2007 26A1)",
    "after_opening_lead": "attention was drawn to the irregularity only after the opening lead was faced",
    "could_be_seen": "the exposed card(s) were in position for partner to see the face (24)",
    "replacement_accepted": "offender's LHO accepts a second insufficient bid put in place of the first (27B4)",
    "simultaneous": "the first call out of turn was made simultaneously with the call of the player "
                    "whose turn it was (33)",
}
CALL_FINDINGS = {
    "replacement": "the call that replaces the irregular one (the offender's call at his proper turn)",
    "rho_call": "the call the offender's RHO makes when the auction reverts to him (31A, 32)",
}
FINDINGS = list(BOOLEAN_FINDINGS) + list(CALL_FINDINGS) + ["required_to_pass", "card", "change"]


def rel(seat: str, n: int) -> str:
    return SEATS[(SEATS.index(seat) + n) % 4]


def side(seat: str) -> str:
    return "North-South" if seat in "NS" else "East-West"


# --- calls ---------------------------------------------------------------------

def parse_call(text, field: str, where: str) -> dict:
    if not isinstance(text, str):
        raise RulingError(f"{where} must be a call written as text (P, X, XX, 1C … 7NT).", field)
    raw = "".join(text.upper().split())
    if raw in ("P", "PASS"):
        return {"t": "P"}
    if raw in ("X", "D", "DBL"):
        return {"t": "X"}
    if raw in ("XX", "R", "RDBL"):
        return {"t": "XX"}
    m = _BID.match(raw)
    if m:
        return {"t": "B", "level": int(m.group(1)), "strain": "NT" if m.group(2) in ("N", "NT") else m.group(2)}
    raise RulingError(f"{where}, {text[:20]!r}, is not a call: write P (pass), X (double), XX (redouble) "
                      "or a bid such as 1C, 3NT, 7S.", field)


def call_str(c: dict) -> str:
    return f"{c['level']}{c['strain']}" if c["t"] == "B" else c["t"]


def _rank(c: dict) -> tuple[int, int]:
    return c["level"], STRAINS.index(c["strain"])


class Auction:
    """The legal auction so far (Laws 17–22)."""

    def __init__(self, dealer: str):
        self.dealer = dealer
        self.calls: list[tuple[str, dict]] = []
        self.last_bid = None
        self.last_bidder = None
        self.risk = ""
        self.doubler = None
        self.passes = 0
        self.first_namer: dict = {}

    @property
    def complete(self) -> bool:
        return (self.last_bid is None and self.passes == 4) or (self.last_bid is not None and self.passes == 3)

    def turn(self) -> str | None:
        if self.complete:
            return None
        return rel(self.calls[-1][0], 1) if self.calls else self.dealer

    def sufficient(self, c: dict) -> bool:
        return self.last_bid is None or _rank(c) > _rank(self.last_bid)

    def inadmissible(self, seat: str, c: dict) -> bool:
        """A double or redouble that Law 19 does not permit."""
        if c["t"] == "X":
            return self.last_bid is None or self.risk != "" or self.last_bidder in (seat, rel(seat, 2))
        if c["t"] == "XX":
            return self.risk != "X" or self.doubler in (seat, rel(seat, 2))
        return False

    def add(self, seat: str, c: dict) -> None:
        self.calls.append((seat, c))
        if c["t"] == "P":
            self.passes += 1
        elif c["t"] == "B":
            self.last_bid, self.last_bidder, self.risk, self.doubler, self.passes = c, seat, "", None, 0
            self.first_namer.setdefault((seat in "NS", c["strain"]), seat)
        elif c["t"] == "X":
            self.risk, self.doubler, self.passes = "X", seat, 0
        else:
            self.risk, self.passes = "XX", 0

    def declarer(self) -> str | None:
        if self.last_bid is None:
            return None
        return self.first_namer[(self.last_bidder in "NS", self.last_bid["strain"])]

    def copy(self) -> "Auction":
        other = Auction(self.dealer)
        for seat, c in self.calls:
            other.add(seat, c)
        return other


# --- the request ------------------------------------------------------------------

def _seat(value, field: str, where: str) -> str:
    if not isinstance(value, str) or value.upper() not in SEATS:
        raise RulingError(f"{where} must be a seat: N, E, S or W.", field)
    return value.upper()


def _bool(findings: dict, name: str):
    v = findings.get(name)
    if v is None:
        return None
    if not isinstance(v, bool):
        raise RulingError(f"The finding {name!r} must be true or false ({BOOLEAN_FINDINGS[name]}).",
                          f"findings.{name}")
    return "yes" if v else "no"


def parse(payload, editions: list[str]) -> dict:
    if not isinstance(payload, dict):
        raise RulingError("Send a JSON object with edition, dealer, calls and (optionally) findings.", None)
    unknown = sorted(set(payload) - {"edition", "dealer", "calls", "findings"})
    if unknown:
        # repr escapes a lone surrogate (which no reply could encode); the field names it the same way
        raise RulingError(f"There is no field {unknown[0]!r}: the fields are edition, dealer, calls, findings.",
                          quotable(unknown[0]))
    edition = payload.get("edition", editions[0] if editions else None)
    if not isinstance(edition, str) or edition not in editions:
        raise RulingError(f"The edition must be one of {', '.join(editions)}.", "edition")
    dealer = _seat(payload.get("dealer"), "dealer", "The dealer")
    calls_in = payload.get("calls", [])
    if not isinstance(calls_in, list):
        raise RulingError("Calls must be a list of [seat, call] pairs, such as [[\"N\", \"1H\"], [\"E\", \"1D\"]].",
                          "calls")
    if len(calls_in) > 100:
        raise RulingError("Calls can have at most 100 entries.", "calls")
    calls = []
    for i, item in enumerate(calls_in):
        where = f"Call {i + 1}"
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            raise RulingError(f"{where} must be a [seat, call] pair, such as [\"E\", \"1D\"].", "calls")
        calls.append((_seat(item[0], "calls", f"{where}'s seat"), parse_call(item[1], "calls", where)))
    findings = payload.get("findings")
    findings = {} if findings is None else findings
    if not isinstance(findings, dict):
        raise RulingError("Findings must be an object, such as {\"accepted\": false}.", "findings")
    unknown = sorted(set(findings) - set(FINDINGS))
    if unknown:
        raise RulingError(f"There is no finding {unknown[0]!r}; the findings are {', '.join(FINDINGS)}.",
                          f"findings.{unknown[0]}")
    clean: dict = {name: _bool(findings, name) for name in BOOLEAN_FINDINGS}
    for name in CALL_FINDINGS:
        if findings.get(name) is not None:
            clean[name] = parse_call(findings[name], f"findings.{name}", f"The finding {name!r}")
    rtp = findings.get("required_to_pass") or []
    if not isinstance(rtp, list) or len(rtp) > 4:
        raise RulingError("required_to_pass must be a list of seats.", "findings.required_to_pass")
    clean["required_to_pass"] = {_seat(s, "findings.required_to_pass", "A player required to pass") for s in rtp}
    card = findings.get("card")
    if card is not None:
        if not isinstance(card, dict) or not isinstance(card.get("cards"), list) or not card["cards"] \
                or len(card["cards"]) > 13:
            raise RulingError("The finding 'card' must be {\"seat\": \"E\", \"cards\": [\"SK\"], \"led\": false}.",
                              "findings.card")
        cards = []
        for c in card["cards"]:
            m = _CARD.match(str(c).upper().strip()) if isinstance(c, str) else None
            if not m:
                raise RulingError(f"{str(c)[:12]!r} is not a card: write suit and rank, such as SK, H10, D4.",
                                  "findings.card")
            cards.append((m.group(1) or m.group(4), m.group(2) or m.group(3)))
        if not isinstance(card.get("led", False), bool):
            raise RulingError("card.led must be true or false.", "findings.card")
        clean["card"] = {"seat": _seat(card.get("seat"), "findings.card", "The seat of the exposed card"),
                         "cards": cards, "led": bool(card.get("led", False))}
    change = findings.get("change")
    if change is not None:
        if not isinstance(change, dict) or not calls:
            raise RulingError("The finding 'change' must be {\"index\": <the call changed, from 0>, "
                              "\"call\": \"2H\"} and needs at least one call.", "findings.change")
        index = change.get("index", len(calls) - 1)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(calls):
            raise RulingError(f"change.index must be the number of a call made, 0 to {len(calls) - 1}.",
                              "findings.change")
        clean["change"] = {"index": index,
                           "call": parse_call(change.get("call"), "findings.change", "The changed call")}
    return {"edition": edition, "dealer": dealer, "calls": calls, "findings": clean}


# --- finding the irregularity --------------------------------------------------------

def _scan(dealer: str, calls: list, required: set):
    """(index, kind, auction before it, turn) of the first irregular call, or
    (None, None, auction, None)."""
    st = Auction(dealer)
    for i, (seat, c) in enumerate(calls):
        if st.complete:
            return i, "call-after-final-pass", st, None
        turn = st.turn()
        if seat != turn and turn in required and seat == rel(turn, 1):
            st.add(turn, {"t": "P"})  # 28A: RHO required to pass, so this call is in rotation
            turn = seat
        if c["t"] == "B" and c["level"] > 7:
            return i, "bid-above-seven", st, turn
        if st.inadmissible(seat, c):
            return i, "inadmissible-double" if c["t"] == "X" else "inadmissible-redouble", st, turn
        if seat != turn:
            kind = {"P": "pass", "B": "bid", "X": "double", "XX": "redouble"}[c["t"]] + "-out-of-rotation"
            return i, kind, st, turn
        if seat in required and c["t"] != "P":
            return i, "call-when-required-to-pass", st, turn
        if c["t"] == "B" and not st.sufficient(c):
            return i, "insufficient-bid", st, turn
        st.add(seat, c)
    return None, None, st, None


def _retains_right(st: Auction, calls: list, i: int) -> bool:
    """Law 34: the pass out of rotation at i is one of three passes that follow
    a call (the auction would otherwise be over)."""
    after = calls[i:]
    if not all(c["t"] == "P" for _, c in after) or len(after) > 3:
        return False
    trailing = 0
    for _, c in reversed(st.calls):
        if c["t"] != "P":
            break
        trailing += 1
    total = trailing + len(after)
    return total >= 3 and len(st.calls) + len(after) >= 4 and trailing < 3


def _replacement_kind(st: Auction, ib: dict, r: dict) -> str:
    if r["t"] == "P":
        return "pass"
    if r["t"] in ("X", "XX"):
        return "double"
    if not st.sufficient(r):
        return "insufficient"
    lowest = next(level for level in range(1, 9) if st.sufficient({"t": "B", "level": level, "strain": ib["strain"]}))
    return "lowest-same" if r["strain"] == ib["strain"] and r["level"] == lowest else "sufficient"


def analyse(parsed: dict) -> dict:
    """The first irregularity and the facts its tree branches on."""
    dealer, calls, f = parsed["dealer"], parsed["calls"], parsed["findings"]
    index, kind, st, turn = _scan(dealer, calls, f["required_to_pass"])
    facts = {k: v for k, v in f.items() if k in BOOLEAN_FINDINGS and v is not None}
    last_after = rel(calls[-1][0], 1) if calls else dealer

    change = f.get("change")
    card = f.get("card")
    if change is not None and (index is None or change["index"] < index):
        return _change(parsed, change, facts)
    if index is None:
        if card is not None:
            return _card(parsed, st, card, facts)
        seats = {"after_calls": None if st.complete else st.turn(), "none": None}
        return {"irregularity": None, "kind": "legal", "facts": facts, "values": {}, "seats": seats,
                "auction": st}

    seat, c = calls[index]
    values = {"offender": NAMES[seat], "partner": NAMES[rel(seat, 2)], "lho": NAMES[rel(seat, 1)],
              "rho": NAMES[rel(seat, 3)], "call": call_str(c), "side": side(seat), "other_side": side(rel(seat, 1)),
              "turn": NAMES[turn] if turn else None}
    seats = {"offender": seat, "partner": rel(seat, 2), "lho": rel(seat, 1), "rho": rel(seat, 3), "turn": turn,
             "after_calls": last_after, "none": None}
    nxt = calls[index + 1][0] if index + 1 < len(calls) else None
    facts["lho_called"] = "yes" if nxt == rel(seat, 1) else "no"
    facts["call_type"] = {"P": "pass", "B": "bid", "X": "double", "XX": "redouble"}[c["t"]]
    if turn is not None:
        facts["at"] = {0: "turn", 1: "rho", 2: "partner", 3: "lho"}[(SEATS.index(seat) - SEATS.index(turn)) % 4]
    facts["previously_called"] = "yes" if any(s == seat for s, _ in st.calls) else "no"
    facts["any_bid"] = "yes" if st.last_bid is not None else "no"

    if kind.endswith("-out-of-rotation") and f.get("simultaneous") == "yes" and nxt == turn:
        swapped = calls[:index] + [calls[index + 1], calls[index]] + calls[index + 2:]
        sub = analyse({**parsed, "calls": swapped,
                       "findings": {**f, "simultaneous": None}})
        deemed = sub["kind"] if sub["irregularity"] and sub["irregularity"]["index"] == index + 1 else "legal"
        sub_facts = dict(sub["facts"], deemed_kind=deemed, deemed="in-rotation" if deemed == "legal" else "irregular")
        out = dict(sub, facts=sub_facts, kind="simultaneous-call")
        out["irregularity"] = {"index": index, "seat": seat, "kind": "simultaneous-call"}
        if deemed == "legal":
            out["values"] = values
            out["seats"] = {**seats, "after_calls": sub["seats"].get("after_calls")}
        return out

    if kind == "pass-out-of-rotation" and _retains_right(st, calls, index):
        kind = "retention-of-right-to-call"
        seats["missed"] = turn
        values["missed"] = NAMES[turn]

    if kind in ("insufficient-bid", "pass-out-of-rotation", "bid-out-of-rotation", "double-out-of-rotation",
                "redouble-out-of-rotation"):
        correct_called = nxt is not None and nxt == turn and turn == rel(seat, 3)
        if facts["lho_called"] == "yes":
            if f.get("accepted") == "no":
                raise RulingError(f"{NAMES[nxt]} called over {NAMES[seat]}'s {call_str(c)}, and that call accepts "
                                  "it (27A1, 29A): the finding accepted cannot be false.", "findings.accepted")
            facts["accepted"] = "yes"
        elif correct_called and kind != "insufficient-bid":
            facts["accepted"] = "28B"
        if kind == "bid-out-of-rotation":
            facts["insufficient"] = "no" if st.sufficient(c) else "yes"

    if kind == "insufficient-bid":
        r = f.get("replacement")
        if nxt == seat:  # 27C: the offender replaced it before the Director ruled
            r = calls[index + 1][1]
            facts["premature"] = "yes"
        else:
            facts["premature"] = "no"
        if r is not None:
            facts["replacement_kind"] = _replacement_kind(st, c, r)
            values["replacement"] = call_str(r)
    elif kind.endswith("-out-of-rotation") or kind.startswith("inadmissible"):
        r = f.get("replacement")
        if r is not None:
            values["replacement"] = call_str(r)
            if c["t"] == "B" and "repeats_denomination" not in facts and f.get("artificial") == "no":
                facts["repeats_denomination"] = "yes" if r["t"] == "B" and r["strain"] == c["strain"] else "no"
        rc = f.get("rho_call")
        seats["resume"] = seat if rc is not None and facts.get("at") == "rho" else turn
        if rc is not None:
            facts["rho_action"] = "pass" if rc["t"] == "P" else "call"
            values["rho_call"] = call_str(rc)
        if facts.get("at") == "lho" and facts["previously_called"] == "yes":
            values["original"] = call_str([cc for s, cc in st.calls if s == seat][-1])
            facts["partner_called"] = "no"  # he called at his LHO's turn: his partner has not called since

    if kind == "bid-above-seven":
        after = st.copy()
        after.add(seat, {"t": "P"})
        seats["after_pass"] = None if after.complete else rel(seat, 1)
    if kind == "call-after-final-pass":
        declarer = st.declarer()
        facts["role"] = ("none" if declarer is None else
                         "declaring-side" if declarer in (seat, rel(seat, 2)) else "defender")
        seats["after_calls"] = None
    if kind.startswith("inadmissible"):
        tail = calls[index + 1:]
        facts["complete_after"] = "yes" if len(tail) >= 3 and all(cc["t"] == "P" for _, cc in tail[-3:]) else "no"

    return {"irregularity": {"index": index, "seat": seat, "kind": kind}, "kind": kind, "facts": facts,
            "values": values, "seats": seats, "auction": st}


def _change(parsed: dict, change: dict, facts: dict) -> dict:
    """Law 25: the player who made call `index` now substitutes another."""
    calls, i = parsed["calls"], change["index"]
    seat, c = calls[i]
    later = [s for s, _ in calls[i + 1:]]
    facts["partner_called"] = "yes" if rel(seat, 2) in later else "no"
    values = {"offender": NAMES[seat], "partner": NAMES[rel(seat, 2)], "lho": NAMES[rel(seat, 1)],
              "rho": NAMES[rel(seat, 3)], "call": call_str(change["call"]), "original": call_str(c),
              "side": side(seat), "other_side": side(rel(seat, 1)), "turn": None}
    seats = {"offender": seat, "partner": rel(seat, 2), "lho": rel(seat, 1), "rho": rel(seat, 3),
             "after_calls": rel(calls[-1][0], 1), "none": None}
    return {"irregularity": {"index": i, "seat": seat, "kind": "change-of-call"}, "kind": "change-of-call",
            "facts": facts, "values": values, "seats": seats, "auction": None}


def _card(parsed: dict, st: Auction, card: dict, facts: dict) -> dict:
    """Law 24: card(s) of a player exposed or led during the auction."""
    seat = card["seat"]
    cards = card["cards"]
    if card["led"]:
        facts["card_class"] = "honour-or-led"
    elif len(cards) > 1:
        facts["card_class"] = "several"
    else:
        facts["card_class"] = "honour-or-led" if cards[0][1] in HONOURS else "low"
    shown = ", ".join(s + r for s, r in cards)
    values = {"offender": NAMES[seat], "partner": NAMES[rel(seat, 2)], "lho": NAMES[rel(seat, 1)],
              "rho": NAMES[rel(seat, 3)], "call": None, "cards": shown, "side": side(seat),
              "other_side": side(rel(seat, 1)), "turn": None}
    seats = {"offender": seat, "partner": rel(seat, 2), "lho": rel(seat, 1), "rho": rel(seat, 3),
             "after_calls": None if st.complete else st.turn(), "none": None}
    return {"irregularity": {"index": len(parsed["calls"]), "seat": seat, "kind": "card-exposed"},
            "kind": "card-exposed", "facts": facts, "values": values, "seats": seats, "auction": st}


# --- the ruling -------------------------------------------------------------------

def rule(payload, editions: list[str] | None = None) -> dict:
    """The ruling for a request (see the module docstring); raises RulingError
    for input a user can correct."""
    all_data = rulings_data.load(PERIOD)
    editions = editions if editions is not None else rulings_data.editions(PERIOD)
    parsed = parse(payload, editions)
    # what the parser let through must still fit the documented schema (its own messages came first)
    requests.check(PERIOD, payload)
    data = all_data[parsed["edition"]]
    a = analyse(parsed)
    walked = walk(data, a["kind"], a["facts"], a["values"], a["seats"])
    irregularity = None
    if a["irregularity"]:
        irregularity = dict(a["irregularity"], law=data["kinds"][a["kind"]]["law"])
    out = {"edition": parsed["edition"], "irregularity": irregularity, **walked}
    return {**out, **rulings_data.review_of(data, out)}  # a carried code's ruling says whether it is reviewed


def parse_calls_text(text: str, dealer: str) -> list[list[str]]:
    """'1H E:1D P' -> [['N','1H'], ['E','1D'], ['S','P']]: a call without a
    seat is made by the player after the previous call's."""
    out = []
    seat = None
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        if ":" in token:
            s, _, call = token.partition(":")
            seat = s.strip().upper()
            if seat not in SEATS:
                raise RulingError(f"{token!r}: {s!r} is not a seat (N, E, S or W).", "calls")
        else:
            call = token
            seat = dealer if seat is None else SEATS[(SEATS.index(seat) + 1) % 4]
        out.append([seat, call])
    return out
