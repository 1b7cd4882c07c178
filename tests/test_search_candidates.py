"""The candidate stage of search (issue 24, search/candidates.py): the score of
every matching document over arrays, the best few hundred grouped in Python.

* The golden file (tests/search_golden.py, tests/data/search-golden-top10.json.gz)
  was recorded with the ranking before the candidate stage: the three question
  files and 1,000 queries made from headings, index terms and synonyms, with no
  edition, 2017 and 2007.  Every one still gets the same entries in the same
  order, the same provisions under each and the same count.  When the ranking
  is changed on purpose, record it again: `python tests/search_golden.py DATA`.
* The candidate stage never drops what the full ranking (no first stage: every
  matching document grouped) would show, on any question set, with any filter
  or page, however few candidates it starts from.
"""
from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws.build import current_store
from search import candidates
from search.query import Searcher
from tests import search_golden

GOLDEN = search_golden.load()


@pytest.fixture(scope="module")
def index(built):
    return current_store(built).resolve().parent / "index"


@pytest.fixture(scope="module")
def searcher(index) -> Searcher:
    return Searcher(index)


@pytest.fixture()
def full_ranking(index, monkeypatch):
    """A Searcher whose first stage takes every matching document: the full ranking."""
    monkeypatch.setattr(candidates, "FIRST_CANDIDATES", sys.maxsize)
    return Searcher(index)


def test_the_golden_file_holds_every_question_and_1000_more():
    """Every question of the three files as they are now (a question added
    means recording the file again), 1,000 generated queries, each with no
    edition, 2017 and 2007."""
    asked = {(r["set"], r["q"]) for r in GOLDEN}
    assert {(name, q) for name, q in asked if name != "generated"} == set(search_golden.questions())
    assert len({q for name, q in asked if name == "generated"}) == search_golden.GENERATED
    assert sorted((r["set"], r["q"], r["edition"] or "") for r in GOLDEN) == sorted(
        (name, q, ed or "") for name, q in asked for ed in search_golden.EDITIONS)


@pytest.mark.parametrize("name", ["questions.tsv", "questions-words.tsv", "questions-heldout.tsv", "generated"])
def test_top10_is_the_golden_one(searcher, name):
    rows = [r for r in GOLDEN if r["set"] == name]
    differ = [(r["q"], r["edition"]) for r in rows
              if search_golden.answer(searcher, r["q"], r["edition"]) != {k: r[k] for k in ("top", "more", "total")}]
    assert differ == []


def _question_sets() -> list[str]:
    return [q for name, q in search_golden.questions()]


def test_candidates_never_drop_a_top10_result_of_the_question_sets(searcher, full_ranking):
    """Both tuned question sets and the held-out one, every edition filter:
    the reply with the candidate stage is the full ranking's, whole."""
    differ = [(q, ed) for q in _question_sets() for ed in search_golden.EDITIONS
              if searcher.search(q, edition=ed, limit=10) != full_ranking.search(q, edition=ed, limit=10)]
    assert differ == []


@pytest.mark.parametrize("first, more", [(1, 2), (3, 4)])
def test_fewest_candidates_change_nothing(index, full_ranking, monkeypatch, first, more):
    """Starting from one candidate (or three), growing by two (or four): every
    way the stage can fall short (entries made from too few documents, guide
    topics waiting for a law further down, second entries, members and counts
    of groups cut off, pages further on) gives the full ranking's reply."""
    monkeypatch.setattr(candidates, "FIRST_CANDIDATES", first)
    monkeypatch.setattr(candidates, "MORE_CANDIDATES", more)
    few = Searcher(index)
    queries = random.Random(first).sample(sorted({r["q"] for r in GOLDEN}), 120) + ["card play bid", "27B1 insufficient bid"]
    asked = ({}, {"edition": "2007"}, {"kind": "law"}, {"kind": "guide"}, {"kind": "definition"},
             {"page": 2}, {"page": 4, "limit": 7}, {"edition": "1993-rubber"}, {"limit": 50})
    differ = [(q, kw) for q in queries for kw in asked if few.search(q, **kw) != full_ranking.search(q, **kw)]
    assert differ == []


def test_the_stage_groups_only_the_best_documents(searcher, monkeypatch):
    """A common word matches most of the corpus; the ranking groups the best
    FIRST_CANDIDATES of its documents, not all of them."""
    grouped = []
    original = Searcher._grouped

    def spy(self, view, final, cited, taken, later):
        grouped.append(len(taken))
        return original(self, view, final, cited, taken, later)

    monkeypatch.setattr(Searcher, "_grouped", spy)
    out = searcher.search("card play bid", limit=10)
    matching = len(searcher.score(searcher.prepare("card play bid").slots))
    assert matching > 1000 and grouped == [candidates.FIRST_CANDIDATES] and out["total"] > 100


def test_best_takes_every_score_tied_with_the_last():
    final = np.array([5.0, 1.0, 3.0, 3.0, 3.0, 0.5, 9.0])
    eligible = np.array([True, True, True, True, True, False, True])
    taken, whole = candidates.best(final, eligible, 3)
    assert (sorted(taken.tolist()), whole) == ([0, 2, 3, 4, 6], False)
    taken, whole = candidates.best(final, eligible, 6)
    assert (sorted(taken.tolist()), whole) == ([0, 1, 2, 3, 4, 6], True)


@given(st.lists(st.dictionaries(st.integers(0, 19), st.tuples(st.floats(0, 1e6), st.floats(0, 1e6)), max_size=20),
                min_size=1, max_size=6))
def test_totals_add_bit_for_bit_as_the_dictionaries_did(slots):
    """(total + best) + tie at each document, slot after slot, as search/query.py
    added dictionaries before the arrays: the same floats, not merely close ones."""
    expected: dict[int, float] = {}
    for found in slots:
        for d, (b, x) in found.items():
            expected[d] = expected.get(d, 0.0) + b + x

    class Scored:
        def __init__(self, found):
            self.ids = np.fromiter(found.keys(), np.int64, len(found))
            self.best = np.fromiter((b for b, _ in found.values()), float, len(found))
            self.tie = np.fromiter((x for _, x in found.values()), float, len(found))

    t, matched = candidates.totals(20, [Scored(f) for f in slots])
    assert {d: t[d] for d in np.flatnonzero(matched).tolist()} == expected
    assert matched.tolist() == [sum(d in f for f in slots) for d in range(20)]
