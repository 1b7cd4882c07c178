"""Stored: what the build compares and keeps in the store.

The fifth stage.  At build time successive codes of each family
(`successive_pairs`: for each law, every code that has it against the next
one that has it) are compared, each pair of codes aligned whole
(`_compare_pair`, over `changes.compare_code`: a provision may move to
another law, and such a change is kept under both laws) and written to three
tables (`build`):

    law_comparisons      one row per (older edition, newer edition, law): status,
                         counts, title change, changed cross-references
    alignments           one row per change: the provisions on each side, status,
                         similarity score, word ops on the corrected text (`ops`)
                         and on the sources' raw readings (`raw_ops`)
    alignment_overrides  the corpus's curated alignments (`overrides`), for
                         comparisons made later

`compare_pair_law` makes the rows of one law of one pair compared on its
own: `ondemand` calls it for pairs not stored.  The build prints each curated
override the aligner no longer needs (`align.unnecessary_overrides`).  `read_store`
and `editions_by_id` read what it compares from the store.

Named `stored`, not `build`: `laws.compare.build` is the function the build
calls, and a module of that name would be hidden by it.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from laws.compare.align import unnecessary_overrides, units
from laws.compare.changes import STATUSES, compare_code, compare_law
from laws.compare.overrides import OVERRIDES, check_overrides, load_overrides
from laws.compare.summary import counts, law_status, summary
from laws.compare.text import citation_changes, normalise, unique, word_ops
from laws.workers import fork_map


def successive_pairs(editions: list[dict], laws: dict[str, dict[int, str]]) -> dict[tuple[str, str], list[int]]:
    """The comparisons made at build time: in each family, for each law, every
    code that has the law with the next one that has it (by year, then
    manifest order).  Linear in editions: a reader follows a law through its
    family's codes one step at a time; any other pair (2007 against a 1987
    code, a rubber code against a duplicate one) is compared when first asked
    for (`law_data`).  {(older id, newer id): [law, ...]}"""
    codes = sorted((e for e in editions if e["kind"] == "code"), key=lambda e: (e["year"], e["ord"]))
    out: dict[tuple[str, str], list[int]] = {}
    for family in unique(e["family"] for e in codes):
        chain = [e["id"] for e in codes if e["family"] == family]
        for number in sorted({n for eid in chain for n in laws.get(eid, {})}):
            having = [eid for eid in chain if number in laws.get(eid, {})]
            for old, new in zip(having, having[1:]):
                out.setdefault((old, new), []).append(number)
    return out


# json.dumps(..., ensure_ascii=False) makes an encoder per call; a comparison
# row has six JSON columns and thirty codes have twenty thousand rows
_json = json.JSONEncoder(ensure_ascii=False).encode


def compare_pair_law(old: str, new: str, number: int, old_provisions: list[dict], new_provisions: list[dict],
                     title_old: str, title_new: str, overrides: list[dict],
                     renumbered: bool = True) -> tuple[dict, list[dict]]:
    """One law compared between two editions on its own, as the rows the store
    keeps: (its law_comparisons row, its alignments rows).  The web app
    compares any pair the build did not store this way (`ondemand`); the
    build compares successive codes whole (`_compare_pair`), so that a
    provision may move to another law.  `renumbered`: whether another id
    means `moved` (within a family, not across families).  Only overrides
    within this law apply."""
    mine = [o for o in overrides if (o["from"], o["to"], o["from_law"], o["to_law"]) == (old, new, number, number)]
    changes = compare_law(old_provisions, new_provisions, mine, renumbered)
    for c in changes:  # one law on its own: its units carry no law number
        c["from_law"] = number if c["from_provisions"] else None
        c["to_law"] = number if c["to_provisions"] else None
    return _rows(old, new, number, changes, title_old, title_new)


def _rows(old: str, new: str, number: int, changes: list[dict], title_old: str,
          title_new: str) -> tuple[dict, list[dict]]:
    """A law's changes as the rows the store keeps.  `incoming` counts, by
    status, the changes that came from another law: they are in that law's
    rows too, and the change matrix's totals count them once."""
    title_changed = normalise(title_old).lower() != normalise(title_new).lower()
    refs = unique(r for c in changes for r in citation_changes(c["ops"]))
    c = counts(changes)
    incoming = counts([ch for ch in changes if ch["from_law"] not in (None, number)])
    law_row = {
        "from_edition": old, "to_edition": new, "law": number,
        "status": law_status(changes, title_changed), "title_from": title_old, "title_to": title_new,
        "title_ops": _json(word_ops(title_old, title_new) if title_changed else []),
        **c, "incoming": _json({k: v for k, v in incoming.items() if v}),
        "refs": _json(refs), "summary": summary(c, title_changed, refs),
    }
    align_rows = [{
        "from_edition": old, "to_edition": new, "law": number, "ord": ch["ord"], "rev_ord": ch["rev_ord"],
        "from_law": ch["from_law"], "to_law": ch["to_law"],
        "from_provision": ch["from_provision"], "to_provision": ch["to_provision"],
        "from_provisions": _json(ch["from_provisions"]),
        "to_provisions": _json(ch["to_provisions"]),
        "part_of": _json(ch["part_of"]),
        "status": ch["status"], "score": ch["score"], "how": ch["how"], "reason": ch["reason"],
        "evidence": ch["evidence"],
        "text_changed": int(ch["text_changed"]), "minor": int(ch["minor"]),
        "ops": _json(ch["ops"]), "raw_ops": _json(ch["raw_ops"]),
        "heading_ops": _json(ch["heading_ops"]),
    } for ch in changes]
    return law_row, align_rows


