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


# --- laws.rulings.data: the files, the carried trees, the cites ------------------------

@pytest.mark.parametrize("cite, split, law", [
    ("45F", (None, "45F"), 45),
    ("2017:45F", ("2017", "45F"), None),          # a carried cite awaiting review: the older code's
    ("1993-rubber:64(a)", ("1993-rubber", "64(a)"), None),
    ("2017:", (None, "2017:"), 2017),             # no provision after the colon: not another code's
    ("definitions:Dummy", (None, "definitions:Dummy"), None),
    ("Definitions", (None, "Definitions"), None),
])
def test_a_cite_of_the_code_or_of_an_older_one(cite, split, law):
    assert (rulings_data.split_cite(cite), rulings_data.law_of(cite)) == (split, law)


def test_an_older_codes_cite_is_labelled_as_such():
    assert rulings_data.older_label("2017:45F", "2027") == "Law 45F of the 2017 Laws (not yet reviewed for 2027)"


def test_the_editions_with_rulings_newest_first_without_a_store():
    assert rulings_data.editions("auction") == ["2017", "2007"]
    assert rulings_data.editions("play") == ["2017", "2007", "1993-rubber"]
    assert rulings_data.load("auction") is rulings_data.files_data("auction")  # the files alone


def test_a_path_that_is_no_store_carries_nothing(tmp_path):
    missing, empty = str(tmp_path / "none.sqlite"), tmp_path / "empty.sqlite"
    import sqlite3
    sqlite3.connect(empty).close()
    for store in (missing, str(empty)):
        assert rulings_data._carried("auction", store) == {}
        assert rulings_data._listing(store) == []
        assert rulings_data.load("auction", store) == rulings_data.files_data("auction")
        assert rulings_data.editions("auction", store) == ["2017", "2007"]


CARRIED_2027 = {"edition": "2027", "carried": {"from": "2017", "notes": {}}, "kinds": {}}


def _store_carrying_2027(path):
    """A store of three codes (2017 in force, 2027 published, 2007 superseded)
    whose 2027 has auction rulings carried from 2017 (and a tree carried into
    2017, which has a file of its own)."""
    import sqlite3
    with sqlite3.connect(path) as conn:
        conn.execute("create table editions (id, status, in_force_from, year, ord)")
        conn.executemany("insert into editions values (?, ?, ?, ?, ?)",
                         [("2007", "superseded", "2008-01-01", 2007, 0), ("2017", "in force", "2017-09-01", 2017, 1),
                          ("2027", "published", "2028-01-01", 2027, 2)])
        conn.execute("create table carried_rulings (edition, period, from_edition, rules_of, data)")
        conn.executemany("insert into carried_rulings values (?, 'auction', '2017', '2017', ?)",
                         [("2027", json.dumps(CARRIED_2027)), ("2017", json.dumps({"edition": "2017", "kinds": {}}))])
    conn.close()
    return path


def test_a_store_carries_trees_into_a_code_without_files_listed_in_the_sites_order(tmp_path):
    """A store's carried trees join the files' (a file wins over a tree carried
    into its own edition), and the editions come in the order the site lists
    them (the code in force, then a published one), not newest first."""
    store, carried = _store_carrying_2027(tmp_path / "store.sqlite"), CARRIED_2027
    files = rulings_data.files_data("auction")
    assert rulings_data.load("auction", store) == {"2027": carried, "2017": files["2017"], "2007": files["2007"]}
    assert rulings_data.editions("auction", store) == ["2017", "2027", "2007"]
    # a store is never changed once built (a rebuild is a new path): what it holds is read once,
    # and served on from memory by workers that still name it while a rebuild replaces it
    store.unlink()
    assert rulings_data.load("auction", store)["2027"] == carried
    assert rulings_data.editions("auction", store) == ["2017", "2027", "2007"]
    assert rulings_data.laws_cited("auction") is rulings_data.laws_cited("auction")
    assert rulings_data.editions("auction") == ["2017", "2007"]  # no store served: the files alone
    before = rulings_data._served  # (an app made by another test may have named its own store)
    rulings_data.store_from(lambda: store)
    try:
        assert rulings_data.served_store() == str(store)
        assert rulings_data.editions("auction") == ["2017", "2027", "2007"]
    finally:
        rulings_data.store_from(before)


