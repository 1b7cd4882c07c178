"""How fast a ruling is, and how heavy the offline rulings data is.

    python bench/rulings.py [--rounds N]

The auction: every table situation of tests/fixtures/rulings_auction.json, in
both editions, through the Python ruling (`laws.rulings.auction.rule`:
parse, facts, walk) `--rounds` times, with p50 / p95 / max per ruling; as the
baseline in the same run, the `auction` checker (which only finds the
irregularity) on the same calls.

The play: every request of tests/fixtures/rulings_play.json (each case in
each edition it has an entry for: 2007, 2017, the 1993 rubber code) through
`laws.rulings.play.rule`, the same way; as the baseline in the same run, the
`revoke` checker (Law 64's trick transfer alone) on one request per play
request, in the same edition.

Then the size of the data files and of their gzip, which the phone keeps for
offline rulings (the bundles served at /rulings/auction.json and
/rulings/play.json add the text of every cited provision).
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
from laws.rulings import RulingError, auction, data, play  # noqa: E402


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


def play_rule(req):
    try:
        play.rule(req)
    except RulingError:  # the fixture's error cases: a refusal is a reply too
        pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()

    print("auction")
    cases = json.loads((ROOT / "tests/fixtures/rulings_auction.json").read_text())["cases"]
    reqs = [{"edition": ed, "dealer": c["dealer"], "calls": c["calls"], "findings": c["findings"]}
            for c in cases for ed in ("2007", "2017")]
    checker_inputs = [{"dealer": c["dealer"], "calls": [call for _, call in c["calls"]]} for c in cases] * 2
    auction.rule(reqs[0])  # warm-up: load the data files
    print(line("ruling (facts + walk)", timed(auction.rule, reqs, args.rounds)))
    print(line("baseline: auction checker", timed(lambda d: registry.run("auction", d), checker_inputs, args.rounds)))

    print("play")
    cases = json.loads((ROOT / "tests/fixtures/rulings_play.json").read_text())["cases"]
    editions = data.editions("play")
    reqs = [{"edition": ed, "contract": c["contract"], "declarer": c["declarer"], "play": c["play"],
             "findings": c["findings"]} for c in cases for ed in editions if ed in c]
    revoke_inputs = [{"edition": r["edition"], "won_by": "offending player", "later_tricks": 2} for r in reqs]
    play_rule(reqs[0])  # warm-up: load the data files
    counts = ", ".join(f"{ed} {sum(r['edition'] == ed for r in reqs)}" for ed in editions)
    print(f"{len(reqs)} requests ({counts})")
    print(line("ruling (facts + walk)", timed(play_rule, reqs, args.rounds)))
    print(line("baseline: revoke checker", timed(lambda d: registry.run("revoke", d), revoke_inputs, args.rounds)))

    for period in data.PERIODS:
        for ed, path in data.files(period).items():
            raw = path.read_bytes()
            print(f"data {period}/{path.name}: {len(raw) / 1024:.1f} KiB, gzip {len(gzip.compress(raw)) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
