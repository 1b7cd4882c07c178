"""Long laws on a phone (issue 20), in a real browser at 360 x 740: a long law is
folded to its sections' headings, the section landed on open (static/app.js,
"long laws"), so Law 16 landed on 16B1 fits in four screens instead of 18;
one tap opens any section, a link or back/forward opens its target's section,
find in page and print still reach every word, a short law and a page without
JavaScript are whole."""
from __future__ import annotations

import pytest

from tests.test_browser import CHROMIUM, base_url, browser, wait_until  # noqa: F401  (same browser, same server)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")]
PHONE = {"width": 360, "height": 740}


@pytest.fixture()
def phone(browser):
    """A 360 x 740 phone with no service worker, failing on any script error."""
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              service_workers="block")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert not errors, errors


def land(pg, url: str):
    pg.goto(url)
    pg.wait_for_load_state("load")
    pg.wait_for_timeout(150)  # app.js scrolls to the provision again once the page has loaded


# What the reader sees: the page's height, what is on the screen, each section's
# heading button and whether its text is shown.
STATE = """() => {
    const header = document.querySelector('header.site').getBoundingClientRect().bottom;
    const shown = el => !!el && el.checkVisibility() && el.getBoundingClientRect().height > 0;
    const onScreen = el => { const r = el.getBoundingClientRect(); return shown(el) && r.top >= header - 1 && r.top < innerHeight - 40; };
    const sections = [...document.querySelectorAll('article.law > section.prov.d1')].map(s => {
        const b = s.querySelector(':scope > h2 .fold-toggle');
        const r = b ? b.getBoundingClientRect() : null;
        const rest = [...s.querySelectorAll(':scope > :not(h2)')];
        let next = s.nextElementSibling;
        while (next && !next.matches('section.prov')) next = next.nextElementSibling;
        const child = next && !next.classList.contains('d1') ? next : null;
        return {id: s.id, heading: s.querySelector(':scope > h2').textContent.replace(/\\s+/g, ' ').trim(),
                headingShown: shown(s.querySelector(':scope > h2')), button: !!b,
                expanded: b && b.getAttribute('aria-expanded'), tall: r ? r.height >= 44 && r.width >= 44 : null,
                ownShown: rest.filter(shown).length, childShown: child ? shown(child) : null,
                childFolded: child ? child.getAttribute('hidden') : null};
    });
    return {height: document.documentElement.scrollHeight, viewport: innerHeight,
            sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            hash: decodeURIComponent(location.hash), sections,
            folded: document.querySelectorAll('[hidden="until-found"]').length};
}"""


def state(pg) -> dict:
    return pg.evaluate(STATE)


def on_screen(pg, pid: str) -> bool:
    return pg.evaluate("""(id) => {
        const el = document.getElementById(id);
        const header = document.querySelector('header.site').getBoundingClientRect().bottom;
        const r = el.getBoundingClientRect();
        return el.checkVisibility() && r.height > 0 && r.top >= header - 1 && r.top < innerHeight - 40;
    }""", pid)


def shown(pg, pid: str) -> bool:
    return pg.evaluate("(id) => { const el = document.getElementById(id); return el.checkVisibility() && el.offsetHeight > 0; }", pid)


def by_id(st: dict) -> dict:
    return {s["id"]: s for s in st["sections"]}


# --- landing on a provision of a long law ------------------------------------------------------

def test_law_16_landed_on_16B1_is_four_screens_with_its_section_open(phone, base_url):
    land(phone, f"{base_url}/2017/law/16#16B1")
    st = state(phone)
    assert st["height"] <= 4 * st["viewport"], st["height"]
    assert st["sideways"] == 0
    assert on_screen(phone, "16B1")
    secs = by_id(st)
    assert [(s["id"], s["heading"]) for s in st["sections"]] == [
        ("16A", "A. Players' Use of Information"), ("16B", "B. Extraneous Information from Partner"),
        ("16C", "C. Information from Withdrawn Calls and Plays"), ("16D", "D. Extraneous Information from Other Sources")]
    # every heading shown, a button 44 px or more; 16B open, the others folded to it
    assert all(s["headingShown"] and s["button"] and s["tall"] for s in st["sections"])
    assert [s["expanded"] for s in st["sections"]] == ["false", "true", "false", "false"]
    for pid in ("16A", "16C", "16D"):
        assert secs[pid]["childShown"] is False and secs[pid]["childFolded"] == "until-found", secs[pid]
    assert secs["16C"]["ownShown"] == 0  # 16C's own opening words fold with it
    for pid in ("16A1", "16A2", "16C1", "16C2", "16D1"):
        assert not shown(phone, pid), pid
    # in 16B: 16B1 and its clauses whole, the other subsections a row each
    for pid in ("16B1", "16B1(a)", "16B1(b)"):
        assert shown(phone, pid), pid
    assert not shown(phone, "16B2") and not shown(phone, "16B3")
    rows = phone.evaluate("""() => [...document.querySelectorAll('.fold-line')].filter(r => r.checkVisibility())
        .map(r => [r.querySelector('.fold-label').textContent, r.querySelector('button').getAttribute('aria-expanded'),
                   r.querySelector('button').getAttribute('aria-controls'),
                   r.getBoundingClientRect().height >= 44, r.getBoundingClientRect().right <= innerWidth])""")
    # (16B3's footnote folds with it)
    assert rows == [["2.", "false", "16B2", True, True], ["3.", "false", "16B3 fn1", True, True]]
    # the outline is the folded headings: the list above them is not repeated
    assert not phone.locator("nav.outline").is_visible()


