"""From a question to the ruling (laws/rulings/handoff.py): the procedure a
search result's provision leads to, derived from the rulings data's cites,
and the fields filled from what the question states, never guessed.  The
phone's port (static/search.js) is held to the same cases in
tests/test_search_plain_browser.py."""
from __future__ import annotations

import pytest

from laws.rulings import data, handoff

# (edition, question, the provision a right search puts first) -> (procedure, prefilled)
CASES = [
    (("2017", "opening lead out of turn, South is declarer", "54A"),
     ("play:opening-lead-out-of-turn", {"declarer": "S"})),
    (("2017", "declarer led from the wrong hand", "55A"), ("play:declarer-lead-out-of-turn", {})),
    (("2017", "revoke at trick 5, declarer is North", "64A1"), ("play:revoke", {"declarer": "N"})),
    (("2017", "revoke on the 12th trick", "62D1"), ("play:revoke", {})),
    (("2017", "partner hesitated then bid game", "16B1(a)"), ("guided:unauthorized-information", {})),
    (("2017", "North dealt, then East passed out of turn", "30A"), ("auction:pass-out-of-rotation", {"dealer": "N"})),
    (("2017", "insufficient bid of 1H over 1S", "27B1(a)"), ("auction:insufficient-bid", {})),
    (("2017", "dealer South: West opened 1NT out of turn", "31"), ("auction:bid-out-of-rotation", {"dealer": "S"})),
    (("2017", "double out of turn by West, dealer was North", "32"),
     ("auction:double-out-of-rotation", {"dealer": "N"})),
    (("2017", "bid after the final pass", "39A"), ("auction:call-after-final-pass", {})),
    (("2017", "a card exposed during the auction", "24"), ("auction:card-exposed", {})),
    (("2017", "said 2 hearts but meant 2 spades", "25A1"), ("guided:change-of-call", {})),
    (("2017", "declarer named the wrong card from dummy, can he change it", "45C4(b)"),
     ("play:changed-designation", {})),
    (("2017", "defender dropped a card face up", "49"), ("play:exposed-card", {})),
    (("2017", "major penalty card and partner is on lead", "50D"), ("play:penalty-card-on-table", {})),
    (("2017", "disputed claim with a trump outstanding", "70C"), ("guided:claim", {})),
    (("2017", "wrong explanation of our 2NT", "21B1(a)"), ("guided:misinformation", {})),
    (("2017", "procedural penalty for slow play", "90B2"), ("guided:procedural-penalty", {})),
    (("2017", "psyched opening bid", "40C1"), ("guided:psychic-call", {})),
    (("2017", "weighted adjusted score", "12C1(c)"), ("guided:adjusted-score", {})),
    (("2007", "opening lead out of turn accepted, West was declarer", "54A"),
     ("play:opening-lead-out-of-turn", {"declarer": "W"})),
    (("2007", "dummy played a card declarer did not call", "45D"), ("play:declarer-premature-play", {})),
    # no ruling procedure applies these: scoring and boards are the checkers'
    (("2017", "how many imps for 430", "78B"), None),
    (("2017", "board 7 dealer and vulnerability", "2"), None),
]


@pytest.mark.parametrize("asked, expected", CASES, ids=[c[0][1] for c in CASES])
def test_the_offer_for_each_question(asked, expected):
    edition, question, pid = asked
    got = handoff.offer(edition, pid, question)
    if expected is None:
        assert got is None
        return
    procedure, prefilled = expected
    period, kind = procedure.split(":")
    base = f"/rulings/guided/{kind}?edition={edition}" if period == "guided" else f"/rulings/{period}?edition={edition}"
    assert got == {"procedure": procedure, "prefilled": prefilled,
                   "url": base + "".join(f"&{k}={v}" for k, v in prefilled.items()),
                   "title": f"Rule on: {procedure_title(edition, period, kind)}"}


def procedure_title(edition: str, period: str, kind: str) -> str:
    spec = data.load(period)[edition]
    return spec["kinds"][kind]["title"]


