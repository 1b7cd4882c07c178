"""Auction rulings through the Python walker: every table situation in
tests/fixtures/rulings_auction.json, in both editions; every branch of every
tree taken by some case; every cited provision in the store.

(The same cases run through the JavaScript walker in test_rulings_browser.py.)
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import auction, data as rulings_data

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_auction.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]
EDITIONS = ("2007", "2017")


def request(case: dict, edition: str) -> dict:
    return {"edition": edition, "dealer": case["dealer"], "calls": case["calls"], "findings": case["findings"]}


def summary(reply: dict, expected: dict) -> dict:
    """The reply in the fixture's terms (decided_by kept only if all are cited;
    the exact cites are test_cites_are_exactly_the_reviewed_list's)."""
    irr = reply["irregularity"]
    out = {"kind": irr and irr["kind"], "law": irr and irr["law"], "questions": [q["id"] for q in reply["questions"]]}
    o = reply["outcome"]
    if o is not None:
        out.update(partner=o["offender_partner_must_pass"], offender=o["offender_must_pass"],
                   lead=o["lead_restrictions"] and o["lead_restrictions"]["declarer_may"], next=o["next"])
    missing = [c for c in expected["decided_by"] if c not in reply["cites"]]
    out["decided_by"] = expected["decided_by"] if not missing else {"not cited": missing}
    out["cites"] = expected["cites"]  # compared whole in test_cites_are_exactly_the_reviewed_list
    return out


def test_there_are_enough_cases_and_every_kind_is_covered():
    assert len(CASES) >= 60
    assert len({c["id"] for c in CASES}) == len(CASES)
    for edition in EDITIONS:
        kinds = set(rulings_data.load("auction")[edition]["kinds"]) - {"legal"}
        covered = {c[edition]["kind"] for c in CASES}
        assert kinds <= covered, kinds - covered


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_case(case, edition):
    reply = auction.rule(request(case, edition))
    assert summary(reply, case[edition]) == case[edition], case["situation"]
    assert (reply["outcome"] is None) == bool(reply["questions"])


# Cases whose reply cites a provision judged wrong when the fixture's cites
# were reviewed against the law texts: the fixture records the list judged
# right, and the case is an expected failure (strict: it must fail) so the
# suspected bug stays visible. Keyed "case-id edition". (None for the auction:
# every cite was found to be applied by the ruling or the test of a question.)
KNOWN_WRONG_CITES: dict[str, str] = {}


def _cite_params():
    for case in CASES:
        for edition in EDITIONS:
            reason = KNOWN_WRONG_CITES.get(f"{case['id']} {edition}")
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(case, edition, id=f"{case['id']}-{edition}", marks=marks)


@pytest.mark.parametrize("case, edition", list(_cite_params()))
def test_cites_are_exactly_the_reviewed_list(case, edition):
    """The reply cites exactly the fixture's list, in order: every provision
    the ruling applies or whose test it poses, and nothing else (a sibling
    that does not decide, 27B1(b) beside 27B1(a), fails here)."""
    expected = case[edition]
    # the fixture's own consistency: what decides is among what is cited
    assert [c for c in expected["decided_by"] if c not in expected["cites"]] == []
    reply = auction.rule(request(case, edition))
    assert reply["cites"] == expected["cites"], case["situation"]


def test_known_wrong_cites_name_real_cases():
    # a stale entry would hide nothing but still read as a known bug
    keys = {f"{c['id']} {e}" for c in CASES for e in EDITIONS}
    assert set(KNOWN_WRONG_CITES) <= keys, sorted(set(KNOWN_WRONG_CITES) - keys)


