"""Relevance on the development questions directors ask (the project's shared
search-dev-queries.tsv, copied to tests/data/search-dev-queries.tsv).

The rule: a question is answered when one of the first five results is law
text of a duplicate code (2007 or 2017: their law numbers are the same) in
one of the laws the file names.  Guide topics, definitions, rubber-bridge
laws and the provisions listed under a result's "more" do not count.  The
target is at least 90 %.  The list is a sample: tune general mechanisms, never
a question.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from laws.build import current_store
from search.query import Searcher

ROOT = Path(__file__).resolve().parents[1]
DEV = Path(__file__).resolve().parent / "data" / "search-dev-queries.tsv"
DUPLICATE_CODES = {"2007", "2017"}


def load(path: Path = DEV) -> list[tuple[str, set[int]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        query, laws = line.split("\t")
        rows.append((query, {int(n) for n in laws.split(",")}))
    return rows


def answered(results: list[dict], laws: set[int]) -> bool:
    return any(r["kind"] == "law" and r["edition"] in DUPLICATE_CODES and r["law"] in laws for r in results[:5])


@pytest.fixture(scope="module")
def searcher(built) -> Searcher:
    return Searcher.open(current_store(built).resolve().parent / "index")


def test_dev_questions_top5(searcher):
    rows = load()
    missed = [(q, sorted(laws), [f"{r['edition']}:{r['provision']}" for r in searcher.search(q, limit=5)["results"]])
              for q, laws in rows if not answered(searcher.search(q, limit=5)["results"], laws)]
    share = 1 - len(missed) / len(rows)
    assert share >= 0.9, f"{share:.0%} in the top 5; missed: {missed}"


@pytest.mark.parametrize("query, law", [
    ("lead out of turn", 54), ("partner hesitated", 16), ("UI", 16), ("revoke 12th trick", 62),
    ("27B1", 27), ("unauthorised", 16), ("insuficient bid", 27),
])
def test_the_issues_examples(searcher, query, law):
    assert answered(searcher.search(query, limit=5)["results"], {law} | ({53, 55, 56} if law == 54 else set()))


# --- the question set, at the provision level (issue 13) ----------------------------

@pytest.fixture(scope="module")
def judged(searcher, db):
    from search.evaluate import Judge, load as load_questions

    judge = Judge(db)
    rows = load_questions()
    return rows, judge, [judge.rank(searcher.search(q, limit=5)["results"], ans) for q, ans, _ in rows]


def test_question_set_is_large_and_well_formed(judged):
    rows, _, _ = judged
    assert len(rows) >= 100
    assert len({q.lower() for q, _, _ in rows}) == len(rows), "a question is listed twice"


def test_question_set_floor(judged, searcher):
    """The served ranking answers most questions with the first result, and
    beats the ranking before the evidence was used (measured in the same run)."""
    from search.evaluate import metrics
    from search.query import Ranking

    rows, judge, ranks = judged
    m = metrics(ranks)
    assert m["hit@1"] >= 0.7 and m["hit@5"] >= 0.85, m
    before = Searcher(searcher.path, Ranking.words_only())
    b = metrics([judge.rank(before.search(q, limit=5)["results"], ans) for q, ans, _ in rows])
    assert m["mrr"] > b["mrr"], (m, b)


@pytest.mark.parametrize("query, first", [
    ("insufficient bid", ("27",)), ("lead out of turn", ("53", "54", "55", "56")),
    ("hesitated partner bid", ("16B", "73C")),
])
def test_the_issues_examples_first(searcher, db, query, first):
    from search.evaluate import Judge

    results = searcher.search(query, limit=5)["results"]
    assert Judge(db).rank(results, first, limit=1) == 1, [(r["edition"], r["provision"]) for r in results]


def test_what_changed_answers_with_the_comparison(searcher):
    for q in ("what changed in Law 40", "law 40 changes", "What has changed in law 40?"):
        r = searcher.search(q)["results"][0]
        assert (r["kind"], r["law"]) == ("compare", 40), q
        assert r["url"].startswith("/compare/40?from=2007&to=2017")


def test_a_law_that_does_not_exist(searcher):
    out = searcher.search("law 99")
    assert out["results"] == [] and out["message"] == "There is no Law 99; the Laws run 1–93."
    assert searcher.search("27B1")["results"][0]["provision"] == "27B1"  # a real law is still cited


# --- issue 19: both sets, one level deep, and the plain-words layer's share --------

def _strict(searcher, questions, edition):
    from search.evaluate import StrictJudge, metrics

    judge = StrictJudge()
    return metrics([judge.rank(searcher.search(q.text, edition=edition, limit=5)["results"], q, edition)
                    for q in questions if q.for_edition(edition) not in ((), ("none",))])


@pytest.fixture(scope="module")
def without_plain_words(tmp_path_factory) -> Searcher:
    """The real corpus built without its plain-words layer."""
    import shutil

    from laws.build import build

    corpus = tmp_path_factory.mktemp("bare") / "corpus"
    shutil.copytree(ROOT / "corpus", corpus, ignore=shutil.ignore_patterns("plain"))
    build(corpus, corpus.parent / "data", echo=lambda *_: None)
    return Searcher(current_store(corpus.parent / "data").resolve().parent / "index")


def test_held_out_floor_and_what_the_plain_words_add(searcher, without_plain_words):
    """The held-out questions (never tuned on) are found far more often with
    the plain-words layer than without it, in both editions (the same corpus
    built without it, in the same run), and 2007 within 0.05 of 2017."""
    from search.evaluate import load_heldout

    questions = load_heldout()
    assert len(questions) >= 150
    assert len({int(re.match(r"\d+", q.answers["2017"][0])[0]) for q in questions}) >= 60  # laws covered
    with_ = {ed: _strict(searcher, questions, ed) for ed in ("2017", "2007")}
    without = {ed: _strict(without_plain_words, questions, ed) for ed in ("2017", "2007")}
    for ed in ("2017", "2007"):
        assert with_[ed]["hit@1"] >= 0.62 and with_[ed]["hit@3"] >= 0.74, (ed, with_[ed])
        assert with_[ed]["hit@1"] >= without[ed]["hit@1"] + 0.15, (ed, with_[ed], without[ed])
    assert abs(with_["2017"]["hit@1"] - with_["2007"]["hit@1"]) <= 0.05, with_


def test_tuned_set_floor_one_level_deep(searcher):
    """The tuned set judged strictly keeps what it had before the plain words
    (issue 19: hit@1 0.815, hit@3 0.868 for edition=2017)."""
    from search.evaluate import as_questions, load

    m = _strict(searcher, as_questions(load()), "2017")
    assert m["hit@1"] >= 0.805 and m["hit@3"] >= 0.858, m
