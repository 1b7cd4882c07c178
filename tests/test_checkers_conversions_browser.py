"""The JavaScript port of victory-points, cross-imps and butler gives the same
digits as the Python on their boundary cases, in headless Chromium: every
whole IMP margin from 0 to past the blitz for matches of 1 to 64 boards,
margins in hundredths, averages that end in exactly half a hundredth, and
Butler means ending in exactly 5 (tests/test_checkers_offline_browser.py
runs the examples and 200 generated inputs per checker besides)."""
from __future__ import annotations

import math

import pytest

from checker_calls import python_answer
from test_checkers_offline_browser import RUN_IN_PAGE, _codes, base_url, browser, page, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def _vp_inputs() -> list[dict]:
    out = []
    for boards in range(1, 65):
        blitz = 15 * math.sqrt(boards)
        out += [{"margin": m, "boards": boards} for m in range(-2, math.ceil(blitz) + 2)]
    out += [{"margin": h / 100, "boards": b} for b in (7, 16, 20) for h in range(-2000, 7000, 37)]
    out += [{"margin": x, "boards": 16} for x in (59.994, 59.995, 0.004, -0.005, 0.005, 20.0, -60.0)]
    return out


def _cross_inputs() -> list[dict]:
    out = [{"scores": [s] + [0] * n} for n in range(1, 17) for s in (20, -20, 50, -50, 90, 430)]
    return out + [{"scores": [420, 420, 450, -50, 170]}, {"scores": [100, 100]}]


def _butler_inputs() -> list[dict]:
    out = []
    for base in (-630, -415, -410, -5, 0, 5, 410, 415):
        for n in (1, 2, 3):
            out.append({"scores": [base, base + 10] * n, "drop": n - 1})
            out.append({"scores": [base, base + 5, base + 10], "drop": 0})
    return out + [{"scores": [7, 8, 9, 10], "drop": 1}, {"scores": [1, 2], "drop": 1}]


@pytest.mark.parametrize("checker_id, inputs", [
    ("victory-points", _vp_inputs()), ("cross-imps", _cross_inputs()), ("butler", _butler_inputs()),
])
def test_boundary_cases_give_the_same_digits(app, server, page, checker_id, inputs):  # noqa: F811
    assert page.goto(f"{server}/checkers/{checker_id}").status == 200
    codes = _codes(app)
    python = [python_answer(checker_id, i, codes) for i in inputs]
    js = page.evaluate(RUN_IN_PAGE, [checker_id, inputs])
    differ = [(i, p, j) for i, p, j in zip(inputs, python, js) if p != j]
    assert not differ, f"{len(differ)} of {len(inputs)} differ; the first: {differ[0]}"
    assert sum("error" not in p for p in python) >= len(inputs) - 2


@pytest.mark.parametrize("checker_id, query", [
    ("victory-points", "margin=-23&boards=16&check=1"),
    ("cross-imps", "scores=420+420+450+-50+170&check=1"),
    ("butler", "scores=420+420+450+-50+170+620&drop=1&check=1"),
])
def test_a_kept_page_computes_them_on_the_phone(client, server, page, checker_id, query):  # noqa: F811
    """As the service worker does offline: the kept page computes the result,
    explanation, cites and next step as the server's page shows them, at 360 x 740
    with no sideways scroll and 44 px targets."""
    import re
    from html import unescape

    from markupsafe import escape

    from test_browser_table import SCAN
    from test_checkers_offline_browser import _offline
    _offline(page, server, checker_id)
    page.goto(f"{server}/checkers/{checker_id}?{query}")
    assert page.locator("#result[data-computed=phone]").count() == 1
    online = client.get(f"/checkers/{checker_id}?{query}").get_data(as_text=True)
    assert str(escape(page.locator("#result .explanation").inner_text())) in online
    hrefs = page.eval_on_selector_all("#result ul.cites a", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs == [h.replace("&amp;", "&") for h in re.findall(r'<li><a href="([^"]+)">Law ', online)] and hrefs
    steps = page.eval_on_selector_all("#result a.next-step", "as => as.map(a => [a.getAttribute('href'), a.textContent])")
    assert steps == [[unescape(h), unescape(t)] for h, t in
                     re.findall(r'<a class="next-step" href="([^"]+)">([^<]+)</a>', online)]
    assert bool(steps) == (checker_id != "victory-points")
    got = page.evaluate(SCAN)
    assert got["overflow"] <= 0 and not got["small"] and not got["broken"], got
