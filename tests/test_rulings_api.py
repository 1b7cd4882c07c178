"""POST /api/rulings/auction: the CONTRACT's shapes, bad input as 400
{"error", "field"}, and a property test: no auction and no findings give a
500, and every cited provision of every outcome exists in the store for
that edition."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

import pytest

SEATS = ["N", "E", "S", "W"]
CALLS = ["P", "X", "XX"] + [f"{n}{s}" for n in range(1, 8) for s in ("C", "D", "H", "S", "NT")] + ["8C", "9NT"]
BOOLEANS = ["accepted", "comparable", "natural", "same_denominations", "artificial", "repeats_denomination",
            "intended", "without_pause", "suit_specific", "suits_shown", "after_opening_lead", "could_be_seen",
            "replacement_accepted", "simultaneous"]


def post(client, payload, **kw):
    return client.post("/api/rulings/auction", json=payload, **kw)


def test_issue_example(client):
    r = post(client, {"edition": "2007", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"]],
                      "findings": {"accepted": False, "replacement": "2D", "natural": False, "comparable": True}})
    assert r.status_code == 200 and r.content_type == "application/json"
    body = r.get_json()
    assert list(body)[:7] == ["edition", "irregularity", "questions", "options", "outcome", "say", "cites"]
    assert body["irregularity"] == {"index": 1, "seat": "E", "kind": "insufficient-bid", "law": "27"}
    assert body["questions"] == []
    assert {o["id"]: o["who"] for o in body["options"]}["accept"] == "S"
    o = body["outcome"]
    assert (o["offender_partner_must_pass"], o["offender_must_pass"], o["lead_restrictions"], o["next"]) == (
        "none", "none", None, "S")
    assert o["score_adjustment"]["cites"] == ["27D"]
    assert {"27B1(b)", "27D"} <= set(body["cites"])
    assert "East" in body["say"]


def test_a_question_leaves_the_outcome_null(client):
    body = post(client, {"edition": "2007", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"]]}).get_json()
    assert body["outcome"] is None
    assert [(q["id"], q["kind"], q["who"]) for q in body["questions"]] == [("accepted", "option", "S")]
    assert body["questions"][0]["cites"] == ["27A1"]


def test_legal_auction(client):
    body = post(client, {"edition": "2007", "dealer": "N", "calls": [["N", "1H"], ["E", "P"]]}).get_json()
    assert body["irregularity"] is None and body["outcome"]["next"] == "S"


@pytest.mark.parametrize("payload, field", [
    ({"edition": "1066", "dealer": "N", "calls": []}, "edition"),
    ({"edition": "2007", "dealer": "X", "calls": []}, "dealer"),
    ({"edition": "2007", "dealer": "N", "calls": [["N", "banana"]]}, "calls"),
    ({"edition": "2007", "dealer": "N", "calls": [["Z", "1H"]]}, "calls"),
    ({"edition": "2007", "dealer": "N", "calls": [], "findings": {"comparable": 3}}, "findings.comparable"),
    ({"edition": "2007", "dealer": "N", "calls": [], "findings": []}, "findings"),
])
def test_bad_input(client, payload, field):
    r = post(client, payload)
    assert r.status_code == 400
    assert r.get_json()["field"] == field and r.get_json()["error"]


def test_malformed_json_and_wrong_type(client):
    r = client.post("/api/rulings/auction", data="{nope", content_type="application/json")
    assert (r.status_code, r.get_json()) == (400, {"error": "The request body is not valid JSON.", "field": None})
    r = client.post("/api/rulings/auction", data="dealer=N")
    assert (r.status_code, r.get_json()) == (400, {"error": "Send the request as a JSON object, with the header "
                                                            "Content-Type: application/json.", "field": None})
    r = client.get("/api/rulings/auction")
    assert (r.status_code, r.get_json()) == (405, {"error": "GET is not allowed at /api/rulings/auction."})


def test_edition_not_in_the_store(client, db):
    # the API refuses a ruling whose law the store lacks for that edition
    have = {r[0] for r in db.execute("select distinct law from provisions where edition = '2017'")}
    payload = {"edition": "2017", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"]]}
    r = post(client, payload)
    assert r.status_code == (200 if 27 in have else 400)
    if r.status_code == 200:  # the ruling is the walker's, from the trees
        from laws.rulings import auction
        assert r.get_json() == auction.rule(payload)
    else:
        assert set(r.get_json()) == {"error", "field"}


seats = st.sampled_from(SEATS)
call = st.sampled_from(CALLS)
findings = st.fixed_dictionaries({}, optional={
    **{b: st.booleans() for b in BOOLEANS},
    "replacement": call, "rho_call": call,
    "required_to_pass": st.lists(seats, max_size=2, unique=True),
    "card": st.fixed_dictionaries({"seat": seats, "cards": st.lists(st.sampled_from(["SA", "D4", "H10", "C2"]),
                                                                   min_size=1, max_size=3),
                                   "led": st.booleans()}),
    "change": st.fixed_dictionaries({"call": call}),
})
requests = st.fixed_dictionaries({
    "edition": st.sampled_from(["2007", "2017"]), "dealer": seats,
    "calls": st.lists(st.tuples(seats, call).map(list), max_size=14), "findings": findings})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=requests)
def test_no_auction_and_no_findings_give_a_500_and_every_cite_exists(client, db, payload):
    r = post(client, payload)
    assert r.status_code in (200, 400), r.get_data(as_text=True)
    body = r.get_json()
    if r.status_code == 400:
        assert body["error"] and "field" in body
        return
    assert (body["outcome"] is None) == bool(body["questions"])
    cited = set(body["cites"]) | {c for q in body["questions"] for c in q["cites"]} | \
        {c for o in body["options"] for c in o["cites"]}
    missing = [c for c in cited if db.execute("select 1 from provisions where edition = ? and id = ?",
                                              [body["edition"], c]).fetchone() is None]
    assert not missing, (body["edition"], missing)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                                st.sampled_from(["edition", "dealer", "calls", "findings", "card", "x"]),
                                inner, max_size=4), max_leaves=12))
def test_junk_gives_400_not_500(client, payload):
    r = post(client, payload)
    assert r.status_code in (200, 400), r.get_data(as_text=True)


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_law_pages_link_to_the_ruling(client, edition):
    for number in [17, 18, 19, *range(22, 40)]:
        html = client.get(f"/{edition}/law/{number}").get_data(as_text=True)
        assert f'href="/rulings/auction?edition={edition}"' in html, number
    assert "/rulings/auction" not in client.get(f"/{edition}/law/80").get_data(as_text=True)


def test_the_ruling_pages_are_kept_for_offline_use(client):
    pages = client.get("/offline/pages.json").get_json()["pages"]
    assert {"/rulings", "/rulings/auction"} <= set(pages)
    assert '"/rulings/auction.json"' in client.get("/sw.js").get_data(as_text=True)  # kept at install
    bundle = client.get("/rulings/auction.json").get_json()
    assert set(bundle["editions"]) == {"2007", "2017"}
    assert bundle["texts"]["2017"]["23A"]["text"].startswith("A call that replaces")
    assert "/static/rulings/walker." in client.get("/sw.js").get_data(as_text=True)


def test_no_javascript_page_answers_a_bad_auction_with_400(client):
    r = client.get("/rulings/auction?dealer=N&calls=1H+Q:2D")
    assert r.status_code == 400 and b"not a seat" in r.data


@pytest.mark.parametrize("kind", ["auction", "play"])
def test_the_documented_examples_give_a_ruling(client, kind):
    from laws.rulings import EXAMPLES
    r = client.post(f"/api/rulings/{kind}", json=EXAMPLES[kind])
    assert r.status_code == 200
    assert r.get_json()["irregularity"]["seat"] == "E"
