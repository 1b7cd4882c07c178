"""A new edition, added as an organiser would add the 2027 Laws, is compared
with the others on the next build, and the comparison finds exactly what was
changed in it.

The new edition's text is a modified copy of the 2017 blog transcription
(004): one word changed in Law 33, provision 38B deleted, and a Law 41 added.
It is added the documented way: the file dropped into the corpus folder, an
[[edition]] and a [[source]] entry appended to manifest.toml.

The copy keeps the blog's transcription typos ('Inadmissable', 'afte rthe').
Corrections are keyed by file name, so the organiser also copies the
corrections of 004 for the new file (as anyone adding a source with known
typos would).  Without them the 2027 text would keep its typos and the
comparison would rightly report them as changes of wording against 2017's
corrected text; with them, it reports only the three real changes.
"""
from __future__ import annotations

import json
import shutil
import tomllib

import pytest

from laws import compare, store
from laws.build import build, current_store
from tests.conftest import CORPUS

SOURCE_2017 = "004_00dffde58a6aed35.txt"
NEW_FILE = "005_laws_2027_test.txt"
LAW_41 = """
Law 41
Commencement of Play
A. Face-down Opening Lead
After the final pass, the defender on presumed declarer’s left makes the opening lead face down.
B. Review of Auction
The opening lead is then faced and dummy spreads his/her hand on the table.
"""


def _toml_string(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a TOML basic string


@pytest.fixture(scope="module")
def store_2027(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("corpus") / "corpus"
    shutil.copytree(CORPUS, corpus)
    text = (corpus / SOURCE_2017).read_text(encoding="utf-8")
    # a word changed (Law 33)
    assert text.count("is deemed to be") == 1
    text = text.replace("is deemed to be", "is considered to be")
    # a provision deleted (Law 38B: its heading line and its text)
    deleted = "B. Bid and Subsequent Calls Cancelled\nA bid of more than 7 is cancelled together with any subsequent calls.\n"
    assert text.count(deleted) == 1
    text = text.replace(deleted, "")
    # a law added
    text = text.rstrip("\n") + "\n" + LAW_41
    (corpus / NEW_FILE).write_text(text, encoding="utf-8")

    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        f.write(f"""
[[edition]]
id = "2027"
title = "Laws of Duplicate Bridge 2027 (test)"
year = 2027
kind = "code"
family = "duplicate"
publisher = "World Bridge Federation"
laws = "33-41"
description = "A made-up edition for the tests."

[[source]]
file = "{NEW_FILE}"
edition = "2027"
title = "The 2017 blog transcription with three changes"
kind = "code"
parser = "plain"
laws = "33-41"
""")
    corrections = tomllib.loads((corpus / "corrections.toml").read_text(encoding="utf-8"))["correction"]
    with open(corpus / "corrections.toml", "a", encoding="utf-8") as f:
        for c in corrections:
            if c["file"] != SOURCE_2017:
                continue
            f.write("\n[[correction]]\n" + "".join(
                f"{k} = {_toml_string(v if k != 'file' else NEW_FILE)}\n" for k, v in c.items()))

    data = tmp_path_factory.mktemp("data")
    build(corpus, data, echo=lambda *_: None)
    conn = store.connect(current_store(data))
    yield conn
    conn.close()


def test_only_the_changed_laws_changed(store_2027):
    o = compare.overview(store_2027, "2017", "2027")
    assert [(l["law"], l["status"]) for l in o["laws"]] == [
        (33, "changed"), (34, "same"), (35, "same"), (36, "same"), (37, "same"), (38, "changed"),
        (39, "same"), (40, "same")]
    assert o["only_from"] == [] and o["only_to"] == [41]


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
    assert d["changes"][1]["ops"] == [["delete", "A bid of more than 7 is cancelled together with any subsequent calls."]]
    assert d["summary"] == "1 provision removed"


def test_nothing_else_changed(store_2027):
    for law in (34, 35, 36, 37, 39, 40):
        assert {c["status"] for c in compare.diff(store_2027, law, "2017", "2027")["changes"]} == {"same"}


def test_the_law_added_is_only_in_2027(store_2027):
    from laws.queries import NotFound
    with pytest.raises(NotFound, match="has no Law 41"):
        compare.diff(store_2027, 41, "2017", "2027")
    # ... and is compared with the editions that have a Law 41
    assert {(p["from"], p["to"]) for p in compare.pairs(store_2027)} == {
        ("2007", "2017"), ("1993-rubber", "2007"), ("2007", "2027"), ("2017", "2027"), ("1993-rubber", "2027")}
    history = compare.history(store_2027, "2027", 41)["41A"]
    assert ("2007", "41A", "changed") in [(e["edition"], e["provision"], e["status"]) for e in history]

