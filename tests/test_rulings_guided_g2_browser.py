"""Group g2's guided procedures in headless Chromium (/usr/bin/chromium): the
phone's walker (static/rulings/walker.js through LawbookGuided.rule, on the
bundle /rulings/guided.json) gives the same reply as the Python for every
case of tests/fixtures/guided_g2.json and every state on the way to it; and
an appeal is walked to its ending with the server stopped."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import guided
from test_rulings_guided_browser import JS_RULE, answer_until_decided, offline_guided, states
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    CHROMIUM, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until, watched_page)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

CASES = json.loads((Path(__file__).parent / "fixtures" / "guided_g2.json").read_text())["cases"]


@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def _requests() -> list[dict]:
    """Each case, and each state on the way to it."""
    return states(CASES)


def test_javascript_gives_the_same_replies_on_every_case(page, base_url):
    page.goto(f"{base_url}/rulings/guided")
    requests = _requests()
    got = page.evaluate(JS_RULE, requests)
    want = [guided.rule(r) for r in requests]
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:1]
    # and the endings are the fixture's, whole
    ends = {(c["edition"], c["procedure"], tuple(c["answers"].items())): c for c in CASES}
    for r, g in zip(requests, got):
        c = ends.get((r["edition"], r["procedure"], tuple(r["answers"].items())))
        if c:
            assert (g["outcome"]["result"], g["cites"]) == (c["result"], c["cites"]), r


def test_an_appeal_walked_offline(browser, app):
    with offline_guided(browser, app) as (url, pg, errors):
        pg.goto(f"{url}/rulings/guided/appeals?edition=2017")
        answer_until_decided(pg, [("appeal_kind", "advise"), ("appeal_review", "yes"), ("appeal_83", "advise")])
        assert pg.inner_text(".ruling .decision").startswith("Advise the contestant of his right to appeal")
        assert "expires 30 minutes after the official score has been made available" in pg.inner_text(".ruling")
        assert errors == []
