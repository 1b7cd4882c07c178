"""Irregularities in the play period: what happened, read from the play as the
Director enters it, and the ruling each edition gives (the data in play.json).

The request (CONTRACT.md, "POST /api/rulings/play"):

    {"edition": "2017", "contract": "4S", "declarer": "S",
     "play": [["W", "HK"], ["N", "H2"], ["E", "S5", "exposed"]],
     "findings": {"choice": "accept"}}

    {"contract": "4S", "declarer": "S", "trick": 5, "seat": "W",
     "play": [["W", "C3", "revoke"]], "findings": {"established": true}}

`trick` (1 to 13, default 1) is the trick the first card entered belongs to:
the tricks before it are not entered, and the facts count from it (West
revoked on trick 5; later tricks are 6, 7, ...).  Who led that trick won a
trick not entered, so the first card played to it is taken as its lead, in
turn: a lead out of turn is found only at trick 1 or after a trick entered
in full.  `seat` is the seat of the irregularity (the revoker): its card is
entered alone, and the cards of its trick before it are not, so it is not
a lead.  A lead cannot be a revoke: a revoke is a failure to follow suit to
the card led (61A), so `revoke` on a lead is refused (a lead that broke a
lead restriction is ruled from the penalty card, 50D).

`play` lists every card in the order it reached the table, with its seat and,
where it was not simply played face up, a marker:

- `exposed`: shown, dropped or named but not played (Laws 48, 49, 50);
- `facedown`: the opening lead made face down (41A);
- `simultaneous`: played at the same moment as the card before it (58);
- `revoke`: the Director has established this card was a revoke (61A) — a
  revoke is also found without the marker when the player later plays a
  card of the suit he failed to follow;
- `penalty`: a card already lying on the table as a penalty card from an
  earlier ruling (50, 51, 52 follow from it);
- `changed`: named in place of the card this hand played just before it (a
  change of designation, 45C4(b));
- `fifth`: added to a trick that already had four cards (45E);
- `retract`: a card this hand played earlier (entered again), which the
  player asks to take back (47E2).

`analyse` walks the play by the Laws of procedure (44, 45) to the first
irregularity and returns its *facts*: a flat dict of strings, numbers and
booleans that the decision trees in play.json test.  Everything after the
irregularity is read only for what the Laws make of it (a play by the next
hand accepts a lead out of turn, 53A; a play to the next trick establishes a
revoke, 63A1; ...).  static/rulings/play.js does the same in the browser; the
fixture file tests/fixtures/rulings_play.json is run against both.
"""
from __future__ import annotations

import json
import re

from laws.errors import quotable
from laws.rulings import RulingError as RulingInputError
from laws.rulings import data as rulings_data
from laws.rulings import requests
from laws.rulings.walker import AnswerError, walk

PERIOD = "play"
SEATS = "NESW"
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = "23456789TJQKA"
RANK_NAMES = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
HONOURS = "TJQKA"
FIELDS = ("edition", "contract", "declarer", "trick", "seat", "play", "findings")
MARKERS = ("exposed", "facedown", "simultaneous", "revoke", "penalty", "minor", "changed", "fifth", "retract")
# What the Director is told that no card shows: each finding starts a ruling of
# its own (46 for an incomplete call from dummy, 67 for a defective trick).  The
# phone's picker and the plain form offer them with these words.
STARTERS = [
    {"id": "dummy_call", "label": "Declarer's call of a card from dummy",
     "values": [["high", "“high” (or the like)"], ["win", "“win” (or the like)"], ["low", "“low” (or the like)"],
                ["suit", "only a suit"], ["rank", "only a rank"], ["absent", "a card that is not in dummy"],
                ["anything", "“play anything” (or the like)"]]},
    {"id": "defective", "label": "A defective trick found",
     "values": [["omitted", "a player did not play to a trick"], ["too-many", "a player played too many cards"]],
     # ruled for a seat and a trick, with no card entered (_check_defective)
     "seat": "Who (the player at fault)"},
]
DEFECTIVE = ("omitted", "too-many")
_CARD = re.compile(r"^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$")
_CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT|N)(XX|X)?$")


# --- seats and cards ------------------------------------------------------------

def after(seat: str, n: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + n) % 4]


def partner(seat: str) -> str:
    return after(seat, 2)


def card_name(card: str) -> str:
    return f"{RANK_NAMES.get(card[1], card[1])} of {SUIT_NAMES[card[0]]}"


def parse_card(text, where: str) -> str:
    raw = str(text).strip().upper() if isinstance(text, str) else ""
    m = _CARD.match(raw)
    if not m:
        raise RulingInputError(f"{where}: {text!r} is not a card; write the suit then the rank, like SA, H10 "
                               "or D2.", "play")
    suit, rank = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return suit + ("T" if rank == "10" else rank)


