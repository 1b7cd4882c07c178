"""Stored: what the build compares and keeps in the store.

The fifth stage.  At build time successive codes of each family
(`successive_pairs`: for each law, every code that has it against the next
one that has it) are compared, each pair of codes aligned whole
(`_compare_pair`, over `changes.compare_code`: a provision may move to
another law, and such a change is kept under both laws) and written to the
comparison tables (`build`):

    law_comparisons      one row per (older edition, newer edition, law): status,
                         counts, title change, changed cross-references
    law_changes          one row per (older edition, newer edition, law): its
                         changes (`rows`: the provisions on each side, status,
                         whether the words changed; compact JSON a view reads)
                         and what only a page draws (`detail`: similarity
                         score, how, evidence, heading ops, and word ops on
                         the corrected text and on the sources' raw readings,
                         packed by `pack_ops`: the words the provisions table
                         already holds are kept as lengths), compressed
    alignments           a view over law_changes: one row per change, the
                         columns other readers query (provisions, status)
    alignment_evidence   why provisions were paired, in words, each once
    alignment_overrides  the corpus's curated alignments (`overrides`), for
                         comparisons made later

`stored_rows` reads a law's rows back as `_rows` made them, and
`unpack_rows` as the web app reads them (the word ops themselves).

`compare_pair_law` makes the rows of one law of one pair compared on its
own: `ondemand` calls it for pairs not stored.  The build prints each curated
override the aligner no longer needs (`align.unnecessary_overrides`).  `read_store`
and `editions_by_id` read what it compares from the store.

Named `stored`, not `build`: `laws.compare.build` is the function the build
calls, and a module of that name would be hidden by it.
"""
from __future__ import annotations

import functools
import json
import re
import time
import zlib
from pathlib import Path

from laws.compare.align import unnecessary_overrides, units
from laws.compare.changes import STATUSES, compare_code, compare_law
from laws.compare.overrides import OVERRIDES, check_overrides, load_overrides
from laws.compare.summary import counts, law_status, summary
from laws.compare.text import citation_changes, normalise, tables_text, unique, word_ops
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
# the packed columns: no spaces after separators (a third of a short list's bytes)
_tight = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


# --- ops packed --------------------------------------------------------------
#
# An alignments row's word ops repeat its provisions' words, which the
# provisions table already holds: at thirty codes the comparisons were over
# half of the store, mostly equal runs.  Stored, `ops` and `raw_ops` are
# packed against the texts of the row's own provisions (`side_text`): the
# equal and insert texts are the newer side's text as the word diff shows it
# (`text.word_ops`), so they are lengths read off that text from an offset
# (`ops_at`, `raw_at`: a piece of a split or merge starts inside its
# provision).  An equal run before a deleted run carries the space the word
# diff moved off the deleted run (`text._tidy_spaces`), which the text does
# not have there: it is kept beside the length.  A delete is its text, or
# [offset, length] in the older side's text when that is shorter.  Anything
# that does not read back so (a piece cut mid-word, a footnote mark opening a
# paragraph) keeps its text: `pack_ops` checks every row by unpacking it, so
# a packed row always reads back to the very ops compared.  `raw_ops` is NULL
# when the raw readings give the same ops (three rows in four).  Elements:
#
#     n > 0        equal, the next n characters of the newer side's text
#     -n           insert, likewise
#     [n, "  "]    equal, the next n characters and that space
#     "text"       delete, its text
#     [at, n]      delete, n characters of the older side's text from `at`
#     ["=", text]  equal, its text (not found in the newer side's text)
#     ["+", text]  insert, likewise

_MARKS = re.compile(r"\s*[*†‡]")  # footnote marks, which the word diff drops with the space before them
_PARAS = re.compile(r"\n\s*\n")
_DELETE_AT_MIN = 12  # a shorter delete is stored as its text: [at, n] would be as long


