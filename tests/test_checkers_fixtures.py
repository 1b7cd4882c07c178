"""Checker cases in both duplicate codes (tests/fixtures/checkers.json: the
auction and dummy-designation, worked from the 2007 and 2017 texts), and the
edition a checker answers in: the code in force, read from the manifest,
with no edition id in the code."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from laws.checkers import codes, registry

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "checkers.json").read_text(encoding="utf-8"))
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CHECKER_CODE = Path(registry.__file__).parent


@pytest.mark.parametrize("edition", ["2017", "2007"])
@pytest.mark.parametrize("case", FIXTURES["cases"], ids=lambda c: f"{c['checker']}:{c['id']}")
def test_fixture_case(case, edition):
    out = registry.run(case["checker"], {**case["input"], "edition": edition})
    want = case[edition]
    got = {k: out["result"][k] for k in want["result"] if k != "irregularity_law"}
    if "irregularity_law" in want["result"]:
        irr = out["result"]["irregularity"]
        got["irregularity_law"] = irr["law"] if irr else None
    assert (out["edition"], got, out["cites"]) == (edition, want["result"], want["cites"])


def test_fixtures_cover_both_checkers_and_every_provision_they_cite_in_2017():
    for cid in ("auction", "dummy-designation"):
        cited = {p for c in FIXTURES["cases"] if c["checker"] == cid for p in c["2017"]["cites"]}
        declared = set(registry.get(cid).cites["2017"])
        # what no case reaches is named here, so a new provision is not left untested
        assert declared - cited == {"auction": {"18E", "19C"}, "dummy-designation": {"46A"}}[cid]


def test_46b4_says_invalid_in_2017_and_void_in_2007():
    """2017 46B4: 'the call is invalid'; 2007: 'the call is void'."""
    case = {"dummy": ["SK", "H9"], "trumps": "C", "designation": "card", "card": "SQ"}
    assert "the call is invalid" in registry.run("dummy-designation", {**case, "edition": "2017"})["explanation"]
    assert "the call is void" in registry.run("dummy-designation", {**case, "edition": "2007"})["explanation"]


# --- the code in force ---------------------------------------------------------

def test_no_edition_id_is_written_in_the_checkers_code():
    """Which edition applies, and what it cites, is data (laws/checkers/data)."""
    import re
    for path in CHECKER_CODE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"[\"'](2007|2017|1993-rubber)[\"']", text), path.name


def test_every_checker_answers_in_the_code_in_force_by_default():
    in_force = codes.from_manifest(CORPUS).in_force
    assert in_force == "2017"
    for c in registry.all_checkers():
        assert registry.run(c.id, c.example)["edition"] == in_force, c.id
        for name, prop in c.input_schema["properties"].items():
            if prop.get("x-edition"):
                assert prop["default"] == in_force and prop["enum"][0] == in_force


def test_the_default_follows_the_manifest(tmp_path, monkeypatch):
    """Mark 2007 in force in a copy of the corpus: every checker answers in 2007."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    manifest = corpus / "manifest.toml"
    text = manifest.read_text(encoding="utf-8").replace("in_force = true\n", "")
    manifest.write_text(text.replace('id = "2007"\n', 'id = "2007"\nin_force = true\n', 1), encoding="utf-8")
    monkeypatch.setenv("LAWS_CORPUS_DIR", str(corpus))
    for c in registry.all_checkers():
        out = registry.run(c.id, c.example)
        assert out["edition"] == "2007" and set(out["cites"]) <= set(c.cites["2007"]), c.id
    assert registry.run("revoke", {"won_by": "offending player", "later_tricks": 0})["cites"] == ["64A1", "64C"]


