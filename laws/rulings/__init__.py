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
