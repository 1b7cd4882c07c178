"""Building the search index from the store (build time only).

`build(db, out_dir)` is called by `laws.build` on the finished store of a new
build; the index lands in `<build dir>/index`, and the whole build directory
is switched in atomically, so a server never sees a half-written index.  The
web app opens it read-only (`search.query`).

One document per searchable thing:

* every provision of every code edition: its heading, its own text (with its
  tables and footnotes), and the title of its law (so "revoke" finds every
  provision of Law 62 "Correction of a Revoke"), and its plain words
  (laws/plain.py, issue 19) as two fields: `plain`, what it does in plain
  English, and `situations`, the table words for what it decides ("partner
  tanked then bid"), weighed below the Law's own words (search/query.py
  FIELDS) so that the text still wins where it matches;
* every definition (title = the term);
* every topic of the guide (title = the topic's title);
* every entry of an edition's official index (kind 'entry'; heading = its
  words, title = its heading entry's words), with the documents it cites.
  Entries are never results: the compilers of the index put those words on
  those provisions, which is the best evidence there is that they answer
  them, so search/query.py gives an entry's score to what it cites ("Bid /
  Insufficient bid, comparable call" on 23A).  Each entry is scored on its
  own words, so an entry that says exactly what was asked counts more than a
  long one, and a provision cited by many entries is not favoured for the
  length of their words.

Each edition is a shard of its own: `docs-<n>.pickle` (what a Searcher keeps
of each document: key, kind, group, law, what a result shows) and
`postings-<n>.bin` (every term's postings as Whoosh indexes and scores them
with `schema()`, its analyzer and BM25F; see `Analyser` and
`_write_postings`), so that a search reads only the editions it searches (see
`default_editions`) and a worker's memory and first search do not grow with
the number of codes in the corpus.

Besides the shards the directory holds `offline.json`, the documents of the
default editions for the browser's search with no connection
(search/offline.py), and `meta.json`: the editions (for
choosing the newest edition of a cited provision and for the filter form) and
the corpus's vocabulary of unstemmed words with their counts (for did-you-mean)
and each word's term (so that highlighting need not analyse them again).
"""
from __future__ import annotations

import functools
import json
import os
import pickle
import shutil
import struct
import time
from collections import Counter
from math import log
from pathlib import Path
from urllib.parse import quote

from whoosh import scoring
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema
from whoosh.util.numeric import byte_to_length, length_to_byte

from laws.queries import listed  # noqa: F401 (search.index.listed: the site's order of editions)
from laws.rulings import data as rulings_data
from laws.workers import fork_map
from search import offline
from search.analysis import WORD, analyzer, index_term

INDEX_NAME = "laws"
# the layout below (shards, postings-<n>.bin, docs-<n>.pickle): a data folder
# built with another is rebuilt by `python app.py` (laws/build.py fingerprint)
FORMAT = "shards-2"  # 2: the plain-words fields
META = "meta.json"
SCORED = ("heading", "context", "title", "text", "plain", "situations")
BM25_B, BM25_K1 = 0.75, 1.2  # Whoosh's BM25F defaults  # the fields searched (search/query.py FIELDS)
KINDS = ("law", "definition", "guide")  # the `kind` filter's values; index entries are never results
# an index entry citing a whole law gives its provisions this share of its
# score: the law's title weighs as much against a provision's heading
LAW_WIDE_SHARE = 0.5


def schema() -> Schema:
    """The Whoosh schema the postings are those of: `Analyser` reproduces what
    Whoosh's writer makes of a document with it (tests/test_search_build.py
    indexes the real corpus with Whoosh and compares)."""
    text = analyzer()
    return Schema(
        key=ID(stored=True, unique=True),  # kind|edition|id
        kind=ID(stored=True),
        edition=ID(stored=True),
        group=ID(stored=True),  # results of one group are shown together (see query.py)
        law=NUMERIC(stored=True),
        provision=STORED(),  # provision id, 'def:<term>' or 'topic:<slug>'
        url=STORED(),
        laws=STORED(),  # a guide topic's laws
        ord=STORED(),
        title=TEXT(analyzer=text, stored=True),
        heading=TEXT(analyzer=text, stored=True),
        context=TEXT(analyzer=text),  # a provision's sections' headings
        text=TEXT(analyzer=text, stored=True),
        plain=TEXT(analyzer=text, stored=True),  # the plain-words layer (laws/plain.py)
        situations=TEXT(analyzer=text),
        cites=STORED(),  # an index entry's documents: [[key, share]] (see _index_entries)
    )


