"""bench/synthetic.py: the corpora bench/scale.py measures are real corpora
(the manifest loads, every synthetic code parses into the 2007 structure)
with a few words changed in each law."""
from __future__ import annotations

import importlib.util
import re

import pytest

from laws import manifest
from laws.corrections import Corrections
from laws.parsers import get as get_parser
from tests.conftest import ROOT

spec = importlib.util.spec_from_file_location("bench_synthetic", ROOT / "bench" / "synthetic.py")
synthetic = importlib.util.module_from_spec(spec)
spec.loader.exec_module(synthetic)


@pytest.fixture(scope="module")
def corpus4(tmp_path_factory):
    return synthetic.make_corpus(4, tmp_path_factory.mktemp("syn") / "corpus")


def test_the_manifest_lists_four_full_codes(corpus4):
    m = manifest.load(corpus4)
    full = [e.id for e in m.editions if e.kind == "code" and e.laws == tuple(range(1, 94))]
    assert full == ["2007", "2017", "2006-syn", "2005-syn"]
    assert {e.family for e in m.editions if e.id.endswith("-syn")} == {"duplicate"}
    assert [e.year for e in m.editions if e.id.endswith("-syn")] == [2006, 2005]


def test_one_code_is_the_real_corpus(tmp_path):
    out = synthetic.make_corpus(1, tmp_path / "c")
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in (ROOT / "corpus").iterdir())
    assert (out / "manifest.toml").read_bytes() == (ROOT / "corpus" / "manifest.toml").read_bytes()


def test_never_writes_into_the_corpus():
    with pytest.raises(ValueError):
        synthetic.make_corpus(4, ROOT / "corpus")


def _parse(corpus, file):
    m = manifest.load(corpus)
    source = next(s for s in m.sources if s.file == file)
    corrections = Corrections.load(corpus)
    return get_parser(source.parser)(source.path.read_text(encoding="utf-8"), source,
                                     corrections.for_file(file), {})


def test_a_synthetic_code_has_the_2007_structure_and_a_few_words_changed_per_law(corpus4):
    real = _parse(corpus4, synthetic.SOURCE_2007)
    syn = _parse(corpus4, "syn-2006.txt")
    assert [l.number for l in syn.laws] == list(range(1, 94))
    assert [[p.id for p in l.provisions] for l in syn.laws] == [[p.id for p in l.provisions] for l in real.laws]
    changed = 0
    for a, b in zip(real.laws, syn.laws):
        words_a = re.findall(r"\w+", " ".join(p.text or "" for p in a.provisions))
        words_b = re.findall(r"\w+", " ".join(p.text or "" for p in b.provisions))
        if words_a != words_b:
            changed += 1
            assert abs(len(words_a) - len(words_b)) <= 2 * synthetic.WORDS_PER_LAW, a.number
    assert changed >= 85  # all but the laws with tables (2, 77, 78) and a few short ones
