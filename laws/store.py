"""The store: one SQLite file holding every edition, written once by the build.

Real tables with primary and foreign keys, so that anyone can open the file
(with `sqlite3`, Datasette, sqlite-utils) and read it; `provisions` and
`corrections` are views, with the columns their tables had, over tables that
keep each long string once (`strings`).  The schema is here in
one place; `write_*` functions are used by the build only, and `connect` opens
the finished store read-only for the web app.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import sqlite_utils

from laws.manifest import Manifest
from laws.model import ParsedSource

SCHEMA_VERSION = 10  # 2: in_force, variants; 3: index_entries; 4: successive comparisons, alignment_overrides;
# 5: glosses (the plain-words layer); 6: an edition's life: editions.status, published,
# in_force_from, superseded_by (in_force stays "the code in force", now resolved at build time);
# 7: alignments' ops packed against the provisions' texts (ops_at, raw_at; raw_ops NULL when it is ops);
# 8: carried_rulings, carried_cites (a new code's rulings carried through the comparison)
# 9: a law's changes in one row of law_changes (alignments a view over it)
# 10: each distinct string of provisions (heading, text, raw_text) and corrections (raw, corrected,
# reason) once, in `strings`; provisions and corrections views over provision_rows and correction_rows;
# index_entries(edition, parent, ord) dropped (no query used it)
DB_NAME = "laws.db"


# The columns of the views `provisions` and `corrections`, in order, and
# which of them are kept in `strings` (their rows hold the string's id).
PROVISION_COLUMNS = ("edition", "id", "law", "parent", "label", "heading", "text", "raw_text", "ord", "depth")
PROVISION_STRINGS = ("heading", "text", "raw_text")
CORRECTION_COLUMNS = ("id", "source", "edition", "location", "raw", "corrected", "reason", "kind", "line", "certain")
CORRECTION_STRINGS = ("raw", "corrected", "reason")


def _strings_view(db: sqlite_utils.Database, view: str, table: str, columns, strung) -> None:
    """`view`: `table` with each column of `strung` read back from `strings`
    (NULL stays NULL).  Left joins on strings' primary key, which SQLite
    leaves out of a query that reads none of their columns."""
    cols = ", ".join(f"[{c}].value as [{c}]" if c in strung else f"r.[{c}]" for c in columns)
    joins = " ".join(f"left join strings [{c}] on [{c}].id = r.[{c}]" for c in strung)
    db.conn.execute(f"create view [{view}] as select {cols} from [{table}] r {joins}")


class Strings:
    """The ids of strings in the table `strings`: each distinct value gets one
    row, the first time it is asked for (None stays None).  New rows are kept
    until `flush`, then written in one executemany."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.ids: dict[str, int] = {v: i for i, v in db.conn.execute("select id, value from strings")}
        self.next = max(self.ids.values(), default=0) + 1
        self.new: list[tuple[int, str]] = []

    def id(self, value: str | None) -> int | None:
        if value is None:
            return None
        got = self.ids.get(value)
        if got is None:
            got = self.ids[value] = self.next
            self.next += 1
            self.new.append((got, value))
        return got

    def flush(self) -> None:
        self.db.conn.executemany("insert into strings (id, value) values (?, ?)", self.new)
        self.new = []