@functools.lru_cache(maxsize=8192)
def side_text(texts: tuple[str, ...]) -> str:
    """The text a side of a change is read against: its provisions' texts
    (`side_texts`), cut into paragraphs as the aligner cuts them
    (`align.units`), joined as a change joins its paragraphs, shown as the
    word diff shows text (footnote marks dropped, no space at either end).
    Cached: each request for a law reads its provisions' texts again."""
    paras = [t for text in texts for t in _PARAS.split(text) if t.strip()]
    return _MARKS.sub("", "\n\n".join(paras)).strip()


def side_texts(provisions: list, raw: bool) -> tuple[str, ...]:
    """The texts (`raw`: the sources' raw readings, as `align.units` reads
    them) of a side's provisions, rows with text and raw_text."""
    pairs = [_with_tables(p["text"], p["raw_text"], p.get("tables")) for p in provisions]
    return _raw(pairs) if raw else _plain(pairs)


def _with_tables(text: str | None, raw: str | None, tables: str | None) -> tuple[str | None, str | None]:
    """A provision's (text, raw reading) as its changes' ops read them: its
    tables after its words, a paragraph each (`changes.attach_tables`), so
    that their runs are packed as lengths like the words'."""
    if not tables:
        return text, raw
    return (text or "").strip() + "\n\n" + tables, (raw.strip() + "\n\n" + tables) if raw else raw


def pack_ops(ops: list[list[str]], new_text: str, old_text: str) -> tuple[list, int]:
    """(packed ops, offset in `new_text`) for ops between the two sides'
    `side_text`s; checked by unpacking (see above)."""
    shown = "".join(t for op, t in ops if op != "delete")
    first = next((t.rstrip() for op, t in ops if op != "delete"), "")
    tried = []
    # where the ops start: their whole newer text, else where the first run
    # is; a piece of a merge may start at a short word found earlier inside
    # another ('the' in 'then'): each place the first run is, in turn
    for at in (new_text.find(shown) if shown else 0, 0, *_places(first, new_text)):
        if at < 0 or at in tried:
            continue
        tried.append(at)
        out = _pack_from(ops, at, new_text, old_text)
        if unpack_ops(out, at, new_text, old_text) == ops and not any(
                x.__class__ is list and x[0].__class__ is str for x in out):
            return out, at
    # some run not found in the newer text: those runs keep their text
    at = tried[0] if tried else 0
    out = _pack_from(ops, at, new_text, old_text)
    if unpack_ops(out, at, new_text, old_text) != ops:  # never so far; all text, to be safe
        out = [t if op == "delete" else ["=" if op == "equal" else "+", t] for op, t in ops]
    return out, at


def _places(run: str, text: str, most: int = 20) -> list[int]:
    """Where `run` is in `text`, first first (at most `most` places; [0] for no run)."""
    if not run:
        return [0]
    out, i = [], text.find(run)
    while i >= 0 and len(out) < most:
        out.append(i)
        i = text.find(run, i + 1)
    return out or [-1]


def _pack_from(ops: list[list[str]], at: int, new_text: str, old_text: str) -> list:
    out: list = []
    i = at
    for n, (op, t) in enumerate(ops):
        core = t.rstrip()
        if op == "delete":
            k = old_text.find(t) if len(t) >= _DELETE_AT_MIN else -1
            out.append([k, len(t)] if k >= 0 else t)
        elif op == "equal" and core and core != t and _before_deleted_run(ops, n) and new_text.startswith(core, i):
            out.append([len(core), t[len(core):]])  # the space moved off the deleted run after it
            i += len(core)
        elif new_text.startswith(t, i):
            out.append(len(t) if op == "equal" else -len(t))
            i += len(t)
        else:
            out.append(["=" if op == "equal" else "+", t])
    return out


def _before_deleted_run(ops: list[list[str]], n: int) -> bool:
    """Whether ops[n] stands before a run of deletes with no insert after it:
    a space the word diff moved onto ops[n] is then not in the newer text
    (one moved off a run with an insert is that insert's own)."""
    j = n + 1
    while j < len(ops) and ops[j][0] == "delete":
        j += 1
    return j > n + 1 and (j == len(ops) or ops[j][0] == "equal")


