"""At the table in ten seconds (issue 13), in a real browser at 360 and 390 px:
landing on a provision with its context, the outline and the navigation of a
law page, copying a citation, printing, every page scanned for horizontal
overflow and small tap targets, and the director's five calls walked from
the home page in at most three taps.  Offline search is tested with the rest
of the offline site in test_browser.py."""
from __future__ import annotations

import json
from urllib.parse import unquote, urlencode

import pytest

from tests.test_browser import ARGS, CHROMIUM, serve, wait_until  # noqa: F401  (same browser, same server)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]
WIDTHS = (360, 390)


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


def new_page(browser, width: int, **kw):
    ctx = browser.new_context(viewport={"width": width, "height": 780}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, service_workers="block", **kw)
    return ctx, ctx.new_page()


# --- landing and reading -------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_landing_shows_the_law_its_headings_and_the_provision(browser, base_url, width):
    ctx, pg = new_page(browser, width)
    pg.goto(f"{base_url}/2017/law/27#27B1")
    pg.wait_for_load_state("load")
    wait_until(pg, "() => !!document.querySelector('.landing')")
    pg.wait_for_timeout(100)
    seen = pg.evaluate("""() => {
        const h = document.querySelector('header.site').getBoundingClientRect().bottom;
        const on = el => { const r = el.getBoundingClientRect(); return r.top >= h - 1 && r.bottom <= innerHeight; };
        const box = document.querySelector('.landing');
        const target = document.getElementById('27B1');
        return {box: on(box), text: box.innerText, target: target.getBoundingClientRect().top < innerHeight - 40};
    }""")
    ctx.close()
    assert seen["box"] and seen["target"], seen
    assert "Law 27" in seen["text"] and "Insufficient Bid" in seen["text"]
    assert "B. Insufficient Bid Not Accepted" in seen["text"]


@pytest.mark.parametrize("width", WIDTHS)
def test_law_page_has_outline_navigation_and_back_to_top(browser, base_url, width):
    ctx, pg = new_page(browser, width)
    pg.goto(f"{base_url}/2017/law/40")
    top = pg.evaluate("""() => ({
        outline: [...document.querySelectorAll('.outline a')].map(a => a.innerText.replace(/\\s+/g, ' ').trim()),
        prevTop: !!document.querySelector('.prevnext.top a[rel=prev]'),
        nextTop: !!document.querySelector('.prevnext.top a[rel=next]'),
        outlineOnFirstScreen: document.querySelector('.outline').getBoundingClientRect().top < innerHeight,
    })""")
    assert top["outline"][:3] == ["A. Players' Systemic Agreements", "B. Special Partnership Understandings",
                                  "C. Deviation from System and Psychic Action"]
    assert top["prevTop"] and top["nextTop"] and top["outlineOnFirstScreen"]
    pg.locator(".outline a").nth(2).tap()
    wait_until(pg, "() => location.hash === '#40C'")
    pg.locator("a.to-top").scroll_into_view_if_needed()
    pg.locator("a.to-top").tap()
    wait_until(pg, "() => scrollY < 5")
    ctx.close()


def test_copy_citation_gives_the_citation_and_the_link(browser, base_url):
    ctx, pg = new_page(browser, 390, permissions=["clipboard-read", "clipboard-write"])
    pg.goto(f"{base_url}/2017/law/27")
    label = pg.locator('[id="27B1"] a.cite.label').first
    label.scroll_into_view_if_needed()
    label.click()
    copied = pg.evaluate("navigator.clipboard.readText()")
    status = pg.locator("#status")
    assert copied == f"Law 27B1 (2017 Laws of Duplicate Bridge)\n{base_url}/2017/law/27#27B1"
    assert status.is_visible() and "Copied: Law 27B1 (2017 Laws of Duplicate Bridge)" in status.inner_text()
    pg.locator(".law-head a.cite").click()
    assert pg.evaluate("navigator.clipboard.readText()") == f"Law 27 (2017 Laws of Duplicate Bridge)\n{base_url}/2017/law/27"
    ctx.close()


def test_print_keeps_labels_the_edition_and_the_date(browser, base_url):
    ctx, pg = new_page(browser, 390)
    pg.goto(f"{base_url}/2007/law/64")
    pg.emulate_media(media="print")
    shown = pg.evaluate("""() => ({
        labels: [...document.querySelectorAll('a.cite.label')].filter(a => a.offsetParent !== null).map(a => a.innerText.trim()),
        head: document.querySelector('.print-head').innerText,
        headShown: document.querySelector('.print-head').offsetParent !== null,
    })""")
    ctx.close()
    assert shown["headShown"]
    assert "Laws of Duplicate Bridge 2007" in shown["head"] and "2007" in shown["head"]
    assert __import__("re").search(r"\d{4}-\d\d-\d\d", shown["head"])  # the date of the text served
    assert shown["labels"][:4] == ["A.", "1.", "2.", "B."]


