"""The checker forms in a real browser at phone size: nothing wider than the
screen, and a filled-in form gives its result with the provisions as links."""
from __future__ import annotations

import threading

import pytest

from laws.checkers import registry

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def server(app):
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def page(server, request):
    try:
        browser = request.getfixturevalue("chromium")  # the worker's one Chromium (conftest)
    except sync_api.Error as exc:  # no usable browser here
        pytest.skip(f"no browser: {exc}")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    yield context.new_page()
    context.close()


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("c", registry.all_checkers(), ids=lambda c: c.id)
def test_form_fits_a_phone_and_answers_without_javascript(page, server, c):
    page.goto(f"{server}/checkers/{c.id}")
    assert _fits(page), f"/checkers/{c.id} is wider than a phone"
    # each click loads another page: its result is read once it has loaded (a
    # click returns when the navigation starts, and a busy machine is slow to finish it)
    with page.expect_navigation(wait_until="load"):
        page.click("text=Try an example")
    assert page.locator(".explanation").count() == 1
    assert _fits(page), f"the result of /checkers/{c.id} is wider than a phone"
    with page.expect_navigation(wait_until="load"):
        page.click("form.checker-form button[type=submit]")  # the form posts what it shows: the same answer
    assert page.locator(".explanation").count() == 1
    links = page.locator("ul.cites a")
    assert links.count() >= 1
    assert "/law/" in links.first.get_attribute("href")


def test_score_form_filled_by_hand(page, server):
    page.goto(f"{server}/checkers/score")
    page.fill("#f-level", "3")
    page.select_option("#f-strain", "NT")
    page.fill("#f-tricks", "9")
    page.click("form.checker-form button[type=submit]")
    assert "scores 400" in page.locator(".explanation").inner_text()