def _compare_pair(shared: tuple[dict, dict, list[dict]], pair: tuple[tuple[str, str], list[int]]
                  ) -> tuple[list[dict], list[dict], list[str]]:
    """The rows of one pair of successive codes, aligned whole (`compare_code`:
    a provision may move to another law), kept for the laws both have; and
    the overrides of the pair the aligner no longer needs, in words."""
    laws, provisions, overrides = shared
    (old, new), numbers = pair
    mine = [o for o in overrides if (o["from"], o["to"]) == (old, new)]
    a_laws = {n: provisions.get((old, n), []) for n in laws[old]}
    b_laws = {n: provisions.get((new, n), []) for n in laws[new]}
    by_law = compare_code(a_laws, b_laws, mine)
    law_rows, align_rows = [], []
    for number in numbers:
        law_row, rows = _rows(old, new, number, by_law[number], laws[old][number], laws[new][number])
        law_rows.append(law_row)
        align_rows += rows
    notes = []
    if mine:
        a = [u for n, ps in sorted(a_laws.items()) for u in units(ps, n)]
        b = [u for n, ps in sorted(b_laws.items()) for u in units(ps, n)]
        notes = [f"override {old} -> {new}, Law {o['from_law']}"
                 + (f" -> {o['to_law']}" if o["to_law"] != o["from_law"] else "")
                 + f" ({', '.join(o['from_provisions']) or '-'} -> {', '.join(o['to_provisions']) or '-'}, "
                   f"{OVERRIDES} line {o.get('line', '?')}) is unnecessary: the aligner finds it from the text"
                 for o in unnecessary_overrides(a, b, mine)]
    return law_rows, align_rows, notes


def build(db, corpus_dir: Path) -> dict:
    """Compare successive codes of each family (`successive_pairs`) and write
    the two tables, and the curated overrides the web app needs to compare
    any other pair the same way.  `db` is the sqlite_utils.Database being
    built.  Returns figures."""
    t0 = time.perf_counter()
    conn = db.conn
    _create_tables(db)
    conn.row_factory = None
    editions, laws, provisions = read_store(conn)
    overrides = load_overrides(corpus_dir)
    check_overrides(overrides, laws, provisions)
    db["alignment_overrides"].insert_all([{
        "from_edition": o["from"], "to_edition": o["to"], "law": o["from_law"],
        "from_law": o["from_law"], "to_law": o["to_law"],
        "from_provisions": json.dumps(o["from_provisions"]), "to_provisions": json.dumps(o["to_provisions"]),
        "reason": o["reason"]} for o in overrides])
    pairs = successive_pairs(editions, laws)
    law_rows, align_rows, notes = [], [], []
    # each pair in a worker process (laws.workers): at thirty codes, thirty pairs
    for rows in fork_map(_compare_pair, list(pairs.items()), shared=(laws, provisions, overrides)):
        law_rows += rows[0]
        align_rows += rows[1]
        notes += rows[2]
    figures = {"pairs": len(pairs), "laws": len(law_rows), "changes": len(align_rows), "notes": notes}
    for table, rows in (("law_comparisons", law_rows), ("alignments", align_rows)):
        _insert(conn, table, rows)
    db["alignments"].create_index(["from_edition", "from_provision"])
    db["alignments"].create_index(["to_edition", "to_provision"])
    conn.commit()
    figures["seconds"] = round(time.perf_counter() - t0, 3)
    return figures


