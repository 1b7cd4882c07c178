"""Search: analysis, vocabulary, citations, did-you-mean, hostile input, filters,
paging, grouping and the atomic index swap.  Relevance is in
test_search_relevance.py."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws import citations
from laws.build import build, current_store
from search import analysis, index
from search.analysis import Spelling, terms
from search.query import Ranking, Searcher, snippet
from search.synonyms import Synonyms, synonyms

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def searcher(built) -> Searcher:
    return Searcher.open(current_store(built).resolve().parent / "index")


def first(searcher, q, **kw) -> dict:
    results = searcher.search(q, **kw)["results"]
    assert results, f"no results for {q!r}"
    return results[0]


# --- analysis -----------------------------------------------------------------

@pytest.mark.parametrize("british, american", [
    ("authorised", "authorized"), ("unauthorised", "unauthorized"), ("honour", "honor"),
    ("honours", "honors"), ("dishonourable", "dishonorable"), ("penalise", "penalize"),
    ("penalised", "penalized"), ("favour", "favor"), ("favourable", "favorable"), ("centre", "center"),
    ("recognise", "recognize"), ("recognised", "recognized"), ("organiser", "organizer"),
    ("organisation", "organization"), ("behaviour", "behavior"), ("defence", "defense"),
    ("offence", "offense"), ("analyse", "analyze"), ("cancelled", "canceled"), ("signalling", "signaling"),
    ("judgement", "judgment"), ("practise", "practice"), ("whilst", "while"), ("licence", "license"),
])
def test_british_and_american_spellings_are_one(british, american):
    assert terms(british) == terms(american) != []
    assert terms(british.upper()) == terms(american)


@pytest.mark.parametrize("word", ["prise", "advise", "exercise", "otherwise", "four", "your", "hour"])
def test_folding_leaves_other_words_distinct(word):
    # folding may change a word, but never into another word the Laws use
    assert terms(word) != terms({"prise": "prize", "four": "for", "hour": "or"}.get(word, "zzz"))


@pytest.mark.parametrize("a, b", [
    ("♠", "spade"), ("♠", "spades"), ("♥", "hearts"), ("♦", "diamond"), ("♣", "clubs"), ("♤", "spade"),
    ("partner's", "partner"), ("partner’s", "partner"), ("opponents'", "opponents"), ("don't", "dont"),
    ("twelve", "12"), ("twelfth", "12th"), ("12th", "12"), ("third", "3"),
    ("revoked", "revoking"), ("hesitation", "hesitated"), ("exposure", "exposed"),
])
def test_same_term(a, b):
    assert terms(a) == terms(b) != []


def test_stop_words_are_dropped_but_not_not():
    assert terms("the bid is not accepted") == ["bid", "not", "accept"]


def test_spelling_file_format_errors_are_reported(tmp_path):
    bad = tmp_path / "spelling.txt"
    bad.write_text("word: colour colour\n")
    with pytest.raises(ValueError, match="line 1"):
        Spelling.load(bad)


def test_spelling_file_is_documented():
    text = analysis.SPELLING_FILE.read_text()
    assert text.startswith("#") and "word:" in text and "root:" in text and "keep:" in text


# --- the directors' vocabulary -----------------------------------------------------

@pytest.mark.parametrize("term", ["UI", "BIT", "LOOT", "MI", "IB", "LA", "MPC", "TD", "RA", "NOS", "OS",
                                  "LHO", "RHO", "psych", "psyche", "hesitation", "tempo", "claim", "concede"])
def test_vocabulary_has_the_directors_terms(term):
    slots = synonyms().expand(terms(term))
    assert len(slots) == 1 and slots[0].alternatives, f"{term} has no expansion"


@pytest.mark.parametrize("query, expansion", [
    ("UI", "unauthorized information"), ("ui", "unauthorised information"), ("LOOT", "lead out of turn"),
    ("BIT", "break in tempo"), ("IB", "insufficient bid"), ("LA", "logical alternative"),
    ("MPC", "major penalty card"), ("NOS", "non-offending side"), ("hesitated", "tempo"),
    ("psych", "psychic"), ("claim", "concede"), ("concede", "claim"), ("LHO", "left-hand opponent"),
])
def test_vocabulary_expands(query, expansion):
    alternatives = [alt for s in synonyms().expand(terms(query)) for alt in s.alternatives]
    assert tuple(terms(expansion)) in alternatives


def test_vocabulary_matches_phrases_longest_first():
    slots = synonyms().expand(terms("the lead out of turn was accepted"))
    assert [s.typed for s in slots][:2] == [("lead",), tuple(terms("out of turn"))]


def test_synonym_file_is_documented_and_parses():
    text = (ROOT / "search" / "synonyms.txt").read_text()
    assert text.startswith("#") and "Format" in text
    assert len(Synonyms.load().entries) > 40


def test_synonym_file_errors_are_reported(tmp_path):
    bad = tmp_path / "synonyms.txt"
    bad.write_text("UI unauthorized information\n")
    with pytest.raises(ValueError, match="line 1"):
        Synonyms.load(bad)


@pytest.mark.parametrize("query, law", [
    ("UI", 16), ("LOOT", 54), ("IB", 27), ("MPC", 50), ("unauthorised information", 16),
    ("unauthorized information", 16), ("insufficient bid", 27), ("revoke", 62),
])
def test_vocabulary_finds_the_law(searcher, query, law):
    top = searcher.search(query, limit=5)["results"]
    assert law in [r["law"] for r in top if r["kind"] == "law"], [(r["edition"], r["provision"]) for r in top]


# --- citations ---------------------------------------------------------------------

@pytest.mark.parametrize("query, edition, provision", [
    # the newest edition that has the provision: 2017 has them all now
    ("27B1", "2017", "27B1"), ("L27B1", "2017", "27B1"), ("law 27 b 1", "2017", "27B1"),
    ("Law 27B1", "2017", "27B1"), ("  27b1 ", "2017", "27B1"), ("12C1b", "2017", "12C1(b)"),
    ("12C1(b)", "2017", "12C1(b)"), ("Law 40B2(a)(v)", "2017", "40B2(a)(v)"), ("40 b 2 a v", "2017", "40B2(a)(v)"),
    ("64", "2017", "64"), ("law 64", "2017", "64"), ("35", "2017", "35"), ("27B9", "2017", "27B"),
    ("35.1", "2007", "35.1"),  # 2007 only: 2017 letters Law 35's items
])
def test_citation_comes_first(searcher, query, edition, provision):
    top = first(searcher, query)
    assert (top["edition"], top["provision"], top["match"]) == (edition, provision, "citation")
    assert top["url"].startswith(f"/{edition}/law/{provision[:2].rstrip('BCDEFGH')}")


def test_citation_edition_follows_the_filter(searcher):
    top = first(searcher, "35", edition="2007")
    assert (top["edition"], top["provision"]) == ("2007", "35")
    assert first(searcher, "40B2(a)(v)", edition="2007")["edition"] == "2007"


def test_citation_urls_have_the_anchor(searcher):
    assert first(searcher, "12C1(b)")["url"] == "/2017/law/12#12C1(b)"
    assert first(searcher, "64")["url"] == "/2017/law/64"
    assert first(searcher, "12C1(b)", edition="2007")["url"] == "/2007/law/12#12C1(b)"


def test_citation_of_provision_without_text_shows_its_children(searcher):
    assert "insufficient" in first(searcher, "27B1")["snippet"].lower()


# --- did-you-mean ------------------------------------------------------------------

@pytest.mark.parametrize("query, suggestion", [
    ("revoek", "revoke"), ("insuficient bid", "insufficient bid"), ("Insuficient Bid", "insufficient Bid"),
    ("unauthorsed information", "unauthorised information"),
])
def test_did_you_mean(searcher, query, suggestion):
    result = searcher.search(query)
    assert result["suggestion"].lower() == suggestion.lower()
    assert result["results"], "the corrected query is searched"


@pytest.mark.parametrize("query, suggestion", [
    ("revoce", "revoke"),  # six letters, one edit: corrected
    ("rivoka", None),  # six letters, two edits: too far for a short word
    ("pinalti", "penalty"),  # seven letters: two edits are allowed
])
def test_a_word_of_six_letters_may_be_one_edit_off_a_longer_word_two(searcher, query, suggestion):
    assert searcher.search(query)["suggestion"] == suggestion


def test_did_you_mean_results_use_the_correction(searcher):
    top = searcher.search("insuficient bid", limit=5)["results"]
    assert 27 in [r["law"] for r in top]


@pytest.mark.parametrize("query", ["revoke", "unauthorised", "penalise", "UI", "LOOT", "revoking",
                                   "hesitated", "12th trick", "27B1"])
def test_no_suggestion_for_known_words(searcher, query):
    assert searcher.search(query)["suggestion"] is None


# --- hostile input -----------------------------------------------------------------

HOSTILE = [
    '"', '"lead out of turn', "((", "lead (out", "[", "AND", "OR", "NOT", "AND OR NOT", "*", "?", "~", "-",
    "revoke AND", "title:revoke", "a" * 5000, "revoke " * 1000, "\x00\x01\x02revoke\x7f", "\u202erevoke",
    "😀", "😀 revoke 🃏", "<script>alert(1)</script>", "<mark>revoke</mark>", "&amp; revoke", "' OR 1=1 --",
    "%00", "\\", "law 999", "99Z", "0", "27B1(" + "a" * 50 + ")", "ÿ", "日本語", "♠♥♦♣", " ", "\t\n",
]


@pytest.mark.parametrize("q", HOSTILE)
def test_hostile_queries_answer_clearly(client, q):
    r = client.get("/api/search", query_string={"q": q})
    assert r.status_code in (200, 400), r.status_code
    body = r.get_json()
    if r.status_code == 400:
        assert body["error"]
        return
    assert body["results"] or body["message"]
    for res in body["results"]:
        assert "<" not in re.sub(r"</?mark>", "", res["snippet"]), res["snippet"]
    page = client.get("/search", query_string={"q": q})
    assert page.status_code == 200
    assert b"<script>alert" not in page.data


def test_snippet_escapes_everything_but_mark():
    s = snippet('<b>revoke</b> & "revoked" <script>', set(terms("revoke")))
    assert str(s) == '&lt;b&gt;<mark>revoke</mark>&lt;/b&gt; &amp; &#34;<mark>revoked</mark>&#34; &lt;script&gt;'


def test_long_query_is_cut_with_a_message(searcher):
    result = searcher.search("revoke " * 1000)
    assert result["results"] and "long" in result["message"]


# --- filters, paging, grouping ---------------------------------------------------

@pytest.mark.parametrize("edition", ["2007", "2017", "1993-rubber", "dbrs-2017"])
def test_edition_filter(searcher, edition):
    results = searcher.search("partner", edition=edition, limit=20)["results"]
    assert results and {r["edition"] for r in results} == {edition}


@pytest.mark.parametrize("kind", ["law", "definition", "guide"])
def test_kind_filter(searcher, kind):
    results = searcher.search("call", kind=kind, limit=20)["results"]
    assert results and {r["kind"] for r in results} == {kind}


def test_kind_filter_skips_citations_of_other_kinds(searcher):
    assert all(r["kind"] == "guide" for r in searcher.search("27B1", kind="guide")["results"])


def test_paging(searcher):
    one = searcher.search("partner", limit=5, page=1)
    two = searcher.search("partner", limit=5, page=2)
    assert one["total"] == two["total"] > 10 and one["pages"] == two["pages"]
    assert not {r["url"] for r in one["results"]} & {r["url"] for r in two["results"]}
    past = searcher.search("partner", limit=5, page=one["pages"] + 1)
    assert past["results"] == [] and past["message"]


def test_one_law_does_not_fill_the_page(searcher):
    results = searcher.search("revoke", limit=10)["results"]
    # at most two entries per law of a family of codes (the rubber code is another family)
    laws = Counter((r["edition"] == "1993-rubber", r["law"]) for r in results if r["kind"] == "law")
    assert max(laws.values()) == 2 and len(laws) >= 5, laws
    assert any(r["more"] for r in results), "other provisions of a law are listed under it"


def test_a_law_gives_a_second_entry_for_another_of_its_rules(searcher):
    """Two rules of one law answer: both are entries, the second neither
    above nor below the first, each with the provisions under it."""
    results = searcher.search("after the hand we found I had 14 cards and RHO had 12", edition="2017",
                              limit=2)["results"]
    assert [(r["law"], r["provision"]) for r in results] == [(13, "13B"), (13, "13D")]


def test_a_long_question_weighs_the_situations_more(searcher):
    """From four slots a question is told in the player's own words, which the
    situations hold (Ranking.long_question): there they weigh 3.0, not 1.2,
    and the provision whose situations tell it comes first; with the
    situations weighed flat, a provision in the Laws' own words would."""
    assert (dict(searcher.fields()), dict(searcher.fields(long=True))) == (
        {"heading": 3.0, "context": 2.0, "title": 1.5, "text": 1.0, "plain": 0.3, "situations": 1.2},
        {"heading": 3.0, "context": 2.0, "title": 1.5, "text": 1.0, "plain": 0.3, "situations": 3.0})
    flat = Searcher(searcher.path, Ranking(long_situations=1.2))
    q = "do pass and double count as bids"
    tops = [[r["provision"] for r in s.search(q, edition="2017", limit=2)["results"]] for s in (searcher, flat)]
    assert tops == [["18A", "23A"], ["23A", "18A"]]
    # a short question is weighed as before
    assert searcher.search("insufficient bid", edition="2017", limit=5) == flat.search(
        "insufficient bid", edition="2017", limit=5)


