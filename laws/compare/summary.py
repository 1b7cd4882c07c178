"""Summary: a law's changes counted and said in one line.

The fourth stage: counts by status (`counts`), the law's status
(`law_status`) and the line shown in lists and pages ('3 provisions
changed, 1 added; cross-reference 17E2 → 17D3': `summary`).  Over finished
changes only, so the build and the reading path, which reads a comparison
the other way round, say it the same way.  It uses `changes` (the statuses).
"""
from __future__ import annotations

from laws.compare.changes import STATUSES


def counts(changes: list[dict]) -> dict[str, int]:
    c = {s: 0 for s in STATUSES}
    for ch in changes:
        c[ch["status"]] += 1
    return c


def law_status(changes: list[dict], title_changed: bool) -> str:
    return "same" if not title_changed and all(c["status"] == "same" for c in changes) else "changed"


def summary(c: dict[str, int], title_changed: bool = False, refs: list = ()) -> str:
    """'3 provisions changed, 1 added; cross-reference 17E2 → 17D3'."""
    parts = []
    for status in ("changed", "moved", "split", "merged", "added", "removed"):
        n = c.get(status, 0)
        if n:
            noun = "provision" if n == 1 else "provisions"
            parts.append(f"{n} {noun} {status}" if not parts else f"{n} {status}")
    if title_changed:
        parts.append("title changed")
    text = ", ".join(parts) if parts else "no changes"
    if refs:
        shown = ", ".join(f"{old} → {new}" for old, new in refs[:4])
        more = f" and {len(refs) - 4} more" if len(refs) > 4 else ""
        text += f"; cross-reference{'s' if len(refs) > 1 else ''} {shown}{more}"
    return text
