"""Adding an edition from a PDF, as README's "Adding an edition from a PDF"
says: a small made-up code with the damage a PDF text extractor leaves (page
numbers after form feeds, a table of contents, run-in headings, numbered items
on one line, a footnote whose mark is glued to a word, lost ligatures, a soft
hyphen for a dash, Latin-1 bytes) is dropped into a fresh corpus folder with
its manifest entries, built, and read back from the store.

Then a whole made-up 2027 code: the 2017 PDF text with its tables (Laws 2, 77,
78B) laid out in the order the 2007 source gives its cells, one table split by
a page break, one IMP value and one score value changed
(tests/data/pdf-2027-tables.txt), added to a copy of the real corpus with no
change to the code: its tables are found by their shape, every cell checked."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from laws import store
from laws.build import build, current_store
from laws.model import SourceError
from tests.conftest import CORPUS

DATA = Path(__file__).resolve().parent / "data"

# What pdftotext writes for a two-law book (\f: its page breaks).
BOOK = (
    "The Laws of Widgets\n2027 Edition\n\n"
    "\fi\nPreface to the 2027 Laws of Widgets\nThese Laws were drafted with great e ort.\n\n"
    "\fii\nTable of Contents\nDefinitions\nLAW 1 - THE WIDGET\nA. First Part B. Second\nPart\n"
    "LAW 2 - THE GADGET\nIndex to Widgets\n\nii\n1 1 2\n2\n\n"
    "\f1\nDefinitions\nWidget: A thing used in play (see Law 1).\nGadget: Another thing.\n\n"
    "\f2\nLAW 1\nTHE WIDGET\n"
    "A. First Part The players use a widget1 to e ect the play. 1. When a player o ends, the Director "
    "is called. 2.(a) The o ender pays. (b) The Director\n"
    "1 A widget is not a gadget.\n\n"
    "\f3\nrecords the payment (see A1 above). 3. Nothing in Law 2 or in 13 cards applies.\n"
    "B. Second Part See Law 2.\n"
    "LAW 2\nTHE GADGET\nA gadget \xad see Law 1A2(b) \xad is optional.\n\n"
    "\f4\nIndex to Widgets\nWidget 1A\n"
).encode("latin-1")

MANIFEST = """
[[edition]]
id = "2027"
title = "Laws of Widgets 2027"
year = 2027
kind = "code"
family = "widgets"
publisher = "The Widget Federation"
laws = "1-2"
description = "A made-up code for the tests."

