"""Reading the store: the values the API returns and the pages render.

Plain functions over a read-only sqlite3 connection (rows as sqlite3.Row).
They return plain dicts and lists, shaped as CONTRACT.md's API, so the JSON
API and the HTML pages show the same thing.
"""
from __future__ import annotations

import json
import sqlite3

from laws import citations


class NotFound(LookupError):
    """Something asked for is not in the store; the message says what."""


def editions(db: sqlite3.Connection) -> list[dict]:
    out = []
    for e in db.execute("select * from editions order by in_force desc, ord"):
        laws = [r[0] for r in db.execute("select number from laws where edition = ? order by number", [e["id"]])]
        sources = [dict(r) for r in db.execute(
            "select file, title, kind, provenance, attribution from sources where edition = ? order by file",
            [e["id"]])]
        out.append({
            "id": e["id"], "title": e["title"], "year": e["year"], "kind": e["kind"], "family": e["family"],
            "publisher": e["publisher"], "description": e["description"], "guide_to": e["guide_to"],
            "declared_laws": json.loads(e["laws"]), "laws": laws, "sources": sources,
            "in_force": bool(e["in_force"]),
            # an edition's life, resolved when the store was built (laws.manifest.resolve)
            **{k: e[k] for k in STATUS_FIELDS},
        })
    return out


# What the store says of an edition's life: status ('in force', 'published',
# 'superseded' or null), published and in_force_from (ISO dates or null),
# superseded_by (an edition id or null).  /api/editions adds these to its keys.
STATUS_FIELDS = ("status", "published", "in_force_from", "superseded_by")


_LISTED = {"in force": 0, "published": 1, "superseded": 2}


def listed(editions: list[dict], ids) -> list[str]:
    """`ids` in the order the site lists editions (the home page,
    laws/web/pages.py `_home_order`): the code in force, the published codes
    (soonest in force first), the superseded ones (newest first), then the
    rest in the store's order.  The order a search says what it searched in,
    and the rulings' editions (the code in force their default).  `editions`:
    dicts with `id`, `status`, `in_force_from`, `year`."""
    wanted = set(ids)

    def key(ie):
        i, e = ie
        rank = _LISTED.get(e.get("status"), 3)
        if rank == 1:
            return (rank, e.get("in_force_from") or "9999", e.get("year") or 0, i)
        if rank == 2:
            return (rank, "", -(e.get("year") or 0), i)
        return (rank, "", 0, i)
    return [e["id"] for _, e in sorted(enumerate(editions), key=key) if e["id"] in wanted]


def jump_order(edition: dict) -> tuple:
    """Sort key of code editions for where an unqualified citation goes: the
    code in force, then newest first, duplicate before rubber in a year."""
    return (not edition.get("in_force"), -edition["year"], edition["family"] != "duplicate")


def edition(db: sqlite3.Connection, edition_id: str) -> dict:
    row = db.execute("select * from editions where id = ?", [edition_id]).fetchone()
    if row is None:
        known = ", ".join(r[0] for r in db.execute("select id from editions order by ord"))
        raise NotFound(f"There is no edition '{edition_id}'. Editions: {known}.")
    return dict(row)


def law_titles(db: sqlite3.Connection, edition_id: str) -> list[dict]:
    edition(db, edition_id)
    return [dict(r) for r in db.execute(
        "select number, title, section from laws where edition = ? order by number", [edition_id])]


def _law_row(db, edition_id: str, number: int):
    ed = edition(db, edition_id)
    row = db.execute("select * from laws where edition = ? and number = ?", [edition_id, number]).fetchone()
    if row is None:
        have = [r[0] for r in db.execute("select number from laws where edition = ? order by number", [edition_id])]
        raise NotFound(f"{ed['title']} has no Law {number} in the corpus (it has {citations.law_ranges(have)}).")
    return row


def _ref(r) -> dict:
    return {"from": r["from_id"], "to": r["to_id"], "to_edition": r["to_edition"], "raw": r["raw"],
            "field": r["field"], "start": r["start"], "end": r["end"],
            "resolved": bool(r["resolved"]), "reason": r["reason"], "to_law": r["to_law"]}