def test_the_entries_of_one_law_never_hold_one_provision_twice_or_one_above_the_other(searcher):
    for q in ("revoke", "partner hesitated then bid", "lead out of turn", "claim", "insufficient bid"):
        for edition in (None, "2017", "2007"):
            results = searcher.search(q, edition=edition, limit=10)["results"]
            by_law: dict = {}
            for r in results:
                if r["kind"] == "law":
                    by_law.setdefault((r["edition"] == "1993-rubber", r["law"]), []).append(r)
            for entries in by_law.values():
                assert len(entries) <= 2, (q, edition, entries)
                shown = [(r["edition"], r["provision"]) for r in entries] + [
                    (m["edition"], m["provision"]) for r in entries for m in r["more"]]
                assert len(shown) == len(set(shown)), (q, edition, shown)
                if len(entries) == 2:
                    a, b = entries
                    assert a["edition"] == b["edition"], (q, edition, a, b)
                    assert not set(citations.candidates(a["provision"])) & {b["provision"]}, (q, a, b)
                    assert not set(citations.candidates(b["provision"])) & {a["provision"]}, (q, a, b)


def test_2007_and_2017_texts_of_a_law_are_one_group(searcher):
    results = searcher.search("inadmissible double", limit=10)["results"]
    editions: dict = {}
    for r in results:
        if r["kind"] == "law" and r["edition"] in ("2007", "2017"):
            editions.setdefault(r["law"], []).append(r["edition"])
    # a law's second entry is another rule of the head's code, never the other code's text
    assert all(len(eds) <= 2 and len(set(eds)) == 1 for eds in editions.values()), editions
    assert len(editions) >= 5, editions


