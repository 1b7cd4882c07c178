"""Tables found by their shape in a law's lines (laws.parsers.pdf_tables),
whatever order an extractor wrote their cells in.  The real tables (2017's,
and a whole code with 2007's order) are checked cell by cell in
tests/test_parse_acbl_2017.py and tests/test_pdf_new_edition.py; here, the
orders and the refusals, on lines made for each case."""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from laws.model import SourceError
from laws.parsers import pdf_tables

DEALERS = ["North Dealer", "East Dealer", "South Dealer", "West Dealer"]
SIDES = ["Neither Side Vulnerable", "North-South Vulnerable", "East-West Vulnerable", "Both Sides Vulnerable"]
# the Laws' board table: [half][row] -> its four boards
GRID = [[[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]],
        [[1, 8, 11, 14], [2, 5, 12, 15], [3, 6, 9, 16], [4, 7, 10, 13]]]
ROWS = [[DEALERS[r], "Boards", *map(str, GRID[0][r]), SIDES[r], "Boards", *map(str, GRID[1][r])] for r in range(4)]


def ctx():
    return SimpleNamespace(file="x.txt", out=SimpleNamespace(corrections=[]))


def run(lines: list[str], law: int = 2):
    """extract() on `lines`: (the tables, the lines left)."""
    groups, left = pdf_tables.extract(ctx(), "2027", law, list(enumerate(lines, 1)))
    return [t for g in groups.values() for t in g.tables], [s for _, s in left]


def written_out(nesting: tuple[str, ...]) -> list[str]:
    sizes = {"half": 2, "row": 4, "column": 4}
    return [str(GRID[at["half"]][at["row"]][at["column"]])
            for index in itertools.product(*(range(sizes[k]) for k in nesting))
            for at in [dict(zip(nesting, index))]]


@pytest.mark.parametrize("nesting", list(itertools.permutations(("half", "row", "column"))))
def test_the_board_table_in_any_order_of_its_numbers(nesting):
    tables, left = run(["The dealer and vulnerability are designated as follows:", *DEALERS, *SIDES,
                        *["Boards"] * 8, *written_out(nesting), "The same sequence is repeated."])
    assert [(t.caption, t.header, t.rows) for t in tables] == [("Dealer and vulnerability", [], ROWS)]
    assert left[0] == "The dealer and vulnerability are designated as follows:" and left[2:] == [
        "The same sequence is repeated."]
    assert pdf_tables.MARK.fullmatch(left[1])


def test_a_table_run_into_the_text_after_it():
    """A page number removed between the last cells and the next sentence
    joined them on one line: the sentence is kept as text."""
    tables, left = run([" ".join(DEALERS), "Boards " * 4, " ".join(written_out(("half", "row", "column"))[:16]),
                        " ".join(SIDES), "Boards " * 4,
                        " ".join(written_out(("half", "row", "column"))[16:]) + " The same sequence is repeated."])
    assert tables[0].rows == ROWS and left[1:] == ["The same sequence is repeated."]


def test_board_numbers_two_orders_would_fit_are_refused():
    """Each row of each half rising 1 2 3 4 ... reads as well row by row as
    column by column: which boards a row holds cannot be told."""
    numbers = [str(n) for n in range(1, 17)] * 2
    with pytest.raises(SourceError, match="its board numbers can be read more than one way"):
        run([*DEALERS, *SIDES, *["Boards"] * 8, *numbers])


IMPS = [("20", "40", "1"), ("50", "80", "2"), ("90", "120", "3"), ("130", "160", "4"), ("170", "210", "5"),
        ("220", "260", "6"), ("270", "310", "7"), ("320", "360", "8"), ("370", "420", "9"), ("430", "490", "10"),
        ("500", "590", "11")]


def test_the_imp_scale_under_a_header_over_each_block():
    """Two blocks of columns, each under its header; a range and its IMPs on
    one line or two; the last range open."""
    first = [f"{a}\xad{b} {i}" for a, b, i in IMPS[:6]]
    second = [cell for a, b, i in IMPS[6:] for cell in (f"{a}\xad{b}", i)]
    tables, left = run(["Difference", "in points IMPs", *first, "Difference", "in points IMPs", *second,
                        "600 & upward", "12", "C. Text after the table."], law=78)
    assert [(t.header, t.rows) for t in tables] == [(["Difference in points", "IMPs"], [
        *([f"{a}–{b}", i] for a, b, i in IMPS), ["600 & upward", "12"]])]
    assert left[1:] == ["C. Text after the table."]


def test_imps_that_fall_are_refused():
    lines = [f"{a}\xad{b} {i if i != '4' else '2'}" for a, b, i in IMPS]
    with pytest.raises(SourceError, match=r"2027 Law 78: the IMP table cannot be rebuilt: the IMPs fall from 3 "):
        run(lines, law=78)


def test_a_scoring_table_with_its_columns_after_its_rows():
    """Overtricks as one extractor writes them: the first column beside its
    labels, the second after the rows; a sentence after the table is text."""
    tables, left = run(["Overtricks", "For each", "Not Vulnerable", "Undoubled", "20", "Doubled", "100",
                        "Redoubled", "200", "Vulnerable", "30 200 400", "Bonus Tricks",
                        "For making anything", "50", "For making more 100", "For making", "all", "150",
                        "For making some", "75",
                        "A trick score of less than 100 points is a PARTSCORE."], law=77)
    assert [(t.caption, t.header, t.rows) for t in tables] == [
        ("Overtricks", ["For each", "Not Vulnerable", "Vulnerable"],
         [["Undoubled", "20", "30"], ["Doubled", "100", "200"], ["Redoubled", "200", "400"]]),
        ("Bonus Tricks", [], [["For making anything", "50"], ["For making more", "100"], ["For making all", "150"],
                          ["For making some", "75"]])]
    assert left[1:] == ["A trick score of less than 100 points is a PARTSCORE."]


def test_a_law_that_only_names_the_doublings_has_no_table():
    lines = ["A. Undoubled, Doubled or Redoubled, Vulnerable or not, a contract scores 20 or 30 a trick."]
    assert run(lines, law=19) == ([], lines)
