"""The account in words that opens a law's comparison (issue 22), read in a
real browser on a phone 360 px wide: Laws 27 and 12 of 2007 -> 2017, the
two the issue names.

What a director sees before the redline: the names of what changed, one
sentence of at most four lines of its own line height, each name a link
inside the sentence (WCAG 2.5.8's inline exception, as the links inside the
Laws' sentences); the changed phrases folded under it in a <details> whose
summary is a 44 px target.  No sideways scroll; every link lands on an
element of the page.  Online, and the same with the server stopped and the
network cut, from the pages the service worker keeps.
"""
from __future__ import annotations

import pytest

from laws import compare
from laws.compare import account as acc

from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, browser, cut_off, serve, wait_kept_offline)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

LAWS = (27, 12)
PHONE = {"width": 360, "height": 780}
LINES_MAX = 4

READ = """() => {
    const lead = document.querySelector('.account-lead');
    const lineHeight = parseFloat(getComputedStyle(lead).lineHeight);
    // the rows its text sits on, from the text's own line boxes
    const range = document.createRange();
    range.selectNodeContents(lead);
    const rows = new Set([...range.getClientRects()].filter(r => r.width > 0)
                         .map(r => Math.round(r.top + r.height / 2)));
    const details = document.querySelector('.account-detail');
    const summary = details.querySelector('summary').getBoundingClientRect();
    const links = [...document.querySelectorAll('.account a')].map(a => ({
        href: a.getAttribute('href'), display: getComputedStyle(a).display,
        target: !!document.getElementById(a.getAttribute('href').slice(1))}));
    return {
        lead: lead.innerText, lines: lead.getBoundingClientRect().height / lineHeight, rows: rows.size,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        before: document.querySelector('.account').getBoundingClientRect().bottom
                <= document.querySelector('ol.changes').getBoundingClientRect().top,
        open: details.open, folded: details.querySelector('p').getBoundingClientRect().height,
        summary: [summary.width >= 44, summary.height >= 44], links,
    };
}"""


def phone(browser, **extra):
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **extra)


def read(pg, url: str, law: int) -> dict:
    pg.goto(f"{url}/compare/{law}?from=2007&to=2017", wait_until="load")
    got = pg.evaluate(READ)
    # the reader opens the fold: the phrases show, and still nothing scrolls sideways
    pg.locator(".account-detail summary").tap()
    got["opened"] = pg.evaluate("""() => [document.querySelector('.account-detail').open,
        document.querySelector('.account-detail p').getBoundingClientRect().height > 0,
        document.documentElement.scrollWidth - document.documentElement.clientWidth]""")
    return got


def expected(db, law: int) -> dict:
    a = compare.diff(db, law, "2007", "2017")["account"]
    return {"lead": " ".join("".join(p["text"] for p in a["lead"]).split()),
            "hrefs": [p["href"] for p in a["parts"] if p["href"]]}


def check(got: dict, want: dict, law: int) -> None:
    print(f"\nLaw {law} at 360 px: the names {got['lines']:.2f} lines of their line height "
          f"({got['rows']} rows of text), {len(got['links'])} links")
    assert " ".join(got["lead"].split()) == want["lead"]
    assert acc.words(want["lead"]) <= acc.WORDS_MAX
    assert (round(got["lines"], 1) <= LINES_MAX, got["rows"] <= LINES_MAX) == (True, True), got
    assert (got["overflow"], got["before"], got["open"], got["folded"], got["summary"]) == (
        0, True, False, 0, [True, True])
    assert [(link["href"], link["display"], link["target"]) for link in got["links"]] == [
        (href, "inline", True) for href in want["hrefs"]]
    assert got["opened"] == [True, True, 0]


@pytest.mark.parametrize("law", LAWS)
def test_the_account_reads_in_four_lines_at_360_px(app, db, browser, law):
    with serve(app) as (url, _server):
        ctx = phone(browser, service_workers="block")
        got = read(ctx.new_page(), url, law)
        ctx.close()
    check(got, expected(db, law), law)


def test_the_account_reads_the_same_offline(app, db, browser):
    """After one visit the service worker keeps the comparisons of the code
    in force with the one before it; with no server the kept pages lay the
    account out as the server's did."""
    with serve(app) as (url, server):
        ctx = phone(browser)
        pg = ctx.new_page()
        online = {law: read(pg, url, law) for law in LAWS}
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=240)
        cut_off(server, ctx)
        offline = {law: read(pg, url, law) for law in LAWS}
        ctx.close()
    for law in LAWS:
        check(offline[law], expected(db, law), law)
        assert offline[law] == online[law]
