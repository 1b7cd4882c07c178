"""Adding an edition from a PDF, as README's "Adding an edition from a PDF"
says: a small made-up code with the damage a PDF text extractor leaves (page
numbers after form feeds, a table of contents, run-in headings, numbered items
on one line, a footnote whose mark is glued to a word, lost ligatures, a soft
hyphen for a dash, Latin-1 bytes) is dropped into a fresh corpus folder with
its manifest entries, built, and read back from the store.

Then a whole made-up 2027 code: the 2017 PDF text with its tables (Laws 2, 77,
78B) laid out in the order the 2007 source gives its cells, one table split by
a page break, one IMP value and one score value changed
(tests/data/pdf-2027-tables.txt), and text changes made on it: a provision
moved to another law, one deleted, one added, one renumbered, a law's title
changed (tests/data/pdf-2027-changes.toml, which lists each change with the
status the comparison must give it).  It is added to a copy of the real
corpus with no change to the code, published 1 June 2027 and in force from 1
September 2027, and built twice, as tests/test_edition_life.py builds its
2027: on publication day and on the day it takes effect.  Its tables are
found by their shape, every cell checked; the 2017 -> 2027 comparison
reports every listed change and nothing else; the citations of what it
deleted or moved away are dead, counted and shown unlinked; the site treats
it as a published code, then as the code in force, whose carried rulings
are reviewed or say they are not.  On publication day a phone (headless
Chromium, 360 px) that keeps 2027 finds its new 81D with the server stopped
and opens it."""
from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from laws import compare, store
from laws.build import build, current_store
from laws.model import SourceError
from tests.conftest import CORPUS
from tests.test_browser import CHROMIUM, browser, cut_off, serve, wait_kept_offline, wait_until  # noqa: F401 (browser: the shared fixture)
from tests.test_edition_life import BEFORE, ON_THE_DAY, banner, home_cards

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
published = 2027-06-01
in_force_from = 2027-09-01
description = "A made-up code for the tests: the 2017 text changed, its tables laid out another way."

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


CHANGES = tomllib.loads((DATA / "pdf-2027-changes.toml").read_text(encoding="utf-8"))


def book_2027(blocks: dict[str, list[str]]) -> bytes:
    """The 2017 PDF text with each table region replaced by its block and
    the text changes of tests/data/pdf-2027-changes.toml made."""
    lines = (CORPUS / "acbl-2017-laws.txt").read_bytes().decode("latin-1").split("\n")
    for law, block in blocks.items():
        start, stop = REGIONS[law]
        i = next(k for k, s in enumerate(lines) if s.startswith(start))
        j = next(k for k in range(i, len(lines)) if lines[k].startswith(stop))
        lines[i:j] = block
    return edited("\n".join(lines)).encode("latin-1")


def edited(text: str) -> str:
    """`text` with every edit of the changes file made, each found exactly once."""
    for change in CHANGES["change"]:
        for edit in change.get("edit", []):
            assert text.count(edit["find"]) == 1, edit["find"]
            text = text.replace(edit["find"], edit["replace"])
    return text


def corpus_with_2027(tmp: Path, blocks: dict[str, list[str]]) -> Path:
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    add_edition(corpus, "laws-2027.txt", book_2027(blocks), MANIFEST_2027)
    return corpus


@pytest.fixture(scope="module")
def corpus_2027(tmp_path_factory):
    return corpus_with_2027(tmp_path_factory.mktemp("c2027"), table_blocks())


def site(corpus: Path, data: Path, today: str):
    """(the app, the build's lines) of the corpus built as of `today`."""
    from app import create_app

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", today)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        lines: list[str] = []
        build(corpus, data, echo=lines.append)
        return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)}), lines


@pytest.fixture(scope="module")
def published(corpus_2027, tmp_path_factory):
    """The site on publication day (2027 published, 2017 in force)."""
    return site(corpus_2027, tmp_path_factory.mktemp("data2027-published"), BEFORE)


@pytest.fixture(scope="module")
def in_force(corpus_2027, tmp_path_factory):
    """The site on the day 2027 takes effect."""
    return site(corpus_2027, tmp_path_factory.mktemp("data2027-in-force"), ON_THE_DAY)


