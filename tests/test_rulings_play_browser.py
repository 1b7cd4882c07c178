"""Play rulings in a real browser (headless Chromium, /usr/bin/chromium, at
390×844): the JavaScript facts and walker answer every fixture case, in every
edition, exactly as the Python ones do; the flow works by taps on the card picker, without
JavaScript, and offline after a first visit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws.rulings import RulingError, play
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, PHONE, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until,
    watched_page)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_play.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]
EDITIONS = ("2007", "2017", "1993-rubber")  # every case in every edition: the two must agree even where no fixture says what to expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]


@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def _python(request: dict) -> dict:
    try:
        return play.rule(request)
    except RulingError as exc:
        return {"error": str(exc), "field": exc.field}


# the phone's ruling (static/rulings/play.js) on the bundle it keeps, a refusal as {error, field}
JS_RULE = """async (reqs) => {
    const bundle = await (await fetch('/rulings/play.json')).json();
    return reqs.map(r => { try { return LawbookRulings.play.rule(bundle.editions, r); }
                           catch (e) { return {error: String(e.message || e), field: e.field}; } });
}"""


def _both(page, requests: list[dict]) -> tuple[list, list]:
    """(the phone's replies, the server's) to the same requests."""
    return page.evaluate(JS_RULE, requests), [_python(r) for r in requests]


def test_javascript_gives_the_same_rulings(page, base_url):
    page.goto(f"{base_url}/rulings/play")
    requests = [{"edition": ed, "contract": c["contract"], "declarer": c["declarer"], "play": c["play"],
                 "findings": c["findings"]} for c in CASES for ed in EDITIONS]
    got, want = _both(page, requests)
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:2]
    assert len(got) == len(EDITIONS) * len(CASES)


def _fits(pg) -> bool:
    return pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def _ready(pg):
    wait_until(pg, "() => document.getElementById('play-app').dataset.ready === 'yes'")


def test_opening_lead_out_of_turn_by_taps(page, base_url):
    page.goto(f"{base_url}/rulings")
    page.tap("text=Irregularity in the play")
    _ready(page)
    page.fill("#app-contract", "4S")
    page.tap(".seat-switch [data-seat='E']")      # East leads: West's turn
    page.tap(".suit-row [data-suit='H']")
    page.tap(".rank-grid [data-card='HK']")
    assert "East ♥K" in page.inner_text(".play-list")
    page.tap("#rule")
    assert "Law 54: opening lead out of turn by East" in page.inner_text(".ruling h2")
    page.tap(".answers [data-value='no']")       # nobody told East to lead
    page.tap(".answers [data-value='no']")       # declarer could not see dummy
    page.tap(".options button[data-value='refuse']")   # an option is a big button
    page.tap(".options button[data-value='free']")
    text = page.inner_text(".ruling")
    assert "East: HK (major)" in text and "Next to play\nWest" in text
    assert "authorized for all players (50E1)" in text            # 2017
    assert "The 2007 Laws differ here" in text
    assert "play=E%3AHK" in page.url and "lead_choice=free" in page.url
    page.tap(".ruling .cites summary >> text=Law 54D")
    assert "major penalty card" in page.locator(".ruling .cites details[open] .provision-text").first.inner_text()
    assert _fits(page)
    page.tap(".editions button:has-text('2007 Laws')")
    assert "unauthorized for West" in page.inner_text(".ruling")  # 2007 50E2


def _together(page, facts: dict):
    """Tap the answer of a folded question that settles exactly these facts."""
    buttons = page.eval_on_selector_all(".ruling .question .answers [data-facts]",
                                        "bs => bs.map(b => JSON.parse(b.dataset.facts))")
    page.tap(f".ruling .question .answers button >> nth={buttons.index(facts)}")


def test_revoke_by_taps(page, base_url):
    page.goto(f"{base_url}/rulings/play?edition=2007")
    _ready(page)
    page.fill("#app-contract", "4S")
    for seat, card in [("W", "HK"), ("N", "H2"), ("E", "C3"), ("S", "HA"), ("S", "D2"), ("W", "D5"),
                       ("N", "DA"), ("E", "H7")]:
        page.tap(f".seat-switch [data-seat='{seat}']")
        page.tap(f".suit-row [data-suit='{card[0]}']")
        page.tap(f".rank-grid [data-card='{card}']")
    page.tap("#rule")
    assert "Law 64: revoke by East" in page.inner_text(".ruling h2")
    # when it was noticed, another revoke, a card faced on the table (2007 64B): one question, one tap
    _together(page, {"noticed": "play", "other_revoke": "none", "faced_card_revoke": "no"})
    page.tap(".answers [data-value='yes']")     # East-West won a later trick
    text = page.inner_text(".ruling")
    assert "Tricks transferred\n1" in text and "64A2" in text
    assert _fits(page)


def test_what_no_card_shows_starts_its_own_ruling(page, base_url, browser):
    # a call from dummy (46) and a defective trick (67) are entered without a card
    page.goto(f"{base_url}/rulings/play?edition=2017")
    _ready(page)
    page.fill("#app-contract", "4S")
    page.tap("details.starters > summary")  # folded: rare at the table
    page.select_option("#app-dummy_call", "high")
    page.tap("#rule")
    assert "Law 46: incomplete dummy call" in page.inner_text(".ruling h2")
    assert "dummy_call=high" in page.url and _fits(page)
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/play")
    pg.fill("#f-contract", "4S")
    pg.fill("#f-trick", "4")
    pg.select_option("#f-seat", "E")  # a defective trick: the seat at fault at the trick, no card (67)
    pg.select_option("#f-defective", "omitted")
    pg.click("form#play-form button[type=submit]")
    assert pg.inner_text(".ruling h2") == "Law 67: defective trick by East" and _fits(pg)
    ctx.close()


def test_defective_trick_by_taps_asks_who_won_and_says_no_trick_transferred(page, base_url):
    """Issue 21: the defective trick's seat and trick from the phone's form;
    64A2's condition asked (who won trick 4, a later trick), the answers
    naming the seats; none won: "No trick transferred"."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}/rulings/play?edition=2007")
    _ready(page)
    page.fill("#app-contract", "4S")
    page.fill("#app-trick", "4")
    page.tap("details.starters > summary")
    page.select_option("#app-defective", "omitted")
    page.select_option("#app-defective-seat", "E")
    page.tap("#rule")
    assert page.inner_text(".ruling h2") == "Law 67: defective trick by East"
    asked = []
    for value in ("after", "yes", "opponents", "no"):
        asked.append(page.get_attribute(".ruling .question", "data-question"))
        if asked[-1] == "won_by":
            labels = page.eval_on_selector_all(".ruling .question .answers button", "bs => bs.map(b => b.textContent)")
            assert labels == ["West, East's partner", "The non-offending side"]
        page.tap(f".ruling .question .answers [data-value='{value}']")
    assert asked == ["when", "has_suit", "won_by", "later_won"]
    rows = page.eval_on_selector_all(".ruling dl.outcome dt", "ds => ds.map(d => [d.textContent, d.nextElementSibling.textContent])")
    assert ["Tricks transferred", "No trick transferred"] in rows
    assert "trick=4" in page.url and "seat=E" in page.url and "the offender" not in page.inner_text(".ruling") and _fits(page)