# --- the request -------------------------------------------------------------------

def parse_request(payload, editions: list[str] | None = None) -> dict:
    """The request checked and normalised; RulingInputError names what is
    wrong.  With no edition named, the first of `editions` (the web's list),
    else of the editions with play rulings: the code in force."""
    if not isinstance(payload, dict):
        raise RulingInputError("Send a JSON object with the edition, contract, declarer, play and findings.")
    extra = sorted(set(payload) - set(FIELDS))
    if extra:
        # repr escapes a lone surrogate (which no reply could encode); the field names it the same way
        raise RulingInputError(f"There is no field {extra[0]!r}; the fields are edition, contract, declarer, "
                               "trick, seat, play and findings.", quotable(extra[0]))
    # no edition named: the code in force (the first the site lists)
    edition = payload["edition"] if "edition" in payload else (
        (editions if editions is not None else rulings_data.editions(PERIOD)) or [None])[0]
    if not isinstance(edition, str):
        raise RulingInputError("The edition is the id of a code, such as the one in force.", "edition")
    contract = payload.get("contract")
    m = _CONTRACT.match(contract.strip().upper()) if isinstance(contract, str) else None
    if not m:
        raise RulingInputError("The contract is a level 1 to 7 and a strain C, D, H, S or NT, doubled X or "
                               "redoubled XX: like 4S, 3NT or 2HX.", "contract")
    strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
    declarer = payload.get("declarer")
    if declarer not in tuple(SEATS):
        raise RulingInputError("Declarer is one of N, E, S, W.", "declarer")
    play = payload.get("play", [])
    if not isinstance(play, list):
        raise RulingInputError("The play is a list of [seat, card] pairs, like [[\"W\", \"HK\"]].", "play")
    if len(play) > 80:
        raise RulingInputError("The play has more cards than a deal can hold (at most 80 entries).", "play")
    events, seen = [], {}
    for i, entry in enumerate(play):
        where = f"Card {i + 1} of the play"
        if not isinstance(entry, list) or not 2 <= len(entry) <= 3:
            raise RulingInputError(f"{where} must be [seat, card] or [seat, card, marker].", "play")
        seat = entry[0]
        if seat not in tuple(SEATS):
            raise RulingInputError(f"{where}: the seat is one of N, E, S, W.", "play")
        card = parse_card(entry[1], where)
        marker = entry[2] if len(entry) == 3 else None
        if marker is not None and marker not in MARKERS:
            raise RulingInputError(f"{where}: the marker is one of {', '.join(MARKERS)}.", "play")
        if seen.get(card, seat) != seat:
            raise RulingInputError(f"{where}: the {card_name(card)} was already played by "
                                   f"{SEAT_NAMES[seen[card]]}.", "play")
        seen[card] = seat
        events.append({"seat": seat, "card": card, "marker": marker})
    findings = payload.get("findings", {})
    if not isinstance(findings, dict):
        raise RulingInputError("Findings are an object of what the Director has established, like "
                               "{\"choice\": \"accept\"}.", "findings")
    for key, value in findings.items():
        if not isinstance(value, (str, bool, int)) or isinstance(value, float):
            raise RulingInputError(f"Finding {key!r} must be a word, a number or true/false.", "findings")
    req = {"edition": edition, "level": int(m.group(1)), "strain": strain, "declarer": declarer,
           "trick": _trick(payload), "seat": _seat(payload), "events": events, "findings": findings}
    if findings.get("defective") in DEFECTIVE:
        _check_defective(req)
    elif req["seat"]:
        _check_seat(req)
    return req


def _check_defective(req: dict) -> None:
    """A defective trick (67) is ruled for the player at fault at the trick
    that was defective: `seat` and `trick`.  No card shows it (the trick
    lacks his card or holds too many), so none is entered; what the
    Director establishes (who won it, 64A2) is asked."""
    if not req["seat"]:
        raise RulingInputError("A defective trick is ruled for the player at fault: give his seat (N, E, S or W), "
                               "the player who did not play to the trick or played too many cards, and the trick "
                               "that was defective (67).", "seat")
    if req["events"]:
        raise RulingInputError("For a defective trick, enter no cards: give the trick that was defective and the "
                               "seat at fault; the Director establishes the rest (67).", "play")
    if req["findings"]["defective"] == "omitted" and req["trick"] == 1 and req["seat"] == after(req["declarer"]):
        raise RulingInputError(f"{SEAT_NAMES[req['seat']]} made the opening lead (declarer's left-hand opponent), "
                               "so he played to trick 1: he cannot have omitted to play to it.", "seat")


