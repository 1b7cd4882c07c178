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


# --- the store: every citation of the 2017 index against the 2017 Laws ----------

def _cites(db):
    for r in db.execute("select term, parent, cites from index_entries where edition = '2017' order by ord"):
        for c in json.loads(r["cites"]):
            yield r["term"], c


def test_stored_index(db):
    rows = db.execute("select count(*), count(parent) from index_entries where edition = '2017'").fetchone()
    assert tuple(rows) == (805, 620)
    assert db.execute("select count(*) from index_entries where edition != '2017'").fetchone()[0] == 0
    bid = db.execute("select id, cites, see_also, raw, line from index_entries "
                     "where edition = '2017' and term = 'Bid' and parent is null").fetchone()
    assert json.loads(bid["see_also"]) == ["Call"] and bid["line"] == 2594
    subs = [(r["term"], [c["to"] for c in json.loads(r["cites"])]) for r in db.execute(
        "select term, cites from index_entries where edition = '2017' and parent = ? order by ord", [bid["id"]])]
    assert ("Insufficient bid, comparable call", ["23A"]) in subs and len(subs) == 16


def test_ligature_repairs_of_the_index_are_recorded(db):
    rows = db.execute("select count(*) from corrections where edition = '2017' and location like 'index:%' "
                      "and kind = 'ligature'").fetchone()[0]
    assert rows == 29


# --- the API --------------------------------------------------------------------

def test_api_index_shape(client):
    r = client.get("/api/index/2017")
    assert r.status_code == 200 and r.content_type == "application/json"
    data = r.get_json()
    assert len(data) == 185 and sum(len(h["subterms"]) for h in data) == 620
    bid = next(h for h in data if h["term"] == "Bid")
    assert {k: bid[k] for k in ("term", "cites", "see", "see_also")} == {
        "term": "Bid", "cites": ["def:Bid"], "see": ["Call"], "see_also": ["Call"]}
    comparable = next(s for s in bid["subterms"] if s["term"] == "Insufficient bid, comparable call")
    assert comparable == {"term": "Insufficient bid, comparable call", "cites": ["23A"], "see": [], "see_also": [],
                          "citations": [{"raw": "23A", "id": "23A", "to": "23A", "resolved": True}],
                          "subterms": []}
    agreement = next(h for h in data if h["term"] == "Agreement")
    assert (agreement["cites"], agreement["see"], agreement["see_also"]) == ([], ["Partnership Understanding"], [])
    # every sub-entry has the same shape, and no deeper level
    for h in data:
        for s in h["subterms"]:
            assert {"term", "cites", "see", "subterms"} <= set(s) and s["subterms"] == []


@pytest.mark.parametrize("edition, message", [
    ("2007", "has no official index"), ("1993-rubber", "has no official index"),
    ("1997", "There is no edition '1997'"), ("<script>", "There is no edition"),
])
def test_api_index_404(client, edition, message):
    r = client.get(f"/api/index/{edition}")
    assert r.status_code == 404 and r.content_type == "application/json"
    assert message in r.get_json()["error"]


# --- the page -----------------------------------------------------------------------

def test_index_page_links_every_citation(client):
    html = client.get("/2017/index").get_data(as_text=True)
    assert '<a href="#letter-Z">Z</a>' in html and 'id="letter-Z"' in html
    # 'Insufficient bid, comparable call 23A' under Bid
    assert re.search(r'Insufficient bid, comparable call <a class="ix-cite" href="/2017/law/23#23A">23A</a>', html)
    assert '<a class="ix-cite" href="/2017/law/12#12C1(d)">12C1(d)</a>' in html
    # See / See also open the other heading on the page
    assert re.search(r'<em>See also</em> <a href="/2017/index#i-call">Call</a>', html)
    assert 'id="i-call"' in html
    assert re.search(r'<em>See</em> <a href="/2017/index#i-partnership-understanding">Partnership Understanding</a>',
                     html)
    # the JavaScript is a file (CSP: no inline script)
    assert re.search(r'<script src="/static/official-index\.[0-9a-f]+\.js" defer></script>', html)
    assert "<script>" not in html


def test_index_page_filters_without_javascript(client):
    html = client.get("/2017/index?q=comparable+call").get_data(as_text=True)
    assert 'value="comparable call"' in html
    headings = re.findall(r'<div class="ix-heading" id="([^"]+)"', html)
    assert headings == ["i-bid", "i-call", "i-comparable-call", "i-double", "i-insufficient-bid", "i-pass",
                        "i-redouble"]
    assert "14 of 805 entries match" in html
    # a heading that matches shows all its entries; otherwise only the matching ones
    assert "Different methods" not in html and "Seven, more than" not in html
    html = client.get("/2017/index?q=zz+nothing").get_data(as_text=True)
    assert "Nothing in the index matches" in html and 'class="ix-heading"' not in html
    assert client.get("/2017/index?q=" + "x" * 5000).status_code == 200


def _lead(r) -> str:
    return re.search(r'<p class="lead">(.*?)</p>', r.get_data(as_text=True)).group(1)


def test_index_page_404(client):
    # 2007 is in the corpus without an official index; 1997 is no edition at all
    r = client.get("/2007/index")
    assert (r.status_code, _lead(r)) == (404, "The Laws of Duplicate Bridge 2007 in the corpus has no official index.")
    r = client.get("/1997/index")
    assert (r.status_code, _lead(r)) == (404, "There is no edition &#39;1997&#39;. Editions: 2007, 2017, "
                                              "1993-rubber, dbrs-2017.")


def test_index_linked_from_home_and_contents(client):
    assert 'href="/2017/index"' in client.get("/").get_data(as_text=True)
    assert 'href="/2017/index"' in client.get("/2017/").get_data(as_text=True)
    assert 'href="/2007/index"' not in client.get("/2007/").get_data(as_text=True)


def test_law_pages_list_the_index_entries_citing_them(client):
    html = client.get("/2017/law/23").get_data(as_text=True)
    section = html[html.index('<section id="in-index">'):]
    section = section[:section.index("</section>")]
    assert ('<a href="/2017/index#i-bid">Bid</a> › Insufficient bid, comparable call '
            '<span class="muted">→ <a href="/2017/law/23#23A">23A</a></span>') in section
    assert '<a href="/2017/index#i-comparable-call">Comparable Call</a> <span class="muted">→ ' \
           '<a href="/2017/law/23">23</a></span>' in section
    assert 'id="in-index"' not in client.get("/2007/law/23").get_data(as_text=True)


def test_every_citation_resolves_but_three(db):
    """953 citations; 950 name a provision, definition or section the store
    has.  The 3 that do not, and why: 70D3 (twice) and 16A3: the ACBL text of
    Law 70D and of Law 16A has items 1 and 2 only, so the index cites an item
    the printed law lacks; the links open 70D and 16A."""
    cites = list(_cites(db))
    assert len(cites) == 953
    unresolved = sorted((c["id"], c["to"]) for _, c in cites if not c["resolved"])
    assert unresolved == [("16A3", "16A"), ("70D3", "70D"), ("70D3", "70D")]
    # every 'Definitions' names a definition of the 2017 Laws
    defs = [c for _, c in cites if c["raw"] == "Definitions"]
    assert len(defs) == 74 and all(c["id"].startswith("def:") and c["resolved"] for c in defs)
    assert sorted({c["to"] for _, c in cites if c["raw"] == "Introduction"}) == ["introduction"]


# --- search reads the index -------------------------------------------------------------

@pytest.fixture(scope="module")
def searcher(built):
    from laws.build import current_store
    from search.query import Searcher

    return Searcher.open(current_store(built).resolve().parent / "index")


def test_comparable_call_finds_23A_first(searcher):
    results = searcher.search("comparable call", edition="2017")["results"]
    assert (results[0]["edition"], results[0]["provision"]) == ("2017", "23A")


def test_insufficient_bid_finds_law_27(searcher):
    results = searcher.search("insufficient bid", edition="2017", limit=3)["results"]
    assert 27 in [r["law"] for r in results]
    assert results[0]["law"] == 27


@pytest.mark.parametrize("query, with_index", [
    ("misplacing cards", "90B6"),  # 'Procedural Penalty / Misplacing cards 90B6'
])
def test_the_index_entries_lift_the_provisions_they_cite(searcher, query, with_index):
    import dataclasses

    from search.query import Searcher

    assert searcher.search(query, edition="2017")["results"][0]["provision"] == with_index
    without = Searcher(searcher.path, dataclasses.replace(searcher.ranking, index_weight=0.0))
    assert without.search(query, edition="2017")["results"][0]["provision"] != with_index


def test_index_entries_are_evidence_not_results(searcher):
    # 'Psychic Call' and its sub-entries match, and lift Law 40; no entry is shown
    out = searcher.search("psychic call", limit=50)
    assert out["results"] and all(r["kind"] in ("law", "definition", "guide") for r in out["results"])
    assert out["results"][0]["law"] == 40
