"""The day a new code takes effect, on a phone that kept the old one: the
rebuild that makes 2027 the code in force reaches the phone's service worker,
which keeps the new code by itself (the kit) and offers to keep the code it
replaced (templates/sw.js `noticeSwitch`, static/app.js `offerSwitch`).

One data folder, two builds of the made-up 2027 corpus (tests/test_edition_life.py):
as of a day before 2027 takes effect, then as of the day, served by one app
the whole time, as a deployment is rebuilt in place."""
from __future__ import annotations

import pytest

from laws.build import build
from conftest import copy_build, shared_build
from test_browser import CHROMIUM, browser, cut_off, serve, wait_kept_offline, wait_until  # noqa: F401 (browser: the shared fixture)
from test_edition_life import BEFORE, ON_THE_DAY, corpus_2027  # noqa: F401 (fixture)
from test_offline_kit_browser import held, phone

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]


def _build(corpus, data, today):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", today)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        build(corpus, data, echo=lambda *_: None)


def _served_before(corpus, tmp_path_factory, data):
    """`data` serving the corpus as built before the day 2027 takes effect: a
    copy of the session's build of it (the rebuild on the day, in place, is
    the build under test)."""
    copy_build(shared_build(tmp_path_factory, corpus, today=BEFORE), data)


def _offer(pg) -> dict:
    return pg.evaluate("""() => caches.open('lawbook-meta').then(c => c.match('/offline/switched'))
        .then(r => r ? r.json() : null)""")


def test_after_the_switch_the_phone_keeps_the_new_code_and_offers_the_old(browser, corpus_2027, tmp_path,
                                                                         tmp_path_factory):
    from app import create_app

    data = tmp_path / "data"
    _served_before(corpus_2027, tmp_path_factory, data)
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus_2027)})
    client = app.test_client()
    with serve(app) as (url, server):
        ctx = phone(browser)
        pg = ctx.new_page()
        # as long as the waits below allow: on a loaded machine a navigation answered by the
        # service worker mid-pass took over Playwright's default 30 s once (a full suite run)
        pg.set_default_navigation_timeout(240_000)
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=240)
        before = set(client.get("/offline/pages.json").get_json()["pages"])
        assert "/2017/law/35" in before and not any(u.startswith("/2027/") for u in before)
        assert before <= held(pg)
        assert _offer(pg) is None  # a first pass offers nothing
        assert pg.locator("#switch-offer").count() == 0

        _build(corpus_2027, data, ON_THE_DAY)  # the rebuild on the day 2027 takes effect
        after = set(client.get("/offline/pages.json").get_json()["pages"])
        assert {f"/2027/law/{n}" for n in range(33, 41)} <= after and not any(u.startswith("/2017/") for u in after)

        # the next visits bring the new worker, whose pass keeps the new code by itself
        pg.goto(f"{url}/")
        wait_until(pg, "() => !!document.getElementById('switch-offer')", timeout=240)
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=240)
        assert after <= held(pg)
        assert "/2017/law/35" in held(pg)  # what the phone held of the old code stays
        assert _offer(pg) == {"from": "2017", "to": "2027", "from_title": "Laws of Duplicate Bridge 2017",
                              "to_title": "Laws of Duplicate Bridge 2027 (test)"}
        assert pg.inner_text("#switch-offer p") == (
            "The 2027 Laws are now in force, and this phone keeps them. "
            "Keep the 2017 Laws too, to read them with no connection?")
        assert pg.locator("#switch-offer button").all_inner_texts() == [
            "Keep the 2017 Laws", "Not now"]
        for box in pg.locator("#switch-offer button").element_handles():
            assert box.bounding_box()["height"] >= 44

        # one tap keeps the old code whole; the offer is answered and not made again
        pg.locator("#switch-offer .switch-keep").tap()
        wait_until(pg, "() => document.getElementById('switch-offer').dataset.kept === 'yes'", timeout=240)
        kept_2017 = set(client.get("/offline/editions/2017.json").get_json()["pages"])
        assert kept_2017 <= held(pg)
        assert pg.inner_text("#switch-offer p") == (
            f"Kept on this phone: {len(kept_2017)} of {len(kept_2017)} pages of the 2017 Laws, "
            "readable with no connection.")
        wait_until(pg, "() => caches.open('lawbook-meta').then(c => c.match('/offline/switched')).then(r => !r)")
        pg.goto(f"{url}/")
        assert pg.locator("#switch-offer").count() == 0

        cut_off(server, ctx)
        pg.goto(f"{url}/2027/law/33")
        assert "considered to be" in pg.inner_text("main")
        pg.goto(f"{url}/2017/law/28")  # not a page the phone had opened: kept with the whole code
        assert "Law 28" in pg.inner_text("h1")
        ctx.close()
    assert not errors, errors


def test_not_now_answers_the_offer(browser, corpus_2027, tmp_path, tmp_path_factory):
    from app import create_app

    data = tmp_path / "data"
    _served_before(corpus_2027, tmp_path_factory, data)
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus_2027)})
    with serve(app) as (url, _server):
        ctx = phone(browser)
        pg = ctx.new_page()
        # as long as the waits below allow: on a loaded machine a navigation answered by the
        # service worker mid-pass took over Playwright's default 30 s once (a full suite run)
        pg.set_default_navigation_timeout(240_000)
        pg.goto(f"{url}/")
        wait_kept_offline(pg, timeout=240)
        _build(corpus_2027, data, ON_THE_DAY)
        pg.goto(f"{url}/")
        wait_until(pg, "() => !!document.getElementById('switch-offer')", timeout=240)
        pg.locator("#switch-offer .switch-no").tap()
        assert pg.locator("#switch-offer").is_hidden()
        wait_until(pg, "() => caches.open('lawbook-meta').then(c => c.match('/offline/switched')).then(r => !r)")
        kept = pg.evaluate("() => caches.open('lawbook-meta').then(c => c.match('/offline/kept')).then(r => r ? r.json() : [])")
        assert kept == []
        pg.goto(f"{url}/2027/")
        assert pg.locator("#switch-offer").count() == 0
        ctx.close()
