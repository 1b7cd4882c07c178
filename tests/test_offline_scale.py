"""Offline that scales (issue 14), and pages from the per-build cache.

* The offline lists: every device keeps the code in force, the guide and
  the rulings; every other edition has its own list, kept only when the
  reader asks.  Each address carries the content hash of its page (the
  page's ETag), so a rebuild that changed one law changes one hash: proved
  on the real corpus, built a second time with one word of 2017 Law 76A1
  changed.
* Pages: an ETag on every page, 304 when it matches, the same bytes as
  rendering anew, and a law page whose history names its family's
  neighbours only.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from laws import queries
from laws.build import build

from conftest import CORPUS

CHANGED = ("Spectators in the playing area24 are subject to the control of the Director",
           "Spectators in the playing area24 are subject to the authority of the Director")


def manifests(client) -> dict[str, str]:
    """Every address a device can keep, with its hash: the kept list and every edition's."""
    top = client.get("/offline/pages.json").get_json()
    out = dict(top["pages"])
    for e in top["editions"]:
        r = client.get(e["manifest"])
        assert r.status_code == 200, e
        out.update(r.get_json()["pages"])
    return out


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """The real corpus built again with one word of 2017 Law 76A1 changed."""
    tmp = tmp_path_factory.mktemp("one-law")
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    path = corpus / "acbl-2017-laws.txt"
    text = path.read_bytes().decode("latin-1")
    assert text.count(CHANGED[0]) == 1
    path.write_bytes(text.replace(*CHANGED).encode("latin-1"))
    build(corpus, tmp / "data", echo=lambda *_: None)
    from app import create_app
    return create_app({"TESTING": True, "DATA_DIR": str(tmp / "data"), "CORPUS_DIR": str(corpus)})


def test_every_device_keeps_the_code_in_force_not_every_edition(client, db):
    top = client.get("/offline/pages.json").get_json()
    kept = set(top["pages"])
    in_force = [e for e in top["editions"] if e["in_force"]]
    assert [e["id"] for e in in_force] == ["2017"]
    assert {f"/2017/law/{n}" for n in range(1, 94)} <= kept
    assert {"/", "/2017/", "/2017/definitions", "/guide", "/rulings/auction", "/offline"} <= kept
    assert not [u for u in kept if u.startswith(("/2007/", "/1993-rubber/"))]
    codes = [e for e in queries.editions(db) if e["kind"] == "code"]
    assert [e["id"] for e in top["editions"]] == [e["id"] for e in codes]
    for e in top["editions"]:
        listed = client.get(e["manifest"]).get_json()["pages"]
        assert e["pages"] == len(listed)
        assert set(listed) == {f"/{e['id']}/"} | ({f"/{e['id']}/definitions"} if e["id"] != "1993-rubber" else set()) \
            | {f"/{e['id']}/law/{n}" for n in next(c for c in codes if c["id"] == e["id"])["laws"]}


def test_a_listed_hash_is_the_pages_etag(client):
    listed = client.get("/offline/editions/2007.json").get_json()["pages"]
    for url in ["/2007/", "/2007/law/12", "/2007/definitions"]:
        r = client.get(url)
        assert r.headers["ETag"] == f'W/"{listed[url]}"', url


def test_unknown_edition_has_no_list(client):
    for edition in ("1999", "dbrs-2017"):  # (dbrs-2017: the guide is not a code)
        r = client.get(f"/offline/editions/{edition}.json")
        lead = re.search(r'<p class="lead">(.*?)</p>', r.get_data(as_text=True)).group(1)
        assert (r.status_code, lead) == (404, f"There is no code edition &#39;{edition}&#39; to keep offline.")


def test_a_rebuild_with_one_law_changed_changes_only_that_laws_hash(client, rebuilt):
    before = manifests(client)
    after = manifests(rebuilt.test_client())
    assert set(before) == set(after)
    changed = sorted(u for u in before if before[u] != after[u])
    # the law, its comparison with the code before it (kept too: issue 20), and
    # the sources page, which prints each source file's checksum.  Law 76 is the
    # same in 2007 and 2017 (once footnote marks are not read as changes), so
    # the changed word also makes it a changed law: the 2007 page's history of
    # 76A1, the comparison index and the change matrix say so.  No other law's
    # page changes, though successive codes are aligned whole.
    assert changed == ["/2007/law/76", "/2017/law/76", "/compare", "/compare/76?from=2007&to=2017",
                       "/compare?from=2007&to=2017", "/sources"]
    page = rebuilt.test_client().get("/2017/law/76").get_data(as_text=True)
    assert "subject to the authority of the Director" in page


# --- the page cache --------------------------------------------------------------------