def test_the_flow_without_javascript(browser, base_url):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/play")
    pg.select_option("#f-edition", "2017")
    pg.fill("#f-contract", "4S")
    pg.fill("#f-play", "W:HK N:H2 E:H5 S:HA S:D2 E:D5")
    pg.click("form#play-form button[type=submit]")
    assert "premature play by East" in pg.inner_text(".ruling h2")
    pg.click("form.question button[value='require-suit']")   # 2017 57A3
    pg.click("form.question button[value='yes']")
    text = pg.inner_text(".ruling")
    assert "East: D5 (major)" in text and "must play a card of the suit declarer names" in text
    pg.click(".ruling .cites summary >> nth=0")
    assert pg.locator(".ruling .cites details[open]").count() == 1
    assert _fits(pg)
    ctx.close()


def test_same_ruling_offline(browser, app):
    """One visit online; then the server goes away: a ruling's own address
    gives the same ruling, computed on the phone."""
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        address = "/rulings/play?edition=2017&contract=4S&declarer=S&play=W:HK+N:H2+E:S5:exposed&held=no&unintentional=yes"
        pg.goto(url + address)
        _ready(pg)
        online = pg.inner_text("#app-flow .ruling")
        wait_kept_offline(pg)
        cut_off(server, ctx)
        pg.goto(url + address)
        _ready(pg)
        offline = pg.inner_text("#app-flow .ruling")
        assert "is a minor penalty card (50B)" in offline and "S5 (minor)" in offline
        assert offline == online
        ctx.close()


# --- a later trick and the seat at fault (issue 20) ------------------------------------

TRICK_CASES = json.loads((FIXTURES.parent / "rulings_play_trick.json").read_text(encoding="utf-8"))["cases"]


