"""The table kit in a real browser (issue 20): the front door at 360 x 740,
and, after one first visit, the whole kit with the server stopped and the
network cut.

* Home: the box and the four starts of "What happened?" are on screen
  without scrolling, each at least 44 px tall, and one tap on each lands on
  its flow.
* Offline: a first visit keeps the kit in the background (the service
  worker writes when it is complete, the offline page says so and how much
  space it takes); then, with no server and no network, a checker (also
  with its inputs in the address), a comparison of the code in force with
  the one before it (typed, and tapped from a law page), the official index
  and the play rulings open, and "Keep the 2007 Laws" still keeps 2007.

The time the worker takes to keep the kit is printed (`-s` shows it).
"""
from __future__ import annotations

import time

import pytest

from laws.checkers import registry

from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, base_url, browser, cut_off, serve, wait_kept_offline, wait_until)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

PHONE = {"width": 360, "height": 740}
STARTS = ["/rulings/auction", "/rulings/play", "/rulings/guided", "/checkers"]


def phone(browser, **extra):
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **extra)


def test_the_four_starts_are_above_the_fold_and_one_tap_away(browser, base_url):
    ctx = phone(browser, service_workers="block")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    for i, href in enumerate(STARTS):
        pg.goto(f"{base_url}/")
        box = pg.locator("#jump-home").bounding_box()
        starts = pg.locator(".starts a.start")
        assert starts.count() == 4
        assert [starts.nth(k).get_attribute("href") for k in range(4)] == STARTS
        assert pg.evaluate("window.scrollY") == 0
        assert 0 < box["y"] and box["y"] + box["height"] <= PHONE["height"]
        for k in range(4):
            r = starts.nth(k).bounding_box()
            assert r["height"] >= 44 and r["width"] >= 44, (k, r)
            assert 0 <= r["y"] and r["y"] + r["height"] <= PHONE["height"], (k, r)  # no scrolling
        assert pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        starts.nth(i).tap()
        pg.wait_for_url(f"{base_url}{href}")
        pg.wait_for_load_state("load")
        assert pg.locator("h1").count() == 1
    ctx.close()
    assert not errors, errors


def held(pg) -> set[str]:
    return set(pg.evaluate("""() => caches.open('lawbook-pages').then(c => c.keys())
        .then(ks => ks.map(r => { const u = new URL(r.url); return u.pathname + u.search; }))"""))


def test_the_whole_kit_opens_with_the_server_stopped(browser, app):
    checkers = registry.all_checkers()
    board = registry.get("board")
    score = registry.get("score")
    with serve(app) as (url, server):
        ctx = phone(browser)
        pg = ctx.new_page()
        kept = app.test_client().get("/offline/pages.json").get_json()["pages"]
        start = time.monotonic()
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=240)
        installed = time.monotonic() - start
        print(f"\nservice worker: the kit of {len(kept)} pages kept {installed:.1f} s after the first visit")
        status = pg.evaluate("""() => caches.open('lawbook-meta').then(c => c.match('/offline/status'))
            .then(r => r && r.json())""")
        assert status["total"] == len(kept) and status["missing"] == 0 and status["complete"] is True, status
        assert set(kept) <= held(pg)

        # the offline page says the kit is complete and what it weighs
        pg.goto(f"{url}/offline")
        wait_until(pg, "() => document.documentElement.dataset.offlineKit === 'complete'")
        assert pg.inner_text("h1") == "Lawbook offline"
        assert pg.inner_text("#offline-status") == f"All {len(kept)} pages are on this device, ready with no connection."
        wait_until(pg, "() => /about [0-9.]+ (KB|MB)/.test(document.getElementById('offline-space').textContent)")
        usage = pg.evaluate("navigator.storage.estimate().then(e => e.usage)")
        print(f"service worker: navigator.storage.estimate() usage {usage / 1024 / 1024:.1f} MB")
        assert pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

        # "Keep the 2007 Laws offline" still keeps 2007, and the offline page says so
        pg.goto(f"{url}/2007/")
        pg.locator("#keep-offline button").tap()
        wait_until(pg, "() => document.getElementById('keep-offline').dataset.kept === 'yes'", timeout=120)
        pg.goto(f"{url}/offline")
        wait_until(pg, "() => document.querySelector('#offline-others li[data-edition=\"2007\"]').dataset.kept === 'yes'")
        assert pg.inner_text("#offline-others li[data-edition='2007']").endswith("95 pages · kept on this device")

        cut_off(server, ctx)

        for c in checkers:
            pg.goto(f"{url}/checkers/{c.id}")
            assert pg.inner_text("h1") == c.title, c.id
        # a checker with its inputs: the kept page answers (its script computes the result)
        pg.goto(f"{url}/checkers/score?level=4&strain=S&risk=X&vulnerable=true&tricks=11&check=1")
        assert pg.inner_text("h1") == score.title
        pg.goto(f"{url}/checkers/board?board=7&check=1")
        assert pg.inner_text("h1") == board.title

        pg.goto(f"{url}/compare/40?from=2007&to=2017")
        assert "Law 40" in pg.inner_text("h1") and "offline" not in pg.inner_text("h1").lower()
        pg.goto(f"{url}/compare?from=2007&to=2017")
        assert "offline" not in pg.inner_text("h1").lower()
        # followed from a law page: the very address it links to (its history
        # of a provision, which the law page may fold away, hence a click by script)
        pg.goto(f"{url}/2017/law/12")
        assert pg.evaluate("""() => { const a = document.querySelector("a[href^='/compare/12?']");
            a.click(); return a.getAttribute('href'); }""") == "/compare/12?from=2007&to=2017"
        pg.wait_for_url("**/compare/12?from=2007&to=2017")
        assert "Law 12" in pg.inner_text("h1")

        pg.goto(f"{url}/2017/index")
        assert "Index" in pg.inner_text("h1")
        pg.goto(f"{url}/rulings/play")
        assert "offline" not in pg.inner_text("h1").lower() and pg.locator("form").count() >= 1
        pg.goto(f"{url}/2007/law/93")  # the kept edition
        assert "Law 93" in pg.inner_text("h1")

        # search on the phone names the editions as the footer does
        pg.goto(f"{url}/search?q=lead+out+of+turn")
        wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
        metas = pg.eval_on_selector_all("#offline-results .meta", "ps => ps.map(p => p.textContent)")
        assert metas and all(m.split(" · ")[0] in ("2017 Laws", "2007 Laws", "1993 Laws (rubber)", "Simplified guide")
                             for m in metas if " · " in m), metas
        assert any(m.startswith("2017 Laws · ") for m in metas), metas

        # a page neither kept nor opened: says so, and lists what is kept
        pg.goto(f"{url}/1993-rubber/law/64")
        assert pg.inner_text("h1") == "You are offline"
        assert pg.locator("#not-saved").is_visible()
        wait_until(pg, "() => document.documentElement.dataset.offlineKit === 'complete'")
        assert pg.locator("#offline-kit li").count() == 7
        ctx.close()
