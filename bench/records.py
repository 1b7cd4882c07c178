"""How fast a ruling record is made, and how heavy the phone's data for it is.

    python bench/records.py [--data DIR] [--rounds N]

Makes the record of every auction and play fixture case (both editions) and
of every guided ending through the real app (`/rulings/record.txt` by
Flask's test client: parse the address, rule, replay the questions, read
the provision texts, render), `--rounds` times each after a warm-up, and
prints p50 / p95 / max per record; as the baseline in the same run, the
ruling page of the same address (the same ruling without its record). Then
a record carrying three checker results (two scores and their weighting)
against the same record without them. Then the size of the data the phone
keeps to make records offline (/rulings/guided.json, auction.json,
play.json), raw and gzipped.

It reads the store in LAWS_DATA_DIR (default ./data): run
`flask --app app build` first.
"""
from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from app import create_app  # noqa: E402
from test_rulings_record import UI_TO_ADJUSTED, WEIGHTED, all_args  # noqa: E402

from laws.rulings import guided  # noqa: E402


def timed(client, urls, rounds):
    out = []
    for url in urls:
        client.get(url)  # warm-up
    for _ in range(rounds):
        for url in urls:
            t = time.perf_counter()
            r = client.get(url)
            out.append((time.perf_counter() - t) * 1e3)
            assert r.status_code in (200, 400), (url, r.status_code)
    out.sort()
    return out


def line(name, ms):
    return (f"{name:<40} p50 {statistics.median(ms):7.2f} ms   p95 {ms[int(len(ms) * .95)]:7.2f} ms"
            f"   max {ms[-1]:7.2f} ms   ({len(ms)} runs)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.environ.get("LAWS_DATA_DIR", str(ROOT / "data")))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    client = create_app({"DATA_DIR": args.data}).test_client()

    mechanical = all_args()
    endings = [{"procedure": p, "edition": ed, **answers} for ed in ("2017", "2007")
               for p in guided.load()[ed]["kinds"] for answers, _ in guided.endings(guided.load()[ed], p)]
    records = [f"/rulings/record.txt?{urlencode(a)}" for a in mechanical + endings]
    pages = [f"/rulings/{a['procedure']}?{urlencode({k: v for k, v in a.items() if k != 'procedure'})}"
             for a in mechanical]
    pages += [f"/rulings/guided/{a['procedure']}?{urlencode({k: v for k, v in a.items() if k != 'procedure'})}"
              for a in endings]
    print(line("record (.txt), every case and ending", timed(client, records, args.rounds)))
    print(line("baseline: the ruling page, same address", timed(client, pages, args.rounds)))

    ui = [("procedure", "unauthorized-information"), ("edition", "2017"), *UI_TO_ADJUSTED.items()]
    print(line("record carrying 3 checker results", timed(client, [f"/rulings/record.txt?{urlencode(ui + WEIGHTED)}"] * 20,
                                                        args.rounds)))
    print(line("baseline: the same record without them", timed(client, [f"/rulings/record.txt?{urlencode(ui)}"] * 20,
                                                             args.rounds)))
    for url in ("/rulings/guided.json", "/rulings/auction.json", "/rulings/play.json"):
        raw = client.get(url).get_data()
        print(f"{url:<24} {len(raw) / 1024:7.1f} KiB, gzip {len(gzip.compress(raw)) / 1024:6.1f} KiB")


if __name__ == "__main__":
    main()
