"""Ruling records in a real browser (headless Chromium at /usr/bin/chromium,
phone size): the record made on the phone (static/rulings/record.js) is the
server's record, field for field, for every auction and play fixture case
and every guided ending; the play ruling makes a record by taps, without
JavaScript and offline, as the auction ruling does; the adjusted score is
carried from the score checker into the record."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest

from laws.rulings import guided
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, PHONE, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until,
    watched_page)
from test_browser_table import SCAN
from test_rulings_guided_browser import _pdf_pages, _walk_ui_to_adjusted_score
from test_rulings_record import UI_TO_ADJUSTED, all_args, expected_errors, make

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

CONTEXT = {"event": "Club pairs", "board": "12", "table": "4", "director": "A. Director", "facts": "E led the HK."}



@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def _guided_args() -> list[dict]:
    out = []
    for ed in ("2017", "2007"):
        data = guided.load()[ed]
        for proc in data["kinds"]:
            for answers, _ in guided.endings(data, proc):
                out.append({"procedure": proc, "edition": ed, **answers})
    return out


JS_RECORDS = """async (all) => {
    const words = (await (await fetch('/rulings/guided.json')).json());
    const bundles = {auction: await (await fetch('/rulings/auction.json')).json(),
                     play: await (await fetch('/rulings/play.json')).json()};
    return all.map(args => {
        try {
            const rec = args.procedure in bundles
                ? LawbookRecord.mechanical(words.record, args.procedure, bundles[args.procedure], args)
                : LawbookRecord.guided(words, args);
            return {rec: rec, text: LawbookRecord.text(words.record, rec)};
        } catch (e) {
            if (e instanceof LawbookRecord.RecordError) return {rec: {error: e.field}};
            throw e;
        }
    });
}"""


def test_the_phone_makes_the_servers_record(page, base_url, app):
    from laws.rulings import record
    page.goto(f"{base_url}/rulings/record")
    requests = [{**a, **CONTEXT} for a in all_args()] + _guided_args()
    got = page.evaluate(JS_RECORDS, requests)
    want = [make(app, r) for r in requests]
    mismatched = [(r, g["rec"], w) for r, g, w in zip(requests, got, want) if g["rec"] != w]
    assert not mismatched, mismatched[:1]
    texts = [(g["text"], record.as_text(w)) for g, w in zip(got, want) if "error" not in w]
    assert all(a == b for a, b in texts)
    assert len(texts) > 650 and sum("error" in w for w in want) == expected_errors()


def _fits(pg) -> bool:
    return pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def _ready(pg):
    wait_until(pg, "() => document.getElementById('play-app').dataset.ready === 'yes'")


def _play_ruling_by_taps(pg):
    pg.fill("#app-contract", "4S")
    pg.tap(".seat-switch [data-seat='E']")      # East leads: West's turn
    pg.tap(".suit-row [data-suit='H']")
    pg.tap(".rank-grid [data-card='HK']")
    pg.tap("#rule")
    pg.tap(".answers [data-value='no']")       # nobody told East to lead
    pg.tap(".answers [data-value='no']")       # declarer could not see dummy


def _record_text(pg) -> str:
    wait_until(pg, "() => document.getElementById('record-text').textContent.length > 100")
    return pg.evaluate("document.getElementById('record-text').textContent")


def test_play_ruling_makes_its_record_by_taps(page, base_url, client):
    page.goto(f"{base_url}/rulings/play")
    _ready(page)
    page.tap("#play-record")  # nothing ruled yet: no record, and it says so
    assert page.inner_text(".record-note") == "Rule first: the record is made from the ruling."
    assert page.url == f"{base_url}/rulings/play?edition=2017" or page.url.endswith("/rulings/play")
    _play_ruling_by_taps(page)
    with page.expect_navigation():
        page.tap("#play-record")
    text = _record_text(page)
    assert text.startswith("RULING RECORD — Irregularity in the play: opening lead out of turn (Law 54) (2017 Laws)")
    assert "Entered: Contract: 4♠; Declarer: South; Play: East led the ♥K out of turn" in text and "— No" in text
    # the record's link reopens it: the server's record of the same address
    query = page.url.split("?", 1)[1]
    assert client.get(f"/rulings/record.txt?{query}").get_data(as_text=True) == text
    assert _fits(page)
    # printed on one page
    page.emulate_media(media="print")
    assert _pdf_pages(page.pdf(format="A4")) == 1


def test_play_record_without_javascript(browser, base_url):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/play?edition=2017&contract=4S&declarer=S&play=E:HK")
    pg.click("form.question button[value='no']")
    pg.click("#play-record")
    assert "opening lead out of turn (Law 54)" in pg.inner_text("article.record")
    assert "Did an opponent mistakenly tell East it was his turn to lead?" in pg.inner_text("ol.steps")
    # the record's fields are above it, open (not folded below the law texts)
    assert pg.evaluate("document.querySelector('.edit-context').compareDocumentPosition("
                       "document.querySelector('dl.provisions')) & Node.DOCUMENT_POSITION_FOLLOWING")
    pg.fill("#c-board", "5")
    pg.fill("#c-date", "2025-03-11")
    pg.click(".edit-context button[type=submit]")
    head = pg.inner_text(".record-head")
    assert "Board\n5\nDealer North; North-South vulnerable (board checker, Law 2)" in head, head
    assert "Date\n2025-03-11" in head
    # without JavaScript the people's fields are not offered: they would reach the server
    assert not pg.is_visible("#private-fields")
    ctx.close()


def test_auction_and_play_records_made_offline(browser, app):
    """One visit online; then no server and no network: a play ruling and an
    auction ruling made by taps, and each one's record made on the phone —
    the same text the server gives for the same address."""
    with serve(app) as (url, server):
        client = app.test_client()
        ctx = phone_context(browser)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{url}/rulings/play")
        wait_kept_offline(pg)
        ui = urlencode({"procedure": "unauthorized-information", "edition": "2017", **UI_TO_ADJUSTED})
        seen = f"{url}/rulings/record?{ui}&" + urlencode({"calc": "score;level=4;strain=S;tricks=10;declarer=S"})
        pg.goto(seen)  # a record with a score carried from the checker, seen online
        seen_text = _record_text(pg)
        assert "- 4S by South, 10 tricks, made: NS +420 [77]" in seen_text
        cut_off(server, ctx)

        pg.goto(f"{url}/rulings/play")
        _ready(pg)
        _play_ruling_by_taps(pg)
        pg.tap("#play-record")
        pg.wait_for_load_state("load")
        text = _record_text(pg)
        assert text == client.get("/rulings/record.txt?" + pg.url.split("?", 1)[1]).get_data(as_text=True)
        assert _fits(pg)
        # the event, board… added on the phone: a new address, the same record as the server's
        pg.fill("#c-board", "5")  # the fields are above the record, open
        pg.tap(".edit-context button[type=submit]")
        pg.wait_for_load_state("load")
        wait_until(pg, "() => document.getElementById('record-text').textContent.includes('Board: 5')")
        text = _record_text(pg)
        assert text == client.get("/rulings/record.txt?" + pg.url.split("?", 1)[1]).get_data(as_text=True)
        pg.tap("#save-record")

        pg.goto(f"{url}/rulings/auction?edition=2017&dealer=N&calls=1H+E:1D&accepted=no&replacement=2D")
        wait_until(pg, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
        pg.tap("#auction-record")
        pg.wait_for_load_state("load")
        text = _record_text(pg)
        assert "Irregularity in the auction: insufficient bid (Law 27)" in text and "   — 2D" in text
        assert text == client.get("/rulings/record.txt?" + pg.url.split("?", 1)[1]).get_data(as_text=True)

        pg.goto(f"{url}/rulings/saved")
        assert pg.locator("#saved-list a").count() == 1

        # the record seen online reopens from its link; one never seen says what it cannot compute
        pg.goto(seen)
        assert _record_text(pg) == seen_text
        pg.goto(f"{url}/rulings/record?{ui}&" + urlencode({"calc": "score;level=3;strain=S;tricks=9;declarer=S"}))
        wait_until(pg, "() => !!document.querySelector('.uncomputed')")
        assert "computed with a connection" in pg.inner_text(".uncomputed")
        ctx.close()
        assert not errors, errors


def test_adjusted_score_carried_from_the_score_checker(page, base_url):
    # a UI ruling walked to an assigned adjusted score, and its record made
    _walk_ui_to_adjusted_score(page, base_url)
    page.fill("#r-board", "7")
    with page.expect_navigation():
        page.tap(".record-form button[type=submit]")
    with page.expect_navigation():
        page.tap("#calc a[data-checker='score']")
    page.fill("#f-level", "4")
    page.select_option("#f-strain", "S")
    page.fill("#f-tricks", "10")
    with page.expect_navigation():
        page.tap(".checker-form button[type=submit]")
    got = page.evaluate(SCAN)  # the checker's result, with the way back to the record
    assert got["overflow"] <= 0 and not got["small"], got
    page.select_option("#carry-declarer", "S")
    page.fill("#carry-weight", "60")
    with page.expect_navigation():
        page.tap("#carry button[type=submit]")
    assert page.inner_text("#adjusted li strong") == "4S by South, 10 tricks, made: NS +420 — weight 60 %"
    text = _record_text(page)
    assert "- 4S by South, 10 tricks, made: NS +420 — weight 60 % [77]\n" in text and "Board: 7" in text
    assert "Law 77" in page.inner_text("dl.provisions")
    assert _fits(page)
    # the weighting checker opens filled in with the carried score and weight
    with page.expect_navigation():
        page.tap("#calc a[data-checker='weighted-score']")
    assert page.input_value("#f-outcomes") == "420" and page.input_value("#f-weights") == "60"
    assert page.locator("#error").count() == 0 and page.locator("#record-back a").count() == 1
    # weighted with a second result, against the other tables' results: carried in too
    page.fill("#f-outcomes", "420 140")
    page.fill("#f-weights", "60 40")
    page.fill("#f-other_scores", "140 170 420 450 -50")
    with page.expect_navigation():
        page.tap(".checker-form button[type=submit]")
    with page.expect_navigation():
        page.tap("#carry button[type=submit]")
    lines = page.locator("#adjusted li strong").all_inner_texts()
    assert lines[0] == "4S by South, 10 tricks, made: NS +420 — weight 60 %"
    assert lines[1].startswith("Scored against the 5 other results, the outcomes are worth") and "60 % of 420" in lines[1]
    assert "Law 78A" in page.inner_text("dl.provisions") and "Board: 7" in _record_text(page)
    page.emulate_media(media="print")
    assert _pdf_pages(page.pdf(format="A4")) == 1


def test_record_pages_fit_and_their_tap_targets_are_44px(browser, base_url):
    ui = urlencode({"procedure": "unauthorized-information", "edition": "2017", **UI_TO_ADJUSTED})
    calc = urlencode({"calc": "score;level=4;strain=S;tricks=10;declarer=S;weight=60"})
    pages = [f"/rulings/record?{ui}&{calc}", "/rulings/record?procedure=play&edition=2017&contract=4S&declarer=S"
             "&play=E:HK&misinformed=no", "/rulings/play?edition=2017&contract=4S&declarer=S&play=E:HK",
             "/checkers/weighted-score?" + urlencode({"record": ui, "outcomes": "620 420", "weights": "40 60"})]
    for width in (360, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 780}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, service_workers="block")
        pg = ctx.new_page()
        for url in pages:
            pg.goto(base_url + url)
            got = pg.evaluate(SCAN)
            assert got["overflow"] <= 0 and not got["small"], (width, url, got)
        ctx.close()
