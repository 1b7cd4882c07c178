"""Changes: the aligned groups of one law as the changes a reader sees.

The third stage: `compare_law` aligns a law's provisions in two editions
(`align`) and gives each group a status (`STATUSES`), its word ops on the
corrected text and on the sources' raw readings, and its place in either
edition's reading order; paragraphs of one provision aligned to paragraphs
of one provision become one change.  It uses `text` and `align`; counting
and summing up the changes is `summary`'s.

Statuses: `same` (equal after normalising whitespace, quote marks and
footnote marks; headings compared ignoring case), `changed`, `moved`
(aligned, but out of order with the other aligned provisions; a moved
provision may also have changed words, its ops say), `added`, `removed`.
A renumbered provision (2007 35.1 -> 2017 35A) keeps both ids.
"""
from __future__ import annotations

import re

from laws.compare.align import Group, Unit, align, expand, out_of_order, units
from laws.compare.text import normalise, unique, word_ops

STATUSES = ("same", "changed", "moved", "added", "removed")


def compare_law(a_provisions: list[dict], b_provisions: list[dict], overrides: list[dict] = ()) -> list[dict]:
    """The changes between one law's provisions in two editions, in the newer
    edition's reading order (removed provisions where they stood).  Each
    change has `ord` (its place in that order) and `rev_ord` (its place in the
    older edition's order, for reading the comparison the other way round)."""
    a, b = units(a_provisions), units(b_provisions)
    groups = expand(align(a, b, overrides))
    moved = out_of_order(groups)
    changes = []
    for g in sorted(groups, key=_placement(groups, "b")):
        change = _change(g, id(g) in moved)
        change["_a"], change["_b"] = [u.index for u in g.a], [u.index for u in g.b]
        prev = changes[-1] if changes else None
        # paragraphs of one provision aligned to paragraphs of one provision: one change
        if (prev and prev["from_provisions"] == change["from_provisions"]
                and prev["to_provisions"] == change["to_provisions"] and prev["from_provisions"]
                and prev["to_provisions"] and prev["how"] == change["how"] == "auto"):
            _coalesce(prev, change)
            prev["_a"] += change["_a"]
            prev["_b"] += change["_b"]
            continue
        changes.append(change)
    for n, c in enumerate(changes):
        c["ord"] = n
    for n, c in enumerate(sorted(changes, key=_placement_of_changes(changes))):
        c["rev_ord"] = n
    for c in changes:
        del c["_a"], c["_b"]
    return changes


def _placement(groups: list[Group], primary: str):
    """Sort key putting groups in the primary side's reading order; a group
    with no unit on that side goes just after the counterpart of the aligned
    unit before it on its own side."""
    other = "a" if primary == "b" else "b"
    partner: dict[int, int] = {}
    for g in groups:
        mine, theirs = getattr(g, other), getattr(g, primary)
        if mine and theirs:
            for u in mine:
                partner[u.index] = theirs[0].index

    def key(g: Group) -> tuple:
        mine, theirs = getattr(g, other), getattr(g, primary)
        if theirs:
            return (theirs[0].index, 0, mine[0].index if mine else -1)
        before = [partner[i] for i in range(mine[0].index) if i in partner]
        return (max(before) if before else -1, 1, mine[0].index)
    return key


def _placement_of_changes(changes: list[dict]):
    """The same as `_placement` for finished changes, in the older edition's order."""
    partner: dict[int, int] = {}
    for c in changes:
        if c["_a"] and c["_b"]:
            for i in c["_b"]:
                partner[i] = min(c["_a"])

    def key(c: dict) -> tuple:
        if c["_a"]:
            return (min(c["_a"]), 0, min(c["_b"]) if c["_b"] else -1)
        before = [partner[i] for i in range(min(c["_b"])) if i in partner]
        return (max(before) if before else -1, 1, min(c["_b"]))
    return key


def _change(g: Group, is_moved: bool) -> dict:
    old, new, old_raw, new_raw = _texts(g)
    old_head = next((u.heading for u in g.a if u.heading), "")
    new_head = next((u.heading for u in g.b if u.heading), "")
    status = _status(g, is_moved, old, new, old_head, new_head)
    text_changed = status in ("changed", "moved") and normalise(old) != normalise(new)
    ops = word_ops(old, new) if (old or new) else []
    if (old_raw, new_raw) == (old, new):  # no corrections on either side: the same differences
        raw_ops = [list(op) for op in ops]
    else:
        raw_ops = word_ops(old_raw, new_raw) if (old_raw or new_raw) else []
    heading_ops = (word_ops(old_head, new_head)
                   if normalise(old_head).lower() != normalise(new_head).lower() else [])
    minor = text_changed and _bare(old) == _bare(new)
    return {
        "from_provision": g.a[0].pid if g.a else None,
        "to_provision": g.b[0].pid if g.b else None,
        "status": status,
        "ops": ops,
        "from_provisions": unique(u.pid for u in g.a),
        "to_provisions": unique(u.pid for u in g.b),
        "score": round(g.score, 1),
        "how": g.how,
        "reason": g.reason,
        "part_of": {"from_provisions": g.whole[0], "to_provisions": g.whole[1]} if g.whole else None,
        "text_changed": text_changed,
        "minor": minor,
        "heading_ops": heading_ops,
        "raw_ops": raw_ops,
    }


def _texts(g: Group) -> tuple[str, str, str, str]:
    """(old, new, old raw, new raw): a piece of a split or merge has its own,
    any other group its units' paragraphs joined."""
    if g.texts:
        return g.texts
    return _join(g.a, "text"), _join(g.b, "text"), _join(g.a, "raw"), _join(g.b, "raw")


def _join(us: list[Unit], attr: str) -> str:
    return "\n\n".join(getattr(u, attr) for u in us if getattr(u, attr))


def _status(g: Group, is_moved: bool, old: str, new: str, old_head: str, new_head: str) -> str:
    if g.a and not g.b:
        return "removed"
    if g.b and not g.a:
        return "added"
    same_text = normalise(old) == normalise(new)
    same_head = normalise(old_head).lower() == normalise(new_head).lower()
    # a split or merge is a change even where the words are all kept
    return "moved" if is_moved else ("same" if same_text and same_head and not g.whole else "changed")


def _bare(text: str) -> str:
    """Text without case and punctuation: a change that vanishes here is one of
    capitalisation or punctuation only."""
    return " ".join(re.findall(r"\w+", normalise(text).lower()))


def _coalesce(prev: dict, change: dict) -> None:
    for key in ("ops", "raw_ops"):
        if prev[key] and change[key]:
            prev[key] = prev[key] + [["equal", "\n\n"]] + change[key]
        else:
            prev[key] = prev[key] or change[key]
    prev["heading_ops"] = prev["heading_ops"] or change["heading_ops"]
    rank = {"same": 0, "changed": 1, "moved": 2}
    if rank.get(change["status"], 0) > rank.get(prev["status"], 0):
        prev["status"] = change["status"]
    # minor: every paragraph whose words changed changed only in case or punctuation
    parts = [(p["text_changed"], p["minor"]) for p in (prev, change)]
    prev["text_changed"] = any(t for t, _m in parts)
    prev["minor"] = prev["text_changed"] and all(m for t, m in parts if t)
    prev["score"] = min(prev["score"], change["score"])
