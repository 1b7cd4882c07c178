"""A damaged corpus never goes live silently (hardening issue, item 4).

Each test damages a private copy of the corpus the way files really get
damaged (a file emptied, a NUL byte, junk appended, a law lost, part of a
source lost, a full disk), builds it over a store being served, and checks
that the build stops with one readable message naming the file and line (or
the source and both counts) and that the store served is still the one served.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from laws import build as build_mod
from laws import store
from laws.build import BuildError, build, current_store
from laws.model import SourceError

from conftest import CORPUS, copy_build

SLIDES = "000_f79d4105db5f19c6.txt"
GUIDE = "001_c10fccc6a02ee89d.txt"
RUBBER = "002_bcfdd5b6af47b342.txt"
CLUB = "003_9d8ca0f08b130dce.txt"
BLOG = "004_00dffde58a6aed35.txt"
ACBL = "acbl-2017-laws.txt"  # Latin-1, with a form feed between pages


def quiet(*_a):
    pass


@pytest.fixture(scope="module")
def served(built, tmp_path_factory):
    """The real corpus built (a copy of the session's build, this module's
    own, since the damaged builds run in it): the store every damaged build
    must leave served."""
    return copy_build(built, tmp_path_factory.mktemp("served") / "data")


@pytest.fixture()
def served_copy(served, tmp_path) -> Path:
    """A copy of the served data directory, for a build that is meant to switch it."""
    copy = tmp_path / "data"
    shutil.copytree(served, copy, symlinks=True)
    return copy


def _state(data: Path) -> tuple[str, list[str]]:
    return os.readlink(data / "current"), sorted(p.name for p in (data / "builds").iterdir())


def _fails(corpus: Path, data: Path, **kw) -> str:
    """The message of a build that must fail, having left `data` as it was."""
    before = _state(data)
    with pytest.raises((SourceError, BuildError)) as err:
        build(corpus, data, echo=quiet, **kw)
    assert _state(data) == before
    assert current_store(data).exists()
    return str(err.value)


def _cli(corpus: Path, data: Path, *args: str):
    from app import create_app

    app = create_app({"TESTING": True, "CORPUS_DIR": str(corpus), "DATA_DIR": str(data)})
    return app.test_cli_runner().invoke(args=["build", *args])


def _line_of(path: Path, needle: bytes) -> int:
    return next(i for i, l in enumerate(path.read_bytes().split(b"\n"), 1) if needle in l)


def _cut(path: Path, first: bytes, last: bytes, whole: bool = False) -> None:
    """Delete from the line holding `first` up to (not including) the line
    holding `last` (the lines that are `first` and `last`, when `whole`)."""
    lines = path.read_bytes().split(b"\n")
    holds = (lambda l, n: l.strip() == n) if whole else (lambda l, n: n in l)
    a = next(i for i, l in enumerate(lines) if holds(l, first))
    b = next(i for i, l in enumerate(lines) if holds(l, last) and i > a)
    path.write_bytes(b"\n".join(lines[:a] + lines[b:]))


# --- 1. the corrections file emptied or unreadable ------------------------------------

@pytest.mark.parametrize("content", ["", "\n  \n", "# every correction was deleted\n\n"])
def test_an_emptied_corrections_file_stops_the_build(corpus, served, content):
    (corpus / "corrections.toml").write_text(content, encoding="utf-8")
    msg = _fails(corpus, served)
    assert msg.startswith("corrections.toml: is empty"), msg
    assert "corrections.toml at all" in msg  # how a corpus says it really has none


def test_an_unreadable_corrections_file_stops_the_build(corpus, served):
    (corpus / "corrections.toml").unlink()
    (corpus / "corrections.toml").mkdir()
    msg = _fails(corpus, served)
    assert msg.startswith("corrections.toml: is unreadable (Is a directory)"), msg


def test_a_corrections_file_the_build_may_not_read_stops_it(corpus, served, monkeypatch):
    # the tests run as root, whom file permissions do not stop: refuse the read here
    real = Path.read_bytes

    def refused(self):
        if self.name == "corrections.toml":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refused)
    msg = _fails(corpus, served)
    assert msg.startswith("corrections.toml: is unreadable (Permission denied)"), msg


def test_an_emptied_corrections_file_fails_the_cli_in_one_line(corpus, served):
    (corpus / "corrections.toml").write_text("", encoding="utf-8")
    before = _state(served)
    result = _cli(corpus, served)
    assert result.exit_code == 1
    assert result.output.startswith("Error: build failed, the previous store is unchanged: "
                                     "corrections.toml: is empty"), result.output
    assert len(result.output.splitlines()) == 1 and "Traceback" not in result.output
    assert _state(served) == before


# --- 2. a control byte in a source ------------------------------------------------------

@pytest.mark.parametrize("file, needle, byte", [
    (GUIDE, b"# **ALERT THESE CALLS**", b"\x00"),
    (ACBL, b"LAW 45 - CARD PLAYED", b"\x00"),  # a Latin-1 source
    (RUBBER, b"LAW 46", b"\x1b"),
    (SLIDES, b"LAW 13 - ", b"\x08"),
])
def test_a_control_byte_in_a_source_names_file_line_and_byte(corpus, served, file, needle, byte):
    path = corpus / file
    line = _line_of(path, needle)
    data = path.read_bytes()
    at = data.index(needle) + 3
    path.write_bytes(data[:at] + byte + data[at:])
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    msg = _fails(corpus, served)
    assert msg.startswith(f"{file}, line {line}: holds the control character U+{byte[0]:04X} "
                          f"(column {column}),"), msg


def test_form_feeds_tabs_and_crlf_are_text(corpus, tmp_path):
    """The PDF texts put a form feed between pages, the guide has tabs; a file
    saved with Windows line ends is not damaged either."""
    path = corpus / BLOG
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert b"\x0c" in (corpus / ACBL).read_bytes() and b"\t" in (corpus / GUIDE).read_bytes()
    build(corpus, tmp_path / "data", echo=quiet)


# --- 3. a very long line ------------------------------------------------------------------

def test_a_3mb_junk_line_names_file_line_and_length(corpus, served):
    path = corpus / GUIDE
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(path.read_bytes() + b"\n" + b"junk " * 600_000 + b"\n")
    msg = _fails(corpus, served)
    assert msg.startswith(f"{GUIDE}, line {len(lines) + 1}: is 3,000,000 characters long; "
                          "no line of a source is longer than 20,000"), msg


def test_a_line_just_over_the_limit_is_refused(corpus, served):
    path = corpus / RUBBER
    line = _line_of(path, b"LAW 50")
    path.write_bytes(path.read_bytes().replace(b"LAW 50", b"LAW 50" + b" " * 19_995, 1))
    msg = _fails(corpus, served)
    assert msg.startswith(f"{RUBBER}, line {line}: is 20,001 characters long;"), msg


# --- 4. fewer laws than the manifest's range ----------------------------------------------

@pytest.mark.parametrize("file, first, last, expected, found, missing", [
    (RUBBER, b"LAW 46", b"LAW 47", "31 laws the manifest lists for it (41-71)", 30, "Law 46 is missing"),
    (BLOG, b"Law 38", b"Law 39", "8 laws the manifest lists for it (33-40)", 7, "Law 38 is missing"),
])
def test_a_law_lost_from_a_source_gives_both_counts(corpus, served, file, first, last, expected, found, missing):
    _cut(corpus / file, first, last, whole=True)
    msg = _fails(corpus, served)
    assert msg.startswith(f"{file}: the parser found {found} of the {expected}: {missing}"), msg


def test_a_fragment_lost_from_the_club_pages_gives_both_counts(corpus, served):
    _cut(corpus / CLUB, b"A. Doubles", b"Penalty ")  # Law 19's page (doubles and redoubles)
    msg = _fails(corpus, served)
    assert msg.startswith(f"{CLUB}: its fragments reproduce 7 of the 8 laws the manifest lists for it "
                          "(2, 5-7, 12, 18-20): Law 19 is missing"), msg


# --- 5. a build that serves much less than the one served ---------------------------------

def _lose_guide_topics(corpus: Path) -> None:
    """About a hundred lines of the guide lost: fifteen topics, none with a curated correction."""
    _cut(corpus / GUIDE, b"# **ILLEGAL DOUBLE OR REDOUBLE [LAW 35 & 36]**", b"# **Correction of a Call**")


def _topics(data: Path, edition: str) -> int:
    conn = store.connect(current_store(data))
    try:
        return conn.execute("select count(*) from topics where edition = ?", [edition]).fetchone()[0]
    finally:
        conn.close()


def test_a_shrink_below_95_percent_stops_the_build(corpus, served):
    _lose_guide_topics(corpus)
    had = _topics(served, "dbrs-2017")
    msg = _fails(corpus, served)
    m = re.fullmatch(rf"edition dbrs-2017 \(from {GUIDE}\) would have (\d+) guide topics, fewer than 95 % of the "
                     rf"{had} of the build being served; if the corpus is meant to shrink, build again with "
                     r"--accept-shrink dbrs-2017", msg)
    assert m, msg
    assert int(m[1]) < 0.95 * had


@pytest.mark.parametrize("accept", ["dbrs-2017", GUIDE])
def test_an_accepted_shrink_goes_live(corpus, served_copy, accept):
    _lose_guide_topics(corpus)
    had = _topics(served_copy, "dbrs-2017")
    before = _state(served_copy)[0]
    result = _cli(corpus, served_copy, "--accept-shrink", "2007", "--accept-shrink", accept)
    assert result.exit_code == 0, result.output
    assert _state(served_copy)[0] != before
    assert _topics(served_copy, "dbrs-2017") < 0.95 * had


def test_a_shrink_of_another_edition_is_not_accepted(corpus, served):
    _lose_guide_topics(corpus)
    msg = _fails(corpus, served, accept_shrink=["2007", RUBBER])
    assert msg.startswith("edition dbrs-2017 "), msg


def test_accepting_a_shrink_of_nothing_known_is_refused(corpus, served):
    msg = _fails(corpus, served, accept_shrink=["2O17"])
    assert msg.startswith("--accept-shrink 2O17: there is no such edition or source file"), msg


def test_an_unchanged_corpus_rebuilds_over_the_served_build(served_copy):
    """The real corpus builds clean over itself: every check passes."""
    before = _state(served_copy)[0]
    build(CORPUS, served_copy, echo=quiet)
    assert _state(served_copy)[0] != before


# --- 6. a full disk -------------------------------------------------------------------------

def test_a_full_disk_says_so_and_names_the_directory(corpus, served, monkeypatch):
    from search import index

    def full(db, out, *_a, **_kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out / "meta.json"))

    monkeypatch.setattr(index, "build", full)
    msg = _fails(corpus, served)
    m = re.fullmatch(r"the disk is full: no space left to write (.+); free some space \(or set LAWS_DATA_DIR "
                     r"to a folder on another disk\) and build again", msg)
    assert m, msg
    assert Path(m[1]).parent == served / "builds" and Path(m[1]).name.startswith(".tmp-")
    assert not list((served / "builds").glob(".tmp-*"))


def test_a_full_disk_under_sqlite_says_so(corpus, served, monkeypatch):
    real = store.create

    def small(path):
        db = real(path)
        db.execute("pragma max_page_count = 40")  # SQLite then fails as on a full disk
        return db

    monkeypatch.setattr(build_mod.store, "create", small)
    msg = _fails(corpus, served)
    assert re.fullmatch(rf"the disk is full: no space left to write {re.escape(str(served / 'builds'))}/"
                        r"\.tmp-\S+; .+ and build again", msg), msg


def test_a_full_disk_fails_the_cli_in_one_line(corpus, served, monkeypatch):
    def full(*_a, **_kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build_mod.store, "write_sources", full)
    result = _cli(corpus, served)
    assert result.exit_code == 1
    assert result.output.startswith("Error: build failed, the previous store is unchanged: the disk is full: "
                                    ), result.output
    assert "unexpected" not in result.output and "please report" not in result.output
    assert len(result.output.splitlines()) == 1


def test_sqlite_full_error_is_recognised():
    try:
        conn = sqlite3.connect(":memory:")
        conn.execute("pragma max_page_count = 2")
        conn.execute("create table t (x)")
        conn.executemany("insert into t values (?)", [("x" * 1000,)] * 100)
    except sqlite3.Error as exc:
        assert build_mod.disk_full(exc)
    else:
        pytest.fail("SQLite did not run out of pages")
    assert not build_mod.disk_full(sqlite3.OperationalError("no such table: t"))
