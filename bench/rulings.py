"""How fast a ruling is, and how heavy the offline rulings data is.

    python bench/rulings.py [--rounds N]

Runs every table situation of tests/fixtures/rulings_auction.json, in both
editions, through the Python ruling (`laws.rulings.auction.rule`: parse,
facts, walk) `--rounds` times and prints p50 / p95 / max per ruling; as the
baseline in the same run, the `auction` checker (which only finds the
irregularity) on the same calls.  Then the size of the data files and of
their gzip, which the phone keeps for offline rulings (the bundle served at
/rulings/auction.json adds the text of every cited provision).
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from laws.checkers import registry  # noqa: E402
from laws.rulings import auction, data  # noqa: E402


def timed(fn, items, rounds):
    out = []
    for _ in range(rounds):
        for item in items:
            t = time.perf_counter()
            fn(item)
            out.append((time.perf_counter() - t) * 1e6)
    out.sort()
    return out


def line(name, us):
    return (f"{name:<34} p50 {statistics.median(us):8.1f} µs   p95 {us[int(len(us) * .95)]:8.1f} µs"
            f"   max {us[-1]:8.1f} µs   ({len(us)} runs)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    cases = json.loads((ROOT / "tests/fixtures/rulings_auction.json").read_text())["cases"]
    reqs = [{"edition": ed, "dealer": c["dealer"], "calls": c["calls"], "findings": c["findings"]}
            for c in cases for ed in ("2007", "2017")]
    checker_inputs = [{"dealer": c["dealer"], "calls": [call for _, call in c["calls"]]} for c in cases] * 2
    auction.rule(reqs[0])  # warm-up: load the data files
    print(line("ruling (facts + walk)", timed(auction.rule, reqs, args.rounds)))
    print(line("baseline: auction checker", timed(lambda d: registry.run("auction", d), checker_inputs, args.rounds)))
    for ed, path in data.files("auction").items():
        raw = path.read_bytes()
        print(f"data {path.name}: {len(raw) / 1024:.1f} KiB, gzip {len(gzip.compress(raw)) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
