"""The offline search's payload: `offline.json`, written beside the Whoosh index
at build time and served as /offline/search.json.

The browser indexes it with MiniSearch (static/vendor/minisearch.js) and
ranks it with static/search.js the way search/query.py ranks on the server,
so the two agree as far as they can (bench/search.py measures how far):

* `docs`: every document of the Whoosh index (provisions, definitions, guide
  topics, index entries) with the fields it is searched on (the plain-words
  fields included), what a result shows, and for an index entry the
  documents it cites (their places in `docs`, with their shares);
* `strings`: the texts of those fields, each once; a document's field is
  its text's place in `strings`.  Editions repeat each other (2017 keeps
  most of 2007's provisions word for word, a law's title stands on each of
  its provisions, a 2007 gloss is often a 2017 one), and gzip's window is
  too short to see the repeats between two editions;
* `terms`: every word of the corpus (and of the directors' vocabulary) with
  its index term, as search/analysis.py makes it (spelling folded, stemmed,
  stop words null), so the browser analyses text exactly as the server
  without a stemmer of its own;
* `synonyms`: the directors' vocabulary (search/synonyms.txt) as terms;
* `ranking`: the field boosts and weights of search/query.py's `Ranking`;
* `editions`: what the ranking and the citations need, and their status (in
  the store's order; the phone searches those of them it keeps and says
  which, in the words and order of the server's reply);
* `handoff`: the ruling procedures that apply each provision
  (laws/rulings/handoff.py `procedures`), so that the first result offers
  its ruling with no connection, with what the question states filled in
  (`PREFILL`, and static/search.js's port of `facts`).

What it weighs is printed by bench/search.py (raw and compressed).
"""
from __future__ import annotations

import json
from pathlib import Path

from whoosh.util.numeric import _length_byte_cache

from search.analysis import NUMBER_WORDS, SUITS, term, words
from search.synonyms import EXPANSION_WEIGHT, SYNONYMS_FILE, synonyms

PAYLOAD = "offline.json"
FIELDS = ("title", "heading", "text", "context", "plain", "situations")


def payload(docs: list[dict], editions: list[dict]) -> dict:
    from search import query  # the ranking's constants (query imports the index module)

    rk = query.Ranking()
    vocab: set[str] = set(NUMBER_WORDS) | set(SUITS) | set(rk.fillers)
    out_docs = []
    number = {d["key"]: i for i, d in enumerate(docs)}
    # every distinct text once, in alphabetical order: texts that begin
    # alike (a 2007 gloss and the 2017 one it follows) then stand side by
    # side, where gzip sees what they share
    strings = {t: i for i, t in enumerate(sorted({d.get(f) or "" for d in docs for f in FIELDS}))}
    for t in strings:
        vocab.update(words(t))
    for d in docs:
        fields = [strings[d.get(f) or ""] for f in FIELDS]
        # an index entry's cited documents, by their place in `docs`
        cites = [[number[k], share] for k, share in d.get("cites") or () if k in number]
        out_docs.append([d["kind"], d["edition"], d.get("law"), d["provision"], _url(d), d["group"],
                         list(d.get("laws") or []), d.get("ord") or 0, *fields, cites])
    vocab.update(words(Path(SYNONYMS_FILE).read_text(encoding="utf-8")))
    syn = synonyms()
    return {
        "columns": ["kind", "edition", "law", "provision", "url", "group", "laws", "ord", *FIELDS, "cites"],
        "docs": out_docs,
        "strings": list(strings),
        "fields": list(FIELDS),
        "terms": {w: term(w) for w in sorted(vocab)},
        "synonyms": [[list(k), [list(a) for a in alts]] for k, alts in syn.entries.items()],
        "ranking": {
            "boost": {f: (rk.title_weight if f == "title" else b) for f, b in query.FIELDS},
            "expansion": EXPANSION_WEIGHT, "all_terms_bonus": query.ALL_TERMS_BONUS,
            "index_weight": rk.index_weight, "field_tiebreak": query.FIELD_TIEBREAK,
            "phrase_bonus": query.PHRASE_BONUS,
            "other_family": query.OTHER_FAMILY_WEIGHT, "in_force": query.IN_FORCE_WEIGHT,
            "guide_weight": rk.guide_weight, "definition_weight": rk.definition_weight,
            "guide_evidence": rk.guide_evidence, "fillers": sorted(rk.fillers),
            "coordination": rk.coordination, "second_entry": rk.second_entry,
            "long_question": rk.long_question, "long_situations": rk.long_situations,
            "max_terms": query.MAX_TERMS,
            # a field's length as BM25F reads it: its terms (stop words not
            # counted), stored by Whoosh in one byte, so rounded up to the
            # next of these (search/index.py `_stored_length`)
            "lengths": list(_length_byte_cache),
        },
        # status and in_force_from: the phone says which editions it searched
        # in the server's words (static/search.js `searchedLabel`)
        "editions": [{k: e.get(k) for k in ("id", "title", "year", "kind", "family", "in_force", "status",
                                            "in_force_from", "laws", "declared")}
                     for e in editions],
        "handoff": _handoff([e["id"] for e in editions]),
    }


def _url(doc: dict) -> str:
    """A document's address, or "" where the browser makes the same one from
    the document's edition, law and provision ("/2017/law/12#12C1(b)":
    static/search.js `Engine`), a twelfth of what the documents weigh."""
    if doc["kind"] == "law" and doc["url"] == _law_url(doc["edition"], doc.get("law"), doc["provision"]):
        return ""
    return doc["url"]


def _law_url(edition: str, law, pid: str) -> str:
    return f"/{edition}/law/{law}" + ("" if pid == str(law) else f"#{pid}")


def _handoff(editions: list[str]) -> dict:
    """laws/rulings/handoff.py's map for the phone: {"procedures": [[period,
    kind, title, url]], "by": {edition: {provision: [procedure's place, ...]}},
    "named": {edition: [[provision a procedure is named for, its place]]},
    "prefill": {period: {fact: field}}}."""
    from laws.rulings import handoff

    procs: dict[tuple, int] = {}

    def place(p: dict) -> int:
        return procs.setdefault((p["period"], p["kind"], p["title"], p["url"]), len(procs))

    by: dict[str, dict[str, list[int]]] = {}
    named: dict[str, list] = {}
    for ed in editions:
        for pid, found in handoff.procedures(ed).items():
            by.setdefault(ed, {})[pid] = [place(p) for p in found]
        named[ed] = [[law, place(p)] for law, p in handoff.by_law(ed)]
    return {"procedures": [list(k) for k in procs], "by": by, "named": named, "prefill": handoff.PREFILL}


def write(path: Path, docs: list[dict], editions: list[dict]) -> None:
    Path(path).write_text(json.dumps(payload(docs, editions), ensure_ascii=False, separators=(",", ":")),
                          encoding="utf-8")
