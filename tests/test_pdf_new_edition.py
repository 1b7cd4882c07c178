"""Adding an edition from a PDF, as README's "Adding an edition from a PDF"
says: a small made-up code with the damage a PDF text extractor leaves (page
numbers after form feeds, a table of contents, run-in headings, numbered items
on one line, a footnote whose mark is glued to a word, lost ligatures, a soft
hyphen for a dash, Latin-1 bytes) is dropped into a fresh corpus folder with
its manifest entries, built, and read back from the store."""
from __future__ import annotations

import pytest

from laws import store
from laws.build import build, current_store

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


@pytest.fixture(scope="module")
def widgets(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("corpus")
    (corpus / "widgets-2027.txt").write_bytes(BOOK)
    (corpus / "manifest.toml").write_text(MANIFEST, encoding="utf-8")
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
