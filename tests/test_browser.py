"""The site in a real browser at phone size (390×844): headless Chromium (the
system's, at /usr/bin/chromium; .ci/run installs it) driven by Playwright,
against the real app served on a free port over the session's build.

A screenshot of a law page is saved in tests/artifacts/ for a human to look at.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import pytest
from werkzeug.serving import make_server

from conftest import ARGS, CHROMIUM  # noqa: F401 (ARGS: imported from here by other browser tests)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]


@contextmanager
def serve(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url(app):
    with serve(app) as (url, _server):
        yield url


@pytest.fixture(scope="module")
def browser(chromium):
    """The worker's Chromium (conftest `chromium`), launched once for every
    browser test file rather than once per file."""
    return chromium


def phone_context(browser, **extra):
    """A browser context the size of a phone, touch and all."""
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **extra)


@contextmanager
def watched_page(browser, allowed=lambda error: False):
    """A phone page with no service worker, failing the test on any script
    error or console error (a CSP violation is one) but those `allowed`."""
    ctx = phone_context(browser, service_workers="block")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert not [e for e in errors if not allowed(e)], errors


@pytest.fixture()
def page(browser):
    # no service worker here: these tests are about the pages and the network
    with watched_page(browser, allowed=lambda e: "404" in e) as pg:  # a 404 asked for on purpose
        yield pg


def in_view(pg, pid: str) -> dict:
    """Where the element with id `pid` sits, relative to the viewport and the sticky header."""
    return pg.evaluate("""(id) => {
        const el = document.getElementById(id);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        const h = document.querySelector('header.site').getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, header: h.bottom, height: innerHeight};
    }""", pid)


def wait_until(pg, expression: str, arg=None, timeout: float = 30.0):
    """Poll `expression` in the page until it is true.  (Playwright's
    wait_for_function evaluates a string, which the site's CSP forbids.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if pg.evaluate(expression, arg):
                return
        except Exception:  # navigating: the context was replaced
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {expression}")


def wait_kept_offline(pg, timeout: float = 120):
    """Until the service worker has kept what a phone keeps (static/app.js
    marks the page `data-offline="ready"`)."""
    wait_until(pg, "() => document.documentElement.dataset.offline === 'ready'", timeout=timeout)


def cut_off(server, ctx):
    """The server gone and the network cut: from now on the phone answers alone."""
    server.shutdown()
    server.server_close()
    ctx.set_offline(True)


def assert_landed(pg, pid: str):
    pos = in_view(pg, pid)
    assert pos is not None, f"no element {pid}"
    assert pos["header"] - 2 <= pos["top"] < pos["height"] * 0.5, pos  # below the header, near the top


def test_deep_link_lands_on_the_provision(page, base_url):
    page.goto(f"{base_url}/2007/law/12#12C1(b)")
    page.wait_for_load_state("load")
    assert_landed(page, "12C1(b)")


def test_tapping_a_cross_reference_navigates(page, base_url, db):
    row = db.execute("select from_law, from_id, to_law, to_id from refs where edition = '2007' and resolved = 1 and field = 'text' "
                     "and to_law != from_law and to_id != cast(to_law as text) order by id limit 1").fetchone()
    page.goto(f"{base_url}/2007/law/{row['from_law']}#{row['from_id']}")  # a long law opens folded but for it
    link = page.locator(f'a.xref[href="/2007/law/{row["to_law"]}#{row["to_id"]}"]').first
    link.scroll_into_view_if_needed()
    link.tap()
    page.wait_for_url(f"**/2007/law/{row['to_law']}#*")
    assert unquote(page.url.split("#", 1)[1]) == row["to_id"]
    assert_landed(page, row["to_id"])


def test_relative_reference_moves_within_the_page(page, base_url, db):
    row = db.execute("select from_law, from_id, to_id from refs where edition = '2007' and resolved = 1 and field = 'text' "
                     "and to_law = from_law and to_id != cast(to_law as text) order by id limit 1").fetchone()
    page.goto(f"{base_url}/2007/law/{row['from_law']}#{row['from_id']}")  # a long law opens folded but for it
    link = page.locator(f'a.xref[href="#{row["to_id"]}"]').first
    link.scroll_into_view_if_needed()
    link.tap()
    wait_until(page, "id => decodeURIComponent(location.hash.slice(1)) === id", row["to_id"])
    assert_landed(page, row["to_id"])


@pytest.mark.parametrize("start, typed, path, pid", [
    ("/", "27B1", "/2017/law/27", "27B1"),  # the newest edition with it, now that 2017 is complete
    ("/2007/law/1", "L12C1b", "/2007/law/12", "12C1(b)"),
    ("/", "law 40 b 2", "/2017/law/40", "40B2"),  # the newest edition with it
    ("/2007/law/1", "law 40 b 2", "/2007/law/40", "40B2"),  # the edition being read
    ("/2007/law/12", "12C3", "/2007/law/12", "12C3"),  # on the same page
])
def test_jump_box_goes_to_the_provision(page, base_url, start, typed, path, pid):
    page.goto(base_url + start)
    page.fill("header.site input[name=q]", typed)
    page.press("header.site input[name=q]", "Enter")
    page.wait_for_url(f"**{path}#*")
    assert unquote(page.url.split("#", 1)[1]) == pid
    page.wait_for_load_state("load")
    assert_landed(page, pid)


def test_jump_box_works_without_javascript(browser, base_url):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/")
    pg.fill("header.site input[name=q]", "12C1b")
    pg.press("header.site input[name=q]", "Enter")
    pg.wait_for_url("**/2017/law/12#*")
    assert unquote(pg.url.split("#", 1)[1]) == "12C1(b)"
    ctx.close()


def test_jump_box_sends_words_to_search(page, base_url):
    page.goto(f"{base_url}/")
    page.fill("header.site input[name=q]", "revoke")
    page.press("header.site input[name=q]", "Enter")
    page.wait_for_url("**/search?q=revoke")


def test_browser_and_server_resolve_citations_alike(page, base_url, app):
    from laws.web.pages import resolve

    queries = ["27B1", "L12C1b", "law 40 b 2", "12C1(z)", "35.1", "35 1", "64", "64 c 2", "40B2(a)(v)",
               "l 27 b 1", "Law 16B1(a)", "93", "98", "12 zz", "revoke", "41",
               "2007 45C4", "2007:12C1b", "1993-rubber 64", "1993-rubber 12", "2017 law 40 b 2", "2007 revoke"]
    page.goto(f"{base_url}/")
    index = page.evaluate("fetch('/offline/index.json').then(r => r.json())")
    for hint in ("", "2007", "2017", "1993-rubber"):
        got = page.evaluate("([idx, qs, hint]) => qs.map(q => LawbookCite.resolve(idx, q, hint))",
                            [index, queries, hint])
        with app.test_request_context():
            want = [resolve(q, hint or None) for q in queries]
        assert got == want, hint


def _law_pages_longest_first(client, db, how_many: int) -> list[str]:
    urls = [f"/{r[0]}/law/{r[1]}" for r in db.execute(
        "select l.edition, l.number from laws l join editions e on e.id = l.edition where e.kind = 'code'")]
    sizes = sorted(urls, key=lambda u: -len(client.get(u).data))
    return sizes[:how_many]


def test_no_horizontal_overflow(page, base_url, client, db):
    urls = _law_pages_longest_first(client, db, 12)
    urls += ["/2007/law/77", "/2007/law/78", "/2007/law/2", "/", "/2007/", "/1993-rubber/", "/2007/definitions",
             "/guide", "/sources", "/guide/topic:introduction", "/no-such-page", "/offline/search"]
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        for url in urls:
            page.goto(base_url + url)
            w = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert w[0] <= w[1], (url, width, w)


def test_controls_are_at_least_44px(page, base_url):
    page.goto(f"{base_url}/2007/law/12")
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        'header.site input, header.site button, .brand, a.cite, .prevnext a, .crumbs a, footer.site nav a')]
        .filter(el => el.getClientRects().length)  // shown
        .map(el => { const r = el.getBoundingClientRect(); return [el.textContent.trim().slice(0, 20), r.width, r.height]; })""")
    assert sizes
    small = [s for s in sizes if s[1] < 43.5 or s[2] < 43.5]
    assert not small, small
    page.goto(f"{base_url}/2007/")
    rows = page.evaluate("[...document.querySelectorAll('.toc a')].map(a => a.getBoundingClientRect().height)")
    assert min(rows) >= 43.5


def test_header_stays_on_screen(page, base_url):
    page.goto(f"{base_url}/2007/law/40")
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(200)
    top = page.evaluate("document.querySelector('header.site').getBoundingClientRect().top")
    assert top == 0


def test_screenshot_of_a_law_page(browser, base_url):
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, service_workers="block")
        pg = ctx.new_page()
        pg.goto(f"{base_url}/2007/law/12#12C1(b)")
        pg.wait_for_load_state("load")
        path = ARTIFACTS / f"law-12-phone-{scheme}.png"
        pg.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
        if scheme == "light":
            pg.goto(f"{base_url}/2007/law/77")
            pg.screenshot(path=str(ARTIFACTS / "law-77-phone-full.png"), full_page=True)
        ctx.close()


def test_works_offline_after_a_first_visit(browser, app):
    """One visit online; then the server goes away and the network is cut:
    the code in force, the pages opened, the guide and the jump box still
    work, and search answers words from the payload this device kept
    (static/search.js).  Another edition's pages are kept as they are opened
    (or all at once on request: test_offline_scale.py)."""
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        pg.goto(f"{url}/2007/law/1")
        wait_kept_offline(pg, timeout=90)
        pg.goto(f"{url}/1993-rubber/law/64")
        cut_off(server, ctx)

        pg.goto(f"{url}/2017/law/93")
        assert "Law 93" in pg.inner_text("h1")
        pg.goto(f"{url}/2017/")
        assert "2017" in pg.inner_text("h1")
        pg.goto(f"{url}/2007/law/1")  # opened: kept
        assert "Law 1" in pg.inner_text("h1")
        pg.goto(f"{url}/1993-rubber/law/64")
        assert "Law 64" in pg.inner_text("h1")
        pg.goto(f"{url}/2017/definitions")
        assert pg.locator("dt").count() > 10
        pg.goto(f"{url}/guide/topic:lead-penalties")
        assert pg.locator("h1").count() == 1

        pg.fill("header.site input[name=q]", "12C1b")
        pg.press("header.site input[name=q]", "Enter")
        pg.wait_for_url("**/2017/law/12#*")
        pg.wait_for_load_state("load")
        assert "Law 12" in pg.inner_text("h1")
        assert_landed(pg, "12C1(b)")

        # the jump box's form, without the page's script: answered by the service worker
        pg.goto(f"{url}/go?q=law+40+b+2")
        assert pg.url.endswith("/2017/law/40#40B2")

        # words, with the server stopped: the search page and the jump box answer from this device
        pg.goto(f"{url}/search?q=lead+out+of+turn")
        wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
        firsts = pg.eval_on_selector_all("#offline-results h2 a", "as => as.map(a => a.getAttribute('href'))")
        assert firsts and any(f"/law/{n}" in h for h in firsts[:3] for n in (53, 54, 55, 56)), firsts
        assert "offline" in pg.inner_text("h1").lower()

        pg.fill("header.site input[name=q]", "revoke on trick twelve")
        pg.press("header.site input[name=q]", "Enter")
        wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
        first = pg.locator("#offline-results h2 a").first
        # 62D1: "on the twelfth trick, a revoke, even if established, must be corrected"
        assert first.get_attribute("href") == "/2017/law/62#62D1"
        first.tap()
        pg.wait_for_url("**/law/62#62D1")
        assert "Law 62" in pg.inner_text("h1")

        pg.goto(f"{url}/search?q=law+99")
        wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
        assert "There is no Law 99; the Laws run 1–93." in pg.inner_text("#offline-message")
        ctx.close()
