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
from search.analysis import term, terms
from search.query import Searcher, _Words, snippet
from tests import search_golden

GOLDEN = search_golden.load()


@pytest.fixture(scope="module")
def index(built):
    return current_store(built).resolve().parent / "index"


@pytest.fixture(scope="module")
def searcher(index) -> Searcher:
    return Searcher(index)


@pytest.fixture(scope="module")
def replies(searcher) -> dict:
    """The searcher's reply (top 10) to every golden query, no edition, 2017
    and 2007, by (query, edition): made once for the two tests that read
    them all (against the golden file, against the pattern's snippets)."""
    return {(r["q"], r["edition"]): searcher.search(r["q"], edition=r["edition"], limit=10) for r in GOLDEN}


class FullRanking:
    """A Searcher whose first stage takes every matching document: the full
    ranking.  Only its own searches: search/query.py reads FIRST_CANDIDATES
    at each search, so setting it for a whole test would make the Searcher
    under test rank in full too, and the comparison could not fail."""

    def __init__(self, index):
        self.searcher = Searcher(index)

    def search(self, q: str, **kw) -> dict:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(candidates, "FIRST_CANDIDATES", sys.maxsize)
            return self.searcher.search(q, **kw)


@pytest.fixture(scope="module")
def full_ranking(index) -> FullRanking:
    return FullRanking(index)


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
def test_top10_is_the_golden_one(replies, name):
    rows = [r for r in GOLDEN if r["set"] == name]
    differ = [(r["q"], r["edition"]) for r in rows
              if search_golden.kept(replies[r["q"], r["edition"]]) != {k: r[k] for k in ("top", "more", "total")}]
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


# --- what the short-query speed-ups (issue 24) must leave as it was ------------------------

@pytest.fixture(scope="module")
def by_pattern(index) -> Searcher:
    """A Searcher whose snippets all come from `words_of`'s pattern, as
    before search/query.py `_Words` (the reference they must equal)."""
    s = Searcher(index)
    s.snippet = lambda text, terms_set: snippet(text, terms_set, words=s.words_of(terms_set))
    return s


def test_replies_with_words_kept_per_text_are_the_patterns_whole(replies, by_pattern):
    """Every golden query (the question files and 1,000 generated), no
    edition, 2017 and 2007: the whole reply, snippets included, is the one
    the pattern's snippets make."""
    asked = sorted({(r["q"], r["edition"] or "") for r in GOLDEN})
    differ = [(q, ed) for q, ed in asked
              if replies[q, ed or None] != by_pattern.search(q, edition=ed or None, limit=10)]
    assert len(asked) > 5000 and differ == []


def test_words_kept_per_text_find_what_the_pattern_finds_in_every_text(searcher, by_pattern):
    """Every document of the default editions, each highlighted for 40 of the
    golden queries' words (seeded), and texts made to trip the reading of
    apostrophes (a form after an inner apostrophe, a trailing one, curly
    ones, backticks, digits): the same snippet, and for the plain texts
    the same hits, as the pattern."""
    texts = [d.get("text") or "" for d in searcher.docs if d is not None]
    assert len(texts) > 2000
    odd = ["the players'bid and 'bid' and bid'x'y z'players o'clock x`bid bid`s bids' bid’s ‘bid’ 12th",
           "Partner's partners' PARTNER’S o'Partner'S revoke’d revoked‘x 27B1's law 12's twelfth",
           "a''bid ab'' 'bid bid''s bid‘ s bid` x‘bid’ claim's claimed'",
           "Declarer’s dummy's dummy’ dummy` it's a claim. (bid's) [bid']"]
    term_sets = list(dict.fromkeys(
        frozenset(t for slot in searcher.prepare(q).slots for alt, _ in slot.all() for t in alt)
        for q in sorted({r["q"] for r in GOLDEN})))
    term_sets += [frozenset(terms(w)) for w in ("bid", "clock", "partner", "player", "x", "claim", "revoke", "12")]
    rnd = random.Random(24)
    plain = differ = 0
    for ts in term_sets:
        forms = searcher._forms_plain(ts)
        for text in rnd.sample(texts, 40) + odd:
            if searcher.snippet(text, ts) != by_pattern.snippet(text, ts):
                differ += 1
            words = _Words(text.strip())
            if forms is not None and words.plain is not None:
                plain += 1
                pattern = searcher.words_of(ts)
                expected = [(m.start(), m.end(), t) for m in pattern.finditer(text.strip())
                            if (t := term(m[0].lower())) in ts]
                differ += words.hits(forms, ts) != expected
    assert differ == 0 and plain > 50_000


def test_a_word_after_an_inner_apostrophe_is_highlighted_as_the_pattern_does(searcher):
    ts = frozenset(terms("bid"))
    got = str(searcher.snippet("the players'bid and 'bid' and bid'x", ts))
    assert got == "the players&#39;<mark>bid</mark> and &#39;<mark>bid&#39;</mark> and bid&#39;x"


def test_scores_are_the_per_field_sums_bit_for_bit(searcher):
    """A slot's scores gathered over every field and alternative and added
    at once (`Searcher._fold`), the index entries' evidence given at once
    (`_cited_by_entries`): the same floats as one field after another in
    dictionaries, on the question sets' slots."""
    eds = searcher.default_editions
    view = searcher._view(eds)
    slots = {slot for _, q in search_golden.questions() for slot in searcher.prepare(q).slots}
    assert len(slots) > 300
    weight = searcher.ranking.index_weight
    for slot in sorted(slots, key=repr):
        for long in (False, True):
            best, summed, seen = searcher._fold(view, eds, slot, long)
            searcher._cited_by_entries(view, best, summed, seen)
            b, s = _reference_scores(searcher, view, eds, slot, long, weight)
            at = np.flatnonzero(seen)
            assert dict(zip(view.docs[at].tolist(), zip(best[at].tolist(), summed[at].tolist()))) == \
                {d: (b[d], s[d]) for d in b}


def _reference_scores(searcher, view, eds, slot, long, weight):
    """document -> best, sum over fields and alternatives, in dictionaries,
    one field after another, then the index entries' evidence, as
    search/query.py did before the arrays."""
    best, summed = {}, {}
    for ed in eds:
        for phrase, w in slot.all():
            for field, boost in searcher.fields(long):
                if len(phrase) == 1:
                    ids, (scores, _) = searcher._shard_postings(ed, field, phrase[0])
                else:
                    ids, scores = searcher._phrase(field, phrase, 1, ed)
                for d, sc in zip(ids.tolist(), scores.tolist()):
                    v = sc * (boost * w)
                    summed[d] = summed.get(d, 0.0) + v
                    best[d] = max(best.get(d, 0.0), v)
    top = {}
    for e in view.docs[view.entries].tolist():
        if e in best:
            for t, share in searcher.cites[e]:
                given = best[e] * weight * share
                if given > top.get(t, 0.0):
                    top[t] = given
    for t, v in top.items():
        if v > best.get(t, 0.0):
            best[t] = v
        elif t not in best:
            continue
        summed[t] = summed.get(t, 0.0) + v
    return best, summed