def test_a_new_code_with_its_data_file_becomes_the_default(tmp_path):
    """A 2027 code in force, and laws/checkers/data/2027.json (a copy of
    2017's): the checkers answer in 2027 with no change to the code."""
    folder = tmp_path / "data"
    shutil.copytree(codes.DATA, folder)
    data = json.loads((folder / "2017.json").read_text(encoding="utf-8"))
    data.update(edition="2027", title="Laws of Duplicate Bridge 2027")
    data["checkers"]["auction"]["law"]["passed_out"] = "22C"  # say 2027 renumbers it
    (folder / "2027.json").write_text(json.dumps(data), encoding="utf-8")
    corpus = codes.Codes(in_force="2027", years={"2007": 2007, "2017": 2017, "2027": 2027, "1993-rubber": 1993},
                         families={"2007": "duplicate", "2017": "duplicate", "2027": "duplicate",
                                   "1993-rubber": "rubber"})
    auction = registry.Checker("auction", "Auction", registry.get("auction").properties,
                               registry.get("auction").required, registry.get("auction").function, folder=folder)
    assert auction.editions_for(corpus) == ["2027", "2017", "2007"]
    assert auction.schema(corpus)["properties"]["edition"]["default"] == "2027"
    out = auction.function({"dealer": "N", "calls": ["P"] * 4}, auction.edition("2027"))
    assert out.cites == ["17B", "17C", "22C"]


def test_a_new_code_without_data_falls_back_to_the_newest_of_its_family():
    corpus = codes.Codes(in_force="2027", years={"2007": 2007, "2017": 2017, "2027": 2027, "1993-rubber": 1993},
                         families={"2007": "duplicate", "2017": "duplicate", "2027": "duplicate",
                                   "1993-rubber": "rubber"})
    assert registry.get("revoke").editions_for(corpus) == ["2017", "2007", "1993-rubber"]
    assert registry.run("board", {"board": 1}, corpus)["edition"] == "2017"


# --- laws.checkers.codes: the codes, and checkers carried into a new code ------------------

def test_the_codes_of_the_corpus_manifest():
    assert codes.from_manifest(CORPUS) == codes.Codes(
        in_force="2017", years={"2007": 2007, "2017": 2017, "1993-rubber": 1993},
        families={"2007": "duplicate", "2017": "duplicate", "1993-rubber": "rubber"})


