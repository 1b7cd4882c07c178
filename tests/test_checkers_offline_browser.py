"""The checkers with no server, in a real browser (headless Chromium):

- the JavaScript port (static/checkers/checkers.js) gives the same result,
  explanation and cites as the Python for every checker's example, the
  fixtures of both codes and 200 generated inputs per checker, valid and
  invalid (an invalid one is refused by both, naming the same field, in the
  same words);
- a checker's kept page answering an address with inputs (as the service
  worker does offline) computes the result on the phone, with its cites and
  next step;
- at 360 x 740 a director goes from a board to its score, to IMPs, and into
  the ruling record by tapping the next step each time."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker_calls import generated_inputs, python_answer
from laws.checkers import registry
from test_browser import CHROMIUM, base_url, browser  # noqa: F401 (the same browser and server as the others)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]
PHONE = {"width": 360, "height": 740}
CHECKERS = registry.all_checkers()
GENERATED = 200
SEED = 20
FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "checkers.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def server(base_url):
    return base_url


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    yield context.new_page()
    context.close()


def _codes(app):
    from laws.web.checkers import store_codes
    with app.app_context():
        return store_codes()


RUN_IN_PAGE = """([id, inputs]) => {
  const ctx = JSON.parse(document.getElementById('checker-data').textContent);
  const L = window.LawbookCheckers;
  return inputs.map(input => {
    try { return L.run(id, input, ctx); }
    catch (e) { if (e instanceof L.CheckerError) return {error: e.message, field: e.field}; return {crash: String(e)}; }
  });
}"""


@pytest.mark.parametrize("c", CHECKERS, ids=[c.id for c in CHECKERS])
def test_the_javascript_port_answers_as_the_python(app, server, page, c):
    assert page.goto(f"{server}/checkers/{c.id}").status == 200
    assert c.id in page.evaluate("window.LawbookCheckers.ported"), f"{c.id} is not ported"
    codes = _codes(app)
    inputs = [c.example] + [dict(f["input"], edition=ed) for f in FIXTURES["cases"] if f["checker"] == c.id
                            for ed in ("2017", "2007")] + generated_inputs(c, GENERATED, SEED)
    python = [python_answer(c.id, i, codes) for i in inputs]
    js = page.evaluate(RUN_IN_PAGE, [c.id, inputs])
    differ = [(i, p, j) for i, p, j in zip(inputs, python, js) if p != j]
    assert not differ, f"{len(differ)} of {len(inputs)} differ; the first: {differ[0]}"
    answered = sum("error" not in p for p in python)
    assert answered >= len(inputs) // 3 and len(inputs) - answered >= 10  # both kinds are exercised


def _offline(page, server, checker_id: str):
    """Answer /checkers/<id>?… with the page kept for /checkers/<id>, as the
    service worker does with no network."""
    import urllib.request
    kept = urllib.request.urlopen(f"{server}/checkers/{checker_id}").read()

    def handle(route):
        route.fulfill(status=200, body=kept, headers={"Content-Type": "text/html; charset=utf-8"})
    page.route(f"{server}/checkers/{checker_id}?*", handle)


@pytest.mark.parametrize("checker_id, query", [
    ("score", "level=4&strain=S&risk=X&vulnerable=on&tricks=11&check=1"),
    ("board", "board=19&check=1"),
    ("auction", "dealer=N&calls=1S+1H&edition=2007&check=1"),
    ("revoke", "won_by=offending+player&later_tricks=2&check=1"),
    ("weighted-score", "outcomes=500+200&weights=30+70&other_scores=-100+100+200+300+620&check=1"),
])
def test_a_kept_page_computes_the_answer_on_the_phone(client, server, page, checker_id, query):
    _offline(page, server, checker_id)
    page.goto(f"{server}/checkers/{checker_id}?{query}")
    result = page.locator("#result[data-computed=phone]")
    assert result.count() == 1 and "Computed on this phone" in result.inner_text()
    online = client.get(f"/checkers/{checker_id}?{query}").get_data(as_text=True)
    from markupsafe import escape
    explanation = page.locator("#result .explanation").inner_text()
    assert str(escape(explanation)) in online
    hrefs = page.eval_on_selector_all("#result ul.cites a", "as => as.map(a => a.getAttribute('href'))")
    import re
    assert hrefs == [h.replace("&amp;", "&") for h in re.findall(r'<li><a href="([^"]+)">Law ', online)]
    steps = page.eval_on_selector_all("#result a.next-step", "as => as.map(a => [a.getAttribute('href'), a.textContent])")
    from html import unescape
    assert steps == [[unescape(h), unescape(t)] for h, t in re.findall(r'<a class="next-step" href="([^"]+)">([^<]+)</a>', online)]
    from test_browser_table import SCAN  # no sideways scroll; every tap target 44 x 44 px
    got = page.evaluate(SCAN)
    assert got["overflow"] <= 0 and not got["small"] and not got["broken"], got


def test_a_kept_page_refuses_bad_input_naming_the_field(server, page):
    _offline(page, server, "score")
    page.goto(f"{server}/checkers/score?level=9&strain=S&tricks=10&check=1")
    assert page.locator("#error").inner_text().endswith("Level must be at most 7.")
    assert page.get_attribute("#f-level", "aria-invalid") == "true"
    assert page.input_value("#f-level") == "9"


def test_a_kept_page_fills_the_form_of_a_next_step(server, page):
    _offline(page, server, "score")
    page.goto(f"{server}/checkers/score?vulnerable=on&fill=1")
    assert page.is_checked("#f-vulnerable") and page.locator("#result").count() == 0


def _tap(page, selector_or_text):
    link = page.locator(selector_or_text).first
    box = link.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], selector_or_text
    link.click()
    page.wait_for_load_state()


def test_from_a_board_to_the_record_by_the_next_steps(server, page):
    """At 360 x 740: Board 7 (both vulnerable) → a North-South contract, 4S
    making 10 → IMPs against 170 at the other table → the ruling record."""
    page.goto(f"{server}/checkers/board?board=7")
    _tap(page, "a.next-step:has-text('North-South')")
    assert page.is_checked("#f-vulnerable")
    page.fill("#f-level", "4")
    page.select_option("#f-strain", "S")
    page.fill("#f-tricks", "10")
    page.click("form.checker-form button[type=submit]")
    assert "scores 620" in page.locator(".explanation").inner_text()
    _tap(page, "a.next-step:has-text('IMPs')")
    assert page.input_value("#f-difference") == "620"
    page.fill("#f-difference", "450")  # 620 less 170 at the other table
    page.click("form.checker-form button[type=submit]")
    assert "gains 10 IMPs" in page.locator(".explanation").inner_text()
    _tap(page, "a.next-step:has-text('ruling record')")
    assert page.url.startswith(f"{server}/rulings/record?")
    assert "+10 IMPs (a difference of 450, Law 78B)" in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
