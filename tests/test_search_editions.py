"""Which editions a search with no edition reads, and saying so (issue "The
next code on the day it is published", search): the code in force, a
published successor, the code before, the rubber code and the guide
(search/index.py `default_editions`); `GET /api/search` names them in
`editions`, in the order the site lists them; the search page's edition
control and its results say them in words.

Over the real corpus (no published code) and over a copy with a made-up 2027
code published 1 June 2027 and in force from 1 September 2027, built as of
15 June 2027 and as of 1 September 2027 (tests/test_edition_life.py's
fixtures, built once for this module)."""
from __future__ import annotations

import html
import json
import re

import pytest

from laws.build import current_store
from search.index import default_editions, editions_label, listed
from test_edition_life import before, corpus_2027, on_the_day  # noqa: F401 (fixtures)
from test_openapi import _reply_validator

REAL_LABEL = "2017 (in force), 2007, rubber 1993, the guide"
BEFORE_LABEL = "2017 (in force), 2027 (in force from 1 September 2027), 2007, rubber 1993, the guide"
ON_THE_DAY_LABEL = "2027 (in force), 2017, rubber 1993, the guide"


def meta(data_dir) -> dict:
    return json.loads((current_store(data_dir).resolve().parent / "index" / "meta.json").read_text(encoding="utf-8"))


def page_words(page: str) -> tuple[str, str | None]:
    """(the edition control's default option, the "Searched: …" line or None) of a search page."""
    default = re.search(r'<select id="search-edition" name="edition">\s*<option value="">([^<]*)</option>', page)
    searched = re.search(r'<p class="searched" id="search-searched">([^<]*)</p>', page)
    return html.unescape(default[1]), html.unescape(searched[1]) if searched else None


# --- the rule, on made-up editions ----------------------------------------------------

def code(eid, year, family="duplicate", **life):
    return {"id": eid, "year": year, "kind": "code", "family": family, "in_force": life.get("status") == "in force",
            **life}


GUIDE = {"id": "guide", "year": 2017, "kind": "guide", "family": "guide"}


def test_a_published_successor_is_read_beside_the_code_in_force():
    eds = [code("2007", 2007, status="superseded"), code("2017", 2017, status="in force"),
           code("1993-rubber", 1993, "rubber"), GUIDE,
           code("2027", 2027, status="published", in_force_from="2027-09-01")]
    assert default_editions(eds) == ["2007", "2017", "1993-rubber", "guide", "2027"]
    assert listed(eds, default_editions(eds)) == ["2017", "2027", "2007", "1993-rubber", "guide"]
    assert editions_label(eds, default_editions(eds)) == BEFORE_LABEL


def test_of_two_published_codes_the_sooner_in_force_is_read():
    eds = [code("2017", 2017, status="in force"), code("2007", 2007, status="superseded"),
           code("2031", 2031, status="published", in_force_from="2031-01-01"),
           code("2027", 2027, status="published", in_force_from="2027-09-01"),
           code("2029", 2029, status="published"),  # no date yet: after the dated ones
           code("2037", 2037, "rubber", status="published", in_force_from="2027-01-01")]  # another family
    assert default_editions(eds) == ["2017", "2007", "2027", "2037"]
    assert editions_label(eds, default_editions(eds)) == \
        "2017 (in force), rubber 2037 (in force from 1 January 2027), 2027 (in force from 1 September 2027), 2007"


def test_without_statuses_the_rule_is_the_old_one():
    """An index built before statuses were kept: no edition is 'published'."""
    eds = [code("2007", 2007), dict(code("2017", 2017), in_force=True), code("1993-rubber", 1993, "rubber"), GUIDE]
    assert default_editions(eds) == ["2007", "2017", "1993-rubber", "guide"]
    assert listed(eds, default_editions(eds)) == ["2007", "2017", "1993-rubber", "guide"]


# --- the real corpus: no published code, the default editions unchanged ---------------------

def test_the_real_corpus_reads_four_editions(built, client):
    assert meta(built)["default_editions"] == ["2007", "2017", "1993-rubber", "dbrs-2017"]
    assert client.get("/api/search?q=revoke").get_json()["editions"] == ["2017", "2007", "1993-rubber", "dbrs-2017"]


