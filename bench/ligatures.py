"""Lost-ligature and lost-hyphen repair (laws.ligatures) on the 2017 PDF text.

    python bench/ligatures.py              measure, print figures
    python bench/ligatures.py --repeat 10  more timed rounds

Prints: the time to load the lexicon (word list + clean corpus, once per
process); the time of `restore` over the whole file, p50 and max, beside a
baseline measured in the same run -- one pass that tokenises the file and
looks every token up in the same word list, the least any word-list repair
must do; the repairs by kind; the damage the test detector finds before and
after; and the uncertain readings.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

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
