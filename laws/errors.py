"""Errors the domain code raises for input a user can correct.

The domain (parsers, store, checkers, rulings) never imports the web layer;
`laws.web.errors` maps these to HTTP (400 with the message and the field).
"""
from __future__ import annotations


class BadInput(ValueError):
    """Input a user can correct; `field` names the input at fault, if any."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field