def unpack_ops(packed: list, at: int, new_text: str, old_text: str) -> list[list[str]]:
    """The word ops `pack_ops` packed."""
    out = []
    i = at
    for x in packed:
        if x.__class__ is int:
            if x > 0:
                out.append(["equal", new_text[i:i + x]])
                i += x
            else:
                out.append(["insert", new_text[i:i - x]])
                i -= x
        elif x.__class__ is str:
            out.append(["delete", x])
        elif x[0].__class__ is str:
            out.append(["equal" if x[0] == "=" else "insert", x[1]])
        elif x[1].__class__ is int:
            out.append(["delete", old_text[x[0]:x[0] + x[1]]])
        else:
            out.append(["equal", new_text[i:i + x[0]] + x[1]])
            i += x[0]
    return out


def _pack_row(row: dict, ops: list, raw_ops: list, texts: dict) -> None:
    """Pack a row's ops in place, `texts` {(edition, provision id): provision}
    holding its provisions."""
    sides = [[texts[(row[f"{side}_edition"], pid)] for pid in json.loads(row[f"{side}_provisions"])]
             for side in ("from", "to")]
    packed, row["ops_at"] = pack_ops(ops, side_text(side_texts(sides[1], False)),
                                     side_text(side_texts(sides[0], False)))
    row["ops"] = _tight(packed)
    if raw_ops == ops:
        row["raw_ops"], row["raw_at"] = None, 0
    else:
        packed, row["raw_at"] = pack_ops(raw_ops, side_text(side_texts(sides[1], True)),
                                         side_text(side_texts(sides[0], True)))
        row["raw_ops"] = _tight(packed)
    for side in ("from", "to"):  # one provision (or none), as nine rows in ten: its id says it
        if json.loads(row[f"{side}_provisions"]) == _implied(row[f"{side}_provision"]):
            row[f"{side}_provisions"] = None


def _implied(first: str | None) -> list[str]:
    """A side's provisions when a stored row keeps them NULL: its first only."""
    return [first] if first else []


@functools.lru_cache(maxsize=16384)
def _implied_json(first: str | None) -> str:
    """`_implied` as `_rows` writes it (cached: an encoder call per row was a
    fifth of reading a law's rows)."""
    return _json(_implied(first))


def provisions_of(row, side: str) -> list[str]:
    """A stored (or unpacked) row's provisions on one side ("from", "to")."""
    listed = row[f"{side}_provisions"]
    return json.loads(listed) if listed is not None else _implied(row[f"{side}_provision"])


def unpack_rows(conn, rows: list) -> list[dict]:
    """Stored changes as `_rows` makes them for the web app: `ops` and
    `raw_ops` the word ops, read back from the provisions' texts.  `rows`:
    a law's rows as `stored_rows` reads them, or rows of the `alignments`
    view (any columns with the key: from_edition, to_edition, law, ord)."""
    rows = [dict(r) for r in rows]
    if rows and "ops" not in rows[0]:  # the view's rows: each law's stored rows, those asked for
        laws: dict[tuple, dict[int, dict]] = {}
        for r in rows:
            key = (r["from_edition"], r["to_edition"], r["law"])
            if key not in laws:
                laws[key] = {x["ord"]: x for x in stored_rows(conn, *key) or []}
        rows = [laws[(r["from_edition"], r["to_edition"], r["law"])][r["ord"]] for r in rows]
    sides = [(r["from_edition"], provisions_of(r, "from"), r["to_edition"], provisions_of(r, "to")) for r in rows]
    want: dict[str, set] = {}
    for fe, fp, te, tp in sides:
        want.setdefault(fe, set()).update(fp)
        want.setdefault(te, set()).update(tp)
    texts = {}
    for edition, ids in want.items():
        if ids:  # by the primary key (edition, id): an OR of both sides in one query scans
            for pid, text, raw in conn.execute(f"select id, text, raw_text from provisions where edition = ? "
                                               f"and id in ({','.join('?' * len(ids))})", [edition, *ids]):
                texts[(edition, pid)] = (text, raw)
            for pid, tables in _tables_text(conn, edition, ids).items():
                texts[(edition, pid)] = _with_tables(*texts[(edition, pid)], tables)
    out = []
    for r, (fe, fp, te, tp) in zip(rows, sides):
        r = dict(r)
        old = [texts[(fe, pid)] for pid in fp]
        new = [texts[(te, pid)] for pid in tp]
        # the older side's text is read only for a delete kept as [at, n] (a nested list)
        ops = unpack_ops(json.loads(r["ops"]), r.pop("ops_at"), side_text(_plain(new)),
                         side_text(_plain(old)) if "[" in r["ops"][1:] else "")
        raw_at = r.pop("raw_at")
        if r["raw_ops"] is None:
            raw_ops = ops  # rows read from the store are not kept: sharing the lists is safe
        else:
            raw_ops = unpack_ops(json.loads(r["raw_ops"]), raw_at, side_text(_raw(new)),
                                 side_text(_raw(old)) if "[" in r["raw_ops"][1:] else "")
        r["ops"], r["raw_ops"] = ops, raw_ops
        for side in ("from", "to"):
            if r[f"{side}_provisions"] is None:
                r[f"{side}_provisions"] = _implied_json(r[f"{side}_provision"])
        r["evidence"] = r["evidence"] or ""
        out.append(r)
    return out