def law_url(edition: str, law: int, pid: str) -> str:
    base = f"/{_quoted(edition, '/')}/law/{law}"
    return base if pid == str(law) else f"{base}#{_quoted(pid, '().')}"


@functools.lru_cache(maxsize=4096)
def _quoted(s: str, safe: str) -> str:
    """quote(s, safe), remembered: every edition has the same provision ids."""
    return quote(s, safe=safe)


def definition_url(edition: str, def_id: str) -> str:
    return f"/{quote(edition)}/definitions#{quote(def_id, safe=':().')}"


def topic_url(topic_id: str) -> str:
    return f"/guide/{quote(topic_id, safe=':')}"


def _index_entries(db, law_provisions: dict[tuple[str, int], list[str]]):
    """One document per entry of an edition's official index (kind 'entry'):
    its own words as the heading, its heading entry's words as the title (a
    sub-entry 'Psychic call' under 'Partnership Understanding'), and in
    `cites` the documents it points to with the share of its score each
    gets: a provision or definition it cites, in full; every provision of a
    law it cites whole ('Claim 68, 69, 70'), `LAW_WIDE_SHARE` of it, since
    such an entry says what the law is about, as the law's title does.

    Entries are evidence, never results: search/query.py scores them like
    any document and gives their score to what they cite (an entry that says
    exactly what was asked counts more than a long one that also says it)."""
    if "index_entries" not in db.table_names():
        return
    terms = {(r["edition"], r["id"]): r["term"] for r in db["index_entries"].rows}
    for r in db["index_entries"].rows_where(order_by="edition, ord"):
        share: dict[str, float] = {}
        for c in json.loads(r["cites"] or "[]"):
            to = c.get("to") or ""
            if to.isdigit():
                targets = [(f"law|{r['edition']}|{pid}", LAW_WIDE_SHARE)
                           for pid in law_provisions.get((r["edition"], int(to)), [])]
            elif to[:1].isdigit():
                targets = [(f"law|{r['edition']}|{to}", 1.0)]
            elif to.startswith("def:"):
                targets = [(f"definition|{r['edition']}|{to}", 1.0)]
            else:
                continue  # the definitions page, the introduction: no document of their own
            for key, s in targets:
                share[key] = max(share.get(key, 0.0), s)
        if not share:
            continue
        cites = [[k, s] for k, s in share.items()]
        parent = terms.get((r["edition"], r["parent"]), "") if r["parent"] is not None else ""
        yield dict(key=f"entry|{r['edition']}|{r['id']}", kind="entry", edition=r["edition"],
                   group=f"entry:{r['edition']}:{r['id']}", provision=f"entry:{r['id']}", url="",
                   ord=r["ord"], title=parent, heading=r["term"] or "", text="", cites=cites)