def test_pages_carry_an_etag_and_answer_304(client):
    first = client.get("/2017/law/40", headers={"Accept-Encoding": "br"})
    tag = first.headers["ETag"]
    assert first.headers["Content-Encoding"] == "br" and "Accept-Encoding" in first.headers["Vary"]
    again = client.get("/2017/law/40", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag
    assert again.headers["Content-Security-Policy"]  # the security headers on a 304 too
    other = client.get("/2017/law/41", headers={"If-None-Match": tag})
    assert other.status_code == 200


def test_a_kept_page_is_the_page_rendered_anew(app, built):
    from app import create_app

    uncached = create_app({"TESTING": True, "DATA_DIR": str(built), "PAGE_CACHE_MB": 0}).test_client()
    client = app.test_client()
    for url in ["/2007/law/12", "/2017/", "/guide", "/"]:
        client.get(url)  # the first request renders and keeps it
        kept = client.get(url)
        assert kept.get_data(as_text=True) == uncached.get(url).get_data(as_text=True), url
        assert "\ue000" not in kept.get_data(as_text=True)  # the build date is put in


def test_query_strings_do_not_make_copies(app):
    client = app.test_client()
    client.get("/2007/law/12")
    cache = app.extensions["lawbook_pages"]
    n = len(cache.entries)
    for i in range(20):
        assert client.get(f"/2007/law/12?x={i}").status_code == 200
    assert len(cache.entries) == n


def test_the_cache_is_bounded(built):
    from app import create_app

    small = create_app({"TESTING": True, "DATA_DIR": str(built), "PAGE_CACHE_MB": 0.2})
    client = small.test_client()
    for n in range(1, 40):
        assert client.get(f"/2017/law/{n}", headers={"Accept-Encoding": "gzip"}).status_code == 200
    cache = small.extensions["lawbook_pages"]
    assert 0 < cache.bytes <= 0.2 * 1024 * 1024
    assert cache.bytes == sum(e.size() for e in cache.entries.values())
    assert len(cache.entries) < 39


def test_a_law_page_names_its_neighbours_whatever_the_number_of_editions(app, monkeypatch):
    """Thirty codes of one family: a page names the one before, the one
    after, the code in force and the nearest code of another family; the
    rest are one link away."""
    from laws.web import pages

    codes = [{"id": str(y), "year": y, "family": "duplicate", "kind": "code", "laws": [12], "in_force": y == 2017,
              "title": f"Laws {y}"} for y in range(1990, 2020)]
    rubber = [{"id": f"{y}-rubber", "year": y, "family": "rubber", "kind": "code", "laws": [12], "title": f"Rubber {y}"}
              for y in (1981, 1993, 2014)]
    monkeypatch.setattr(pages, "_editions", lambda: codes + rubber)
    with app.test_request_context():
        law = pages.LawPage(codes[10], {"number": 12}, None)  # 2000
        assert [e["id"] for e in law._neighbours()] == ["1999", "2001"]
        assert sorted(law._shown_editions()) == ["1993-rubber", "1999", "2001", "2017"]  # 1993 is nearer 2000 than 2014
        last = pages.LawPage(codes[-1], {"number": 12}, None)
        assert [e and e["id"] for e in last._neighbours()] == ["2018", None]


def test_history_names_the_family_neighbours_only(client):
    page = client.get("/2017/law/40").get_data(as_text=True)
    assert 'href="/2007/law/40' in page  # its predecessor
    # the rubber code is another family: named apart, as the nearest code of it
    rubber = client.get("/1993-rubber/law/64").get_data(as_text=True)
    assert "in the duplicate code" in rubber


# --- in the browser: keep an edition, read it with no connection --------------------------------

from test_browser import (  # noqa: E402,F401 (shared browser helpers)
    ARGS, CHROMIUM, PHONE, browser, cut_off, serve, wait_kept_offline, wait_until)


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_keep_an_edition_offline(browser, app):
    """A first visit keeps the code in force only; "Keep the 2007 Laws
    offline" keeps every 2007 law; with the server gone and no network the
    kept laws read, and an edition neither kept nor opened says it is offline."""
    with serve(app) as (url, server):
        ctx = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        pg.goto(f"{url}/2017/law/1")
        wait_kept_offline(pg)
        held = pg.evaluate("""() => caches.open('lawbook-pages').then(c => c.keys())
            .then(ks => ks.map(r => new URL(r.url).pathname))""")
        assert "/2017/law/93" in held and "/guide" in held
        assert not [u for u in held if u.startswith(("/2007/", "/1993-rubber/"))], held[:10]

        pg.goto(f"{url}/2007/")
        button = pg.locator("#keep-offline button")
        assert button.inner_text() == "Keep the 2007 Laws offline"
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        assert pg.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        button.tap()
        wait_until(pg, "() => document.getElementById('keep-offline').dataset.kept === 'yes'", timeout=120)
        assert "Kept on this device: 95 of 95 pages" in pg.inner_text("#keep-offline")
        pg.reload()
        wait_until(pg, "() => document.getElementById('keep-offline').dataset.kept === 'yes'")
        assert pg.locator("#keep-offline button").inner_text() == "Remove from this device"

        cut_off(server, ctx)
        pg.goto(f"{url}/2007/law/93")
        assert "Law 93" in pg.inner_text("h1")
        pg.goto(f"{url}/2007/definitions")
        assert pg.locator("dt").count() > 10
        pg.goto(f"{url}/2017/law/40")
        assert "Law 40" in pg.inner_text("h1")
        pg.goto(f"{url}/1993-rubber/law/64")  # neither kept nor opened
        assert "offline" in pg.inner_text("h1").lower()
        ctx.close()