# --- a law's changes as the store keeps them ------------------------------------
#
# Twenty thousand change rows at thirty codes, each a row of two dozen
# columns, were most of what the comparisons weigh: a law's changes are
# kept in one row of `law_changes`.  `rows` holds what other readers query
# (the `alignments` view: each change's provisions, status, whether its
# words changed), one short JSON list a change, its defaults left out:
#
#     [from_provision, to_provision, status (its index in STATUSES), text_changed,
#      from_law, to_law, from_provisions, to_provisions]
#
# a law null when it is the law's own (or there is no provision on that
# side), a list of provisions null when it is its first one only
# (`_implied`), nulls at the end dropped.  `detail` holds what only a page
# draws, compressed (zlib): for each change, its `_DETAIL` fields as JSON.
# `encode_law` checks every law by decoding it, so a stored law always
# reads back to the very rows compared.

_DETAIL = ("rev_ord", "part_of", "score", "how", "reason", "evidence", "minor",
           "ops", "ops_at", "raw_ops", "raw_at", "heading_ops")
_JSON_DETAIL = ("part_of", "ops", "raw_ops", "heading_ops")  # JSON text in a row, JSON values in `detail`
_ROW_KEYS = ("from_edition", "to_edition", "law", "ord", "rev_ord", "from_law", "to_law", "from_provision",
             "to_provision", "from_provisions", "to_provisions", "part_of", "status", "score", "how", "reason",
             "evidence", "text_changed", "minor", "ops", "raw_ops", "ops_at", "raw_at", "heading_ops")


def _own_law(provision: str | None, number: int) -> int | None:
    return number if provision is not None else None


def _slim(row: dict) -> list:
    """A change's entry in `rows` (above)."""
    law = row["law"]
    out = [row["from_provision"], row["to_provision"], STATUSES.index(row["status"]), row["text_changed"],
           None if row["from_law"] == _own_law(row["from_provision"], law) else row["from_law"],
           None if row["to_law"] == _own_law(row["to_provision"], law) else row["to_law"],
           None if row["from_provisions"] is None else json.loads(row["from_provisions"]),
           None if row["to_provisions"] is None else json.loads(row["to_provisions"])]
    while out[-1] is None:
        out.pop()
    return out


def encode_law(rows: list[dict]) -> tuple[str, bytes]:
    """(`rows`, `detail`) of one law's changes, `rows` packed as `_rows`
    makes them for the build (evidence: an alignment_evidence id)."""
    slim = _tight([_slim(r) for r in rows])
    detail = zlib.compress(_tight([[json.loads(r[k]) if k in _JSON_DETAIL and r[k] is not None else r[k]
                                    for k in _DETAIL] for r in rows]).encode("utf-8"), 9)
    if rows and decode_law(rows[0]["from_edition"], rows[0]["to_edition"], rows[0]["law"], slim, detail) != rows:
        raise ValueError(f"comparison {rows[0]['from_edition']} -> {rows[0]['to_edition']}, Law {rows[0]['law']}: "
                         "its changes do not read back from the store's form")
    return slim, detail


