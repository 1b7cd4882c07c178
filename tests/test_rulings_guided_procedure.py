"""Guided procedures for the procedural laws (issue 21): cards and boards (6, 7,
13, 14, 15; 2007 17D), before the Director comes (9, 10, 11), the end of the
round (8), dummy's rights and limits (42, 43), quitted tricks and a disputed
count (65, 66).

tests/fixtures/rulings_guided_procedure.json holds table situations worked
from each edition's text; every one is run here, every branch of these
procedures must be taken by one of them, and every provision of these laws
must be applied or asked by some path, so a law is covered whole.  (Every
path's well-formedness, the store's provisions and terms, and the JavaScript
walker are checked for all procedures in test_rulings_guided.py and
test_rulings_guided_browser.py.)
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import guided
from laws.rulings import data as rulings_data

EDITIONS = ("2017", "2007")
PROCEDURES = ("cards-and-boards", "before-the-director", "end-of-round", "dummy", "quitted-tricks")
SUBTREES = ("round-ended", "round-open")  # the end of the round's own subtrees
LAWS = {"cards-and-boards": [6, 7, 13, 14, 15], "before-the-director": [9, 10, 11], "end-of-round": [8],
        "dummy": [42, 43], "quitted-tricks": [65, 66]}
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "rulings_guided_procedure.json").read_text())
CASES = [(c, ed) for c in FIXTURE["cases"] for ed in EDITIONS if ed in c]


def rule(edition: str, procedure: str, answers: dict) -> dict:
    return guided.rule({"edition": edition, "procedure": procedure, "answers": answers}, list(EDITIONS))


@pytest.mark.parametrize("case, edition", CASES, ids=[f"{ed}: {c['name']}" for c, ed in CASES])
def test_table_situation(case, edition):
    want = case[edition]
    r = rule(edition, case["procedure"], case["answers"])
    if "pending" in want:
        # the edition asks one more question here: nothing is ruled until it is answered
        assert r["outcome"] is None and [q["id"] for q in r["questions"]] == [want["pending"]]
        return
    o = r["outcome"]
    assert o is not None, r["questions"]
    missing = [c for c in want["decided_by"] if c not in r["cites"]]
    assert not missing, (missing, r["cites"])
    assert (o["result"], o["see"], (o["penalty"] or {}).get("cites")) == \
        (want["result"], want.get("see"), want.get("penalty"))


def test_every_branch_is_taken_by_a_table_situation():
    for ed in EDITIONS:
        data = guided.load()[ed]
        taken = set()
        for case, e in CASES:
            if e == ed and "pending" not in case[ed]:
                taken.update(rule(ed, case["procedure"], case["answers"])["path"])
        mine = [p for p, _ in rulings_data.all_nodes(data)
                if p.split("/")[1] in PROCEDURES and p.startswith("kinds/") or
                p.startswith("subtrees/") and p.split("/")[1] in SUBTREES]
        nodes = dict(rulings_data.all_nodes(data))
        untaken = [f"{p}={v}" for p in mine if "on" in nodes[p] for v in nodes[p]["cases"]
                   if f"{p}={v}" not in taken]
        assert not untaken, (ed, untaken)


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_law_is_covered_whole(db, edition):
    """Every provision of these laws with text of its own is applied by some
    ending or poses some question, in that edition."""
    data = guided.load()[edition]
    used = set()
    for proc in PROCEDURES:
        for _answers, r in guided.endings(data, proc):
            used.update(r["cites"])
            for a in r["answered"]:
                used.update(a["cites"])
    laws = sorted({n for v in LAWS.values() for n in v})
    rows = db.execute(f"select id from provisions where edition = ? and law in ({','.join('?' * len(laws))})"
                      " and text != '' order by law, ord", [edition, *laws]).fetchall()
    assert len(rows) > 90  # the laws are in the store (99 provisions in 2017, 94 in 2007)
    assert [r[0] for r in rows if r[0] not in used] == []


def test_the_law_computes_and_the_director_judges():
    """Where the Law gives the consequence the procedure rules it without asking;
    where it leaves the Director to judge, the question is a judgement citing
    the provision."""
    kinds = {}
    for ed in EDITIONS:
        for proc in PROCEDURES:
            for fact, ask in guided.asks(guided.load()[ed], proc).items():
                kinds[(ed, fact)] = (ask["kind"], ask["cites"])
    assert kinds[("2017", "cb_can_correct")] == ("judgement", ["13B1"])
    assert kinds[("2007", "cb_can_correct")] == ("judgement", ["13A"])
    assert kinds[("2007", "cb_ui_serious")] == ("judgement", ["13D2(a)", "13D2(b)"])
    assert kinds[("2017", "bd_gained")] == ("judgement", ["11A"])
    assert kinds[("2017", "dm_suggested")] == ("judgement", ["45F"])
    assert kinds[("2017", "cb_redeal_order")] == ("option", ["6D3"])
    # 14B4: a card found after the opening lead is deemed to have belonged to the
    # deficient hand throughout: ruled at once, nothing asked about it
    r = rule("2017", "cards-and-boards", {"cb_what": "count", "cb_surplus_hand": "short", "cb_lead_faced": "no",
                                          "cb_found_where": "elsewhere"})
    assert [a["id"] for a in r["answered"]] == ["cb_what", "cb_surplus_hand", "cb_lead_faced", "cb_found_where"]
    assert "deemed to have belonged to that hand throughout" in r["outcome"]["ruling"]
    assert r["outcome"]["information"] == {
        "text": "Knowledge of the replacement of a card is unauthorized for the partner of the player whose hand "
                "was short.", "cites": ["14C"]}


def test_an_adjusted_score_continues_into_the_shared_steps_and_keeps_the_penalty():
    # 13D (2017): the result cancelled, an adjusted score (12C1 via the shared
    # `adjust` steps), and the offender's procedural penalty kept beside it
    r = rule("2017", "cards-and-boards", {"cb_what": "count", "cb_surplus_hand": "more", "cb_called": "yes",
                                          "cb_play_ended": "yes"})
    assert [q["id"] for q in r["questions"]] == ["assigned_possible"]
    r = rule("2017", "cards-and-boards", {"cb_what": "count", "cb_surplus_hand": "more", "cb_called": "yes",
                                          "cb_play_ended": "yes", "assigned_possible": "assigned",
                                          "self_inflicted": "no"})
    o = r["outcome"]
    assert o["result"] == "adjust-assigned" and o["score_adjustment"]["checker"] == "weighted-score"
    assert o["penalty"] == {"text": "An offending contestant is liable to a procedural penalty.",
                            "cites": ["13D", "90B7"]}
    assert r["say"].startswith("Each player must count his cards before looking at their faces (7B2). "
                               "The result must be cancelled and an adjusted score awarded (13D)")


def test_editions_differ_where_their_texts_do():
    # 2007 15C: a wrong board found in the auction is replayed with the same
    # calls; 2017 15B has no such step
    assert rule("2007", "cards-and-boards", {"cb_what": "wrong-board"})["questions"][0]["id"] == "cb_wb_auction"
    assert rule("2017", "cards-and-boards", {"cb_what": "wrong-board"})["questions"][0]["id"] == "cb_played_before"
    # 2007 11A: a possible gain is the example of forfeiture, asked first;
    # 2017 11A: forfeiture first, then the gain, whose advantage is taken away
    assert rule("2007", "before-the-director", {"bd_what": "acted"})["questions"][0]["id"] == "bd_gained"
    assert rule("2017", "before-the-director", {"bd_what": "acted"})["questions"][0]["id"] == "bd_forfeit"
    # 2007 65B3: declarer may require a card to be pointed correctly at any time
    assert [a["value"] for a in rule("2007", "quitted-tricks", {"qt_what": "pointed"})["questions"][0]["answers"]] \
        == ["declarer", "other"]


def test_procedures_are_listed_with_their_laws():
    for ed in EDITIONS:
        listed = {p["id"]: p["laws"] for p in guided.procedures(ed)}
        for proc, laws in LAWS.items():
            # 2007's wrong-board cards are its Law 17D
            assert listed[proc] == laws + ([17] if ed == "2007" and proc == "cards-and-boards" else []), (ed, proc)


def test_law_pages_link_the_procedure(client):
    for proc, laws in LAWS.items():
        for law in laws:
            for ed in EDITIONS:
                html = client.get(f"/{ed}/law/{law}").get_data(as_text=True)
                assert f'href="/rulings/guided/{proc}' in html, (ed, law, proc)


def test_api_and_record(client):
    r = client.post("/api/rulings/guided", json={"edition": "2017", "procedure": "dummy",
                                                  "answers": {"dm_what": "warned", "dm_a2": "yes"}})
    body = r.get_json()
    assert r.status_code == 200 and body["outcome"]["result"] == "rectify" and "43B2(a)" in body["cites"]
    html = client.get("/rulings/record?procedure=quitted-tricks&edition=2007&qt_what=count&qt_ascertain=no"
                      "&qt_mixed=yes&board=5").get_data(as_text=True)
    assert "Rule in favour of the other side." in html and "Law 66D" in html