def _trick(payload: dict) -> int:
    trick = payload.get("trick", 1)
    # a bool is an int to Python, but JSON's true is no trick number; 5.0 is
    # an integer to JSON Schema and to JavaScript (the web layer reads a JSON
    # 0.999... that a float would round to 1 as what it is: no whole number)
    if isinstance(trick, float) and trick.is_integer():
        trick = int(trick)
    if isinstance(trick, bool) or not isinstance(trick, int) or not 1 <= trick <= 13:
        raise RulingInputError("The trick is a number from 1 to 13: the trick the first card entered belongs to.",
                               "trick")
    return trick


def _seat(payload: dict) -> str | None:
    if "seat" not in payload:
        return None
    seat = payload["seat"]
    if seat not in tuple(SEATS):
        raise RulingInputError("The seat at fault is one of N, E, S, W.", "seat")
    return seat


def _check_seat(req: dict) -> None:
    """With the seat at fault, the play entered is that seat's card alone
    (penalty cards already on the table aside): the cards of its trick
    before it are not entered, so nothing after it can be placed in a trick."""
    seat, n = req["seat"], req["trick"]
    name = SEAT_NAMES[seat]
    played = [e for e in req["events"] if e["marker"] not in ("penalty", "minor")]
    if not played:
        raise RulingInputError(f"With the seat at fault ({name}), enter {name}'s card: the card of the "
                               "irregularity.", "seat")
    if played[0]["seat"] != seat:
        raise RulingInputError(f"With the seat at fault ({name}), the play entered is {name}'s card at trick {n}; "
                               f"the first card entered is {SEAT_NAMES[played[0]['seat']]}'s.", "seat")
    if len(played) > 1:
        raise RulingInputError(f"With the seat at fault ({name}), enter {name}'s card alone: the cards before it "
                               f"at trick {n} are not entered, so the cards after it cannot be placed. To enter "
                               f"more of the play, enter trick {n} from its lead, without the seat.", "seat")
    if n == 1 and seat == after(req["declarer"]):
        raise RulingInputError(f"{name} makes the opening lead (declarer's left-hand opponent): his card at trick "
                               "1 is the lead, entered first, without the seat.", "seat")


# --- the play, by the Laws of procedure --------------------------------------------

def _winner(trick: list[tuple[str, str]], trumps: str | None) -> str:
    best = trick[0]
    for seat, card in trick[1:]:
        b = best[1]
        if card[0] == b[0]:
            if RANKS.index(card[1]) > RANKS.index(b[1]):
                best = (seat, card)
        elif card[0] == trumps:
            best = (seat, card)
    return best[0]


class _Table:
    """The state of the play as the events are read: the current trick, who
    leads, the winners of completed tricks, who showed out of which suit (and
    on which trick), the penalty cards on the table.

    The play entered starts at trick `first`.  After trick 1 its leader won a
    trick not entered: unknown (None) until the first card played, which is
    taken as the lead.  `joined`: the seat at fault, whose card is entered
    alone, the cards before it at that trick not entered (not a lead)."""

    def __init__(self, declarer: str, strain: str, first: int = 1, joined: str | None = None):
        self.declarer = declarer
        self.dummy = partner(declarer)
        self.trumps = None if strain == "NT" else strain
        self.leader = after(declarer) if first == 1 and joined is None else None
        self.joined = joined
        self.trick: list[tuple[str, str]] = []
        self.first = first
        self.number = first
        self.winners: list[str] = []
        self.showed_out: dict[str, dict[str, int]] = {s: {} for s in SEATS}
        self.penalty: dict[str, list[str]] = {s: [] for s in SEATS}
        self.minor: set[str] = set()
        self.log: list[tuple[str, str, int]] = []  # (seat, card, trick) of every card played
        self.deemed_after = False  # a card played with another was deemed played after it, in turn (58A)

    def defender(self, seat: str) -> bool:
        return seat not in (self.declarer, self.dummy)

    def side(self, seat: str) -> str:
        return "declarer" if seat == self.declarer else "dummy" if seat == self.dummy else "defender"

    def expected(self) -> str | None:
        if self.trick:
            return after(self.trick[-1][0])
        return self.joined or self.leader

    def leads(self) -> bool:
        """The next card played is the lead of its trick."""
        return not self.trick and not self.joined

    def seats_in_trick(self) -> list[str]:
        return [s for s, _ in self.trick]

    def led(self) -> str | None:
        return self.trick[0][1][0] if self.trick else None

    def play(self, seat: str, card: str) -> None:
        if self.number > 13:
            raise RulingInputError(f"The play entered from trick {self.first} runs past trick 13: a deal has 13 "
                                   "tricks. Check the trick number.", "trick")
        if self.leader is None and not self.trick and not self.joined:
            self.leader = seat  # the first card played after trick 1 leads (its leader won a trick not entered)
        if self.trick and card[0] != self.led():
            self.showed_out[seat].setdefault(self.led(), self.number)
        if card in self.penalty[seat]:
            self.penalty[seat].remove(card)
        self.trick.append((seat, card))
        self.log.append((seat, card, self.number))
        if len(self.trick) == 4:
            self.winners.append(_winner(self.trick, self.trumps))
            self.leader = self.winners[-1]
            self.trick = []
            self.number += 1


