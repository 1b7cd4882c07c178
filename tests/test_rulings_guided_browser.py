"""Guided rulings and ruling records in a real browser (headless Chromium at
/usr/bin/chromium, 390×844): the JavaScript rule answers every path of every
procedure exactly as the Python one; a director taps a UI ruling through to
an adjusted score and a contested claim to its ruling; the record prints on
one page, is saved on the phone and reopens from its link; all of it offline
after a first visit."""
from __future__ import annotations

import contextlib
import re

import pytest

from laws.rulings import guided
from test_browser import (  # noqa: F401 (shared browser helpers and fixtures)
    ARGS, CHROMIUM, PHONE, base_url, browser, cut_off, phone_context, serve, wait_kept_offline, wait_until,
    watched_page)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]



@pytest.fixture()
def page(browser):
    with watched_page(browser) as pg:
        yield pg


# the phone's rule (static/rulings/guided.js over walker.js) on the bundle it keeps
JS_RULE = """async (reqs) => {
    const bundle = await (await fetch('/rulings/guided.json')).json();
    return reqs.map(r => LawbookGuided.rule(bundle.editions[r.edition], r.procedure, r.answers));
}"""


def states(ways) -> list[dict]:
    """Each way through a procedure ({edition, procedure, answers}) and every
    state on the way to it (one answer fewer at a time), each once, in order
    (the other guided browser tests use it on their own fixtures)."""
    seen, out = set(), []
    for w in ways:
        items = list(w["answers"].items())
        for n in range(len(items) + 1):
            key = (w["edition"], w["procedure"], tuple(items[:n]))
            if key not in seen:
                seen.add(key)
                out.append({"edition": w["edition"], "procedure": w["procedure"], "answers": dict(items[:n])})
    return out


def _requests() -> list[dict]:
    """Every ending of every procedure in every edition (the rubber code's
    subset too), and every state on the way to it."""
    return states({"edition": ed, "procedure": proc, "answers": answers}
                  for ed in guided.editions() for proc in guided.load()[ed]["kinds"]
                  for answers, _ in guided.endings(guided.load()[ed], proc))


def test_javascript_gives_the_same_guided_rulings(page, base_url):
    page.goto(f"{base_url}/rulings/guided")
    requests = _requests()
    got = page.evaluate(JS_RULE, requests)
    want = [guided.rule(r) for r in requests]
    mismatched = [(r, g, w) for r, g, w in zip(requests, got, want) if g != w]
    assert not mismatched, mismatched[:1]
    assert len(got) > 300


def _fits(pg) -> bool:
    return pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def _tap_and_load(pg, selector: str):
    with pg.expect_navigation():
        pg.locator(selector).first.tap()
    pg.wait_for_load_state("load")


def _answer(pg, fact: str, value: str):
    _tap_and_load(pg, f"form.question button[name='{fact}'][value='{value}']")


UI_PATH = [("ui_source", "partner"), ("ui_available", "yes"), ("ui_suggested", "yes"),
           ("ui_logical_alternative", "yes"), ("ui_damaged", "yes"), ("assigned_possible", "assigned"),
           ("self_inflicted", "no")]


def _walk_ui_to_adjusted_score(pg, base_url):
    pg.goto(f"{base_url}/rulings")
    _tap_and_load(pg, "main a[href='/rulings/guided']")
    _tap_and_load(pg, "main a[href='/rulings/guided/unauthorized-information']")
    for fact, value in UI_PATH:
        assert pg.locator("form.question .ask").count() == 1  # one question at a time
        assert _fits(pg)
        _answer(pg, fact, value)
    assert pg.locator("form.question").count() == 0


def test_ui_ruling_walked_to_an_adjusted_score(page, base_url):
    _walk_ui_to_adjusted_score(page, base_url)
    decision = page.inner_text(".ruling .decision")
    assert decision.startswith("Assign an adjusted score for both sides")
    assert page.locator(".ruling a[href^='/checkers/weighted-score?record=']").count() == 1
    assert page.locator(".steps .a strong").all_inner_texts()[1:] == \
        ["Yes", "Yes", "Yes", "Yes", "Yes: I can name the likely results (assigned score)", "No"]
    assert page.locator(".steps > li").count() == len(UI_PATH)
    cites = page.locator(".ruling ul.cites summary").all_inner_texts()
    assert any(c.startswith("Law 16B1(a)") for c in cites) and any(c.startswith("Law 12C1(c)") for c in cites)
    # a provision's text opens in place
    page.locator(".ruling ul.cites summary", has_text="Law 12C1(c)").tap()
    assert "weighted" in page.locator(".ruling ul.cites details[open] .provision-text").inner_text()
    # change an earlier answer: back to that question
    with page.expect_navigation():
        page.locator(".steps .change").nth(3).tap()
    assert page.locator("form.question button[name='ui_logical_alternative']").count() == 2
    assert _fits(page)


