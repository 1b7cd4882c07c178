"""The checkers' data, and which edition a checker answers in by default.

`data/<edition>.json` holds, for one edition of the Laws, every checker's
provisions (`cites`: what it implements; `law`: the provision each step of
its reasoning applies, by role) and whatever else of that edition a checker
computes from (the score table, the IMP scale, the board cycle, the wording
that differs).  `data/schemas.json` holds each checker's title, input schema
and example.  The Python checkers and their JavaScript port
(static/checkers/checkers.js) read the same files, so a new edition is one
new file (a copy of the newest, edited where its Laws differ), reviewed as a
diff: `diff data/2017.json data/2027.json`.

The default edition is the code in force (the store's, resolved when it was
built; without a store, the manifest resolved the same way by
`laws.manifest.load`: dates, the `in_force` alias, LAWS_IN_FORCE,
LAWS_TODAY): no edition id is written in the code.  A checker with no data
file for the code in force answers in the newest edition of that code's
family it has, and its page says so.

A code the build carried rulings into (laws.rulings.carry) without a data
file of its own is checked by the rules of the code it was carried from:
that code's tables and logic, its cites carried through the comparison
(the store's `carried_cites`, period `checkers`).  `carried_data` makes
those editions' data, in the shape of a data file, from the store; the web
app gives them to `Codes` (`carried`), so that the code in force is offered
and applied.  A cite that followed is the new code's provision; one awaiting
review stays the older code's, written "2017:77", and the checker's
`carried.checkers[<id>].notes` says what changed.  Carried on (2017 ->
2027 -> 2031), a code's data is the carried data of the code it was carried
from, carried again: a cite already waiting ("2017:78B") keeps its name,
its note telling what became of it code by code.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
SCHEMAS = "schemas.json"
ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=None)
def _read(folder: Path) -> tuple[dict, dict]:
    """(schemas, {edition: data}) from a data folder."""
    schemas = json.loads((folder / SCHEMAS).read_text(encoding="utf-8"))
    schemas.pop("$comment", None)
    editions = {}
    for path in sorted(folder.glob("*.json")):
        if path.name == SCHEMAS:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("edition") != path.stem:
            raise ValueError(f"{path.name} says it is edition {data.get('edition')!r}")
        editions[path.stem] = data
    return schemas, editions


def schemas(folder: Path = DATA) -> dict:
    return _read(Path(folder))[0]


def editions(folder: Path = DATA) -> dict[str, dict]:
    return _read(Path(folder))[1]


def checker_editions(checker_id: str, folder: Path = DATA) -> dict[str, dict]:
    """edition -> that edition's data for one checker, for every edition that has it."""
    return {ed: data["checkers"][checker_id] for ed, data in editions(folder).items()
            if checker_id in data.get("checkers", {})}


@dataclass(frozen=True)
class Codes:
    """What the corpus says about its codes: the one in force, and each
    code's year and family (to order editions, and to fall back within the
    family of the code in force)."""

    in_force: str | None
    years: dict = field(default_factory=dict)
    families: dict = field(default_factory=dict)
    carried: dict = field(default_factory=dict)  # edition -> checkers' data carried into it (carried_data)

    @classmethod
    def from_rows(cls, rows, carried: dict | None = None) -> "Codes":
        """From editions as the store lists them (laws.queries.editions) or
        the manifest's Edition objects: each with id, year, family, in_force."""
        get = (lambda r, k: r[k]) if rows and isinstance(rows[0], dict) else getattr
        rows = list(rows)
        return cls(in_force=next((get(r, "id") for r in rows if get(r, "in_force")), None),
                   years={get(r, "id"): get(r, "year") for r in rows},
                   families={get(r, "id"): get(r, "family") for r in rows}, carried=carried or {})

    def order(self, eds) -> list[str]:
        """Editions newest first (by the corpus's years; then by id, so that
        without a manifest the newer year-numbered id comes first)."""
        return sorted(eds, key=lambda e: (self.years.get(e, 0), e), reverse=True)

    def default(self, eds) -> str:
        """The edition a checker implementing `eds` answers in when none is asked for."""
        eds = list(eds)
        if self.in_force in eds:
            return self.in_force
        family = self.families.get(self.in_force)
        same = [e for e in eds if family is not None and self.families.get(e) == family]
        return self.order(same or eds)[0]


