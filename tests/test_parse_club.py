"""The club-pages parser on the club's "law of the month" pages (003), matched
by content against the 2007 code as the slides parser reads it (000)."""
from __future__ import annotations

from pathlib import Path

import pytest

from laws import manifest
from laws.corrections import Corrections
from laws.model import Definition, Law, ParsedSource, Provision, SourceError
from laws.parsers import club_pages, get

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILE = "003_9d8ca0f08b130dce.txt"


@pytest.fixture(scope="module")
def sources():
    return {s.file: s for s in manifest.load(CORPUS).sources}


@pytest.fixture(scope="module")
def corrections():
    return Corrections.load(CORPUS)


@pytest.fixture(scope="module")
def code_2007(sources, corrections):
    slides = next(s for s in sources.values() if s.edition == "2007" and s.kind == "code")
    return get(slides.parser)(slides.path.read_text(encoding="utf-8"), slides, corrections, {})


@pytest.fixture(scope="module")
def parsed(sources, corrections, code_2007):
    source = sources[FILE]
    return get(source.parser)(source.path.read_text(encoding="utf-8"), source, corrections, {"2007": [code_2007]})


def test_only_fragments(parsed):
    assert (parsed.edition, parsed.laws, parsed.definitions, parsed.topics) == ("2007", [], [], [])


def test_what_each_fragment_is(parsed):
    assert [(f.line, f.kind, f.law, f.term, f.date) for f in parsed.fragments] == [
        (2, "definition", None, "Matchpoint", ""),
        (5, "law", 19, None, ""),
        (31, "definition", None, "Penalty", ""),
        (38, "law", 7, None, ""),
        (61, "definition", None, "Contract", "September 2013"),
        (63, "law", 6, None, "September 2013"),
        (101, "definition", None, "Partscore", "September 2013"),
        (104, "law", 5, None, "September 2013"),
        (115, "definition", None, "Trick Points", "August 2013"),
        (118, "law", 18, None, "August 2013"),
        (142, "note", None, None, "August 2013"),  # the club's own note on passed-out hands
        (145, "law", 20, None, "August 2013"),
        (198, "law", 12, None, "August 2013"),
        (241, "definition", None, "Game", "August 2013"),
        (243, "note", 2, None, "August 2013"),  # the club's paraphrase of Law 2, with its table
    ]


COVERED = {
    19: ["19A", "19A1", "19A2", "19A3", "19B", "19B1", "19B2", "19B3", "19C", "19D"],
    7: ["7A", "7B", "7B1", "7B2", "7B3", "7C", "7D"],
    6: ["6A", "6B", "6C", "6D", "6D1", "6D2", "6D3", "6E", "6E1", "6E2", "6E3", "6E4", "6F"],
    5: ["5A", "5B"],
    18: ["18A", "18B", "18C", "18D", "18E", "18F"],
    20: ["20A", "20B", "20C", "20C1", "20C2", "20D", "20E", "20F", "20F1", "20F2", "20F3", "20F4", "20F5", "20F5(a)",
         "20F5(b)", "20F5(b)(i)", "20F5(b)(ii)", "20F6", "20G", "20G1", "20G2"],
    12: ["12A", "12A1", "12A2", "12A3", "12B", "12B1", "12B2", "12C", "12C1", "12C1(a)", "12C1(b)", "12C1(c)",
         "12C1(d)", "12C1(e)", "12C1(e)(i)", "12C1(e)(ii)", "12C1(f)", "12C2", "12C2(a)", "12C2(b)", "12C2(c)", "12C3",
         "12C4"],
}


def test_provisions_each_law_fragment_covers(parsed):
    assert {f.law: f.provisions for f in parsed.fragments if f.kind == "law"} == COVERED
    assert [f.provisions for f in parsed.fragments if f.kind == "definition"] == [
        ["def:Matchpoint"], ["def:Penalty"], ["def:Contract"], ["def:Partscore"], ["def:Trick Points"], ["def:Game"]]


def test_scores_clear_the_thresholds(parsed):
    for f in parsed.fragments:
        if f.kind == "law":
            assert f.score >= club_pages.LAW_THRESHOLD, f.law
        if f.kind == "definition":
            assert f.score >= club_pages.DEFINITION_THRESHOLD, f.term
    law2 = parsed.fragments[-1]
    assert law2.score < club_pages.LAW_THRESHOLD


def test_notes_are_never_law_text(parsed):
    law_text = "\n".join(f.text for f in parsed.fragments if f.kind != "note")
    for own_words in ("Passed out Hand", "Law 2: The duplicate Boards", "deginated", "Nill All"):
        assert own_words not in law_text
    notes = [f for f in parsed.fragments if f.kind == "note"]
    assert [n.text.split("\n")[0] for n in notes] == [
        "Passed out Hand - is scored as 0 (Zero) , not an average.", "Law 2: The duplicate Boards."]
    assert [n.provisions for n in notes] == [[], []]


def test_law_2_table_keeps_its_columns(parsed):
    assert "North            1   5   9   13" in parsed.fragments[-1].text


def test_stamps_and_repeats_are_dropped(parsed):
    text = "\n".join(f.text for f in parsed.fragments)
    assert "BST" not in text and "2013" not in text
    assert [f.term for f in parsed.fragments].count("Partscore") == 1
    assert [(c.line, c.reason) for c in parsed.corrections if c.corrected == ""] == [
        (1, "time the page was captured, not part of it"),
        (195, "fragment repeated on the page; dropped"),
    ]


def test_the_code_must_be_parsed_first(sources, corrections):
    source = sources[FILE]
    with pytest.raises(SourceError, match="must be parsed first"):
        get(source.parser)(source.path.read_text(encoding="utf-8"), source, corrections, {})


# --- matching on a small made-up code, independent of the slides parser ------------

class _Source:
    file, edition = "pages.txt", "2007"


def _tiny_code() -> ParsedSource:
    law = Law(number=9, title="Procedure Following an Irregularity", provisions=[
        Provision("9", None, ""),
        Provision("9A", "9", "A", heading="Calling Attention to an Irregularity"),
        Provision("9A1", "9A", "1", text="Unless prohibited by Law, any player may call attention to an "
                                         "irregularity during the auction period, whether or not it is his turn."),
        Provision("9B", "9", "B", heading="After Attention Is Called",
                  text="The Director should be summoned at once when attention is drawn to an irregularity."),
    ])
    return ParsedSource("slides.txt", "2007", laws=[law],
                        definitions=[Definition("Game", "100 or more trick points scored on one deal.")])


def test_a_remark_next_to_a_quotation_is_split_off():
    page = (
        "A. Calling Attention to an Irregularity\n\n"
        "1. Unless prohibited by Law, any player may call attention to an irregularity during the auction period, "
        "whether or not it is his turn.\n\n"
        "B. After Attention Is Called\n\n"
        "The Director should be summoned at once when attention is drawn to an irregularity.\n\n"
        "Our club asks you to be kind to the Director when calling him to the table.\n\n\n"
        "Game - 100 or more trick points scored on one deal.\n"
        "Slam - when you bid all the tricks.\n"
    )
    parsed = get("club-pages")(page, _Source, Corrections(), {"2007": [_tiny_code()]})
    assert [(f.line, f.kind, f.law, f.term, f.provisions) for f in parsed.fragments] == [
        (1, "law", 9, None, ["9A", "9A1", "9B"]),
        (9, "note", None, None, []),
        (12, "definition", None, "Game", ["def:Game"]),
        (13, "note", None, None, []),
    ]