def decode_law(old: str, new: str, number: int, slim: str, detail: bytes) -> list[dict]:
    """One law's changes as `encode_law` was given them."""
    out = []
    for n, (entry, more) in enumerate(zip(json.loads(slim), json.loads(zlib.decompress(detail)))):
        entry = entry + [None] * (8 - len(entry))
        f, t, status, changed, fl, tl, fps, tps = entry
        r = {"from_edition": old, "to_edition": new, "law": number, "ord": n,
             "from_law": _own_law(f, number) if fl is None else fl,
             "to_law": _own_law(t, number) if tl is None else tl,
             "from_provision": f, "to_provision": t,
             "from_provisions": None if fps is None else _json(fps),
             "to_provisions": None if tps is None else _json(tps),
             "status": STATUSES[status], "text_changed": changed}
        for k, v in zip(_DETAIL, more):
            if k in _JSON_DETAIL and not (k == "raw_ops" and v is None):  # raw_ops NULL: it is ops
                v = (_tight if k in ("ops", "raw_ops") else _json)(v)
            r[k] = v
        out.append({k: r[k] for k in _ROW_KEYS})
    return out


def stored_rows(conn, old: str, new: str, number: int) -> list[dict] | None:
    """A stored law's changes as `_rows` makes them for the build (packed
    ops), with each evidence in words; None when the store has not that law
    of that pair."""
    found = conn.execute("select rows, detail from law_changes where from_edition = ? and to_edition = ? and law = ?",
                         [old, new, number]).fetchone()
    if found is None:
        return None
    rows = decode_law(old, new, number, found[0], found[1])
    ids = {r["evidence"] for r in rows if r["evidence"] is not None}
    said = dict(conn.execute(f"select id, text from alignment_evidence where id in ({','.join('?' * len(ids))})",
                             list(ids)).fetchall()) if ids else {}
    for r in rows:
        r["evidence"] = said.get(r["evidence"]) if r["evidence"] is not None else None
    return rows


def _law_changes(align_rows: list[dict]) -> list[dict]:
    """The `law_changes` rows of the build's change rows (a law's in order)."""
    by_law: dict[tuple, list[dict]] = {}
    for r in align_rows:
        by_law.setdefault((r["from_edition"], r["to_edition"], r["law"]), []).append(r)
    out = []
    for (old, new, number), rows in by_law.items():
        slim, detail = encode_law(sorted(rows, key=lambda r: r["ord"]))
        out.append({"from_edition": old, "to_edition": new, "law": number, "rows": slim, "detail": detail})
    return out


def _plain(texts: list[tuple[str, str]]) -> tuple[str, ...]:
    return tuple((t or "").strip() for t, _raw in texts)


def _raw(texts: list[tuple[str, str]]) -> tuple[str, ...]:
    return tuple((raw or t or "").strip() for t, raw in texts)


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
          title_new: str, texts: dict | None = None) -> tuple[dict, list[dict]]:
    """A law's changes as the rows the store keeps: with `texts` (the
    provisions by (edition, id)), their ops packed as the build stores them
    (`pack_ops`); else the word ops themselves, as the web app reads rows
    (`unpack_rows`) and keeps a comparison made on demand.  `incoming`
    counts, by status, the changes that came from another law: they are in
    that law's rows too, and the change matrix's totals count them once."""
    title_changed = normalise(title_old).lower() != normalise(title_new).lower()
    refs = unique(r for c in changes for r in citation_changes(c["ops"][:c.get("tables_from")]))
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
        "ops": ch["ops"], "raw_ops": ch["raw_ops"],
        "heading_ops": _json(ch["heading_ops"]),
    } for ch in changes]
    if texts is not None:
        for row, ch in zip(align_rows, changes):
            _pack_row(row, ch["ops"], ch["raw_ops"], texts)
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
    texts = {(e, p["id"]): p for e, side in ((old, a_laws), (new, b_laws)) for ps in side.values() for p in ps}
    law_rows, align_rows = [], []
    for number in numbers:
        law_row, rows = _rows(old, new, number, by_law[number], laws[old][number], laws[new][number], texts)
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