def _held_at_turn(t: _Table, seat: str, card: str) -> dict:
    """A defender's card exposed at his turn, before he has played to the
    trick, may be one held so that his partner could see it: played (45C1),
    not a penalty card.  `held_next`: who plays after it if it is."""
    at_turn = t.defender(seat) and t.expected() == seat and seat not in t.seats_in_trick()
    if not at_turn:
        return {"at_turn": False, "held_next": None}
    if t.joined and not t.trick:  # the cards before it at this trick are not entered: how many is not known
        return {"at_turn": True, "held_next": None}
    trick = [*t.trick, (seat, card)]
    return {"at_turn": True, "held_next": _winner(trick, t.trumps) if len(trick) == 4 else after(seat)}


def _table(req: dict) -> _Table:
    return _Table(req["declarer"], req["strain"], req.get("trick", 1), req.get("seat"))


def analyse(req: dict) -> dict:
    """The facts of the first irregularity in the play (kind 'none' if there
    is none).  Facts are flat: the trees in play.json test them by name."""
    t = _table(req)
    events = req["events"]
    base = {"edition": req["edition"], "declarer": t.declarer, "dummy": t.dummy, "lho": after(t.declarer),
            "rho": after(t.declarer, 3), "trumps": t.trumps or "NT",
            "at_turn": False, "held_next": None}  # 45C1: only a card exposed at its holder's turn (_held_at_turn)

    def facts(kind: str, i: int | None, seat: str | None = None, card: str | None = None, **more) -> dict:
        out = dict(base, kind=kind, index=i, trick=t.number, due=t.expected())
        if i is not None and i + 1 < len(events):
            out.update(next_seat=events[i + 1]["seat"], next_card=events[i + 1]["card"])
        seat = seat or (events[i]["seat"] if i is not None else None)
        card = card or (events[i]["card"] if i is not None else None)
        if seat:
            out.update(seat=seat, side=t.side(seat), partner=partner(seat), offender_lho=after(seat),
                       offender_rho=after(seat, 3))
        if card:
            out.update(card=card, suit=card[0], honour=card[1] in HONOURS)
        out.update(more)
        return out

    for i, ev in enumerate(events):
        seat, card, marker = ev["seat"], ev["card"], ev["marker"]
        if t.leader is None and not t.trick and not t.joined and marker in (None, "revoke", "simultaneous"):
            t.leader = seat  # after trick 1, the first card played is taken as the lead, in turn

        if marker in ("penalty", "minor"):
            if not t.defender(seat):
                raise RulingInputError(f"Card {i + 1}: no card of declarer's or dummy's ever becomes a penalty "
                                       "card (48A).", "play")
            if marker == "minor" and card[1] in HONOURS:
                raise RulingInputError(f"Card {i + 1}: a card of honour rank is always a major penalty card "
                                       "(50B).", "play")
            t.penalty[seat].append(card)
            if marker == "minor":
                t.minor.add(card)
            continue

        if marker == "exposed":
            return facts("exposed-card", i, several=bool(t.penalty[seat]), deliberate=False,
                         **_held_at_turn(t, seat, card))

        if marker == "changed":
            return _changed_designation(t, events, i, facts)

        if marker == "fifth":
            return _fifth_card(t, events, i, facts)

        if marker == "retract":
            return _retraction(t, events, i, facts)

        if marker == "simultaneous":
            if i == 0:
                raise RulingInputError("Card 1: 'simultaneous' marks a card played at the same moment as the "
                                       "card before it; there is none.", "play")
            prev = events[i - 1]
            if prev["seat"] == seat:
                return facts("simultaneous-cards", i, other=prev["card"], other_honour=prev["card"][1] in HONOURS,
                         several=bool(t.penalty[seat]),
                             late=_both_sides_played_after(t, events, i))
            if seat == t.expected():  # 58A: deemed played after the other card, in turn
                t.play(seat, card)
                t.deemed_after = True
                continue
            return _irregular_play(t, events, i, facts, simultaneous=True)

        if marker == "facedown":
            if t.first != 1:
                raise RulingInputError(f"Card {i + 1}: only the opening lead is made face down, and the play "
                                       f"entered starts at trick {t.first}.", "trick")
            if t.joined:
                raise RulingInputError(f"Card {i + 1}: only the opening lead is made face down, and with the seat "
                                       "at fault the card entered is not a lead.", "seat")
            if t.number != 1 or t.trick:
                raise RulingInputError(f"Card {i + 1}: only the opening lead is made face down.", "play")
            if seat == t.leader:
                t.play(seat, card)
                continue
            if not t.defender(seat):
                return facts("opening-lead-by-declaring-side", i, face_down=True, correct_leader=t.leader)
            return facts("face-down-opening-lead-out-of-turn", i, correct_leader=t.leader)

        if marker == "revoke" and t.leads():
            raise RulingInputError(f"Card {i + 1}: {SEAT_NAMES[seat]}'s {card_name(card)} is the lead to trick "
                                   f"{t.number}, and a lead cannot be a revoke: a revoke is a failure to follow "
                                   "suit to the card led (61A). Enter the lead before it, or give the seat at "
                                   f"fault ({seat}) with his card alone.", "play")

        if seat != t.expected():
            return _irregular_play(t, events, i, facts)

        if marker == "revoke" or card[0] in t.showed_out[seat]:
            if marker == "revoke":
                number = t.number
                t.play(seat, card)
            else:
                number = t.showed_out[seat][card[0]]
            return _revoke(t, events, i, number, seat, facts, req["findings"])

        if t.penalty[seat] and not (t.joined and not t.trick):  # (the suit led to a joined trick is not known)
            failed = _failed_penalty_card(t, seat, card)
            if failed:
                return facts("penalty-card-not-played", i, penalty_card=failed,
                             major=failed not in t.minor or len(t.penalty[seat]) > 1,
                             declarer_played_after=any(e["seat"] in (t.declarer, t.dummy)
                                                       for e in events[i + 1:]))
        t.play(seat, card)

    # no irregularity in the cards: a defective trick found (67; with the seat
    # at fault and no card: _check_defective), what the Director heard
    # declarer call from dummy (46), or penalty cards on the table
    if t.joined and req["findings"].get("defective") in DEFECTIVE:
        return facts("defective-trick", None, seat=t.joined)
    if t.joined:
        name = SEAT_NAMES[t.joined]
        raise RulingInputError(f"With the seat at fault ({name}), mark {name}'s card with what happened (a revoke, "
                               "an exposed card…): played in turn, it is no irregularity.", "seat")
    if req["findings"].get("dummy_call"):
        return facts("incomplete-dummy-call", None, seat=t.dummy, leading=not t.trick)
    for seat in SEATS:
        cards = t.penalty[seat]
        if cards and t.expected() is None:
            raise RulingInputError(f"From trick {t.first}, enter the cards of trick {t.first} from its lead: what a "
                                   "penalty card requires depends on who is to play.", "trick")
        if cards:
            major = len(cards) > 1 or any(c not in t.minor for c in cards)
            return facts("penalty-card-on-table", None, seat=seat, card=cards[0], cards=" ".join(cards),
                         several=len(cards) > 1, suits="one" if len({c[0] for c in cards}) == 1 else "several",
                         major=major,
                         partner_to_lead=not t.trick and t.leader == partner(seat),
                         holder_to_play=t.expected() == seat)
    if t.expected() is None:
        raise RulingInputError(f"From trick {t.first}, enter the cards of trick {t.first} from its lead: who is to "
                               "play is not known without the tricks before it.", "trick")
    # the next card leads to a trick only after a trick has been won (44G)
    return facts("none", None, next=t.expected(), leading=not t.trick and bool(t.winners),
                 simultaneous=t.deemed_after)


