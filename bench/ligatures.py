"""Lost-ligature and lost-hyphen repair (laws.ligatures) on the 2017 PDF text.

    python bench/ligatures.py              measure, print figures
    python bench/ligatures.py --repeat 10  more timed rounds
    python bench/ligatures.py --codes 1,31 the lexicon and the 2017 parse as the corpus grows

Prints: the time to load the lexicon (word list + clean corpus, once per
process); the time of `restore` over the whole file, p50 and max, beside a
baseline measured in the same run -- one pass that tokenises the file and
looks every token up in the same word list, the least any word-list repair
must do; the repairs by kind; the damage the test detector finds before and
after; and the uncertain readings.

With --codes, for corpora of 1 to N full codes (bench/synthetic.py: the real
corpus plus copies of the 2007 code): the time to make the lexicon the 2017
parse uses (`edition_lexicon`: the texts related to 2017) and the whole parse
of the 2017 PDF text, beside the same measured in the same run with the
lexicon made of every source of the corpus (`corpus_lexicon`, what the parse
used before), which grows with the corpus.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from laws import ligatures  # noqa: E402
from tests.test_ligatures import PDF_TEXT, Detector  # noqa: E402


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def parse_2017(corpus: Path, lexicon) -> float:
    """Seconds to parse the 2017 PDF text of `corpus`, its lexicon made by
    `lexicon(corpus_dir, edition)` (not cached between calls)."""
    from laws import manifest
    from laws.corrections import Corrections
    from laws.parsers import get

    source = next(s for s in manifest.load(corpus).sources if s.file == PDF_TEXT.name)
    text, corrections = source.path.read_bytes().decode(source.encoding), Corrections.load(corpus)
    made = ligatures.edition_lexicon
    ligatures.edition_lexicon = lexicon
    try:
        t0 = time.perf_counter()
        get(source.parser)(text, source, corrections, {})
        return time.perf_counter() - t0
    finally:
        ligatures.edition_lexicon = made


def scaling(sizes: list[int], repeat: int) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import synthetic  # bench/synthetic.py

    ligatures.english()  # the word list, read once per process either way
    related = ligatures.edition_lexicon.__wrapped__
    every = lambda corpus_dir, edition: ligatures.corpus_lexicon.__wrapped__(corpus_dir)  # noqa: E731
    parse_2017(ROOT / "corpus", related)  # warm: imports, compiled patterns
    tmp = Path(tempfile.mkdtemp(prefix="lawbook-ligatures-"))
    try:
        print("| full codes | lexicon: related texts, ms | lexicon: every source (before), ms "
              "| 2017 parse, s | 2017 parse with every source (before), s |")
        print("|---|---|---|---|---|")
        for n in sizes:
            corpus = synthetic.make_corpus(n, tmp / f"corpus-{n}")
            lex_new = timed(lambda: related(corpus, "2017"), repeat)
            lex_old = timed(lambda: every(corpus, "2017"), repeat)
            parse_new = [parse_2017(corpus, related) for _ in range(repeat)]
            parse_old = [parse_2017(corpus, every) for _ in range(repeat)]
            print(f"| {n} | {statistics.median(lex_new) * 1000:.0f} | {statistics.median(lex_old) * 1000:.0f} "
                  f"| {statistics.median(parse_new):.2f} | {statistics.median(parse_old):.2f} |", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--codes", help="full codes per corpus, comma-separated (1,31): the lexicon's growth")
    args = parser.parse_args()
    if args.codes:
        scaling([int(n) for n in args.codes.split(",") if n.strip()], max(1, min(args.repeat, 3)))
        return

    text = PDF_TEXT.read_bytes().decode("latin-1")
    t0 = time.perf_counter()
    lexicon = ligatures.default_lexicon()
    load = time.perf_counter() - t0

    known = lexicon.english
    baseline = timed(lambda: sum(w.lower() in known for w in re.findall(r"[A-Za-z]+", text)), args.repeat)
    repair = timed(lambda: ligatures.restore(text), args.repeat)
    fixed, made, uncertain = ligatures.restore(text)
    detector = Detector()

    print(f"file: {PDF_TEXT.name}, {len(text):,} characters, {len(re.findall('[A-Za-z]+', text)):,} words")
    print(f"lexicon load (once per process): {load * 1000:.0f} ms")
    print(f"restore, whole file:  p50 {statistics.median(repair) * 1000:.0f} ms, "
          f"max {max(repair) * 1000:.0f} ms ({args.repeat} rounds)")
    print(f"baseline (tokenise + look up every word): p50 {statistics.median(baseline) * 1000:.0f} ms"
          f"  -> restore costs {statistics.median(repair) / statistics.median(baseline):.1f}x the baseline")
    print(f"repairs: {len(made)} ({', '.join(f'{k} {n}' for k, n in Counter(c.kind for c in made).items())})")
    print(f"damage found by the test detector: before {len(detector.find(text))}, after {len(detector.find(fixed))}")
    print(f"uncertain: {len(uncertain)}")
    for c in uncertain:
        print(f"  {c.raw!r} -> {c.corrected!r}: {c.reason}")


if __name__ == "__main__":
    main()
