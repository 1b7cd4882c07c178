"""The table calls (tests/data/table-calls.tsv) played on a phone at 360 x 740
from the home page, as a director would (issue 20): every tap counted.  The
facts take at most ten taps (keys typed are counted apart) on a form that
fits the screen; the answer comes at most three taps after the last fact;
the screen shows the outcome the call expects and cites exactly the 2017
provisions it must.  The same calls again with the server stopped and the
browser offline.  bench/table.py prints the same counts with the time."""
from __future__ import annotations

import pytest

from tests.table_calls import load
from tests.test_table_calls import subset
from tests.table_driver import play_call
from tests.test_browser import CHROMIUM, browser, cut_off, serve, wait_kept_offline  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]
CALLS = load()
TABLE = {"width": 360, "height": 740}


def phone(browser, **kw):
    return browser.new_context(viewport=TABLE, device_scale_factor=2, is_mobile=True, has_touch=True, **kw)


def shows(call, played) -> bool:
    """The screen shows every outcome field the call expects (a list of
    comparison rows: each of them among the rows shown)."""
    got = played.outcome.get("fields", {})
    for k, v in call.expect.items():
        if k == "changes":
            if not all(row in got.get(k, []) for row in v):
                return False
        elif not subset(v, got.get(k, "(not shown)")):
            return False
    return True


def check(call, played):
    assert played.fact_taps <= 10, (call.id, played.fact_taps)
    assert played.fits, f"{call.id}: the facts form does not fit the screen"
    assert played.answer_taps <= 3, (call.id, played.answer_taps)
    assert shows(call, played), (call.id, played.outcome)
    assert played.cites == list(call.cites), (call.id, played.cites)


@pytest.mark.parametrize("call", CALLS, ids=[c.id for c in CALLS])
def test_each_call_in_three_taps_online(app, browser, call):
    with serve(app) as (url, _server):
        ctx = phone(browser, service_workers="block")
        pg = ctx.new_page()
        played = play_call(pg, url, call)
        ctx.close()
    check(call, played)


def test_the_same_calls_with_no_signal(app, browser):
    """One first visit with a connection; then the server goes away and the
    network is cut, and every call is played again on what the phone kept."""
    with serve(app) as (url, server):
        ctx = phone(browser)
        pg = ctx.new_page()
        pg.goto(url + "/")
        wait_kept_offline(pg)
        cut_off(server, ctx)
        failed = []
        for call in CALLS:
            try:
                check(call, play_call(pg, url, call))
            except Exception as e:  # every call is tried: the message lists all that fail
                failed.append((call.id, str(e)[:300]))
        ctx.close()
    assert not failed, failed