def test_javascript_gives_the_same_rulings_from_a_later_trick(page, base_url):
    """Every request of rulings_play_trick.json (a trick after the first, a
    seat at fault, and the refusals) in every edition: the same reply."""
    page.goto(f"{base_url}/rulings/play")
    requests = [{**c["request"], "edition": ed} for c in TRICK_CASES for ed in EDITIONS]
    got, want = _both(page, requests)
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:2]
    assert sum("error" in w for w in want) == len(EDITIONS) * sum("error" in c for c in TRICK_CASES)


SMALL_PHONE = {"width": 360, "height": 740}


def _how(pg) -> list[str]:
    return pg.eval_on_selector_all("#app-how option", "os => os.map(o => o.value)")


def test_revoke_at_trick_5_in_a_few_taps(page, base_url):
    """At 360 x 740: contract, declarer, trick 5, the revoker, "a revoke",
    the card, Rule, then the Laws' questions; the ruling says trick 5 and
    cites 2017's provisions, and the ruling record's address carries the
    trick and the seat."""
    page.set_viewport_size(SMALL_PHONE)
    page.goto(f"{base_url}/rulings/play?edition=2017")
    _ready(page)
    taps = 0

    def act(fn, *args):
        nonlocal taps
        taps += 1
        fn(*args)

    act(page.fill, "#app-contract", "4S")
    act(page.select_option, "#app-declarer", "S")
    act(page.fill, "#app-trick", "5")
    assert page.locator(".rank-grid [data-card='S3']").is_disabled()   # after trick 1: whose card, first
    act(page.tap, ".seat-switch [data-seat='W']")
    assert "revoke" in _how(page)
    act(page.select_option, "#app-how", "revoke")
    act(page.tap, ".suit-row [data-suit='C']")
    act(page.tap, ".rank-grid [data-card='C3']")
    assert page.inner_text(".play-list") == "West ♣3 (a revoke)"
    assert page.locator("#app-closed").count() == 1                      # his card alone: nothing more to enter
    act(page.tap, "#rule")
    assert page.inner_text(".ruling h2") == "Law 64: revoke by West"
    act(page.tap, ".answers [data-value='yes']")                         # established
    act(_together, page, {"noticed": "play", "other_revoke": "none", "penalty_card_revoke": "no"})
    assert page.inner_text(".ruling .question strong") == \
        "Who won the revoke trick (trick 5), and did the offending side win any trick after it?"
    act(_together, page, {"won_by": "opponents", "later_won": "yes"})
    text = page.inner_text(".ruling")
    assert "West revoked on trick 5: he failed to follow suit though able to (61A)." in text
    assert "Tricks transferred\n1" in text
    cites = page.eval_on_selector_all(".ruling .cites summary", "ss => ss.map(s => s.textContent.split(' — ')[0])")
    assert cites == ["Law 61A", "Law 63A", "Law 63B", "Law 64A2", "Law 64C1"]
    assert page.inner_text(".auction-line") == "4S by South, from trick 5, at fault: West"
    assert taps == 11, taps  # 8 to enter and rule, 3 answers to the Laws' questions (6 findings)
    assert "trick=5" in page.url and "seat=W" in page.url and "play=W%3AC3%3Arevoke" in page.url
    assert _fits(page)
    page.tap("#play-record")
    page.wait_for_url("**/rulings/record?**")
    assert "trick=5" in page.url and "seat=W" in page.url
    record = page.inner_text("main")
    assert "West revoked on trick 5" in record and "Trick: 5; At fault: West" in record
    assert _fits(page)


def test_a_lead_is_never_offered_as_a_revoke(page, base_url):
    page.set_viewport_size(SMALL_PHONE)
    page.goto(f"{base_url}/rulings/play?edition=2017")
    _ready(page)
    page.fill("#app-contract", "4S")
    assert "revoke" not in _how(page)                        # West makes the opening lead
    for seat, card in [("W", "HK"), ("N", "H2")]:
        page.tap(f".seat-switch [data-seat='{seat}']")
        page.tap(f".suit-row [data-suit='{card[0]}']")
        page.tap(f".rank-grid [data-card='{card}']")
    assert "revoke" in _how(page)                            # East follows to a heart: may revoke
    for seat, card in [("E", "H5"), ("S", "HA")]:
        page.tap(f".suit-row [data-suit='{card[0]}']")
        page.tap(f".rank-grid [data-card='{card}']")
    assert "revoke" not in _how(page)                        # South leads trick 2
    box = page.locator("#app-trick").bounding_box()
    assert box["height"] >= 44 and page.locator("#app-trick").is_disabled()  # the trick is set before the cards
    assert _fits(page)
