"""The store keeps each distinct string of provisions and corrections once
(laws/store.py `strings`, schema 10): `provisions` and `corrections` are
views that give back exactly what the parsers produced — the same columns in
the same order, NULL where there is no raw reading, an empty string where
the text is empty — however many editions share a wording."""
from __future__ import annotations

import sqlite3

import pytest

from laws import queries, store
from laws.build import parse_all
from laws.model import Correction, Law, ParsedSource, Provision
from tests.conftest import CORPUS


@pytest.fixture(scope="module")
def parsed() -> list[ParsedSource]:
    """The real corpus's main texts as the parsers give them (witnesses give no provisions)."""
    manifest, results, _ = parse_all(CORPUS)
    kinds = {s.file: s.kind for s in manifest.sources}
    return [p for p in results if kinds[p.file] != "witness"]


def test_every_provision_reads_back_as_parsed(db, parsed):
    expected = sorted((p.edition, prov.id, law.number, prov.parent, prov.label, prov.heading, prov.text, prov.raw_text)
                      for p in parsed for law in p.laws for prov in law.provisions)
    got = sorted(tuple(r) for r in db.execute(
        "select edition, id, law, parent, label, heading, text, raw_text from provisions"))
    assert got == expected


def test_every_correction_reads_back_as_parsed(db, parsed):
    def rows(p: ParsedSource, corrections: list[Correction], certain: int):
        return [(p.file, p.edition, c.where, c.raw, c.corrected, c.reason, c.kind, c.line, certain)
                for c in corrections]

    expected = sorted(r for p in parsed for r in rows(p, p.corrections, 1) + rows(p, p.uncertain, 0))
    got = sorted(tuple(r) for r in db.execute(
        "select source, edition, location, raw, corrected, reason, kind, line, certain from corrections "
        "where source in (select file from sources where kind != 'witness')"))
    assert got == expected


def test_the_views_have_the_columns_the_tables_had(db):
    def columns(name: str) -> list[str]:
        return [d[0] for d in db.execute(f"select * from {name} limit 0").description]

    assert columns("provisions") == ["edition", "id", "law", "parent", "label", "heading", "text", "raw_text",
                                     "ord", "depth"]
    assert columns("corrections") == ["id", "source", "edition", "location", "raw", "corrected", "reason", "kind",
                                      "line", "certain"]


def test_each_string_is_stored_once_and_used(db):
    assert db.execute("select count(*) - count(distinct value) from strings").fetchone()[0] == 0
    unused = db.execute(
        "select count(*) from strings where id not in (select heading from provision_rows where heading is not null "
        "union select text from provision_rows where text is not null "
        "union select raw_text from provision_rows where raw_text is not null "
        "union select raw from correction_rows union select corrected from correction_rows "
        "union select reason from correction_rows)").fetchone()[0]
    assert unused == 0


def test_a_law_page_reads_its_provisions_through_indexes(db):
    """The law page's query (laws/queries.py `law`) searches the law's rows
    and each string by its key: no scan of the table or of `strings`."""
    plan = [r[3] for r in db.execute("explain query plan select * from provisions where edition = ? and law = ? "
                                      "order by ord", ["2007", 12])]
    assert len(plan) == 4 and all(step.startswith("SEARCH ") for step in plan), plan


def _source(edition: str, file: str, provisions: list[Provision], corrections: list[Correction]) -> ParsedSource:
    return ParsedSource(file=file, edition=edition, laws=[Law(number=1, title="Law One", provisions=provisions)],
                        corrections=corrections)