def create(path: Path) -> sqlite_utils.Database:
    db = sqlite_utils.Database(path)
    db.conn.execute("PRAGMA journal_mode = OFF")  # written once, in a fresh file
    db.conn.execute("PRAGMA synchronous = OFF")
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["editions"].create({
        "id": str, "title": str, "year": int, "kind": str, "family": str, "publisher": str,
        "description": str, "guide_to": str, "laws": str,  # laws: JSON list the manifest declares
        "in_force": int, "ord": int,
        # resolved by laws.manifest.resolve as of the build's date (meta 'as_of'):
        # status 'in force' | 'published' | 'superseded' | null; dates ISO, null when not recorded
        "status": str, "published": str, "in_force_from": str, "superseded_by": str,
    }, pk="id")
    db["sources"].create({
        "file": str, "edition": str, "title": str, "kind": str, "parser": str, "laws": str,
        "provenance": str, "attribution": str, "sha256": str, "bytes": int,
    }, pk="file", foreign_keys=[("edition", "editions", "id")])
    db["laws"].create({
        "edition": str, "number": int, "title": str, "section": str, "source": str,
    }, pk=("edition", "number"), foreign_keys=[("edition", "editions", "id"), ("source", "sources", "file")])
    # Successive codes repeat most of their wording (and a correction's reason
    # recurs for every ligature it repairs): the long strings of provisions and
    # corrections are each kept once in `strings`, and `provisions` and
    # `corrections` are views giving back the same columns, values and order.
    db["strings"].create({"id": int, "value": str}, pk="id", not_null={"value"})
    strings = [(c, "strings", "id") for c in PROVISION_STRINGS]
    db["provision_rows"].create({
        "edition": str, "id": str, "law": int, "parent": str, "label": str, "heading": int,
        "text": int, "raw_text": int, "ord": int, "depth": int,  # heading, text, raw_text: strings.id
    }, pk=("edition", "id"), foreign_keys=[("edition", "editions", "id"), *strings])
    _strings_view(db, "provisions", "provision_rows", PROVISION_COLUMNS, PROVISION_STRINGS)
    db["tables"].create({
        "id": int, "edition": str, "provision": str, "ord": int, "caption": str,
        "header": str, "rows": str, "note": str,  # header, rows: JSON
    }, pk="id", foreign_keys=[("edition", "editions", "id")])
    db["footnotes"].create({
        "id": int, "edition": str, "law": int, "provision": str, "mark": str, "text": str, "raw_text": str,
    }, pk="id", foreign_keys=[("edition", "editions", "id")])
    db["definitions"].create({
        "edition": str, "id": str, "term": str, "text": str, "raw_text": str, "ord": int,
    }, pk=("edition", "id"), foreign_keys=[("edition", "editions", "id")])
    db["sections"].create({
        "edition": str, "slug": str, "title": str, "text": str, "raw_text": str, "ord": int,
    }, pk=("edition", "slug"), foreign_keys=[("edition", "editions", "id")])
    db["topics"].create({
        "id": str, "edition": str, "slug": str, "title": str, "parent": str, "ord": int,
        "markdown": str, "raw_markdown": str, "text": str,
    }, pk="id", foreign_keys=[("edition", "editions", "id")])
    db["topic_laws"].create({"topic": str, "law": int}, pk=("topic", "law"),
                            foreign_keys=[("topic", "topics", "id")])
    db["fragments"].create({
        "id": int, "source": str, "edition": str, "kind": str, "law": int, "term": str,
        "provisions": str, "score": float, "date": str, "line": int, "text": str,
    }, pk="id", foreign_keys=[("source", "sources", "file"), ("edition", "editions", "id")])
    db["attestations"].create({
        "edition": str, "law": int, "source": str, "how": str,  # how: 'text' | 'fragment' | 'witness'
    }, pk=("edition", "law", "source"), foreign_keys=[("source", "sources", "file")])
    db["correction_rows"].create({
        "id": int, "source": str, "edition": str, "location": str, "raw": int, "corrected": int,
        "reason": int, "kind": str, "line": int, "certain": int,  # raw, corrected, reason: strings.id
    }, pk="id", foreign_keys=[("source", "sources", "file"), *((c, "strings", "id") for c in CORRECTION_STRINGS)])
    _strings_view(db, "corrections", "correction_rows", CORRECTION_COLUMNS, CORRECTION_STRINGS)
    # field: which text of from_id the citation stands in ('text', 'footnote:<mark>',
    # 'definition'); start/end are offsets in that text, for turning it into links.
    db["refs"].create({
        "id": int, "edition": str, "from_id": str, "from_law": int, "field": str, "raw": str, "start": int, "end": int,
        "to_edition": str, "to_id": str, "to_law": int, "resolved": int, "reason": str,
    }, pk="id", foreign_keys=[("edition", "editions", "id")])
    # where a witness (a second transcription of an edition's laws) reads
    # otherwise than the main text: see laws/witness.py for the kinds
    db["variants"].create({
        "id": int, "edition": str, "law": int, "provision": str, "source": str, "kind": str,
        "main": str, "witness": str, "reason": str,
    }, pk="id", foreign_keys=[("edition", "editions", "id"), ("source", "sources", "file")])
    # The official index (an edition's *Index to Duplicate Laws*): headings
    # (parent null) and their sub-entries.  cites: JSON [{"raw", "id", "to",
    # "resolved", "reason"}] (`to` is what a link opens: the provision itself,
    # or its nearest ancestor in the store); see, see_also: JSON [terms].
    db["index_entries"].create({
        "edition": str, "id": int, "parent": int, "term": str, "ord": int, "cites": str, "see": str,
        "see_also": str, "note": str, "raw": str, "line": int,
    }, pk=("edition", "id"), foreign_keys=[("edition", "editions", "id")])
    db["checker_cites"].create({"checker": str, "edition": str, "provision": str, "title": str},
                               pk=("checker", "edition", "provision"))
    # The plain-words layer (laws/plain.py, corpus/plain/): not text of the
    # Laws.  situations: JSON [phrases]; an entry with same_as carries the
    # words of the entry it names; stale: the provision's text has changed
    # since the entry was written (text_hash).
    db["glosses"].create({
        "edition": str, "provision": str, "plain": str, "situations": str, "judgement": int,
        "text_hash": str, "stale": int, "reviewed_by": str, "same_as": str, "file": str, "line": int,
    }, pk=("edition", "provision"), foreign_keys=[("edition", "editions", "id")])
    # A new code's rulings carried from the previous code's through the
    # comparison (laws/rulings/carry.py), served from here until the code has
    # rulings files of its own: the trees (data: JSON as a rulings file holds
    # them), and every cite carried, how, and whether a reviewer settled it.
    db["carried_rulings"].create({"edition": str, "period": str, "from_edition": str, "rules_of": str,
                                  "data": str}, pk=("edition", "period"))
    db["carried_cites"].create({
        "edition": str, "period": str, "node": str, "from_edition": str, "provision": str,
        "to_provisions": str,  # JSON: the new code's provisions cited in its place (none while waiting)
        "status": str, "change": str, "reviewed": int,
        "decision": str,  # follows | accept | replace | remove | null (waiting)
        "reviewer": str, "reviewed_on": str})
    db["carried_cites"].create_index(["edition", "period"])
    return db


