"""The plain-words layer and the hand-off to the rulings, as a phone shows
them: a question typed on the home page leads to the provision with its
plain words, and to the ruling procedure, in two taps, online and with the
server stopped; the phone's port of the hand-off (static/search.js) gives
what laws/rulings/handoff.py gives."""
from __future__ import annotations

import pytest

from laws.rulings import handoff
from test_browser import (CHROMIUM, PHONE, browser, cut_off, serve, wait_kept_offline,  # noqa: F401 (browser: a fixture)
                          wait_until, watched_page)
from test_search_handoff import CASES, SEATED

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

QUESTION = "partner hesitated then bid game"
ANSWER = ("16B1(a)", "/2017/law/16#16B1(a)")
RULING = "/rulings/guided/unauthorized-information?edition=2017"


def test_the_phone_offers_what_the_server_offers(browser, app):
    """Every case of tests/test_search_handoff.py, and the facts of each
    question, through static/search.js over the payload the phone keeps."""
    with serve(app) as (url, _server), watched_page(browser) as pg:
        pg.goto(f"{url}/offline/search")
        got = pg.evaluate("""async ([cases, seated]) => {
            const engine = LawbookSearch.create(await (await fetch('/offline/search.json')).json());
            return [cases.map(([ed, q, pid]) => [engine.offer(ed, pid, q), LawbookSearch.facts(q)]),
                    seated.map(q => LawbookSearch.withoutSeats(q))];
        }""", [[list(asked) for asked, _ in CASES], [q for q, _ in SEATED]])
    want = [[handoff.offer(ed, pid, q), handoff.facts(q)] for (ed, q, pid), _ in CASES]
    assert got == [want, [ranked for _, ranked in SEATED]]


def ask_on_the_home_page(pg, url: str) -> None:
    """Tap 1: the question typed in the home page's box, sent."""
    pg.goto(f"{url}/")
    box = pg.locator("#jump-home")
    box.fill(QUESTION)  # typed keys, not taps
    pg.locator("form.jump-big button[type=submit]").tap()


def first_result(pg, offline: bool):
    results = "#offline-results" if offline else "ol.results"
    if offline:
        wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
    first = pg.locator(f"{results} > li").first
    first.wait_for()
    return first


def assert_two_taps(pg, url: str, offline: bool) -> None:
    ask_on_the_home_page(pg, url)
    first = first_result(pg, offline)
    link = first.locator("h2 a")
    assert link.get_attribute("href") == ANSWER[1]
    plain = first.locator(".plain-words")
    assert plain.text_content().startswith("In plain words · not part of the Laws")
    ruling = first.locator(".to-ruling a")
    assert ruling.get_attribute("href") == RULING
    assert ruling.inner_text() == "Rule on: Unauthorized information →"
    link.tap()  # tap 2: the provision, with its plain words under it
    pg.wait_for_url(f"**{ANSWER[1]}")
    gloss = pg.locator(f'section[id="{ANSWER[0]}"] .plain-words')
    assert gloss.is_visible()
    assert "not part of the Laws" in gloss.inner_text()

    ask_on_the_home_page(pg, url)
    first_result(pg, offline).locator(".to-ruling a").tap()  # tap 2: the ruling procedure
    pg.wait_for_url(f"**{RULING}")
    assert "nauthorized information" in pg.inner_text("h1")


def test_from_the_home_page_to_the_provision_and_the_ruling_in_two_taps(browser, app):
    with serve(app) as (url, _server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
        pg = ctx.new_page()
        assert_two_taps(pg, url, offline=False)
        ctx.close()


def test_the_same_with_no_connection(browser, app):
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=90)
        pg.goto(f"{url}{RULING}")  # the guided procedures are kept with the code in force; opened once here
        cut_off(server, ctx)
        assert_two_taps(pg, url, offline=True)
        ctx.close()


def test_a_reader_can_hide_the_plain_words(browser, app):
    with serve(app) as (url, _server), watched_page(browser) as pg:
        pg.goto(f"{url}/2017/law/16#16B1(a)")  # landed on: its section open (a long law is folded)
        gloss = pg.locator('section[id="16B1(a)"] .plain-words')
        assert gloss.is_visible()
        toggle = pg.locator(".plain-toggle")
        toggle.tap()
        assert not gloss.is_visible()
        assert toggle.get_attribute("aria-pressed") == "true"
        pg.goto(f"{url}/2017/law/12#12A")  # the choice is kept on this device
        assert not pg.locator(".plain-words").first.is_visible()
        pg.locator(".plain-toggle").tap()
        assert pg.locator(".plain-words").first.is_visible()


# a word set on two lines ("Nort h") has two boxes
BROKEN_WORDS = """(selector) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                if (range.getClientRects().length > 1) out.push(m[0]);
            }
        }
    }
    return out;
}"""


@pytest.mark.parametrize("path, selector", [
    ("/rulings/auction", ".seat-switch .seat"),
    ("/rulings/play", ".seat-switch .seat"),
    ("/search?q=revoke", ".search-form button"),
])
def test_no_word_is_broken_at_360_px(browser, app, path, selector):  # noqa: F811
    """Issue 20's 360 px findings: seat buttons read "Nort h", "Wes t", the
    search button "Sear ch"."""
    with serve(app) as (url, _server):
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  service_workers="block")
        pg = ctx.new_page()
        pg.goto(url + path)
        pg.locator(selector).first.wait_for()
        assert pg.evaluate(BROKEN_WORDS, selector) == []
        ctx.close()
