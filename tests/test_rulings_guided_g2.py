"""Guided procedures of the Director, scores, conduct and appeals (laws 72 in
2007, 74, 79, 82, 83, 84, 85, 86, 87, 90, 91, 92, 93), and the claim
procedure's question whether a statement was made (68C, 70B1): every case of
tests/fixtures/guided_g2.json through the Python walker, with its whole
result and cites; every branch of these procedures taken by some case in each
edition (computed from the data); the law pages lead to them; the offline kit
keeps them.  The JavaScript walker is run on the same cases in
test_rulings_guided_g2_browser.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import guided

EDITIONS = ("2017", "2007")
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "guided_g2.json").read_text())
CASES = FIXTURE["cases"]
# procedure -> the laws it applies, in each edition
MINE = {"procedural-penalty": [72, 74, 90, 91], "tricks-and-scores": [79], "directors-error": [82],
        "facts": [84, 85], "team-and-fouled": [86, 87], "appeals": [83, 92, 93]}
NEW_SUBTREES = ("claim-trump-unstated", "claim-line-unstated", "director-adjust")


def rule(case: dict) -> dict:
    return guided.rule({"edition": case["edition"], "procedure": case["procedure"], "answers": case["answers"]},
                       list(EDITIONS))


def _reachable(data: dict, pointer: str, node: dict, seen: set):
    """(pointer, node) for every node reachable from `node`, through the subtrees it uses."""
    yield pointer, node
    for key, child in (node.get("cases") or {}).items():
        yield from _reachable(data, f"{pointer}/cases/{key}", child, seen)
    for name in (node.get("use"), node.get("then")):
        if name and name not in seen:
            seen.add(name)
            yield from _reachable(data, f"subtrees/{name}", data["subtrees"][name], seen)


def branches(edition: str, procedure: str) -> set[str]:
    """Every `pointer=value` the walker can take in this procedure: all of it for
    the new procedures; for claim and adjusted-score, the branches this group added."""
    data = guided.load()[edition]
    out = set()
    for pointer, node in _reachable(data, f"kinds/{procedure}/tree", data["kinds"][procedure]["tree"], set()):
        for value in node.get("cases") or {}:
            out.add(f"{pointer}={value}")
    if procedure == "claim":
        out = {b for b in out if b.startswith(("kinds/claim/tree/cases/contested", "kinds/claim/tree/cases/played-on",
                                               "subtrees/claim-trump-unstated", "subtrees/claim-line-unstated"))}
    if procedure == "adjusted-score":
        out = {b for b in out if b.startswith("subtrees/director-adjust")} | {
            "kinds/adjusted-score/tree/cases/yes=director"}
    return out


def test_the_new_procedures_follow_the_others_in_both_editions():
    for ed in EDITIONS:
        ids = [p["id"] for p in guided.procedures(ed)]
        # in this order after the first group's (other groups' procedures may stand between)
        assert [i for i in ids[ids.index("procedural-penalty"):] if i in MINE] == list(MINE), ed
        assert {p["id"]: p["laws"] for p in guided.procedures(ed) if p["id"] in MINE} == MINE


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['edition']}-{c['procedure']}-" + "-".join(c["answers"].values()))
def test_each_case_gives_its_result_and_exactly_its_cites(case):
    r = rule(case)
    assert r["questions"] == [] and r["outcome"] is not None
    assert r["outcome"]["result"] == case["result"]
    assert r["cites"] == case["cites"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("procedure", [*MINE, "claim", "adjusted-score"])
def test_every_branch_is_taken_by_some_case(edition, procedure):
    taken = {p for c in CASES if c["edition"] == edition and c["procedure"] == procedure for p in rule(c)["path"]}
    want = branches(edition, procedure)
    assert want and not (want - taken), sorted(want - taken)


def test_a_fact_asked_in_two_places_is_asked_in_the_same_words():
    # a fact's name is its question's id: where the same fact sits in two places of a
    # procedure (claim_by with and without a statement), the question must be identical
    for ed in EDITIONS:
        data = guided.load()[ed]
        for proc, spec in data["kinds"].items():
            seen: dict[str, dict] = {}
            for pointer, node in _reachable(data, f"kinds/{proc}/tree", spec["tree"], set()):
                if "on" in node:
                    assert seen.setdefault(node["on"], node["ask"]) == node["ask"], (ed, proc, pointer)


# --- the claim fix -----------------------------------------------------------------

def test_a_claim_asks_first_whether_a_statement_was_made():
    for ed in EDITIONS:
        r = guided.rule({"edition": ed, "procedure": "claim", "answers": {"claim_kind": "contested"}}, list(EDITIONS))
        q = r["questions"]
        assert [x["id"] for x in q] == ["claim_statement"] and q[0]["cites"] == ["68C", "70B1"]
        assert [a["value"] for a in q[0]["answers"]] == ["yes", "no"]


def test_without_a_statement_the_director_is_not_told_to_have_it_repeated():
    for ed in EDITIONS:
        base = {"claim_kind": "contested", "claim_by": "declarer", "claim_trump_out": "no"}
        without = guided.rule({"edition": ed, "procedure": "claim", "answers": {**base, "claim_statement": "no", "claim_ns_loses": "no"}})
        with_ = guided.rule({"edition": ed, "procedure": "claim", "answers": {**base, "claim_statement": "yes", "claim_unstated": "no",
                                                                              "claim_normal_loses": "no"}})
        assert "repeat the clarification statement he made" not in without["say"]
        assert without["say"].startswith("The claimer made no clarification statement, so there is none to repeat")
        assert "70B1" not in without["cites"] and "68C" in without["cites"]
        assert without["outcome"]["record"][1] == "that the claimer made no statement"
        assert with_["say"].startswith("Have the claimer repeat the clarification statement he made")
        assert "70B1" in with_["cites"] and "the claim statement" in with_["outcome"]["record"]


def test_2007_asks_70E1s_irrationality_without_a_statement_too_2017_does_not():
    ans = {"claim_kind": "contested", "claim_statement": "no", "claim_by": "declarer", "claim_trump_out": "no",
           "claim_ns_loses": "yes", "claim_ns_finesse": "yes", "claim_showed_out": "no"}
    r07 = guided.rule({"edition": "2007", "procedure": "claim", "answers": ans})
    assert [q["id"] for q in r07["questions"]] == ["claim_irrational"] and r07["questions"][0]["cites"] == ["70E1"]
    r17 = guided.rule({"edition": "2017", "procedure": "claim", "answers": ans})
    assert r17["outcome"]["result"] == "claim-adjudicated" and r17["cites"] == ["70A", "68C", "70B2", "70B3", "70E1"]


# --- the Law's words where they matter --------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_the_appeal_outcome_states_the_right_and_its_time_limit(edition):
    r = guided.rule({"edition": edition, "procedure": "appeals",
                     "answers": {"appeal_kind": "advise", "appeal_review": "yes", "appeal_83": "advise"}})
    info = r["outcome"]["information"]
    assert info["text"].startswith("A contestant or his captain may appeal for a review of any ruling made at his table")
    assert ("expires 30 minutes after the official score has been made available for inspection unless the "
            "Tournament Organizer has specified a different time period") in info["text"]
    assert info["cites"] == ["92A", "92B", "92C", "92D1", "92D2"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_directors_error_treats_both_sides_as_non_offending_from_the_adjusted_score_too(edition):
    via82 = guided.rule({"edition": edition, "procedure": "directors-error",
                         "answers": {"de_kind": "ruling", "de_normal": "no", "de_score": "artificial"}})
    via12 = guided.rule({"edition": edition, "procedure": "adjusted-score",
                         "answers": {"adj_result": "yes", "adj_empowered": "director", "de_score": "artificial"}})
    assert via82["outcome"] == via12["outcome"]
    assert "treated as non-offending" in via82["outcome"]["ruling"] and "average plus to each" in via82["outcome"]["ruling"]


def test_every_cite_of_these_procedures_is_a_provision_of_its_edition(db):
    for case in CASES:
        r = rule(case)
        ids = set(r["cites"]) | {c for a in r["answered"] for c in a["cites"]}
        missing = [c for c in ids if db.execute("select 1 from provisions where edition = ? and id = ?",
                                                [case["edition"], c]).fetchone() is None]
        assert not missing, (case, missing)


# --- the law pages and the offline kit ---------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_each_law_page_leads_to_the_procedure_that_applies_it(client, edition):
    for proc, laws in MINE.items():
        for law in laws:
            html = client.get(f"/{edition}/law/{law}").get_data(as_text=True)
            assert f'href="/rulings/guided/{proc}?edition={edition}"' in html, (edition, law, proc)


def test_the_offline_kit_keeps_every_procedure(client):
    pages = client.get("/offline/pages.json").get_json()["pages"]
    for proc in [*MINE, "claim", "adjusted-score"]:
        assert f"/rulings/guided/{proc}" in pages
    bundle = client.get("/rulings/guided.json").get_json()
    for ed in EDITIONS:
        assert set(MINE) <= set(bundle["editions"][ed]["kinds"])
