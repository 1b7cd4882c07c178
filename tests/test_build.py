"""The build: summary lines, atomic swap, and readable errors for a broken corpus."""
from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest

from laws import build as build_mod
from laws.build import build, current_store, is_stale
from laws.model import SourceError

from conftest import CORPUS, copy_build, shared_lines


@pytest.fixture()
def built_copy(corpus, built, tmp_path):
    """The copy, with a data directory of its own holding a copy of the
    session's build of the same corpus (as good as built from the copy: a
    store records the corpus's content, not its folder), to build over."""
    return corpus, copy_build(built, tmp_path / "data")


def test_summary_has_one_line_per_edition(built):
    lines = shared_lines(built)  # what the session's build of the corpus printed
    # the build says which curated alignments the aligner no longer needs
    notes = [line for line in lines if line.startswith("override ")]
    assert all(line.endswith("is unnecessary: the aligner finds it from the text") for line in notes)
    editions = [line.split(":")[0] for line in lines[:-1] if line not in notes]
    assert editions == ["2007", "2017", "1993-rubber", "dbrs-2017"]
    pattern = (r"^\S+: \d+ laws, \d+ provisions, \d+ definitions(, \d+ guide topics)?"
               r"(, index \d+ entries, citations \d+ resolved / \d+ unresolved)?, "
               r"references \d+ resolved / \d+ unresolved, \d+ corrections(, glosses: \d+ of \d+, \d+ stale)?, "
               r"\d+\.\d\d s$")
    assert all(re.match(pattern, line) for line in lines[:-1] if line not in notes), lines
    assert lines[0].startswith("2007: 93 laws, ")
    assert lines[1].startswith("2017: 93 laws, 829 provisions, 66 definitions, index 805 entries, "
                               "citations 950 resolved / 3 unresolved, references 376 resolved / 0 unresolved, ")
    assert lines[2].startswith("1993-rubber: 31 laws, ")
    assert lines[-1].startswith("built ")


def test_store_is_fresh_until_the_corpus_changes(built_copy):
    corpus, data = built_copy
    assert not is_stale(corpus, data)
    (corpus / "manifest.toml").write_text((corpus / "manifest.toml").read_text() + "\n# a comment\n")
    assert is_stale(corpus, data)


def test_a_store_of_another_schema_is_stale(built_copy):
    """New code pulled onto an old build: `python app.py` rebuilds instead of
    serving a store this code cannot read (found: a schema 7 store served
    by schema 9 code, every law page a 500)."""
    corpus, data = built_copy
    conn = sqlite3.connect(current_store(data))
    with conn:
        conn.execute("update meta set value = '7' where key = 'schema_version'")
    conn.close()
    assert is_stale(corpus, data) is True


def test_missing_store_is_stale(tmp_path):
    assert is_stale(CORPUS, tmp_path / "nothing")


def _replace_bytes(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new))


def _served(data: Path) -> str:
    return os.readlink(data / "current")


@pytest.mark.parametrize("damage, message", [
    (lambda c: (c / "004_00dffde58a6aed35.txt").write_text(""), "004_00dffde58a6aed35.txt: is empty"),
    (lambda c: (c / "002_bcfdd5b6af47b342.txt").unlink(),
     "002_bcfdd5b6af47b342.txt: is named in the manifest but is not in the corpus folder"),
    (lambda c: (c / "004_00dffde58a6aed35.txt").write_bytes(b"Law 33\nSimultaneous\n\xff\xfe bad\n"),
     "004_00dffde58a6aed35.txt, line 3: is not UTF-8 text"),
    (lambda c: (c / "manifest.toml").unlink(), "manifest.toml: no manifest in"),
    # the PDF text: a law lost, the table of contents lost, a footnote's mark lost
    (lambda c: _replace_bytes(c / "acbl-2017-laws.txt", b"\nLAW 34\n", b"\nLAW 43\n"),
     "acbl-2017-laws.txt, line 1716: expected 'LAW 34' here but found 'LAW 43'"),
    (lambda c: _replace_bytes(c / "acbl-2017-laws.txt", b"Table of Contents", b"Contents follow"),
     "acbl-2017-laws.txt: no 'Table of Contents' line"),
    (lambda c: _replace_bytes(c / "acbl-2017-laws.txt", b"own11", b"own"),
     "acbl-2017-laws.txt, line 1783: footnote 11 has no mark on its page"),
])
def test_broken_corpus_file_names_the_file_and_keeps_the_previous_store(built_copy, damage, message):
    corpus, data = built_copy
    before = _served(data)
    damage(corpus)
    with pytest.raises(SourceError) as err:
        build(corpus, data, echo=lambda *_: None)
    assert str(err.value).startswith(message)
    assert _served(data) == before
    assert current_store(data).exists()
    assert not list((data / "builds").glob(".tmp-*"))


