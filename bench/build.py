"""How long the whole build takes and how big the store is.

    python bench/build.py [--runs N]

Builds corpus/ into a temporary data directory N times (default 3) and prints
the build's own summary (per edition: counts and parse time), the total build
time (best and median), and the size of the store and index.  For
comparison in the same run it times the floor of any build: reading and
hashing the corpus files and copying them into a fresh SQLite file.
"""
from __future__ import annotations

import argparse
import statistics
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from laws import build as build_mod  # noqa: E402


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def _floor(corpus: Path, out: Path) -> float:
    """Read every corpus file into one table of a new SQLite file."""
    t0 = time.perf_counter()
    conn = sqlite3.connect(out)
    conn.execute("create table f (name text primary key, body blob)")
    conn.executemany("insert into f values (?, ?)",
                     [(p.name, p.read_bytes()) for p in sorted(corpus.iterdir()) if p.is_file()])
    conn.commit()
    conn.close()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    corpus = ROOT / "corpus"
    times, floors = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            data = Path(tmp) / f"data{i}"
            t0 = time.perf_counter()
            result = build_mod.build(corpus, data, echo=(print if i == 0 else (lambda *_: None)))
            times.append(time.perf_counter() - t0)
            floors.append(_floor(corpus, Path(tmp) / f"floor{i}.db"))
        db = result.path / "laws.db"
        index = result.path / "index"
        print()
        print(f"build time      best {min(times):.2f} s   median {statistics.median(times):.2f} s   ({args.runs} runs)")
        print(f"baseline        best {min(floors) * 1000:.1f} ms  (read the corpus into a fresh SQLite file)")
        print(f"store size      {_size(db) / 1024:.0f} KiB  ({db.name})")
        if index.exists():
            print(f"index size      {_size(index) / 1024:.0f} KiB  (search index)")
        print(f"corpus size     {_size(corpus) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