def test_shared_wording_is_one_row_and_reads_back_exactly(tmp_path):
    """Two editions sharing a text and a reason hold one string each; a raw
    reading equal to the text, an empty one, an empty heading and no raw
    reading at all each read back as they were written, not as each other."""
    db = store.create(tmp_path / "laws.db")
    db.conn.executemany("insert into editions (id, ord) values (?, ?)", [("A", 0), ("B", 1)])
    db.conn.executemany("insert into sources (file, edition) values (?, ?)", [("a.txt", "A"), ("b.txt", "B")])
    fix = Correction(raw="ﬁ", corrected="fi", reason="ligature repaired", kind="ligature", where="1", line=3)
    strings = store.Strings(db)
    store.write_parsed(db, _source("A", "a.txt", [
        Provision(id="1", parent=None, label="", heading="", text="The same words.", raw_text="The same words."),
        Provision(id="1A", parent="1", label="A", heading="Heading", text="", raw_text=""),
    ], [fix]), strings)
    store.write_parsed(db, _source("B", "b.txt", [
        Provision(id="1", parent=None, label="", heading="Heading", text="The same words.", raw_text=None),
    ], [fix]), strings)
    assert [tuple(r) for r in db.conn.execute("select * from provisions order by edition, ord")] == [
        ("A", "1", 1, None, "", "", "The same words.", "The same words.", 0, 0),
        ("A", "1A", 1, "1", "A", "Heading", "", "", 1, 1),
        ("B", "1", 1, None, "", "Heading", "The same words.", None, 0, 0),
    ]
    assert [tuple(r) for r in db.conn.execute("select source, edition, location, raw, corrected, reason, kind, line, "
                                              "certain from corrections order by id")] == [
        ("a.txt", "A", "1", "ﬁ", "fi", "ligature repaired", "ligature", 3, 1),
        ("b.txt", "B", "1", "ﬁ", "fi", "ligature repaired", "ligature", 3, 1),
    ]
    assert [tuple(r) for r in db.conn.execute("select id, value from strings order by id")] == [
        (1, ""), (2, "The same words."), (3, "Heading"), (4, "ﬁ"), (5, "fi"), (6, "ligature repaired")]


def test_a_store_written_in_two_sittings_reuses_its_strings(tmp_path):
    """write_parsed without a shared `Strings` (as a caller adding one source
    would) finds the strings already stored rather than repeating them."""
    db = store.create(tmp_path / "laws.db")
    db.conn.executemany("insert into editions (id, ord) values (?, ?)", [("A", 0), ("B", 1)])
    db.conn.executemany("insert into sources (file, edition) values (?, ?)", [("a.txt", "A"), ("b.txt", "B")])
    for ed in ("A", "B"):
        store.write_parsed(db, _source(ed, f"{ed.lower()}.txt", [
            Provision(id="1", parent=None, label="", heading="", text="Words.")], []))
    assert [tuple(r) for r in db.conn.execute("select id, value from strings order by id")] == [(1, ""), (2, "Words.")]
    assert [tuple(r) for r in db.conn.execute("select edition, heading, text, raw_text from provisions "
                                              "order by edition")] == [("A", "", "Words.", None),
                                                                       ("B", "", "Words.", None)]


def test_a_laws_corrections_are_those_its_source_places_in_it(db):
    """queries.law picks a law's corrections in SQL: for every law of every
    edition, exactly the ones `_in_law` keeps of its source's corrections."""
    every = [dict(r) for r in db.execute("select edition, source, location, raw, corrected, reason, kind, certain "
                                         "from corrections order by id")]
    keys = ("location", "raw", "corrected", "reason", "kind", "certain")
    for edition, number, source in db.execute("select edition, number, source from laws").fetchall():
        expected = [{k: c[k] for k in keys} for c in every
                    if c["edition"] == edition and c["source"] == source and queries._in_law(c["location"], number)]
        assert queries.law(db, edition, number)["corrections"] == expected, (edition, number)


@pytest.mark.parametrize("number", [1, 2, 12, 120])
def test_in_law_in_sql_says_what_in_law_says(number):
    locations = ["1", "12", "120", "12C1(b)", "120A", "12.1", "1.2", "2", "21", "", None, "def:12", "topic:12",
                 "12 footnote", "13"]
    conn = sqlite3.connect(":memory:")
    conn.execute("create table t (location text)")
    conn.executemany("insert into t values (?)", [(loc,) for loc in locations])
    got = [r[0] for r in conn.execute(f"select location from t where {queries._in_law_sql('?1')} order by rowid",
                                      [str(number)])]
    assert got == [loc for loc in locations if queries._in_law(loc, number)]
