"""Builds that fail, race or are killed (issue 15): every failure names the
file and, where there is one, the line or the law; one build runs at a time;
the build served and the one before it are never pruned; a killed build's
leftovers go with the next build."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from laws import datadir
from laws.build import BuildError, build, current_store
from laws.model import SourceError

from conftest import ROOT, copy_build

SLIDES = "000_f79d4105db5f19c6.txt"


def quiet(*_a):
    pass


@pytest.fixture()
def built_copy(corpus, built, tmp_path):
    """A copy of the corpus and a data directory of its own serving a copy
    of the session's build of it (a store records the corpus's content, not
    its folder), for a test to build over."""
    return corpus, copy_build(built, tmp_path / "data")


def _served(data: Path) -> str:
    return os.readlink(data / "current")


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, l in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in l)


def _put_byte(path: Path, after: str) -> int:
    """Put a \\xff byte into `path` after the first line holding `after`; its line."""
    line = _line_of(path, after) + 1
    lines = path.read_bytes().split(b"\n")
    lines.insert(line - 1, b"# a stray byte \xff here")
    path.write_bytes(b"\n".join(lines))
    return line


# --- 7. files that are not UTF-8, values of the wrong type ---------------------------

@pytest.mark.parametrize("name, after", [
    ("manifest.toml", "[[source]]"), ("corrections.toml", "[[correction]]"),
    ("alignment-overrides.toml", "[[override]]"),
])
def test_a_non_utf8_byte_in_a_toml_file_names_the_file_and_line(built_copy, name, after):
    corpus, data = built_copy
    before = _served(data)
    line = _put_byte(corpus / name, after)
    with pytest.raises(SourceError) as err:
        build(corpus, data, echo=quiet)
    assert str(err.value) == f"{name}, line {line}: is not UTF-8 text (byte 0xff); save it as UTF-8"
    assert _served(data) == before


@pytest.mark.parametrize("key, value, words", [
    ("raw", "12", "'raw' must be text in quotes, not 12"),
    ("corrected", "[1, 2]", "'corrected' must be text in quotes, not [1, 2]"),
    ("file", "true", "'file' must be text in quotes, not True"),
])
def test_a_correction_value_of_the_wrong_type_names_its_line(corpus, tmp_path, key, value, words):
    path = corpus / "corrections.toml"
    entry = {"file": '"004_00dffde58a6aed35.txt"', "raw": '"x"', "corrected": '"y"', "reason": '"test"'}
    entry[key] = value
    path.write_text(path.read_text() + "\n[[correction]]\n" + "".join(f"{k} = {v}\n" for k, v in entry.items()))
    line = len(path.read_text().splitlines()) - 4
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=quiet)
    assert str(err.value) == f"corrections.toml, line {line}: {words}"


def test_an_override_law_that_is_not_a_number_names_its_line(corpus, tmp_path):
    path = corpus / "alignment-overrides.toml"
    text = path.read_text()
    m = re.search(r"^law = \d+$", text, re.M)
    path.write_text(text[:m.start()] + 'law = "forty"' + text[m.end():])
    line = max(i for i, l in enumerate(path.read_text().splitlines(), 1)
               if l.strip() == "[[override]]" and i < _line_of(path, 'law = "forty"'))
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=quiet)
    assert str(err.value) == f"alignment-overrides.toml, line {line}: 'law' must be a law number, not 'forty'"


# --- 8. a law missing, a file cut short -----------------------------------------------

def _cut(path: Path, first: str, last: str) -> None:
    """Delete from the line holding `first` up to (not including) the line holding `last`."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    a = next(i for i, l in enumerate(lines) if first in l)
    b = next(i for i, l in enumerate(lines) if last in l and i > a)
    path.write_text("".join(lines[:a] + lines[b:]), encoding="utf-8")


def test_a_law_deleted_from_the_slides_is_named(corpus, tmp_path):
    _cut(corpus / SLIDES, "LAW 12 - ", "LAW 13 - ")
    line = _line_of(corpus / SLIDES, "LAW 13 - ")
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=quiet)
    assert str(err.value).startswith(f"{SLIDES}, line {line}: Law 12 is missing: there is no 'LAW 12' heading "
                                     "between Law 11's (line 520) and Law 13's"), str(err.value)


def test_a_truncated_slides_file_says_where_it_ends(corpus, tmp_path):
    path = corpus / SLIDES
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    end = _line_of(path, "LAW 46 ") + 20
    path.write_text("".join(lines[:end]), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=quiet)
    assert str(err.value).startswith(f"{SLIDES}, line {end}: Laws 47–93 are missing: the file ends at line "
                                     f"{end}, in Law 46; it may be truncated"), str(err.value)