def test_the_trees_and_editions_of_at_most_16_stores_are_kept(tmp_path):
    """Each worker keeps what it read of the last 16 stores it served (a
    rebuild is a new store), and forgets the least recently used beyond."""
    stores = [_store_carrying_2027(tmp_path / f"store{i}.sqlite") for i in range(17)]
    for store in stores[:16]:
        assert "2027" in rulings_data.load("auction", store)
        assert rulings_data.editions("auction", store) == ["2017", "2027", "2007"]
    for store in stores[:16]:
        store.unlink()  # from now on only a store still kept in memory has anything to give
    assert "2027" in rulings_data.load("auction", stores[0])  # the 16th most recent: kept
    assert rulings_data.editions("auction", stores[0]) == ["2017", "2027", "2007"]
    assert "2027" in rulings_data.load("auction", stores[16])  # read: store1, now the least recent, is dropped
    assert rulings_data.editions("auction", stores[16]) == ["2017", "2027", "2007"]
    assert "2027" not in rulings_data.load("auction", stores[1])
    assert rulings_data.editions("auction", stores[1]) == ["2017", "2007"]
    assert (rulings_data._listing(str(stores[0])), rulings_data._listing(str(stores[1]))) == (["2017", "2027", "2007"], [])


def test_serving_a_store_for_a_block(tmp_path):
    assert rulings_data.served_store() is None
    with rulings_data.serving(tmp_path / "store.sqlite"):
        assert rulings_data.served_store() == str(tmp_path / "store.sqlite")
        with rulings_data.serving(None):
            assert rulings_data.served_store() is None
        assert rulings_data.served_store() == str(tmp_path / "store.sqlite")
    assert rulings_data.served_store() is None


def test_a_data_file_naming_another_edition_is_refused(tmp_path, monkeypatch):
    import shutil
    shutil.copytree(rulings_data.HERE / "auction", tmp_path / "auction")
    (tmp_path / "auction" / "2017.json").rename(tmp_path / "auction" / "2018.json")
    monkeypatch.setattr(rulings_data, "HERE", tmp_path)
    assert list(rulings_data.files("auction")) == ["2007", "2018"]
    with pytest.raises(ValueError) as info:
        rulings_data.files_data.__wrapped__("auction")
    assert str(info.value) == "2018.json says it is edition '2017'"


# every place a tree cites: a kind's cites, a node's, its question's, its outcome's and
# the outcome's parts; and a shared subtree's
TREE = {"kinds": {"k": {"cites": ["1"], "tree": {
    "cites": ["2"], "ask": {"cites": ["3"]},
    "cases": {"yes": {"outcome": {"cites": ["4"], "lead_restrictions": {"cites": ["5"]},
                                  "score_adjustment": {"cites": ["6"]}, "information": {"cites": ["7"]}}},
              "no": {"cases": {"x": {"cites": ["2017:8"]}}}}}}},
        "subtrees": {"s": {"cites": ["9A"], "cases": {"a": {"outcome": {"cites": ["10"]}}}}}}


def test_every_node_and_every_cite_of_a_tree():
    assert [p for p, _ in rulings_data.all_nodes(TREE)] == [
        "kinds/k/tree", "kinds/k/tree/cases/yes", "kinds/k/tree/cases/no", "kinds/k/tree/cases/no/cases/x",
        "subtrees/s", "subtrees/s/cases/a"]
    assert rulings_data.cites(TREE) == {"1", "2", "3", "4", "5", "6", "7", "2017:8", "9A", "10"}


def test_the_laws_the_auction_rulings_cite():
    assert rulings_data.laws_cited("auction")["2017"] == {16, 17, 18, 19, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                                          32, 33, 34, 35, 36, 37, 38, 39, 50, 51, 72}


def test_a_carried_rulings_review_names_what_waits_in_the_order_cited():
    data = {"edition": "2027", "carried": {"from": "2017", "notes": {
        "2017:45F": "45F became 45G, words changed", "2017:27B": "27B words changed"}}}
    reply = {"cites": ["27A", "2017:27B"], "options": [{"cites": ["2017:45F", "2017:27B"]}],
             "outcome": {"lead_restrictions": {"cites": [3, "27C"]}}}
    assert rulings_data.review_of(data, reply) == {
        "carried_from": "2017", "reviewed": False,
        "review": "not yet reviewed for 2027: 27B words changed; 45F became 45G, words changed"}
    assert rulings_data.review_of(data, {"cites": ["27A"]}) == {"carried_from": "2017", "reviewed": True,
                                                               "review": None}
    assert rulings_data.review_of(rulings_data.load("auction")["2017"], reply) == {}


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
