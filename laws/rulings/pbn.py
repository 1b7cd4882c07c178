"""PBN, the Portable Bridge Notation (version 2.1), read and written for
the ruling record: the facts of a board (event, site, date, board, dealer,
vulnerability, the hands, the players, the auction, the play, the result)
from a file any scoring or dealing program writes, and back.

No maintained Python library for PBN is small enough to be worth a
dependency for this grammar, so this is the grammar, kept small:
- `%` at the start of a line is an escape line (ignored); `;` starts a
  comment to the end of the line; `{…}` is commentary (kept, in order);
- `[Name "value"]` is a tag pair (`\\"` and `\\\\` escaped in the value);
  a value `#` repeats the previous game's;
- the lines after the Auction or Play tag, up to the next tag, are its
  section: calls or cards, notes (`=1=`), suffixes (`!`, `?`) dropped;
- an empty line ends a game.
Tags the record does not use are kept in `tags` and otherwise ignored.
static/rulings/pbn.js is the same module for the phone; both read
tests/fixtures/pbn/ and must agree.
"""
from __future__ import annotations

import re

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"
# the record's word for each PBN vulnerability (the board checker's words)
VULNERABLE = {"None": "None", "Love": "None", "-": "None", "NS": "NS", "EW": "EW", "All": "Both", "Both": "Both"}
VULNERABLE_OUT = {"None": "None", "NS": "NS", "EW": "EW", "Both": "All"}
PLAYERS = {"N": "north", "E": "east", "S": "south", "W": "west"}
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
MAX_TEXT = 200_000


class PBNError(ValueError):
    """Input that is not PBN; `tag` names the tag at fault."""

    def __init__(self, message: str, tag: str | None = None):
        super().__init__(message)
        self.tag = tag


_TOKEN = re.compile(r'\{[^}]*\}?|\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]|;[^\n]*|\n[ \t]*(?=\n)|[^\s\[\]{};]+|\[[^\]]*\]?')


def parse(text: str) -> list[dict]:
    """The games of a PBN file: [{tags: {name: value}, sections: {name: [tokens]},
    commentary: [text]}]."""
    if len(text) > MAX_TEXT:
        raise PBNError(f"A PBN file for a record is at most {MAX_TEXT} characters.")
    text = "\n".join(line for line in text.replace("\r\n", "\n").split("\n") if not line.startswith("%"))
    games, game, section, previous = [], None, None, {}
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith("\n"):  # an empty line: the game ends
            if game is not None:
                games.append(game)
                previous, game, section = game["tags"], None, None
            continue
        if tok.startswith(";"):
            continue
        if tok.startswith("{"):
            if not tok.endswith("}"):
                raise PBNError("A commentary opened with { is not closed with }.")
            if game is not None:
                game["commentary"].append(tok[1:-1].strip())
            continue
        if tok.startswith("["):
            if m.group(1) is None:
                raise PBNError(f"{tok[:40]!r} is not a tag pair like [Event \"…\"].")
            name, value = m.group(1), re.sub(r'\\(.)', r'\1', m.group(2))
            if game is None:
                game = {"tags": {}, "sections": {}, "commentary": []}
            game["tags"][name] = previous.get(name, "") if value == "#" else value
            section = name if name in ("Auction", "Play") else None
            if section:
                game["sections"][section] = []
            continue
        if section:
            game["sections"][section].append(tok)
        # tokens of a section Lawbook does not read (OptimumResultTable…) are ignored
    if game is not None:
        games.append(game)
    return games


def deal(value: str) -> dict:
    """A Deal tag's value ('N:AKQ.… … … …', `-` for a hand not known) as
    {seat: [spades, hearts, diamonds, clubs] or None}, North first; a hand
    of other than 13 cards, a card twice, a hand of other than four suits
    or a rank that is none is refused naming the tag Deal."""
    v = value.strip()
    m = re.match(r"^([NESWnesw]):(.*)$", v)
    if not m:
        raise PBNError(f"Deal: {v[:30]!r} does not start with the first seat and a colon (like N:).", "Deal")
    hands = m[2].split()
    if len(hands) != 4:
        raise PBNError(f"Deal: it gives {len(hands)} hands, not 4 (a hand not known is -).", "Deal")
    first, out, seen = SEATS.index(m[1].upper()), {}, {}
    for i, hand in enumerate(hands):
        seat = SEATS[(first + i) % 4]
        if hand == "-":
            out[seat] = None
            continue
        suits = hand.upper().split(".")
        if len(suits) != 4:
            raise PBNError(f"Deal: {NAMES[seat]}'s hand {hand!r} has {len(suits)} suits, not 4 (spades.hearts.diamonds.clubs).",
                           "Deal")
        for suit, cards in zip(SUITS, suits):
            cards = cards.replace("10", "T")
            for r in cards:
                if r not in RANKS:
                    raise PBNError(f"Deal: {r!r} in {NAMES[seat]}'s hand is not a rank (AKQJT98765432).", "Deal")
                if suit + r in seen:
                    raise PBNError(f"Deal: the {suit}{r} is dealt twice ({NAMES[seen[suit + r]]} and {NAMES[seat]}).",
                                   "Deal")
                seen[suit + r] = seat
        count = sum(len(c.replace("10", "T")) for c in suits)
        if count != 13:
            raise PBNError(f"Deal: {NAMES[seat]}'s hand has {count} cards, not 13.", "Deal")
        out[seat] = ["".join(sorted(c.replace("10", "T"), key=RANKS.index)) for c in suits]
    return {s: out[s] for s in SEATS}