def _documents(db):
    editions = {r["id"]: r for r in db["editions"].rows}
    law_titles = {(r["edition"], r["number"]): r["title"] or "" for r in db["laws"].rows}
    extra: dict[tuple[str, str], list[str]] = {}
    for t in db["tables"].rows_where(order_by="edition, provision, ord"):
        cells = [t["caption"] or ""] + json.loads(t["header"] or "[]")
        for row in json.loads(t["rows"] or "[]"):
            cells += [str(c) for c in row]
        extra.setdefault((t["edition"], t["provision"]), []).append(" ".join(c for c in cells if c))
    for f in db["footnotes"].rows_where(order_by="edition, provision, id"):
        extra.setdefault((f["edition"], f["provision"]), []).append(f["text"] or "")

    # plain tuples: at thirty codes, a dict per row of sqlite-utils' cost more than the rest
    rows = db.conn.execute("select edition, id, law, parent, heading, text, ord from provisions "
                           "order by edition, ord").fetchall()
    glosses = {(e, pid): (plain, "\n".join(json.loads(situations)))
               for e, pid, plain, situations in db.conn.execute(
                   "select edition, provision, plain, situations from glosses")}
    headings = {(edition, pid): (parent, heading) for edition, pid, _, parent, heading, _, _ in rows}
    for edition, pid, law, parent, heading, own_text, ord_ in rows:
        ed = editions[edition]
        text = "\n\n".join([own_text or ""] + extra.get((edition, pid), [])).strip()
        # the headings of the sections it is in: 40C1 is in "C. Deviation from
        # System and Psychic Action", which says what 40C1 is about
        context, up = [], parent
        while up and (edition, up) in headings:
            up, above = headings[(edition, up)]
            if above:
                context.append(above)
        yield dict(
            key=f"law|{edition}|{pid}", kind="law", edition=edition,
            group=f"{ed['family'] or ed['id']}:{law}", law=law, provision=pid,
            url=law_url(edition, law, pid), ord=ord_,
            title=law_titles.get((edition, law), ""), heading=heading or "", text=text,
            context="\n".join(context), **dict(zip(("plain", "situations"), glosses.get((edition, pid), ("", "")))),
        )
    for d in db["definitions"].rows_where(order_by="edition, ord"):
        yield dict(
            key=f"definition|{d['edition']}|{d['id']}", kind="definition", edition=d["edition"],
            group=f"definition:{d['term'].lower()}", provision=d["id"], url=definition_url(d["edition"], d["id"]),
            ord=d["ord"], title=d["term"], heading="", text=d["text"] or "",
        )
    topic_laws: dict[str, list[int]] = {}
    for r in db["topic_laws"].rows_where(order_by="topic, law"):
        topic_laws.setdefault(r["topic"], []).append(r["law"])
    topics = list(db["topics"].rows_where(order_by="edition, ord"))
    parents = {t["id"]: t["parent"] for t in topics}
    for t in topics:
        if not (t["text"] or "").strip():
            continue  # a group heading: its sub-topics hold the text (and are searched)
        # a sub-topic is about the laws its group is tagged with
        laws, up = topic_laws.get(t["id"]), parents.get(t["id"])
        while not laws and up:
            laws, up = topic_laws.get(up), parents.get(up)
        yield dict(
            key=f"guide|{t['edition']}|{t['id']}", kind="guide", edition=t["edition"], group=t["id"],
            provision=t["id"], url=topic_url(t["id"]), laws=laws or [], ord=t["ord"],
            title=t["title"] or "", heading="", text=t["text"] or "",
        )
    law_provisions: dict[tuple[str, int], list[str]] = {}
    for p in db.query("select edition, law, id from provisions order by edition, ord"):
        law_provisions.setdefault((p["edition"], p["law"]), []).append(p["id"])
    yield from _index_entries(db, law_provisions)


def _editions(db) -> list[dict]:
    def present(ed: str) -> list[int]:
        return [r[0] for r in db.execute("select number from laws where edition = ? order by number", [ed])]

    # status and in_force_from (laws.manifest.resolve, kept in the store):
    # a published successor is searched by default and named with its date
    return [{"id": r["id"], "title": r["title"], "year": r["year"], "kind": r["kind"],
             "family": r["family"] or r["id"], "in_force": bool(r.get("in_force")),
             "status": r.get("status"), "in_force_from": r.get("in_force_from"),
             "laws": present(r["id"]), "declared": json.loads(r.get("laws") or "[]")}
            for r in db["editions"].rows_where(order_by="ord")]