def law(db: sqlite3.Connection, edition_id: str, number: int) -> dict:
    """A law as CONTRACT.md's `GET /api/laws/<edition>/<number>`, with a few
    extra fields the pages use (footnotes, tables, raw readings)."""
    row = _law_row(db, edition_id, number)
    provisions = []
    tables: dict[str, list] = {}
    for t in db.execute("select * from tables where edition = ? and provision in "
                        "(select id from provisions where edition = ? and law = ?) order by ord",
                        [edition_id, edition_id, number]):
        tables.setdefault(t["provision"], []).append(
            {"caption": t["caption"], "header": json.loads(t["header"]), "rows": json.loads(t["rows"]),
             "note": t["note"]})
    glosses = glosses_of_law(db, edition_id, number)
    for p in db.execute("select * from provisions where edition = ? and law = ? order by ord", [edition_id, number]):
        provisions.append({
            "id": p["id"], "parent": p["parent"], "label": p["label"], "heading": p["heading"],
            "text": p["text"], "raw_text": p["raw_text"], "depth": p["depth"],
            "tables": tables.get(p["id"], []), "plain": glosses.get(p["id"]),
        })
    footnotes = [dict(r) for r in db.execute(
        "select provision, mark, text, raw_text from footnotes where edition = ? and law = ? order by id",
        [edition_id, number])]
    references = [_ref(r) for r in db.execute(
        "select * from refs where edition = ? and from_law = ? order by id", [edition_id, number])]
    cited_by = [_ref(r) for r in db.execute(
        "select * from refs where to_edition = ? and to_law = ? and resolved = 1 and "
        "(from_law is null or from_law != ?) order by from_law, id", [edition_id, number, number])]
    guide = [r[0] for r in db.execute(
        "select tl.topic from topic_laws tl join topics t on t.id = tl.topic "
        "join editions e on e.id = t.edition "
        "where tl.law = ? and (e.guide_to is null or e.guide_to in (select id from editions where family = "
        "(select family from editions where id = ?))) order by t.ord", [number, edition_id])]
    checkers = sorted({r["checker"] for r in db.execute(
        "select checker, provision from checker_cites where edition = ?", [edition_id])
        if _in_law(r["provision"], number)})
    sources = [{"file": r["file"], "title": r["title"], "how": r["how"], "attribution": r["attribution"]}
               for r in db.execute(
        "select s.file, s.title, s.attribution, a.how from attestations a join sources s on s.file = a.source "
        "where a.edition = ? and a.law = ? "
        "order by case a.how when 'text' then 0 when 'witness' then 1 else 2 end, s.file", [edition_id, number])]
    variants = [dict(r) for r in db.execute(
        "select v.provision, v.kind, v.main, v.witness, v.reason, v.source, s.title as source_title "
        "from variants v join sources s on s.file = v.source where v.edition = ? and v.law = ? order by v.id",
        [edition_id, number])]
    # the law's own corrections picked in SQL (as `_in_law` says), before the
    # view reads their strings: a code's source has hundreds, its law a few
    corrections = [dict(r) for r in db.execute(
        "select location, raw, corrected, reason, kind, certain from corrections "
        f"where edition = ?1 and source = ?2 and {_in_law_sql('?3')} order by id",
        [edition_id, row["source"], str(number)])]
    return {
        "edition": edition_id, "number": number, "title": row["title"], "section": row["section"],
        "provisions": provisions, "footnotes": footnotes, "references": references, "cited_by": cited_by,
        "guide": guide, "checkers": checkers, "sources": sources, "corrections": corrections,
        "variants": variants,
    }


def glosses_of_law(db: sqlite3.Connection, edition_id: str, number: int) -> dict[str, dict]:
    """The plain words of a law's provisions (laws/plain.py), by provision:
    {"plain", "situations", "judgement", "stale"}.  Not text of the Laws."""
    if not db.execute("select 1 from sqlite_master where name = 'glosses'").fetchone():
        return {}  # a store built before the plain-words layer
    return {r["provision"]: {"plain": r["plain"], "situations": json.loads(r["situations"]),
                             "judgement": bool(r["judgement"]), "stale": bool(r["stale"])}
            for r in db.execute("select g.* from glosses g join provisions p on p.edition = g.edition "
                                "and p.id = g.provision where g.edition = ? and p.law = ?", [edition_id, number])}


