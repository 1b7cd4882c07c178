"""/offline/editions/<id>.json for an id that names no code edition of the
store (the hardening issue): a 404 that keeps nothing, so that junk ids
cannot fill a worker's caches or push the real pages out of them."""
from __future__ import annotations

import pytest
from markupsafe import escape

JUNK = (["x" * 5000, "2017x", "..", "2017 ", "dbrs-2017", "topic:claims", "\x00", "\u00e9dition", "\u202e7102",
         "2007.json", "NaN", "-1", "0" * 40, "<b>2017<b>", "2017;..", "a" * 64]
        + [f"junk-{i}" for i in range(34)])


@pytest.fixture()
def fresh(built):
    """An app of its own: its caches hold only what this test asked for."""
    from app import create_app

    from conftest import CORPUS

    return create_app({"TESTING": True, "DATA_DIR": str(built), "CORPUS_DIR": str(CORPUS)})


def _kept(app) -> tuple:
    pages = app.extensions["lawbook_pages"]
    return (list(pages.entries), dict(pages.etags), pages.bytes, sorted(app.extensions["lawbook_cache"]))


def test_unknown_edition_lists_are_404s_that_keep_nothing(fresh):
    client = fresh.test_client()
    real = ["/", "/2017/", "/2017/law/12", "/2007/law/40"]
    for url in real:
        assert client.get(url).status_code == 200, url
    listed = client.get("/offline/editions/2007.json")
    assert listed.status_code == 200
    assert sorted(listed.get_json()["pages"]) == sorted(listed.get_json()["pages"].keys()) != []
    before = _kept(fresh)
    assert set(real) <= set(before[0])

    assert len(JUNK) == 50
    answers = [client.get(f"/offline/editions/{junk}.json") for junk in JUNK]
    assert [r.status_code for r in answers] == [404] * len(JUNK)
    assert _kept(fresh) == before
    for junk, r in zip(JUNK, answers):
        shown = junk if len(junk) <= 40 else junk[:40] + "…"
        assert str(escape(f"There is no code edition '{shown}' to keep offline.")) in r.get_data(as_text=True)

    # and the real pages are still answered from memory
    hits = client.get("/2017/law/12", headers={"If-None-Match": f'W/"{before[1]["/2017/law/12"]}"'})
    assert hits.status_code == 304
    assert _kept(fresh) == ([u for u in before[0] if u != "/2017/law/12"] + ["/2017/law/12"],) + before[1:]
