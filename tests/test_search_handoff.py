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