def _taken(edition: str) -> set[str]:
    taken = set()
    for case in CASES:
        taken.update(auction.rule(request(case, edition))["path"])
    return taken


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_branch_is_taken_by_some_case(edition):
    d = rulings_data.load("auction")[edition]
    branches = {f"{pointer}={value}" for pointer, node in rulings_data.all_nodes(d) for value in node.get("cases", {})}
    missing = sorted(branches - _taken(edition))
    assert not missing, missing


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_difference_between_editions_is_a_case(edition):
    # each case says what both editions give; the ones where they differ
    # (the provisions cited are not compared: their numbers differ, 16D and 16C)
    differing = [c["id"] for c in CASES if {k: v for k, v in c["2007"].items() if k not in ("decided_by", "cites")}
                 != {k: v for k, v in c["2017"].items() if k not in ("decided_by", "cites")}]
    assert len(differing) >= 20, differing


@pytest.mark.parametrize("edition", EDITIONS)
def test_trees_are_well_formed(edition):
    d = rulings_data.load("auction")[edition]
    assert d["edition"] == edition
    for pointer, node in rulings_data.all_nodes(d):
        shapes = [k for k in ("on", "use", "use_kind", "outcome") if k in node]
        assert len(shapes) == 1, pointer
        if "use" in node:
            assert node["use"] in d["subtrees"], pointer
        if "then" in node:
            assert node["then"] in d["subtrees"], pointer
        if "ask" in node:
            assert node["ask"]["kind"] in ("judgement", "fact", "option"), pointer
            assert node["ask"]["text"] and (node["ask"].get("cites") or node.get("cites")), pointer
        if "option" in node:
            assert set(node["option"]["choices"]) <= set(node["cases"]) | {"yes", "no"}, pointer
        o = node.get("outcome") or {}
        for key in ("offender_partner_must_pass", "offender_must_pass"):
            assert o.get(key, "none") in ("none", "once", "rest_of_auction"), pointer


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_cited_provision_exists_in_the_store(db, edition):
    # 2017: needs the full 2017 text (the pdf branch) in the store
    cited = rulings_data.cites(rulings_data.load("auction")[edition])
    missing = sorted(c for c in cited if db.execute(
        "select 1 from provisions where edition = ? and id = ?", [edition, c]).fetchone() is None)
    assert not missing, missing


def test_the_two_files_share_their_kinds_in_the_same_order():
    # so that `diff 2007.json 2017.json` shows only what the Laws changed
    a, b = (rulings_data.load("auction")[e] for e in EDITIONS)
    assert list(a["kinds"]) == list(b["kinds"])


@pytest.mark.parametrize("payload, field", [
    ("not an object", None),
    ({"edition": "1999", "dealer": "N", "calls": []}, "edition"),
    ({"edition": "2017", "dealer": "Q", "calls": []}, "dealer"),
    ({"edition": "2017", "dealer": "N", "calls": [["N", "1Z"]]}, "calls"),
    ({"edition": "2017", "dealer": "N", "calls": [["Q", "1H"]]}, "calls"),
    ({"edition": "2017", "dealer": "N", "calls": "1H"}, "calls"),
    ({"edition": "2017", "dealer": "N", "calls": [["N", "0C"]]}, "calls"),
    ({"edition": "2017", "dealer": "N", "calls": [], "findings": {"comparable": "yes"}}, "findings.comparable"),
    ({"edition": "2017", "dealer": "N", "calls": [], "findings": {"magic": True}}, "findings.magic"),
    ({"edition": "2017", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"]], "findings": {"replacement": "9Q"}},
     "findings.replacement"),
    ({"edition": "2017", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"], ["S", "P"]],
      "findings": {"accepted": False}}, "findings.accepted"),
    ({"edition": "2017", "dealer": "N", "calls": [], "findings": {"card": {"seat": "E", "cards": ["S1"]}}},
     "findings.card"),
    ({"edition": "2017", "dealer": "N", "calls": [["N", "1H"]], "findings": {"change": {"index": 5, "call": "2H"}}},
     "findings.change"),
    ({"edition": "2017", "dealer": "N", "calls": [], "colour": "red"}, "colour"),
])
def test_bad_input_names_the_field(payload, field):
    from laws.rulings import RulingError
    with pytest.raises(RulingError) as info:
        auction.rule(payload)
    assert info.value.field == field
    assert str(info.value)