@lru_cache(maxsize=8)
def _manifest_codes(path: str, stamp: int, as_of, override) -> Codes:
    from laws import manifest
    return Codes.from_rows([e for e in manifest.load(Path(path), as_of, override).editions if e.kind == "code"])


def from_manifest(corpus_dir: Path | str | None = None) -> Codes:
    """The codes of the corpus manifest (LAWS_CORPUS_DIR, or the repository's corpus/)."""
    folder = Path(corpus_dir or os.environ.get("LAWS_CORPUS_DIR") or ROOT / "corpus")
    from laws.manifest import MANIFEST
    try:
        stamp = (folder / MANIFEST).stat().st_mtime_ns
    except OSError:
        stamp = 0
    from laws.manifest import settings
    # the date and LAWS_IN_FORCE are part of the key: a code's day coming, or
    # a deployment naming another code, changes the code in force
    return _manifest_codes(str(folder), stamp, *settings())


# --- checkers carried into a new code through the comparison ------------------------

# the fields of a checker's entry that name provisions: lists (each cite
# carried to what it became) and single provisions (law roles, revoke's
# exceptions and redress_after, whose keys are provisions too)
_CITE_LISTS = ("cites", "redress")
_CITE_MAPS = ("law", "exceptions", "redress_after")


def qualified(edition: str, pid: str) -> str:
    """Another code's provision, as a carried cite awaiting review writes it: "2017:77"."""
    return f"{edition}:{pid}"


def waiting(frm: str, pid: str) -> str:
    """A cite of the code `frm` as it waits for review in the code carried
    into: `frm`'s provision ("2027:35D"), or, carried on while already waiting
    as an earlier code's ("2017:78B"), that one still."""
    return pid if ":" in pid else qualified(frm, pid)


def carried_data(conn, folder: Path = DATA) -> dict[str, dict]:
    """edition -> the checkers' data carried into it, in a data file's shape
    plus `carried` ({from, checkers: {id: {notes}}}), from the store `conn`
    (a sqlite3 connection) the build wrote; {} for a store without carried
    cites.  A checker with an entry of its own for the edition keeps it.
    A code carried from a code that was itself carried into (2017 -> 2027 ->
    2031) takes that code's carried entry, carried again: each code is made
    after the one it is carried from."""
    import sqlite3
    try:
        rows = conn.execute("select edition, from_edition, node, provision, to_provisions, reviewed, change "
                            "from carried_cites where period = 'checkers'").fetchall()
        titles = dict(conn.execute("select id, title from editions").fetchall())
    except sqlite3.Error:  # a store built before checkers were carried
        return {}
    own = editions(folder)
    sources: dict[str, str] = {}
    ways: dict[str, dict[str, dict[str, tuple[list[str] | None, str]]]] = {}  # edition -> checker -> way
    for ed, frm, node, pid, to, reviewed, change in rows:
        checker = node.lstrip("/")
        if checker not in own.get(ed, {}).get("checkers", {}):
            sources[ed] = frm
            ways.setdefault(ed, {}).setdefault(checker, {})[pid] = (json.loads(to) if reviewed else None, change)
    out: dict[str, dict] = {}
    for ed in _sources_first(sources):
        frm = sources[ed]
        for checker, way in ways[ed].items():
            entry, source = _entry_in(checker, frm, own, out)
            if entry is None:
                continue
            data = out.setdefault(ed, {"edition": ed, "title": titles.get(ed, ed), "tables": source.get("tables", {}),
                                       "checkers": {}, "carried": {"from": frm, "checkers": {}}})
            data["checkers"][checker], notes = carry_entry(entry, way, frm, ed)
            data["carried"]["checkers"][checker] = {"notes": notes}
    return out


