"""Builds that add (issue 24): the build's cache (laws/buildcache.py).

A rebuild with one source changed parses that source only, reuses the
comparison it does not touch, and gives the very store a clean build of the
same corpus gives (a sorted dump of every table, byte for byte; only the
time of building differs).  A damaged cache entry is said, made again and
never used.  The build command's shortcut: with nothing changed it builds
nothing, and it builds again when a file or the served store changed."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from laws.build import BUILD_FILE, build
from laws.buildcache import DIR as CACHE_DIR
from tests.conftest import CORPUS

RUBBER = "002_bcfdd5b6af47b342.txt"  # the 1993 rubber code: a family of its own, compared with nothing
SLIDES = "000_f79d4105db5f19c6.txt"
GUIDE = "001_c10fccc6a02ee89d.txt"


def dump(db: Path) -> bytes:
    """Every table of the store, its rows sorted, as bytes; not the time it
    was built (meta 'built_at'), which is all two builds of one corpus differ by."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = []
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type = 'table' order by name")]
        for table in tables:
            rows = sorted(repr(r) for r in conn.execute(f"select * from [{table}]")
                          if not (table == "meta" and r[0] == "built_at"))
            out.append(f"## {table} ({len(rows)} rows)\n" + "\n".join(rows))
        return "\n".join(out).encode("utf-8")
    finally:
        conn.close()


def cached_build(corpus: Path, data: Path, **kw) -> tuple[Path, list[str]]:
    lines: list[str] = []
    result = build(corpus, data, echo=lines.append, cache=True, **kw)
    return result.path, lines


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """A copy of the real corpus built once with the cache: (corpus, data, lines)."""
    tmp = tmp_path_factory.mktemp("cache")
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    _, lines = cached_build(corpus, tmp / "data")
    return corpus, tmp / "data", lines


@pytest.fixture()
def again(first, tmp_path) -> tuple[Path, Path]:
    """The first build's corpus and data folder (with its cache), copied for a test to change."""
    corpus, data, _ = first
    shutil.copytree(corpus, tmp_path / "corpus")
    shutil.copytree(data, tmp_path / "data", symlinks=True)
    return tmp_path / "corpus", tmp_path / "data"


def _step(lines: list[str], name: str) -> list[str]:
    """A step's cache line and the lines of what it made."""
    i = next(k for k, line in enumerate(lines) if line.startswith(f"{name}: "))
    j = i + 1
    while j < len(lines) and lines[j].startswith("  made "):
        j += 1
    return [lines[i]] + [line.split(":")[0] for line in lines[i + 1:j]]


def test_a_first_build_makes_everything_and_keeps_it(first):
    _, data, lines = first
    assert _step(lines, "parse") == ["parse: 0 cached, 6 made", f"  made {SLIDES}", "  made acbl-2017-laws.txt",
                                     f"  made {RUBBER}", "  made 004_00dffde58a6aed35.txt", f"  made {GUIDE}",
                                     "  made 003_9d8ca0f08b130dce.txt"]
    assert _step(lines, "comparisons") == ["comparisons: 0 cached, 1 made", "  made 2007 -> 2017"]
    assert _step(lines, "search index") == ["search index: 0 cached, 1 made", "  made the search index"]
    assert sorted(p.name for p in (data / CACHE_DIR).iterdir()) == ["comparison", "parse", "search"]
    assert len(list((data / CACHE_DIR / "parse").iterdir())) == 6


def test_one_source_changed_is_the_only_one_parsed_and_the_store_is_a_clean_builds(again, tmp_path):
    corpus, data = again
    path = corpus / RUBBER
    text = path.read_text(encoding="utf-8")
    assert text.count("rights of the opponents") == 1
    path.write_text(text.replace("rights of the opponents", "rights of the adversaries"), encoding="utf-8")
    built, lines = cached_build(corpus, data)
    assert _step(lines, "parse") == ["parse: 5 cached, 1 made", f"  made {RUBBER}"]
    # the rubber code is compared with no other code: 2007 -> 2017 is reused
    assert _step(lines, "comparisons") == ["comparisons: 1 cached, 0 made"]
    assert _step(lines, "search index") == ["search index: 0 cached, 1 made", "  made the search index"]
    clean = build(corpus, tmp_path / "clean", echo=lambda *_: None).path
    assert not (tmp_path / "clean" / CACHE_DIR).exists()  # built without the cache
    ours, theirs = dump(built / "laws.db"), dump(clean / "laws.db")
    assert b"rights of the adversaries" in ours
    assert ours == theirs
    assert sorted(p.name for p in (built / "index").rglob("*")) == sorted(p.name for p in (clean / "index").rglob("*"))


def test_nothing_changed_reuses_every_entry_and_gives_the_same_store(first, again):
    corpus, data = again
    built, lines = cached_build(corpus, data)
    assert [_step(lines, s)[0] for s in ("parse", "comparisons", "search index")] == [
        "parse: 6 cached, 0 made", "comparisons: 1 cached, 0 made", "search index: 1 cached, 0 made"]
    assert dump(built / "laws.db") == dump(first[1] / "current" / "laws.db")


