"""Changes: the aligned groups of one law as the changes a reader sees.

The third stage: `compare_law` aligns a law's provisions in two editions
(`align`) and gives each group a status (`STATUSES`), its word ops on the
corrected text and on the sources' raw readings, and its place in either
edition's reading order; paragraphs of one provision aligned to paragraphs
of one provision become one change.  It uses `text` and `align`; counting
and summing up the changes is `summary`'s.

Statuses (`STATUSES`), one meaning each:

    same      the same id, the words equal after normalising whitespace, quote
              marks, case and footnote marks (headings and tables likewise)
    changed   the same id, the words differ, or a cell, caption or header of
              its tables (`attach_tables`)
    moved     another id: renumbered (2007 35.1 -> 2017 35A) or moved to
              another law (2007 17D1 -> 2017 15A1); `text_changed` says
              whether the words changed too.  Only within a family: across
              families (rubber <-> duplicate) ids are not comparable, so a pair
              there is `same` or `changed`.
    split     one provision become several (each piece is its own change)
    merged    several provisions become one
    added, removed

A pair merely out of order with its neighbours keeps its status: order is
not a change of rule.  A change crossing laws carries `from_law` and
`to_law`, and belongs to both laws' comparisons (`compare_code`).
"""
from __future__ import annotations

import re

from laws.compare.align import Group, Unit, align, expand, units
from laws.compare.text import normalise, unique, word_ops

STATUSES = ("same", "changed", "moved", "split", "merged", "added", "removed")


def compare_law(a_provisions: list[dict], b_provisions: list[dict], overrides: list[dict] = (),
                renumbered: bool = True) -> list[dict]:
    """The changes between one law's provisions in two editions, in the newer
    edition's reading order (removed provisions where they stood).  Each
    change has `ord` (its place in that order) and `rev_ord` (its place in the
    older edition's order, for reading the comparison the other way round).
    `renumbered`: whether another id means `moved` (within a family)."""
    a, b = units(a_provisions), units(b_provisions)
    changes = _changes_of_law(expand(align(a, b, overrides, numbering=renumbered)), 0, renumbered)
    return attach_tables(changes, _tables_of(a_provisions), _tables_of(b_provisions))


def compare_code(a_laws: dict[int, list[dict]], b_laws: dict[int, list[dict]], overrides: list[dict] = (),
                 renumbered: bool = True) -> dict[int, list[dict]]:
    """Two whole codes compared at once ({law: provisions} each side), so that
    a provision may move to another law: {law: its changes, as
    `compare_law` gives them}, for every law either code has.  A change
    crossing laws is in both laws' lists."""
    a = [u for n, ps in sorted(a_laws.items()) for u in units(ps, n)]
    b = [u for n, ps in sorted(b_laws.items()) for u in units(ps, n)]
    groups = expand(align(a, b, overrides, numbering=renumbered))
    by_law: dict[int, list[Group]] = {n: [] for n in set(a_laws) | set(b_laws)}
    for g in groups:
        for n in {u.law for u in g.a + g.b}:
            by_law[n].append(g)
    old_tables = _tables_of(p for ps in a_laws.values() for p in ps)
    new_tables = _tables_of(p for ps in b_laws.values() for p in ps)
    return {n: attach_tables(_changes_of_law(gs, n, renumbered), old_tables, new_tables)
            for n, gs in by_law.items()}


def _changes_of_law(groups: list[Group], law: int, renumbered: bool) -> list[dict]:
    """One law's groups as its changes, in order either way.  Only the units of
    `law` place a group in it (a move from another law stands where it
    arrives, like an addition; one to another law where it left)."""
    local = [_Local(g, law) for g in groups]
    changes = []
    for lg in sorted(local, key=_placement(local, "b")):
        g = lg.group
        change = _change(g, renumbered)
        change["_a"], change["_b"] = [u.index for u in lg.a], [u.index for u in lg.b]
        prev = changes[-1] if changes else None
        # paragraphs of one provision aligned to paragraphs of one provision: one change
        if (prev and prev["from_provisions"] == change["from_provisions"]
                and prev["to_provisions"] == change["to_provisions"] and prev["from_provisions"]
                and prev["to_provisions"] and prev["how"] == change["how"] == "auto"
                and (prev["from_law"], prev["to_law"]) == (change["from_law"], change["to_law"])):
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


class _Local:
    """A group as one law sees it: its units in that law (all of them when
    the units carry no law, as in a law-by-law comparison)."""

    def __init__(self, g: Group, law: int) -> None:
        self.group = g
        self.a = [u for u in g.a if u.law == law]
        self.b = [u for u in g.b if u.law == law]


def _placement(groups: list[_Local], primary: str):
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

    def key(g: _Local) -> tuple:
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


def _change(g: Group, renumbered: bool) -> dict:
    old, new, old_raw, new_raw = _texts(g)
    old_head = next((u.heading for u in g.a if u.heading), "")
    new_head = next((u.heading for u in g.b if u.heading), "")
    status = _status(g, renumbered, old, new, old_head, new_head)
    text_changed = bool(g.a and g.b) and _key(old) != _key(new)
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
        "evidence": g.evidence,
        "from_law": g.a[0].law if g.a else None,
        "to_law": g.b[0].law if g.b else None,
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


