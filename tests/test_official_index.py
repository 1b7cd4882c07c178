"""The official *Index to Duplicate Laws* of the 2017 Laws (ACBL edition): the
parser on the real source, the store, the API, the page and search."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from laws.parsers import official_index

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SOURCE = CORPUS / "acbl-2017-laws.txt"


@pytest.fixture(scope="module")
def parsed():
    record, uncertain = [], []
    entries = official_index.parse(SOURCE.read_bytes().decode("latin-1"), ["Bid", "Call", "Auction", "Pass"],
                                   record, uncertain)
    return entries, record, uncertain


@pytest.fixture(scope="module")
def headings(parsed):
    return {e.term: e for e in parsed[0]}


def shape(e) -> tuple:
    return (e.term, [c.id for c in e.cites], e.see, e.see_also, [(s.term, [c.id for c in s.cites], s.see)
                                                                for s in e.subterms])


# --- the parser ---------------------------------------------------------------

def test_counts(parsed):
    entries = parsed[0]
    assert len(entries) == 185  # headings
    assert sum(len(e.subterms) for e in entries) == 620  # sub-entries
    assert sum(len(x.cites) for e in entries for x in [e, *e.subterms]) == 953
    assert sum(1 for e in entries for x in [e, *e.subterms] if x.see) == 14
    assert sum(1 for e in entries for x in [e, *e.subterms] if x.see_also) == 20


def test_headings_in_printed_order(parsed):
    terms = [e.term for e in parsed[0]]
    assert terms[:8] == ["Adjusted Score", "Agreement", "Aids To Memory, Calculation Or Technique", "Alert",
                         "Alter By Partner", "Appeal", "Arrangement Of Tables", "Artificial Adjusted Score"]
    assert terms[-3:] == ["Wrong Board or Hand", "Zero Score", "Zonal Authority"]
    assert len(set(terms)) == len(terms)  # a heading continued over a page is one heading


def test_the_bid_heading_whole(headings):
    assert shape(headings["Bid"]) == ("Bid", ["def:Bid"], [], ["Call"], [
        ("After auction has ended", ["39"], []),
        ("Before a pass out of rotation", ["30B"], []),
        ("Different methods", ["18F"], []),
        ("Insufficient bid", ["27"], []),
        ("Insufficient bid, accepted", ["27A1"], []),
        ("Insufficient bid, comparable call", ["23A"], []),
        ("Insufficient bid, not accepted", ["27B"], []),
        ("Insufficient bid, out of rotation", ["27A2", "31"], []),
        ("Mistaken", ["21B1(b)", "75"], []),
        ("Out of rotation", ["31"], []),
        ("Out of rotation, comparable call", ["23A"], []),
        ("Proper form", ["18A"], []),
        ("Rank of the denominations", ["18E"], []),
        ("Seven, more than", ["38"], []),
        ("Sufficient", ["18C"], []),
        ("Supersede", ["18B"], []),
    ])


def test_insufficient_bid_heading_whole(headings):
    assert shape(headings["Insufficient Bid"]) == ("Insufficient Bid", ["18D", "27"], [], [], [
        ("Accepted", ["27A1"], []),
        ("Adjusted score, non-offending side damaged", ["27D"], []),
        ("Comparable call", ["23A", "27B1(b)"], []),
        ("Not accepted", ["27B"], []),
        ("Offender's partner perhaps perpetually passing", ["27B2", "27B3", "27B4"], []),
        ("Out of rotation", ["27A2", "31"], []),
        ("Premature replacement", ["27C"], []),
        ("Replaced at lowest level, specifies same denomination(s)", ["27B1(a)"], []),
        ("Replaced by another insufficient bid", ["27B4"], []),
        ("Replaced by double or redouble", ["27B3"], []),
    ])


def test_a_page_of_one_entry_per_line(headings):
    """The 'Appeal' page printed each sub-entry on its own line, some wrapped."""
    appeal = headings["Appeal"]
    assert [c.id for c in appeal.cites] == ["92", "93"]
    subs = [(s.term, [c.id for c in s.cites]) for s in appeal.subterms]
    assert len(subs) == 25
    assert subs[:3] == [("Adjudication", ["93B2"]), ("All others", ["93B2"]), ("Arrangements for", ["80B2(k)", "93A"])]
    assert ("Committee, authorized alternative", ["93B3"]) in subs
    assert ("Regulating Authority, assign to specified tournament body", ["93C3(a)"]) in subs
    assert ("Regulating Authority, national law", ["93"]) in subs  # '93 footnote'
    assert subs[-1] == ("Without merit", ["92A", "93C1"])


def test_headings_run_into_their_first_entry(headings):
    assert shape(headings["Card"])[4][0] == ("Cannot be found", ["14A2"], [])
    assert shape(headings["Movement"]) == ("Movement", [], [], [], [("Of boards", ["8A"], []), ("Of players", ["8A"], [])])
    assert shape(headings["Explanation"])[4][0] == ("Calls", ["20F"], [])
    assert shape(headings["Disclosure"])[4][0] == ("Alert", [], ["Alert"])
    assert shape(headings["Premature"])[4] == [("Correction of an irregularity", ["9C", "26B"], []),
                                               ("Lead or play by a defender", ["57"], [])]


def test_see_and_see_also(headings):
    assert shape(headings["Agreement"]) == ("Agreement", [], ["Partnership Understanding"], [], [])
    assert headings["Claim"].see_also == ["Concession"] and headings["Concession"].see_also == ["Claim"]
    assert headings["Sorted Deck"].see_also == ["Pack"]
    assert [c.raw for c in headings["Sorted Deck"].cites] == ["Definitions", "6D2", "6 footnote"]
    # 'Revoke See Revoke' is a sub-entry (of Card, of Rectification), not a heading
    revoke = [s for s in headings["Rectification"].subterms if s.term == "Revoke"]
    assert [(s.see, s.cites) for s in revoke] == [(["Revoke"], [])]
    assert [c.id for c in headings["Revoke"].cites] == ["61", "62", "63", "64"]


def test_partnership_understanding_continued_over_a_page(headings):
    subs = [s.term for s in headings["Partnership Understanding"].subterms]
    assert len(subs) == 24
    assert subs[-6:] == ["Special", "System card", "System card, consultation of opponent's",
                         "System card, consultation of own", "Undisclosed", "Vary, after irregularity by opponents"]


def test_notes_and_introduction(headings):
    assert headings["Average Score"].note == 'An "Average score" is not identical to a "Zero score".'
    assert headings["Zero Score"].note == 'A "Zero score" is not identical to an "Average score".'
    assert [c.id for c in headings["Interpretation Of The Laws"].cites] == ["introduction", "81C2"]


def test_definitions_cite_the_definition(headings):
    assert [c.id for c in headings["Call"].cites] == ["def:Call"]
    # a sub-entry's 'Definitions' names its heading's definition when it has none of its own
    auction = {s.term: [c.id for c in s.cites] for s in headings["Auction"].subterms}
    assert auction["Commencement of"] == ["def:Auction"]
    # a heading the code does not define: the definitions page
    assert [c.id for c in headings["Contestant"].cites] == ["definitions"]


def test_ligatures_restored_and_recorded(parsed, headings):
    entries, record, uncertain = parsed
    text = json.dumps([shape(e) for e in entries])
    assert not re.search(r"\b(?:Insu|insu|Di|di|O|o|Shu|shu|Su) (?:cient|erent|ending|ender|e|enses)\b", text)
    assert "Shuffle" in headings and "Non-Offending Side" in headings
    ligatures = [c for c in record if c.kind == "ligature"]
    assert len(ligatures) == 29
    assert ("Insu cient", "Insufficient", "index:Bid", 2594) in [(c.raw, c.corrected, c.where, c.line)
                                                                  for c in ligatures]
    assert headings["Bid"].raw.startswith("Bid Definitions See also Call After auction has ended 39")
    assert uncertain == []
    typo = [(c.raw, c.corrected, c.where) for c in record if c.kind == "typo"]
    assert typo == [("80A1(C)", "80A1(c)", "index:National Bridge Organization, Auspices")]


def test_no_index_in_a_text_without_one():
    assert official_index.parse("LAW 1\nTHE PACK\nA. Rank of Cards\n", restore=None) == []


@pytest.mark.parametrize("text, split", [
    ("Card Cannot be found", ("Card", "Cannot be found")),
    ("Call for Card", ("Call for Card", "")),
    ("Forfeiture of the Right to Rectification", ("Forfeiture of the Right to Rectification", "")),
    ("Lho (Left Hand Opponent)", ("Lho (Left Hand Opponent)", "")),
    ("RHO (Right hand opponent)", ("RHO (Right hand opponent)", "")),
    ("Time of", ("", "Time of")),
    ("Rulings Agreed facts", ("Rulings", "Agreed facts")),
    ("Substitute Board", ("Substitute", "Board")),
])
def test_split_heading(text, split):
    assert official_index.split_heading(text) == split