def test_the_manifest_and_the_data_files_are_read_again_only_when_they_change(tmp_path):
    """Every checker run asks for the codes: the manifest is read once, and
    again when it changes (its mtime is part of the key); the data files once."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    manifest = corpus / "manifest.toml"
    first = codes.from_manifest(corpus)
    assert codes.from_manifest(corpus) is first and first.in_force == "2017"
    text = manifest.read_text(encoding="utf-8").replace("in_force = true\n", "")
    manifest.write_text(text.replace('id = "2007"\n', 'id = "2007"\nin_force = true\n', 1), encoding="utf-8")
    import os
    os.utime(manifest, ns=(manifest.stat().st_atime_ns, manifest.stat().st_mtime_ns + 10**9))
    assert codes.from_manifest(corpus).in_force == "2007"
    assert codes.editions() is codes.editions()


def test_a_corpus_without_a_manifest_is_refused_naming_it(tmp_path):
    from laws.model import SourceError

    with pytest.raises(SourceError) as info:
        codes.from_manifest(tmp_path)
    assert f"no manifest in {tmp_path}" in str(info.value)


def test_codes_from_the_stores_rows_or_the_manifests_editions():
    rows = [{"id": "2007", "year": 2007, "family": "duplicate", "in_force": 0},
            {"id": "2017", "year": 2017, "family": "duplicate", "in_force": 1}]
    made = codes.Codes.from_rows(rows, carried={"2027": {}})
    assert made == codes.Codes(in_force="2017", years={"2007": 2007, "2017": 2017},
                               families={"2007": "duplicate", "2017": "duplicate"}, carried={"2027": {}})
    assert codes.Codes.from_rows([]) == codes.Codes(in_force=None)
    none_in_force = codes.Codes.from_rows([dict(rows[0])])
    assert (none_in_force.in_force, none_in_force.carried) == (None, {})


def test_editions_newest_first_and_the_default_within_the_family():
    corpus = codes.Codes(in_force="2027", years={"2007": 2007, "2017": 2017, "1993-rubber": 1993},
                         families={"2007": "duplicate", "2017": "duplicate", "2027": "duplicate",
                                   "1993-rubber": "rubber"})
    assert corpus.order(["2007", "1993-rubber", "2017"]) == ["2017", "2007", "1993-rubber"]
    # no year known: by id, the newer year-numbered id first
    assert codes.Codes(in_force=None).order(["2007", "2017"]) == ["2017", "2007"]
    assert corpus.default(["2007", "2017", "1993-rubber"]) == "2017"  # the newest of the family in force
    assert corpus.default(["1993-rubber"]) == "1993-rubber"  # none of the family: the newest it has
    assert codes.Codes(in_force="1993-rubber", years=corpus.years, families=corpus.families).default(
        ["2007", "2017", "1993-rubber"]) == "1993-rubber"
    assert codes.Codes(in_force=None, years=corpus.years).default(["2007", "1993-rubber"]) == "2007"
    # a rubber code in force that the checker lacks: the newest rubber code it has, not a newer duplicate one
    rubber = codes.Codes(in_force="2030-rubber", years={**corpus.years, "2030-rubber": 2030},
                         families={**corpus.families, "2030-rubber": "rubber"})
    assert rubber.default(["2017", "2007", "1993-rubber"]) == "1993-rubber"


def test_a_data_file_naming_another_edition_is_refused(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(codes.DATA, folder)
    (folder / "2017.json").rename(folder / "2018.json")
    with pytest.raises(ValueError) as info:
        codes.editions(folder)
    assert str(info.value) == "2018.json says it is edition '2017'"


def test_the_checker_editions_are_those_with_its_data():
    assert sorted(codes.checker_editions("revoke")) == ["1993-rubber", "2007", "2017"]
    assert sorted(codes.checker_editions("imps")) == ["2007", "2017"]
    assert codes.checker_editions("imps")["2017"] == {"cites": ["78B"], "law": {"imps": "78B"}}
    assert "$comment" not in codes.schemas() and "revoke" in codes.schemas()


# 2017's revoke entry carried into a made-up 2027: provision -> (what it became, or
# None while it awaits review; what changed)
REVOKE_WAY = {"64A1": (["64A1", "64A3"], "split"), "64A2": (["64A2"], "the same"), "64B1": (None, "words changed"),
              "64B2": (["64B3"], "moved unchanged"), "64B3": (["64B4"], "moved unchanged"),
              "64B4": (["64B5"], "moved unchanged"), "64B5": (["64B6"], "moved unchanged"),
              "64B6": ([], "deleted"), "64B7": (["64B8"], "moved unchanged"), "64B8": (None, "words changed"),
              "64C1": (["64C1", "64C3"], "split"), "64C2(a)": (["64C2(a)"], "the same")}


def test_a_carried_entry_follows_each_provision_or_keeps_the_older_codes():
    entry = codes.checker_editions("revoke")["2017"]
    carried, notes = codes.carry_entry(entry, REVOKE_WAY, "2017", "2027")
    assert carried == {
        **entry,
        # 64B6 removed by review leaves the cites; 64C2(b) was not carried at all
        "cites": ["64A1", "64A3", "64A2", "2017:64B1", "64B3", "64B4", "64B5", "64B6", "64B8", "2017:64B8", "64C1", "64C3",
                  "64C2(a)", "2017:64C2(b)"],
        "law": {"offender_won": "64A1", "one_trick": "64A2", "no_trick": "2017:64B1", "twelfth": "2017:64B6"},
        "exceptions": {"subsequent": "64B3", "faced card": "64B4", "next deal": "64B5", "round ended": "64B6",
                       "both sides": "64B8", "corrected": "2017:64B8"},
        "redress": ["64C1", "64C3"],
        "redress_after": {"64B3": "64C2(a)", "64B8": "2017:64C2(b)"},
        "ruling": "/rulings/play?edition=2027"}
    # in the order the entry cites them (64B6, met under `law` after the cites, among them)
    assert list(notes.items()) == [("2017:64B1", "words changed"), ("2017:64B6", "deleted, removed by review"),
                                   ("2017:64B8", "words changed"), ("2017:64C2(b)", "64C2(b) was not carried")]
    assert entry["ruling"] == "/rulings/play?edition=2017"  # the older code's own entry unchanged


class _AllRenumbered(dict):
    """A way where every provision followed, each renumbered with a 'z' after it."""

    def get(self, pid, default=None):
        return [pid + "z"], "renumbered"


def test_a_carried_entry_changes_only_its_provisions_and_its_ruling():
    # penalty-card's entry holds lists of sentences (`follows`) and a sentence (`several`) beside its
    # cites, in lists and in a dict of kinds: they stay as written
    entry = codes.checker_editions("penalty-card")["2017"]
    carried, notes = codes.carry_entry(entry, _AllRenumbered(), "2017", "2027")
    z = lambda ids: [i + "z" for i in ids]  # noqa: E731
    assert carried == {**entry, "cites": z(entry["cites"]), "law": {k: v + "z" for k, v in entry["law"].items()},
                       "minor": {**entry["minor"], "cites": z(entry["minor"]["cites"])},
                       "major": {**entry["major"], "cites": z(entry["major"]["cites"])},
                       "ruling": "/rulings/play?edition=2027"}
    assert notes == {}


def test_a_note_on_a_provision_the_entry_does_not_cite_comes_last():
    # (and only the ruling's address moves to the new code, not a note quoting the older one's)
    entry = {"cites": ["78B", "78C"], "law": {"imps": "90A"}, "note": "as /rulings/play?edition=2017 rules",
             "ruling": "/rulings/play?edition=2017"}
    way = {"78B": (None, "B changed"), "78C": (None, "C changed"), "90A": (None, "A changed")}
    carried, notes = codes.carry_entry(entry, way, "2017", "2027")
    assert carried == {"cites": ["2017:78B", "2017:78C"], "law": {"imps": "2017:90A"},
                       "note": "as /rulings/play?edition=2017 rules", "ruling": "/rulings/play?edition=2027"}
    assert list(notes) == ["2017:78B", "2017:78C", "2017:90A"]


def _carried_store(rows):
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("create table editions (id text, title text)")
    conn.execute("insert into editions values ('2027', 'Laws of Duplicate Bridge 2027')")
    conn.execute("create table carried_cites (edition text, from_edition text, period text, node text, "
                 "provision text, to_provisions text, reviewed integer, change text)")
    conn.executemany("insert into carried_cites values (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return conn


def test_the_checkers_data_carried_into_a_code_from_the_store():
    conn = _carried_store([
        ("2027", "2017", "checkers", "/imps", "78B", None, 0, "78B has no counterpart in the 2027 Laws"),
        ("2027", "2017", "checkers", "/board", "2", '["2"]', 1, "the same"),
        ("2027", "2017", "auction", "/insufficient-bid", "27B", '["27B"]', 1, "the same"),  # a ruling's: not here
        ("2028", "1993-rubber", "checkers", "/imps", "78B", '["78B"]', 1, "x"),  # the rubber code has no imps
        ("2007", "2017", "checkers", "/imps", "78B", '["78B"]', 1, "x"),  # 2007 has its own imps
    ])
    carried = codes.carried_data(conn)
    tables = codes.editions()["2017"]["tables"]
    assert carried == {"2027": {
        "edition": "2027", "title": "Laws of Duplicate Bridge 2027", "tables": tables,
        "checkers": {"imps": {"cites": ["2017:78B"], "law": {"imps": "2017:78B"}},
                     "board": {"cites": ["2"], "law": {"board": "2"}}},
        "carried": {"from": "2017", "checkers": {"imps": {"notes": {"2017:78B": "78B has no counterpart in the "
                                                                                "2027 Laws"}},
                                                 "board": {"notes": {}}}}}}
    note = codes.carried_note(carried["2027"], "imps")
    assert note == {"carried_from": "2017", "reviewed": False,
                    "review": "not yet reviewed for 2027: 78B has no counterpart in the 2027 Laws"}
    assert codes.carried_note(carried["2027"], "board") == {"carried_from": "2017", "reviewed": True, "review": None}
    assert codes.carried_note(carried["2027"], "revoke") == {}
    assert codes.carried_note(codes.editions()["2017"], "imps") == {}


def test_a_store_without_carried_cites_carries_nothing():
    import sqlite3

    assert codes.carried_data(sqlite3.connect(":memory:")) == {}
    assert codes.carried_data(_carried_store([])) == {}


def test_a_carried_cite_awaiting_review_is_written_in_words():
    data = {"edition": "2027", "carried": {"from": "2017", "checkers": {
        "revoke": {"notes": {"2017:64B1": "words changed", "2017:64B10": "gone"}}}}}
    text = "Law 2017:64B1 and Law 2017:64B10 and 64B1"
    assert codes.carried_words(text, data, "revoke") == "Law 64B1 (2017 Laws) and Law 64B10 (2017 Laws) and 64B1"
    assert codes.carried_words(text, data, "imps") == text
    assert codes.carried_words(text, codes.editions()["2017"], "revoke") == text
    assert codes.qualified("2017", "77") == "2017:77"