def _irregular_play(t: _Table, events, i, facts, simultaneous: bool = False) -> dict:
    """A card from a hand whose turn it was not."""
    extra = {"simultaneous": simultaneous}
    if not t.trick:
        return _lead_out_of_turn(t, events, i, facts, extra)
    seat = events[i]["seat"]
    mate, in_trick = partner(seat), t.seats_in_trick()
    if not t.defender(seat):
        if seat in in_trick:
            raise RulingInputError(f"Card {i + 1}: {SEAT_NAMES[seat]} has already played to trick {t.number}; "
                                   "enter the cards of each trick in the order they were played.", "play")
        # 2007 57C2, 2017 57C3; a defender then playing before his partner is
        # not subject to rectification, declarer having played from both hands (57C1)
        nxt = events[i + 1] if i + 1 < len(events) else None
        both = {seat, *in_trick} >= {t.declarer, t.dummy}
        then_57c1 = bool(nxt and both and t.defender(nxt["seat"]) and partner(nxt["seat"]) not in in_trick
                         and nxt["marker"] is None)
        return facts("declarer-premature-play", i, hand=t.side(seat), led=t.led(), exempt=then_57c1, **extra)
    skipped, s = [], t.expected()
    while s != seat:
        skipped.append(s)
        s = after(s)
    forfeit = _next_by_lho(t, events, i)
    if seat in in_trick or mate in skipped:
        if mate not in in_trick:  # 57A: led or played before partner played to the trick
            # (57C1 cannot arise here: declarer's second hand playing before
            # this defender's partner is itself the first irregularity, below)
            return facts("premature-play", i, how="lead" if seat in in_trick else "play",
                         led=t.led(), forfeit=forfeit, restricted=mate, **extra)
        return facts("exposed-card", i, several=bool(t.penalty[seat]), deliberate=True, **extra)
    # partner has played; declarer or dummy, on his right, has not (2017 57D)
    follows = events[i]["card"][0] == t.led()
    return facts("play-at-rho-turn", i, legal_card=True if follows else None, led=t.led(), **extra)


