"""Guided rulings (laws/rulings/guided/<edition>.json) through the Python
walker: every path of every procedure in every edition (2017, 2007, and the
rubber code's subset for its Laws 41 to 71) is walked, each
ending checked against the Laws' text (the provisions that decide it), and
every cited provision and defined term exists in the built store for its
edition.  The ruling record and the HTTP API are tested at the end.

(The same paths run through the JavaScript walker in
test_rulings_guided_browser.py.)
"""
from __future__ import annotations

import pytest

from laws.rulings import RulingError, guided, record
from laws.rulings import data as rulings_data

EDITIONS = ("2017", "2007", "1993-rubber")
# the duplicate codes share every procedure; the rubber code has those whose laws it has (41 to 71)
DUPLICATE = ("2017", "2007")
RUBBER_PROCEDURES = ["claim", "dummy", "quitted-tricks"]
PROCEDURES = ["unauthorized-information", "misinformation", "claim", "adjusted-score", "psychic-call",
              "change-of-call", "tempo", "procedural-penalty"]


def rule(edition: str, procedure: str, **answers) -> dict:
    return guided.rule({"edition": edition, "procedure": procedure, "answers": answers}, list(EDITIONS))


def all_paths():
    for ed in EDITIONS:
        data = guided.load()[ed]
        for proc in data["kinds"]:
            for answers, ruling in guided.endings(data, proc):
                yield ed, proc, answers, ruling


PATHS = list(all_paths())


def test_the_editions_are_those_of_the_files():
    assert guided.editions() == list(EDITIONS)


def test_every_area_has_a_procedure_in_both_editions():
    for ed in DUPLICATE:
        # later groups' procedures follow these (each group's own test names them)
        assert [p["id"] for p in guided.procedures(ed)][:len(PROCEDURES)] == PROCEDURES


def test_the_two_files_share_their_procedures_and_subtrees_in_the_same_order():
    a, b = (guided.load()[e] for e in DUPLICATE)
    assert list(a["kinds"]) == list(b["kinds"]) and list(a["subtrees"]) == list(b["subtrees"])


def test_the_rubber_procedures_are_a_subset_in_the_same_order():
    # a subset of 2007's, in 2007's order, so that `diff` lines them up; its subtrees are its own
    rubber, full = list(guided.load()["1993-rubber"]["kinds"]), list(guided.load()["2007"]["kinds"])
    assert rubber == [k for k in full if k in rubber]
    assert rubber == RUBBER_PROCEDURES
    for k in rubber:  # each names only laws the rubber code has in the store
        assert set(guided.load()["1993-rubber"]["kinds"][k]["laws"]) <= set(range(41, 72)), k


