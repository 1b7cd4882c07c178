"""Reading: comparisons as the web app shows them.

The last stage: plain functions over the read-only store, shaped like
CONTRACT.md's `GET /api/diff` (`diff`), the comparison index (`pairs`,
`other_pairs`), every law two editions share (`overview`,
`law_comparison`) and each provision in the editions a reader follows it to
(`history`).  A pair is stored once, older -> newer (by year, then manifest
order); read the other way round, inserts and deletes swap (`reverse_ops`)
and so do added and removed.  Rows come from `ondemand.law_data` (stored,
or computed on first request); nothing here compares or writes.
"""
from __future__ import annotations

import json

from laws import citations
from laws.compare.account import account
from laws.compare.changes import STATUSES
from laws.compare.ondemand import law_data
from laws.compare.stored import editions_by_id, provisions_of
from laws.compare.summary import counts, summary
from laws.compare.text import reverse_ops, unique


def _not_found():
    from laws.queries import NotFound
    return NotFound


def _canonical(conn, e1: str, e2: str) -> tuple[str, str, bool]:
    """(older, newer, reversed?) for a pair of edition ids as stored."""
    eds = editions_by_id(conn)
    for e in (e1, e2):
        if e not in eds:
            known = ", ".join(eds)
            raise _not_found()(f"There is no edition '{e}'. Editions: {known}.")
    k1, k2 = (eds[e1]["year"], eds[e1]["ord"]), (eds[e2]["year"], eds[e2]["ord"])
    return (e1, e2, False) if k1 <= k2 else (e2, e1, True)


def _flip_status(status: str, rev: bool) -> str:
    if not rev:
        return status
    return {"added": "removed", "removed": "added", "split": "merged", "merged": "split"}.get(status, status)


def _law_numbers(conn, edition: str) -> list[int]:
    return [r[0] for r in conn.execute("select number from laws where edition = ? order by number", [edition])]


def pairs(conn) -> list[dict]:
    """The pairs compared at build time (successive codes of a family), newest
    first, with how many shared laws changed.  Any other pair of codes can be
    compared too (`overview`, `diff`): see `other_pairs`."""
    eds = editions_by_id(conn)
    out = []
    for r in conn.execute(
            "select from_edition, to_edition, count(*) as laws, "
            "sum(status = 'changed') as changed, sum(status = 'same') as same, "
            + ", ".join(f"sum({s}) as p_{s}" for s in STATUSES) +
            " from law_comparisons group by from_edition, to_edition"):
        a, b = eds[r["from_edition"]], eds[r["to_edition"]]
        out.append({"from": a["id"], "to": b["id"], "from_title": a["title"], "to_title": b["title"],
                    "laws": r["laws"], "changed": r["changed"], "same": r["same"],
                    "provisions": {s: r[f"p_{s}"] for s in STATUSES},
                    "family": a["family"] if a["family"] == b["family"] else "mixed",
                    "_key": (b["year"], b["ord"], a["year"], a["ord"])})
    out.sort(key=lambda p: p.pop("_key"), reverse=True)
    return out


def _across(eds: dict[str, dict], edition: dict, candidates: list[dict]) -> list[dict]:
    """The codes of another family worth showing beside `edition`: the one
    nearest in year and the code in force, if that family has it.  At most
    two a family, however many editions the corpus holds."""
    out = []
    for family in unique(c["family"] for c in candidates):
        mine = [c for c in candidates if c["family"] == family]
        nearest = min(mine, key=lambda c: (abs(c["year"] - edition["year"]), -c["year"], c["ord"]))
        out += [c for c in mine if c is nearest or c["in_force"]]
    return out


def other_pairs(conn) -> list[dict]:
    """Pairs across families that the comparison index offers (computed when
    opened): each code with the nearest code of every other family and that
    family's code in force.  {from, to, from_title, to_title}, older first."""
    eds = editions_by_id(conn)
    codes = [e for e in eds.values() if e["kind"] == "code"]
    seen, out = set(), []
    for e in codes:
        for o in _across(eds, e, [c for c in codes if c["family"] != e["family"]]):
            a, b = sorted([e, o], key=lambda x: (x["year"], x["ord"]))
            if (a["id"], b["id"]) not in seen and set(_law_numbers(conn, a["id"])) & set(_law_numbers(conn, b["id"])):
                seen.add((a["id"], b["id"]))
                out.append({"from": a["id"], "to": b["id"], "from_title": a["title"], "to_title": b["title"]})
    return out


