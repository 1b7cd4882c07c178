"""Auction rulings in a real browser (headless Chromium, /usr/bin/chromium,
at 390×844): the JavaScript walker answers every fixture case exactly as the
Python walker does; the ruling flow works by taps, without JavaScript, and
offline after a first visit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import auction
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, PHONE, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until,
    watched_page)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_auction.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]


@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def _requests() -> list[dict]:
    return [{"edition": ed, "dealer": c["dealer"], "calls": c["calls"], "findings": c["findings"]}
            for c in CASES for ed in ("2007", "2017")]


def test_javascript_walker_gives_the_same_rulings(page, base_url):
    page.goto(f"{base_url}/rulings/auction")
    requests = _requests()
    got = page.evaluate("""async (reqs) => {
        const bundle = await (await fetch('/rulings/auction.json')).json();
        return reqs.map(r => { try { return LawbookRulings.auction.rule(bundle.editions, r); }
                               catch (e) { return {error: String(e.message || e)}; } });
    }""", requests)
    want = [auction.rule(r) for r in requests]
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:2]
    assert len(got) == 2 * len(CASES)


def _tap_calls(pg, calls):
    """Tap each call in the bidding box, switching seat first when given."""
    for seat, call in calls:
        if seat:
            pg.tap(f".seat-switch [data-seat='{seat}']")
        pg.tap(f".entry .bidding-box [data-call='{call}']")


def _fits(pg) -> bool:
    return pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_insufficient_bid_by_taps(page, base_url):
    page.goto(f"{base_url}/rulings")
    page.tap("text=Irregularity in the auction")
    wait_until(page, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
    page.tap(".editions button:has-text('2007 Laws')")
    _tap_calls(page, [(None, "1H"), (None, "1D")])
    assert page.inner_text("table.auction").count("1") >= 2
    page.tap("#rule")
    assert "insufficient bid by East" in page.inner_text(".ruling h2")
    assert "Law 27" in page.inner_text(".ruling h2")
    page.tap(".answers [data-value='no']")            # South does not accept
    page.tap(".question .bidding-box [data-call='2NT']")   # East's replacement
    page.tap(".answers [data-value='no']")            # not the same meaning
    page.tap(".answers [data-value='yes']")           # 1D related only to diamonds (26A)
    page.tap(".answers [data-value='no']")            # East had not specified diamonds
    text = page.inner_text(".ruling")
    assert "West must pass whenever it is his turn" in text
    assert "require" in text  # 2007 26A2: require or prohibit
    assert "The 2017 Laws differ" in text
    assert "calls=1H+1D" in page.url and "replacement=2NT" in page.url
    # a provision opens its text in place
    page.tap(".ruling .cites summary >> text=Law 27B2")
    assert page.locator(".ruling .cites details[open] .provision-text").first.inner_text().strip()
    assert _fits(page)
    page.tap(".editions button:has-text('2017 Laws')")
    assert "must pass whenever" in page.inner_text(".ruling")
    assert "declarer may, at West" in page.inner_text(".ruling")


def test_call_out_of_turn_with_the_seat_switch(page, base_url):
    page.goto(f"{base_url}/rulings/auction?edition=2017")
    wait_until(page, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
    _tap_calls(page, [(None, "1H"), ("W", "P")])
    page.tap("#rule")
    assert "pass out of rotation by West" in page.inner_text(".ruling h2")
    page.tap(".options button:has-text('may refuse')")   # an option is a big button
    page.tap(".answers [data-value='no']")               # not artificial
    assert "comparable" in page.inner_text(".question")
    page.tap(".answers [data-value='no']")
    text = page.inner_text(".ruling")
    assert "East must pass when next it is his turn" in text
    assert "The 2007 Laws differ" in text and "offender must pass" in text


def test_the_flow_without_javascript(browser, base_url):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/auction")
    pg.select_option("#f-edition", "2007")
    pg.fill("#f-calls", "1H 1D")
    pg.click("form.auction-form button[type=submit]")
    assert "insufficient bid by East" in pg.inner_text(".ruling h2")
    pg.click("form.question button[value='no']")
    pg.fill("#q-call", "2D")
    pg.click("form.question button[type=submit]")
    pg.click("form.question button[value='yes']")  # both natural
    text = pg.inner_text(".ruling")
    assert "without further rectification" in text and "Next to call" in text
    pg.click(".ruling .cites summary >> nth=0")
    assert pg.locator(".ruling .cites details[open]").count() == 1
    assert _fits(pg)
    ctx.close()


def test_same_ruling_offline(browser, app):
    """One visit online; then the server goes away: a ruling's own address
    gives the same ruling, computed on the phone."""
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        address = "/rulings/auction?edition=2007&dealer=N&calls=1H+W:P&accepted=no&artificial=no"
        pg.goto(url + address)
        online = pg.inner_text(".ruling")
        wait_kept_offline(pg)
        cut_off(server, ctx)
        pg.goto(url + address)
        wait_until(pg, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
        offline = pg.inner_text(".ruling")
        assert "West must pass whenever it is his turn" in offline
        assert "West must pass whenever it is his turn" in online
        # a new ruling, tapped in with no network
        pg.goto(url + "/rulings/auction?edition=2017")
        wait_until(pg, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
        _tap_calls(pg, [(None, "6NT"), (None, "P"), (None, "P")])
        pg.tap(".seat-switch [data-seat='N']")
        pg.tap(".entry .bidding-box [data-call='P']")
        pg.tap("#rule")
        assert "Law 34" in pg.inner_text(".ruling h2")  # North passed at West's turn: West keeps his right to call
        pg.goto(url + "/rulings")
        assert "Rulings at the table" in pg.inner_text("h1")
        ctx.close()