def test_a_contested_claim(page, base_url):
    page.goto(f"{base_url}/rulings/guided/claim")
    for fact, value in [("claim_kind", "contested"), ("claim_statement", "yes"), ("claim_by", "declarer"), ("claim_trump_out", "no"),
                        ("claim_unstated", "yes"), ("claim_finesse", "yes"), ("claim_showed_out", "no")]:
        _answer(page, fact, value)
    assert page.inner_text(".ruling .decision").startswith("Do not accept the unstated line")
    assert "Law 70E1" in " ".join(page.locator(".ruling ul.cites summary").all_inner_texts())
    # the same answers in 2007 ask one more question: would any other line be irrational?
    _tap_and_load(page, "nav.editions a.edition")
    assert page.locator("form.question button[name='claim_irrational']").count() == 2
    assert _fits(page)


def _record_from_ui_ruling(pg, base_url):
    _walk_ui_to_adjusted_score(pg, base_url)
    pg.fill("#r-event", "Thursday pairs")
    pg.fill("#r-board", "7")
    pg.fill("#r-table", "3")
    pg.fill("#r-facts", "N hesitated over 3S; S bid 4S.")
    pg.fill("#r-adjustment", "3S+1 NS 170 for both sides")
    _tap_and_load(pg, ".record-form button[type=submit]")
    assert "/rulings/record?" in pg.url


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_ruling_record_printed_saved_and_reopened_from_its_link(browser, base_url):
    ctx = phone_context(browser, service_workers="block")
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    pg = ctx.new_page()
    _record_from_ui_ruling(pg, base_url)
    body = pg.inner_text("article.record")
    for want in ("Unauthorized information (2017 Laws)", "Thursday pairs", "N hesitated over 3S; S bid 4S.",
                 "3S+1 NS 170 for both sides", "Assign an adjusted score for both sides",
                 "A logical alternative is an action that a significant proportion"):
        assert want in body
    assert _fits(pg)
    link = pg.get_attribute("#self-link", "href")
    text = pg.evaluate("document.getElementById('record-text').textContent")
    # the date and time set on the phone when the record was made (issue 21), then the event
    assert re.match(r"RULING RECORD — Unauthorized information \(2017 Laws\)\nDate: \d{4}-\d\d-\d\d\n"
                    r"Time: \d\d:\d\d\nEvent: Thursday pairs\n", text), text[:200]

    # copied as plain text
    pg.tap("#copy-record")
    wait_until(pg, "() => document.getElementById('copy-record').dataset.copied === 'yes'")
    assert pg.evaluate("navigator.clipboard.readText()") == text

    # printed: the record only, on one page
    pg.emulate_media(media="print")
    assert pg.evaluate("getComputedStyle(document.querySelector('header.site')).display") == "none"
    assert pg.evaluate("getComputedStyle(document.querySelector('.record-actions')).display") == "none"
    assert _pdf_pages(pg.pdf(format="A4")) == 1
    pg.emulate_media(media="screen")

    # saved on the phone, listed for the session's end
    pg.tap("#save-record")
    saved = pg.evaluate("JSON.parse(localStorage.getItem('lawbook-records'))")
    assert len(saved) == 1 and saved[0]["url"] == link and saved[0]["text"] == text
    pg.goto(f"{base_url}/rulings/saved")
    _tap_and_load(pg, "#saved-list a")
    assert pg.evaluate("document.getElementById('record-text').textContent") == text

    # reopened from its link in a fresh browser: the same record, nothing kept on the server
    other = phone_context(browser, service_workers="block")
    p2 = other.new_page()
    p2.goto(base_url + link)
    assert p2.evaluate("document.getElementById('record-text').textContent") == text
    other.close()
    ctx.close()