def _lead_out_of_turn(t: _Table, events, i, facts, extra) -> dict:
    seat = events[i]["seat"]
    nxt = events[i + 1] if i + 1 < len(events) else None
    correct = t.leader
    opponents = t.defender(seat) != t.defender(correct)
    # what the next card shows: a play from the hand next in rotation accepts
    # the lead (53A); the correct leader's own lead, when he is an opponent of
    # the offender, is a proper lead made after it (2007 53C, 2017 53B); the
    # defender on the right of declarer's irregular lead playing to it (2007
    # 53B, 2017 53C)
    if nxt is None:
        then = "none"
    elif nxt["marker"] == "facedown" and nxt["seat"] == correct and t.number == 1:
        then = "face-down-lead"
    elif nxt["marker"] not in (None, "revoke"):
        then = "other"
    elif nxt["seat"] == after(seat) or (t.number == 1 and not t.winners and t.defender(seat)
                                         and not t.defender(nxt["seat"])):
        then = "accepted"  # (to an opening lead, from either of declarer's hands: 54B1, 54B2)
    elif nxt["seat"] == correct and opponents:
        then = "proper-lead"
    elif nxt["seat"] == after(seat, 3) and not t.defender(seat):
        then = "rho-played"
    else:
        then = "other"
    common = dict(correct_leader=correct, then=then, trick13=t.number == 13,
                  accepted_hand=t.side(nxt["seat"]) if then == "accepted" else None, **extra)
    if t.number == 1:
        if not t.defender(seat):
            return facts("opening-lead-by-declaring-side", i, face_down=False, **common)
        return facts("opening-lead-out-of-turn", i, **common)
    if t.defender(seat):
        return facts("defender-lead-out-of-turn", i,
                     correct_side="partner" if correct == partner(seat) else "declaring", **common)
    return facts("declarer-lead-out-of-turn", i, wrong_hand=not t.defender(correct), restricted=after(seat),
                 choice57=None, **common)


def _changed_designation(t: _Table, events, i, facts) -> dict:
    """45C4(b): a card named in place of the card this hand played last.
    What the Laws test: whether the designator's partner has played since
    (2007), whether declarer has played again from either hand (2017), and
    whether an opponent played in turn after the first designation."""
    seat = events[i]["seat"]
    at = next((k for k, (s, _, _) in reversed(list(enumerate(t.log))) if s == seat), None)
    if at is None:
        raise RulingInputError(f"Card {i + 1}: 'changed' marks a card named in place of one this hand played just "
                               f"before; {SEAT_NAMES[seat]} has played no card yet.", "play")
    since = [s for s, _, _ in t.log[at + 1:]]
    return facts("changed-designation", i, other=t.log[at][1], other_honour=t.log[at][1][1] in HONOURS,
                 partner_played=partner(seat) in since,
                 declarer_played=any(s in (t.declarer, t.dummy) for s in since),
                 opponent_played=any(s not in (seat, partner(seat)) for s in since))


def _fifth_card(t: _Table, events, i, facts) -> dict:
    """45E: a card added to a completed trick.  If the Director deems it led,
    it is a lead to the next trick: in turn if its player won the trick,
    otherwise the lead out of turn (53, 55, 56) whose facts come with it."""
    if t.trick or not t.winners:
        raise RulingInputError(f"Card {i + 1}: 'fifth' marks a card added to a trick that already had four "
                               "cards; enter it after the fourth card of that trick.", "play")
    seat = events[i]["seat"]
    in_turn = seat == t.leader
    lead = {} if in_turn else _lead_out_of_turn(t, events, i, facts, {"simultaneous": False})
    more = {k: v for k, v in lead.items() if k != "kind"}
    more.update(led_kind=lead.get("kind", "none"), led_in_turn=in_turn, exposed_kind="exposed-card",
                several=bool(t.penalty[seat]), deliberate=False)
    return facts("fifth-card", i, **more)


