"""Checkers for Law 2: the duplicate boards."""
from __future__ import annotations

from laws.checkers.cards import SEAT_NAMES
from laws.checkers.registry import Edition, Result, checker

_VULNERABLE_WORDS = {"None": "neither side is vulnerable", "NS": "North-South are vulnerable",
                     "EW": "East-West are vulnerable", "Both": "both sides are vulnerable"}


@checker("board")
def board(data: dict, ed: Edition) -> Result:
    """The dealer and the vulnerability of any board number (Law 2).

    Input: `board`, a whole number from 1.  Result: `dealer` (N, E, S or W),
    `vulnerable` (None, NS, EW or Both), and `cycle_position`, the board's
    place in Law 2's cycle of 16.  Boards 17-32 and each later group of 16
    repeat the table of Boards 1-16; the dealer rotates N, E, S, W.  The
    table is the edition's data (`tables.board`)."""
    table = ed.tables["board"]
    cycle, dealers = table["cycle"], table["dealers"]
    n = data["board"]
    position = (n - 1) % cycle + 1
    dealer = dealers[(n - 1) % len(dealers)]
    vulnerable = table["vulnerable"][position - 1]
    repeat = f" (it takes the place of Board {position} in Law {ed.law('board')}'s table)" if n > cycle else ""
    return Result(
        {"board": n, "dealer": dealer, "vulnerable": vulnerable, "cycle_position": position},
        f"On Board {n}{repeat} {SEAT_NAMES[dealer]} deals and {_VULNERABLE_WORDS[vulnerable]}.",
        [ed.law("board")],
    )