def pair_inputs(shared: tuple[dict, dict, list[dict]], pair: tuple[tuple[str, str], list[int]]) -> dict:
    """Everything `_compare_pair` reads for `pair`: the laws compared, both
    codes' law titles and provisions (with their tables), the pair's overrides."""
    laws, provisions, overrides = shared
    (old, new), numbers = pair
    return {"pair": [old, new], "laws": numbers,
            "titles": [sorted(laws[old].items()), sorted(laws[new].items())],
            "provisions": [[provisions.get((e, n), []) for n in sorted(laws[e])] for e in (old, new)],
            "overrides": [o for o in overrides if (o["from"], o["to"]) == (old, new)]}


def build(db, corpus_dir: Path, pair_map=None) -> dict:
    """Compare successive codes of each family (`successive_pairs`) and write
    the comparison tables, and the curated overrides the web app needs to compare
    any other pair the same way.  `db` is the sqlite_utils.Database being
    built.  `pair_map(fn, pairs, shared, inputs)`, if given, replaces
    `fork_map(fn, pairs, shared=shared)`: the build's cache (laws.buildcache)
    keeps each pair's rows by `inputs(shared, pair)`, all a pair's
    comparison reads (`pair_inputs`).  Returns figures."""
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
    shared = (laws, provisions, overrides)
    compared = (pair_map(_compare_pair, list(pairs.items()), shared, pair_inputs) if pair_map
                else fork_map(_compare_pair, list(pairs.items()), shared=shared))
    for rows in compared:
        law_rows += rows[0]
        align_rows += rows[1]
        notes += rows[2]
    figures = {"pairs": len(pairs), "laws": len(law_rows), "changes": len(align_rows), "notes": notes}
    # each way of saying why a pair was made, once: thirty codes have twenty
    # thousand rows and a few hundred distinct explanations
    said = {text: n for n, text in enumerate(unique(r["evidence"] for r in align_rows if r["evidence"]), 1)}
    for r in align_rows:
        r["evidence"] = said.get(r["evidence"])
    _insert(conn, "alignment_evidence", [{"id": n, "text": text} for text, n in said.items()])
    for table, rows in (("law_comparisons", law_rows), ("law_changes", _law_changes(align_rows))):
        _insert(conn, table, rows)
    conn.commit()
    figures["seconds"] = round(time.perf_counter() - t0, 3)
    return figures


def _create_tables(db) -> None:
    """The comparison tables, made anew (a build writes a fresh store, but a
    test may build into one in place)."""
    conn = db.conn
    kinds = dict(conn.execute("select name, type from sqlite_master"))
    for name in ("alignments", "law_changes", "alignment_evidence", "law_comparisons", "alignment_overrides"):
        if name in kinds:  # alignments was a table before it was a view
            conn.execute(f"drop {kinds[name]} {name}")
    # without rowid: the table is its primary key's tree, not a second copy
    # of the key beside it (short rows, read by that key or a pair's)
    counted = "".join(f"{status} integer, " for status in STATUSES)
    conn.execute(f"""create table law_comparisons (
        from_edition text, to_edition text, law integer, status text,
        title_from text, title_to text, title_ops text, {counted}
        incoming text,  -- JSON {{status: n}}: changes from another law, also counted in that law
        refs text,  -- JSON [[old, new], ...]: cross-references changed in place
        summary text,
        primary key (from_edition, to_edition, law)) without rowid""")
    # with a rowid, unlike law_comparisons: a row here is a whole law, often
    # over a thousand bytes, and a table without one keeps whole rows in its
    # inner pages and spills long rows onto pages of their own (law_changes
    # took 1.29 MB that way at thirty codes, 1.20 MB with its key's index so)
    conn.execute("""create table law_changes (
        from_edition text, to_edition text, law integer,
        rows text,  -- JSON: each change's provisions, status, whether its words changed (stored.encode_law)
        detail blob,  -- zlib of JSON: what a page draws (score, evidence, word ops packed by stored.pack_ops)
        primary key (from_edition, to_edition, law))""")
    conn.execute(_ALIGNMENTS_VIEW)
    db["alignment_evidence"].create({"id": int, "text": str}, pk="id")
    # the corpus's curated alignments, kept in the store: comparisons made
    # later by the web app read the store only, never the corpus folder
    db["alignment_overrides"].create({
        "from_edition": str, "to_edition": str, "law": int, "from_law": int, "to_law": int,
        "from_provisions": str, "to_provisions": str, "reason": str,  # JSON lists
    })


