"""The HTML pages, through Flask's test client, over the real build: every
page kind, every error path, the headers, assets and offline files."""
from __future__ import annotations

import gzip
import json
import re
from markupsafe import escape as html_escape
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest

from laws import queries
from laws.web import pages as pages_mod


class Page(HTMLParser):
    """The bits of a page the tests look at: ids, links, scripts, styles."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[tuple[str, dict]] = []  # (href, attrs)
        self.scripts: list[dict] = []
        self.style_attrs = 0
        self.style_tags = 0
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if "style" in a:
            self.style_attrs += 1
        if tag == "a" and "href" in a:
            self.links.append((a["href"], a))
        if tag == "script":
            self.scripts.append(a)
        if tag == "style":
            self.style_tags += 1

    def hrefs(self, cls: str | None = None) -> list[str]:
        return [h for h, a in self.links if cls is None or cls in (a.get("class") or "").split()]


def get(client, url, status=200):
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code, r.data[:300])
    return r


def text(r) -> str:
    return r.get_data(as_text=True)


@pytest.fixture(scope="module")
def all_pages(app):
    """Every page a device can keep (laws.web.site.every_page)."""
    from laws.web import site

    with app.test_request_context():
        return site.every_page()


# --- laws.web.render on its own (before the pages, which need the store) -----------------

@pytest.mark.parametrize("title, nice", [
    ("OPENING LEAD, REVIEW, QUESTIONS", "Opening Lead, Review, Questions"),
    ("AFTER THE AUCTION", "After the Auction"),          # a small word leads: capitalized
    ("DUMMY'S RIGHTS", "Dummy's Rights"),                # not "Dummy'S"
    ("CLAIM BY DECLARER-DEFENDER", "Claim by Declarer-Defender"),
    ("SCORING/VULNERABILITY", "Scoring/Vulnerability"),
    ("(A) THE PACK", "(A) the Pack"),
    ("Mixed Case Title", "Mixed Case Title"),            # as printed
    ("  ", ""), (None, ""),
])
def test_render_nice_title(title, nice):
    from laws.web.render import nice_title

    assert nice_title(title) == nice


def test_render_addresses_and_labels():
    from laws.web import render

    assert render.frag("12C1(b)") == "12C1(b)" and render.frag("def:Dummy x/y") == "def:Dummy%20x%2Fy"
    assert render.law_url("2017", 12, "12C1") == "/2017/law/12#12C1"
    assert render.law_url("2017", 12, "12") == render.law_url("2017", 12) == "/2017/law/12"
    assert render.law_url("1993 rubber", 64) == "/1993%20rubber/law/64"
    assert render.definition_url("2007", "def:Dummy") == "/2007/definitions#def:Dummy"
    assert (render.cite_label("12C1"), render.cite_label("def:Dummy")) == ("Law 12C1", "def:Dummy")


def test_render_terms_marks_and_references_in_a_text():
    """The first use of each term (not a quiet one, not the one skipped) links,
    plurals and spaced words too; a footnote mark links unless doubled or
    alphanumeric; a reference to this law links within the page, an
    unresolved one is marked with its reason; paragraphs split at blank lines."""
    from laws.web.render import Terms, text_html

    terms = Terms("2007", {"psychic call": "def:Psychic Call", "convention": "def:Convention", "dummy": "def:Dummy",
                           "rectification": "def:Rectification"}, note="definition in the 2007 Laws")
    assert terms.terms == {"psychic call": "def:Psychic Call", "convention": "def:Convention",
                           "rectification": "def:Rectification"}  # dummy is an everyday word of the game
    text = ("A psychic  calls and a Convention; a psychic call again, conventions, rectifications*. "
            "See 12 and Law 99; x** y, non-convention\n\nsecond\nline")
    refs = [{"start": text.index("12"), "end": text.index("12") + 2, "resolved": True, "to": "12C1"},
            {"start": text.index("Law 99"), "end": text.index("Law 99") + 6, "resolved": False,
             "reason": "no <Law> 99"}]
    title = 'title="Definition (definition in the 2007 Laws)"'
    assert [str(p) for p in text_html(text, refs, edition="2017", law_number=12, terms=terms,
                                      marks=[("*", "#fn1"), ("1", "#fn2"), ("", "#fn3")],
                                      skip_term="def:Rectification")] == [
        f'A <a class="term" href="/2007/definitions#def:Psychic%20Call" {title}>psychic  calls</a> and a '
        f'<a class="term" href="/2007/definitions#def:Convention" {title}>Convention</a>; a psychic call again, '
        'conventions, rectifications<sup class="fn-mark"><a href="#fn1" title="Footnote">*</a></sup>. See '
        '<a class="xref" href="#12C1" title="Law 12C1">12</a> and '
        '<span class="xref-none" title="Not linked: no &lt;Law&gt; 99">Law 99</span>; x** y, non-convention',
        "second<br>\nline"]


def test_render_references_to_other_laws_editions_and_definitions():
    from laws.web.render import text_html

    text = "see 16B and def and 40 and Law 7"
    refs = [{"start": 4, "end": 7, "resolved": True, "to": "16B", "to_edition": "2007"},
            {"start": 12, "end": 15, "resolved": True, "to": "def:Dummy"},
            {"start": 20, "end": 22, "resolved": True, "to": "40", "to_law": 40},
            {"start": 20, "end": 22, "resolved": False},      # the resolved one at the same place wins
            {"start": 27, "end": 32, "resolved": True},       # resolved to nothing: marked
            {"start": 30, "end": 99, "resolved": True, "to": "7"}]  # past the end: left out
    assert [str(p) for p in text_html(text, refs, edition="2017", law_number=16)] == [
        'see <a class="xref" href="/2007/law/16#16B" title="Law 16B (2007)">16B</a> and '
        '<a class="xref" href="/2017/definitions#def:Dummy" title="def:Dummy">def</a> and '
        '<a class="xref" href="/2017/law/40" title="Law 40">40</a> and '
        '<span class="xref-none" title="Not linked: not found in the corpus">Law 7</span>']


def test_render_spans_that_touch_overlap_or_have_no_place():
    """A reference at the very start links; a footnote mark right after or
    right before a reference still links (touching is not overlapping); of
    two resolved references at one place the longer wins; a reference with no
    offsets (None) or none of its own length is left out, not an error; the
    longest term wins ("psychic call" over "psychic"); nothing inside a
    reference links again; with no law number a definition is not taken for
    a place on the page."""
    from laws.web.render import Terms, cite_label, text_html

    terms = Terms("2007", {"psychic": "def:P", "psychic call": "def:PC", "alert": "def:Alert"})
    text = "Law 9: a psychic call, 12* and *12 alert then Law 40B; psychic, def."
    refs = [{"start": 0, "end": 5, "resolved": True, "to": "9"}, {"start": 23, "end": 25, "resolved": True, "to": "12"},
            {"start": 32, "end": 34, "resolved": True, "to": "12"},
            {"start": 46, "end": 52, "resolved": True, "to": "40"}, {"start": 46, "end": 53, "resolved": True, "to": "40B"},
            {"start": 64, "end": 67, "resolved": True, "to": "def:Alert"},
            {"start": None, "end": None, "resolved": True, "to": "12"}, {"start": 7, "end": 7, "resolved": True, "to": "1"},
            {"start": 7, "end": None, "resolved": True, "to": "1"}, {"start": None, "end": 8, "resolved": True, "to": "1"},
            {"start": -1, "end": 2, "resolved": True, "to": "1"}]
    assert [text[r["start"]:r["end"]] for r in refs[:6]] == ["Law 9", "12", "12", "Law 40", "Law 40B", "def"]
    mark = '<sup class="fn-mark"><a href="#fn1" title="Footnote">*</a></sup>'
    twelve = '<a class="xref" href="/2017/law/12" title="Law 12">12</a>'
    marks = [("1", "#fn9"), ("", "#fn8"), ("*", "#fn1")]  # the first two can be no mark: skipped
    assert [str(p) for p in text_html(text, refs, edition="2017", marks=marks, terms=terms)] == [
        '<a class="xref" href="/2017/law/9" title="Law 9">Law 9</a>: a '
        '<a class="term" href="/2007/definitions#def:PC" title="Definition">psychic call</a>, '
        f'{twelve}{mark} and {mark}{twelve} '
        '<a class="term" href="/2007/definitions#def:Alert" title="Definition">alert</a> then '
        '<a class="xref" href="/2017/law/40#40B" title="Law 40B">Law 40B</a>; '
        '<a class="term" href="/2007/definitions#def:P" title="Definition">psychic</a>, '
        '<a class="xref" href="/2017/definitions#def:Alert" title="def:Alert">def</a>.']
    # a term inside a reference, or used already, is passed over for the next
    assert [str(p) for p in text_html("see alert rules* now, alert, alert and psychic",
                                      [{"start": 4, "end": 16, "resolved": False}],
                                      edition="2017", marks=[("*", "#fn1")], terms=terms)] == [
        'see <span class="xref-none" title="Not linked: not found in the corpus">alert rules*</span> now, '
        '<a class="term" href="/2007/definitions#def:Alert" title="Definition">alert</a>, alert and '
        '<a class="term" href="/2007/definitions#def:P" title="Definition">psychic</a>']
    # a mark of two characters is not linked inside a longer run of its first one; only a mark
    # that begins like a number is never linked
    assert [str(p) for p in text_html("x **† y *† z †2", edition="2017", marks=[("*†", "#fn2"), ("†2", "#fn3")])] == [
        'x **† y <sup class="fn-mark"><a href="#fn2" title="Footnote">*†</a></sup> z '
        '<sup class="fn-mark"><a href="#fn3" title="Footnote">†2</a></sup>']
    quiet = Terms("2007", {"dummy": "def:Dummy", "trick": "def:Trick"})  # only everyday words: nothing to link
    assert (quiet.terms, quiet.pattern) == ({}, None)
    assert [str(p) for p in text_html("dummy and trick", edition="2017", terms=quiet)] == ["dummy and trick"]
    assert text_html(None, edition="2017") == [] and text_html(" \n\n ", edition="2017") == []
    assert (cite_label("9B"), cite_label("def:9")) == ("Law 9B", "def:9")


def test_render_guide_law_tags_and_topic_links():
    """Each number of a law tag links to the edition `law_edition` names for
    its law, the words between them kept; a number that is no law (0) or whose
    law no edition has (4) stays text; an underlined name links only to a
    topic that `topic_for` finds."""
    from laws.web.render import guide_html

    def law_edition(n):
        return None if n == 4 else "1993-rubber" if n == 3 else "2007"

    md = ("See [LAWS 20, 21 & 75] and [Law 9] and [LAW 12C1(b) TO 99] and [Laws 3 and 4B] and [LAW 0 and 5]; "
          "[LAWS 4 & 6], <u>Claims</u>; <u>Nothing</u>.")
    law = '<a class="xref" href="/{}/law/{}">{}</a>'.format
    assert str(guide_html(md, law_edition=law_edition,
                          topic_for=lambda t: "/guide/topic:claims" if t == "Claims" else None)) == (
        f'<p>See <span class="law-tag">[LAWS {law(2007, 20, 20)}, {law(2007, 21, 21)} &amp; {law(2007, 75, 75)}]</span>'
        f' and <span class="law-tag">[Law {law(2007, 9, 9)}]</span>'
        f' and <span class="law-tag">[LAW <a class="xref" href="/2007/law/12#12C1(b)">12C1(b)</a> TO {law(2007, 99, 99)}]</span>'
        f' and <span class="law-tag">[Laws {law("1993-rubber", 3, 3)} and 4B]</span>'
        f' and <span class="law-tag">[LAW 0 and {law(2007, 5, 5)}]</span>; <span class="law-tag">[LAWS 4 &amp; {law(2007, 6, 6)}]</span>,'
        ' <a class="topic-link" href="/guide/topic:claims">Claims</a>; <u>Nothing</u>.</p>')
    # without a law_edition or topic_for nothing links; no text is no HTML
    assert str(guide_html("[LAWS 4, 5] <u>Claims</u>")) == (
        '<p><span class="law-tag">[LAWS 4, 5]</span> <u>Claims</u></p>')
    assert (str(guide_html(None)), str(guide_html(""))) == ("", "")


# --- every page the site lists renders, safely ------------------------------------

def test_every_listed_page_renders_without_inline_script_or_style(client, all_pages, db):
    law_pages = [u for u in all_pages if "/law/" in u]
    assert len(law_pages) == db.execute(
        "select count(*) from laws l join editions e on e.id = l.edition where e.kind = 'code'").fetchone()[0]
    for url in [u for u in all_pages if not u.endswith(".json")]:  # the offline rulings' data are not pages
        r = get(client, url)
        if url.endswith(".json"):  # the rulings' data, kept for the offline walkers
            assert r.mimetype == "application/json", url
            continue
        assert r.mimetype == "text/html"
        p = Page(text(r))
        # no inline script (a JSON data block, as a checker page's, is not run)
        assert all("src" in s or s.get("type") == "application/json" for s in p.scripts), url
        assert p.style_attrs == 0 and p.style_tags == 0, url  # nothing the CSP would block
        assert "Traceback" not in text(r)
        assert 'action="/go"' in text(r), url  # the jump box on every page


# --- home ---------------------------------------------------------------------------

def test_home_lists_editions_with_their_coverage(client):
    html = text(get(client, "/"))
    for title in ("Laws of Duplicate Bridge 2007", "Laws of Duplicate Bridge 2017",
                  "Laws of Contract Bridge 1993", "Duplicate Bridge Rules Simplified"):
        assert title in html
    assert "Laws 41–71 only" in html  # the rubber code's Part VI
    assert html.count("Laws 1–93, with the definitions") == 2  # 2007, and 2017 from the ACBL text
    assert "1997" in html and "not in the corpus" in html
    p = Page(html)
    for href in ("/2007/", "/2017/", "/1993-rubber/", "/guide", "/2007/definitions", "/sources",
                 "/checkers", "/compare"):
        assert href in p.hrefs(), href


# --- contents -----------------------------------------------------------------------

def test_2007_contents_has_every_law_under_its_chapter(client, db):
    html = text(get(client, "/2007/"))
    p = Page(html)
    titles = queries.law_titles(db, "2007")
    assert len(titles) == 93
    for law in titles:
        assert f"/2007/law/{law['number']}" in p.hrefs()
    for heading in ("Chapter I — Definitions", "Chapter II — Preliminaries", "Chapter V — The Auction",
                    "Part III — Auction out of Rotation", "Chapter VI — The Play", "Part IV — The Revoke",
                    "Chapter IX — Tournament Sessions"):
        assert heading in html
    # chapters come in order, with their laws inside them
    assert html.index("Chapter V — The Auction") < html.index('href="/2007/law/17"') < html.index("Chapter VI")
    assert "/2007/definitions" in p.hrefs()


def test_2017_contents_has_every_law_and_its_front_matter(client):
    html = text(get(client, "/2017/"))
    assert "Chapter V — The Auction" in html and "Part IV — Inadmissible Calls" in html
    assert "Chapter II — Preliminaries" in html and "Chapter IX — Tournament Sessions" in html
    assert "Laws 33–40 only" not in html
    hrefs = [h for h in Page(html).hrefs() if "/law/" in h]
    assert hrefs == [f"/2017/law/{n}" for n in range(1, 94)]
    assert "/2017/definitions" in Page(html).hrefs()


def test_rubber_contents_groups_by_section(client, db):
    html = text(get(client, "/1993-rubber/"))
    sections = {r[0] for r in db.execute("select distinct section from laws where edition = '1993-rubber'")}
    assert len(sections) > 1
    assert "Penalty Card" in html  # 'PENALTY CARD' printed in title case
    assert "/1993-rubber/law/41" in Page(html).hrefs()


def test_contents_without_slash_redirects(client):
    r = get(client, "/2007", 301)
    assert urlsplit(r.headers["Location"]).path == "/2007/"


# --- a law ----------------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["2007", "2017", "1993-rubber"])
def test_every_provision_is_anchored_by_its_id_with_a_citation_link(client, db, edition):
    numbers = [r[0] for r in db.execute("select number from laws where edition = ?", [edition])]
    for n in numbers:
        law = queries.law(db, edition, n)
        p = Page(text(get(client, f"/{edition}/law/{n}")))
        ids = set(p.ids)
        for prov in law["provisions"]:
            assert prov["id"] in ids, (edition, n, prov["id"])
        cites = {unquote(h) for h in p.hrefs("cite")}
        for prov in law["provisions"][1:]:
            assert f"/{edition}/law/{n}#{prov['id']}" in cites, prov["id"]
        assert len(p.ids) == len(ids), f"duplicate ids on {edition} Law {n}"


def test_law_page_shows_title_text_and_navigation(client, db):
    html = text(get(client, "/2007/law/12"))
    law = queries.law(db, "2007", 12)
    assert f"Law 12" in html and law["title"] in html
    assert 'id="12C1(b)"' in html
    p = Page(html)
    assert "/2007/law/11" in p.hrefs() and "/2007/law/13" in p.hrefs()
    first = Page(text(get(client, "/2007/law/1")))
    assert not any(h == "/2007/law/0" for h in first.hrefs())


def test_cross_references_are_links_to_their_targets(client, db):
    checked = 0
    for n in range(1, 94):
        law = queries.law(db, "2007", n)
        refs = [r for r in law["references"] if r["resolved"] and r["field"] == "text"]
        if not refs:
            continue
        p = Page(text(get(client, f"/2007/law/{n}")))
        xrefs = [unquote(h) for h in p.hrefs("xref")]
        for r in refs:
            if r["to_law"] == n and (r["to_edition"] or "2007") == "2007":
                want = f"#{r['to']}"
            elif r["to"] == str(r["to_law"]):
                want = f"/{r['to_edition']}/law/{r['to_law']}"
            else:
                want = f"/{r['to_edition']}/law/{r['to_law']}#{r['to']}"
            assert want in xrefs, (n, r["raw"], want)
            checked += 1
    assert checked > 100


def test_relative_references_link_within_the_page(client, db):
    rows = db.execute("select from_law, to_id from refs where edition = '2007' and resolved = 1 and "
                      "to_law = from_law and field = 'text' and to_id != cast(to_law as text) limit 5").fetchall()
    assert rows
    for from_law, to_id in rows:
        p = Page(text(get(client, f"/2007/law/{from_law}")))
        assert f"#{to_id}" in [unquote(h) for h in p.hrefs("xref")]
        assert to_id in p.ids


def test_unresolved_references_are_plain_text_with_their_reason(client, db):
    row = db.execute("select from_law, raw, reason, to_id from refs where edition = '1993-rubber' and resolved = 0 "
                     "and field = 'text' and to_id is not null limit 1").fetchone()
    html = text(get(client, f"/1993-rubber/law/{row['from_law']}"))
    # it keeps the provision it cites, but is not linked as if it resolved
    assert f'href="/1993-rubber/law/{row["to_id"]}' not in html
    assert 'class="xref-none"' in html
    assert "References not linked" in html
    assert str(row["reason"]) in html.replace("&#39;", "'")


def test_cited_by_links_to_citing_provisions(client, db):
    law = queries.law(db, "2007", 16)
    assert law["cited_by"]
    p = Page(text(get(client, "/2007/law/16")))
    hrefs = [unquote(h) for h in p.hrefs()]
    for r in law["cited_by"][:10]:
        if r["from"].startswith("def:"):
            continue
        m = re.match(r"\d+", r["from"])
        assert any(h.startswith(f"/2007/law/{m[0]}") and h.endswith(r["from"]) or
                   h == f"/2007/law/{m[0]}" for h in hrefs), r["from"]


def test_defined_terms_link_to_definitions_once_per_provision(client, db):
    html = text(get(client, "/2007/law/12"))
    p = Page(html)
    terms = [unquote(h) for h in p.hrefs("term")]
    assert terms and all(h.startswith("/2007/definitions#def:") for h in terms)
    defs = {d["id"] for d in queries.definitions(db, "2007")}
    assert {h.split("#", 1)[1] for h in terms} <= defs
    # never the same term twice in one provision
    for section in re.findall(r'<section class="prov.*?</section>', html, re.S):
        linked = re.findall(r'class="term" href="([^"]+)"', section)
        assert len(linked) == len(set(linked))


def test_2017_terms_link_to_its_own_definitions_and_rubber_is_not_linked(client):
    p2017 = Page(text(get(client, "/2017/law/40")))
    terms = p2017.hrefs("term")
    assert terms and all(h.startswith("/2017/definitions#") for h in terms)
    assert not Page(text(get(client, "/1993-rubber/law/64"))).hrefs("term")


def test_footnotes_with_their_marks(client, db):
    law = queries.law(db, "1993-rubber", 64)
    assert law["footnotes"]
    html = text(get(client, "/1993-rubber/law/64"))
    p = Page(html)
    assert "fn1" in p.ids
    assert "#fn1" in p.hrefs()
    for f in law["footnotes"]:
        assert f["text"].split()[0] in html


def test_tables_are_tables(client, db):
    rows = db.execute("select distinct provision from tables where edition = '2007'").fetchall()
    assert rows
    for (pid,) in rows:
        n = int(re.match(r"\d+", pid)[0])
        html = text(get(client, f"/2007/law/{n}"))
        assert "<table>" in html and "<td>" in html


def test_guide_topics_and_checkers_on_a_law(client, db):
    law = queries.law(db, "2007", 27)
    p = Page(text(get(client, "/2007/law/27")))
    for t in law["guide"]:
        assert f"/guide/{t}" in p.hrefs()
    law77 = queries.law(db, "2007", 77)
    p77 = Page(text(get(client, "/2007/law/77")))
    for c in law77["checkers"]:
        assert f"/checkers/{c}" in p77.hrefs()


def test_other_editions_with_compare_links(client):
    p = Page(text(get(client, "/2007/law/40")))
    assert "/2017/law/40" in p.hrefs()
    assert "/compare/40?from=2007&to=2017" in p.hrefs()
    p64 = Page(text(get(client, "/2007/law/64")))
    assert "/1993-rubber/law/64" in p64.hrefs()


def test_corrected_text_shows_the_source_reading(client, db):
    row = db.execute("select law, id, raw_text from provisions where edition = '1993-rubber' and raw_text is not null "
                     "and raw_text != text limit 1").fetchone()
    html = text(get(client, f"/1993-rubber/law/{row['law']}"))
    assert "Source reading" in html
    assert "Corrections to the source" in html


def test_sources_and_attribution_on_a_law(client, db):
    law = queries.law(db, "2007", 12)
    html = text(get(client, "/2007/law/12"))
    for s in law["sources"]:
        assert str(html_escape(s["title"])) in html
        assert str(html_escape(s["attribution"])) in html


# --- definitions, guide, sources ----------------------------------------------------------

def test_definitions_page_anchors_every_term(client, db):
    p = Page(text(get(client, "/2007/definitions")))
    for d in queries.definitions(db, "2007"):
        assert d["id"] in p.ids


def test_guide_lists_topics_and_topic_pages_link_laws(client, db):
    topics = queries.guide(db)
    p = Page(text(get(client, "/guide")))
    for t in topics:
        assert f"/guide/{t['id']}" in p.hrefs()
    t = next(t for t in topics if t["laws"] and 27 in t["laws"])
    tp = Page(text(get(client, f"/guide/{t['id']}")))
    assert any(h.endswith("/law/27") for h in tp.hrefs())


def test_guide_cross_references_and_law_tags_become_links(client):
    p = Page(text(get(client, "/guide/topic:lead-penalties")))
    assert "/guide/topic:comparable-calls" in p.hrefs()
    intro = Page(text(get(client, "/guide/topic:introduction")))
    assert "/2017/law/9" in intro.hrefs("xref")  # '[Law 9]' in the text: the guide explains the 2017 Laws


def test_guide_markdown_escapes_raw_html_and_links_underlined_topics():
    from laws.web.render import guide_html

    html = guide_html("<script>x</script> see <u>Lead Penalties</u>, see page 7 [LAWS 20, 21 & 75]",
                      law_edition=lambda n: "2007", topic_for=lambda t: "/guide/topic:lead-penalties")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<a class="topic-link" href="/guide/topic:lead-penalties">Lead Penalties</a>' in html
    assert 'href="/2007/law/21"' in html and 'href="/2007/law/75"' in html


def test_guide_topic_without_prefix(client, db):
    # /guide/<id> without "topic:" is the same page as with it
    tid = queries.guide(db)[0]["id"]
    assert tid.startswith("topic:")
    assert text(get(client, f"/guide/{tid.removeprefix('topic:')}")) == text(get(client, f"/guide/{tid}"))


def test_sources_page_has_provenance_and_attribution(client, db):
    html = text(get(client, "/sources"))
    p = Page(html)
    for s in queries.sources(db):
        assert s["file"] in p.ids
        assert s["attribution"].split("©")[0][:20] in html


# --- the jump box -------------------------------------------------------------------------

@pytest.mark.parametrize("query, edition, location", [
    ("27B1", None, "/2017/law/27#27B1"),  # newest edition with the provision
    ("L12C1b", None, "/2017/law/12#12C1(b)"),
    ("law 12 c 1 b", None, "/2017/law/12#12C1(b)"),
    ("law 40 b 2", None, "/2017/law/40#40B2"),  # newest edition with the provision
    ("40B2", "2007", "/2007/law/40#40B2"),  # the edition of the page typed on
    ("12C1(b)", "2017", "/2017/law/12#12C1(b)"),
    ("12C1(b)", "1993-rubber", "/2017/law/12#12C1(b)"),  # the rubber code has no Law 12 in the corpus
    ("35.1", None, "/2007/law/35#35.1"),  # 2007 only: 2017 letters Law 35's items
    ("64", None, "/2017/law/64"),
    ("12 zz", None, "/search?q=12 zz"),
    ("revoke", None, "/search?q=revoke"),
    ("98", None, "/search?q=98"),
])
def test_go(client, query, edition, location):
    url = "/go?" + "&".join(f"{k}={v}" for k, v in (("q", query), ("edition", edition)) if v)
    r = get(client, url, 302)
    loc = unquote(r.headers["Location"]).replace("+", " ")
    assert loc.replace("%20", " ") == location.replace("+", " ")


def test_go_falls_back_to_the_longest_existing_ancestor(client, db):
    r = get(client, "/go?q=12C1(z)", 302)
    assert unquote(r.headers["Location"]) == "/2017/law/12#12C1"


def test_go_without_a_query_goes_home(client):
    r = get(client, "/go", 302)
    assert urlsplit(r.headers["Location"]).path == "/"


def test_law_address_with_a_provision_redirects_to_it(client):
    r = get(client, "/2007/law/12C1b", 302)
    assert "/go?" in r.headers["Location"]


# --- errors: friendly, with the jump box, never a traceback ------------------------------

@pytest.mark.parametrize("url, words", [
    ("/1997/", "no edition"),
    ("/1997/law/12", "no edition"),
    ("/1993-rubber/law/12", "no Law 12"),
    ("/2017/law/94", "no Law 94"),
    ("/2007/law/94", "no Law 94"),
    ("/2007/law/0", "not a law number"),
    ("/2007/law/abc", "not a law number"),
    ("/2007/law/12345", "not a law number"),
    ("/1993-rubber/definitions", "no definitions"),
    ("/guide/topic:no-such-topic", "no guide topic"),
    ("/no/such/address/at/all", "nothing at"),
    ("/static/nothing.css", "nothing at"),
])
def test_not_found_pages(client, url, words):
    r = get(client, url, 404)
    html = text(r)
    assert r.mimetype == "text/html"
    assert words.lower() in html.lower()
    assert 'action="/go"' in html and "Traceback" not in html


def test_method_not_allowed_is_friendly(client):
    r = client.post("/2007/law/12")
    assert r.status_code == 405 and "Traceback" not in text(r) and 'action="/go"' in text(r)


def test_unexpected_error_is_a_friendly_500(built):
    from app import create_app

    app = create_app({"DATA_DIR": str(built)})

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    r = app.test_client().get("/boom")
    assert r.status_code == 500
    assert "secret detail" not in text(r) and "Traceback" not in text(r)
    assert 'action="/go"' in text(r)


def test_missing_store_is_a_friendly_503(tmp_path):
    from app import create_app

    r = create_app({"DATA_DIR": str(tmp_path)}).test_client().get("/2007/law/12")
    assert r.status_code == 503 and "flask --app app build" in text(r)


# --- headers, assets, compression ----------------------------------------------------------

def test_security_headers(client):
    r = get(client, "/2007/law/12")
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"]


def test_assets_have_hashed_names_and_long_caching(client):
    html = text(get(client, "/"))
    css = re.search(r'href="(/static/site\.[0-9a-f]{10}\.css)"', html)[1]
    js = re.search(r'src="(/static/app\.[0-9a-f]{10}\.js)"', html)[1]
    for url in (css, js):
        r = get(client, url)
        assert "immutable" in r.headers["Cache-Control"] and "max-age=31536000" in r.headers["Cache-Control"]
    assert get(client, css).mimetype == "text/css"
    stale = get(client, "/static/site.0000000000.css")
    assert "immutable" not in stale.headers["Cache-Control"]


def test_responses_are_compressed(client):
    r = client.get("/2007/law/12", headers={"Accept-Encoding": "gzip"})
    assert r.headers["Content-Encoding"] == "gzip"
    assert b"Law 12" in gzip.decompress(r.data)
    r = client.get("/2007/law/12", headers={"Accept-Encoding": "br, gzip"})
    assert r.headers["Content-Encoding"] == "br"


# --- installable and offline -----------------------------------------------------------------

def test_web_app_manifest(client):
    r = get(client, "/manifest.webmanifest")
    m = json.loads(r.data)
    assert m["start_url"] == "/" and m["display"] == "standalone"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in m["icons"]:
        assert get(client, icon["src"]).status_code == 200


def test_service_worker_names_the_store_and_assets(client):
    r = get(client, "/sw.js")
    assert r.mimetype == "text/javascript"
    body = text(r)
    assert "/offline/pages.json" in body and re.search(r"/static/cite\.[0-9a-f]{10}\.js", body)
    assert r.headers["Cache-Control"] == "no-cache"


def test_offline_pages_cover_every_law_contents_definitions_and_topic(client, db, all_pages):
    for e in queries.editions(db):
        if e["kind"] == "code":
            assert f"/{e['id']}/" in all_pages
            for n in e["laws"]:
                assert f"/{e['id']}/law/{n}" in all_pages
    assert "/2007/definitions" in all_pages
    for t in queries.guide(db):
        assert f"/guide/{t['id']}" in all_pages
    assert "/offline" in all_pages and "/offline/search" in all_pages


def test_offline_index_has_every_provision(client, db):
    index = get(client, "/offline/index.json").get_json()
    by_id = {e["id"]: e for e in index["editions"]}
    assert list(by_id)[:1] == ["2017"]  # newest first, as the jump box tries them
    for e, n, pid in db.execute("select edition, law, id from provisions p where edition in "
                                "(select id from editions where kind = 'code')"):
        assert pid in by_id[e]["laws"][str(n)]


def test_offline_pages_say_so(client):
    page = text(get(client, "/offline/search"))  # searches the payload this device keeps (static/search.js)
    assert "You are offline: this device searches the laws it keeps." in page
    assert re.search(r"/static/search\.[0-9a-f]{10}\.js", page)
    assert "offline" in text(get(client, "/offline")).lower()


def test_resolve_matches_go(app):
    with app.test_request_context():
        assert pages_mod.resolve("27B1") == "/2017/law/27#27B1"
        assert pages_mod.resolve("not a law") is None


def test_law_text_is_escaped_around_its_links():
    """Law text is text: the characters HTML gives meaning to are escaped
    before, between and after the links made in it (today's corpus has
    apostrophes there, and a new code may bring '<' or '&')."""
    from laws.web.render import text_html

    text = "Tom's <b>bid</b> & see Law 12 then <i>\"pass\"</i> & more"
    start = text.index("Law 12")
    ref = {"start": start, "end": start + len("Law 12"), "resolved": True, "to": "12", "to_law": 12}
    assert [str(p) for p in text_html(text, [ref], edition="2017", law_number=40)] == [
        "Tom&#39;s &lt;b&gt;bid&lt;/b&gt; &amp; see "
        '<a class="xref" href="/2017/law/12" title="Law 12">Law 12</a>'
        " then &lt;i&gt;&#34;pass&#34;&lt;/i&gt; &amp; more"]