def overview(conn, from_ed: str, to_ed: str) -> dict:
    """Every law two editions share, with its status and counts, and the laws
    only one of them has (in the corpus)."""
    old, new, rev = _canonical(conn, from_ed, to_ed)
    eds = editions_by_id(conn)
    have_from, have_to = set(_law_numbers(conn, from_ed)), set(_law_numbers(conn, to_ed))
    stored = {r["law"]: r for r in conn.execute(
        "select * from law_comparisons where from_edition = ? and to_edition = ? order by law", [old, new])}
    rows = []
    for number in sorted(have_from & have_to):
        row = stored.get(number)
        if row is None:
            data = law_data(conn, old, new, number)
            row = data[0] if data else None
        if row is not None:
            rows.append(row)
    laws = [_law_entry(r, rev) for r in rows]
    # provisions by status over every shared law: the change matrix's row; a
    # move across laws is in both laws' counts, and in the totals once
    incoming = [json.loads(r["incoming"] or "{}") for r in rows]
    totals = {s: sum(l["counts"][s] for l in laws) - sum(i.get(_flip_status(s, rev), 0) for i in incoming)
              for s in STATUSES}
    n_changed = sum(1 for l in laws if l["status"] == "changed")
    return {
        "from": from_ed, "to": to_ed, "from_title": eds[from_ed]["title"], "to_title": eds[to_ed]["title"],
        "laws": laws, "only_from": sorted(have_from - have_to), "only_to": sorted(have_to - have_from),
        "summary": (f"{n_changed} of {len(laws)} shared laws changed" if laws else "no laws in common"),
        "totals": totals,
    }


def law_comparison(conn, from_ed: str, to_ed: str, number: int) -> dict | None:
    """The comparison of one law between two editions, read from `from_ed` to
    `to_ed` (either may be the older), or None."""
    old, new, rev = _canonical(conn, from_ed, to_ed)
    data = law_data(conn, old, new, number)
    return _law_entry(data[0], rev) if data is not None else None


def _law_entry(r, rev: bool) -> dict:
    """A law_comparisons row as read in the direction asked for."""
    c = {s: r[s] for s in STATUSES}
    if rev:
        c["added"], c["removed"] = c["removed"], c["added"]
        c["split"], c["merged"] = c["merged"], c["split"]
    refs = [tuple(x) for x in json.loads(r["refs"])]
    refs = [(b, a) for a, b in refs] if rev else refs
    title_changed = bool(json.loads(r["title_ops"]))
    return {
        "law": r["law"], "status": r["status"],
        "title_from": r["title_to"] if rev else r["title_from"],
        "title_to": r["title_from"] if rev else r["title_to"],
        "counts": c, "summary": summary(c, title_changed, refs),
    }


def diff(conn, number: int, from_ed: str, to_ed: str, raw: bool = False) -> dict:
    """One law compared between two editions: CONTRACT.md's GET /api/diff,
    with a few more fields for the pages.  Raises laws.queries.NotFound."""
    NotFound = _not_found()
    old, new, rev = _canonical(conn, from_ed, to_ed)
    eds = editions_by_id(conn)
    for e in (from_ed, to_ed):
        if number not in _law_numbers(conn, e):
            have = _law_numbers(conn, e)
            raise NotFound(f"{eds[e]['title']} has no Law {number} in the corpus (it has {citations.law_ranges(have)}), "
                           "so there is nothing to compare.")
    data = law_data(conn, old, new, number)
    if data is None:  # both have the law but they cannot be compared (not codes)
        raise NotFound(f"Law {number} of {eds[from_ed]['title']} and of {eds[to_ed]['title']} "
                       "are not compared: only codes of the Laws are.")
    law, rows = data
    rows = sorted(rows, key=lambda r: r["rev_ord" if rev else "ord"])
    changes = [_change_entry(r, rev, raw) for r in rows]
    c = counts(changes)
    refs = [tuple(x) for x in json.loads(law["refs"])]
    refs = [(b, a) for a, b in refs] if rev else refs
    title_ops = json.loads(law["title_ops"])
    title_ops = reverse_ops(title_ops) if rev else title_ops
    return {
        "law": number, "from": from_ed, "to": to_ed, "changes": changes,
        "summary": summary(c, bool(title_ops), refs), "status": law["status"], "counts": c,
        "title_from": law["title_to"] if rev else law["title_from"],
        "title_to": law["title_from"] if rev else law["title_to"], "title_ops": title_ops,
        "references": [list(x) for x in refs], "raw": raw,
        # the account in words that opens the comparison (laws/compare/account.py)
        "account": account(changes, from_ed, to_ed, number, bool(title_ops)),
    }


