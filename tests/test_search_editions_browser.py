"""The phone's search says which editions it searched, in the server's words
and order, and searches the editions the phone keeps: the code in force and
the guide always, another edition once the reader has pressed "Keep offline"
(the service worker's KEPT record), never one whose pages would open on
"You are offline"."""
from __future__ import annotations

import pytest

from test_browser import (CHROMIUM, PHONE, browser, cut_off, serve, wait_kept_offline,  # noqa: F401 (browser: a fixture)
                          wait_until, watched_page)
from test_edition_life import before, corpus_2027  # noqa: F401 (fixtures)
from test_search_editions import BEFORE_LABEL

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

RARE = "incontrovertibly"  # a word of 2007 27B1(a): a 2007 result when 2007 is searched


def test_the_phone_names_editions_as_the_server_does(browser, before):
    """Over the 2027 build before the day: the payload's editions named and
    ordered as /api/search and the search page name them; an `editions`
    restriction answers from those editions alone."""
    app, _ = before
    reply = app.test_client().get("/api/search?q=considered+to+be&limit=20").get_json()
    with serve(app) as (url, _server), watched_page(browser) as pg:
        pg.goto(f"{url}/offline/search")
        got = pg.evaluate("""async () => {
            const engine = LawbookSearch.create(await (await fetch('/offline/search.json')).json());
            const all = engine.search('considered to be', {limit: 20});
            const kept = engine.search('considered to be', {limit: 20, editions: ['dbrs-2017', '2017']});
            return [all.editions, engine.searchedLabel(all.editions), kept.editions, engine.searchedLabel(kept.editions),
                    [...new Set(kept.results.map(r => r.edition))].sort(),
                    all.results.some(r => r.edition === '2027'),
                    engine.search('revoke', {edition: '2007', editions: ['2017']}).editions,
                    engine.search('law 99', {editions: ['2017']}).editions];
        }""")
    assert got == [reply["editions"], BEFORE_LABEL, ["2017", "dbrs-2017"], "2017 (in force), the guide",
                   ["2017", "dbrs-2017"], True, ["2007"], ["2017"]]
    assert reply["editions"] == ["2017", "2027", "2007", "1993-rubber", "dbrs-2017"]


def offline_search(pg, url: str, q: str) -> tuple[str, str, list[str]]:
    """(the "Searched: …" line, the ids searched, the results' addresses) of the phone's search for `q`."""
    pg.goto(f"{url}/search?q={q}")
    wait_until(pg, "() => document.documentElement.dataset.offlineSearch === 'done'")
    assert "offline" in pg.inner_text("h1").lower()
    return (pg.inner_text("#offline-searched"), pg.evaluate("document.documentElement.dataset.offlineSearched"),
            pg.eval_on_selector_all("#offline-results h2 a", "as => as.map(a => a.getAttribute('href'))"))


def test_the_phone_searches_the_editions_it_keeps(browser, app):
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        pg.goto(f"{url}/2017/")
        wait_kept_offline(pg, timeout=120)

        ctx.set_offline(True)  # the kit alone: the code in force and the guide
        line, ids, hrefs = offline_search(pg, url, RARE)
        assert (line, ids) == ("Searched: 2017 (in force), the guide.", "2017 dbrs-2017")
        assert hrefs and not [h for h in hrefs if not h.startswith(("/2017/", "/guide/"))], hrefs

        ctx.set_offline(False)  # "Keep the 2007 Laws offline"
        pg.goto(f"{url}/2007/")
        pg.locator("#keep-offline button").tap()
        wait_until(pg, "() => document.getElementById('keep-offline').dataset.kept === 'yes'", timeout=120)

        cut_off(server, ctx)
        line, ids, hrefs = offline_search(pg, url, RARE)
        assert (line, ids) == ("Searched: 2017 (in force), 2007, the guide.", "2017 2007 dbrs-2017")
        assert "/2007/law/27#27B1(a)" in hrefs, hrefs
        assert not [h for h in hrefs if h.startswith("/1993-rubber/")], hrefs
        ctx.close()
