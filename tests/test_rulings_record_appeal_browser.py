"""The ruling record an appeals committee accepts, in a real browser
(headless Chromium, phone size): for each kind of ruling (auction, play,
guided) a record with a deal entered as PBN, the players and the director;
printed on one page on A4 and on Letter; exported as PBN, which reads back
as the same facts and makes the same record again when imported; online and
offline.  No request carries a player's or the director's name or the hands
(every request is watched: address, body and headers).  The phone's PBN
reader (static/rulings/pbn.js) reads the fixture files as laws/rulings/pbn.py
does, and refuses the same malformed deals with the same messages."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit

import pytest

from laws.rulings import pbn, record
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    CHROMIUM, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until)
from test_rulings_guided_browser import _pdf_pages
from test_rulings_pbn import CLUB, EXPECTED, MALFORMED, PBN_DIR, malformed_file
from test_rulings_record import UI_TO_ADJUSTED

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]

KINDS = {
    "auction": "procedure=auction&edition=2017&dealer=N&calls=1H+E:1D&accepted=no&replacement=2D",
    "play": "procedure=play&edition=2017&contract=4S&declarer=S&play=E:HK&misinformed=no&saw_dummy=no",
    "guided": urlencode({"procedure": "unauthorized-information", "edition": "2017", **UI_TO_ADJUSTED,
                         "calc": "score;level=4;strain=S;tricks=10;declarer=S"}),
}
DIRECTOR = "Pat Director"
NAMES = [CLUB[k] for k in ("north", "east", "south", "west")] + [DIRECTOR]
CLUB_PBN = (PBN_DIR / "club-pairs.pbn").read_text(encoding="utf-8")
# the record's fields the PBN board does not give, all filled in by hand (a player's name in the facts)
MORE = {"time": "19:45", "session": "Evening session", "table": "Table 6",
        "facts": "Bob North hesitated before passing 2H; Cy East called me at trick 3.",
        "adjustment": "4H-1 NS -50 for both sides", "appeal_minutes": "20", "appeal_source": "the Club Handbook"}
# what must never leave the phone, as it would be written in an address or a body
SECRETS = ([v for n in NAMES + [MORE["facts"], MORE["appeal_source"], CLUB["event"]]
            for v in (n, quote(n), quote_plus(n))] + ["AKQ2.J54", "K7632"])
# what a request's query may carry: the procedure, the edition, the answers or the ruling's own facts, calc
ALLOWED = {"procedure", "edition", "calc"} | {k for q in KINDS.values() for k, _ in parse_qsl(q)}


def _watch(pg) -> list[str]:
    seen: list[str] = []
    pg.on("request", lambda r: seen.append(" ".join([r.url, r.post_data or "", repr(r.headers)])))
    return seen


def _query_keys(requests: list[str]) -> set[str]:
    """Every key of every watched request's query string."""
    return {k for r in requests for k, _ in parse_qsl(urlsplit(r.split(" ", 1)[0]).query, keep_blank_values=True)}


def _ready(pg):
    wait_until(pg, "() => document.getElementById('guided-app').dataset.recordReady === 'yes'")


def _text(pg) -> str:
    return pg.evaluate("document.getElementById('record-text').textContent")


def _import_and_update(pg, pbn_text: str):
    """Paste a PBN board, read it into the form, add the director, update the record."""
    pg.fill("#pbn-in", pbn_text)
    pg.tap("#pbn-read")
    assert pg.input_value("#c-board") == CLUB["board"] and pg.input_value("#p-north") == CLUB["north"]
    assert pg.input_value("#p-deal") == CLUB["deal"] and pg.input_value("#c-result_contract") == "4H"
    pg.fill("#p-director", DIRECTOR)
    for k, v in MORE.items():
        pg.fill(f"#c-{k}", v)
    # the query stays as it is: the fields go into the fragment, the record is filled in place
    query = pg.url.split("#")[0]
    pg.tap("#record-form button[type=submit]")
    wait_until(pg, "(d) => document.getElementById('record-text').textContent.includes('Director: ' + d)", DIRECTOR)
    assert pg.url.split("#")[0] == query


