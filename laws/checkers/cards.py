"""Seats, suits and cards as directors write them: 'N', 'SA', 'H10', '♠K', 'KS'."""
from __future__ import annotations

import re
from dataclasses import dataclass

from laws.errors import BadInput as BadRequest

SEATS = ("N", "E", "S", "W")
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUITS = ("C", "D", "H", "S")  # ascending rank (Law 18E)
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}
STRAINS = ("C", "D", "H", "S", "NT")
RANKS = "23456789TJQKA"  # ascending
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
HONOURS = set("AKQJT")  # the honours are ace, king, queen, jack and ten (Definitions)

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_CARD = re.compile(r"^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$")


def seat_after(seat: str, n: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + n) % 4]


def same_side(a: str, b: str) -> bool:
    return SEATS.index(a) % 2 == SEATS.index(b) % 2


@dataclass(frozen=True, order=True)
class Card:
    suit: str
    rank: str

    @property
    def value(self) -> int:
        return RANKS.index(self.rank)

    def __str__(self) -> str:
        return self.suit + self.rank

    def words(self) -> str:
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[self.suit]}"

    @property
    def honour(self) -> bool:
        return self.rank in HONOURS


def parse_card(text: str, field: str, what: str = "card") -> Card:
    raw = str(text).strip().upper()
    for sym, letter in _SUIT_SYMBOLS.items():
        raw = raw.replace(sym, letter)
    m = _CARD.match(raw)
    if not m:
        raise BadRequest(f"{what.capitalize()} {str(text)!r} is not a card: write the suit and the rank, "
                         "like SA, H10, DT or C2.", field)
    suit, rank = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return Card(suit, "T" if rank == "10" else rank)


def parse_cards(texts, field: str, what: str = "card") -> list[Card]:
    """A list of cards, or one string of cards separated by spaces or commas."""
    if isinstance(texts, str):
        texts = [t for t in re.split(r"[\s,]+", texts) if t]
    cards = [parse_card(t, field, what) for t in texts]
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise BadRequest(f"The {c.words()} appears twice.", field)
        seen.add(c)
    return cards


def card_list(cards) -> str:
    return ", ".join(c.words() for c in cards)