def test_one_tap_opens_a_section_and_a_link_opens_its_targets_section(phone, base_url):
    land(phone, f"{base_url}/2017/law/16#16B1")
    button = phone.locator('[id="16A"] > h2 .fold-toggle')
    button.tap()
    assert button.get_attribute("aria-expanded") == "true"
    for pid in ("16A1", "16A1(a)", "16A1(b)", "16A1(c)", "16A1(d)", "16A2"):
        assert shown(phone, pid), pid
    # 16A1(b) cites 16C: following the link opens 16C and brings it on screen
    link = phone.locator('[id="16A1(b)"] a.xref[href="#16C"]')
    link.scroll_into_view_if_needed()
    link.tap()
    wait_until(phone, "() => decodeURIComponent(location.hash) === '#16C'")
    wait_until(phone, "() => document.querySelector('[id=\"16C\"] > h2 .fold-toggle').getAttribute('aria-expanded') === 'true'")
    phone.wait_for_timeout(100)
    assert shown(phone, "16C1") and shown(phone, "16C2")
    assert phone.evaluate("""() => { const r = document.getElementById('16C').getBoundingClientRect();
                                      return r.top >= 0 && r.top < innerHeight; }""")
    # a second tap on a heading folds its section again
    b16c = phone.locator('[id="16C"] > h2 .fold-toggle')
    b16c.tap()
    assert b16c.get_attribute("aria-expanded") == "false" and not shown(phone, "16C1")


def test_back_and_forward_open_the_target_section(phone, base_url):
    land(phone, f"{base_url}/2017/law/16#16B1")
    phone.locator('[id="16A"] > h2 .fold-toggle').tap()
    link = phone.locator('[id="16A1(b)"] a.xref[href="#16C"]')
    link.scroll_into_view_if_needed()
    link.tap()
    wait_until(phone, "() => decodeURIComponent(location.hash) === '#16C'")
    phone.locator('[id="16B"] > h2 .fold-toggle').tap()  # the reader folds 16B away
    assert not shown(phone, "16B1")
    phone.go_back()
    wait_until(phone, "() => decodeURIComponent(location.hash) === '#16B1'")
    wait_until(phone, "() => document.getElementById('16B1').checkVisibility()")
    phone.wait_for_timeout(100)
    assert on_screen(phone, "16B1")
    phone.locator('[id="16C"] > h2 .fold-toggle').tap()   # fold 16C, then forward to it
    phone.go_forward()
    wait_until(phone, "() => decodeURIComponent(location.hash) === '#16C'")
    wait_until(phone, "() => document.getElementById('16C1').checkVisibility()")


def test_the_jump_box_and_a_folded_subsection_row(phone, base_url):
    land(phone, f"{base_url}/2017/law/16#16B1")
    row = phone.locator(".fold-line button", has_text="When a player has")
    row.tap()
    assert shown(phone, "16B3") and phone.locator(".fold-line", has_text="When a player has").count() == 0
    # 16B3's footnote folded with it and shows with it
    assert phone.evaluate("() => [...document.querySelectorAll('.footnotes li[data-provision=\"16B3\"]')].every(li => li.checkVisibility())")
    # the jump box to a provision of a folded section of this law
    phone.fill("#jump-q", "16D2")
    phone.press("#jump-q", "Enter")
    wait_until(phone, "() => decodeURIComponent(location.hash) === '#16D2'")
    wait_until(phone, "() => document.getElementById('16D2').checkVisibility()")
    assert phone.locator('[id="16D"] > h2 .fold-toggle').get_attribute("aria-expanded") == "true"


def test_2007_law_16_landed_on_16B1(phone, base_url):
    land(phone, f"{base_url}/2007/law/16#16B1")
    st = state(phone)
    secs = by_id(st)
    assert [s["expanded"] for s in st["sections"]] == ["false", "true", "false", "false"]
    assert on_screen(phone, "16B1") and shown(phone, "16B1(a)") and shown(phone, "16B1(b)")
    assert not shown(phone, "16A1") and not shown(phone, "16C1") and not shown(phone, "16D1")
    assert secs["16D"]["heading"] == "D. Information from Withdrawn Calls and Plays"  # C and D swapped in 2017
    assert st["sideways"] == 0
    # an older code's page carries a note on the code in force (335 px) above the law: 4.4 screens
    assert st["height"] <= 4.5 * st["viewport"], st["height"]