def test_the_reply_names_the_edition_asked(client):
    assert client.get("/api/search?q=revoke&edition=2007").get_json()["editions"] == ["2007"]
    assert client.get("/api/search?q=revoke&edition=dbrs-2017&kind=guide").get_json()["editions"] == ["dbrs-2017"]
    # a question that is not a search (no such law) says it too
    body = client.get("/api/search?q=law+99").get_json()
    assert (body["message"], body["editions"]) == ("There is no Law 99; the Laws run 1–93.",
                                                   ["2017", "2007", "1993-rubber", "dbrs-2017"])


def test_the_page_names_what_it_searches(client):
    assert page_words(client.get("/search").get_data(as_text=True)) == (REAL_LABEL, None)
    assert page_words(client.get("/search?q=revoke").get_data(as_text=True)) == (REAL_LABEL, f"Searched: {REAL_LABEL}.")
    assert page_words(client.get("/search?q=revoke&edition=1993-rubber").get_data(as_text=True)) == (
        REAL_LABEL, "Searched: rubber 1993.")


def test_the_reply_fits_the_documented_reply(client):
    doc = client.get("/api/openapi.json").get_json()
    props = doc["paths"]["/api/search"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert props["properties"]["editions"] == {"type": "array", "minItems": 1, "uniqueItems": True,
                                               "items": {"enum": ["2007", "2017", "1993-rubber", "dbrs-2017"]}}
    v = _reply_validator(doc, "/api/search", "get", "200")
    for q in ("revoke", "revoke&edition=2007", "law 99"):
        assert not list(v.iter_errors(client.get(f"/api/search?q={q}").get_json())), q
    assert not v.is_valid({"query": "x", "results": [], "suggestion": None, "editions": ["1997"]})
    assert not v.is_valid({"query": "x", "results": [], "suggestion": None})


# --- 2027 published, not yet in force ---------------------------------------------------

def test_before_the_day_the_published_code_is_searched(before):
    app, _ = before
    client = app.test_client()
    assert meta(app.config["DATA_DIR"])["default_editions"] == ["2007", "2017", "1993-rubber", "dbrs-2017", "2027"]
    body = client.get("/api/search?q=considered+to+be+a+subsequent+call&limit=5").get_json()
    assert body["editions"] == ["2017", "2027", "2007", "1993-rubber", "dbrs-2017"]
    # 2027 changed "is deemed to be" to "is considered to be" in Law 33: found by default
    assert [(r["edition"], r["provision"]) for r in body["results"] if r["edition"] == "2027"] == [("2027", "33")]
    assert page_words(client.get("/search?q=considered").get_data(as_text=True)) == (
        BEFORE_LABEL, f"Searched: {BEFORE_LABEL}.")


def test_before_the_day_the_phone_is_told_the_published_codes_status(before):
    app, _ = before
    payload = json.loads((current_store(app.config["DATA_DIR"]).resolve().parent / "index" / "offline.json")
                         .read_text(encoding="utf-8"))
    assert [(e["id"], e["in_force"], e["status"], e["in_force_from"]) for e in payload["editions"]] == [
        ("2007", False, "superseded", None), ("2017", True, "in force", None), ("1993-rubber", False, None, None),
        ("dbrs-2017", False, None, None), ("2027", False, "published", "2027-09-01")]


def test_on_the_day_2027_leads_and_2007_is_no_longer_read(on_the_day):
    app, _ = on_the_day
    client = app.test_client()
    assert meta(app.config["DATA_DIR"])["default_editions"] == ["2017", "1993-rubber", "dbrs-2017", "2027"]
    assert client.get("/api/search?q=revoke").get_json()["editions"] == ["2027", "2017", "1993-rubber", "dbrs-2017"]
    assert page_words(client.get("/search?q=revoke").get_data(as_text=True)) == (
        ON_THE_DAY_LABEL, f"Searched: {ON_THE_DAY_LABEL}.")
