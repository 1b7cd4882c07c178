"""Pages pre-rendered by the build and served as files (issue 24, "Pages"):
every page that depends only on the build is the page the app renders, with
the same headers, for every kind of page and every encoding; the offline
lists are the build's files; pages made by other code are rendered instead
(and said once); a page that fails to render fails the build, and the store
served stays.

The build here is the build command's own (`app.build_all`, which
`flask --app app build` runs): the session's one build of the corpus with its
pages (conftest.shared_build), which the front server's tests serve too."""
from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, shared_build

BROWSERS = ["br, gzip", "gzip", ""]  # what a browser, an old client and curl accept
KINDS = {  # one page of each kind, as the site links to it
    "home": "/", "contents": "/2017/", "law": "/2017/law/12", "definitions": "/2007/definitions",
    "official index": "/2017/index", "guide": "/guide", "guide topic": "/guide/topic:notes",
    "comparison of a law": "/compare/40?from=2007&to=2017", "comparison overview": "/compare?from=2007&to=2017",
    "comparisons": "/compare", "sources": "/sources", "offline": "/offline",
}


def _app(data: Path, **config):
    from app import create_app

    return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(CORPUS), **config})


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(data dir, an app serving the pages from their files with the page
    cache off, one rendering every page, one with the cache on).  The build
    is made once in the session, by an app made as `_app` makes them."""
    data = shared_build(tmp_path_factory, pages=True)
    files = _app(data, PAGE_CACHE_MB=0)
    rendered = _app(data, PAGE_CACHE_MB=0, PAGE_FILES=False)
    kept = _app(data, PAGE_CACHE_MB=24)
    return data, files, rendered, kept


def _index(data: Path) -> dict:
    return json.loads((data / "current" / "pages" / "index.json").read_text())


def _answer(client, url: str, accept: str, **headers):
    r = client.get(url, headers={"Accept-Encoding": accept, **headers})
    return r.status_code, sorted(r.headers.items()), r.get_data()


def test_every_kind_of_page_is_pre_rendered(site):
    data, *_ = site
    index = _index(data)
    assert {kind: url in index for kind, url in KINDS.items()} == {kind: True for kind in KINDS}
    eds = {e["id"]: e for e in json.loads(_app(data).test_client().get("/api/editions").data)}
    laws = [f"/{e}/law/{n}" for e in ("2007", "2017", "1993-rubber") for n in eds[e]["laws"]]
    assert [u for u in laws if u not in index] == []
    shared = sorted(set(eds["2007"]["laws"]) & set(eds["2017"]["laws"]))
    assert [n for n in shared if f"/compare/{n}?from=2007&to=2017" not in index] == []
    files = list((data / "current" / "pages" / "p").iterdir())
    assert sorted(f.name for f in files) == sorted(v["file"] for v in index.values())


def test_every_pre_rendered_page_is_the_rendered_page_with_the_same_headers(site, monkeypatch):
    """Body, status and every header, in every encoding: from the file, from
    memory and rendered.  Rendering happens with another date as today: no
    page depends on the day it is served."""
    data, files, rendered, kept = site
    monkeypatch.setenv("LAWS_TODAY", "2031-06-30")
    clients = [files.test_client(), rendered.test_client(), kept.test_client()]
    differ = []
    for url in _index(data):
        for accept in BROWSERS:
            answers = [_answer(c, url, accept) for c in clients]
            if answers[0][0] != 200 or answers.count(answers[0]) != len(answers):
                differ.append((url, accept))
    assert differ == []


def test_headers_per_kind_of_page_and_the_etag_is_the_offline_lists_hash(site):
    data, files, rendered, _ = site
    lists = files.test_client()
    hashes = lists.get("/offline/pages.json").get_json()["pages"]
    hashes |= lists.get("/offline/editions/2007.json").get_json()["pages"]
    for kind, url in KINDS.items():
        got = {}
        for name, app in (("file", files), ("rendered", rendered)):
            r = app.test_client().get(url, headers={"Accept-Encoding": "br, gzip"})
            got[name] = {k: v for k, v in r.headers.items() if k != "Content-Length"}
        assert got["file"] == got["rendered"], kind
        assert (kind, got["file"]["Content-Encoding"], got["file"]["Vary"], got["file"]["Cache-Control"]) == (
            kind, "br", "Accept-Encoding", "no-cache")
        assert got["file"]["Content-Security-Policy"].startswith("default-src 'self'")
        if url in hashes:
            assert got["file"]["ETag"] == f'W/"{hashes[url]}"', kind
        again = files.test_client().get(url, headers={"If-None-Match": got["file"]["ETag"]})
        assert (kind, again.status_code, again.get_data()) == (kind, 304, b"")
    assert {KINDS[k] in hashes for k in ("law", "contents", "official index", "comparison of a law", "guide topic",
                                         "definitions")} == {True}


def test_pages_come_from_their_files_without_rendering(site, monkeypatch):
    """With the page cache off nothing is rendered, and nothing of a page
    stays in the worker: its memory does not grow with the pages served."""
    from laws.web import compare, pages, site as site_module

    data, files, rendered, _ = site

    def refuse(*args, **kwargs):
        raise AssertionError("rendered")
    for module in (pages, compare):
        monkeypatch.setattr(module, "render_template", refuse)
    monkeypatch.setattr(site_module, "offline_manifest", refuse)
    monkeypatch.setattr(site_module, "edition_manifest", refuse)
    client = files.test_client()
    urls = list(_index(data)) + ["/offline/pages.json", "/offline/editions/2007.json"]
    assert [u for u in urls if client.get(u, headers={"Accept-Encoding": "br"}).status_code != 200] == []
    cache = files.extensions["lawbook_pages"]
    assert (list(cache.entries), cache.etags, cache.bytes) == ([], {}, 0)
    try:  # and rendering is what was refused: without the files the page is not answered
        status = rendered.test_client().get("/2017/law/12").status_code
    except AssertionError as exc:
        status = str(exc)
    assert status in (500, "rendered")


def test_the_offline_lists_are_the_builds_files(site):
    data, files, rendered, _ = site
    lists = data / "current" / "pages" / "offline"
    for url, name in (("/offline/pages.json", "pages.json"), ("/offline/editions/2007.json", "editions/2007.json"),
                      ("/offline/editions/1993-rubber.json", "editions/1993-rubber.json")):
        from_file, made = files.test_client().get(url), rendered.test_client().get(url)
        assert from_file.get_data() == made.get_data() == (lists / name).read_bytes(), url
        assert sorted(from_file.headers.items()) == sorted(made.headers.items()), url
    assert files.test_client().get("/offline/editions/dbrs-2017.json").status_code == 404


def test_pages_made_by_other_code_are_rendered_and_said_once(site, caplog):
    """A deploy of new code without a rebuild: the build's pages were made by
    the code before, so they are rendered instead, never sent stale."""
    data, _, rendered, _ = site
    other = _app(data, PAGE_CACHE_MB=0)
    other.extensions["lawbook_code_version"] = "0" * 10  # what another release's code hashes to
    client = other.test_client()
    with caplog.at_level(logging.INFO, logger=other.logger.name):
        answers = [_answer(client, u, "br") for u in ("/2017/law/12", "/2017/law/13", "/2017/law/12")]
    expected = [_answer(rendered.test_client(), u, "br") for u in ("/2017/law/12", "/2017/law/13", "/2017/law/12")]
    assert answers == expected
    said = [r.getMessage() for r in caplog.records if "pre-rendered pages" in r.getMessage()]
    build = os.readlink(data / "current").split("/")[-1]
    assert len(said) == 1 and said[0].startswith(f"build {build}: its pre-rendered pages were made by other code")
    assert "(this server: 0000000000)" in said[0]


def test_a_page_that_fails_to_render_fails_the_build_and_the_store_served_stays(site, tmp_path, monkeypatch):
    data, files, _, _ = site
    copy = tmp_path / "data"
    shutil.copytree(data, copy, symlinks=True)
    before = sorted(p.name for p in (copy / "builds").iterdir())
    served = os.readlink(copy / "current")
    from laws.web import pages

    real = pages.LawPage.build

    def broken(self):
        if self.law["number"] == 40:
            raise ValueError("a template bug")
        return real(self)
    monkeypatch.setattr(pages.LawPage, "build", broken)
    app = _app(copy)
    result = app.test_cli_runner().invoke(args=["build"])
    assert result.exit_code == 1
    line = result.output.strip().splitlines()[-1]
    assert line in ("Error: build failed, the previous store is unchanged: "
                    f"pre-rendering /{e}/law/40 failed: ValueError: a template bug" for e in ("2007", "2017", "1993-rubber"))
    assert (os.readlink(copy / "current"), sorted(p.name for p in (copy / "builds").iterdir())) == (served, before)