def write_manifest(db: sqlite_utils.Database, manifest: Manifest, hashes: dict[str, tuple[str, int]]) -> None:
    db["editions"].insert_all({
        "id": e.id, "title": e.title, "year": e.year, "kind": e.kind, "family": e.family,
        "publisher": e.publisher, "description": e.description, "guide_to": e.guide_to,
        "laws": json.dumps(e.laws), "in_force": int(e.in_force), "ord": i,
        "status": e.status, "published": e.published and e.published.isoformat(),
        "in_force_from": e.in_force_from and e.in_force_from.isoformat(), "superseded_by": e.superseded_by,
    } for i, e in enumerate(manifest.editions))
    db["sources"].insert_all({
        "file": s.file, "edition": s.edition, "title": s.title, "kind": s.kind, "parser": s.parser,
        "laws": json.dumps(s.laws), "provenance": s.provenance, "attribution": s.attribution,
        "sha256": hashes[s.file][0], "bytes": hashes[s.file][1],
    } for s in manifest.sources)


def _depth(prov_by_id: dict, pid: str) -> int:
    d, p = 0, prov_by_id[pid].parent
    while p:
        d, p = d + 1, prov_by_id[p].parent
    return d


def insert_rows(db: sqlite_utils.Database, table: str, rows, ignore: bool = False) -> None:
    """`rows` (dicts with the same keys, values SQLite takes as they are)
    into a table `create` made, with one executemany: sqlite-utils'
    insert_all inspects every value of every row and its table's schema on
    each call, which at thirty codes cost more than parsing them."""
    rows = list(rows)
    if not rows:
        return
    cols = list(rows[0])
    db.conn.executemany(
        f"insert {'or ignore ' if ignore else ''}into [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
        f"values ({', '.join('?' * len(cols))})", [tuple(r[c] for c in cols) for r in rows])