def _entry(i: int) -> str:
    return f"json_extract(j.value, '$[{i}]')"


# one row a change, as the alignments table had them (the columns other
# readers query: laws.rulings.carry, search.evaluate, anyone with sqlite3),
# read from law_changes.rows (`_slim`); a list of provisions is NULL when it
# is its first one only, as it was in the table
_ALIGNMENTS_VIEW = f"""create view alignments as select
    c.from_edition, c.to_edition, c.law, j.key as ord,
    coalesce({_entry(4)}, case when {_entry(0)} is not null then c.law end) as from_law,
    coalesce({_entry(5)}, case when {_entry(1)} is not null then c.law end) as to_law,
    {_entry(0)} as from_provision, {_entry(1)} as to_provision,
    {_entry(6)} as from_provisions, {_entry(7)} as to_provisions,
    case {_entry(2)} {' '.join(f"when {i} then '{s}'" for i, s in enumerate(STATUSES))} end as status,
    {_entry(3)} as text_changed
    from law_changes c, json_each(c.rows) j"""


def _insert(conn, table: str, rows: list[dict]) -> None:
    """Plain executemany: sqlite-utils' insert_all inspects every value of
    every row, which cost more than the comparisons at thirty codes."""
    if rows:
        cols = list(rows[0])
        conn.executemany(f"insert into {table} ({', '.join(cols)}) values ({', '.join('?' * len(cols))})",
                         [tuple(r[c] for c in cols) for r in rows])


def read_store(conn, law: int | None = None, editions_wanted: tuple[str, ...] = ()):
    """(editions, {edition: {law: title}}, {(edition, law): [provision dicts]})
    from the store, all of it or one law of some editions; a provision that
    prints tables has them as text under "tables" (`_add_tables`)."""
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
    _add_tables(conn, provisions, law, editions_wanted)
    return editions, laws, provisions


def _add_tables(conn, provisions: dict[tuple[str, int], list[dict]], law: int | None,
                editions_wanted: tuple[str, ...]) -> None:
    """Each provision's printed tables, as the comparison reads them
    (`text.tables_text`), under "tables" (in place): a changed cell is a
    change of its provision."""
    where, args = "", []
    if law is not None:
        where = f" where edition in ({','.join('?' * len(editions_wanted))})"
        args = list(editions_wanted)
    found = _read_tables(conn, where, args)
    for (ed, _number), ps in provisions.items():
        for p in ps:
            if (ed, p["id"]) in found:
                p["tables"] = tables_text(found[(ed, p["id"])])


def _tables_text(conn, edition: str, ids) -> dict[str, str]:
    """{provision id: its tables as compared} for those of `ids` in `edition` that print any."""
    ids = list(ids)
    found = _read_tables(conn, f" where edition = ? and provision in ({','.join('?' * len(ids))})", [edition, *ids])
    return {pid: tables_text(ts) for (_ed, pid), ts in found.items()}


def _read_tables(conn, where: str, args: list) -> dict[tuple[str, str], list]:
    """{(edition, provision): [(caption, header, rows)...]} in printed order."""
    found: dict[tuple[str, str], list] = {}
    for ed, pid, caption, header, rows in conn.execute(
            "select edition, provision, caption, header, rows from tables" + where
            + " order by edition, provision, ord", args):
        found.setdefault((ed, pid), []).append((caption, json.loads(header or "[]"), json.loads(rows or "[]")))
    return found


def editions_by_id(conn) -> dict[str, dict]:
    """The editions table, {id: row as a dict}, in manifest order."""
    return {r["id"]: dict(r) for r in conn.execute("select * from editions order by ord")}
