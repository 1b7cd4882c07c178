"""Rulings at the table: each rectification the Laws prescribe, kept as data
(decision trees citing provisions, one file per edition, grouped by period),
walked by `walker.walk` here and by the same walker in static/rulings/ for
the phone offline.  See README.md in this folder."""
from __future__ import annotations


class RulingError(ValueError):
    """Input a user can correct: `field` names the input at fault (or None)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


# One request per period, as a director would send it (no edition named: the
# code in force rules): the API's documentation and bench/load.py use them;
# tests check they give a ruling.
EXAMPLES = {
    "auction": {"dealer": "N", "calls": [["N", "1H"], ["E", "1D"]], "findings": {}},
    "play": {"contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {}},
}
