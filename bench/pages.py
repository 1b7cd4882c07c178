"""How fast the law pages render, and how heavy they are.

    python bench/pages.py [--data DIR] [--rounds N]

Serves every law page of every code edition through the real app (Flask's
test client, so the time is the app's own: routing, store reads, rendering,
compression; no network), `--rounds` times each after a warm-up, and prints:

* render time per request, p50 / p95 / max, and the slowest pages;
* page weight as sent (gzip), with the CSS and JS a first visit also loads;
* the same figures for a static file of the same size (a law page of median
  size, saved to disk) served the same way: read from disk by a Flask view
  and compressed by the same middleware.  The difference is what rendering
  from the store costs over serving pre-built files.

It reads the store in LAWS_DATA_DIR (default ./data): run
`flask --app app build` first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask import Response  # noqa: E402

from app import create_app  # noqa: E402

GZIP = {"Accept-Encoding": "gzip"}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def timed(client, url: str, rounds: int) -> tuple[list[float], int, int]:
    """(milliseconds per request, bytes sent gzipped, bytes uncompressed)."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = client.get(url, headers=GZIP)
        r.get_data()
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, (url, r.status_code)
    raw = client.get(url).get_data()
    return times, len(r.get_data()), len(raw)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("LAWS_DATA_DIR", str(ROOT / "data")))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)

    app = create_app({"DATA_DIR": args.data})
    static_dir = Path(tempfile.mkdtemp(prefix="lawbook-bench-"))

    @app.get("/bench/static-page")
    def static_page():  # a pre-built page: read from disk, compressed by the same middleware
        return Response((static_dir / "page.html").read_bytes(), mimetype="text/html")

    client = app.test_client()
    pages = client.get("/offline/pages.json").get_json()
    if pages is None:
        print("no store: run `flask --app app build` first", file=sys.stderr)
        return 1
    laws = [u for u in pages["pages"] if "/law/" in u]
    for url in laws:  # warm-up: caches of the store-derived values, template compilation
        client.get(url, headers=GZIP)

    all_times, per_page, weights, sizes = [], {}, [], []
    for url in laws:
        times, gz, raw = timed(client, url, args.rounds)
        all_times += times
        per_page[url] = statistics.median(times)
        weights.append(gz)
        sizes.append((raw, url))

    html = client.get(sorted(sizes)[len(sizes) // 2][1]).get_data()
    (static_dir / "page.html").write_bytes(html)
    s_times, s_gz, s_raw = timed(client, "/bench/static-page", max(args.rounds * 20, 50))

    home = client.get("/").get_data(as_text=True)
    import re
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', home)
    asset_gz = sum(len(client.get(a, headers=GZIP).get_data()) for a in assets if "print." not in a)

    print(f"law pages: {len(laws)} ({args.rounds} rounds each, Flask test client, gzip)")
    print(f"render time ms: p50 {pct(all_times, 50):.2f}  p95 {pct(all_times, 95):.2f}  max {max(all_times):.2f}")
    slow = sorted(per_page.items(), key=lambda kv: -kv[1])[:5]
    print("slowest (median ms): " + ", ".join(f"{u} {t:.2f}" for u, t in slow))
    print(f"page weight gzipped bytes: min {min(weights)}  median {statistics.median(weights):.0f}  "
          f"p95 {pct(weights, 95):.0f}  max {max(weights)}  "
          f"(uncompressed median {statistics.median(s for s, _ in sizes):.0f}, max {max(sizes)[0]})")
    print(f"first visit adds CSS+JS gzipped: {asset_gz} bytes ({len(assets) - 1} files, cached for a year)")
    print(f"static file of the same size ({s_raw} bytes, {s_gz} gzipped), same app and compression: "
          f"p50 {pct(s_times, 50):.2f}  p95 {pct(s_times, 95):.2f} ms")
    print(f"rendering costs {pct(all_times, 50) - pct(s_times, 50):+.2f} ms at p50 over the static file "
          f"({pct(all_times, 50) / max(pct(s_times, 50), 1e-9):.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
