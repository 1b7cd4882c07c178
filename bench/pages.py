"""How fast the law pages render, how heavy they are, and how many a real
server sends a second against a static file.

    python bench/pages.py [--data DIR] [--rounds N] [--seconds S] [--no-load]

Part 1, throughput (`measure_pages`, for bench/scale.py to call too): gunicorn
with the production settings (laws.web.gunicorn_config) serves the store, and
wrk drives, one after the other from the same run, (a) one law page,
(b) every law page of the code in force in turn, (c) a static file (the
stylesheet, precompressed, from memory), each with `Accept-Encoding: br,
gzip` as a browser sends, after a warm-up of the same load.  The ratio
page/static is the figure to hold at 0.5 or more.  `render_ms` is the same
page rendered with the page cache off (what a first request after a rebuild
costs), `page_kb` its uncompressed weight.  Needs wrk (Debian: `apt-get
install -y wrk`).

Part 2, rendering in-process:

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
sys.path.insert(0, str(ROOT / "bench"))

from flask import Response  # noqa: E402

from app import create_app  # noqa: E402

GZIP = {"Accept-Encoding": "gzip"}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def every_law_page(app) -> list[str]:
    """Every law page of every code edition."""
    from laws import queries, store
    from laws.build import current_store

    conn = store.connect(current_store(Path(app.config["DATA_DIR"])))
    try:
        return [f"/{e['id']}/law/{n}" for e in queries.editions(conn) if e["kind"] == "code" for n in e["laws"]]
    finally:
        conn.close()


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


BROWSER = {"Accept-Encoding": "br, gzip"}


def _law_page(app, page: str | None) -> tuple[str, list[str]]:
    """(the law page to measure, every law page of the code in force): law 12
    of 2007 when the store has it (the page issue 14 measured), else law 12
    (or the first law) of the code in force."""
    from laws import queries
    from laws.build import current_store
    from laws import store

    conn = store.connect(current_store(Path(app.config["DATA_DIR"])))
    try:
        eds = [e for e in queries.editions(conn) if e["kind"] == "code" and e["laws"]]
    finally:
        conn.close()
    in_force = next((e for e in eds if e.get("in_force")), eds[-1])
    laws = [f"/{in_force['id']}/law/{n}" for n in in_force["laws"]]
    if page:
        return page, laws
    for e in (next((e for e in eds if e["id"] == "2007"), None), in_force):
        if e:
            return f"/{e['id']}/law/{12 if 12 in e['laws'] else e['laws'][0]}", laws
    raise AssertionError("unreachable")


def _lua(urls: list[str]) -> str:
    """wrk script: the given addresses in turn, as a browser asks for them."""
    lines = ['wrk.headers["Accept-Encoding"] = "br, gzip"', "local urls = {"]
    lines += [f'  "{u}",' for u in urls]
    lines += ["}", "local i = 0",
              "request = function() i = i % #urls + 1; return wrk.format(nil, urls[i]) end",
              "done = function(summary, latency, requests)",
              '  io.write(string.format("p99.9=%dus\\n", latency:percentile(99.9)))', "end"]
    return "\n".join(lines) + "\n"


def measure_pages(data_dir, seconds: int = 5, connections: int = 16, workers: int = 2, threads: int = 4,
                  page: str | None = None, rounds: int = 3) -> dict:
    """Law-page throughput against a static file through the same gunicorn.

    `data_dir` holds a built store (its `current` build is served).  The
    three runs (one page, every law of the code in force in turn, the static
    file) last `seconds` each and are taken in turn `rounds` times; rates are
    the means.  Returns {"page": the law page measured, "page_rps",
    "pages_rps", "static_rps", "ratio" (page_rps / static_rps),
    "pages_ratio" (pages_rps / static_rps), "render_ms" (median of that page
    rendered with the page cache off, in-process), "page_kb" (its
    uncompressed size), "errors" (socket errors and non-2xx/3xx replies over
    every run), "rss_mb" (the largest worker's resident memory after the
    runs, its page cache filled), "page_p99_ms", "static_p99_ms" (the worst
    round's)}."""
    import serve

    serve.need_wrk()
    data_dir = Path(data_dir)
    app = create_app({"DATA_DIR": str(data_dir), "PAGE_CACHE_MB": 0})
    page, laws = _law_page(app, page)
    client = app.test_client()
    client.get(page)  # warm-up: the store's shared values, the templates
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        r = client.get(page)
        body = r.get_data()
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, (page, r.status_code)
    with app.test_request_context():
        css = app.extensions["lawbook_assets"].url("site.css")
    out = {"page": page, "render_ms": round(statistics.median(times), 2), "page_kb": round(len(body) / 1024, 1)}
    with tempfile.TemporaryDirectory() as tmp, serve.gunicorn(data_dir, workers, threads) as (base, proc):
        runs = {"page": [page], "pages": laws, "static": [css]}
        scripts = {}
        for name, urls in runs.items():
            scripts[name] = Path(tmp) / f"{name}.lua"
            scripts[name].write_text(_lua(urls))
            # warm-up, the same load for a few seconds: every worker has rendered
            # every page of the run once (the per-build cache's steady state,
            # which a site reaches in its first minutes after a rebuild)
            serve.run_wrk(base, scripts[name], urls[0], max(3, seconds // 2), connections)
        # the three runs in turn, `rounds` times: a machine whose load drifts
        # (other work on it) weighs on all three alike
        each: dict[str, list[dict]] = {name: [] for name in runs}
        for _ in range(rounds):
            for name, urls in runs.items():
                each[name].append(serve.parse_wrk(serve.run_wrk(base, scripts[name], urls[0], seconds, connections)))
        got = {name: {"rps": sum(r["rps"] for r in rs) / len(rs), "p99": max(r["p99"] or 0 for r in rs),
                      "errors": sum(r["errors"] for r in rs)} for name, rs in each.items()}
        rss = [serve.rss_mb(pid) for pid in serve.workers_of(proc)]
    out.update(page_rps=round(got["page"]["rps"]), pages_rps=round(got["pages"]["rps"]),
               static_rps=round(got["static"]["rps"]),
               ratio=round(got["page"]["rps"] / got["static"]["rps"], 2),
               pages_ratio=round(got["pages"]["rps"] / got["static"]["rps"], 2),
               page_p99_ms=got["page"]["p99"], static_p99_ms=got["static"]["p99"],
               errors=sum(g["errors"] for g in got.values()), rss_mb=round(max(rss), 1) if rss else None)
    return out


def show_throughput(m: dict, seconds: int, connections: int) -> None:
    print(f"throughput through gunicorn (production settings, 2 workers x 4 threads), wrk {connections} "
          f"connections, {seconds} s a run, each run 3 times in turn, br/gzip accepted:")
    print(f"  law page {m['page']}: {m['page_rps']} req/s (p99 {m['page_p99_ms']} ms)")
    print(f"  every law page of the code in force in turn: {m['pages_rps']} req/s")
    print(f"  static file (the stylesheet): {m['static_rps']} req/s (p99 {m['static_p99_ms']} ms)")
    print(f"  ratio page/static {m['ratio']:.2f}, pages/static {m['pages_ratio']:.2f}; "
          f"a page rendered uncached {m['render_ms']} ms, {m['page_kb']} KB uncompressed; errors {m['errors']}")
    print(f"  largest worker's memory after the runs (page cache filled): {m['rss_mb']} MB")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("LAWS_DATA_DIR", str(ROOT / "data")))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=5, help="length of each wrk run (each is taken three times)")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--no-load", action="store_true", help="skip the gunicorn throughput runs")
    args = ap.parse_args(argv)

    if not args.no_load:
        show_throughput(measure_pages(args.data, args.seconds, args.connections), args.seconds, args.connections)
    app = create_app({"DATA_DIR": args.data, "PAGE_CACHE_MB": 0})
    static_dir = Path(tempfile.mkdtemp(prefix="lawbook-bench-"))

    @app.get("/bench/static-page")
    def static_page():  # a pre-built page: read from disk, compressed by the same middleware
        return Response((static_dir / "page.html").read_bytes(), mimetype="text/html")

    client = app.test_client()
    if client.get("/").status_code != 200:
        print("no store: run `flask --app app build` first", file=sys.stderr)
        return 1
    laws = every_law_page(app)
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

    print(f"law pages: {len(laws)} ({args.rounds} rounds each, Flask test client, gzip, page cache off)")
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