def _change_entry(r, rev: bool, raw: bool) -> dict:
    """An alignments row as read in the direction asked for (`rev`: newer to
    older), with the raw readings' ops when `raw`."""
    # copied: an on-demand comparison's rows are cached and shared
    ops = [[op, t] for op, t in (r["raw_ops"] if raw else r["ops"])]
    heading_ops = json.loads(r["heading_ops"])
    fp, tp = json.loads(r["from_provisions"]), json.loads(r["to_provisions"])
    f1, t1 = r["from_provision"], r["to_provision"]
    part_of = json.loads(r["part_of"])
    how = r["how"]
    if rev:
        ops, heading_ops = reverse_ops(ops), reverse_ops(heading_ops)
        fp, tp, f1, t1 = tp, fp, t1, f1
        how = {"split": "merged", "merged": "split"}.get(how, how)
        if part_of:
            part_of = {"from_provisions": part_of["to_provisions"], "to_provisions": part_of["from_provisions"]}
    return {
        "from_provision": f1, "to_provision": t1, "status": _flip_status(r["status"], rev), "ops": ops,
        "from_provisions": fp, "to_provisions": tp, "heading_ops": heading_ops,
        "score": r["score"], "text_changed": bool(r["text_changed"]), "minor": bool(r["minor"]),
        "how": how, "part_of": part_of, "override": r["reason"] or None,
        "from_law": r["to_law"] if rev else r["from_law"], "to_law": r["from_law"] if rev else r["to_law"],
        "evidence": r["evidence"] or None,
    }


def history(conn, edition: str, law: int) -> dict[str, list[dict]]:
    """For each provision of a law in one edition, the same provision in the
    editions a reader follows it to, oldest first: the codes just before and
    after it in its family that have the law (compared at build time), and of
    each other family the code nearest in year and the code in force
    (compared on demand).  Its size does not grow with the number of editions.

        {"35A": [{"edition": "2007", "year": 2007, "provision": "35.1",
                  "status": "changed"}], ...}

    `status` says what happened between the two, read from the older edition
    to the newer (`same`, `changed`, `moved`, `split`, `merged`; `added` when the provision is
    new in the newer edition, so `provision` is None for an older one;
    `removed` when a newer edition dropped it).  `provision` is the
    counterpart's id (the first one, for a split or merge; all are in
    `provisions`).  Provisions that carry no words of their own (a bare '40A1')
    have no entry."""
    eds = editions_by_id(conn)
    # the stored pairs with this law first: alignments is read by its key only
    rows = [dict(r) for fe, te in conn.execute(
        "select from_edition, to_edition from law_comparisons where law = ? and (from_edition = ? or to_edition = ?)",
        [law, edition, edition]).fetchall()
        for r in conn.execute("select * from alignments where from_edition = ? and to_edition = ? and law = ? "
                              "order by ord", [fe, te, law])]
    me = eds.get(edition)
    if me is not None and me["kind"] == "code":
        others = [e for e in eds.values() if e["kind"] == "code" and e["family"] != me["family"]
                  and law in _law_numbers(conn, e["id"])]
        for o in _across(eds, me, others):
            old, new, _rev = _canonical(conn, edition, o["id"])
            data = law_data(conn, old, new, law)
            rows += data[1] if data else []
    out: dict[str, list[dict]] = {}
    for r in rows:
        mine_is_from = r["from_edition"] == edition
        mine = provisions_of(r, "from" if mine_is_from else "to")
        theirs = provisions_of(r, "to" if mine_is_from else "from")
        other = r["to_edition"] if mine_is_from else r["from_edition"]
        their_law = r["to_law"] if mine_is_from else r["from_law"]
        for pid in mine:
            entries = out.setdefault(pid, [])
            if any(e["edition"] == other for e in entries):
                continue
            entries.append({"edition": other, "year": eds[other]["year"], "title": eds[other]["title"],
                            "provision": theirs[0] if theirs else None, "provisions": theirs,
                            "law": their_law, "status": r["status"]})
    for entries in out.values():
        entries.sort(key=lambda e: (e["year"], eds[e["edition"]]["ord"]))
    return out