@pytest.fixture(scope="module")
def code_2027(published):
    conn = store.connect(current_store(published[0].config["DATA_DIR"]))
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


# --- the 2027 code's text changes, as the comparison and the site show them -----------

def _reported(db) -> dict[tuple, list]:
    """Every change of 2017 -> 2027 that is not `same`, over every law either
    code has, as GET /api/diff gives it: (law, from, to, status, from_law,
    to_law) -> its redline's ops that are not `equal`."""
    out = {}
    for law in range(1, 94):
        for c in compare.diff(db, law, "2017", "2027")["changes"]:
            if c["status"] != "same":
                out[(law, c["from_provision"], c["to_provision"], c["status"], c["from_law"], c["to_law"])] = [
                    op for op in c["ops"] if op[0] != "equal"]
    return out


def _listed() -> dict[tuple, list]:
    """The changes file's provision changes, keyed as `_reported` keys them: a
    move to another law is in both laws' comparisons."""
    out = {}
    for c in CHANGES["change"]:
        if "from" not in c and "to" not in c:
            continue  # a law's title: no provision changed
        from_law = c.get("from_law", c["law"] if "from" in c else None)
        to_law = c.get("to_law", c["law"] if "to" in c else None)
        for law in {from_law, to_law} - {None}:
            out[(law, c.get("from"), c.get("to"), c["status"], from_law, to_law)] = c["redline"]
    return out


def test_every_listed_change_is_reported_and_no_other_provision_is_anything_but_same(code_2027):
    """The 2017 -> 2027 comparison (GET /api/diff's reply, law by law) reports
    each change tests/data/pdf-2027-changes.toml lists, with its status,
    laws and redline, and every other provision of either code is `same`."""
    assert _reported(code_2027) == _listed()


def test_the_laws_compared_are_changed_only_where_the_list_says(code_2027):
    laws = {c["law"] for c in CHANGES["change"]} | {c["to_law"] for c in CHANGES["change"] if "to_law" in c}
    overview = compare.overview(code_2027, "2017", "2027")
    assert {l["law"]: l["status"] for l in overview["laws"] if l["status"] != "same"} == {n: "changed" for n in laws}
    assert overview["only_from"] == overview["only_to"] == []
    [title] = [c for c in CHANGES["change"] if "title_to" in c]
    d = compare.diff(code_2027, title["law"], "2017", "2027")
    assert (d["title_from"], d["title_to"], d["summary"]) == (title["title_from"], title["title_to"],
                                                              "title changed")


def test_the_account_names_every_changed_provision(code_2027):
    """The account in words that opens each comparison names what changed,
    a table's changed cell as any changed provision."""
    accounts = {law: compare.diff(code_2027, law, "2017", "2027")["account"]["text"]
                for law in (19, 21, 22, 77, 78, 81)}
    assert accounts == {
        19: "Moved: 19D → 21C.", 21: "Moved: 19D → 21C.", 22: "Removed: 22B.",
        77: "Changed: 77. 77: “Undoubled Doubled Redoubled” deleted.", 78: "Changed: 78B.",
        81: "Moved: 81D → 81E. Added: 81D."}


def test_the_redline_page_shows_the_changed_imp_value(published):
    page = published[0].test_client().get("/compare/78?from=2017&to=2027").get_data(as_text=True)
    assert re.search(r"750–890 <del><span class=\"visually-hidden\">\[deleted: </span>13<span "
                     r"class=\"visually-hidden\">\]</span></del><ins><span class=\"visually-hidden\">\[inserted: "
                     r"</span>14<span class=\"visually-hidden\">\]</span></ins>", page)


