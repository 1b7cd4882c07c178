"""Search on the web: /api/search and /search."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("search", __name__)