# --- a scan of every page -------------------------------------------------------------

SCAN = """() => {
    const out = {overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, small: []};
    const inline = el => {
        if (getComputedStyle(el).display !== 'inline') return false;
        const block = el.closest('p, li, dd, td, th, figcaption, small, span.snippet, div.guide-text');
        return !!block && block.textContent.trim().length > el.textContent.trim().length + 1;
    };
    for (const el of document.querySelectorAll('a[href], button, input, select, textarea, summary')) {
        if (el.type === 'hidden' || el.closest('.visually-hidden') || el.classList.contains('skip')) continue;
        let box = el;
        if (el.type === 'checkbox' || el.type === 'radio') box = el.closest('label') || (el.labels && el.labels[0]) || el;
        const r = box.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
        if (el.tagName === 'A' && inline(el)) continue;
        if (r.width < 43.5 || r.height < 43.5)
            out.small.push([el.tagName, (el.innerText || el.value || el.name || '').trim().slice(0, 30), Math.round(r.width), Math.round(r.height)]);
    }
    return out;
}"""


def every_page(client) -> list[str]:
    from laws.web import site

    with client.application.test_request_context():
        pages = site.every_page()
    pages += ["/search", "/search?" + urlencode({"q": "lead out of turn"}), "/search?q=law+99", "/compare",
              "/compare/40?from=2007&to=2017", "/compare/64?from=1993-rubber&to=2007", "/checkers", "/no-such-page"]
    pages += [f"/checkers/{c['id']}" for c in json.loads(client.get("/api/checkers").data)]
    pages += ["/2017/index"] if client.get("/2017/index").status_code == 200 else []
    # ruling records (the offline list has only the record's shell): of a play ruling, and with a score
    # carried from a checker; a checker opened for a record
    ui = "procedure=unauthorized-information&edition=2017&ui_source=partner&ui_available=yes&ui_suggested=yes" \
         "&ui_logical_alternative=yes&ui_damaged=yes&assigned_possible=assigned&self_inflicted=no"
    pages += ["/rulings/record?procedure=play&edition=2017&contract=4S&declarer=S&play=E:HK&misinformed=no",
              f"/rulings/record?{ui}&" + urlencode({"calc": "score;level=4;strain=S;tricks=10;declarer=S;weight=60"}),
              "/checkers/weighted-score?" + urlencode({"record": ui, "outcomes": "620 420", "weights": "40 60"})]
    return pages


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_and_every_tap_target_is_44px(browser, base_url, client, width):
    pages = every_page(client)
    if width != 360:  # the narrowest width sees every page; the other a sample of each kind
        pages = pages[::7] + ["/compare/40?from=2007&to=2017", "/search?q=revoke", "/2017/law/40"]
    ctx, pg = new_page(browser, width)
    bad_overflow, bad_targets = [], []
    for url in pages:
        pg.goto(base_url + url, wait_until="domcontentloaded")
        got = pg.evaluate(SCAN)
        if got["overflow"] > 0:
            bad_overflow.append((url, got["overflow"]))
        if got["small"]:
            bad_targets.append((url, got["small"][:5]))
    ctx.close()
    assert len(pages) > 300 or width != 360
    assert not bad_overflow, bad_overflow[:20]
    assert not bad_targets, bad_targets[:20]


# --- the five calls -------------------------------------------------------------------

CALLS = [  # what the director types at the table, and where it must land
    ("partner hesitated then bid", lambda url: "/law/16#16B" in url or "/law/73#73C" in url),
    ("insufficient bid", lambda url: "/law/27" in url),
    ("lead out of turn", lambda url: any(f"/law/{n}" in url for n in (53, 54, 55, 56))),
    ("what changed in Law 40", lambda url: "/compare/40?from=2007&to=2017" in url),
    ("revoke on trick twelve", lambda url: "/law/62#62D" in url),
]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("question, right", CALLS, ids=[q for q, _ in CALLS])
def test_the_five_calls_take_three_taps_from_home(browser, base_url, width, question, right):
    ctx, pg = new_page(browser, width)
    pg.goto(f"{base_url}/")
    taps = 0
    pg.locator("header.site input[name=q]").tap()  # 1: the box
    taps += 1
    pg.keyboard.type(question)
    pg.locator("header.site .jump button").tap()  # 2: Go
    taps += 1
    pg.wait_for_url("**/search?**")
    first = pg.locator("ol.results li.result h2 a").first
    with pg.expect_navigation():
        first.tap()  # 3: the first result
    taps += 1
    url = unquote(pg.url)
    ctx.close()
    assert taps <= 3 and right(url), url
