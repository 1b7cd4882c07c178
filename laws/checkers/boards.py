"""Checkers for Law 2: the duplicate boards."""
from __future__ import annotations

from laws.checkers.cards import SEAT_NAMES, SEATS
from laws.checkers.registry import Result, checker

# Law 2's table for Boards 1-16; "the same sequence is repeated for Boards
# 17-32 and for each subsequent group of 16 boards".
_VULNERABLE = ("None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
               "EW", "Both", "None", "NS", "Both", "None", "NS", "EW")
_VULNERABLE_WORDS = {"None": "neither side is vulnerable", "NS": "North-South are vulnerable",
                     "EW": "East-West are vulnerable", "Both": "both sides are vulnerable"}


@checker(
    "board", "Dealer and vulnerability of a board",
    cites={"2017": ["2"], "2007": ["2"]},
    schema={
        "properties": {"board": {"type": "integer", "minimum": 1, "title": "board number",
                                 "description": "the number on the board (1, 2, 3, …)"}},
        "required": ["board"],
    },
    example={"board": 7},
)
def board(data: dict) -> Result:
    """The dealer and the vulnerability of any board number (Law 2).

    Input: `board`, a whole number from 1.  Result: `dealer` (N, E, S or W),
    `vulnerable` (None, NS, EW or Both), and `cycle_position`, the board's
    place in Law 2's cycle of 16.  Boards 17-32 and each later group of 16
    repeat the table of Boards 1-16; the dealer rotates N, E, S, W."""
    n = data["board"]
    position = (n - 1) % 16 + 1
    dealer = SEATS[(n - 1) % 4]
    vulnerable = _VULNERABLE[position - 1]
    repeat = f" (it takes the place of Board {position} in Law 2's table)" if n > 16 else ""
    return Result(
        {"board": n, "dealer": dealer, "vulnerable": vulnerable, "cycle_position": position},
        f"On Board {n}{repeat} {SEAT_NAMES[dealer]} deals and {_VULNERABLE_WORDS[vulnerable]}.",
        ["2"],
    )