def deal_text(hands: dict) -> str:
    """{seat: [S, H, D, C] or None} as a Deal value, North first."""
    return "N:" + " ".join("-" if hands[s] is None else ".".join(hands[s]) for s in SEATS)


_CALL = re.compile(r"^(PASS|AP|X|XX|[1-7](C|D|H|S|NT))$", re.I)
_CARD = re.compile(r"^[SHDC][AKQJT98765432]$", re.I)


def _tokens(tokens: list[str], pattern, tag: str, what: str) -> list[str]:
    """A section's calls or cards: notes (=1=) and suffixes (! ?) dropped, `*` (end) kept out,
    `-` (a card not known) kept."""
    out = []
    for t in tokens:
        if re.match(r"^=\d+=$", t) or re.match(r"^\$\d+$", t) or t in ("*", "+"):
            continue
        t = t.rstrip("!?")
        if t == "-" or pattern.match(t):
            out.append("Pass" if t.upper() == "PASS" else t.upper() if t != "-" else t)
        elif t:
            raise PBNError(f"{tag}: {t[:20]!r} is not a {what}.", tag)
    return out


def facts(game: dict) -> dict:
    """A game as the record's fields (what record.json names), only those given."""
    tags, out = game["tags"], {}
    for tag, key in (("Event", "event"), ("Site", "site"), ("Board", "board"), ("Round", "round")):
        v = tags.get(tag, "").strip()
        if v and v != "?":
            out[key] = v
    date = tags.get("Date", "")
    if re.match(r"^\d{4}\.\d{2}\.\d{2}$", date):
        out["date"] = date.replace(".", "-")
    for seat, key in PLAYERS.items():
        name = tags.get(NAMES[seat], "").strip()
        if name and name != "?":
            out[key] = name
    if tags.get("Dealer", "").upper() in list(SEATS):
        out["dealer"] = tags["Dealer"].upper()
    if tags.get("Vulnerable") in VULNERABLE:
        out["vulnerable"] = VULNERABLE[tags["Vulnerable"]]
    if tags.get("Deal", "").strip() not in ("", "?"):  # "?": not known
        out["deal"] = deal_text(deal(tags["Deal"]))
    for tag, key, pattern, what in (("Auction", "auction", _CALL, "call"), ("Play", "cardplay", _CARD, "card")):
        first = tags.get(tag, "").strip().upper()
        if first in list(SEATS):
            tokens = _tokens(game["sections"].get(tag, []), pattern, tag, what)
            if tokens:
                out[key] = " ".join([first] + tokens)
    contract = tags.get("Contract", "").strip().upper()
    if re.match(r"^[1-7](C|D|H|S|NT)(X|XX)?$", contract):
        out["result_contract"] = contract
    if tags.get("Declarer", "").strip().upper() in list(SEATS):
        out["result_declarer"] = tags["Declarer"].strip().upper()
    if re.match(r"^(1[0-3]|\d)$", tags.get("Result", "").strip()):
        out["result_tricks"] = tags["Result"].strip()
    return out


def read(text: str) -> list[dict]:
    """The record's fields of each game of a PBN file."""
    return [facts(g) for g in parse(text)]


def _quote(value: str) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _lines(tokens: list[str]) -> list[str]:
    return [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]


def write(record: dict, commentary: str = "") -> str:
    """One game in PBN 2.1 export format from the record's fields (`record`:
    as facts() gives them, the dealer and vulnerability from the board
    checker), the ruling as commentary."""
    def tag(name: str, value) -> str:
        return f"[{name} {_quote(value if value not in (None, '') else '?')}]"
    date = record.get("date", "")
    out = ["% PBN 2.1", "% EXPORT", "% Lawbook ruling record",
           tag("Event", record.get("event")), tag("Site", record.get("site")),
           tag("Date", date.replace("-", ".") if date else "????.??.??"), tag("Round", record.get("round")),
           tag("Board", record.get("board")),
           *(tag(n, record.get(PLAYERS[s])) for s, n in (("W", "West"), ("N", "North"), ("E", "East"), ("S", "South"))),
           tag("Dealer", record.get("dealer")),
           tag("Vulnerable", VULNERABLE_OUT.get(record.get("vulnerable") or "", "?")),
           tag("Deal", deal_text(deal(record["deal"])) if record.get("deal") else "?"),
           tag("Scoring", record.get("scoring")), tag("Declarer", record.get("result_declarer")),
           tag("Contract", record.get("result_contract")), tag("Result", record.get("result_tricks"))]
    for name, key in (("Auction", "auction"), ("Play", "cardplay")):
        if record.get(key):
            first, *tokens = record[key].split()
            out.append(tag(name, first))
            out += _lines(tokens)
    if commentary:
        out.append("{" + commentary.replace("}", ")").replace("{", "(") + "}")
    return "\n".join(out) + "\n"
