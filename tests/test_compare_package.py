"""The laws.compare package module by module (issue 22), on the real corpus:
each stage's output for a real law, and the stages importing one way only
(text -> align -> changes -> summary -> overrides -> stored -> ondemand -> read).

Whole values on purpose: the restructure was to change nothing, and the
aligner's later changes should show here as the exact values they move."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from laws.compare import align, changes, ondemand, overrides, read, stored, summary, text
from laws.model import SourceError

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "laws" / "compare"
STAGES = ["text", "align", "changes", "summary", "overrides", "stored", "ondemand", "account", "read"]


def _text(db, edition: str, pid: str) -> str:
    return db.execute("select text from provisions where edition = ? and id = ?", [edition, pid]).fetchone()[0]


def _law(db, number: int, old: str, new: str):
    """(laws, provisions) of one law of two editions, as the build reads them."""
    _eds, laws, provisions = stored.read_store(db, number, (old, new))
    return laws, provisions


# ---------------------------------------------------------------- text

def test_text_normalise_unifies_quote_marks_of_a_real_provision(db):
    assert _text(db, "2007", "9A4").count("’") == 2
    assert text.normalise(_text(db, "2007", "9A4")) == (
        "There is no obligation to draw attention to an infraction of law committed by one's own side "
        "(but see Law 20F5 for correction of partner's apparently mistaken explanation).")
    assert text.normalise("  a\u00a0 ‘quoted’ – \n text ") == "a 'quoted' - text"


def test_text_word_ops_of_law_34_and_back(db):
    ops = text.word_ops(_text(db, "2007", "34"), _text(db, "2017", "34"))
    head = "When following a call there have been three consecutive passes, one or more being out of rotation, Law "
    assert ops == [["equal", head], ["delete", "17E2"], ["insert", "17D3"], ["equal", " applies."]]
    assert text.citation_changes(ops) == [("17E2", "17D3")]
    assert text.reverse_ops(ops) == [["equal", head], ["delete", "17D3"], ["insert", "17E2"], ["equal", " applies."]]
    same = _text(db, "2007", "33")
    assert text.word_ops(same, same) == [["equal", same]]


def test_text_a_citation_that_became_relative_or_lost_its_law_word_is_a_changed_cross_reference(db):
    # 2007 30A 'and Law 23 may apply' -> 2017 30A 'and Law 72C may apply' (Law 23 moved into 72C)
    ops = text.word_ops(_text(db, "2007", "30A"), _text(db, "2017", "30A"))
    assert ("23", "72C") in text.citation_changes(ops)
    # 2007 79B2 'If 1 does not apply' -> 2017 79B2 'If B1 above does not apply'
    ops = text.word_ops(_text(db, "2007", "79B2"), _text(db, "2017", "79B2"))
    assert text.citation_changes(ops) == [("1", "B1 above")]
    assert text.citation_changes(text.word_ops("as in Law 45E.", "as in E following.")) == [("45E", "E following")]
    assert text.citation_changes(text.word_ops("see Law 12C1 for", "see C1 above for")) == [("12C1", "C1 above")]
    assert text.citation_changes(text.word_ops("the play of the hand", "the play of a hand")) == []


# ---------------------------------------------------------------- align

def test_align_law_35_numbered_items_to_lettered_ones(db):
    _laws, provisions = _law(db, 35, "2007", "2017")
    a, b = align.units(provisions[("2007", 35)]), align.units(provisions[("2017", 35)])
    assert [(u.pid, u.para, u.kind, u.pos) for u in a] == [
        ("35", 0, "text", 0.0), ("35.1", 0, "text", 0.25), ("35.2", 0, "text", 0.5),
        ("35.3", 0, "text", 0.75), ("35.4", 0, "text", 1.0)]
    groups = align.align(a, b)
    # in the order made: the exact match first, then best first (ties: the later unit)
    assert [([u.pid for u in g.a], [u.pid for u in g.b], g.how, g.score) for g in groups] == [
        (["35"], ["35"], "auto", 100.0), (["35.4"], ["35D"], "auto", 100.0), (["35.3"], ["35C"], "auto", 100.0),
        (["35.2"], ["35B"], "auto", 100.0), (["35.1"], ["35A"], "auto", 100.0)]
    assert align.expand(groups) == groups


def test_align_override_and_split_of_rubber_law_44(db):
    """Rubber 44 is one provision of three paragraphs; 2007 cuts it into 44A-44G.
    The corpus's override sends its third paragraph to 44E-44G."""
    _laws, provisions = _law(db, 44, "1993-rubber", "2007")
    mine = [o for o in overrides.load_overrides(ROOT / "corpus") if (o["from"], o["to"], o["from_law"]) ==
            ("1993-rubber", "2007", 44)]
    a, b = align.units(provisions[("1993-rubber", 44)]), align.units(provisions[("2007", 44)])
    assert [(u.pid, u.para) for u in a] == [("44", 0), ("44", 1), ("44", 2)]
    groups = align.align(a, b, mine)
    assert sorted(([u.para for u in g.a], [u.pid for u in g.b], g.how) for g in groups) == [
        ([0], ["44A", "44B"], "contained"), ([1], ["44C", "44D"], "contained"),
        ([2], ["44E", "44F", "44G"], "override")]
    pieces = align.expand(groups)
    # one piece per 2007 provision, each knowing the whole it is part of
    assert sorted((g.how, [u.pid for u in g.a], [u.pid for u in g.b], g.whole[1]) for g in pieces) == [
        ("split", ["44"], ["44A"], ["44A", "44B"]), ("split", ["44"], ["44B"], ["44A", "44B"]),
        ("split", ["44"], ["44C"], ["44C", "44D"]), ("split", ["44"], ["44D"], ["44C", "44D"]),
        ("split", ["44"], ["44E"], ["44E", "44F", "44G"]), ("split", ["44"], ["44F"], ["44E", "44F", "44G"]),
        ("split", ["44"], ["44G"], ["44E", "44F", "44G"])]