def test_dead_citations_are_counted_unresolved(published, code_2027):
    """The citations the 2027 text keeps of 19D (moved away) and 22B
    (deleted): unresolved in the store, counted in the build's summary
    beside 2017's (three more references and four more index citations
    unresolved; 22B's own citation of Law 25 gone with it)."""
    lines = {line.split(":", 1)[0]: line for line in published[1] if re.match(r"20[12]7: \d+ laws", line)}
    counts = {ed: re.search(r"citations .* unresolved, references .* unresolved", line)[0]
              for ed, line in lines.items()}
    assert counts == {"2017": "citations 950 resolved / 3 unresolved, references 376 resolved / 0 unresolved",
                      "2027": "citations 946 resolved / 7 unresolved, references 372 resolved / 3 unresolved"}
    assert sorted(tuple(r) for r in code_2027.execute(
        "select from_id, to_id from refs where edition = '2027' and resolved = 0")) == sorted(
        (d["from"], d["cites"]) for d in CHANGES["dead"])
    dead_index = sorted((term, c["raw"]) for term, cites in code_2027.execute(
        "select term, cites from index_entries where edition = '2027'") for c in json.loads(cites)
        if not c["resolved"] and c["raw"] in ("19D", "22B"))
    assert dead_index == sorted((d["term"], d["cites"]) for d in CHANGES["dead_index"])


def test_dead_citations_are_shown_unlinked(published):
    client = published[0].test_client()
    for d in CHANGES["dead"]:
        law = re.match(r"\d+", d["from"])[0]
        page = client.get(f"/2027/law/{law}").get_data(as_text=True)
        nearest = re.match(r"\d+", d["cites"])[0]
        assert (f'<span class="xref-none" title="Not linked: {d["cites"]} is not in this edition '
                f'(the nearest is {nearest})">Law {d["cites"]}</span>') in page, d
        assert f'#{d["cites"]}"' not in page and f"%23{d['cites']}" not in page, d


# --- on publication day, then on the day it takes effect --------------------------------

def test_on_publication_day_the_site_offers_2027_as_published(published):
    app, _ = published
    client = app.test_client()
    assert home_cards(client) == [
        ("2017", "in force"), ("2027", "in force from 1 September 2027"), ("2007", "superseded by 2017"),
        ("1993-rubber", None)]
    assert banner(client.get("/2027/law/81").get_data(as_text=True), "not-yet-in-force") == (
        "Not yet in force. Published 1 June 2027; in force from 1 September 2027. "
        "The code in force is the 2017 Laws.", ["/2017/law/81"])
    # default search covers it: the words of the added 81D are 2027's only
    body = client.get("/api/search?q=written+record+of+each+ruling&limit=1").get_json()
    assert (body["editions"], [(r["edition"], r["provision"]) for r in body["results"]]) == (
        ["2017", "2027", "2007", "1993-rubber", "dbrs-2017"], [("2027", "81D")])
    # the jump box takes an edition before the provision
    assert [client.get("/go", query_string={"q": q}).headers["Location"] for q in ("2027 81E", "2027 21C")] == [
        "/2027/law/81#81E", "/2027/law/21#21C"]


def test_on_publication_day_the_phone_keeps_2027(published):
    """The offline payload the phone searches: 2027 listed as published, the
    added 81D among its documents (searched in a browser below)."""
    payload = json.loads((current_store(published[0].config["DATA_DIR"]).resolve().parent / "index"
                          / "offline.json").read_text(encoding="utf-8"))
    assert [(e["id"], e["status"]) for e in payload["editions"]][-1] == ("2027", "published")
    col = {c: i for i, c in enumerate(payload["columns"])}
    [doc] = [d for d in payload["docs"] if (d[col["edition"]], d[col["provision"]]) == ("2027", "81D")]
    assert payload["strings"][doc[col["text"]]] == (
        "The Director keeps a written record of each ruling he gives and of the facts on which it rests.")


ADDED_81D = "The Director keeps a written record of each ruling he gives and of the facts on which it rests."


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_on_publication_day_a_phone_keeping_2027_finds_81d_offline(browser, published):
    """The reader keeps the published 2027 on a phone (its contents page's
    "Keep offline"); with the server stopped and the network cut, the
    phone's search for words of the added 81D finds it, and the result
    opens on its text."""
    from tests.test_offline_kit_browser import phone
    from tests.test_search_editions_browser import offline_search

    with serve(published[0]) as (url, server):
        ctx = phone(browser)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{url}/2027/")
        wait_kept_offline(pg, timeout=240)
        pg.locator("#keep-offline button").tap()
        wait_until(pg, "() => document.getElementById('keep-offline').dataset.kept === 'yes'", timeout=240)

        cut_off(server, ctx)
        line, searched, hrefs = offline_search(pg, url, "written+record+of+each+ruling")
        assert (line, searched, hrefs[0]) == ("Searched: 2017 (in force), 2027 (in force from 1 September 2027), "
                                              "the guide.", "2017 2027 dbrs-2017", "/2027/law/81#81D")
        pg.locator("#offline-results h2 a").first.tap()
        pg.wait_for_url(f"{url}/2027/law/81#81D")
        opened = pg.eval_on_selector('[id="81D"]', "s => [s.querySelector('h2, h3').innerText, "
                                                   "s.querySelector(':scope > p').innerText]")
        assert opened == ["D. Records of Rulings", ADDED_81D]
        ctx.close()
    assert not errors, errors


