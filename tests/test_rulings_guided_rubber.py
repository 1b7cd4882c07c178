"""The rubber code's guided procedures (laws/rulings/guided/1993-rubber.json):
claims and concessions (its Laws 68 to 71), dummy (42, 43) and quitted tricks
(65, 66), written from the 1993 Laws of Contract Bridge's own text.

Every case of tests/fixtures/guided_rubber.json is a way through a procedure
with its exact result and exact provisions; together they take every branch
of the file (computed from the data, not listed).  The rubber code has no
Director and Lawbook holds only its Laws 41 to 71, so no ruling cites a law
outside them, and where its text refers to one (16, 78) the ruling says so in
words.  The 1993-rubber law pages lead to the procedures, the step pages
offer edition tabs only where the procedure exists, and in headless Chromium
(/usr/bin/chromium) the JavaScript walker gives the Python's reply on every
case and every state on the way to it, also offline.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import guided
from laws.rulings import data as rulings_data
from test_rulings_guided_browser import JS_RULE, answer_until_decided, offline_guided, states
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    CHROMIUM, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until, watched_page)

EDITION = "1993-rubber"
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "guided_rubber.json").read_text(encoding="utf-8"))
CASES = FIXTURE["cases"]
DATA = guided.load()[EDITION]
# the procedures and the laws each applies in the rubber code (its own numbers)
LAWS = {"claim": {68, 69, 70, 71}, "dummy": {42, 43, 62, 64}, "quitted-tricks": {65, 66}}

needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")


def rule(procedure: str, answers: dict) -> dict:
    return guided.rule({"edition": EDITION, "procedure": procedure, "answers": answers})


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_table_situation(case):
    r = rule(case["procedure"], case["answers"])
    assert r["questions"] == [] and r["outcome"] is not None
    assert r["outcome"]["result"] == case["result"]
    assert r["cites"] == case["cites"]
    assert [a["id"] for a in r["answered"]] == list(case["answers"])  # every answer asked, in order


def test_the_cases_take_every_branch_of_every_procedure():
    taken = {p for c in CASES for p in rule(c["procedure"], c["answers"])["path"]}
    want = {f"{pointer}={value}" for pointer, node in rulings_data.all_nodes(DATA) if "on" in node
            for value in node["cases"]}
    assert want - taken == set()
    # and every ending without a question is a case (a procedure's one-step endings have no branch to take)
    ends = {(p, tuple(a.items())) for p in DATA["kinds"] for a, _ in guided.endings(DATA, p)}
    assert ends == {(c["procedure"], tuple(c["answers"].items())) for c in CASES}


def test_the_procedures_and_the_laws_they_apply():
    assert list(DATA["kinds"]) == list(LAWS)
    assert {p: laws for p, laws in guided.laws_applied(EDITION).items()} == LAWS


def test_every_cite_is_a_provision_of_the_rubber_code_in_the_store(db):
    cited = set(rulings_data.cites(DATA))
    for c in CASES:
        r = rule(c["procedure"], c["answers"])
        cited |= set(r["cites"]) | {x for a in r["answered"] for x in a["cites"]}
    missing = sorted(c for c in cited if db.execute("select 1 from provisions where edition = ? and id = ?",
                                                    [EDITION, c]).fetchone() is None)
    assert missing == []
    # the rubber code's own ids (70(a), 69.p1), never a duplicate code's (70A, 69B1)
    assert all(c.split("(")[0].split(".")[0].isdigit() for c in cited), sorted(cited)


def test_no_director_no_adjusted_score_no_law_outside_41_to_71():
    text = json.dumps([DATA["kinds"], DATA["subtrees"]])
    # the rubber code has no Director: its players agree, dispute or play on
    assert "Director" not in text and "adjusted score" not in text
    laws = {int(c.split("(")[0].split(".")[0]) for c in rulings_data.cites(DATA)}
    assert laws <= set(range(41, 72)), laws
    results = {c["result"] for c in CASES}
    assert not {r for r in results if r.startswith("adjust")}
    # where its text refers to Law 16 or 78 (not in the corpus) the ruling says so and cites only its own words
    r = rule("claim", {"claim_kind": "defender", "claim_scope": "current"})
    assert r["outcome"]["information"] == {
        "text": "Law 70(a): Law 16, Unauthorized Information, may apply to the claimer's partner. Law 16 "
                "(unauthorized information), to which this law refers, is not among the rubber code's laws in "
                "Lawbook (Laws 41 to 71).", "cites": ["70(a)"]}
    assert "Law 78" in rule("claim", {"claim_kind": "concession", "conc_trick_won": "yes"})["outcome"]["ruling"]


def test_the_judgements_the_rubber_code_poses_are_asked_never_guessed():
    judgements = {}
    for p in DATA["kinds"]:
        for fact, ask in guided.asks(DATA, p).items():
            if ask["kind"] == "judgement":
                judgements[fact] = ask["cites"]
    assert judgements == {"claim_inconsistent": ["69"], "claim_relevant_statement": ["69(a)"],
                          "claim_trump_unaware": ["69(b)"], "claim_routine": ["69(c)"],
                          "conc_could_not_lose": ["71(b)"]}
    # stopped at one: no ruling until it is answered
    r = rule("claim", {"claim_kind": "declarer-play", "claim_restriction": "trump"})
    assert r["outcome"] is None and [(q["id"], q["kind"], q["cites"]) for q in r["questions"]] == [
        ("claim_trump_unaware", "judgement", ["69(b)"])]
    # 69.p1's choice is the defenders' option
    r = rule("claim", {"claim_kind": "declarer-play", "claim_restriction": "unusual", "claim_unusual_mentioned": "no",
                       "claim_routine": "no", "claim_later_played": "no"})
    assert [(q["id"], q["kind"], [a["value"] for a in q["answers"]]) for q in r["questions"]] == [
        ("claim_defender_choice", "option", ["accept", "withdraw"])]


def test_the_disputed_claim_is_played_on_as_69_says():
    r = rule("claim", {"claim_kind": "declarer", "claim_mixed": "no", "claim_agreed": "no"})
    assert r["say"].startswith("Play is temporarily suspended: declarer must place and leave his hand face up")
    assert r["outcome"]["result"] == "play-on" and r["cites"] == ["68", "69", "69(a)", "69(b)", "69(c)"]
    for words in ("any doubtful point goes to the defenders", "may not impose a penalty",
                  "may adopt only a routine line"):
        assert words in r["outcome"]["ruling"], words


# --- the web ----------------------------------------------------------------------------------

def test_rubber_law_pages_lead_to_the_rubber_procedures(client):
    for procedure, laws in LAWS.items():
        for n in sorted(laws):
            html = client.get(f"/{EDITION}/law/{n}").get_data(as_text=True)
            assert f'href="/rulings/guided/{procedure}?edition={EDITION}"' in html, (procedure, n)
    # a law no rubber procedure applies links none
    assert "/rulings/guided/" not in client.get(f"/{EDITION}/law/44").get_data(as_text=True)


def test_edition_tabs_only_where_the_procedure_exists(client):
    html = client.get(f"/rulings/guided/claim?edition={EDITION}&claim_kind=concession").get_data(as_text=True)
    assert 'class="edition current" aria-current="true">1993-rubber Laws' in html
    # the 2007 tab keeps the answer 2007's procedure also has
    assert 'href="/rulings/guided/claim?edition=2007&amp;claim_kind=concession"' in html
    tempo = client.get("/rulings/guided/tempo?edition=2017").get_data(as_text=True)
    assert "edition=2007" in tempo and f"edition={EDITION}" not in tempo
    assert client.get(f"/rulings/guided/tempo?edition={EDITION}").status_code == 404
    index = client.get("/rulings/guided").get_data(as_text=True)
    assert f'href="/rulings/guided/quitted-tricks?edition={EDITION}"' in index


def test_a_rubber_ruling_record(client):
    q = (f"procedure=dummy&edition={EDITION}&dm_what=warned&dm_a2=yes")
    text = client.get(f"/rulings/record.txt?{q}").get_data(as_text=True)
    assert "Dummy's rights and limits (1993-rubber Laws)" in text
    assert "either defender may choose the hand from which declarer shall lead" in text
    assert "Law 43(b): he warns declarer not to lead from the wrong hand" in text
    assert client.post("/api/rulings/guided", json={"edition": EDITION, "procedure": "dummy",
                                                      "answers": {"dm_what": "called"}}).status_code == 400


# --- the phone: the same walker in Chromium ----------------------------------------------------

@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def _requests() -> list[dict]:
    """Each case, and each state on the way to it."""
    return states(dict(c, edition=EDITION) for c in CASES)


@pytest.mark.browser
@needs_chromium
def test_javascript_gives_the_same_replies_on_every_case(page, base_url):
    page.goto(f"{base_url}/rulings/guided")
    requests = _requests()
    got = page.evaluate(JS_RULE, requests)
    want = [guided.rule(r) for r in requests]
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:1]
    ends = {(c["procedure"], tuple(c["answers"].items())): c for c in CASES}
    done = 0
    for r, g in zip(requests, got):
        c = ends.get((r["procedure"], tuple(r["answers"].items())))
        if c:
            done += 1
            assert (g["outcome"]["result"], g["cites"]) == (c["result"], c["cites"]), r
    assert done == len(CASES)


@pytest.mark.browser
@needs_chromium
def test_a_rubber_claim_walked_offline_with_its_edition_tabs(browser, app):
    with offline_guided(browser, app) as (url, pg, errors):
        pg.goto(f"{url}/rulings/guided/claim?edition={EDITION}")
        answer_until_decided(pg, [("claim_kind", "defender"), ("claim_scope", "later"),
                                  ("claim_declarer_agrees", "no")])
        assert pg.inner_text(".ruling .decision").startswith("Declarer disputes the claim: the defenders must play on")
        assert pg.locator("nav.editions a.edition").all_inner_texts() == ["2017 Laws", "2007 Laws"]
        # drawn offline, a procedure the rubber code lacks offers no rubber tab
        pg.goto(f"{url}/rulings/guided/tempo?edition=2017")
        wait_until(pg, "() => !!document.querySelector(\"form.question button[name='tmp_whom']\")")
        assert pg.locator("nav.editions a.edition").all_inner_texts() == ["2007 Laws"]
        assert errors == []