def write_parsed(db: sqlite_utils.Database, parsed: ParsedSource, strings: Strings | None = None) -> None:
    """A main text's laws, provisions and the rest; `strings`: the store's
    (write_sources shares one among the sources it writes)."""
    strings = strings or Strings(db)
    ed, src = parsed.edition, parsed.file
    laws, provisions, tables, footnotes = [], [], [], []
    order = db.execute("select coalesce(max(ord), -1) + 1 from provision_rows where edition = ?", [ed]).fetchone()[0]
    for law in parsed.laws:
        laws.append({"edition": ed, "number": law.number, "title": law.title,
                     "section": law.section, "source": src})
        by_id = {p.id: p for p in law.provisions}
        for p in law.provisions:
            provisions.append({
                "edition": ed, "id": p.id, "law": law.number, "parent": p.parent, "label": p.label,
                "heading": strings.id(p.heading), "text": strings.id(p.text), "raw_text": strings.id(p.raw_text),
                "ord": order,
                "depth": _depth(by_id, p.id),
            })
            order += 1
            for i, t in enumerate(p.tables):
                tables.append({"edition": ed, "provision": p.id, "ord": i, "caption": t.caption,
                               "header": json.dumps(t.header), "rows": json.dumps(t.rows), "note": t.note})
        footnotes.extend({"edition": ed, "law": law.number, "provision": f.provision, "mark": f.mark,
                          "text": f.text, "raw_text": f.raw_text} for f in law.footnotes)
    insert_rows(db, "laws", laws)
    insert_rows(db, "attestations", ({"edition": ed, "law": r["number"], "source": src, "how": "text"} for r in laws))
    insert_rows(db, "provision_rows", provisions)
    insert_rows(db, "tables", tables)
    insert_rows(db, "footnotes", footnotes)
    insert_rows(db, "definitions", ({"edition": ed, "id": d.id, "term": d.term, "text": d.text,
                                 "raw_text": d.raw_text, "ord": i} for i, d in enumerate(parsed.definitions)))
    insert_rows(db, "sections", ({"edition": ed, "slug": s.slug, "title": s.title, "text": s.text,
                              "raw_text": s.raw_text, "ord": i} for i, s in enumerate(parsed.sections)))
    insert_rows(db, "topics", ({
        "id": t.id, "edition": ed, "slug": t.slug, "title": t.title,
        "parent": f"topic:{t.parent}" if t.parent else None, "ord": i, "markdown": t.markdown,
        "raw_markdown": t.raw_markdown, "text": t.text,
    } for i, t in enumerate(parsed.topics)))
    insert_rows(db, "topic_laws", ({"topic": t.id, "law": n} for t in parsed.topics for n in t.laws))
    insert_rows(db, "fragments", ({
        "source": src, "edition": ed, "kind": f.kind, "law": f.law, "term": f.term,
        "provisions": json.dumps(f.provisions), "score": f.score, "date": f.date, "line": f.line,
        "text": f.text,
    } for f in parsed.fragments))
    attested = sorted({f.law for f in parsed.fragments if f.kind == "law" and f.law})
    insert_rows(db, "attestations", ({"edition": ed, "law": n, "source": src, "how": "fragment"}
                                 for n in attested), ignore=True)
    first = db.execute("select coalesce(max(id), 0) from index_entries where edition = ?", [ed]).fetchone()[0]
    insert_rows(db, "index_entries", _index_rows(ed, parsed.index, first))
    _write_corrections(db, parsed, strings)