def _status(g: Group, renumbered: bool, old: str, new: str, old_head: str, new_head: str) -> str:
    """The status of a group (see the module's docstring)."""
    if g.a and not g.b:
        return "removed"
    if g.b and not g.a:
        return "added"
    if g.whole:  # a piece of a split or merge: a change even where the words are all kept
        return "split" if len(g.whole[1]) > len(g.whole[0]) else "merged"
    ids_a, ids_b = unique(u.pid for u in g.a), unique(u.pid for u in g.b)
    if len(ids_a) != len(ids_b) or len(ids_a) > 1:
        return "split" if len(ids_b) > len(ids_a) else "merged"
    if renumbered and (ids_a != ids_b or g.a[0].law != g.b[0].law):
        return "moved"
    same = _key(old) == _key(new) and _key(old_head) == _key(new_head)
    return "same" if same else "changed"


def _key(text: str) -> str:
    """What `same` compares: the normalised text without case."""
    return normalise(text).lower()


def _bare(text: str) -> str:
    """Text without case and punctuation: a change that vanishes here is one of
    capitalisation or punctuation only."""
    return " ".join(re.findall(r"\w+", normalise(text).lower()))


def _tables_of(provisions) -> dict[str, str]:
    """{provision id: its tables as compared (`text.tables_text`)} for the
    provisions (store rows as `stored.read_store` gives them) that print any."""
    return {p["id"]: p["tables"] for p in provisions if p.get("tables")}


def attach_tables(changes: list[dict], old_tables: dict[str, str], new_tables: dict[str, str]) -> list[dict]:
    """The provisions' tables compared as part of their provisions' changes
    (in place; returns `changes`).  The aligner pairs words only: a table is
    numbers in rows, which would pair with any other table of numbers, so it
    follows its provision instead.  A newer provision's tables go with the
    last change holding it (a table is printed after its provision's words);
    an older provision's with that same change when it holds the older one
    too, else with the last change holding the older one.  A change whose
    tables differ (a cell, a caption, a header) is not `same`: a changed IMP
    scale or score changes the rule though no word of the text did."""
    last: dict[tuple[str, str], int] = {}
    for n, c in enumerate(changes):
        last.update({("from", pid): n for pid in c["from_provisions"]})
        last.update({("to", pid): n for pid in c["to_provisions"]})
    old_at: dict[int, list[str]] = {}
    new_at: dict[int, list[str]] = {}
    for pid, text in new_tables.items():
        if ("to", pid) in last:
            new_at.setdefault(last[("to", pid)], []).append(text)
    for pid, text in old_tables.items():
        if ("from", pid) in last:
            n = next((m for m in new_at if pid in changes[m]["from_provisions"]), last[("from", pid)])
            old_at.setdefault(n, []).append(text)
    for n in sorted(set(old_at) | set(new_at)):
        _add_tables(changes[n], "\n\n".join(old_at.get(n, [])), "\n\n".join(new_at.get(n, [])))
    return changes


def _add_tables(change: dict, old: str, new: str) -> None:
    """One change's tables (`old`, `new`: `text.tables_text`) compared and
    added to it: their word ops after its text's, as a paragraph of their own."""
    ops = word_ops(old, new)
    # where the tables' ops start: numbers changed in a table are not
    # cross-references ('750-890 13' -> '14' is no citation of Law 13)
    change["tables_from"] = len(change["ops"]) + 1 if change["ops"] else 0
    for key in ("ops", "raw_ops"):
        change[key] = change[key] + [["equal", "\n\n"]] + [list(o) for o in ops] if change[key] else ops
        ops = [list(o) for o in ops]  # the two lists are not shared
    if change["from_provisions"] and change["to_provisions"] and _key(old) != _key(new):
        change["minor"] = (change["minor"] or not change["text_changed"]) and _bare(old) == _bare(new)
        change["text_changed"] = True
        if change["status"] == "same":
            change["status"] = "changed"


def _coalesce(prev: dict, change: dict) -> None:
    for key in ("ops", "raw_ops"):
        if prev[key] and change[key]:
            prev[key] = prev[key] + [["equal", "\n\n"]] + change[key]
        else:
            prev[key] = prev[key] or change[key]
    prev["heading_ops"] = prev["heading_ops"] or change["heading_ops"]
    rank = {"same": 0, "changed": 1}
    if rank.get(change["status"], 0) > rank.get(prev["status"], 0):
        prev["status"] = change["status"]
    # minor: every paragraph whose words changed changed only in case or punctuation
    parts = [(p["text_changed"], p["minor"]) for p in (prev, change)]
    prev["text_changed"] = any(t for t, _m in parts)
    prev["minor"] = prev["text_changed"] and all(m for t, m in parts if t)
    prev["score"] = min(prev["score"], change["score"])