RULINGS = [  # one ruling of each kind asked of 2027 on the day it takes effect
    ("auction", {"edition": "2027", "dealer": "N", "findings": {},
                 "calls": [["N", "1H"], ["E", "P"], ["S", "P"], ["W", "P"], ["N", "P"]]}),
    ("play", {"edition": "2027", "contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {}}),
    ("guided", {"edition": "2027", "procedure": "claim", "answers": {}}),
]


def test_on_the_day_2027_is_the_code_in_force(in_force):
    client = in_force[0].test_client()
    assert in_force[1][-1].endswith("; as of 2027-09-01: 2007 superseded by 2017; 2017 superseded by 2027; "
                                    "2027 in force")
    assert home_cards(client) == [
        ("2027", "in force"), ("2017", "superseded by 2027"), ("2007", "superseded by 2017"), ("1993-rubber", None)]
    assert banner(client.get("/2027/law/81").get_data(as_text=True), "not-yet-in-force") is None
    assert client.get("/go?q=81E").headers["Location"] == "/2027/law/81#81E"


@pytest.mark.parametrize("period, payload", RULINGS, ids=[p for p, _ in RULINGS])
def test_on_the_day_each_ruling_is_reviewed_or_says_it_is_not(in_force, period, payload):
    """2027 has no rulings files: 2017's are carried through the comparison.
    A reply rules by 2027 and cites only 2027's provisions (`reviewed`), or
    says it is not reviewed, naming each 2017 provision it still cites."""
    reply = in_force[0].test_client().post(f"/api/rulings/{period}", json=payload)
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert (body["edition"], body["carried_from"]) == ("2027", "2017")
    db = store.connect(current_store(in_force[0].config["DATA_DIR"]))
    have = {pid for (pid,) in db.execute("select id from provisions where edition = '2027'")}
    own = [c for c in body["cites"] if ":" not in c]
    older = [c.removeprefix("2017:") for c in body["cites"] if c.startswith("2017:")]
    assert own and [c for c in own if c not in have] == [] and len(own) + len(older) == len(body["cites"])
    if body["reviewed"]:
        assert (older, body["review"]) == ([], None)
    else:
        assert older and body["review"] == "not yet reviewed for 2027: " + "; ".join(
            f"{p} has no counterpart in the 2027 Laws" for p in older)


def test_on_the_day_every_checker_rules_by_2027_with_reviewed_cites_or_says_it_is_not(in_force):
    """2027 has no checker data: each checker follows 2017's rules, its cites
    carried through the comparison (laws/checkers/codes.py): every cite is a
    2027 provision, or 2017's while `reviewed` is false and `review` says so."""
    from laws.checkers import registry

    client = in_force[0].test_client()
    db = store.connect(current_store(in_force[0].config["DATA_DIR"]))
    have = {pid for (pid,) in db.execute("select id from provisions where edition = '2027'")}
    for checker in registry.all_checkers():
        reply = client.post(f"/api/checkers/{checker.id}", json=checker.example)
        body = reply.get_json()
        assert reply.status_code == 200 and (body["edition"], body["carried_from"]) == ("2027", "2017"), checker.id
        own = [c for c in body["cites"] if not c.startswith("2017:")]
        older = [c.removeprefix("2017:") for c in body["cites"] if c.startswith("2017:")]
        assert [c for c in own if c not in have] == [], checker.id
        if body["reviewed"]:
            assert (older, body["review"]) == ([], None), checker.id
        else:
            assert body["review"].startswith("not yet reviewed for 2027: "), checker.id