@pytest.mark.parametrize("question, facts", [
    ("said 2 hearts but meant 2 spades", {"calls": ["2H", "2S"]}),
    ("North dealt and East opened 1NT out of turn", {"dealer": "N", "calls": ["1NT"]}),
    ("south is declarer in 4S, west revoked on the 5th trick", {"declarer": "S", "calls": ["4S"], "trick": 5}),
    ("revoke at trick 7", {"trick": 7}),
    ("revoke on the twelfth trick", {"trick": 12}),
    ("declarer (West) led from dummy", {"declarer": "W"}),
    ("two no trump overcall", {"calls": ["2NT"]}),
    ("the dealer was East", {"dealer": "E"}),
    # a seat with no role, a trick past 13, a number that is no call: nothing
    ("East led out of turn", {}),
    ("trick 14", {}),
    ("8 clubs", {}),
    ("lead out of turn", {}),
])
def test_facts_are_only_what_the_question_states(question, facts):
    assert handoff.facts(question) == facts


def test_every_procedure_is_offered_for_some_provision():
    """The map covers every kind of every period (but 'no irregularity')."""
    offered = {(p["period"], p["kind"]) for ps in handoff.procedures("2017").values() for p in ps}
    offered |= {(p["period"], p["kind"]) for _, p in handoff.by_law("2017")}
    every = {(period, k) for period in ("auction", "play") for k in data.load(period)["2017"]["kinds"]}
    every |= {("guided", k) for k in data.load("guided")["2017"]["kinds"]}
    assert sorted(every - offered) == [("auction", "legal"), ("play", "none")]


def _named(procs: list[dict]) -> list[str]:
    return [f"{p['period']}:{p['kind']}" for p in procs]


@pytest.mark.parametrize("pid, procedures", [
    # named for it, then first law, then listing its law, then citing it; fewest cites first
    ("16C", ["auction:retention-of-right-to-call", "auction:card-exposed", "guided:change-of-call", "guided:claim"]),
    ("50D", ["play:penalty-card-on-table", "play:play-at-rho-turn", "play:simultaneous-cards"]),
    ("12C1", ["guided:adjusted-score", "guided:misinformation", "guided:unauthorized-information",
              "guided:cards-and-boards"]),
    ("12C1(b)", ["guided:adjusted-score", "guided:misinformation", "guided:unauthorized-information",
                 "guided:cards-and-boards"]),  # those listing Law 12 before the one only citing it
    ("32A", ["auction:double-out-of-rotation", "auction:redouble-out-of-rotation"]),
    # not cited: its parent's (54F, 27D1), or the procedure named for a law above it (41B)
    ("54F", ["play:opening-lead-out-of-turn"]),
    ("27D1", ["auction:insufficient-bid"]),
    ("16A1(b)", ["guided:unauthorized-information"]),
    ("41B", ["play:face-down-opening-lead-out-of-turn"]),
    ("78B", []),
])
def test_the_procedures_for_a_provision_best_first(pid, procedures):
    assert _named(handoff.for_provision("2017", pid)) == procedures


def test_a_provision_above_the_cited_ones_is_answered_by_their_procedures():
    assert handoff.offer("2017", "45C4", "")["procedure"] == "play:changed-designation"
    assert set(_named(handoff.for_provision("2017", "62"))) == {"play:revoke", "guided:dummy"}


