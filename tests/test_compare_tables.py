"""Tables in the comparison (laws/compare/changes.py, `attach_tables`): a
provision's printed tables are compared with it, cell by cell in reading
order, so a changed IMP value or score is a change of its provision even
where no word of its text changed."""
from __future__ import annotations

from laws import compare
from laws.compare import changes, stored
from laws.compare.text import tables_text

IMPS = ("IMP scale", ["Difference in points", "IMPs"], [["600–740", "12"], ["750–890", "13"], ["900–1090", "14"]])
TEXT = "In international matchpoint scoring, the difference is converted into IMPs by this scale."


def _provision(pid: str, text: str, tables=()) -> dict:
    p = {"id": pid, "heading": "", "text": text, "raw_text": text}
    if tables:
        p["tables"] = tables_text(list(tables))
    return p


def test_a_table_is_read_caption_header_then_rows_a_line_each():
    assert tables_text([IMPS, ("Notes", [], [["", "x"]])]) == (
        "IMP scale\nDifference in points IMPs\n600–740 12\n750–890 13\n900–1090 14\n\nNotes\nx")


def test_a_changed_cell_makes_its_provision_changed_with_the_cell_in_its_ops():
    new_imps = (IMPS[0], IMPS[1], [["600–740", "12"], ["750–890", "14"], ["900–1090", "14"]])
    found = changes.compare_law([_provision("78B", TEXT, [IMPS])], [_provision("78B", TEXT, [new_imps])])
    assert [(c["from_provision"], c["to_provision"], c["status"], c["text_changed"], c["minor"]) for c in found] == [
        ("78B", "78B", "changed", True, False)]
    assert found[0]["ops"] == [
        ["equal", TEXT], ["equal", "\n\n"],
        ["equal", "IMP scale\nDifference in points IMPs\n600–740 12\n750–890 "], ["delete", "13"], ["insert", "14"],
        ["equal", "\n900–1090 14"]]
    assert found[0]["raw_ops"] == found[0]["ops"]


def test_equal_tables_leave_a_provision_same_and_a_table_follows_a_move():
    same = changes.compare_law([_provision("78B", TEXT, [IMPS])], [_provision("78B", TEXT, [IMPS])])
    assert [(c["status"], c["text_changed"]) for c in same] == [("same", False)]
    moved = changes.compare_law([_provision("78B", TEXT, [IMPS])], [_provision("78C", TEXT, [IMPS])])
    assert [(c["from_provision"], c["to_provision"], c["status"], c["text_changed"]) for c in moved] == [
        ("78B", "78C", "moved", False)]


def test_a_table_only_one_side_prints_is_a_change_and_an_added_provision_brings_its_table():
    found = changes.compare_law([_provision("78B", TEXT)], [_provision("78B", TEXT, [IMPS]),
                                                            _provision("78C", "A new rule for the scale.", [IMPS])])
    assert [(c["to_provision"], c["status"]) for c in found] == [("78B", "changed"), ("78C", "added")]
    assert found[0]["ops"][-1] == ["insert", tables_text([IMPS])]
    # the table a paragraph of its own (the page cuts paragraphs at the equal break)
    assert found[1]["ops"] == [
        ["insert", "A new rule for the scale."], ["equal", "\n\n"], ["insert", tables_text([IMPS])]]


def test_2007_to_2017_law_78b_is_changed_by_its_imp_scale(db):
    """2017 prints a first row 0-10 -> 0 and '4000+' for 2007's '4000 & upward';
    the words of 78B are 2007's."""
    d = compare.diff(db, 78, "2007", "2017")
    assert [(c["from_provision"], c["to_provision"], c["status"]) for c in d["changes"]] == [
        ("78A", "78A", "same"), ("78B", "78B", "changed"), ("78C", "78C", "same"), ("78D", "78D", "same")]
    assert [op for op in d["changes"][1]["ops"] if op[0] != "equal"] == [
        ["insert", "0–10 0"], ["delete", " & upward"], ["insert", "+"]]
    assert d["status"] == "changed" and d["summary"] == "1 provision changed"
    assert d["account"]["text"] == "Changed: 78B. 78B: “& upward” → “+”."


def test_2007_to_2017_law_2s_tables_are_equal_and_follow_its_last_piece(db):
    d = compare.diff(db, 2, "2007", "2017")
    assert [(c["status"], c["text_changed"]) for c in d["changes"]] == [
        ("same", False), ("merged", False), ("merged", False)]
    assert [op[0] for op in d["changes"][-1]["ops"]][-1] == "equal"
    assert d["changes"][-1]["ops"][-1][1].endswith(
        "West Dealer Boards 4 8 12 16 Both Sides Vulnerable Boards 4 7 10 13")


def test_a_changed_number_in_a_table_is_no_changed_cross_reference():
    """'750–890 13' -> '14' is a changed value, not a citation of Law 13
    become one of Law 14 (which `text.citation_changes` would read in words)."""
    new_imps = (IMPS[0], IMPS[1], [["600–740", "12"], ["750–890", "14"], ["900–1090", "14"]])
    law_row, rows = stored.compare_pair_law("2017", "2027", 78, [_provision("78B", "See Law 13 here.", [IMPS])],
                                            [_provision("78B", "See Law 14 here.", [new_imps])],
                                            "Scoring", "Scoring", [])
    assert (law_row["status"], law_row["refs"], law_row["summary"]) == (
        "changed", '[["13", "14"]]', "1 provision changed; cross-reference 13 → 14")
    law_row, _ = stored.compare_pair_law("2017", "2027", 78, [_provision("78B", TEXT, [IMPS])],
                                         [_provision("78B", TEXT, [new_imps])], "Scoring", "Scoring", [])
    assert (law_row["status"], law_row["refs"], law_row["summary"]) == ("changed", "[]", "1 provision changed")