def _retraction(t: _Table, events, i, facts) -> dict:
    """47E2: a player asks to take back a card he played, because of a
    mistaken explanation.  The Laws test whether a card was played after it
    (2017), or to the same trick after it (2007), and for an opening lead
    whether dummy has faced any card."""
    seat, card = events[i]["seat"], events[i]["card"]
    at = next((k for k, (s, c, _) in enumerate(t.log) if s == seat and c == card), None)
    if at is None:
        raise RulingInputError(f"Card {i + 1}: 'retract' marks a card its player asks to take back; "
                               f"{SEAT_NAMES[seat]} has not played the {card_name(card)}.", "play")
    number = t.log[at][2]
    later = t.log[at + 1:]
    return facts("retracted-card", i, trick=number, later_card=bool(later),
                 later_to_trick=any(n == number for _, _, n in later),
                 opening_lead=at == 0 and t.first == 1 and not t.joined)


def _next_by_lho(t: _Table, events, i) -> bool:
    """60A1: a play by the offender's LHO (a non-offender) after the
    irregularity and before rectification forfeits the right to it."""
    nxt = events[i + 1] if i + 1 < len(events) else None
    return bool(nxt and nxt["marker"] is None and nxt["seat"] == after(events[i]["seat"]))


def _both_sides_played_after(t: _Table, events, i) -> bool:
    """58B4: both sides have played to the next trick since."""
    later = [e["seat"] for e in events[i + 1:] if e["marker"] is None]
    to_finish = 4 - len(t.trick) - 1  # cards still due to this trick after the two simultaneous ones
    next_trick = later[max(to_finish, 0):]
    return any(not t.defender(s) for s in next_trick) and any(t.defender(s) for s in next_trick)


def _failed_penalty_card(t: _Table, seat: str, card: str) -> str | None:
    """The penalty card the player should have played instead of `card`, or
    None.  A major penalty card must be played at the first legal
    opportunity, leading, following, discarding or trumping, but following
    suit comes first (50D1); a minor one before any other card of its suit
    below honour rank (50C)."""
    cards = t.penalty[seat]
    if card in cards:
        return None
    major = [c for c in cards if c not in t.minor or len(cards) > 1]
    led = t.led()
    if major:
        if led is None:
            return major[0]
        of_led = [c for c in major if c[0] == led]
        if of_led:
            return of_led[0]
        return major[0] if card[0] != led else None
    minor = cards[0]
    if card[0] == minor[0] and card[1] not in HONOURS:
        return minor
    return None


def _revoke(t: _Table, events, i, number: int, seat: str, facts, findings: dict) -> dict:
    """Facts of a revoke on trick `number` by `seat`, as far as the recorded
    play shows: established (63A1: the offender or his partner played to a
    later trick), who won the revoke trick, whether the offending side won a
    later trick (64A).  Tricks count from the first trick entered."""
    replay = _Table(t.declarer, t.trumps or "NT", t.first, t.joined)
    mate, established, where = partner(seat), None, i
    for k, ev in enumerate(events):
        if ev["marker"] not in (None, "revoke", "facedown"):
            continue
        if replay.number > number and ev["seat"] in (seat, mate):
            established = True
        if replay.number == number and ev["seat"] == seat:
            where = k
        replay.play(ev["seat"], ev["card"])
    won = replay.winners  # won[k]: the winner of trick first + k
    at = number - t.first
    if len(won) > at:
        w = won[at]
        won_by = "offender" if w == seat else "partner" if w == mate else "opponents"
    else:
        won_by = None
    if any(w in (seat, mate) for w in won[at + 1:]):
        later_won = "yes"
    elif t.first + len(won) - 1 == 13:
        later_won = "no"
    else:
        later_won = None
    card = events[where]["card"]
    return facts("revoke", where, seat=seat, card=card, established=established, won_by=won_by,
                 later_won=later_won, trick12=number == 12, revoke_trick=number) | {"trick": number}


# --- the ruling ------------------------------------------------------------------------

def _word(value) -> str | None:
    """A fact as the trees test it: yes/no for booleans, text otherwise."""
    if value is None:
        return None
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


_ANSWERABLE: dict[int, dict[str, set[str]]] = {}


def answerable(data: dict) -> dict[str, set[str]]:
    """The findings an edition's trees can ask, each with the answers its
    branches take: a finding outside these would be a question never asked.
    (Worked out once per loaded data file: the files are read once.)"""
    key = id(data)
    if key not in _ANSWERABLE:
        _ANSWERABLE[key] = _answerable(data)
    return _ANSWERABLE[key]


