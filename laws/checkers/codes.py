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

    @classmethod
    def from_rows(cls, rows) -> "Codes":
        """From editions as the store lists them (laws.queries.editions) or
        the manifest's Edition objects: each with id, year, family, in_force."""
        get = (lambda r, k: r[k]) if rows and isinstance(rows[0], dict) else getattr
        rows = list(rows)
        return cls(in_force=next((get(r, "id") for r in rows if get(r, "in_force")), None),
                   years={get(r, "id"): get(r, "year") for r in rows},
                   families={get(r, "id"): get(r, "family") for r in rows})

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
