"""The code in force (2017, `in_force` in the manifest) comes first: home,
/api/editions, the jump box, search and the guide's law links go to it, and
the law pages of the older code point to the same law and provision in it."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from laws import manifest
from laws.model import SourceError

from test_browser import PHONE, browser, base_url, page  # noqa: F401  (browser fixtures)

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_manifest_marks_2017_in_force():
    m = manifest.load(CORPUS)
    assert [e.id for e in m.editions if e.in_force] == ["2017"]


@pytest.mark.parametrize("edit, message", [
    ('in_force = true\n', "editions 2007 and 2017 are both marked in_force"),
    ('in_force = "yes"\n', "in_force must be true or false"),
])
def test_manifest_rejects_a_second_or_odd_in_force(tmp_path, edit, message):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    path = corpus / "manifest.toml"
    text = path.read_text(encoding="utf-8")
    if edit.startswith("in_force = true"):
        text = text.replace('id = "2007"\n', 'id = "2007"\n' + edit, 1)
    else:
        text = text.replace("in_force = true\n", edit, 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        manifest.load(corpus)


def test_api_editions_list_the_code_in_force_first(client):
    eds = client.get("/api/editions").get_json()
    assert [e["id"] for e in eds][:2] == ["2017", "2007"]
    assert eds[0]["laws"] == list(range(1, 94))


def test_home_shows_2017_first_marked_in_force(client):
    html = client.get("/").get_data(as_text=True)
    titles = re.findall(r"<h3><a href=\"/([^/]+)/\">", html)
    assert titles[:2] == ["2017", "2007"]
    assert '<span class="badge">in force</span>' in html
    assert 'href="/2017/definitions"' in html


@pytest.mark.parametrize("query, target", [
    ("27", "/2017/law/27"),
    ("27B1", "/2017/law/27#27B1"),
    ("23A", "/2017/law/23#23A"),
    ("12C1(e)", "/2017/law/12#12C1(e)"),
])
def test_jump_box_goes_to_2017(client, query, target):
    r = client.get("/go", query_string={"q": query})
    assert r.status_code == 302
    assert r.headers["Location"] == target


@pytest.mark.parametrize("query, target", [
    ("2007 45C4", "/2007/law/45#45C4"),
    ("2007:12C1b", "/2007/law/12#12C1(b)"),
    ("1993-Rubber law 64", "/1993-rubber/law/64"),
    ("2017 27", "/2017/law/27"),
    ("1993-rubber 12", "/search?q=1993-rubber+12"),  # the rubber code has no Law 12
    ("2007 revoke", "/search?q=2007+revoke"),
])
def test_jump_box_takes_the_edition_named_first(client, query, target):
    """Issue 25: when two codes have the provision, the reader names the one
    meant ('2027 45F' while 2017 also has a 45F)."""
    r = client.get("/go", query_string={"q": query})
    assert (r.status_code, r.headers["Location"]) == (302, target)


def test_guide_law_chips_go_to_2017(client):
    html = client.get("/guide/topic:insufficient-bid").get_data(as_text=True)
    assert 'href="/2017/law/27"' in html
    assert 'href="/2007/law/27"' not in html


def test_search_puts_the_2017_provision_first(client):
    body = client.get("/api/search", query_string={"q": "insufficient bid", "limit": 5}).get_json()
    assert body["results"][0]["edition"] == "2017"


def test_older_law_page_points_to_the_code_in_force(client):
    html = client.get("/2007/law/27").get_data(as_text=True)
    banner = html[html.index('id="in-force"'):html.index("</aside>", html.index('id="in-force"'))]
    assert "Not the code in force." in banner
    assert 'href="/2017/law/27"' in banner
    assert "changed (" in banner and 'href="/compare/27?from=2007&amp;to=2017"' in banner
    # each provision carries its counterpart in 2017 for the banner to follow
    assert re.search(r'id="27B1"[^>]* data-in-force="/2017/law/27#27B', html)


def test_law_page_of_the_code_in_force_has_no_banner(client):
    assert 'id="in-force"' not in client.get("/2017/law/27").get_data(as_text=True)
    # the rubber code is another family: nothing supersedes it here
    assert 'id="in-force"' not in client.get("/1993-rubber/law/64").get_data(as_text=True)


def test_same_law_says_same_text(client, db):
    same = [r["law"] for r in db.execute("select law from law_comparisons where from_edition = '2007' "
                                         "and to_edition = '2017' and status = 'same'")]
    assert same, "some laws are unchanged between 2007 and 2017"
    html = client.get(f"/2007/law/{same[0]}").get_data(as_text=True)
    assert "there: the same text." in re.sub(r"\s+", " ", html)


def test_comparison_2007_2017_covers_every_law(client, db):
    laws = [r[0] for r in db.execute("select law from law_comparisons where from_edition = '2007' "
                                     "and to_edition = '2017' order by law")]
    assert laws == list(range(1, 94))
    html = client.get("/compare?from=2007&to=2017").get_data(as_text=True)
    # each change once: a move across laws is stored under both laws, counted under the one it left
    statuses = [r[0] for r in db.execute("select status from alignments where from_edition = '2007' and "
                                         "to_edition = '2017' and law = coalesce(from_law, to_law)")]
    totals = {s: statuses.count(s) for s in ("same", "changed", "moved", "split", "merged", "added", "removed")}
    text = re.sub(r"<[^>]+>|\s+", " ", html)
    assert (f"Provisions: {totals['same']} unchanged , {totals['changed']} changed , {totals['moved']} moved , "
            f"{totals['split']} split , {totals['merged']} merged , "
            f"{totals['added']} added , {totals['removed']} removed") in re.sub(r" +", " ", text)


def test_2017_provisions_show_their_2007_history(client):
    html = client.get("/2017/law/23").get_data(as_text=True)
    assert "2007" in html[html.index('id="23A"'):]


@pytest.mark.parametrize("checker, payload", [
    ("board", {"board": 7}),
    ("score", {"level": 4, "strain": "S", "risk": "X", "vulnerable": True, "tricks": 11}),
    ("imps", {"difference": 430}),
    ("matchpoints", {"scores": [420, 420, 450, -50]}),
])
def test_checkers_of_unchanged_laws_answer_in_2017(client, checker, payload):
    body = client.post(f"/api/checkers/{checker}", json=payload).get_json()
    assert body["edition"] == "2017"


def test_artificial_score_at_imps_cites_no_2017_86a(client):
    body = client.post("/api/checkers/artificial-score", json={"fault": "none", "scoring": "imps"}).get_json()
    assert (body["edition"], body["cites"]) == ("2017", ["12C2(a)", "12C2(b)"])


def test_checkers_declare_their_editions(client):
    by_id = {c["id"]: c["editions"] for c in client.get("/api/checkers").get_json()}
    assert by_id["board"][0] == "2017"
    assert by_id["score"][0] == "2017"


@pytest.mark.browser
def test_banner_follows_the_provision_landed_on(page, base_url):  # noqa: F811
    page.goto(f"{base_url}/2007/law/27#27B1")
    link = page.locator("#in-force a.go-in-force")
    href = link.get_attribute("href")
    assert href.startswith("/2017/law/27#27B")
    assert link.inner_text().startswith("Law 27B")
    page.goto(f"{base_url}/2007/law/27")
    assert page.locator("#in-force a.go-in-force").get_attribute("href") == "/2017/law/27"