def test_titles_printed_in_capitals_are_in_title_case():
    from search.query import tidy_title

    assert [tidy_title(t) for t in ("LEAD OUT OF TURN", "THE AUCTION", "CLAIM BY DECLARER", "Mixed Case As Printed",
                                    "")] == ["Lead Out of Turn", "The Auction", "Claim by Declarer",
                                             "Mixed Case As Printed", ""]


def test_a_search_shows_ten_entries_unless_told(searcher):
    assert [len(searcher.search("revoke", **kw)["results"]) for kw in ({}, {"limit": 3})] == [10, 3]


def test_a_citation_is_answered_by_its_provision_whole(searcher):
    r = searcher.search("27B1")
    assert {k: v for k, v in r["results"][0].items() if k != "snippet"} == {
        "edition": "2017", "law": 27, "provision": "27B1", "title": "Insufficient Bid", "heading": "", "kind": "law",
        "match": "citation", "url": "/2017/law/27#27B1", "more": [], "more_count": 0}
    assert (r["query"], r["page"], r["pages"], r["limit"]) == ("27B1", 1, 1, 10)
    assert searcher.search("27B1", edition="2007")["editions"] == ["2007"]


def test_nothing_found_is_no_page_at_all(searcher):
    r = searcher.search("zzzzqqq")
    assert ({k: v for k, v in r.items() if k != "editions"}) == {
        "query": "zzzzqqq", "suggestion": None, "results": [], "total": 0, "page": 1, "pages": 0, "limit": 10,
        "message": "Nothing found. Try other words, or a citation such as 27B1."}


