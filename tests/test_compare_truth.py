"""The hand-made truth of bench/compare.py (issue 22) is well-formed against
the store: every id it names exists, with text, in its edition and law;
every provision with text of each truth law is accounted for exactly once on
its side; at most five judgement pairs, each with its reason.  This tests the
truth files, not the aligner's score (bench/compare.py measures that)."""
from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("bench_compare", ROOT / "bench" / "compare.py")
bench = importlib.util.module_from_spec(spec)
# registered before it runs: its dataclasses look their module up by name
sys.modules[spec.name] = bench
spec.loader.exec_module(bench)

PARTS = bench.load_parts()
MIN_LAWS = {"tuning": 12, "held-out": 8}


@pytest.fixture(scope="module")
def texts(db):
    """{edition: {id: law}} of the provisions with text."""
    return {ed: bench.text_provisions(db, ed) for ed in (bench.OLD, bench.NEW)}


def test_parts_are_large_enough_and_disjoint():
    assert {name: len(t.laws) >= MIN_LAWS[name] for name, t in PARTS.items()} == {"tuning": True, "held-out": True}
    assert set(PARTS["tuning"].laws) & set(PARTS["held-out"].laws) == set()


def test_the_moves_the_issue_names_are_in_the_tuning_truth():
    t = PARTS["tuning"]
    named = {("27B1(b)", "27B1(b)"), ("12C1(c)", "12C1(c)"), ("12C2(b)", "12C2(b)"), ("86A", "12C2(b)"),
             ("86B", "12C4"), ("17D1", "15A1"), ("22B1", "17D1"), ("22B2", "17D2"), ("23", "72C"),
             ("16C1", "16D1")}
    assert named - t.pairs == set()
    assert {p: t.cross[p] for p in named if p in t.cross} == {
        ("86A", "12C2(b)"): (86, 12), ("86B", "12C4"): (86, 12), ("17D1", "15A1"): (17, 15),
        ("22B1", "17D1"): (22, 17), ("22B2", "17D2"): (22, 17), ("23", "72C"): (23, 72)}


@pytest.mark.parametrize("name", list(PARTS))
def test_every_id_exists_with_text_in_its_edition_and_law(name, texts):
    old, new = texts[bench.OLD], texts[bench.NEW]
    data = tomllib.loads(bench.TRUTH[name].read_text(encoding="utf-8"))
    wrong = []
    for key, table in data["law"].items():
        law = int(key)
        for a, b in table.get("pairs", []):
            if old.get(a) != law:
                wrong.append(f"law.{key} pairs: 2007 {a} (law {old.get(a)})")
            if new.get(b) != law:
                wrong.append(f"law.{key} pairs: 2017 {b} (law {new.get(b)})")
        for c in table.get("cross", []):
            a, b = c["pair"]
            if old.get(a) != c["from_law"] or new.get(b) != c["to_law"]:
                wrong.append(f"law.{key} cross: 2007 {a} (law {old.get(a)}) -> 2017 {b} (law {new.get(b)})")
        wrong += [f"law.{key} removed: 2007 {x}" for x in table.get("removed", []) if old.get(x) != law]
        wrong += [f"law.{key} added: 2017 {x}" for x in table.get("added", []) if new.get(x) != law]
        for j in table.get("judgement", []):
            a, b = j["pair"]
            if a not in old or b not in new:
                wrong.append(f"law.{key} judgement: {a} -> {b}")
    assert wrong == []


@pytest.mark.parametrize("name", list(PARTS))
def test_every_provision_of_each_truth_law_is_accounted_for_exactly_once(name, texts):
    t = PARTS[name]
    laws = set(t.laws)
    problems = []
    for side, ed, paired, alone in ((bench.OLD, bench.OLD, {p[0] for p in t.pairs}, t.removed),
                                    (bench.NEW, bench.NEW, {p[1] for p in t.pairs}, t.added)):
        for pid, law in texts[ed].items():
            if law not in laws:
                continue
            if (pid in paired) + (pid in alone) != 1:
                problems.append(f"{ed} {pid}: listed in {t.listed.get((side, pid), [])}")
        # an id may be named by several pairs (a split or a merge), but in
        # removed/added only once and never alongside a pair
        for (s, pid), where in t.listed.items():
            if s == side and any(w.endswith(("removed", "added")) for w in where) and len(where) > 1:
                problems.append(f"{ed} {pid}: listed in {where}")
    assert problems == []


def test_judgement_pairs_at_most_five_each_with_its_reason():
    judged = [(name, pair, reason) for name, t in PARTS.items() for pair, reason in t.judgement.items()]
    assert len(judged) <= bench.JUDGEMENT_MAX
    assert [j for j in judged if len(j[2]) < 40] == []


def test_the_two_parts_name_no_provision_in_common():
    a, b = PARTS["tuning"], PARTS["held-out"]
    assert {k for k in a.listed if k in b.listed} == set()