def _entry(data: Path, kind: str, holding: bytes) -> Path:
    """The cache entry of `kind` whose payload holds `holding`."""
    found = [p for p in (data / CACHE_DIR / kind).iterdir() if holding in p.read_bytes()]
    assert len(found) == 1, found
    return found[0]


def test_damaged_entries_are_said_made_again_and_never_used(first, again):
    corpus, data = again
    changed = _entry(data, "parse", GUIDE.encode())
    body = bytearray(changed.read_bytes())
    body[-200] ^= 0x01  # one bit of its payload
    changed.write_bytes(bytes(body))
    cut = _entry(data, "parse", RUBBER.encode())
    written = int(cut.read_bytes().split(b"\n", 1)[0].split()[-1])
    cut.write_bytes(cut.read_bytes()[:-1000])
    garbled = next((data / CACHE_DIR / "comparison").iterdir())
    garbled.write_bytes(b"not an entry\n" + garbled.read_bytes())
    built, lines = cached_build(corpus, data)
    assert sorted(line for line in lines if line.startswith("cache: ")) == [
        "cache: the comparison entry for 2007 -> 2017 is damaged (its header is not the cache's): "
        "made again, not used",
        f"cache: the parse entry for {GUIDE} is damaged (its bytes do not match its hash): made again, not used",
        f"cache: the parse entry for {RUBBER} is damaged ({written - 1000} bytes where {written} were written): "
        "made again, not used",
    ]
    assert _step(lines, "parse") == ["parse: 4 cached, 2 made", f"  made {RUBBER}", f"  made {GUIDE}"]
    assert _step(lines, "comparisons") == ["comparisons: 0 cached, 1 made", "  made 2007 -> 2017"]
    assert dump(built / "laws.db") == dump(first[1] / "current" / "laws.db")
    # made again: the next build finds them sound
    _, lines = cached_build(corpus, data)
    assert [line for line in lines if line.startswith("cache: ")] == []
    assert _step(lines, "parse")[0] == "parse: 6 cached, 0 made"


def test_nothing_changed_builds_nothing_and_a_change_builds(again):
    corpus, data = again
    # the first build recorded what it was made from: this one builds nothing
    # (unless the code changed since, as other work on this tree may do)
    made, _ = cached_build(corpus, data, reuse_current=True)
    same, lines = cached_build(corpus, data, reuse_current=True)
    assert same == made
    assert lines == [f"nothing changed: build {made.name} is current (corpus, code and statuses as it was "
                     "built from; store checked against its hash)"]
    # the served store damaged: built again (from the cache), never kept
    with open(made / "laws.db", "r+b") as f:
        f.seek(5000)
        f.write(b"\xff")
    rebuilt, lines = cached_build(corpus, data, reuse_current=True)
    assert rebuilt != made and _step(lines, "parse")[0] == "parse: 6 cached, 0 made"
    # a corpus file changed: built
    (corpus / "manifest.toml").write_text((corpus / "manifest.toml").read_text(encoding="utf-8") + "\n# a comment\n",
                                          encoding="utf-8")
    after, _ = cached_build(corpus, data, reuse_current=True)
    assert after != rebuilt
    assert (after / BUILD_FILE).is_file()


def test_the_build_command_has_no_cache_option(first, tmp_path):
    from app import create_app

    corpus, _, _ = first
    app = create_app({"TESTING": True, "CORPUS_DIR": str(corpus), "DATA_DIR": str(tmp_path / "data")})
    result = app.test_cli_runner().invoke(args=["build", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "data" / CACHE_DIR).exists()
    assert not any(line.startswith(("parse: ", "comparisons: ")) for line in result.output.splitlines())


def test_the_scale_benchs_pdf_style_codes_parse_into_the_2017_structure(tmp_path):
    """bench/synthetic.py's every fourth code is the 2017 PDF text with a few
    words changed per law, parsed by the pdf parser like the real one."""
    import importlib.util

    from laws import manifest
    from laws.build import parse_all
    from tests.conftest import ROOT

    spec = importlib.util.spec_from_file_location("bench_synthetic_pdf", ROOT / "bench" / "synthetic.py")
    synthetic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synthetic)
    corpus = synthetic.make_corpus(6, tmp_path / "corpus")
    m = manifest.load(corpus)
    assert [(s.file, s.parser) for s in m.sources if s.file.startswith("syn-")] == [
        ("syn-2006.txt", "slides"), ("syn-2005.txt", "slides"), ("syn-2004.txt", "slides"), ("syn-2003.txt", "pdf")]
    _, results, _ = parse_all(corpus)
    by_file = {r.file: r for r in results}
    real, syn = by_file[synthetic.SOURCE_PDF], by_file["syn-2003.txt"]
    assert [[p.id for p in law.provisions] for law in syn.laws] == [[p.id for p in law.provisions] for law in real.laws]
    assert len(syn.index) == len(real.index)
    changed = [law.number for a, law in zip(real.laws, syn.laws)
               if [p.text for p in a.provisions] != [p.text for p in law.provisions]]
    assert len(changed) >= 10  # words changed in some laws (bench/synthetic.py mutate_pdf: not yet in every law)