def test_result_fields(searcher):
    for r in searcher.search("revoke")["results"]:
        assert {"edition", "law", "provision", "title", "snippet", "url", "kind"} <= set(r)
        assert r["url"].startswith("/")


# --- the web ---------------------------------------------------------------------------

def test_api_search(client):
    r = client.get("/api/search?q=revoke&limit=3")
    assert r.status_code == 200 and r.content_type == "application/json"
    body = r.get_json()
    assert body["query"] == "revoke" and len(body["results"]) == 3 and body["suggestion"] is None


@pytest.mark.parametrize("args, field", [
    ("q=", "q"), ("", "q"), ("q=x&limit=0", "limit"), ("q=x&limit=51", "limit"), ("q=x&limit=ten", "limit"),
    ("q=x&page=0", "page"), ("q=x&page=-1", "page"), ("q=x&edition=1999", "edition"), ("q=x&kind=poem", "kind"),
])
def test_api_search_bad_input(client, args, field):
    r = client.get(f"/api/search?{args}")
    assert r.status_code == 400 and r.get_json()["field"] == field and r.get_json()["error"]


def test_search_page_empty_state(client):
    r = client.get("/search")
    assert r.status_code == 200 and b"Type a citation" in r.data


def test_search_page(client):
    r = client.get("/search?q=revoek")
    assert r.status_code == 200
    assert b"Did you mean" in r.data and b'href="/search?q=revoke"' in r.data
    assert b"<mark>" in r.data and b"<script>" not in r.data.split(b"</head>")[1]


