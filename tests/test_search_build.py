"""search.index builds its postings without Whoosh's writer (search/index.py
`Analyser`), for speed; they must be exactly what Whoosh's own writer and
BM25F make of the same documents with the same schema.  The reference here
indexes every edition of the real corpus with Whoosh, reads each term's
postings back through Whoosh's reader and scores them, and the index's files
must hold the same numbers, positions and scores."""
from __future__ import annotations

import pickle
import struct
from math import log

import pytest
import sqlite_utils
from whoosh import index as whoosh_index
from whoosh import scoring

from laws.build import current_store
from search import analysis, index


def _read_postings(path) -> dict:
    blob = path.read_bytes()
    (at,) = struct.unpack("<Q", blob[-8:])
    table = pickle.loads(blob[at:-8])
    return {key: pickle.loads(blob[off:off + n]) for key, (off, n) in table.items()}


def _whoosh_postings(tmp, docs_by_shard: dict[int, list[dict]], common: list[int]) -> dict[int, dict]:
    """Each shard indexed by Whoosh's writer with `index.schema()`, then every
    term's (document numbers, BM25F scores, positions) as Whoosh's reader
    gives them, with idf and average lengths over the `common` shards."""
    readers = {}
    for n, docs in docs_by_shard.items():
        ix = whoosh_index.create_in(str(tmp), index.schema(), indexname=f"ref-{n}")
        writer = ix.writer(procs=1)
        for doc in docs:
            writer.add_document(**doc)
        writer.commit(optimize=True)
        readers[n] = ix.reader()
    try:
        commons = [readers[n] for n in common]
        doc_count = sum(r.doc_count_all() for r in commons)
        avgfl = {f: sum(r.field_length(f) for r in commons) / doc_count for f in index.SCORED}
        out = {}
        for n, r in readers.items():
            got = out[n] = {}
            for field in index.SCORED:
                for t in r.lexicon(field):
                    t = t.decode("utf-8")
                    idf = log(doc_count / (sum(c.doc_frequency(field, t) for c in commons) + 1)) + 1
                    ids, scores, positions = [], [], []
                    m = r.postings(field, t)
                    while m.is_active():
                        d = m.id()
                        ids.append(d)
                        scores.append(scoring.bm25(idf, m.weight(), r.doc_field_length(d, field, 1),
                                                   avgfl[field] or 1, index.BM25_B, index.BM25_K1))
                        positions.append(tuple(m.value_as("positions")))
                        m.next()
                    got[(field, t)] = (ids, scores, positions)
        return out
    finally:
        for r in readers.values():
            r.close()


@pytest.fixture(scope="module")
def corpus_docs(built):
    db = sqlite_utils.Database(current_store(built))
    editions = index._editions(db)
    by_edition = {e["id"]: [] for e in editions}
    for doc in index._documents(db):
        by_edition[doc["edition"]].append(doc)
    return db, editions, by_edition


def test_the_postings_are_those_whoosh_writes_and_scores(corpus_docs, tmp_path):
    db, editions, by_edition = corpus_docs
    out = index.build(db, tmp_path / "index")
    shards = {n: by_edition[e["id"]] for n, e in enumerate(editions)}
    common = [n for n, e in enumerate(editions) if e["id"] in index.default_editions(editions)]
    reference = _whoosh_postings(tmp_path, shards, common)
    assert len(reference) == len(editions) > 1
    for n in shards:
        mine = _read_postings(out / index.postings_file(n))
        assert mine.keys() == reference[n].keys()
        assert mine == reference[n], f"shard {n}"


def test_a_word_gets_the_analyzers_term_alone_or_in_running_text():
    text = "The Director's ruling: partner's hesitation; he REVOKED twelfth ♠ colour don't"
    assert [analysis.index_term(w) for w in ("the", "director's", "revoked", "twelfth", "♠", "colour")] == \
        [None, "director", "revok", "12", "spade", "color"]
    assert [t for t in (analysis.index_term(m[0].lower()) for m in analysis.WORD.finditer(text)) if t] == \
        [t.text for t in analysis.analyzer()(text)]


def test_positions_follow_whooshs_stop_filter():
    # the first kept word keeps its place; the next ones follow it, stop words not counted
    analysed = index.Analyser().shard([{"heading": "the lead out of turn", "title": "", "text": "", "context": ""}])
    assert {t: pos for t, [(_, pos)] in analysed.postings["heading"].items()} == \
        {"lead": (1,), "out": (2,), "turn": (3,)}
    assert analysed.lengths["heading"] == [3]
