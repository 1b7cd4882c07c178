"""The table kit (issue 20), on the server side: the home page as the front
door (the box, then "What happened?" with its four starts), the footer's
editions from the store, and what a phone keeps offline on a first visit
(laws.web.site.kit: the code in force and its index, the rulings and their
records, every checker, the guide, and the comparison of the code in force
with the code before it, at the very addresses the site links to).

A corpus with a 2027 code in force, built as an organiser would add it,
proves that nothing names an edition: the footer, the kit and its
comparison follow the store.  The browser side is
tests/test_offline_kit_browser.py.
"""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from laws import queries
from laws.checkers import registry
from laws.web.pagecache import content_hash


class Links(HTMLParser):
    """The hrefs inside the first element matching (tag, class), in order."""

    def __init__(self, tag: str, cls: str | None = None):
        super().__init__()
        self.tag, self.cls, self.depth, self.done, self.hrefs = tag, cls, 0, False, []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.depth:
            if tag == self.tag:
                self.depth += 1
            if tag == "a":
                self.hrefs.append(a.get("href"))
                self.texts.append("")
        elif not self.done and tag == self.tag and (self.cls is None or self.cls in (a.get("class") or "").split()):
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth and tag == self.tag:
            self.depth -= 1
            self.done = self.depth == 0

    def handle_data(self, data):
        if self.depth and self.texts:
            self.texts[-1] += data


def links(html: str, tag: str, cls: str | None = None) -> Links:
    p = Links(tag, cls)
    p.feed(html)
    return p


def codes_in_jump_order(db) -> list[dict]:
    return sorted((e for e in queries.editions(db) if e["kind"] == "code"), key=queries.jump_order)


# --- home: the box, then what happened ------------------------------------------------

def test_home_has_the_box_then_the_four_starts(client):
    html = client.get("/").get_data(as_text=True)
    starts = links(html, "ul", "starts")
    assert starts.hrefs == ["/rulings/auction", "/rulings/play", "/rulings/guided", "/checkers"]
    assert [" ".join(t.split()) for t in starts.texts] == [
        "Auction insufficient bid, call out of turn, change of call…",
        "Play lead out of turn, revoke, exposed card, defective trick…",
        "Judgement hesitation, misinformation, claims, adjusted scores…",
        "Scores and boards dealer and vulnerability, score, IMPs, matchpoints…"]
    # the box comes first, then the heading, then the starts, before anything else
    box, heading, first = html.index('id="jump-home"'), html.index(">What happened?</h2>"), html.index('class="starts"')
    assert box < heading < first < html.index("<h2>Editions</h2>")


def test_every_start_lands_on_a_page(client):
    html = client.get("/").get_data(as_text=True)
    for href in links(html, "ul", "starts").hrefs:
        r = client.get(href)
        assert r.status_code == 200 and r.mimetype == "text/html", href


# --- the footer: the code editions of the store, the code in force first ---------------

@pytest.mark.parametrize("url", ["/", "/2007/law/12", "/guide", "/no-such-page"])
def test_footer_lists_the_code_editions_from_the_store(client, db, url):
    html = client.get(url).get_data(as_text=True)
    footer = links(html, "footer")
    expected = [f"/{e['id']}/" for e in codes_in_jump_order(db)]
    assert [h for h in footer.hrefs if h in expected] == expected
    assert expected[0] == "/2017/"  # the code in force, whatever the store's order
    labels = dict(zip(footer.hrefs, (" ".join(t.split()) for t in footer.texts)))
    assert [labels[h] for h in expected] == ["2017 Laws", "2007 Laws", "1993 Laws (rubber)"]
    assert footer.hrefs[:2] == ["/", "/2017/"] and "/rulings" in footer.hrefs and "/offline" in footer.hrefs


# --- what a phone keeps ----------------------------------------------------------------

@pytest.fixture(scope="module")
def kept(app) -> dict[str, str]:
    return app.test_client().get("/offline/pages.json").get_json()["pages"]


def test_the_kit_keeps_every_checker_of_the_registry(kept):
    checkers = ["/checkers"] + [f"/checkers/{c.id}" for c in registry.all_checkers()]
    assert len(checkers) > 10
    assert sorted(u for u in kept if u.startswith("/checkers")) == sorted(checkers)


def test_the_kit_keeps_the_comparison_with_the_previous_code(kept, db):
    codes = {e["id"]: e for e in queries.editions(db)}
    both = sorted(set(codes["2007"]["laws"]) & set(codes["2017"]["laws"]))
    assert len(both) == 93
    pair = "from=2007&to=2017"
    assert sorted(u for u in kept if u.startswith("/compare")) == sorted(
        ["/compare", f"/compare?{pair}"] + [f"/compare/{n}?{pair}" for n in both])


