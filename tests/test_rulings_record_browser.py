"""Ruling records in a real browser (headless Chromium at /usr/bin/chromium,
phone size): the record made on the phone (static/rulings/record.js) is the
server's record, field for field, for every auction and play fixture case
and every guided ending; the play ruling makes a record by taps, without
JavaScript and offline, as the auction ruling does; the adjusted score is
carried from the score checker into the record."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

import pytest

from laws.rulings import guided
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, PHONE, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until,
    watched_page)
from test_browser_table import SCAN
from test_rulings_guided_browser import _pdf_pages, _walk_ui_to_adjusted_score
from test_rulings_record import UI_TO_ADJUSTED, all_args, expected_errors, make, with_context

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

CONTEXT = {"event": "Club pairs", "board": "12", "table": "4", "director": "A. Director", "facts": "E led the HK."}
# every record field, as the fragment holds them
FULL = {"date": "2025-03-11", "time": "19:45", "event": "Club pairs", "site": "Riverside", "session": "Evening",
        "round": "4", "board": "23", "table": "6", "facts": "Ann West hesitated.", "result_contract": "4sx",
        "result_declarer": "s", "result_tricks": "9", "adjustment": "3S+1 NS 170", "appeal_minutes": "20",
        "appeal_source": "the Club Handbook"}



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
    # and with every record field of the fragment: the phone's withContext is record.py's with_context
    made = [(r, w) for r, w in zip(requests, want) if "error" not in w][::25]
    got = page.evaluate("""async ([recs, values]) => {
        const words = (await (await fetch('/rulings/guided.json')).json()).record;
        return recs.map(rec => { const full = LawbookRecord.withContext(words, rec, LawbookRecord.context(words, values));
                                 return {rec: full, text: LawbookRecord.text(words, full)}; });
    }""", [[w for _, w in made], FULL])
    want = [with_context(app, w, FULL) for _, w in made]
    assert [g["rec"] for g in got] == want and [g["text"] for g in got] == [record.as_text(w) for w in want]
    assert want[0]["board_info"]["line"] == "Dealer South; Both sides vulnerable (board checker, Law 2)"


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


def _servers(client, url: str) -> str:
    """The server's text of a record's query, with the date and time its fragment holds."""
    from laws.rulings.record import BLANK
    query, _, frag = url.split("?", 1)[1].partition("#")
    f = dict(parse_qsl(frag))
    assert set(f) == {"date", "time"} and "date" not in query  # stamped on the phone, in the fragment
    return client.get(f"/rulings/record.txt?{query}").get_data(as_text=True).replace(
        f"Date: {BLANK}\nTime: {BLANK}\n", f"Date: {f['date']}\nTime: {f['time']}\n", 1)


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
    # the record's link reopens it: the server's record of the same query, with the date and time
    # the phone set in the fragment (the server never sees them: blank lines there)
    assert _servers(client, page.url) == text
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
    # without JavaScript no field is offered (each would reach the server, or be lost): every
    # record field is a blank line to write on, in print too
    assert not pg.is_visible("#record-fields") and not pg.is_visible("#private-fields")
    assert pg.locator(".record-head dd.slot").count() == 9  # date … table, and the director
    assert all(t == "" for t in pg.locator(".record-head dd.slot").all_inner_texts())
    assert pg.inner_text("p.facts") == "" and pg.inner_text("#table-result") == ""
    pg.emulate_media(media="print")
    assert pg.evaluate("getComputedStyle(document.querySelector(\"dd[data-context='board']\")).borderBottomStyle") == "solid"
    ctx.close()


def test_an_old_address_moves_its_fields_into_the_fragment(page, base_url):
    """Record fields in an old address's query: read once on the phone, moved
    into the fragment (history.replaceState, no request), shown; a wrong one
    is said, naming the field, and left out of the record."""
    ruling = "procedure=play&edition=2017&contract=4S&declarer=S&play=E:HK&misinformed=no"
    old = urlencode({k: v for k, v in FULL.items() if k not in ("facts", "adjustment")} | {"facts": "N hesitated."})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{base_url}/rulings/record?{ruling}&director=Sam+Old&{old}")
    wait_until(page, "() => document.getElementById('guided-app').dataset.recordReady === 'yes'")
    query, _, frag = page.url.split("?", 1)[1].partition("#")
    assert query == ruling
    assert dict(parse_qsl(frag)) == {**{k: v for k, v in FULL.items() if k not in ("facts", "adjustment")},
                                     "facts": "N hesitated.", "director": "Sam Old"}
    text = page.evaluate("document.getElementById('record-text').textContent")
    assert "Board: 23 — Dealer South; Both sides vulnerable (board checker, Law 2)\n" in text
    assert "Director: Sam Old\n" in text and "Table result: 4♠ doubled by South, 9 tricks\n" in text
    assert page.title() == "Ruling record: Irregularity in the play: opening lead out of turn (Law 54), board 23 — Lawbook"
    assert page.get_attribute("#self-link", "href") == "/rulings/record?" + ruling + "#" + frag
    assert len([r for r in requests if "/rulings/record?" in r]) == 1  # moved on the phone, not sent again
    # a board changed on the phone: its dealer and vulnerability follow (Law 2, the board checker's table)
    page.fill("#c-board", "6")
    page.fill("#c-result_tricks", "14")
    page.tap("#record-form button[type=submit]")
    wait_until(page, "() => document.getElementById('record-text').textContent.includes('Board: 6 ')")
    assert page.inner_text("dd[data-context='board']") == "6\nDealer East; East-West vulnerable (board checker, Law 2)"
    assert page.inner_text("#context-error") == "Tricks taken by declarer: give a number of tricks from 0 to 13, not '14'."
    assert page.inner_text("#table-result") == "4♠ doubled by South"
    assert page.url.split("?", 1)[1].split("#")[0] == ruling


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
        assert text == _servers(client, pg.url)
        assert _fits(pg)
        # the event, board… added on the phone: in the fragment, the record with_context makes
        before = pg.url.split("#")[0]
        pg.fill("#c-board", "5")  # the fields are above the record, open
        pg.tap(".edit-context button[type=submit]")
        wait_until(pg, "() => document.getElementById('record-text').textContent.includes('Board: 5')")
        text = _record_text(pg)
        query, _, frag = pg.url.split("?", 1)[1].partition("#")
        assert pg.url.split("#")[0] == before and "board" not in dict(parse_qsl(query))
        with app.test_request_context():
            from laws.web.guided import make_record
            from laws.rulings import record
            rec = make_record(MultiDict(parse_qsl(query)))
        assert text == record.as_text(with_context(app, rec, {k: v for k, v in parse_qsl(frag)
                                                              if k in record.CONTEXT_FIELDS}))
        pg.tap("#save-record")

        pg.goto(f"{url}/rulings/auction?edition=2017&dealer=N&calls=1H+E:1D&accepted=no&replacement=2D")
        wait_until(pg, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
        pg.tap("#auction-record")
        pg.wait_for_load_state("load")
        text = _record_text(pg)
        assert "Irregularity in the auction: insufficient bid (Law 27)" in text and "   — 2D" in text
        assert text == _servers(client, pg.url)

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