# ---------------------------------------------------------------- changes

def test_changes_of_law_36_2007_to_2017(db):
    _laws, provisions = _law(db, 36, "2007", "2017")
    found = changes.compare_law(provisions[("2007", 36)], provisions[("2017", 36)])
    assert [(c["from_provision"], c["to_provision"], c["status"], c["ord"], c["rev_ord"], c["score"], c["how"])
            for c in found] == [
        # the score is the text evidence: the mean of fuzz.ratio and the TF-IDF cosine
        ("36A", "36A", "changed", 0, 0, 98.8, "auto"), ("36B", "36B", "same", 1, 1, 100.0, "auto"),
        ("36B1", "36B1", "same", 2, 2, 100.0, "auto"), ("36B2", "36B2", "same", 3, 3, 100.0, "auto"),
        ("36B3", "36B3", "changed", 4, 4, 83.3, "auto"), ("36B4", "36B4", "changed", 5, 5, 96.4, "auto"),
        (None, "36C", "added", 6, 6, 0.0, "auto")]
    assert found[1]["ops"] == found[1]["raw_ops"] and found[1]["ops"][0][0] == "equal"
    assert (found[6]["text_changed"], found[6]["minor"], found[6]["part_of"]) == (False, False, None)


# ---------------------------------------------------------------- summary

def test_summary_of_law_36_and_of_law_34(db):
    _laws, provisions = _law(db, 36, "2007", "2017")
    found = changes.compare_law(provisions[("2007", 36)], provisions[("2017", 36)])
    counts = summary.counts(found)
    assert counts == {"same": 3, "changed": 3, "moved": 0, "split": 0, "merged": 0, "added": 1, "removed": 0}
    assert summary.summary(counts) == "3 provisions changed, 1 added"
    assert summary.law_status(found, False) == "changed"
    assert summary.summary({"changed": 1}, False, [("17E2", "17D3")]) == \
        "1 provision changed; cross-reference 17E2 → 17D3"
    refs = [(f"{n}A", f"{n}B") for n in range(1, 7)]
    assert summary.summary({"added": 2}, True, refs) == (
        "2 provisions added, title changed; cross-references 1A → 1B, 2A → 2B, 3A → 3B, 4A → 4B and 2 more")