def _edit_manifest(corpus: Path, old: str, new: str) -> None:
    path = corpus / "manifest.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("old, new, message", [
    ('parser = "plain"', 'parser = "scanned"',
     "manifest.toml, line {line}: source '004_00dffde58a6aed35.txt': there is no parser 'scanned'"),
    ('encoding = "latin-1"', 'encoding = "latin-9000"',
     "manifest.toml, line {line}: source 'acbl-2017-laws.txt': encoding 'latin-9000' is not one Python knows"),
    ('edition = "2017"\ntitle = "Laws of Duplicate Bridge 2017, Laws 33-40',
     'edition = "2019"\ntitle = "Laws of Duplicate Bridge 2017, Laws 33-40',
     "manifest.toml, line {line}: source '004_00dffde58a6aed35.txt' names edition '2019', which has no [[edition]] entry"),
    ('laws = "1-93"\ndescription = "The 2017', 'laws = "forty"\ndescription = "The 2017',
     "manifest.toml, line {line}: edition '2017': 'forty' is not a law number or range like 41-71"),
    ('id = "2017"', 'id = "2017 Laws"',
     "manifest.toml, line {line}: edition id '2017 Laws' must look like 2007, 1993-rubber or dbrs-2017"),
])
def test_bad_manifest_entry_names_its_line(corpus, tmp_path, old, new, message):
    _edit_manifest(corpus, old, new)
    lines = (corpus / "manifest.toml").read_text().splitlines()
    # the error points at the [[...]] header of the entry at fault
    header = max(i for i, l in enumerate(lines, 1) if l.startswith("[[")
                 and i <= next(j for j, m in enumerate(lines, 1) if new.splitlines()[0] in m))
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert str(err.value).startswith(message.format(line=header)), str(err.value)


def test_malformed_manifest_names_the_line(corpus, tmp_path):
    path = corpus / "manifest.toml"
    path.write_text(path.read_text() + "\n[[source]\nfile = \n")
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert re.match(r"manifest.toml, line \d+: is not valid TOML", str(err.value))


def test_manifest_promising_a_law_the_source_lacks(corpus, tmp_path):
    _edit_manifest(corpus, 'parser = "plain"\nlaws = "33-40"', 'parser = "plain"\nlaws = "33-41"')
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert str(err.value) == ("004_00dffde58a6aed35.txt: the parser found 8 of the 9 laws the manifest lists "
                              "for it (33-41): Law 41 is missing")


def test_witness_attests_its_laws_without_giving_their_text(db):
    """The blog (a witness) is parsed and attests Laws 33-40; the laws' text is
    the ACBL's alone."""
    assert [r[0] for r in db.execute("select law from attestations where source = '004_00dffde58a6aed35.txt' "
                                     "and how = 'witness' order by law")] == list(range(33, 41))
    assert {r[0] for r in db.execute("select distinct source from laws where edition = '2017'")} == {
        "acbl-2017-laws.txt"}
    # its own corrections are recorded (and each was used, or the build would have stopped)
    assert db.execute("select count(*) from corrections where source = '004_00dffde58a6aed35.txt'").fetchone()[0] > 20


def test_build_keeps_the_parsed_witnesses(tmp_path):
    result = build(CORPUS, tmp_path / "data", echo=lambda *_: None)
    witness = result.witnesses["004_00dffde58a6aed35.txt"]
    assert (witness.edition, [law.number for law in witness.laws]) == ("2017", list(range(33, 41)))


def test_unused_correction_stops_the_build(corpus, tmp_path):
    path = corpus / "corrections.toml"
    path.write_text(path.read_text() + '\n[[correction]]\nfile = "004_00dffde58a6aed35.txt"\n'
                    'raw = "no such words anywhere"\ncorrected = "x"\nreason = "test"\n')
    line = len(path.read_text().splitlines()) - 4
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert str(err.value) == (f"corrections.toml, line {line}: the correction of 'no such words anywhere' "
                              "in 004_00dffde58a6aed35.txt matches nothing")


def test_interrupted_build_leaves_the_previous_store(built_copy, monkeypatch):
    corpus, data = built_copy
    before = _served(data)

    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_mod.store, "finish", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(corpus, data, echo=lambda *_: None)
    assert _served(data) == before
    assert not list((data / "builds").glob(".tmp-*"))


def test_rebuild_switches_to_the_new_store_and_keeps_the_one_before(built_copy):
    corpus, data = built_copy
    first = _served(data)
    build(corpus, data, echo=lambda *_: None)
    second = _served(data)
    build(corpus, data, echo=lambda *_: None)
    assert len({first, second, _served(data)}) == 3
    kept = sorted(p.name for p in (data / "builds").iterdir())
    assert kept == sorted([second.split("/")[-1], _served(data).split("/")[-1]])


def test_cli_build_prints_summary(tmp_path):
    from app import create_app

    app = create_app({"TESTING": True, "CORPUS_DIR": str(CORPUS), "DATA_DIR": str(tmp_path / "data")})
    result = app.test_cli_runner().invoke(args=["build"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("2007: 93 laws, ")


def test_cli_build_failure_is_one_readable_line(corpus, tmp_path):
    from app import create_app

    (corpus / "004_00dffde58a6aed35.txt").write_text("   \n")
    app = create_app({"TESTING": True, "CORPUS_DIR": str(corpus), "DATA_DIR": str(tmp_path / "data")})
    result = app.test_cli_runner().invoke(args=["build"])
    assert result.exit_code == 1
    assert result.output == ("Error: build failed, the previous store is unchanged: "
                             "004_00dffde58a6aed35.txt: is empty\n")