def _sources_first(sources: dict[str, str]) -> list[str]:
    """The editions carried into (`sources`: edition -> the one it is carried
    from), each after the one it is carried from when that was carried too."""
    order: list[str] = []

    def visit(ed: str) -> None:
        if ed in sources and ed not in order:
            visit(sources[ed])
            order.append(ed)
    for ed in sorted(sources):
        visit(ed)
    return order


def _entry_in(checker: str, edition: str, own: dict, carried: dict) -> tuple[dict | None, dict]:
    """A checker's entry in `edition` and the data it is in: the edition's
    data file's, else what was carried into it (None, {}: it has none)."""
    for data in (own.get(edition, {}), carried.get(edition, {})):
        if checker in data.get("checkers", {}):
            return data["checkers"][checker], data
    return None, {}


def carry_entry(entry: dict, way: dict, frm: str, new: str) -> tuple[dict, dict[str, str]]:
    """One checker's entry of the older code `frm`, its provisions carried
    (`way`: provision -> (the new code's provisions, or None while it awaits
    review; what changed)), and the notes of those awaiting review, in the
    order the entry cites them."""
    notes: dict[str, str] = {}

    def many(pid: str) -> list[str]:
        to, change = way.get(pid, (None, f"{pid} was not carried"))
        if to is None:
            notes[waiting(frm, pid)] = change
            return [waiting(frm, pid)]
        return list(to)

    def one(pid: str) -> str:
        # a provision applied at one step: what it became (the first, if
        # split), or the older code's while it awaits review or was removed
        to = many(pid)
        if not to:
            notes[waiting(frm, pid)] = way[pid][1] + ", removed by review"
            return waiting(frm, pid)
        return to[0]

    def walk(value):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k in _CITE_LISTS and isinstance(v, list):
                    out[k] = list(dict.fromkeys(c for pid in v for c in many(pid)))
                elif k in _CITE_MAPS and isinstance(v, dict):
                    out[k] = {(one(a) if k == "redress_after" else a):
                              (list(dict.fromkeys(c for p in b for c in many(p))) if isinstance(b, list) else one(b))
                              for a, b in v.items()}
                elif k == "ruling" and isinstance(v, str):  # the ruling in the new code: its rulings are carried too
                    out[k] = v.replace(f"edition={frm}", f"edition={new}")
                else:
                    out[k] = walk(v)
            return out
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    carried = walk(entry)
    order = {waiting(frm, p): i for i, p in enumerate(entry.get("cites", []))}
    return carried, dict(sorted(notes.items(), key=lambda kv: order.get(kv[0], len(order))))


def carried_note(data: dict, checker_id: str) -> dict:
    """For a checker in a code whose checkers were carried from another's
    (`data`: the edition's data): whose rules it follows (`carried_from`),
    whether every provision it cites followed or was reviewed (`reviewed`),
    and if not what changed (`review`), as a carried ruling's reply says it.
    {} for an edition with data of its own."""
    carried = data.get("carried")
    if not carried or checker_id not in carried.get("checkers", {}):
        return {}
    notes = carried["checkers"][checker_id]["notes"]
    review = f"not yet reviewed for {data['edition']}: " + "; ".join(notes.values()) if notes else None
    return {"carried_from": carried["from"], "reviewed": not notes, "review": review}


def carried_words(text: str, data: dict, checker_id: str) -> str:
    """`text` with each older code's provision awaiting review ("2017:77")
    written as words ("77 (2017 Laws)"), as a carried ruling names the law
    of a kind; the cites themselves keep the qualified form."""
    carried = data.get("carried")
    if not carried or checker_id not in carried.get("checkers", {}):
        return text
    for q in sorted(carried["checkers"][checker_id]["notes"], key=len, reverse=True):
        other, _, pid = q.partition(":")
        text = text.replace(q, f"{pid} ({other} Laws)")
    return text