# ---------------------------------------------------------------- overrides

def test_overrides_read_from_the_corpus_and_checked(db):
    found = overrides.load_overrides(ROOT / "corpus")
    # `law` is read as both `from_law` and `to_law` (an override may cross laws)
    assert [(o["from"], o["to"], o["from_law"], o["to_law"], o["from_provisions"], o["to_provisions"])
            for o in found] == [
        ("1993-rubber", "2007", 44, 44, ["44#3"], ["44E", "44F", "44G"]),
        ("1993-rubber", "2007", 64, 64, ["64(b)", "64(c)", "64(c)(i)"], ["64A2"]),
        ("1993-rubber", "2017", 64, 64, ["64(b)", "64(c)", "64(c)(i)"], ["64A2"]),
        ("2007", "2017", 31, 31, ["31B"], ["31B", "31B1"]),
        ("2007", "2017", 32, 32, ["32A"], ["32B", "32B1"])]
    _eds, laws, provisions = stored.read_store(db)
    overrides.check_overrides(found, laws, provisions)  # the corpus's own fit the store
    stale = dict(found[0], from_provisions=["44#4"])  # rubber 44 has three paragraphs
    with pytest.raises(SourceError, match="provision 44 of edition '1993-rubber'"):
        overrides.check_overrides([stale], laws, provisions)
    assert overrides.load_overrides(None) == []


# ---------------------------------------------------------------- stored

def test_stored_rows_of_law_34_are_what_the_build_wrote(db):
    # the build aligns successive codes whole (a provision may move to another law)
    _eds, laws, provisions = stored.read_store(db)
    law_rows, rows, _notes = stored._compare_pair(
        (laws, provisions, overrides.load_overrides(ROOT / "corpus")), (("2007", "2017"), [34]))
    law_row, align_rows = law_rows[0], rows
    assert law_row == dict(db.execute(
        "select * from law_comparisons where from_edition = '2007' and to_edition = '2017' and law = 34").fetchone())
    # the store says each evidence once (alignment_evidence), a law's rows in
    # one row of law_changes by its id (stored.stored_rows reads them back)
    assert align_rows == stored.stored_rows(db, "2007", "2017", 34)
    assert db.execute("select count(*) = count(distinct text) from alignment_evidence").fetchone()[0] == 1
    assert {k: law_row[k] for k in ("status", "changed", "same", "refs", "title_ops", "summary")} == {
        "status": "changed", "changed": 1, "same": 0, "refs": '[["17E2", "17D3"]]', "title_ops": "[]",
        "summary": "1 provision changed; cross-reference 17E2 → 17D3"}
    # packed (stored.pack_ops): 103 characters of 2017 34 kept, '17E2' deleted, 4 inserted, 9 kept;
    # one provision a side, so no list of them
    assert {k: align_rows[0][k] for k in ("from_provisions", "part_of", "ops", "ops_at", "raw_ops", "raw_at")} == {
        "from_provisions": None, "part_of": "null", "ops": '[103,"17E2",-4,9]', "ops_at": 0,
        "raw_ops": None, "raw_at": 0}


def test_stored_pairs_are_successive_codes_of_a_family(db):
    editions, laws, _provisions = stored.read_store(db)
    assert stored.successive_pairs(editions, laws) == {("2007", "2017"): list(range(1, 94))}
    assert list(stored.editions_by_id(db)) == ["2007", "2017", "1993-rubber", "dbrs-2017"]


# ---------------------------------------------------------------- ondemand