def _create_tables(db) -> None:
    """The three tables, made anew (a build writes a fresh store, but a test
    may build into one in place)."""
    conn = db.conn
    for table in ("alignments", "law_comparisons", "alignment_overrides"):
        conn.execute(f"drop table if exists {table}")
    db["law_comparisons"].create({
        "from_edition": str, "to_edition": str, "law": int, "status": str,
        "title_from": str, "title_to": str, "title_ops": str,
        **{status: int for status in STATUSES},
        "incoming": str,  # JSON {status: n}: changes from another law, also counted in that law
        "refs": str,  # JSON [[old, new], ...]: cross-references changed in place
        "summary": str,
    }, pk=("from_edition", "to_edition", "law"))
    db["alignments"].create({
        "from_edition": str, "to_edition": str, "law": int, "ord": int, "rev_ord": int,
        "from_law": int, "to_law": int,  # the laws of either side: they differ for a move across laws
        "from_provision": str, "to_provision": str,
        "from_provisions": str, "to_provisions": str,  # JSON lists (N:M groups)
        "part_of": str,  # JSON {"from_provisions", "to_provisions"} of a split or merge, or null
        "status": str, "score": float, "how": str, "reason": str,
        "evidence": str,  # why the provisions were paired: the score's parts, in words
        "text_changed": int, "minor": int,
        "ops": str, "raw_ops": str, "heading_ops": str,  # JSON [[op, text], ...]
    }, pk=("from_edition", "to_edition", "law", "ord"))
    # the corpus's curated alignments, kept in the store: comparisons made
    # later by the web app read the store only, never the corpus folder
    db["alignment_overrides"].create({
        "from_edition": str, "to_edition": str, "law": int, "from_law": int, "to_law": int,
        "from_provisions": str, "to_provisions": str, "reason": str,  # JSON lists
    })


def _insert(conn, table: str, rows: list[dict]) -> None:
    """Plain executemany: sqlite-utils' insert_all inspects every value of
    every row, which cost more than the comparisons at thirty codes."""
    if rows:
        cols = list(rows[0])
        conn.executemany(f"insert into {table} ({', '.join(cols)}) values ({', '.join('?' * len(cols))})",
                         [tuple(r[c] for c in cols) for r in rows])


def read_store(conn, law: int | None = None, editions_wanted: tuple[str, ...] = ()):
    """(editions, {edition: {law: title}}, {(edition, law): [provision dicts]})
    from the store, all of it or one law of some editions."""
    cols = [d[0] for d in conn.execute("select * from editions limit 0").description]
    editions = [dict(zip(cols, tuple(r))) for r in conn.execute("select * from editions")]
    where, args = "", []
    if law is not None:
        where = f" where number = ? and edition in ({','.join('?' * len(editions_wanted))})"
        args = [law, *editions_wanted]
    laws: dict[str, dict[int, str]] = {}
    for ed, number, title in conn.execute("select edition, number, title from laws" + where, args):
        laws.setdefault(ed, {})[number] = title or ""
    provisions: dict[tuple[str, int], list[dict]] = {}
    for ed, pid, number, heading, text, raw in conn.execute(
            "select edition, id, law, heading, text, raw_text from provisions"
            + where.replace("number", "law") + " order by edition, ord", args):
        provisions.setdefault((ed, number), []).append(
            {"id": pid, "heading": heading, "text": text, "raw_text": raw})
    return editions, laws, provisions


def editions_by_id(conn) -> dict[str, dict]:
    """The editions table, {id: row as a dict}, in manifest order."""
    return {r["id"]: dict(r) for r in conn.execute("select * from editions order by ord")}