def _in_law_sql(law: str) -> str:
    """`_in_law` as an SQL condition on a column `location`, `law` the
    parameter that holds the law's number as text."""
    return (f"(location = {law} or (substr(location, 1, length({law})) = {law} "
            f"and substr(location, length({law}) + 1, 1) not between '0' and '9'))")


def _in_law(location: str, number: int) -> bool:
    """'12C1(b)' is in Law 12; '120' would not be."""
    s = str(number)
    return bool(location) and location.startswith(s) and (len(location) == len(s) or not location[len(s)].isdigit())


def definitions(db: sqlite3.Connection, edition_id: str) -> list[dict]:
    edition(db, edition_id)
    return [dict(r) for r in db.execute(
        "select id, term, text, raw_text from definitions where edition = ? order by ord", [edition_id])]


def definition_references(db: sqlite3.Connection, edition_id: str) -> dict[str, list[dict]]:
    """The references made in each definition: def id -> references."""
    refs: dict[str, list[dict]] = {}
    for r in db.execute("select * from refs where edition = ? and field = 'definition' order by id", [edition_id]):
        refs.setdefault(r["from_id"], []).append(_ref(r))
    return refs


def sections(db: sqlite3.Connection, edition_id: str) -> list[dict]:
    return [dict(r) for r in db.execute(
        "select slug, title, text from sections where edition = ? order by ord", [edition_id])]


def guide(db: sqlite3.Connection) -> list[dict]:
    laws: dict[str, list[int]] = {}
    for r in db.execute("select topic, law from topic_laws order by topic, law"):
        laws.setdefault(r["topic"], []).append(r["law"])
    return [{"id": r["id"], "title": r["title"], "parent": r["parent"], "edition": r["edition"],
             "laws": laws.get(r["id"], [])}
            for r in db.execute("select id, title, parent, edition from topics order by ord")]


def topic(db: sqlite3.Connection, topic_id: str) -> dict:
    row = db.execute("select * from topics where id = ?", [topic_id]).fetchone()
    if row is None:
        raise NotFound(f"There is no guide topic '{topic_id}'.")
    laws = [r[0] for r in db.execute("select law from topic_laws where topic = ? order by law", [topic_id])]
    return {"id": row["id"], "title": row["title"], "parent": row["parent"], "edition": row["edition"],
            "laws": laws, "markdown": row["markdown"], "raw_markdown": row["raw_markdown"], "text": row["text"]}


def sources(db: sqlite3.Connection) -> list[dict]:
    return [dict(r) for r in db.execute("select * from sources order by file")]


def provision_exists(db: sqlite3.Connection, edition_id: str, pid: str) -> bool:
    return db.execute("select 1 from provisions where edition = ? and id = ?", [edition_id, pid]).fetchone() is not None


def index(db: sqlite3.Connection, edition_id: str) -> list[dict]:
    """The edition's official index: headings in printed order, each
    `{"id", "term", "cites": [{"raw", "id", "to", "resolved", "reason"}], "see",
    "see_also", "note", "raw", "subterms": [same shape]}`."""
    ed = edition(db, edition_id)
    rows = db.execute("select * from index_entries where edition = ? order by ord", [edition_id]).fetchall()
    if not rows:
        raise NotFound(f"The {ed['title']} in the corpus has no official index.")
    by_id: dict[int, dict] = {}
    out: list[dict] = []
    for r in rows:
        entry = {"id": r["id"], "term": r["term"], "cites": json.loads(r["cites"]), "see": json.loads(r["see"]),
                 "see_also": json.loads(r["see_also"]), "note": r["note"] or "", "raw": r["raw"],
                 "line": r["line"], "subterms": []}
        by_id[r["id"]] = entry
        (by_id[r["parent"]]["subterms"] if r["parent"] else out).append(entry)
    return out


def has_index(db: sqlite3.Connection, edition_id: str) -> bool:
    return db.execute("select 1 from index_entries where edition = ? limit 1", [edition_id]).fetchone() is not None
