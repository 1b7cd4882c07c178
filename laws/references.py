"""Cross-references: found in every text of an edition, resolved within it.

Runs at build time over the store after every source is written, so a law may
cite a law that a later part of the file (or another source of the same
edition) supplies.  Each citation is resolved to the provision it names in
the same edition (never to an ancestor standing in for a provision the
edition lacks); one that cannot be resolved is kept with the
provision it cites (`to_id`, in the citing edition) and the reason, in words a
reader understands, so that adding the missing text later resolves it.
"""
from __future__ import annotations

import json

import sqlite_utils

from laws import citations, store

OUTSIDE_REASON = {
    "Proprieties": "cites the Proprieties of this code, which are not in the corpus",
    "Club Law": "cites the Club Laws of this code, which are not in the corpus",
}


def _texts(db: sqlite_utils.Database, edition: str):
    """(from_id, law, field, text) for every text of the edition that can cite."""
    for r in db.query("select id, law, text from provisions where edition = ? order by ord", [edition]):
        yield r["id"], r["law"], "text", r["text"] or ""
    for r in db.query("select provision, law, mark, text from footnotes where edition = ? order by id", [edition]):
        yield r["provision"], r["law"], f"footnote:{r['mark']}", r["text"] or ""
    for r in db.query("select id, text from definitions where edition = ? order by ord", [edition]):
        yield r["id"], None, "definition", r["text"] or ""


def cited(cite: citations.Cite, from_law: int | None) -> str | None:
    """The provision a citation names, whether or not the edition has it
    ('Law 72C' -> '72C'; 'see C1(d)' in Law 12 -> '12C1(d)'); None for what is
    no provision of the Laws (the Proprieties, a relative citation outside a law)."""
    law = cite.law if cite.law is not None else from_law
    if cite.outside or law is None:
        return None
    return citations.provision_id(law, cite.path)


def resolve(cite: citations.Cite, from_id: str, from_law: int | None, ids: set[str],
            laws: set[int]) -> tuple[str | None, int | None, str]:
    """(target id, target law, reason) — reason is '' when resolved exactly;
    the target id is None when nothing in the edition answers the citation."""
    if cite.outside:
        return None, None, OUTSIDE_REASON[cite.outside]
    if cite.law is None and from_law is not None:
        # relative ('see C1(d)', 'see 4 following'): the nearest enclosing
        # provision under which the path exists, innermost first
        for base in citations.candidates(from_id):
            if base + cite.path in ids:
                return base + cite.path, from_law, ""
    law = cite.law if cite.law is not None else from_law
    if law is None:
        return None, None, "a relative reference outside any law"
    if law not in laws:
        return None, law, f"Law {law} of this edition is not in the corpus (it has {citations.law_ranges(sorted(laws))} only)"
    wanted = citations.provision_id(law, cite.path)
    exact = [wanted]
    if cite.path and not cite.path[0].isalpha() and not cite.path.startswith("("):
        # 'Law 35 1' style: a number directly under the law is written 35.1
        exact.insert(0, f"{law}.{cite.path}")
    # Only the provision named answers a citation, not an ancestor: a new code
    # that moves 45F away leaves a citation of 45F dead, and linking it to Law
    # 45 would hide that (a citation naming only a law resolves to the law).
    for pid in exact:
        if pid in ids:
            return pid, law, ""
    nearest = next((pid for e in exact for pid in citations.candidates(e) if pid in ids), None)
    return None, law, f"{wanted} is not in this edition" + (f" (the nearest is {nearest})" if nearest else "")


def build(db: sqlite_utils.Database) -> dict[str, tuple[int, int]]:
    """Find and resolve every reference; returns edition -> (resolved, unresolved)."""
    summary: dict[str, tuple[int, int]] = {}
    found: dict[str, list] = {}  # text -> its citations: editions repeat each other's texts
    for edition in db.query("select * from editions where kind = 'code'"):
        ed = edition["id"]
        ids = {r["id"] for r in db.query("select id from provisions where edition = ?", [ed])}
        laws = {r["number"] for r in db.query("select number from laws where edition = ?", [ed])}
        rows = []
        for from_id, from_law, field, text in _texts(db, ed):
            cites = found.get(text)
            if cites is None:
                cites = found[text] = citations.find(text)
            for c in cites:
                to_id, to_law, reason = resolve(c, from_id, from_law, ids, laws)
                resolved = to_id is not None
                if not resolved:  # keep what it cites: adding that text later resolves it
                    to_id = cited(c, from_law)
                rows.append({
                    "edition": ed, "from_id": from_id, "from_law": from_law, "field": field, "raw": c.raw,
                    "start": c.start, "end": c.end, "to_edition": ed if to_id else None, "to_id": to_id,
                    "to_law": to_law, "resolved": int(resolved), "reason": reason,
                })
        store.insert_rows(db, "refs", rows)
        resolved = sum(r["resolved"] for r in rows)
        summary[ed] = (resolved, len(rows) - resolved)
    return summary


def resolve_index(db: sqlite_utils.Database) -> dict[str, tuple[int, int]]:
    """Resolve the citations of every edition's official index (`index_entries`)
    in the same way: each gets `to` (what its link opens), `resolved` (the
    provision, definition or section itself is in the store) and the reason
    when it is not.  Returns edition -> (resolved, unresolved)."""
    summary: dict[str, tuple[int, int]] = {}
    for (ed,) in db.execute("select distinct edition from index_entries").fetchall():
        ids = {r["id"] for r in db.query("select id from provisions where edition = ?", [ed])}
        laws = {r["number"] for r in db.query("select number from laws where edition = ?", [ed])}
        defs = {r["id"] for r in db.query("select id from definitions where edition = ?", [ed])}
        # 'Introduction' cites the section so named ('Introduction to the 2017 Laws ...')
        sections = {("introduction" if r["slug"] == "introduction" or r["title"].lower().startswith("introduction")
                     else r["title"].lower()): r["slug"]
                    for r in db.query("select slug, title from sections where edition = ? order by ord desc", [ed])}
        counts = [0, 0]
        for row in list(db.query("select id, cites from index_entries where edition = ?", [ed])):
            cites = json.loads(row["cites"])
            for c in cites:
                c["to"], c["reason"] = _index_target(c["id"], ids, laws, defs, sections)
                c["resolved"] = not c["reason"]
                counts[0 if c["resolved"] else 1] += 1
            db.execute("update index_entries set cites = ? where edition = ? and id = ?",
                       [json.dumps(cites), ed, row["id"]])
        summary[ed] = (counts[0], counts[1])
    return summary


def _index_target(cid: str, ids: set[str], laws: set[int], defs: set[str],
                  sections: dict[str, str]) -> tuple[str | None, str]:
    """(what the link opens, reason it is not the cited thing itself or '')."""
    if cid.startswith("def:") or cid == "definitions":
        if cid in defs:
            return cid, ""
        if defs:
            return "definitions", "" if cid == "definitions" else f"this edition defines no '{cid[4:]}'"
        return None, "this edition's definitions are not in the corpus"
    if cid == "introduction":
        slug = sections.get("introduction")
        return (slug, "") if slug else (None, "this edition's introduction is not in the corpus")
    parsed = citations.parse(cid)
    if parsed is None:
        return None, f"'{cid}' is not a citation of a law"
    law = parsed[0]
    if law not in laws:
        return None, f"Law {law} of this edition is not in the corpus"
    for i, pid in enumerate(citations.candidates(cid)):
        if pid in ids:
            return pid, "" if i == 0 else f"{cid} is not in this edition; linked to {pid}"
    return None, f"{cid} is not in this edition"
