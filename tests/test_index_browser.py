"""The official index page (/2017/index) in a real browser at phone size
(390×844), with and without JavaScript."""
from __future__ import annotations

import re

import pytest

from test_browser import ARGS, CHROMIUM, PHONE, base_url, browser, page, wait_until  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

VISIBLE = """() => [...document.querySelectorAll('.ix-heading')]
    .filter(el => el.getClientRects().length).map(el => el.id)"""
VISIBLE_ENTRIES = """() => [...document.querySelectorAll('.ix-heading, .ix-subs li')]
    .filter(el => el.getClientRects().length).length"""


def server_filter(client, q: str) -> list[str]:
    html = client.get("/2017/index", query_string={"q": q}).get_data(as_text=True)
    return re.findall(r'<div class="ix-heading" id="([^"]+)"', html)


def test_filter_without_javascript(browser, base_url):  # noqa: F811
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/2017/index")
    pg.fill("#ix-q", "comparable call")
    pg.press("#ix-q", "Enter")
    pg.wait_for_url("**/2017/index?q=comparable+call")
    assert pg.evaluate(VISIBLE) == ["i-bid", "i-call", "i-comparable-call", "i-double", "i-insufficient-bid",
                                    "i-pass", "i-redouble"]
    pg.click("text=Insufficient bid, comparable call >> a")
    pg.wait_for_url("**/2017/law/23#23A")
    ctx.close()


def test_filter_live_with_javascript(page, base_url, client):  # noqa: F811
    page.goto(f"{base_url}/2017/index")
    total = page.evaluate(VISIBLE_ENTRIES)
    assert total == 805
    page.fill("#ix-q", "insufficient bid")  # fires 'input': no submit, no navigation
    wait_until(page, "() => document.getElementById('ix-count').textContent.includes('match')")
    assert page.evaluate(VISIBLE) == server_filter(client, "insufficient bid")
    assert page.url.endswith("/2017/index?q=insufficient+bid")  # the address can be shared
    page.fill("#ix-q", "")
    assert page.evaluate(VISIBLE_ENTRIES) == 805


def test_live_filter_from_a_filtered_page(page, base_url, client):  # noqa: F811
    """A page served filtered (?q=) still filters live over the whole index."""
    page.goto(f"{base_url}/2017/index?q=bid")
    assert page.evaluate(VISIBLE) == server_filter(client, "bid")
    page.fill("#ix-q", "revoke")
    wait_until(page, "(ids) => JSON.stringify([...document.querySelectorAll('.ix-heading')]"
                     ".filter(el => el.getClientRects().length).map(el => el.id)) === JSON.stringify(ids)",
               server_filter(client, "revoke"))


def test_see_also_jumps_to_the_heading(page, base_url):  # noqa: F811
    page.goto(f"{base_url}/2017/index")
    page.click("#i-bid .ix-see a")
    page.wait_for_url("**/2017/index#i-call")
    top = page.evaluate("document.getElementById('i-call').getBoundingClientRect().top")
    header = page.evaluate("document.querySelector('header.site').getBoundingClientRect().bottom")
    assert header - 2 <= top < 844 / 2


def test_phone_layout(page, base_url):  # noqa: F811
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        for url in ("/2017/index", "/2017/index?q=insufficient", "/2017/index?q=nothing+at+all"):
            page.goto(base_url + url)
            w = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert w[0] <= w[1], (url, width, w)
    page.goto(f"{base_url}/2017/index")
    sizes = page.evaluate("""() => [...document.querySelectorAll('.ix-filter input, .ix-filter button, .letters a')]
        .filter(el => el.getClientRects().length)
        .map(el => { const r = el.getBoundingClientRect(); return [el.textContent.trim() || el.id, r.width, r.height]; })""")
    assert len(sizes) >= 3
    assert [s for s in sizes if s[1] < 43.5 or s[2] < 43.5] == []


def test_the_index_of_the_code_in_force_works_offline(browser, app, client):  # noqa: F811
    """Kept with the code in force: with the server stopped and no network,
    the index opens, and an address filtered with ?q= shows what the server
    would have shown."""
    from test_browser import cut_off, serve, wait_kept_offline

    assert "/2017/index" in client.get("/offline/pages.json").get_json()["pages"]
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=90)
        cut_off(server, ctx)
        pg.goto(f"{url}/2017/index")
        assert pg.evaluate(VISIBLE_ENTRIES) == 805
        pg.goto(f"{url}/2017/index?q=revoke")
        wait_until(pg, "(ids) => JSON.stringify([...document.querySelectorAll('.ix-heading')]"
                       ".filter(el => el.getClientRects().length).map(el => el.id)) === JSON.stringify(ids)",
                   server_filter(client, "revoke"))
        assert pg.input_value("#ix-q") == "revoke"
        ctx.close()