def test_search_page_paging_links(client):
    r = client.get("/search?q=partner&limit=5&page=2")
    assert b'rel="prev"' in r.data and b'rel="next"' in r.data and b"page=3" in r.data


def test_search_page_bad_filter(client):
    r = client.get("/search?q=revoke&edition=1999")
    assert r.status_code == 400 and b"no edition" in r.data


def test_jump_box_falls_through_to_search(client):
    r = client.get("/go?q=lead+out+of+turn")
    assert r.status_code in (301, 302, 303) and "/search?q=lead" in r.headers["Location"]


# --- the index: built at build time, swapped atomically ---------------------------------

def test_index_is_in_the_build(built):
    assert (current_store(built).resolve().parent / "index" / index.META).exists()


def test_rebuild_swaps_the_index_atomically(tmp_path, monkeypatch):
    from app import create_app

    data = tmp_path / "data"
    first_build = build(ROOT / "corpus", data, echo=lambda *_: None).path
    app = create_app({"TESTING": True, "DATA_DIR": str(data)})
    client = app.test_client()
    assert client.get("/api/search?q=revoke").status_code == 200
    old = Searcher.open(first_build / "index")

    second_build = build(ROOT / "corpus", data, echo=lambda *_: None).path
    assert second_build != first_build and (data / "current").resolve() == second_build.resolve()
    # a server still holding the old index keeps answering from it ...
    assert old.search("revoke")["results"]
    # ... and the next request is served from the new one
    assert client.get("/api/search?q=revoke").status_code == 200
    assert str(second_build.resolve() / "index") in Searcher._cache

    # a build that fails while indexing leaves `current` as it was
    def broken(db, out_dir):
        (out_dir.parent / "half").mkdir()
        raise RuntimeError("indexing failed")

    monkeypatch.setattr(index, "build", broken)
    with pytest.raises(RuntimeError):
        build(ROOT / "corpus", data, echo=lambda *_: None)
    assert (data / "current").resolve() == second_build.resolve()
    assert client.get("/api/search?q=revoke").status_code == 200


