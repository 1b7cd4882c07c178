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