def default_editions(editions: list[dict]) -> list[str]:
    """The editions a search with no edition asked searches: the code in force
    (else the newest code), a published successor (a code of its family
    published but not yet in force, status 'published': from the day it is
    published directors read it beside the code they rule by; the soonest in
    force, should there be several), the code before it in its family (what
    its history and "what changed" compare it with), the newest code of every
    other family (the rubber code), and the newest edition of each other
    kind (the guide).  However many old codes the corpus holds, a search
    reads this many editions; asking for an edition searches that one (with
    the guide, whose topics are evidence)."""
    codes = sorted((e for e in editions if e["kind"] == "code"),
                   key=lambda e: (not e.get("in_force"), -(e.get("year") or 0)))
    chosen: set[str] = set()
    if codes:
        main = codes[0]
        chosen.add(main["id"])
        successors = [e for e in codes[1:] if e["family"] == main["family"] and e.get("status") == "published"]
        if successors:
            chosen.add(min(successors, key=lambda e: (e.get("in_force_from") or "9999", e.get("year") or 0))["id"])
        older = [e for e in codes[1:] if e["family"] == main["family"] and (e.get("year") or 0) < (main.get("year") or 0)]
        if older:
            chosen.add(max(older, key=lambda e: e.get("year") or 0)["id"])
    newest: dict[tuple[str, str], dict] = {}
    for e in editions:
        have = newest.get((e["kind"], e["family"]))
        if have is None or (e.get("year") or 0) > (have.get("year") or 0):
            newest[(e["kind"], e["family"])] = e
    main_family = codes[0]["family"] if codes else None
    chosen |= {e["id"] for (kind, fam), e in newest.items() if not (kind == "code" and fam == main_family)}
    return [e["id"] for e in editions if e["id"] in chosen]  # in the store's order


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def _long_date(iso: str) -> str:
    """'2027-09-01' -> '1 September 2027', as the site writes it (the month
    in words: 09/01 reads as two dates on either side of the Atlantic)."""
    year, month, day = (int(x) for x in iso.split("-"))
    return f"{day} {MONTHS[month - 1]} {year}"


def editions_label(editions: list[dict], ids) -> str:
    """What a search says it searched, in words: "2017 (in force), 2007,
    rubber 1993, the guide"; a published successor with the day it takes
    effect, "2027 (in force from 1 September 2027)".  static/search.js
    `searchedLabel` says it in the same words on the phone."""
    by_id = {e["id"]: e for e in editions}
    codes = sorted((e for e in editions if e["kind"] == "code"),
                   key=lambda e: (not e.get("in_force"), -(e.get("year") or 0)))
    main_family = codes[0]["family"] if codes else None
    guides = [e for e in editions if e["kind"] == "guide"]
    names = []
    for eid in listed(editions, ids):
        e = by_id[eid]
        if e["kind"] == "guide":
            names.append("the guide" if len(guides) == 1 else f"the guide {e.get('year') or e['id']}")
            continue
        if e["kind"] != "code":
            names.append(e.get("title") or eid)
            continue
        name = eid if e["family"] == main_family else f"{e['family']} {e.get('year') or eid}"
        if e.get("in_force") or e.get("status") == "in force":
            name += " (in force)"
        elif e.get("status") == "published":
            name += (f" (in force from {_long_date(e['in_force_from'])})" if e.get("in_force_from")
                     else " (published, not yet in force)")
        names.append(name)
    return ", ".join(names)


def shard_name(n: int) -> str:
    return f"{INDEX_NAME}-{n}"


def doc_meta(doc: dict) -> dict:
    """What ranking, grouping, citations and a result need of a document."""
    out = {"key": doc["key"], "kind": doc["kind"], "edition": doc["edition"], "group": doc["group"],
           "ord": doc.get("ord") or 0, "law": doc.get("law"), "laws": list(doc.get("laws") or ()),
           "provision": doc["provision"], "url": doc["url"]}
    if doc.get("cites"):
        out["cites"] = doc["cites"]
    if doc["kind"] != "entry":  # an entry is never shown
        out |= {"title": doc["title"], "heading": doc["heading"], "text": doc["text"]}
    if doc.get("plain"):
        out["plain"] = doc["plain"]
    return out


def docs_file(n: int) -> str:
    return f"docs-{n}.pickle"


def postings_file(n: int) -> str:
    return f"postings-{n}.bin"