def test_ondemand_computes_a_pair_the_build_did_not_store(db):
    assert db.execute("select count(*) from law_comparisons where from_edition = '1993-rubber'").fetchone()[0] == 0
    law_row, rows = ondemand.compute_law(db, "1993-rubber", "2007", 59)
    assert (law_row["summary"], [(r["from_provision"], r["to_provision"], r["status"], r["score"]) for r in rows]) \
        == ("1 provision changed", [("59", "59", "changed", 97.0)])
    assert ondemand.law_data(db, "1993-rubber", "2007", 59) == (law_row, rows)
    assert ondemand.compute_law(db, "2017", "dbrs-2017", 1) is None  # a guide is not compared
    assert ondemand.compute_law(db, "1993-rubber", "2007", 12) is None  # the rubber code has no Law 12 here


# ---------------------------------------------------------------- read

def test_read_diff_of_an_unstored_pair_both_ways(db):
    d = read.diff(db, 59, "1993-rubber", "2007")
    assert (d["summary"], d["status"], d["references"], d["title_ops"]) == ("1 provision changed", "changed", [], [])
    head = "A player may play any otherwise legal card if he is unable to lead or play as required to comply with a "
    assert d["changes"][0]["ops"][:3] == [["equal", head], ["delete", "penalty"], ["insert", "rectification"]]
    back = read.diff(db, 59, "2007", "1993-rubber")
    assert back["changes"][0]["ops"][:3] == [["equal", head], ["delete", "rectification"], ["insert", "penalty"]]

    split = read.diff(db, 44, "1993-rubber", "2007")
    merged = read.diff(db, 44, "2007", "1993-rubber")
    assert [(c["to_provision"], c["how"], c["part_of"]["to_provisions"]) for c in split["changes"]] == [
        ("44A", "split", ["44A", "44B"]), ("44B", "split", ["44A", "44B"]), ("44C", "split", ["44C", "44D"]),
        ("44D", "split", ["44C", "44D"]), ("44E", "split", ["44E", "44F", "44G"]),
        ("44F", "split", ["44E", "44F", "44G"]), ("44G", "split", ["44E", "44F", "44G"])]
    assert [(c["from_provision"], c["how"], c["part_of"]["from_provisions"]) for c in merged["changes"]] == [
        (c["to_provision"], "merged", c["part_of"]["to_provisions"]) for c in split["changes"]]
    # one rubber provision into seven: `split` one way, `merged` the other
    assert (split["summary"], merged["summary"]) == ("7 provisions split", "7 provisions merged")
    assert split["changes"][4]["override"].startswith("The rubber code's last paragraph of Law 44")


def test_read_overview_and_history_of_an_unstored_pair(db):
    o = read.overview(db, "2007", "1993-rubber")
    assert (len(o["laws"]), o["only_to"], o["only_from"][:3]) == (31, [], [1, 2, 3])
    assert o["laws"][18] == read.law_comparison(db, "2007", "1993-rubber", 59)
    assert o["laws"][18]["summary"] == "1 provision changed"
    h = read.history(db, "2007", 59)
    assert [(e["edition"], e["provision"], e["status"]) for e in h["59"]] == [
        ("1993-rubber", "59", "changed"), ("2017", "59", "same")]


# ---------------------------------------------------------------- import direction

def _imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (imports inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x / from .x import y
                base = "laws.compare" + (f".{base}" if base else "")
                found |= {f"{base}.{a.name}" for a in node.names} if not node.module else {base}
            else:
                found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return found


def test_the_package_has_the_stages_and_nothing_else():
    assert sorted(p.stem for p in PACKAGE.glob("*.py")) == sorted(STAGES + ["__init__"])


@pytest.mark.parametrize("stage", STAGES)
def test_a_stage_imports_only_earlier_stages_and_never_the_web(stage):
    imported = _imports(PACKAGE / f"{stage}.py")
    assert not [m for m in imported if m == "laws.web" or m.startswith("laws.web.")]
    package = {m.split(".")[2] for m in imported if m.startswith("laws.compare.")}
    assert "laws.compare" not in imported  # the package's __init__ imports the stages, never the reverse
    later = set(STAGES[STAGES.index(stage):])
    assert package & later == set(), f"{stage} imports {package & later}"
