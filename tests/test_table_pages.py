"""The pages of issue 13 without a browser: quiet definition links, history
within a code family, the rubber 64(b) alignment, guide chapters, the law
page's outline and citations, the offline search payload, and the search
page's answers to questions that are not searches."""
from __future__ import annotations

import re

from tests.test_pages import get, text


def section(html: str, pid: str) -> str:
    m = re.search(rf'<section class="prov[^"]*" id="{re.escape(pid)}"[^>]*>(.*?)</section>', html, re.S)
    assert m, pid
    return m[1]


def term_links(html: str) -> list[str]:
    return re.findall(r'<a class="term"[^>]*>([^<]+)</a>', html)


def test_deviations_lead_to_does_not_link_lead(client):
    c1 = section(text(get(client, "/2017/law/40")), "40C1")
    assert "deviations lead to" in c1.lower().replace("\n", " ")
    assert "lead" not in [t.lower() for t in term_links(c1)]


def test_everyday_words_are_not_linked_but_terms_of_art_are(client):
    html = text(get(client, "/2017/law/86"))
    linked = {t.lower() for t in term_links(html)}
    assert not linked & {"team", "play", "board", "side", "partner", "lead"}
    law16 = {t.lower() for t in term_links(text(get(client, "/2017/law/16")))}
    assert "extraneous" in law16  # a term of art keeps its link


def test_each_term_links_once_per_provision(client):
    html = text(get(client, "/2017/law/12"))
    for m in re.finditer(r'<section class="prov[^"]*" id="([^"]+)"[^>]*>(.*?)</section>', html, re.S):
        links = [t.lower() for t in term_links(m[2])]
        assert len(links) == len(set(links)), (m[1], links)


def test_history_is_within_the_family_and_the_rubber_code_apart(client):
    html = text(get(client, "/2007/law/64"))
    own = re.findall(r'<p class="history"><small>(.*?)</small>', html, re.S)
    apart = re.findall(r'<p class="history apart"><small>(.*?)</small>', html, re.S)
    assert own and not any("1993-rubber" in h for h in own)
    assert apart and all("in the rubber-bridge code" in h for h in apart)


def test_rubber_64b_is_aligned_to_2007_64A2(client):
    b = section(text(get(client, "/1993-rubber/law/64")), "64(b)")
    assert re.search(r'<a href="/2007/law/64#64A2">64A2</a>', b), b
    assert "not there" not in b


def test_a_guide_group_heading_lists_its_sub_topics(client, db):
    groups = db.execute("select t.id from topics t where trim(coalesce(t.text, '')) = '' "
                        "and exists (select 1 from topics c where c.parent = t.id)").fetchall()
    assert len(groups) >= 10
    for (tid,) in groups:
        html = text(get(client, f"/guide/{tid}"))
        subs = db.execute("select title from topics where parent = ?", [tid]).fetchall()
        assert 'class="subtopics"' in html, tid
        assert html.count('<li><a href="/guide/topic:') >= len(subs), tid
        assert 'class="prevnext top"' in html


def test_law_page_outline_navigation_and_citations(client):
    html = text(get(client, "/2017/law/27"))
    outline = re.search(r'<nav class="outline".*?</nav>', html, re.S)[0]
    assert re.findall(r'<span class="o-label">([^<]+)</span>', outline) == ["A.", "B.", "C.", "D."]
    assert 'class="prevnext top"' in html and 'class="to-top"' in html
    assert 'data-cite="Law 27 (2017 Laws of Duplicate Bridge)"' in html
    assert 'data-cite="Law 27B1 (2017 Laws of Duplicate Bridge)"' in html
    assert '<section class="prov d2" id="27B1" data-parents="27B"' in html
    rubber = text(get(client, "/1993-rubber/law/64"))
    assert 'data-cite="Law 64(b) (1993 Laws of Contract Bridge (rubber bridge), ACBL edition)"' in rubber


def test_offline_search_payload(client, db):
    r = get(client, "/offline/search.json")
    assert r.content_type == "application/json"
    p = r.get_json()
    assert set(p) >= {"columns", "docs", "terms", "synonyms", "ranking", "editions"}
    # the documents a search with no edition asked searches: today, every edition's
    eds = [e["id"] for e in p["editions"]]
    assert sorted(eds) == sorted(r[0] for r in db.execute("select id from editions"))
    provisions = db.execute(f"select count(*) from provisions where edition in ({','.join('?' * len(eds))})",
                            eds).fetchone()[0]
    assert sum(1 for d in p["docs"] if d[0] == "law") == provisions
    entries = [d for d in p["docs"] if d[0] == "entry"]
    assert entries and all(d[-1] for d in entries)  # every index entry cites documents
    assert p["terms"]["hesitated"] == p["terms"]["hesitation"] == "hesit"
    assert p["terms"]["the"] is None and p["terms"]["unauthorised"] == p["terms"]["unauthorized"]


def test_search_page_answers_questions_that_are_not_searches(client):
    html = text(get(client, "/search?q=law+99"))
    assert "There is no Law 99; the Laws run 1–93." in html
    html = text(get(client, "/search?q=what+changed+in+Law+40"))
    first = re.search(r'<li class="result[^"]*">\s*<h2><a href="([^"]+)">([^<]+)</a>', html)
    assert first[1].replace("&amp;", "&") == "/compare/40?from=2007&to=2017" and first[2] == "What changed in Law 40"