def _answerable(data: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for _, node in rulings_data.all_nodes(data):
        if "on" in node and ("ask" in node or "option" in node):
            out.setdefault(node["on"], set()).update(node.get("cases", {}))
    return out


def _findings(data: dict, findings: dict) -> dict[str, str]:
    """The findings as the trees read them.  A finding only the other
    edition asks is accepted (and unused); an answer this edition's tree
    does not have is refused."""
    allowed = answerable(data) | {"defective": {"omitted", "too-many"},
                                  "dummy_act": {"warned", "asked-revoke", "drew-attention"}}
    known = set(allowed)
    for other in rulings_data.load(PERIOD).values():
        known |= set(answerable(other))
    out = {}
    for name, value in findings.items():
        if name in known and name not in allowed:
            continue
        if name not in allowed:
            raise RulingInputError(f"There is no finding {name!r} for the play; the findings are "
                                   f"{', '.join(sorted(allowed))}.", f"findings.{name}")
        word = _word(value)
        if word not in allowed[name]:
            raise RulingInputError(f"The finding {name!r} is one of {', '.join(sorted(allowed[name]))}, not "
                                   f"{json.dumps(value)}.", f"findings.{name}")
        out[name] = word
    return out


def rule(payload, editions: list[str] | None = None) -> dict:
    """The ruling for a request (CONTRACT.md): the irregularity, the questions
    still open, the options, the outcome, what to say and the cites."""
    all_data = rulings_data.load(PERIOD)
    req = parse_request(payload, editions)
    if req["edition"] not in all_data or (editions is not None and req["edition"] not in editions):
        raise RulingInputError(f"Edition {req['edition']!r} has no play rulings; choose "
                               f"{' or '.join(rulings_data.editions(PERIOD))}.", "edition")
    data = all_data[req["edition"]]
    findings = _findings(data, req["findings"])
    req["findings"] = findings
    # what the parser let through must still fit the documented schema (its own messages came first)
    requests.check(PERIOD, payload)
    facts = analyse(req)
    kind = facts["kind"]
    if findings.get("dummy_act"):
        facts = dict(facts, underlying=kind, kind="dummy-after-violation")
        kind = "dummy-after-violation"
    seats = _seats(facts)
    values = _values(facts, seats)
    words = {k: _word(v) for k, v in facts.items()}
    for name, value in findings.items():
        if words.get(name) is None:
            words[name] = value
    try:
        walked = walk(data, kind, words, values, seats)
    except AnswerError as exc:  # e.g. choice=accept given where declarer's choice is highest/lowest (57A)
        raise RulingInputError(f"The finding {exc.name!r} does not answer this question: here it is one of "
                               f"{', '.join(sorted(exc.allowed))}, not {json.dumps(exc.value)}.",
                               f"findings.{exc.name}") from None
    irregularity = None if kind == "none" else {
        "index": facts.get("index"), "seat": facts.get("seat"), "kind": kind, "law": data["kinds"][kind]["law"],
        "trick": facts.get("trick"), "card": facts.get("card")}
    if facts.get("simultaneous"):  # the card is deemed played after the other, so out of turn (58A)
        deemed = data["simultaneous"]
        walked["say"] = deemed["say"] + " " + walked["say"]
        walked["cites"] = deemed["cites"] + [c for c in walked["cites"] if c not in deemed["cites"]]
    out = {"edition": req["edition"], "irregularity": irregularity, **walked}
    return {**out, **rulings_data.review_of(data, out)}  # a carried code's ruling says whether it is reviewed


def _seats(f: dict) -> dict:
    seat = f.get("seat")
    nxt = f.get("next_seat")
    return {"offender": seat, "partner": f.get("partner"), "declarer": f["declarer"], "dummy": f["dummy"],
            "lho": f["lho"], "rho": f["rho"], "correct": f.get("correct_leader"),
            "offender_lho": f.get("offender_lho"), "offender_rho": f.get("offender_rho"), "due": f.get("due"),
            "after_offender": after(seat) if seat else None, "after_next": after(nxt) if nxt else None,
            "after_correct": after(f["correct_leader"]) if f.get("correct_leader") else None,
            "after_rho_card": f.get("offender_lho"), "restricted": f.get("restricted"),
            "held_next": f.get("held_next"), "none": None}


def _values(f: dict, seats: dict) -> dict:
    out = {k: SEAT_NAMES[v] for k, v in seats.items() if v in SEAT_NAMES}
    out.setdefault("offender", "the offender")
    for key in ("card", "penalty_card", "next_card", "other"):
        if f.get(key):
            out[key] = card_name(f[key])
            out[key + "_id"] = f[key]
    for key in ("suit", "led"):
        if f.get(key):
            out[key] = SUIT_NAMES[f[key]]
            out[key + "_one"] = SUIT_NAMES[f[key]][:-1]
    if f.get("next_seat"):
        out["next_seat"] = SEAT_NAMES[f["next_seat"]]
    out["trick"] = str(f.get("trick"))
    out["how"] = "led" if f.get("how") == "lead" else "played"
    if f.get("cards"):
        out["cards"] = ", ".join(card_name(c) for c in f["cards"].split())
    return out