def _exported(pg) -> str:
    with pg.expect_download() as got:
        pg.tap("#export-pbn")
    return Path(got.value.path()).read_text(encoding="utf-8")


def _check_record(pg, kind: str):
    text = _text(pg)
    assert f"Board: 5 — Dealer North; North-South vulnerable (board checker, Law 2)" in text
    assert f"Director: {DIRECTOR}\nPlayers: North Bob North; East Cy East; South Di South; West Ann West\n" in text
    assert ("Hands:\n  North: ♠AKQ2 ♥J54 ♦K83 ♣Q72\n  East: ♠J96 ♥AQ9 ♦Q762 ♣K63\n"
            "  South: ♠T8 ♥K7632 ♦AJ4 ♣A95\n  West: ♠7543 ♥T8 ♦T95 ♣JT84\n") in text
    assert "Auction: North 1♣, East Pass, South 1♥, West Pass, North 2♥, East Pass, South 4♥, West Pass, " \
           "North Pass, East Pass\n" in text
    assert "Table result: 4♥ by South, 10 tricks\n" in text
    assert ("Right to appeal: A contestant may appeal this ruling within 20 minutes after the official score is made "
            "available, the period set by the Club Handbook (Law 92B). [92B]") in text
    assert text.endswith("Signatures:\nDirector: ________________\nNorth-South: ________________\n"
                         "East-West: ________________\n")
    assert ("Date: 2025-03-11\nTime: 19:45\nEvent: Tuesday Club Pairs\nVenue: Riverside Bridge Club\n"
            "Session: Evening session\nRound: 2\nBoard: 5 — Dealer North; North-South vulnerable (board checker, Law 2)\n"
            "Table: Table 6\nDirector: ") in text
    assert f"\nFacts:\n{MORE['facts']}\n" in text and "4H-1 NS -50 for both sides\n" in text
    assert "the period set by the Club Handbook (Law 92B)" in text and "within 20 minutes" in text
    # the page shows them too, filled from the fragment
    assert pg.inner_text("p.facts") == MORE["facts"] and pg.inner_text("#table-result") == "4♥ by South, 10 tricks"
    assert pg.inner_text("dd[data-context='board']") == "5\nDealer North; North-South vulnerable (board checker, Law 2)"
    if kind == "guided":
        assert "  North-South +420, East-West -420 — computed by the score checker\n" in text
    # the page says the same: the people and the hands filled from the fragment
    assert pg.inner_text("table.seats") .split() == ["Seats", "and", "players", "North", "East", "South", "West",
                                                      "Bob", "North", "Cy", "East", "Di", "South", "Ann", "West"]
    assert "North: ♠AKQ2 ♥J54 ♦K83 ♣Q72" in pg.inner_text("#record-hands")
    # the names and every record field are in the fragment, never in the query
    query, _, frag = pg.url.partition("?")[2].partition("#")
    assert not any(s in query for s in SECRETS) and quote_plus(CLUB["north"]) in frag
    assert {k for k, _ in parse_qsl(query)} <= ALLOWED and not {k for k, _ in parse_qsl(query)} & record.FRAGMENT_FIELDS
    assert {k for k, _ in parse_qsl(frag)} == {"date", "event", "site", "round", "board", "north", "east", "south",
                                                 "west", "deal", "auction", "cardplay", "result_contract",
                                                 "result_declarer", "result_tricks", "director", *MORE}


def _one_page(pg):
    pg.emulate_media(media="print")
    assert (_pdf_pages(pg.pdf(format="A4")), _pdf_pages(pg.pdf(format="Letter"))) == (1, 1)
    pg.emulate_media(media="screen")


