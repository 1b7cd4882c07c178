"""A new edition, added as an organiser would add the 2027 Laws, is compared
with the others on the next build, and the comparison finds exactly what was
changed in it.

The new edition's text is a plain transcription of 2017 Laws 33-40 as the
ACBL's text gives them (written out from the pdf parser's reading, in the
layout the `plain` parser reads: 'Law n', title, 'A. Heading', text), with
three changes: one word changed in Law 33, provision 38B deleted, and Law 41
rewritten (two short sections where 2017 has four).  It is added the documented way: the file dropped into the corpus
folder, an [[edition]] and a [[source]] entry appended to manifest.toml.
"""
from __future__ import annotations

import shutil

import pytest

from laws import compare, manifest, store
from laws.build import current_store
from laws.corrections import Corrections
from laws.parsers import get
from tests.conftest import CORPUS, shared_build

SOURCE_2017 = "acbl-2017-laws.txt"
NEW_FILE = "005_laws_2027_test.txt"
LAW_41 = """
Law 41
Commencement of Play
A. Face-down Opening Lead
After the final pass, the defender on presumed declarer’s left makes the opening lead face down.
B. Review of Auction
The opening lead is then faced and dummy spreads his/her hand on the table.
"""


# 2027's short Law 41 against 2017's: A reworded; its B ('Review of Auction',
# about dummy's hand) matches none of 2017's B, C, D closely enough
RESULT_41 = [("41A", "41A", "changed"), ("41B", None, "removed"), ("41C", None, "removed"),
             ("41D", None, "removed"), (None, "41B", "added")]


def manifest_2027(laws: str, source_title: str, life: str = "") -> str:
    """The [[edition]] and [[source]] entries the organiser appends to
    manifest.toml for the made-up 2027 (NEW_FILE, a plain transcription);
    `life`: its `published` / `in_force_from` lines, if any."""
    return f"""
[[edition]]
id = "2027"
title = "Laws of Duplicate Bridge 2027 (test)"
year = 2027
kind = "code"
family = "duplicate"
publisher = "World Bridge Federation"
laws = "{laws}"
{life}description = "A made-up edition for the tests."

[[source]]
file = "{NEW_FILE}"
edition = "2027"
title = "{source_title}"
kind = "code"
parser = "plain"
laws = "{laws}"
"""


def plain_transcription(law) -> str:
    """A parsed law written out as a plain transcription."""
    out = [f"Law {law.number}", law.title]
    for p in law.provisions:
        paras = p.text.split("\n\n") if p.text else []
        if not p.parent or not p.label:
            out += paras
            continue
        label = p.label if p.label.startswith("(") else f"{p.label}."
        if p.heading:
            out += [f"{label} {p.heading}"] + paras
        else:
            out += [f"{label} {paras[0] if paras else ''}".rstrip()] + paras[1:]
    return "\n".join(out)


@pytest.fixture(scope="module")
def store_2027(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("corpus") / "corpus"
    shutil.copytree(CORPUS, corpus)
    source = next(s for s in manifest.load(corpus).sources if s.file == SOURCE_2017)
    parsed = get(source.parser)(source.path.read_bytes().decode(source.encoding), source,
                                Corrections.load(corpus), {})
    text = "\n".join(plain_transcription(law) for law in parsed.laws if 33 <= law.number <= 40)
    # a word changed (Law 33)
    assert text.count("is deemed to be") == 1
    text = text.replace("is deemed to be", "is considered to be")
    # a provision deleted (Law 38B: its heading line and its text)
    deleted = "B. Bid and Subsequent Calls Cancelled\nA bid of more than seven is cancelled together with any subsequent calls.\n"
    assert text.count(deleted) == 1
    text = text.replace(deleted, "")
    # a law added
    text = text.rstrip("\n") + "\n" + LAW_41
    (corpus / NEW_FILE).write_text(text, encoding="utf-8")

    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        f.write(manifest_2027("33-41", "2017 Laws 33-40 transcribed, with three changes"))
    # built once in the session: the modules that import this fixture share it
    conn = store.connect(current_store(shared_build(tmp_path_factory, corpus)))
    yield conn
    conn.close()


def test_only_the_changed_laws_changed(store_2027):
    o = compare.overview(store_2027, "2017", "2027")
    assert [(l["law"], l["status"]) for l in o["laws"]] == [
        (33, "changed"), (34, "same"), (35, "same"), (36, "same"), (37, "same"), (38, "changed"),
        (39, "same"), (40, "same"), (41, "changed")]
    assert o["only_from"] == list(range(1, 33)) + list(range(42, 94)) and o["only_to"] == []


def test_the_word_changed(store_2027):
    d = compare.diff(store_2027, 33, "2017", "2027")
    assert [(c["from_provision"], c["to_provision"], c["status"], c["ops"]) for c in d["changes"]] == [
        ("33", "33", "changed", [
            ["equal", "A call made simultaneously with one made by the player whose turn it was to call is "],
            ["delete", "deemed"], ["insert", "considered"], ["equal", " to be a subsequent call."]])]
    assert d["summary"] == "1 provision changed"


def test_the_provision_deleted(store_2027):
    d = compare.diff(store_2027, 38, "2017", "2027")
    assert [(c["from_provision"], c["to_provision"], c["status"]) for c in d["changes"]] == [
        ("38A", "38A", "same"), ("38B", None, "removed"), ("38C", "38C", "same"), ("38D", "38D", "same")]
    assert d["changes"][1]["ops"] == [["delete", "A bid of more than seven is cancelled together with any subsequent calls."]]
    assert d["summary"] == "1 provision removed"


def test_nothing_else_changed(store_2027):
    for law in (34, 35, 36, 37, 39, 40):
        assert {c["status"] for c in compare.diff(store_2027, law, "2017", "2027")["changes"]} == {"same"}


def test_the_law_rewritten(store_2027):
    d = compare.diff(store_2027, 41, "2017", "2027")
    assert [(c["from_provision"], c["to_provision"], c["status"]) for c in d["changes"]] == RESULT_41
    # ... compared at build time with the code before it in its family (2017),
    # and with any other code when asked
    assert {(p["from"], p["to"]) for p in compare.pairs(store_2027)} == {("2007", "2017"), ("2017", "2027")}
    history = compare.history(store_2027, "2027", 41)["41A"]
    assert [(e["edition"], e["provision"], e["status"]) for e in history] == [
        ("1993-rubber", None, "added"), ("2017", "41A", "changed")]  # 2027 rewrote 41A
    on_request = compare.diff(store_2027, 41, "2007", "2027")["changes"]
    assert ("41A", "41A", "changed") in [(c["from_provision"], c["to_provision"], c["status"]) for c in on_request]