[[source]]
file = "widgets-2027.txt"
edition = "2027"
title = "Laws of Widgets 2027, text extracted from its PDF"
kind = "code"
parser = "pdf"
encoding = "latin-1"
laws = "1-2"
provenance = "Made up for the tests."
attribution = "© nobody"
"""


def add_edition(corpus: Path, file: str, book: bytes, entries: str) -> None:
    """What the organiser does: the file dropped into the corpus folder, its
    [[edition]] and [[source]] entries appended to the manifest."""
    (corpus / file).write_bytes(book)
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        f.write(entries)


@pytest.fixture(scope="module")
def widgets(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("corpus")
    add_edition(corpus, "widgets-2027.txt", BOOK, MANIFEST)
    data = tmp_path_factory.mktemp("data")
    lines = []
    build(corpus, data, echo=lines.append)
    conn = store.connect(current_store(data))
    yield conn, lines
    conn.close()


def test_the_build_reports_the_new_edition(widgets):
    _, lines = widgets
    assert lines[0].startswith("2027: 2 laws, 9 provisions, 2 definitions, references 5 resolved / 0 unresolved, ")


def test_laws_and_provisions(widgets):
    db, _ = widgets
    assert [tuple(r) for r in db.execute("select number, title from laws order by number")] == [
        (1, "The Widget"), (2, "The Gadget")]
    assert [tuple(r) for r in db.execute("select id, heading, text from provisions order by ord")] == [
        ("1", "", ""),
        ("1A", "First Part", "The players use a widget to effect the play."),
        ("1A1", "", "When a player offends, the Director is called."),
        ("1A2", "", ""),
        ("1A2(a)", "", "The offender pays."),
        ("1A2(b)", "", "The Director records the payment (see A1 above)."),
        ("1A3", "", "Nothing in Law 2 or in 13 cards applies."),
        ("1B", "Second Part", "See Law 2."),
        ("2", "", "A gadget – see Law 1A2(b) – is optional."),
    ]


def test_footnote_definitions_and_preface(widgets):
    db, _ = widgets
    assert [tuple(r) for r in db.execute("select provision, mark, text from footnotes")] == [
        ("1A", "1", "A widget is not a gadget.")]
    assert [tuple(r) for r in db.execute("select term, text from definitions order by ord")] == [
        ("Widget", "A thing used in play (see Law 1)."), ("Gadget", "Another thing.")]
    assert [tuple(r) for r in db.execute("select slug, text from sections")] == [
        ("preface", "These Laws were drafted with great effort.")]


def test_references_and_raw_readings(widgets):
    db, _ = widgets
    assert [tuple(r) for r in db.execute("select from_id, to_id, resolved from refs order by id")] == [
        ("1A2(b)", "1A1", 1), ("1A3", "2", 1), ("1B", "2", 1), ("2", "1A2(b)", 1), ("def:Widget", "1", 1)]
    assert db.execute("select raw_text from provisions where id = '1A'").fetchone()[0] == \
        "The players use a widget1 to e ect the play."
    # the page number and the index are not law text
    assert not any("Index" in t or "Widget 1A" in t for (t,) in db.execute("select text from provisions"))


# --- a whole code from the 2017 text, its tables in 2007's cell order ---------------------

TABLES_2027 = DATA / "pdf-2027-tables.txt"
# where each law's table region starts and what follows it in the 2017 text
REGIONS = {"2": ("North Dealer East Dealer", "The same sequence is repeated"),
           "77": ("Trick Score Scored by", "If all four players pass"),
           "78": ("Di erence", "C. Total Point Scoring")}
MANIFEST_2027 = """
[[edition]]
id = "2027"
title = "Laws of Duplicate Bridge 2027 (test)"
year = 2027
kind = "code"
family = "duplicate"
publisher = "World Bridge Federation"
laws = "1-93"
description = "A made-up code for the tests: the 2017 text, its tables laid out another way."