def _round_trip(pg, url: str, kind: str):
    """A record made from a PBN board: printed, exported, and the export imported
    into a new record of the same ruling gives the same facts and the same export."""
    pg.goto(url)
    _ready(pg)
    _import_and_update(pg, CLUB_PBN)
    _check_record(pg, kind)
    _one_page(pg)
    first = _exported(pg)
    assert pbn.read(first) == [CLUB]
    game = pbn.parse(first)[0]
    assert game["commentary"][0].startswith("Unauthorized information" if kind.startswith("guided") else "Irregularity in the")
    text = _text(pg)
    pg.tap("#save-record")
    saved = pg.evaluate("JSON.parse(localStorage.getItem('lawbook-records'))[0]")
    assert saved["url"].endswith("#" + pg.url.split("#", 1)[1]) and saved["text"] == text
    # reopened from the phone's saved records: every field kept
    pg.goto(pg.url.split("/rulings/")[0] + "/rulings/saved")
    pg.locator("#saved-list a").first.tap()
    wait_until(pg, "(t) => document.getElementById('record-text').textContent === t", text)
    # the export, imported into the same ruling's record made afresh
    pg.goto(url)
    _ready(pg)
    _import_and_update(pg, first)
    assert pbn.read(_exported(pg)) == [CLUB]
    again = _text(pg)
    strip = lambda t: [line for line in t.splitlines() if not line.startswith("Time: ")]  # noqa: E731
    assert strip(again) == strip(text)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_record_with_a_pbn_deal_prints_on_one_page_exports_and_reimports(browser, base_url, kind):
    ctx = phone_context(browser, service_workers="block", accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    requests = _watch(pg)
    _round_trip(pg, f"{base_url}/rulings/record?{KINDS[kind]}", kind)
    ctx.close()
    assert not errors, errors
    leaked = [r for r in requests if any(s in r for s in SECRETS)]
    assert requests and not leaked, leaked[:2]
    assert _query_keys(requests) <= ALLOWED, _query_keys(requests) - ALLOWED


def test_the_same_offline(browser, app):
    """One visit online, then no server: each kind's record made on the phone
    from its address, the PBN board imported, exported and imported again."""
    with serve(app) as (url, server):
        ctx = phone_context(browser, accept_downloads=True)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        requests = _watch(pg)
        pg.goto(f"{url}/rulings/play")
        wait_kept_offline(pg)
        cut_off(server, ctx)
        for kind in ("auction", "play"):  # (a guided record's carried score is computed online only)
            _round_trip(pg, f"{url}/rulings/record?{KINDS[kind]}", kind)
        kind_guided = KINDS["guided"].split("&calc=")[0]
        _round_trip(pg, f"{url}/rulings/record?{kind_guided}", "guided-offline")
        ctx.close()
        assert not errors, errors
        assert not [r for r in requests if any(s in r for s in SECRETS)]
        assert _query_keys(requests) <= ALLOWED, _query_keys(requests) - ALLOWED


def test_the_phones_pbn_reader_reads_the_fixtures_as_the_server_does(browser, base_url):
    ctx = phone_context(browser, service_workers="block")
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/record?{KINDS['play']}")
    _ready(pg)
    files = {p.name: p.read_text(encoding="utf-8") for p in PBN_DIR.glob("*.pbn")}
    got = pg.evaluate("(files) => Object.fromEntries(Object.entries(files).map(([k, v]) => [k, LawbookPBN.read(v)]))", files)
    assert got == EXPECTED
    bad = pg.evaluate("""(texts) => texts.map(t => { try { LawbookPBN.read(t); return null; }
                         catch (e) { return [e.tag, e.message]; } })""", [malformed_file(d) for d, _ in MALFORMED.values()])
    assert bad == [["Deal", m] for _, m in MALFORMED.values()]
    assert pg.evaluate("(r) => LawbookPBN.write(r, 'Ruling: {x}')", CLUB) == pbn.write(CLUB, "Ruling: {x}")
    # a malformed Deal pasted into the record's form: refused, naming the tag
    pg.fill("#pbn-in", malformed_file(MALFORMED["a card twice"][0]))
    pg.tap("#pbn-read")
    assert pg.inner_text("#pbn-error") == "Deal: the CQ is dealt twice (North and West)."
    ctx.close()
