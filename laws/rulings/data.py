"""The rulings' data files: `laws/rulings/<period>/<edition>.json`, and the
trees the build carried into a newer code (the store's `carried_rulings`).

Each file is one edition's rectifications for one period of the deal (the
auction, the play), as decision trees; the two editions' files keep the same
keys in the same order, so `diff 2007.json 2017.json` shows the edition's
changes.  A code with no file of its own for a period is ruled by the trees
the build carried into it from the previous code's through the comparison
(laws/rulings/carry.py), read from the store being served: `store_from`
gives the function that names it (the web app gives one), `load` adds its
trees to the files'.  A carried tree's cite of a provision still awaiting
review is the older code's, written `<edition>:<provision>` ("2017:45F":
`split_cite`).
"""
from __future__ import annotations

import json
import re
import sqlite3
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from laws.queries import listed

HERE = Path(__file__).resolve().parent
PERIODS = ("auction", "play")
_served: Callable[[], object] | None = None  # -> the path of the store being served, or None


def files(period: str) -> dict[str, Path]:
    """edition id -> its data file, for one period."""
    return {p.stem: p for p in sorted((HERE / period).glob("*.json"))}


@lru_cache(maxsize=None)
def files_data(period: str) -> dict[str, dict]:
    """Every edition's data file for a period: {edition: data}."""
    out = {}
    for edition, path in files(period).items():
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("edition") != edition:
            raise ValueError(f"{path.name} says it is edition {data.get('edition')!r}")
        out[edition] = data
    return out


def store_from(served: Callable[[], object] | None) -> None:
    """`load` serves the carried trees of the store `served()` names (None:
    the files only).  The web app gives a function naming the store of the
    build it serves in the current request; a rebuild is a new path."""
    global _served
    _served = served


@contextmanager
def serving(store) -> Iterator[None]:
    """`load` serves the carried trees of `store` for the block: the build's
    own store, while the build writes what the phone keeps (the search
    hand-off's map, search/offline.py), before any app serves it."""
    global _served
    before = _served
    _served = lambda: store
    try:
        yield
    finally:
        _served = before


def served_store() -> str | None:
    """The store whose carried trees `load` serves now (None: the files only):
    part of the key of anything cached from `load`."""
    path = _served() if _served is not None else None
    return None if path is None else str(path)


@lru_cache(maxsize=16)
def _carried(period: str, store: str) -> dict[str, dict]:
    """The trees carried into codes without files, from a store (built once, never changed)."""
    try:
        conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    except sqlite3.Error:
        return {}
    try:
        rows = conn.execute("select edition, data from carried_rulings where period = ?", [period]).fetchall()
    except sqlite3.Error:  # a store built before rulings were carried
        rows = []
    finally:
        conn.close()
    return {edition: json.loads(data) for edition, data in rows}


def load(period: str, store=None) -> dict[str, dict]:
    """Every edition's data for a period: {edition: data}: the files, and the
    trees carried into codes without one (from `store`, or the store
    the function `store_from` gave names)."""
    store = str(store) if store is not None else served_store()
    own = files_data(period)
    if store is None:
        return own
    carried = _carried(period, store)
    return {**carried, **own} if carried else own


def split_cite(cite: str) -> tuple[str | None, str]:
    """(the other code, its provision) for a carried cite awaiting review
    ("2017:45F"), else (None, the provision)."""
    edition, sep, pid = cite.partition(":")
    return (edition, pid) if sep and pid and not edition.startswith("def") else (None, cite)


def older_label(cite: str, edition: str) -> str:
    """How a carried cite awaiting review is shown: as the older code's provision."""
    other, pid = split_cite(cite)
    return f"Law {pid} of the {other} Laws (not yet reviewed for {edition})"


def law_of(cite: str) -> int | None:
    """The law number of a cite of the edition's own provisions (None for another code's)."""
    if split_cite(cite)[0] is not None:
        return None
    m = re.match(r"\d+", cite)
    return int(m.group()) if m else None


def review_of(data: dict, reply) -> dict:
    """For a ruling in a code whose trees were carried from another's: which
    code's rulings they are (`carried_from`), whether every cite the reply
    makes is the code's own, reviewed or found the same (`reviewed`), and if
    not, what changed (`review`: "not yet reviewed for 2027: 45F became 45G,
    words changed").  {} for a code with rulings of its own."""
    carried = data.get("carried")
    if not carried:
        return {}
    cited: list[str] = []
    _walk_cites(reply, cited.append)
    pending = [c for c in dict.fromkeys(cited) if c in carried["notes"]]  # in the order the reply cites them
    review = None
    if pending:
        review = f"not yet reviewed for {data['edition']}: " + "; ".join(carried["notes"][c] for c in pending)
    return {"carried_from": carried["from"], "reviewed": not pending, "review": review}


def _walk_cites(value, see) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cites" and isinstance(v, list):
                for c in v:
                    if isinstance(c, str):
                        see(c)
            else:
                _walk_cites(v, see)
    elif isinstance(value, list):
        for v in value:
            _walk_cites(v, see)


def editions(period: str, store=None) -> list[str]:
    """The editions with rulings for a period, in the order the site lists
    editions (laws.queries.listed, from the store being served): the code in
    force first, so that it is the default, then a published code (not yet
    in force: asked for by name), then the superseded ones.  With no store,
    newest first."""
    store = str(store) if store is not None else served_store()
    have = load(period, store)
    order = [e for e in _listing(store) if e in have] if store is not None else []
    return order + sorted((e for e in have if e not in order), reverse=True)


@lru_cache(maxsize=16)
def _listing(store: str) -> list[str]:
    """Every edition of a store, in the order the site lists them."""
    try:
        conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            rows = [dict(r) for r in conn.execute("select id, status, in_force_from, year from editions order by ord")]
        finally:
            conn.close()
    except sqlite3.Error:  # no store, or one built before editions had a status
        return []
    return listed(rows, [r["id"] for r in rows])


def nodes(tree, pointer: str = ""):
    """Every node of a tree with its pointer, depth first (for checks and coverage)."""
    yield pointer, tree
    for key, child in (tree.get("cases") or {}).items():
        yield from nodes(child, f"{pointer}/cases/{key}")


def all_nodes(data: dict):
    """(pointer, node) for every node of an edition's data."""
    for kind, spec in data["kinds"].items():
        yield from nodes(spec["tree"], f"kinds/{kind}/tree")
    for name, tree in data.get("subtrees", {}).items():
        yield from nodes(tree, f"subtrees/{name}")


def cites(data: dict) -> set[str]:
    """Every provision an edition's data cites anywhere."""
    out = set()
    for spec in data["kinds"].values():
        out.update(spec.get("cites", []))
    for _, node in all_nodes(data):
        out.update(node.get("cites", []))
        out.update((node.get("ask") or {}).get("cites", []))
        o = node.get("outcome") or {}
        out.update(o.get("cites", []))
        for key in ("lead_restrictions", "score_adjustment", "information"):
            if isinstance(o.get(key), dict):
                out.update(o[key].get("cites", []))
    return out


def laws_cited(period: str) -> dict[str, set[int]]:
    """edition -> the law numbers of its own provisions its rulings cite (law
    pages link to the ruling); an older code's provision a carried tree
    still cites is not the edition's law."""
    return _laws_cited(period, served_store())


@lru_cache(maxsize=32)
def _laws_cited(period: str, store: str | None) -> dict[str, set[int]]:
    return {ed: {n for c in cites(d) if (n := law_of(c)) is not None} for ed, d in load(period, store).items()}