# --- landing on the law itself -------------------------------------------------------------------

def test_a_long_law_opens_folded_and_shows_whole_on_request(phone, base_url):
    land(phone, f"{base_url}/2017/law/40")
    st = state(phone)
    assert [s["expanded"] for s in st["sections"]] == ["false", "false", "false"]
    assert st["height"] <= 3 * st["viewport"] and st["sideways"] == 0
    assert all(on_screen(phone, s["id"]) for s in st["sections"])  # its shape on the first screen
    whole = phone.locator(".law-head .fold-all")
    assert whole.is_visible() and whole.inner_text() == "Show the whole law"
    assert whole.get_attribute("aria-expanded") == "false"
    box = whole.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    whole.tap()
    st = state(phone)
    assert [s["expanded"] for s in st["sections"]] == ["true", "true", "true"]
    assert st["folded"] == phone.evaluate("() => document.querySelectorAll('.about-law [hidden=\"until-found\"]').length")
    assert whole.inner_text() == "Fold to section headings" and whole.get_attribute("aria-expanded") == "true"
    assert st["height"] > 8 * st["viewport"]  # the whole of Law 40
    whole.tap()
    assert [s["expanded"] for s in state(phone)["sections"]] == ["false", "false", "false"]


def test_notes_under_a_long_law_fold_to_their_headings(phone, base_url):
    land(phone, f"{base_url}/2017/law/16")
    heads = phone.evaluate("""() => [...document.querySelectorAll('.about-law > section > h2 .fold-toggle')]
        .map(b => [b.innerText.replace(/\\s+/g, ' ').trim(), b.getAttribute('aria-expanded'), b.getBoundingClientRect().height >= 44])""")
    assert [h[0].split(" (")[0] for h in heads] == ["Rulings that apply this law", "More about Law 16 cited by, index, guide, editions, corrections, sources"]
    assert all(h[1] == "false" and h[2] for h in heads)
    assert not phone.locator("#cited-by").is_visible()
    phone.locator("#about-more > h2 .fold-toggle").tap()
    assert phone.locator("#cited-by").is_visible() and phone.locator("#in-index").is_visible()


def test_a_short_law_is_whole(phone, base_url):
    for url, pid in ((f"{base_url}/2017/law/1#1B", "1B"), (f"{base_url}/2017/law/3", None), (f"{base_url}/2017/law/5#5B", "5B")):
        land(phone, url)
        st = state(phone)
        assert phone.evaluate("() => document.querySelector('article.law').dataset.fold") is None, url
        assert st["folded"] == 0 and not phone.locator(".fold-toggle, .fold-line").count(), url
        assert all(s["ownShown"] or s["childShown"] for s in st["sections"]), url
        assert st["sideways"] == 0
        if pid:
            assert on_screen(phone, pid)


# --- find in page, print, no JavaScript ------------------------------------------------------------

def test_folded_text_is_found_in_page_and_printed(phone, base_url):
    land(phone, f"{base_url}/2017/law/16#16B1")
    # folded, not removed: hidden="until-found" is what find in page reveals
    assert phone.get_attribute('[id="16D1"]', "hidden") == "until-found"
    # the browser reveals such an element itself (find in page, a fragment), firing beforematch:
    # the rest of its section opens with it
    phone.evaluate("() => { const el = document.getElementById('16D1'); el.removeAttribute('hidden');"
                   " el.dispatchEvent(new Event('beforematch', {bubbles: true})); }")
    assert phone.locator('[id="16D"] > h2 .fold-toggle').get_attribute("aria-expanded") == "true"
    assert shown(phone, "16D2") and shown(phone, "16D1")
    # printed: every provision of every section, no fold controls
    land(phone, f"{base_url}/2017/law/40#40B1")
    phone.emulate_media(media="print")
    printed = phone.evaluate("""() => ({
        provisions: [...document.querySelectorAll('article.law section.prov')].filter(s => !s.checkVisibility()).map(s => s.id),
        controls: [...document.querySelectorAll('.fold-line, .fold-all')].filter(e => e.checkVisibility()).length})""")
    assert printed == {"provisions": [], "controls": 0}


def test_without_javascript_the_whole_law_is_shown(browser, base_url):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{base_url}/2017/law/16#16B1")
    hidden = pg.evaluate("""() => [...document.querySelectorAll('article.law section.prov')]
        .filter(s => !s.checkVisibility()).map(s => s.id)""")
    assert hidden == [] and pg.locator(".fold-toggle").count() == 0
    assert not pg.locator(".fold-all").is_visible() and pg.locator("nav.outline").is_visible()
    ctx.close()