def test_every_path_ends_in_a_ruling_with_cites_and_what_to_record():
    assert len(PATHS) > 150
    for ed, proc, answers, r in PATHS:
        o = r["outcome"]
        assert o is not None and r["questions"] == [], (ed, proc, answers)
        assert o["ruling"] and o["result"] and o["record"], (ed, proc, answers)
        assert r["cites"], (ed, proc, answers)
        # every question answered is in the record's trail, in order, each citing what poses it
        assert [a["id"] for a in r["answered"]] == list(answers), (ed, proc, answers)
        assert all(a["cites"] for a in r["answered"])
        if o["score_adjustment"]:
            assert o["score_adjustment"]["when"] and o["score_adjustment"]["cites"]
        if o["see"]:
            assert o["see"] in guided.load()[ed]["kinds"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_cited_provision_exists_in_the_store(db, edition):
    cited = set()
    for ed, _proc, _answers, r in PATHS:
        if ed == edition:
            cited.update(r["cites"])
            for a in r["answered"]:
                cited.update(a["cites"])
    data = guided.load()[edition]
    cited |= rulings_data.cites(data)
    missing = sorted(c for c in cited if db.execute(
        "select 1 from provisions where edition = ? and id = ?", [edition, c]).fetchone() is None)
    assert not missing, missing


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_term_a_question_links_is_defined_in_that_edition(db, edition):
    terms = {t for _, n in rulings_data.all_nodes(guided.load()[edition]) for t in (n.get("ask") or {}).get("terms", [])}
    if edition in DUPLICATE:
        assert terms >= {"Extraneous", "Psychic call", "Unintended", "Withdrawn"}
    else:  # the corpus holds no definitions of the rubber code: its questions link none
        assert terms == set()
    missing = sorted(t for t in terms if db.execute(
        "select 1 from definitions where edition = ? and term = ?", [edition, t]).fetchone() is None)
    assert not missing, missing


def test_every_node_is_reached_by_some_path():
    for ed in EDITIONS:
        data = guided.load()[ed]
        taken = {p for e, _proc, _a, r in PATHS if e == ed for p in r["path"]}
        for pointer, node in rulings_data.all_nodes(data):
            if "on" in node:
                for value in node["cases"]:
                    assert f"{pointer}={value}" in taken, (ed, pointer, value)


def test_each_question_asks_one_thing_with_its_answers_and_is_asked_once_per_path():
    for ed in EDITIONS:
        data = guided.load()[ed]
        for pointer, node in rulings_data.all_nodes(data):
            if "on" in node:
                ask = node["ask"]
                assert ask["kind"] in ("judgement", "fact", "option"), pointer
                assert set(ask["answers"]) == set(node["cases"]), pointer
                assert "?" in ask["text"], pointer  # a question, then perhaps how to answer it
                assert ask["cites"], pointer
    for _ed, _proc, answers, r in PATHS:
        assert len({a["id"] for a in r["answered"]}) == len(r["answered"])


# --- table situations, worked from the Laws' text -------------------------------

UI_TO_ADJUSTED = dict(ui_source="partner", ui_available="yes", ui_suggested="yes", ui_logical_alternative="yes",
                      ui_damaged="yes", assigned_possible="assigned", self_inflicted="no")


def test_ui_hesitation_then_bid_with_a_logical_alternative_is_adjusted_2017():
    # 16B1(a): may not choose the suggested action over a logical alternative (16B1(b));
    # 16B3: adjusted score (12C1) on damage; 12C1(b) probable outcome, weighted 12C1(c)
    r = rule("2017", "unauthorized-information", **UI_TO_ADJUSTED)
    assert r["outcome"]["result"] == "adjust-assigned"
    assert {"16B1(a)", "16B3", "12C1(b)", "12C1(c)"} <= set(r["cites"])
    assert r["outcome"]["score_adjustment"]["checker"] == "weighted-score"
    assert [a["cites"] for a in r["answered"]][:4] == [["16A1", "16B1"], ["16B1", "16B2"], ["16B1(a)"], ["16B1(b)"]]


def test_ui_without_logical_alternative_the_score_stands():
    r = rule("2017", "unauthorized-information", ui_source="partner", ui_available="yes", ui_suggested="yes",
             ui_logical_alternative="no")
    assert r["outcome"]["result"] == "score-stands" and r["cites"] == ["16B1(b)"]


def test_one_question_at_a_time_and_no_guess():
    r = rule("2017", "unauthorized-information", ui_source="partner")
    assert r["outcome"] is None
    q = r["questions"]
    assert len(q) == 1 and q[0]["id"] == "ui_available" and q[0]["kind"] == "judgement"
    assert q[0]["cites"] == ["16B1", "16B2"]
    assert {"id": "def:Extraneous", "term": "Extraneous"} in q[0]["terms"]


def test_self_inflicted_damage_is_12C1e_in_2017_and_12C1b_in_2007():
    a = rule("2017", "adjusted-score", adj_result="yes", adj_empowered="yes", assigned_possible="assigned",
             self_inflicted="yes")
    b = rule("2007", "adjusted-score", adj_result="yes", adj_empowered="yes", assigned_possible="assigned",
             self_inflicted="yes")
    assert a["outcome"]["result"] == b["outcome"]["result"] == "adjust-split"
    assert {"12C1(e)(i)", "12C1(e)(ii)"} <= set(a["cites"]) and "12C1(b)" not in a["cites"]
    assert "12C1(b)" in b["cites"] and "12C1(e)(i)" not in b["cites"]


def test_2007_asks_whether_the_regulating_authority_uses_12C1e():
    r = rule("2007", "adjusted-score", adj_result="yes", adj_empowered="yes", assigned_possible="assigned",
             self_inflicted="no")
    assert r["questions"][0]["id"] == "ra_method" and r["questions"][0]["cites"] == ["12C1(e)"]
    r = rule("2007", "adjusted-score", adj_result="yes", adj_empowered="yes", assigned_possible="assigned",
             self_inflicted="no", ra_method="yes")
    assert {"12C1(e)(i)", "12C1(e)(ii)", "12C1(f)"} <= set(r["cites"])


def test_artificial_score_uses_the_checker_and_12C2():
    r = rule("2017", "adjusted-score", adj_result="no")
    assert r["outcome"]["score_adjustment"]["checker"] == "artificial-score"
    assert {"12C2(a)", "12C2(b)", "12C2(c)"} <= set(r["cites"])


def test_mistaken_call_no_infraction_result_stands_and_75A():
    r = rule("2017", "misinformation", mi_what="call")
    assert r["outcome"]["result"] == "score-stands" and {"75C", "21B1(b)", "75A"} <= set(r["cites"])
    assert r["outcome"]["see"] == "unauthorized-information"


def test_misinformation_in_the_auction_lets_the_player_change_his_call():
    r = rule("2017", "misinformation", mi_what="explanation", mi_when="auction", mi_influenced="yes")
    assert {"21B1(a)", "21B2", "16C", "21B3"} <= set(r["cites"])
    r07 = rule("2007", "misinformation", mi_what="explanation", mi_when="auction", mi_influenced="yes")
    assert "16D" in r07["outcome"]["ruling"] and "16C" not in r07["cites"]


def test_misinformation_found_late_with_damage_is_adjusted_on_the_correct_explanation():
    r = rule("2017", "misinformation", mi_what="no-agreement", mi_when="late", mi_damaged="yes",
             assigned_possible="assigned", self_inflicted="no")
    assert {"75D2", "20F4(a)", "20F5(b)", "75B2", "75B3", "75D3", "21B3", "12C1(c)"} <= set(r["cites"])


def test_2007_has_no_no_agreement_answer():
    with pytest.raises(RulingError):
        rule("2007", "misinformation", mi_what="no-agreement")


CONTESTED = dict(claim_kind="contested", claim_statement="yes", claim_by="declarer")


def test_contested_claim_outstanding_trump():
    # 70C: all three conditions -> trick(s) to the opponents
    r = rule("2017", "claim", **CONTESTED, claim_trump_out="yes", claim_trump_unaware="yes", claim_trump_lost="yes")
    assert r["outcome"]["result"] == "claim-adjudicated"
    assert {"70A", "70B1", "70B2", "70B3", "70C1", "70C2", "70C3"} <= set(r["cites"])


def test_unstated_finesse_2017_rejected_2007_asks_if_irrational():
    base = dict(**CONTESTED, claim_trump_out="no", claim_unstated="yes", claim_finesse="yes", claim_showed_out="no")
    r17 = rule("2017", "claim", **base)
    assert r17["outcome"]["result"] == "claim-adjudicated" and "70E1" in r17["cites"]
    r07 = rule("2007", "claim", **base)
    assert r07["questions"][0]["id"] == "claim_irrational" and r07["questions"][0]["cites"] == ["70E1"]
    assert rule("2007", "claim", **base, claim_irrational="yes")["outcome"]["result"] == "claim-allowed"


def test_play_on_after_claim_2017_only():
    r17 = rule("2017", "claim", claim_kind="played-on")
    assert r17["outcome"]["result"] == "score-stands" and "68D2(b)(ii)" in r17["cites"]
    r07 = rule("2007", "claim", claim_kind="played-on")
    assert r07["outcome"] is None and "70D3" in r07["cites"]


def test_cancelled_concession_and_withdrawn_agreement():
    r = rule("2017", "claim", claim_kind="concession", conc_in_time="yes", conc_trick_won="no",
             conc_could_not_lose="yes")
    assert r["outcome"]["result"] == "rescore" and {"71B", "71.p1"} <= set(r["cites"])
    r = rule("2007", "claim", claim_kind="concession", conc_in_time="yes", conc_trick_won="yes")
    assert {"71.1", "71.p1"} <= set(r["cites"])
    r = rule("2007", "claim", claim_kind="agreed", agreed_in_time="yes", agreed_trick_won="no", agreed_likely_won="yes")
    assert {"69B2", "69B.p1"} <= set(r["cites"])
    r = rule("2017", "claim", claim_kind="agreed", agreed_in_time="yes", agreed_trick_won="no", agreed_likely_won="yes")
    assert {"69B2", "69B.p1"} <= set(r["cites"])


def test_change_of_call_unintended_and_intended():
    r = rule("2017", "change-of-call", chg_partner_called="no", chg_unintended="yes")
    assert {"25A1", "25A6"} <= set(r["cites"]) and "26" in r["outcome"]["ruling"]
    r = rule("2017", "change-of-call", chg_partner_called="no", chg_unintended="no", chg_lho_accepts="no")
    assert {"25B2", "25B3"} <= set(r["cites"])
    r = rule("2007", "change-of-call", chg_partner_called="no", chg_unintended="yes")
    assert r["answered"][-1]["text"].endswith("without pause for thought?") and "25A4" in r["cites"]


def test_psychic_fielded_with_damage_is_adjusted():
    r = rule("2017", "psychic-call", psy_deviation="yes", psy_partner_aware="yes", psy_damaged="yes",
             assigned_possible="artificial")
    assert r["outcome"]["result"] == "adjust-artificial" and "40C1" in r["cites"]


def test_tempo_misleading_opponent_2017_73E2_2007_73F():
    ans = dict(tmp_whom="opponent", tmp_false_inference="yes", tmp_bridge_reason="no", tmp_could_know="yes",
               assigned_possible="assigned", self_inflicted="no")
    assert {"73D2", "73E2"} <= set(rule("2017", "tempo", **ans)["cites"])
    ans07 = {**ans, "ra_method": "no"}
    assert {"73D2", "73F"} <= set(rule("2007", "tempo", **ans07)["cites"])


def test_procedural_penalty_is_the_directors_option():
    r = rule("2017", "procedural-penalty", conduct_kind="offence", pp_offence="yes")
    assert r["questions"][0]["kind"] == "option"
    r = rule("2017", "procedural-penalty", conduct_kind="offence", pp_offence="yes", pp_assess="yes")
    assert r["outcome"]["penalty"]["cites"] == ["90A"] and "90A" in r["cites"]


def test_other_source_after_the_first_call_2017_offers_2c_or_2d_2007_only_2c():
    r17 = rule("2017", "unauthorized-information", ui_source="other", od_when="during")
    assert [a["value"] for a in r17["questions"][0]["answers"]] == ["play", "award"]
    r07 = rule("2007", "unauthorized-information", ui_source="other", od_when="during")
    assert r07["questions"][0]["id"] == "od_affected" and "16C3" in r07["cites"]


@pytest.mark.parametrize("payload, field", [
    ("not an object", None),
    ({"edition": "1999", "procedure": "claim"}, "edition"),
    ({"edition": "2017", "procedure": "nothing"}, "procedure"),
    ({"edition": "2017", "procedure": "claim", "answers": []}, "answers"),
    ({"edition": "2017", "procedure": "claim", "answers": {"nope": "yes"}}, "answers"),
    ({"edition": "2017", "procedure": "claim", "answers": {"claim_kind": "maybe"}}, "answers"),
    ({"edition": "2017", "procedure": "claim", "answers": {"claim_kind": 3}}, "answers"),
])
def test_bad_requests_name_the_field(payload, field):
    with pytest.raises(RulingError) as exc:
        guided.rule(payload, list(EDITIONS))
    assert exc.value.field == field and str(exc.value)


# --- the ruling record -------------------------------------------------------------

def test_record_holds_the_facts_questions_ruling_and_provision_texts(db):
    r = rule("2017", "unauthorized-information", **UI_TO_ADJUSTED)
    ctx = record.context({"event": "Thursday pairs", "board": "7", "table": "3", "facts": "N hesitated, S bid 4S",
                          "adjustment": "4S-1 NS -50 for both sides"})
    texts = record.provision_texts(db, "2017", record.cited(r))
    rec = record.from_guided(r, ctx, texts)
    # the provisions that posed each question, then those the ruling applies
    assert [p["id"] for p in rec["provisions"]] == ["16A1", "16B1", "16B2", "16B1(a)", "16B1(b)", "12B1", "16B3",
                                                   "12C1(a)", "12C1(d)", "12C1(e)", "73C1", "12C1", "12C1(b)",
                                                   "12C1(c)"]
    assert rec["provisions"][3]["text"].startswith("A player may not choose a call or play that is demonstrably")
    text = record.as_text(rec)
    for want in ("Unauthorized information (2017 Laws)", "Event: Thursday pairs", "Board: 7", "Table: 3",
                 "N hesitated, S bid 4S", "4S-1 NS -50 for both sides", "Law 16B1(b): A logical alternative",
                 r["outcome"]["ruling"]):
        assert want in text


def test_record_context_is_checked():
    with pytest.raises(RulingError) as exc:
        record.context({"board": "9" * 30})
    assert exc.value.field == "board"


# --- HTTP ---------------------------------------------------------------------------

def test_api_guided(client):
    r = client.post("/api/rulings/guided", json={"edition": "2017", "procedure": "claim",
                                                  "answers": {"claim_kind": "contested"}})
    assert r.status_code == 200 and r.content_type == "application/json"
    body = r.get_json()
    assert body["outcome"] is None and body["questions"][0]["id"] == "claim_statement"
    assert client.post("/api/rulings/guided", json={"edition": "2017", "procedure": "x"}).status_code == 400
    assert client.post("/api/rulings/guided", data="x").status_code == 400
    listing = client.get("/api/rulings/guided").get_json()
    assert [e["edition"] for e in listing] == ["2017", "2007", "1993-rubber"]
    assert [p["id"] for p in listing[2]["procedures"]] == RUBBER_PROCEDURES


def test_step_page_is_a_plain_form_and_bad_addresses_are_4xx(client):
    html = client.get("/rulings/guided/claim?edition=2017&claim_kind=contested&claim_statement=yes").get_data(as_text=True)
    assert 'name="claim_by" value="declarer"' in html and 'name="claim_kind" value="contested"' in html
    assert client.get("/rulings/guided/nothing").status_code == 404
    assert client.get("/rulings/guided/claim?edition=1999").status_code == 400
    bad = client.get("/rulings/guided/claim?edition=2017&claim_kind=%3Cscript%3E")
    assert bad.status_code == 400 and "<script>" not in bad.get_data(as_text=True)


def test_record_page_reopens_from_its_address(client):
    q = ("procedure=claim&edition=2017&claim_kind=contested&claim_statement=yes&claim_by=declarer&claim_trump_out=yes"
         "&claim_trump_unaware=yes&claim_trump_lost=yes&event=Club&board=12&table=4&facts=%3Cb%3Eclaimed%3C%2Fb%3E")
    html = client.get(f"/rulings/record?{q}").get_data(as_text=True)
    assert "Award the opponents the trick or tricks that trump could win" in html
    assert "&lt;b&gt;claimed" not in html and "<b>claimed" not in html  # the facts in an old query are not echoed
    assert "Law 70C2" in html
    text = client.get(f"/rulings/record.txt?{q}")
    # the record's fields in a query (an old address) are not read: the phone keeps them in the fragment
    assert text.content_type.startswith("text/plain") and f"Board: {record.BLANK}\n" in text.get_data(as_text=True)
    assert client.get("/rulings/record?procedure=claim&edition=2017&board=" + "9" * 30).status_code == 200


def test_record_of_an_auction_ruling(client):
    html = client.get("/rulings/record?procedure=auction&edition=2017&dealer=N&calls=1H+E:1D&board=4").get_data(
        as_text=True)
    # East's 1D over North's 1H is insufficient: Law 27
    assert "Irregularity in the auction" in html and "Board" in html and "Law 27" in html
    assert "Dealer North" not in html  # the board is the phone's (the fragment): no dealer worked out from a query


def test_law_pages_link_the_procedure_that_applies_them(client):
    for law in (12, 16, 20, 21, 25, 40, 68, 69, 70, 71, 73, 75):
        for ed in DUPLICATE:
            html = client.get(f"/{ed}/law/{law}").get_data(as_text=True)
            assert 'id="rulings"' in html and f"/rulings/guided/" in html, (ed, law)
    assert 'id="rulings"' not in client.get("/2017/law/1").get_data(as_text=True)


def test_rulings_index_offers_guided_beside_auction(client):
    html = client.get("/rulings").get_data(as_text=True)
    assert "/rulings/auction" in html and "/rulings/guided" in html


# --- no input gives a 500 -------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_FACTS = sorted({f for ed in EDITIONS for p in guided.load()[ed]["kinds"] for f in guided.asks(guided.load()[ed], p)})
_VALUES = sorted({v for ed in EDITIONS for p in guided.load()[ed]["kinds"]
                  for a in guided.asks(guided.load()[ed], p).values() for v in a["answers"]})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edition=st.sampled_from(["2017", "2007", "1993-rubber", "1999", ""]), procedure=st.sampled_from(PROCEDURES + ["dummy", "quitted-tricks", "x"]),
       answers=st.dictionaries(st.sampled_from(_FACTS + ["zz"]), st.sampled_from(_VALUES + ["", "<b>"]), max_size=8))
def test_any_answers_give_a_ruling_or_a_4xx(client, edition, procedure, answers):
    r = client.post("/api/rulings/guided", json={"edition": edition, "procedure": procedure, "answers": answers})
    assert r.status_code in (200, 400), r.get_data(as_text=True)
    page = client.get(f"/rulings/guided/{procedure}", query_string={"edition": edition, **answers})
    assert page.status_code in (200, 400, 404)
    rec = client.get("/rulings/record", query_string={"procedure": procedure, "edition": edition, **answers})
    assert rec.status_code in (200, 400)