class Analysed:
    """One edition's documents as Whoosh's writer indexes them with `schema()`
    (see `Analyser`): `postings[field][term]` is [(document number,
    positions)] in document order, `lengths[field]` each document's length in
    that field (its terms, stop words not counted), `vocabulary` the unstemmed
    words (for did-you-mean)."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, list[tuple[int, tuple[int, ...]]]]] = {f: {} for f in SCORED}
        self.lengths: dict[str, list[int]] = {f: [] for f in SCORED}
        self.vocabulary: Counter[str] = Counter()


class Analyser:
    """Documents as Whoosh's writer indexes them with `schema()`, exactly
    (tests/test_search_build.py builds a Whoosh index of the real corpus and
    compares): each field through `analyzer()`'s tokenizer and filters, a
    term's weight its number of occurrences, positions renumbered past stop
    words as Whoosh's StopFilter does (the first kept word keeps its place,
    the next ones follow it).

    Why not Whoosh's writer itself: it costs about 2 s of CPU per full code
    (issue 14: 31 codes must build in 15 s), writing segment files only for
    `_write_postings` to read them back.  Every filter of the analyzer works
    on one word at a time (search/analysis.py `index_term`), so each distinct
    word is analysed once; and editions repeat each other's text (2017 keeps
    most of 2007's provisions word for word, a national edition most of the
    WBF's), so one Analyser, used for every edition of a build, analyses
    each distinct text once."""

    def __init__(self) -> None:
        self._terms: dict[str, str | None] = {}
        self._texts: dict[str, tuple[int, dict[str, tuple[int, ...]], Counter]] = {}

    def shard(self, docs: list[dict]) -> Analysed:
        """The postings of `docs`, numbered in order."""
        out = Analysed()
        uses: Counter[str] = Counter()
        for field in SCORED:
            postings, lengths = out.postings[field], out.lengths[field]
            for n, doc in enumerate(docs):
                value = doc.get(field) or ""
                uses[value] += 1
                length, positions, _ = self._text(value)
                lengths.append(length)
                for t, pos in positions.items():
                    if t in postings:
                        postings[t].append((n, pos))
                    else:
                        postings[t] = [(n, pos)]
        for value, k in uses.items():  # each distinct text's words, as often as it is used
            for w, c in self._texts[value][2].items():
                out.vocabulary[w] += c * k
        return out

    def _text(self, value: str) -> tuple[int, dict[str, tuple[int, ...]], Counter]:
        """(length, {term: positions}, the vocabulary's words) of one field's text."""
        found = self._texts.get(value)
        if found is not None:
            return found
        kept, first, positions, words = 0, None, {}, Counter()
        for i, m in enumerate(WORD.finditer(value)):
            word = m[0].lower()
            if word.isalpha() and len(word) > 1:
                words[word] += 1
            t = self._terms.get(word, False)
            if t is False:
                t = self._terms[word] = index_term(word)
            if t is None:
                continue
            if first is None:
                first = i
            positions.setdefault(t, []).append(first + kept)
            kept += 1
        found = self._texts[value] = (kept, {t: tuple(p) for t, p in positions.items()}, words)
        return found


def _stored_length(length: int) -> int:
    """A field's length as Whoosh keeps it for scoring: in one byte, so
    rounded (whoosh.util.numeric); BM25F reads this, not the exact count."""
    return byte_to_length(length_to_byte(length))


def _write_postings(path: Path, shard: Analysed, stats: "_Collection") -> None:
    """Every term's postings in one shard, with Whoosh's BM25F score
    (`whoosh.scoring.bm25`, B 0.75, K1 1.2) computed from the collection
    statistics of the default editions taken together (`stats`), whichever
    shard is scored: so scores from different shards compare, an edition
    searched alone ranks as it does among the others, and adding old codes
    to the corpus changes no score.  Written as `postings-<n>.bin`: pickled
    (document numbers, scores, positions) one term after the other, terms in
    order and each term's fields together in SCORED order, then the table
    (field, term) -> (offset, length), then the table's offset (8 bytes).  A
    Searcher reads a term's postings in every field with one read when it
    first needs them (a search scores a word in every field), rather than all
    of them when it opens (seconds, and memory growing with the editions)."""
    table = {}
    bm25 = scoring.bm25
    lengths = {field: [_stored_length(n) for n in shard.lengths[field]] for field in SCORED}
    with open(path, "wb") as out:
        for t in sorted({t for field in SCORED for t in shard.postings[field]}):
            for field in SCORED:
                postings = shard.postings[field].get(t)
                if postings is None:
                    continue
                idf, avg, length = stats.idf(field, t), stats.avgfl[field], lengths[field]
                blob = pickle.dumps(([d for d, _ in postings],
                                     [bm25(idf, len(pos), length[d], avg, BM25_B, BM25_K1) for d, pos in postings],
                                     [pos for _, pos in postings]), protocol=5)
                table[(field, t)] = (out.tell(), len(blob))
                out.write(blob)
        at = out.tell()
        out.write(pickle.dumps(table, protocol=5))
        out.write(struct.pack("<Q", at))


def _write_shard(shared: tuple, edition: dict) -> Counter:
    """Shard `edition["shard"]`: its documents (`docs-<n>.pickle`) and
    postings (`postings-<n>.bin`); returns its vocabulary."""
    tmp, by_edition, analysed, analyser, stats = shared
    docs = by_edition[edition["id"]]
    shard = analysed.get(edition["id"]) or analyser.shard(docs)
    (tmp / docs_file(edition["shard"])).write_bytes(pickle.dumps([doc_meta(d) for d in docs], protocol=5))
    _write_postings(tmp / postings_file(edition["shard"]), shard, stats)
    return shard.vocabulary


class _Collection:
    """The statistics BM25F scores with, over the default editions' shards
    taken together, as Whoosh's reader gives them for several indexes:
    documents, each field's average length (exact lengths), each term's
    document frequency."""

    def __init__(self, shards: list[Analysed]):
        self.doc_count = sum(len(s.lengths[SCORED[0]]) for s in shards) or 1
        self.avgfl = {f: (sum(sum(s.lengths[f]) for s in shards) / self.doc_count) or 1 for f in SCORED}
        self.df: dict[str, Counter[str]] = {f: Counter() for f in SCORED}
        for s in shards:
            for field, terms in s.postings.items():
                df = self.df[field]
                for t, postings in terms.items():
                    df[t] += len(postings)

    def idf(self, field: str, t: str) -> float:
        return log(self.doc_count / (self.df[field].get(t, 0) + 1)) + 1


def _path_of(db) -> str | None:
    """The file of the store `db` (a sqlite_utils.Database), or None (in memory)."""
    row = db.conn.execute("pragma database_list").fetchone()
    return row[2] or None if row else None


def build(db, out_dir: Path) -> Path:
    """Index the store `db` (a sqlite_utils.Database) into `out_dir`: per
    edition (a shard), `docs-<n>.pickle`, what a Searcher keeps in memory of
    its documents, and `postings-<n>.bin`, its scored postings; so that a
    search reads the editions it searches and nothing else.

    The index is written into a sibling directory and renamed into place
    when complete, so even outside a build `out_dir` is never half-written."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_dir.with_name(f".{out_dir.name}-tmp-{os.getpid()}-{time.monotonic_ns()}")
    tmp.mkdir()
    try:
        editions = _editions(db)
        by_edition: dict[str, list[dict]] = {e["id"]: [] for e in editions}
        for doc in _documents(db):
            by_edition[doc["edition"]].append(doc)
        for n, e in enumerate(editions):
            e["shard"], e["documents"] = n, len(by_edition[e["id"]])
        default = default_editions(editions)
        # the default editions first, here: every shard is scored with their
        # statistics; then the others side by side, one per core
        # (laws.workers), each worker inheriting what the Analyser has seen
        analyser = Analyser()  # one for all: editions repeat each other's texts
        analysed = {ed: analyser.shard(by_edition[ed]) for ed in default}
        stats = _Collection([analysed[ed] for ed in default])
        shared = (tmp, by_edition, analysed, analyser, stats)
        vocabulary: Counter[str] = Counter()
        for counts in fork_map(_write_shard, editions, shared=shared):
            vocabulary.update(counts)
        meta = {"editions": editions, "default_editions": default,
                "documents": sum(e["documents"] for e in editions), "vocabulary": dict(sorted(vocabulary.items(), key=lambda wc: (-wc[1], wc[0]))),
                "terms": {w: index_term(w) for w in vocabulary},  # = term(w), quicker
                "seconds": round(time.perf_counter() - t0, 3)}
        (tmp / META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        # offline, the phone searches what a search with no edition searches;
        # its hand-off to the rulings reads this store's carried trees too
        with rulings_data.serving(_path_of(db)):
            offline.write(tmp / offline.PAYLOAD, [d for ed in default for d in by_edition[ed]],
                          [e for e in editions if e["id"] in default])
        if out_dir.exists():  # outside a build only: move the old index aside first
            old = out_dir.with_name(f".{out_dir.name}-old-{os.getpid()}-{time.monotonic_ns()}")
            out_dir.rename(old)
            tmp.rename(out_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out_dir