[[source]]
file = "laws-2027.txt"
edition = "2027"
title = "Laws of Duplicate Bridge 2027 (test), text extracted from its PDF"
kind = "code"
parser = "pdf"
encoding = "latin-1"
laws = "1-93"
provenance = "Made up for the tests from the 2017 PDF text."
attribution = "© nobody"
"""


def table_blocks() -> dict[str, list[str]]:
    """tests/data/pdf-2027-tables.txt's blocks by law, as an extractor writes
    them: '<page N>' a form feed and the page number, a dash U+00AD."""
    blocks: dict[str, list[str]] = {}
    law = None
    for line in TABLES_2027.read_text(encoding="utf-8").split("\n"):
        if line.startswith("## Law "):
            law = line.removeprefix("## Law ")
            blocks[law] = []
        elif law and not line.startswith("#"):
            page = re.fullmatch(r"<page (\d+)>", line)
            blocks[law].append(f"\f{page[1]}" if page else line.replace("–", "\xad"))
    return blocks


def book_2027(blocks: dict[str, list[str]]) -> bytes:
    """The 2017 PDF text with each table region replaced by its block."""
    lines = (CORPUS / "acbl-2017-laws.txt").read_bytes().decode("latin-1").split("\n")
    for law, block in blocks.items():
        start, stop = REGIONS[law]
        i = next(k for k, s in enumerate(lines) if s.startswith(start))
        j = next(k for k in range(i, len(lines)) if lines[k].startswith(stop))
        lines[i:j] = block
    return "\n".join(lines).encode("latin-1")


def corpus_with_2027(tmp: Path, blocks: dict[str, list[str]]) -> Path:
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    add_edition(corpus, "laws-2027.txt", book_2027(blocks), MANIFEST_2027)
    return corpus


@pytest.fixture(scope="module")
def code_2027(tmp_path_factory):
    corpus = corpus_with_2027(tmp_path_factory.mktemp("c2027"), table_blocks())
    data = tmp_path_factory.mktemp("data2027")
    build(corpus, data, echo=lambda *_: None)
    conn = store.connect(current_store(data))
    yield conn
    conn.close()


def stored_tables(db, edition: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for pid, caption, header, rows in db.execute(
            "select provision, caption, header, rows from tables where edition = ? order by provision, ord", [edition]):
        out.setdefault(pid, []).append({"caption": caption, "header": json.loads(header), "rows": json.loads(rows)})
    return out


def test_the_2027_tables_are_found_in_2007s_cell_order(code_2027):
    """Every cell of every table, as tests/data/pdf-2027-tables.json gives it:
    the board table (its numbers column by column across both halves, a page
    break among them), the scoring table (a first column beside its labels and
    the rest after, the vulnerable undertricks after the next block, a page
    break in it, 350 where 2017 has 300), the IMP scale (three blocks of
    columns read row by row, 14 IMPs for 750-890 where 2017 has 13)."""
    expected = json.loads((DATA / "pdf-2027-tables.json").read_text(encoding="utf-8"))
    assert stored_tables(code_2027, "2027") == expected


def test_the_2027_changes_are_read_from_its_text(code_2027):
    imps = {r[0]: r[1] for t in stored_tables(code_2027, "2027")["78B"] for r in t["rows"]}
    imps_2017 = {r[0]: r[1] for t in stored_tables(code_2027, "2017")["78B"] for r in t["rows"]}
    assert {k: (imps_2017[k], v) for k, v in imps.items() if imps_2017[k] != v} == {"750–890": ("13", "14")}
    undertricks = stored_tables(code_2027, "2027")["77"][-1]["rows"]
    assert undertricks[4] == ["", "Doubled", "200", "350"]
    assert stored_tables(code_2027, "2017")["77"][-1]["rows"][4] == ["", "Doubled", "200", "300"]


def test_the_2027_text_around_the_tables_is_2017s(code_2027):
    """Nothing of a table left in the text, nothing of the text taken into a
    table: the provisions of Laws 2, 77 and 78 read as 2017's (78C and 78D
    among them)."""
    def laws(edition):
        return [tuple(r) for r in code_2027.execute(
            "select id, heading, text from provisions where edition = ? and law in (2, 77, 78) order by ord",
            [edition])]
    assert laws("2027") == laws("2017")
    assert [r[0] for r in laws("2027") if r[0].startswith("78")] == ["78", "78A", "78B", "78C", "78D"]


@pytest.mark.parametrize("law, damage, message", [
    ("2", lambda b: b[:-1],
     "2027 Law 2: the board table cannot be rebuilt: it has 4 dealer and 4 vulnerability labels, 8 'Boards' "
     "and 31 board numbers (4, 4, 8 and 32 expected)"),
    ("2", lambda b: [("5" if s == "1" else "1" if s == "5" else s) for s in b],
     "2027 Law 2: the board table cannot be rebuilt: its board numbers can be read no way that gives each half "
     "boards 1 to 16 once, every row rising"),
    ("77", lambda b: [s for s in b if s != "350"],
     "2027 Law 77: the scoring table cannot be rebuilt: its part 'Undertrick Penalties': 17 values do not fill "
     "its 9 rows evenly"),
    ("78", lambda b: [s for s in b if s != "430\xad490 10"],
     "2027 Law 78: the IMP table cannot be rebuilt: the range '500–590' does not follow '370–420'"),
])
def test_a_table_that_cannot_be_rebuilt_stops_the_build_naming_it(tmp_path, law, damage, message):
    blocks = table_blocks()
    blocks[law] = damage(blocks[law])
    corpus = corpus_with_2027(tmp_path, blocks)
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert err.value.file == "laws-2027.txt" and err.value.message == message
