"""Errors the domain code raises for input a user can correct.

The domain (parsers, store, checkers, rulings) never imports the web layer;
`laws.web.errors` maps these to HTTP (400 with the message and the field).
"""
from __future__ import annotations

import re

# code points UTF-8 cannot encode: lone surrogates, which JSON can write
# ("\ud800") and Python reads into a str
_UNENCODABLE = re.compile("[\ud800-\udfff]")


def quotable(text: str) -> str:
    """`text` (input) to name as a field or quote in a message: each lone
    surrogate written as its JSON escape (\\ud800, as the client sent it, and
    as `repr` writes it), so that the reply quoting it can be encoded."""
    return _UNENCODABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


class BadInput(ValueError):
    """Input a user can correct; `field` names the input at fault, if any."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field
