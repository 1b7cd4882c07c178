"""A worker holds no file of a build between requests (the hardening issue):
the search index's postings are opened for each read and closed, and the
store is opened per request, so the builds a rebuild deletes free their
disk space at once instead of staying open, deleted, in every worker.  A
search that began on the old build still finishes with it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from laws.build import build

from conftest import CORPUS, copy_build

FDS = Path("/proc/self/fd")

pytestmark = pytest.mark.skipif(not FDS.is_dir(), reason="open files are listed by /proc/self/fd (Linux)")


def quiet(*_a):
    pass


def open_under(folder: Path) -> list[str]:
    """What this process holds open inside `folder` (a deleted file too: its
    link then reads '<path> (deleted)')."""
    prefix = os.path.realpath(folder) + os.sep
    out = []
    for fd in os.listdir(FDS):
        try:
            target = os.readlink(FDS / fd)
        except OSError:  # closed since it was listed (the listing's own descriptor)
            continue
        if target.startswith(prefix):
            out.append(target)
    return sorted(out)


def served_first(built: Path, data: Path) -> Path:
    """The folder of the build `data` serves: a copy of the session's build
    of the corpus (the rebuilds below are the builds under test)."""
    copy_build(built, data)
    return data / os.readlink(data / "current")


def test_no_file_of_a_build_stays_open_between_requests_or_after_rebuilds(built, tmp_path):
    from app import create_app

    data = tmp_path / "data"
    first = served_first(built, data)
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(CORPUS)})
    client = app.test_client()
    for url in ("/api/search?q=revoke", "/search?q=lead+out+of+turn", "/2017/law/12", "/api/laws/2007/12"):
        assert client.get(url).status_code == 200, url
    assert open_under(first) == []

    second = build(CORPUS, data, echo=quiet).path
    assert client.get("/api/search?q=penalty+card").get_json()["results"]
    third = build(CORPUS, data, echo=quiet).path  # the build keeps the one before: the first goes
    assert not first.exists() and second.exists()
    assert client.get("/api/search?q=claim").get_json()["results"]
    assert client.get("/2017/law/50").status_code == 200
    assert [open_under(b) for b in (first, second, third)] == [[], [], []]


def test_a_search_begun_on_the_old_build_finishes_with_it(built, tmp_path):
    from search.query import Searcher

    data = tmp_path / "data"
    first = served_first(built, data)
    old = Searcher.open(first / "index")
    before = [r["url"] for r in old.search("revoke")["results"]]
    second = build(CORPUS, data, echo=quiet).path
    assert second != first and first.exists()  # the build served before is kept for it
    assert [r["url"] for r in old.search("revoke")["results"]] == before
    assert old.search("unauthorised information")["results"]  # postings not yet read: read now
    assert open_under(first) == []
