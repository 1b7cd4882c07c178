"""Auction rulings in a real browser (headless Chromium, /usr/bin/chromium,
at 390×844): the JavaScript walker answers every fixture case exactly as the
Python walker does; the ruling flow works by taps, without JavaScript, and
offline after a first visit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import auction
from test_browser import ARGS, CHROMIUM, PHONE, serve, wait_until  # noqa: F401 (shared browser helpers)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_auction.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]


@pytest.fixture(scope="module")
def base_url(app):
    with serve(app) as (url, _server):
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              service_workers="block")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert not errors, errors


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