def test_index_build_never_leaves_a_half_written_index(built, tmp_path, monkeypatch):
    import sqlite_utils

    db = sqlite_utils.Database(current_store(built).resolve())
    out = tmp_path / "index"
    index.build(db, out)
    before = sorted(p.name for p in out.iterdir())

    def fail(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(index, "_editions", fail)
    with pytest.raises(RuntimeError):
        index.build(db, out)
    assert sorted(p.name for p in out.iterdir()) == before  # the old index, untouched
    assert [p.name for p in tmp_path.iterdir()] == ["index"]  # no leftovers
    assert Searcher(out).search("revoke")["results"]


# --- search flat in editions (issue 14) -----------------------------------------------

def _ed(id_, kind, family, year, in_force=False):
    return {"id": id_, "kind": kind, "family": family, "year": year, "in_force": in_force}


def test_default_editions_do_not_grow_with_old_codes():
    old = [_ed(f"{y}-syn", "code", "duplicate", y) for y in range(1978, 2007)]
    editions = old + [_ed("2007", "code", "duplicate", 2007), _ed("2017", "code", "duplicate", 2017, True),
                      _ed("1993-rubber", "code", "rubber", 1993), _ed("dbrs-2017", "guide", "duplicate", 2017)]
    assert index.default_editions(editions) == ["2007", "2017", "1993-rubber", "dbrs-2017"]
    # with no code in force, the newest leads
    editions[-3]["in_force"] = False
    assert index.default_editions(editions) == ["2007", "2017", "1993-rubber", "dbrs-2017"]
    assert index.default_editions([_ed("2027", "code", "duplicate", 2027)]) == ["2027"]


def test_a_search_opens_only_the_editions_it_searches(built):
    s = Searcher(current_store(built).resolve().parent / "index")
    assert set(s._shards) == set(s.default_editions)
    assert all(s.docs[d] is not None for d in range(len(s.docs)))  # today every edition is searched by default
    assert s.search("revoke", edition="2007", limit=3)["results"][0]["edition"] == "2007"


def test_shards_score_alike(searcher):
    """One edition searched alone ranks as it does among the others: the
    shards share their statistics."""
    slots = searcher.prepare("claim of tricks").slots
    every = searcher.score(slots)
    alone = searcher.score(slots, ("2007",))
    assert alone and alone == {d: v for d, v in every.items() if searcher.docs[d]["edition"] == "2007"}


# --- what a Searcher keeps, and the highlighting (fast paths, same answers) ------------

_QUESTIONS = ("lead out of turn", "partner hesitated then bid", "bid out of rotation", "claim", "revoke",
              "insufficient bid not accepted", "unauthorised information", "27B1", "minor penalty card",
              "declarer spreads his hand after opening lead out of turn", "what changed in law 40")


def test_kept_scores_do_not_depend_on_earlier_searches(built):
    """A slot's scores are kept for later searches (Searcher._slot_scores):
    a Searcher that has answered many questions answers each as a fresh one
    does, with every filter."""
    path = current_store(built).resolve().parent / "index"
    used = Searcher(path)
    for q in reversed(_QUESTIONS):
        used.search(q)
        used.search(q, edition="2007", kind="law")
    for q in _QUESTIONS:
        for kw in ({}, {"edition": "2007"}, {"edition": "2017", "kind": "law"}, {"kind": "guide"}, {"page": 2}):
            assert used.search(q, **kw) == Searcher(path).search(q, **kw), (q, kw)


def test_kept_slot_scores_are_bounded_and_eviction_changes_nothing(built, monkeypatch):
    import search.query as query

    path = current_store(built).resolve().parent / "index"
    whole = Searcher(path)
    monkeypatch.setattr(query, "MAX_CACHED_SLOT_SCORES", 500)
    small = Searcher(path)
    for q in _QUESTIONS + _QUESTIONS:
        assert small.search(q) == whole.search(q), q
        # over the bound only while one slot alone is larger than it
        assert small._slot_cache.size <= 500 or len(small._slot_cache) == 1
    assert small._slot_cache.size == sum(len(v) for v in small._slot_cache.values())


@pytest.mark.parametrize("q", ["bid out of rotation", "partner's hesitation", "opponents' cards",
                               "revoke on the twelfth trick", "♠ ace of spades", "director ruling 12th",
                               "don't claim"])
def test_highlighting_pattern_finds_what_the_plain_alternation_finds(searcher, q):
    """words_of compiles the words as a trie; over every document it finds
    exactly what the plain alternation of the same words (longest first)
    finds."""
    ts = frozenset(t for s in searcher.prepare(q).slots for alt, _ in s.all() for t in alt)
    forms = sorted(searcher.forms(ts), key=len, reverse=True)
    plain = re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, forms))
                       + r")(?:['’‘`][^\W_]+)*['’]?(?![^\W_])|[♠♤♥♡♦♢♣♧]", re.IGNORECASE)
    trie = searcher.words_of(ts)
    texts = [" ".join(filter(None, (d.get("title"), d.get("heading"), d.get("text"))))
             for d in searcher.docs if d is not None]
    found = 0
    for text in texts:
        spans = [m.span() for m in trie.finditer(text)]
        assert spans == [m.span() for m in plain.finditer(text)], text
        found += len(spans)
    assert found  # the words are in the corpus


def _window_by_definition(hits, size):
    """The first hit whose window (itself and the hits after it ending within
    `size` of it) has the most different terms."""
    best, best_n = hits[0][0], 0
    for i, (a, _, t) in enumerate(hits):
        n = len({t} | {u for _, b, u in hits[i + 1:] if b - a <= size})
        if n > best_n:
            best, best_n = a, n
    return best


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from("abcde")), min_size=1, max_size=40),
       st.integers(1, 120))
def test_snippet_window_has_the_most_different_words(gaps, size):
    from search.query import _richest_window

    hits, pos = [], 0
    for gap, length, t in gaps:  # words in order, apart
        pos += gap + 1
        hits.append((pos, pos + length, t))
        pos += length
    assert _richest_window(hits, size) == _window_by_definition(hits, size)