@contextlib.contextmanager
def offline_guided(browser, app):
    """A phone that visited the guided rulings once, then lost the server and
    the network: yields (url, page, the page's script errors)."""
    with serve(app) as (url, server):
        ctx = phone_context(browser)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{url}/rulings/guided")
        wait_kept_offline(pg)
        cut_off(server, ctx)
        try:
            yield url, pg, errors
        finally:
            ctx.close()


def answer_until_decided(pg, answers):
    """Tap each (fact, value) answer as its question comes, then wait for the decision."""
    for fact, value in answers:
        wait_until(pg, "(f) => !!document.querySelector(`form.question button[name='${f}']`)", fact)
        pg.tap(f"form.question button[name='{fact}'][value='{value}']")
        pg.wait_for_load_state("load")
    wait_until(pg, "() => !!document.querySelector('.ruling .decision')")


def test_guided_rulings_and_records_work_offline(browser, app):
    """One visit online; then no server and no network: a guided ruling walked
    from a deep link, its record made, and a saved record reopened."""
    with offline_guided(browser, app) as (url, pg, errors):
        pg.goto(f"{url}/rulings/guided/claim?edition=2017&claim_kind=contested&claim_statement=yes&claim_by=declarer")
        wait_until(pg, "() => !!document.querySelector(\"form.question button[name='claim_trump_out']\")")
        assert pg.locator(".steps > li").count() == 3
        for fact, value in [("claim_trump_out", "yes"), ("claim_trump_unaware", "yes"), ("claim_trump_lost", "yes")]:
            pg.tap(f"form.question button[name='{fact}'][value='{value}']")
            pg.wait_for_load_state("load")
            wait_until(pg, "(f) => !document.querySelector(`form.question button[name='${f}']`)", fact)
        wait_until(pg, "() => !!document.querySelector('.ruling .decision')")
        assert pg.inner_text(".ruling .decision").startswith("Award the opponents the trick or tricks")
        assert _fits(pg)

        pg.fill("#r-board", "12")
        pg.tap(".record-form button[type=submit]")
        pg.wait_for_load_state("load")
        wait_until(pg, "() => document.getElementById('record-text').textContent.length > 100")
        text = pg.evaluate("document.getElementById('record-text').textContent")
        assert "Board: 12" in text and "Law 70C2" in text and "Award the opponents" in text
        pg.tap("#save-record")
        pg.goto(f"{url}/rulings/saved")
        assert pg.locator("#saved-list a").count() == 1
        pg.locator("#saved-list a").first.tap()
        pg.wait_for_load_state("load")
        wait_until(pg, "() => document.getElementById('record-text').textContent.length > 100")
        assert pg.evaluate("document.getElementById('record-text').textContent") == text
    assert not errors, errors


def test_the_next_question_stays_in_view(browser, base_url):
    """At 360 x 740 the answers so far fold into one line, so each next
    question and its first answer are on the first screen, with no scrolling;
    the line opens to change an answer."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                              service_workers="block")
    pg = ctx.new_page()
    pg.goto(f"{base_url}/rulings/guided/unauthorized-information")
    for i, (fact, value) in enumerate(UI_PATH):
        where = pg.evaluate("""() => [window.scrollY, window.innerHeight,
            document.querySelector('form.question .ask').getBoundingClientRect().top,
            document.querySelector('form.question .answers button').getBoundingClientRect().bottom]""")
        scroll, height, ask_top, first_bottom = where
        assert scroll == 0 and ask_top < height * 0.6 and first_bottom <= height, (i, where)
        if i:
            summary = pg.locator("details.trail > summary")
            assert summary.bounding_box()["height"] < 60  # one line
            assert summary.inner_text().startswith(f"{i} answer")
        _answer(pg, fact, value)
    assert pg.locator("details.trail[open] .steps > li").count() == len(UI_PATH)  # the ruling shows them all
    pg.goto(f"{base_url}/rulings/guided/unauthorized-information?edition=2017&ui_source=partner&ui_available=yes")
    pg.locator("details.trail > summary").tap()
    with pg.expect_navigation():
        pg.locator(".steps .change").nth(1).tap()
    assert pg.locator("form.question button[name='ui_available']").count() == 2
    ctx.close()