def test_part_of_a_law_deleted_names_the_law_and_line(corpus, tmp_path):
    _cut(corpus / SLIDES, "C. Awarding an Adjusted Score", "LAW 13 - ")
    path = corpus / SLIDES
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    # keep Law 13's heading: only the end of Law 12 (and its slide numbers) is gone
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=quiet)
    msg = str(err.value)
    assert re.match(rf"{SLIDES}, line \d+: the slide numbers run in sequence only to slide \d+ "
                    r"\(line \d+, in Law 12\), then slide \d+ is not found", msg), msg
    assert len(lines) > 100


# --- python app.py keeps serving ------------------------------------------------------

def test_python_app_serves_the_previous_store_when_a_rebuild_fails(built_copy):
    import json
    import urllib.request

    from test_app_main import _free_port

    corpus, data = built_copy
    line = _put_byte(corpus / "manifest.toml", "[[source]]")
    port = _free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(data), "LAWS_CORPUS_DIR": str(corpus), "PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/editions", timeout=2) as r:
                    assert [e["id"] for e in json.load(r)][0] == "2017"  # the code in force first
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.3)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert out.splitlines()[:3] == [
        "The store is missing, older than the corpus or made by another version: building it.",
        f"build failed: manifest.toml, line {line}: is not UTF-8 text (byte 0xff); save it as UTF-8",
        "serving the previous store",
    ]
    assert "Traceback" not in out


def test_cli_build_reports_an_unexpected_failure_in_one_line(corpus, tmp_path, monkeypatch):
    from app import create_app
    from laws import build as build_mod

    def broken(*_a, **_kw):
        raise KeyError("x")

    monkeypatch.setattr(build_mod, "parse_all", broken)
    app = create_app({"TESTING": True, "CORPUS_DIR": str(corpus), "DATA_DIR": str(tmp_path / "data")})
    result = app.test_cli_runner().invoke(args=["build"])
    assert result.exit_code == 1
    assert result.output == ("Error: build failed, the previous store is unchanged: "
                             "unexpected KeyError: 'x' (please report it)\n")


# --- 9. one build at a time, pruning, leftovers ----------------------------------------

def test_a_second_build_waits_for_none_and_says_why(built_copy):
    corpus, data = built_copy
    before = _served(data)
    with datadir.build_lock(data):
        with pytest.raises(BuildError) as err:
            build(corpus, data, echo=quiet)
    assert re.fullmatch(rf"another build is running \(process {os.getpid()}, since \d\d:\d\d:\d\d\) "
                        r"in .+: wait for it to finish, then build again if the corpus changed since",
                        str(err.value)), str(err.value)
    assert _served(data) == before
    build(corpus, data, echo=quiet)  # the lock is free again
    assert _served(data) != before


def test_the_served_build_and_the_one_before_are_never_pruned(built_copy):
    corpus, data = built_copy
    first = _served(data).split("/")[-1]
    build(corpus, data, echo=quiet)
    second = _served(data).split("/")[-1]
    # an operator rolls back to the first build; the next build must keep it
    os.replace(data / "current", data / "old")
    (data / "current").symlink_to(Path("builds") / first)
    (data / "old").unlink()
    build(corpus, data, echo=quiet)
    third = _served(data).split("/")[-1]
    kept = sorted(p.name for p in (data / "builds").iterdir())
    assert kept == sorted([first, third])
    assert second not in kept


_KILLED_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from laws import build as b
    def stall(*a, **k):
        print("stalled", flush=True)
        time.sleep(600)
    b.store.finish = stall
    b.build(Path(sys.argv[1]), Path(sys.argv[2]), echo=lambda *_: None)
""")


def _stalled_build(corpus: Path, data: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_BUILD, str(corpus), str(data)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "stalled"
    return proc


def test_a_killed_builds_leftovers_go_with_the_next_build(built_copy):
    corpus, data = built_copy
    proc = _stalled_build(corpus, data)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    leftovers = list((data / "builds").glob(".tmp-*"))
    assert len(leftovers) == 1 and any(leftovers[0].iterdir())
    build(corpus, data, echo=quiet)
    assert not list((data / "builds").glob(".tmp-*"))
    assert current_store(data).exists()


def test_a_running_builds_files_are_left_alone(built_copy):
    corpus, data = built_copy
    proc = _stalled_build(corpus, data)
    try:
        with pytest.raises(BuildError, match=rf"another build is running \(process {proc.pid}, "):
            build(corpus, data, echo=quiet)
        assert len(list((data / "builds").glob(".tmp-*"))) == 1
    finally:
        proc.kill()
        proc.wait()