def _write_corrections(db: sqlite_utils.Database, parsed: ParsedSource, strings: Strings) -> None:
    src, ed = parsed.file, parsed.edition
    rows = [(c, 1) for c in parsed.corrections] + [(c, 0) for c in parsed.uncertain]
    insert_rows(db, "correction_rows", [{
        "source": src, "edition": ed, "location": c.where, "raw": strings.id(c.raw),
        "corrected": strings.id(c.corrected), "reason": strings.id(c.reason), "kind": c.kind, "line": c.line,
        "certain": certain,
    } for c, certain in rows])
    strings.flush()  # before anything reads the views: a witness reads the provisions it is compared with


def _index_rows(edition: str, entries, first: int = 0) -> list[dict]:
    """Headings and sub-entries in printed order, each sub-entry after its heading."""
    rows: list[dict] = []

    def add(e, parent: int | None) -> None:
        rows.append({
            "edition": edition, "id": first + len(rows) + 1, "parent": parent, "term": e.term,
            "ord": first + len(rows),
            "cites": json.dumps([{"raw": c.raw, "id": c.id} for c in e.cites]),
            "see": json.dumps(e.see), "see_also": json.dumps(e.see_also), "note": e.note,
            "raw": e.raw, "line": e.line,
        })
        me = first + len(rows)
        for sub in e.subterms:
            add(sub, me)

    for e in entries:
        add(e, None)
    return rows


def write_sources(db: sqlite_utils.Database, manifest: Manifest, results: list[ParsedSource]) -> None:
    """Every parsed source, each as its kind asks (a witness attests, it does
    not give the text).  `results` has every main text before any witness
    (laws.build parses in that order), so a witness is compared with it."""
    from laws import witness

    kinds = {s.file: s.kind for s in manifest.sources}
    strings = Strings(db)
    for parsed in results:
        if kinds[parsed.file] == "witness":
            main = provision_texts(db, parsed.edition, [law.number for law in parsed.laws])
            write_witness(db, parsed, witness.variants(main, parsed), strings)
        else:
            write_parsed(db, parsed, strings)


def provision_texts(db: sqlite_utils.Database, edition: str, laws: list[int]) -> dict[str, str]:
    """provision id -> text, for some laws of an edition already written."""
    if not laws:
        return {}
    return {r["id"]: r["text"] or "" for r in db.query(
        f"select id, text from provisions where edition = ? and law in ({','.join('?' * len(laws))})",
        [edition, *laws])}


def write_witness(db: sqlite_utils.Database, parsed: ParsedSource, variants: list,
                  strings: Strings | None = None) -> None:
    """A second transcription of laws whose text another source gives: it
    attests them (one `attestations` row per law, how = 'witness'), its
    corrections are kept and its variant readings (laws.witness.Variant)
    against the main text stored; its laws and provisions are not."""
    ed, src = parsed.edition, parsed.file
    insert_rows(db, "attestations", ({"edition": ed, "law": law.number, "source": src, "how": "witness"}
                                 for law in parsed.laws), ignore=True)
    _write_corrections(db, parsed, strings or Strings(db))
    insert_rows(db, "variants", ({"edition": ed, "law": v.law, "provision": v.provision, "source": src,
                              "kind": v.kind, "main": v.main, "witness": v.witness, "reason": v.reason}
                             for v in variants))


def finish(db: sqlite_utils.Database, meta: dict[str, str]) -> None:
    db["meta"].insert_all([{"key": k, "value": v} for k, v in meta.items()])
    db["meta"].upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")
    db["provision_rows"].create_index(["edition", "law", "ord"])
    db["refs"].create_index(["to_edition", "to_law"])
    db["refs"].create_index(["edition", "from_law"])
    db["topic_laws"].create_index(["law"])
    # no index on index_entries(edition, parent, ord) since schema 10: every
    # query of it asks for an edition (its primary key's first column)
    db.conn.commit()
    db.vacuum()


def connect(path: Path) -> sqlite3.Connection:
    """Open the store read-only: the web app never writes."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn
