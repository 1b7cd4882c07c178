"""The JSON API for editions, laws, definitions and the guide (CONTRACT.md)."""
from __future__ import annotations

import pytest


def test_editions(client):
    r = client.get("/api/editions")
    assert r.status_code == 200
    assert r.content_type == "application/json"
    eds = {e["id"]: e for e in r.get_json()}
    assert list(eds) == ["2017", "2007", "1993-rubber", "dbrs-2017"]  # the code in force first
    assert eds["2007"]["laws"] == list(range(1, 94))
    assert eds["2017"]["laws"] == list(range(1, 94))
    # the ACBL text gives the laws; the blog attests Laws 33-40 as a witness
    assert [s["file"] for s in eds["2017"]["sources"]] == ["004_00dffde58a6aed35.txt", "acbl-2017-laws.txt"]
    assert eds["1993-rubber"]["laws"] == list(range(41, 72))
    assert eds["1993-rubber"]["title"] == "Laws of Contract Bridge 1993 (rubber bridge), ACBL edition"
    assert [s["file"] for s in eds["2007"]["sources"]] == ["000_f79d4105db5f19c6.txt", "003_9d8ca0f08b130dce.txt"]
    assert set(eds["2007"]) >= {"id", "title", "year", "kind", "laws", "sources"}


def test_law_shape(client):
    law = client.get("/api/laws/2007/12").get_json()
    assert law["edition"] == "2007" and law["number"] == 12
    assert law["title"] == "Director’s Discretionary Powers"
    assert [p["id"] for p in law["provisions"]][:4] == ["12", "12A", "12A1", "12A2"]
    first = law["provisions"][1]
    assert set(first) >= {"id", "parent", "label", "heading", "text"}
    assert (first["parent"], first["label"], first["heading"]) == ("12", "A", "Power to Award an Adjusted Score")
    assert {"from": "12B1", "to": "12C1(b)", "to_edition": "2007", "raw": "C1(b)"}.items() <= \
        next(r for r in law["references"] if r["from"] == "12B1").items()
    assert [s["file"] for s in law["sources"]] == ["000_f79d4105db5f19c6.txt", "003_9d8ca0f08b130dce.txt"]
    assert "artificial-score" in law["checkers"]
    assert law["guide"], "the guide has topics on Law 12"


def test_cited_by(client):
    law = client.get("/api/laws/2007/16").get_json()
    froms = {r["from"] for r in law["cited_by"]}
    assert {"6D1", "43"} & froms or "6D1" in froms


@pytest.mark.parametrize("path, status, message", [
    ("/api/laws/1997/12", 404, "There is no edition '1997'. Editions: 2007, 2017, 1993-rubber, dbrs-2017."),
    ("/api/laws/2017/94", 404, "Laws of Duplicate Bridge 2017 has no Law 94 in the corpus (it has Laws 1–93)."),
    ("/api/laws/1993-rubber/12", 404,
     "Laws of Contract Bridge 1993 (rubber bridge), ACBL edition has no Law 12 in the corpus (it has Laws 41–71)."),
    ("/api/laws/2007/94", 404, "Laws of Duplicate Bridge 2007 has no Law 94 in the corpus (it has Laws 1–93)."),
    ("/api/laws/2007/twelve", 404, "'twelve' is not a law number: laws are numbered 1 to 93."),
    ("/api/definitions/1997", 404, "There is no edition '1997'. Editions: 2007, 2017, 1993-rubber, dbrs-2017."),
    ("/api/guide/topic:no-such-topic", 404, "There is no guide topic 'topic:no-such-topic'."),
    ("/api/nothing", 404, "There is nothing at /api/nothing."),
])
def test_errors_are_json_with_a_message(client, path, status, message):
    r = client.get(path)
    assert r.status_code == status
    assert r.content_type == "application/json"
    assert r.get_json() == {"error": message}


def test_definitions(client):
    defs = client.get("/api/definitions/2007").get_json()
    by_id = {d["id"]: d for d in defs}
    assert "def:Psychic call" in by_id
    assert by_id["def:Suit"]["text"].startswith("One of four groups of cards in the pack")
    assert "spades (♠), hearts (♥), diamonds (♦), clubs (♣)" in by_id["def:Suit"]["text"]
    defs2017 = {d["id"]: d for d in client.get("/api/definitions/2017").get_json()}
    assert len(defs2017) == 66
    assert defs2017["def:Suit"]["text"] == ("One of four groups of cards in the pack, each group comprising thirteen "
                                            "cards and having a characteristic symbol: spades (♠), hearts (♥), "
                                            "diamonds (♦), clubs (♣).")
    assert client.get("/api/definitions/1993-rubber").get_json() == []


def test_2017_law_sources_name_the_witness_where_it_attests(client):
    """Law 35's text is the ACBL's; the blog's transcription attests it too.
    Law 12 is attested by the ACBL text alone."""
    assert [s["file"] for s in client.get("/api/laws/2017/35").get_json()["sources"]] == [
        "acbl-2017-laws.txt", "004_00dffde58a6aed35.txt"]
    assert [s["file"] for s in client.get("/api/laws/2017/12").get_json()["sources"]] == ["acbl-2017-laws.txt"]


def test_guide(client):
    topics = client.get("/api/guide").get_json()
    assert len(topics) > 100
    ib = next(t for t in topics if t["title"].lower().startswith("insufficient bid"))
    assert 27 in ib["laws"]
    one = client.get(f"/api/guide/{ib['id']}").get_json()
    assert set(one) >= {"id", "title", "laws", "html", "text"}
    assert one["id"] == ib["id"] and "<p>" in one["html"]
