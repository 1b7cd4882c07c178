"""Pre-rendered pages kept across builds (issue 24): a rebuild renders every
page again, and a page rendered the same as in the build served keeps that
build's file (laws/web/prerender.py `_render_some`, laws/web/pagefiles.py
`same_page`) instead of being compressed again.  With one source changed,
the page files are byte for byte a clean build's, the unchanged pages are
kept (the same file, linked) and the build says how many were made and kept."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, copy_build, shared_build

RUBBER = "002_bcfdd5b6af47b342.txt"  # the 1993 rubber code: its pages change, the others' do not


def _build(corpus: Path, data: Path, **kw) -> tuple[Path, list[str]]:
    from app import build_all, create_app

    lines: list[str] = []
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})
    return build_all(app, corpus, data, echo=lines.append, **kw).path, lines


def _files(build: Path) -> dict[str, bytes]:
    """Every file the pages step wrote, by its path in the build's pages folder."""
    pages = build / "pages"
    return {p.relative_to(pages).as_posix(): p.read_bytes() for p in sorted(pages.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """The session's build with pages, copied; the rubber code's text changed
    in a copy of the corpus; built over the copy, and built clean."""
    tmp = tmp_path_factory.mktemp("reuse")
    data = copy_build(shared_build(tmp_path_factory, pages=True), tmp / "data")
    served = (data / "current").resolve()
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    path = corpus / RUBBER
    text = path.read_text(encoding="utf-8")
    assert text.count("rights of the opponents") == 1
    path.write_text(text.replace("rights of the opponents", "rights of the adversaries"), encoding="utf-8")
    again, lines = _build(corpus, data)
    clean, clean_lines = _build(corpus, tmp / "clean")
    return served, again, lines, clean, clean_lines


def test_a_rebuild_with_one_source_changed_gives_a_clean_builds_page_files(rebuilt):
    """Every page file and the index of them byte for byte; the key and the
    offline lists name their build, and are the same but for that name."""
    _served, again, _lines, clean, _clean_lines = rebuilt
    ours, theirs = _files(again), _files(clean)
    assert sorted(ours) == sorted(theirs)
    assert len([name for name in ours if name.startswith("p/")]) > 400
    named = ["key.json", "offline/editions/1993-rubber.json", "offline/editions/2007.json",
             "offline/editions/2017.json", "offline/pages.json"]
    assert [name for name in ours if ours[name] != theirs[name]] == named
    assert [ours[n].replace(again.name.encode(), b"BUILD") for n in named] == [
        theirs[n].replace(clean.name.encode(), b"BUILD") for n in named]


def test_the_unchanged_pages_are_the_served_builds_files_and_the_build_says_so(rebuilt):
    served, again, lines, clean, clean_lines = rebuilt
    index = {a: v["file"] for a, v in json.loads((again / "pages" / "index.json").read_text()).items()}
    kept = {a for a, name in index.items()
            if (again / "pages" / "p" / name).stat().st_ino == (served / "pages" / "p" / name).stat().st_ino}
    made = set(index) - kept
    # a page made again is one whose file changed: none was made for nothing
    assert [a for a in made if (again / "pages" / "p" / index[a]).read_bytes()
            == (served / "pages" / "p" / index[a]).read_bytes()] == []
    # the rubber code's law with the words changed and the page listing the
    # sources (their hashes) are made; every other page is kept
    assert made == {"/1993-rubber/law/60", "/sources"}
    assert "/1993-rubber/law/64" in kept and "/compare/40?from=2007&to=2017" in kept
    assert [line for line in lines if line.startswith("pages: ")] == [
        f"pages: {len(made)} made, {len(kept)} kept from build {served.name}"]
    # a clean build has no build served to keep from
    assert [line for line in clean_lines if line.startswith("pages: ")] == [
        f"pages: {len(index)} made, 0 kept (no build served with pages of this code)"]


def test_a_file_is_kept_only_when_every_form_reads_back_to_the_page(tmp_path):
    """`same_page` reads the previous file's forms back: a damaged or
    truncated form, another hash or other bytes, and the page is made again."""
    from laws.web import pagefiles
    from laws.web.pagecache import ENCODINGS, encode

    raw = ("<p>" + "the Director is summoned " * 40 + "</p>").encode()
    pagefiles.write_page(tmp_path, "/2017/law/12", "abc", {"identity": raw, **{e: encode(raw, e) for e in ENCODINGS}})
    path = pagefiles.page_path(tmp_path, "/2017/law/12")
    whole = path.read_bytes()
    assert pagefiles.same_page(tmp_path, "/2017/law/12", "abc", raw)
    assert not pagefiles.same_page(tmp_path, "/2017/law/12", "abd", raw)
    assert not pagefiles.same_page(tmp_path, "/2017/law/12", "abc", raw.replace(b"summoned", b"summonsed"))
    assert not pagefiles.same_page(tmp_path, "/2017/law/13", "abc", raw)  # no file
    head = len(whole.split(b"\n", 1)[0]) + 1
    for damaged in (whole[:head] + b"\0" * 8 + whole[head + 8:], whole[:-10]):  # brotli form, gzip form cut short
        path.write_bytes(damaged)
        assert not pagefiles.same_page(tmp_path, "/2017/law/12", "abc", raw)