def test_the_map_is_the_same_in_every_process():
    """Its order (the children for_provision offers first follow it, and the
    phone gets a copy) does not hang on the order of a set of strings, which
    varies with each process's hash seed."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import json; from laws.rulings import handoff; "
            "print(json.dumps([[k, [p['kind'] for p in v]] for k, v in handoff.procedures('2017').items()]))")
    root = Path(__file__).resolve().parents[1]
    here = [[k, [p["kind"] for p in v]] for k, v in handoff.procedures("2017").items()]
    for seed in ("1", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                             check=True).stdout
        assert json.loads(out) == here, seed


@pytest.mark.parametrize("pid, law, inside", [
    ("54", "54", True), ("54A", "54", True), ("45C4(b)", "45C4", True), ("45C", "45", True), ("45.1", "45", True),
    ("45C40", "45C4", False), ("540", "54", False), ("5", "54", False), ("27B", "27B1", False), ("64A", "54", False),
])
def test_a_provision_inside_a_law(pid, law, inside):
    assert handoff._inside(pid, law) is inside


@pytest.mark.parametrize("question, facts", [
    ("East deals", {"dealer": "E"}),
    ("dealer is West", {"dealer": "W"}),
    ("East is the dealer", {"dealer": "E"}),
    ("declarer was East", {"declarer": "E"}),
    ("North declaring", {"declarer": "N"}),
    ("West is declaring", {"declarer": "W"}),
    ("dealer North and declarer South", {"dealer": "N", "declarer": "S"}),
    ("trick no. 3", {"trick": 3}),
    ("trick number 4", {"trick": 4}),
    ("the 13th trick", {"trick": 13}),
    ("the first trick", {"trick": 1}),
    ("trick 0", {}),
    ("one heart", {"calls": ["1H"]}),
    ("3 no-trumps", {"calls": ["3NT"]}),
    ("4n", {"calls": ["4NT"]}),
    ("1 club then seven spades, 5 diamonds", {"calls": ["1C", "7S", "5D"]}),
])
def test_more_ways_of_stating_the_facts(question, facts):
    assert handoff.facts(question) == facts


ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth"]


@pytest.mark.parametrize("n", range(1, 14))
def test_each_trick_named_in_words(n):
    assert handoff.facts(f"revoke on the {ORDINALS[n - 1]} trick") == {"trick": n}


@pytest.mark.parametrize("n, word", list(enumerate(["one", "two", "three", "four", "five", "six", "seven"], start=1)))
def test_each_level_named_in_words(n, word):
    assert handoff.facts(f"an insufficient bid of {word} spades") == {"calls": [f"{n}S"]}


def test_a_provision_below_two_named_laws_goes_to_the_more_specific_first():
    # 57C9 (a provision a new code may add): inside both 57C and 57, neither cited nor with a cited parent
    assert _named(handoff.for_provision("2017", "57C9")) == ["play:declarer-premature-play", "play:premature-play"]


@pytest.mark.parametrize("question, ranked", [
    ("East deals", ""),
    ("declarer was East and led out of turn", "declarer and led out of turn"),
    ("North declaring; revoke", "revoke"),
])
def test_more_seats_left_out_of_the_search(question, ranked):
    assert handoff.without_seats(question) == ranked


def test_the_rubber_code_has_no_auction_rulings_but_its_play_and_guided_ones_are_offered():
    assert handoff.offer("1993-rubber", "64(a)", "South is declarer") == {
        "procedure": "play:revoke", "title": "Rule on: A revoke", "url": "/rulings/play?edition=1993-rubber&declarer=S",
        "prefilled": {"declarer": "S"}}
    assert handoff.offer("1993-rubber", "70", "")["procedure"] == "guided:claim"


def test_a_procedure_takes_only_the_facts_its_page_asks_for():
    # the guided procedures take none; the play's takes declarer, not dealer
    assert handoff.offer("2017", "16B1(a)", "North dealt and South is declarer") == {
        "procedure": "guided:unauthorized-information", "title": "Rule on: Unauthorized information",
        "url": "/rulings/guided/unauthorized-information?edition=2017", "prefilled": {}}
    assert handoff.offer("2017", "54A", "North dealt")["prefilled"] == {}
    assert handoff.offer("2017", "30A", "South is declarer, dealer East")["url"] == (
        "/rulings/auction?edition=2017&dealer=E")
    assert handoff._url("guided", "a b", "2007") == "/rulings/guided/a%20b?edition=2007"


def test_every_provision_in_the_map_exists(db):
    for edition in ("2017", "2007"):
        have = {r[0] for r in db.execute("select id from provisions where edition = ?", [edition])}
        assert sorted(set(handoff.procedures(edition)) - have) == []
        assert sorted({law for law, _ in handoff.by_law(edition)} - have) == []


def test_the_search_offers_the_ruling_on_its_first_result(client):
    got = client.get("/api/search?q=North+dealt%2C+then+East+passed+out+of+turn").get_json()["results"]
    first = got[0]
    assert (first["edition"], first["provision"]) == ("2017", "30A")
    assert first["ruling"] == {"procedure": "auction:pass-out-of-rotation", "prefilled": {"dealer": "N"},
                               "url": "/rulings/auction?edition=2017&dealer=N",
                               "title": "Rule on: Pass out of rotation"}
    assert [r for r in got[1:] if "ruling" in r] == []
    page = client.get("/search?q=North+dealt%2C+then+East+passed+out+of+turn").get_data(as_text=True)
    assert '<a class="button" href="/rulings/auction?edition=2017&amp;dealer=N">Rule on: Pass out of rotation →</a>' in page


def test_a_prefilled_field_reaches_the_procedure_page(client):
    page = client.get("/rulings/auction?edition=2017&dealer=N").get_data(as_text=True)
    assert '<option value="N" selected>' in page
    page = client.get("/rulings/play?edition=2017&declarer=W").get_data(as_text=True)
    assert 'value="W" selected' in page


SEATED = [
    ("North dealt, then East passed out of turn", "then East passed out of turn"),
    ("opening lead out of turn, South is declarer", "opening lead out of turn"),
    ("declarer (West) led from dummy", "declarer led from dummy"),
    ("dealer North, East doubled out of turn", "East doubled out of turn"),
    ("who is the dealer on board 7", "who is the dealer on board 7"),  # no seat: nothing stated
]


@pytest.mark.parametrize("question, ranked", SEATED)
def test_who_sits_where_is_not_searched(question, ranked):
    assert handoff.without_seats(question) == ranked


def test_the_reply_keeps_the_question_as_asked(client):
    got = client.get("/api/search?q=dealer+North%2C+East+doubled+out+of+turn").get_json()
    assert got["query"] == "dealer North, East doubled out of turn"
    assert got["results"][0]["ruling"]["prefilled"] == {"dealer": "N"}


# --- the ranking rules on made-up data, where today's data cannot tell them apart

def _only(monkeypatch, period: str, edition: str, kinds: dict) -> None:
    """Rulings data holding just `kinds` for a made-up `edition` in `period`
    (an edition name of its own per test: the maps are cached by edition)."""
    real = data.load

    def load(p, store=None):
        return {**real(p, store), edition: {"kinds": kinds, "subtrees": {}}} if p == period else real(p, store)
    monkeypatch.setattr(data, "load", load)


def test_the_procedure_named_for_a_provision_comes_before_one_whose_first_law_it_is(monkeypatch):
    # the named one cites more provisions, which would otherwise put it last
    _only(monkeypatch, "play", "t-named", {
        "named": {"title": "Named", "law": "54", "tree": {"cites": ["54", "54A", "54B", "54C"]}},
        "first": {"title": "First", "law": "54D", "tree": {"cites": ["54D", "54"]}}})
    assert _named(handoff.for_provision("t-named", "54")) == ["play:named", "play:first"]
    assert _named(handoff.for_provision("t-named", "54D")) == ["play:first"]


def test_a_guided_procedure_whose_first_law_it_is_comes_before_one_listing_it_later(monkeypatch):
    # 12C1: `first` lists Law 12 first (with 16 after it), `later` lists it second and cites fewer
    _only(monkeypatch, "guided", "t-laws", {
        "first": {"title": "First", "laws": ["12", "16"], "tree": {"cites": ["12C1", "16B", "12A"]}},
        "later": {"title": "Later", "laws": ["40", "12"], "tree": {"cites": ["12C1"]}}})
    assert _named(handoff.for_provision("t-laws", "12C1")) == ["guided:first", "guided:later"]
    assert _named(handoff.for_provision("t-laws", "16B")) == ["guided:first"]


def test_what_a_tree_cites_itself():
    tree = {"cites": ["45A"], "cases": {
        "yes": {"ask": {"cites": ["45B"]}, "cases": {
            "late": {"outcome": {"cites": ["45C4(b)"], "lead_restrictions": {"cites": ["26A"]},
                                 "score_adjustment": {"cites": ["12C1(e)"]}, "information": {"cites": ["16C"]}}}}},
        "no": {"use": "shared", "outcome": {"text": "no cites of its own"}}}}
    assert handoff._own_cites(tree) == {"45A", "45B", "45C4(b)", "26A", "12C1(e)", "16C"}


def test_the_maps_are_derived_once_per_edition_and_store():
    """Every search's offer reads them: made once from the rulings data of
    the store served, not again for each question."""
    assert handoff.procedures("2017") is handoff.procedures("2017")
    assert handoff.by_law("2017") is handoff.by_law("2017")