def test_kept_comparisons_are_the_addresses_the_site_links_to(client, kept):
    """A law page's "what changed" link and the overview's table name
    exactly the kept addresses, so a tap with no connection finds them."""
    kept_compare = {u for u in kept if u.startswith("/compare/")}
    for n in (1, 12, 40, 93):
        html = client.get(f"/2017/law/{n}").get_data(as_text=True)
        hrefs = {unescape(h) for h in re.findall(r'href="(/compare/[^"]*)"', html)}
        assert f"/compare/{n}?from=2007&to=2017" in hrefs and hrefs <= kept_compare | {f"/compare/{n}?from=1993-rubber&to=2017"}, n
    overview = client.get("/compare?from=2007&to=2017").get_data(as_text=True)
    table = {unescape(h) for h in re.findall(r'href="(/compare/\d+[^"]*)"', overview)}
    assert table == kept_compare


def test_the_kit_keeps_the_code_in_force_its_index_the_guide_and_the_rulings(kept, db):
    in_force = codes_in_jump_order(db)[0]
    assert in_force["in_force"] and in_force["id"] == "2017"
    topics = [f"/guide/{t['id']}" for t in queries.guide(db)]
    wanted = {"/", "/offline", "/offline/search", "/sources", "/2017/", "/2017/definitions", "/2017/index",
              "/guide", *topics, *(f"/2017/law/{n}" for n in in_force["laws"]),
              "/rulings", "/rulings/auction", "/rulings/play", "/rulings/play.json", "/rulings/guided",
              "/rulings/guided.json", "/rulings/record", "/rulings/saved"}
    assert wanted <= set(kept)
    guided = sorted(u for u in kept if u.startswith("/rulings/guided/"))
    # one kept page per guided procedure (the count grows as procedures are added)
    from laws.rulings import guided as procedures
    assert guided == sorted(f"/rulings/guided/{p['id']}" for p in procedures.procedures("2017"))
    # nothing of another edition: those are kept when opened, or on request
    assert not [u for u in kept if re.match(r"^/(2007|1993-rubber)/", u)]


def test_every_kept_address_answers_with_the_listed_hash(client, kept):
    """The listed hash is the page's content (or its ETag): a device holding
    the page with that hash holds what the server answers."""
    assert len(kept) > 350
    for url, tag in kept.items():
        r = client.get(url)
        assert r.status_code == 200, url
        etag = r.headers.get("ETag")
        if etag:
            assert etag == f'W/"{tag}"', url
        else:
            assert tag == content_hash(r.get_data(as_text=True)), url


def test_the_offline_page_lists_the_kit_truly(client, app, kept):
    from laws.web import site

    html = client.get("/offline").get_data(as_text=True)
    with app.test_request_context():
        groups = site.kit()
    assert [g["key"] for g in groups] == ["site", "code", "rulings", "checkers", "guide", "compare", "search"]
    assert sum(len(g["urls"]) for g in groups) == len(kept)  # every address in one group only
    items = links(html, "ul", "kit")
    assert items.hrefs == [g["href"] for g in groups]
    texts = [" ".join(t.split()) for t in items.texts]
    assert texts[1] == ("Laws of Duplicate Bridge 2017 (in force) contents, every law (93), the definitions and "
                        "the official index · 96 pages")
    n = len(registry.all_checkers())  # the list and a page per checker
    assert texts[3] == f"Rule checkers all {n} checker pages, each with its form · {n + 1} pages"
    assert texts[5] == ("What changed: the 2007 Laws against the 2017 Laws every law the two codes share (93), "
                        "word by word · 95 pages")
    assert f"keeps these {len(kept)} pages" in html
    others = links(html, "ul", "kit-others")
    assert others.hrefs == ["/2007/", "/1993-rubber/"]
    assert "Space taken on this device: unknown." in html  # until the page's script measures it


# --- a 2027 code in force: nothing names an edition -------------------------------------

from tests.test_edition_life import corpus_2027, on_the_day  # noqa: E402,F401 (2017 Laws 33-40 as a 2027, in force)


def test_a_2027_code_in_force_leads_the_footer_and_the_kit(on_the_day):
    client = on_the_day[0].test_client()
    footer = links(client.get("/guide").get_data(as_text=True), "footer")
    assert [h for h in footer.hrefs if re.match(r"^/[^/]+/$", h)] == ["/2027/", "/2017/", "/2007/", "/1993-rubber/"]
    kept = client.get("/offline/pages.json").get_json()["pages"]
    pair = urlencode({"from": "2017", "to": "2027"})
    assert sorted(u for u in kept if u.startswith("/compare")) == sorted(
        ["/compare", f"/compare?{pair}"] + [f"/compare/{n}?{pair}" for n in range(33, 41)])
    assert {f"/2027/law/{n}" for n in range(33, 41)} <= set(kept)
    assert not [u for u in kept if u.startswith("/2017/")]
    for url in [u for u in kept if u.startswith("/compare")]:
        assert client.get(url).status_code == 200, url
