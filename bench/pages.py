"""How fast pages are served against a static file of the same size through
the same server, with the page cache off and on, how heavy they are, and
how fast they render.

    python bench/pages.py [--data DIR] [--rounds N] [--seconds S] [--no-load]

Part 1, throughput (`measure_pages`, for bench/scale.py to call too): gunicorn
with the production settings (laws.web.gunicorn_config) serves a build whose
pages the build pre-rendered (laws.web.prerender; `--data`'s when they were
made by this code, else a fresh build into a temporary folder), and wrk
drives, one after the other and `rounds` times in turn: (a) one law page,
(b) every law page of the code in force in turn, (c) a static file of the
same size (that law page's own HTML, given to the app as one more file of
static/ and sent as any asset is: from memory, precompressed), (d) the
code in force's official index and (e) a static file of the index's size,
each with `Accept-Encoding: br, gzip` as a browser sends, after a warm-up
of the same load.  Each ratio is a page's rate over its static file's rate
in the same run: the baseline is measured beside it, on the same machine
under the same load.  It runs twice: the page cache off
(`LAWS_PAGE_CACHE_MB=0`: each request reads the page's file) and on (the
default 24 MB).  The law page's ratio is the figure to hold at 0.9 or more.
Needs wrk (Debian: `apt-get install -y wrk`).

It also prints what a worker's first `/offline/pages.json` and
`/offline/editions/<id>.json` after a switch cost, made by the worker (as
before the build wrote them) and read from the build's files, and the
build's own time for the pages.

Part 2, rendering in-process:

Serves every law page of every code edition through the real app, its
pre-rendered files set aside (Flask's test client, so the time is the app's
own: routing, store reads, rendering, compression; no network),
`--rounds` times each after a warm-up, and prints:

* render time per request, p50 / p95 / max, and the slowest pages;
* page weight as sent (gzip), with the CSS and JS a first visit also loads;
* the same figures for a static file of the same size (a law page of median
  size, saved to disk) served the same way: read from disk by a Flask view
  and compressed by the same middleware.  The difference is what rendering
  from the store costs over serving pre-built files.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))  # after ROOT: bench/search.py must not hide the search package

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


STATIC_ENV = "LAWBOOK_BENCH_STATIC"  # "name=path;name=path": files bench_app adds to static/


def bench_app(config: dict | None = None):
    """The app as gunicorn serves it, with the files named in $LAWBOOK_BENCH_STATIC
    added to its static files (each sent as any file of static/ is: from
    memory, precompressed, at /static/<name with its hash>): the static
    files of the same size as the pages measured."""
    from laws.web import site

    app = create_app(config)
    assets = app.extensions["lawbook_assets"]
    for item in filter(None, os.environ.get(STATIC_ENV, "").split(";")):
        name, _, path = item.partition("=")
        data = Path(path).read_bytes()
        assets.files[name] = (data, hashlib.sha256(data).hexdigest()[:10], "text/html")
        assets.encoded[name] = {e: site._encode(data, e) for e in site.ENCODINGS}
    return app


def static_url(name: str, data: bytes) -> str:
    stem, _, ext = name.rpartition(".")
    return f"/static/{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{ext}"


def _law_page(app, page: str | None) -> tuple[str, list[str], str | None]:
    """(the law page to measure, every law page of the code in force, the
    code in force's official index or None): law 12 of 2007 when the store
    has it (the page issue 14 measured), else law 12 (or the first law) of
    the code in force."""
    from laws import queries
    from laws.build import current_store
    from laws import store

    conn = store.connect(current_store(Path(app.config["DATA_DIR"])))
    try:
        eds = [e for e in queries.editions(conn) if e["kind"] == "code" and e["laws"]]
        in_force = next((e for e in eds if e.get("in_force")), eds[-1])
        index = f"/{in_force['id']}/index" if queries.has_index(conn, in_force["id"]) else None
    finally:
        conn.close()
    laws = [f"/{in_force['id']}/law/{n}" for n in in_force["laws"]]
    if page:
        return page, laws, index
    for e in (next((e for e in eds if e["id"] == "2007"), None), in_force):
        if e:
            return f"/{e['id']}/law/{12 if 12 in e['laws'] else e['laws'][0]}", laws, index
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


def pages_ready(data_dir) -> bool:
    """Whether the build served in `data_dir` has pre-rendered pages made by
    this code (else the app renders them: not what this bench measures)."""
    from laws.web import pagefiles
    from laws.web.db import build_dir
    from laws.web.site import page_key

    app = create_app({"DATA_DIR": str(data_dir)})
    with app.test_request_context():
        try:
            return pagefiles.read_key(build_dir()) == page_key()
        except OSError:
            return False


def measure_pages(data_dir, seconds: int = 5, connections: int = 16, workers: int = 2, threads: int = 4,
                  page: str | None = None, rounds: int = 3, cache_mb: float | None = None) -> dict:
    """Page throughput against static files of the same sizes through the
    same gunicorn.

    `data_dir` holds a built store (its `current` build is served, from its
    pre-rendered files when it has them: `pages_ready`).  The runs (one law
    page, every law of the code in force in turn, a static file of the law
    page's size, the official index, a static file of its size) last
    `seconds` each and are taken in turn `rounds` times; rates are the
    means.  `cache_mb`: the page cache (LAWS_PAGE_CACHE_MB; None: the
    default).  Returns {"page": the law page measured, "page_rps",
    "pages_rps", "static_rps", "ratio" (page_rps / static_rps),
    "pages_ratio" (pages_rps / static_rps), "index", "index_rps",
    "static_index_rps", "index_ratio", "render_ms" (median of that page
    rendered, in-process), "page_kb" (its uncompressed size), "errors"
    (socket errors and non-2xx/3xx replies over every run), "rss_mb" (the
    largest worker's resident memory after the runs), "page_p99_ms",
    "static_p99_ms" (the worst round's), "from_files" (whether the pages
    were pre-rendered)}."""
    import serve

    serve.need_wrk()
    data_dir = Path(data_dir)
    app = create_app({"DATA_DIR": str(data_dir), "PAGE_CACHE_MB": 0, "PAGE_FILES": False})
    page, laws, index = _law_page(app, page)
    client = app.test_client()
    client.get(page)  # warm-up: the store's shared values, the templates
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        r = client.get(page)
        body = r.get_data()
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, (page, r.status_code)
    out = {"page": page, "render_ms": round(statistics.median(times), 2), "page_kb": round(len(body) / 1024, 1),
           "index": index, "from_files": pages_ready(data_dir), "cache_mb": cache_mb}
    with tempfile.TemporaryDirectory() as tmp:
        # the static files: each page's own HTML, so same size and same words
        runs = {"page": [page], "pages": laws}
        statics = {"static": ("bench/law-page.html", page)}
        if index:
            runs["index"] = [index]
            statics["static_index"] = ("bench/index-page.html", index)
        given = []
        for run, (name, url) in statics.items():
            html = client.get(url).get_data()
            (Path(tmp) / run).write_bytes(html)
            given.append(f"{name}={Path(tmp) / run}")
            runs[run] = [static_url(name, html)]
        env = {STATIC_ENV: ";".join(given)}
        if cache_mb is not None:
            env["LAWS_PAGE_CACHE_MB"] = str(cache_mb)
        with serve.gunicorn(data_dir, workers, threads, app="pages:bench_app()", env=env | {
                "PYTHONPATH": str(ROOT / "bench")}) as (base, proc):
            scripts = {}
            for name, urls in runs.items():
                scripts[name] = Path(tmp) / f"{name}.lua"
                scripts[name].write_text(_lua(urls))
                # warm-up, the same load for a few seconds: with the cache on,
                # every worker has kept every page of the run (its steady state)
                serve.run_wrk(base, scripts[name], urls[0], max(3, seconds // 2), connections)
            # the runs in turn, `rounds` times: a machine whose load drifts
            # (other work on it) weighs on all alike
            each: dict[str, list[dict]] = {name: [] for name in runs}
            for _ in range(rounds):
                for name, urls in runs.items():
                    each[name].append(serve.parse_wrk(serve.run_wrk(base, scripts[name], urls[0], seconds,
                                                                    connections)))
            got = {name: {"rps": sum(r["rps"] for r in rs) / len(rs), "p99": max(r["p99"] or 0 for r in rs),
                          "errors": sum(r["errors"] for r in rs)} for name, rs in each.items()}
            rss = [serve.rss_mb(pid) for pid in serve.workers_of(proc)]
    out.update(page_rps=round(got["page"]["rps"]), pages_rps=round(got["pages"]["rps"]),
               static_rps=round(got["static"]["rps"]),
               ratio=round(got["page"]["rps"] / got["static"]["rps"], 2),
               pages_ratio=round(got["pages"]["rps"] / got["static"]["rps"], 2),
               page_p99_ms=got["page"]["p99"], static_p99_ms=got["static"]["p99"],
               errors=sum(g["errors"] for g in got.values()), rss_mb=round(max(rss), 1) if rss else None)
    if index:
        out.update(index_rps=round(got["index"]["rps"]), static_index_rps=round(got["static_index"]["rps"]),
                   index_ratio=round(got["index"]["rps"] / got["static_index"]["rps"], 2))
    return out


def show_throughput(runs: list[dict], seconds: int, connections: int) -> None:
    print(f"throughput through gunicorn (production settings, 2 workers x 4 threads), wrk {connections} "
          f"connections, {seconds} s a run, each run 3 times in turn, br/gzip accepted; each page against "
          f"a static file of its own size (its HTML as a file of static/) in the same run:")
    print("| | " + " | ".join(_cache_label(m) for m in runs) + " |")
    print("|---|" + "---|" * len(runs))
    m0 = runs[0]
    rows = [
        (f"law page {m0['page']}, req/s (static file of its size)",
         lambda m: f"{m['page_rps']} ({m['static_rps']})"),
        ("**law page / static file**", lambda m: f"**{m['ratio']:.2f}x**"),
        ("every law of the code in force in turn / static", lambda m: f"{m['pages_ratio']:.2f}x"),
    ]
    if m0.get("index"):
        rows += [(f"official index {m0['index']}, req/s (static file of its size)",
                  lambda m: f"{m['index_rps']} ({m['static_index_rps']})"),
                 ("official index / static file", lambda m: f"{m['index_ratio']:.2f}x")]
    rows += [("law page p99 ms (static file's)", lambda m: f"{m['page_p99_ms']} ({m['static_p99_ms']})"),
             ("largest worker's memory after the runs, MB", lambda m: f"{m['rss_mb']}"),
             ("errors", lambda m: f"{m['errors']}")]
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(m) for m in runs) + " |")
    print(f"a law page rendered (no file, no cache) {m0['render_ms']} ms in-process, {m0['page_kb']} KB "
          f"uncompressed; pages served from the build's files: {'yes' if m0['from_files'] else 'NO (rendered)'}")


def _cache_label(m: dict) -> str:
    return "page cache off" if m["cache_mb"] == 0 else f"page cache on ({m['cache_mb'] or 24} MB)"


def offline_lists(data_dir) -> None:
    """A worker's first /offline/pages.json and /offline/editions/<id>.json
    after a switch: CPU seconds, made by the worker against read from the
    build's files (each in a new app: nothing kept from before)."""
    urls = ["/offline/pages.json"]
    app = create_app({"DATA_DIR": str(data_dir)})
    with app.test_request_context():
        from laws.web.site import code_edition_ids
        urls += [f"/offline/editions/{e}.json" for e in sorted(code_edition_ids())]
    print("a worker's first offline list after a switch, CPU ms (made by the worker / read from the build's file):")
    for url in urls:
        cpu = []
        for files in (False, True):
            fresh = create_app({"DATA_DIR": str(data_dir), "PAGE_FILES": files}).test_client()
            t0 = time.process_time()
            assert fresh.get(url).status_code == 200, url
            cpu.append((time.process_time() - t0) * 1000)
        print(f"  {url}: {cpu[0]:.0f} / {cpu[1]:.1f}")


def in_process_files(data_dir, page: str | None = None, batches: int = 12, each: int = 300) -> None:
    """CPU time per request in one process (Flask's test client, no server,
    no network, so the machine's other work weighs least): a law page sent
    from its pre-rendered file, the page cache off and on, against a static
    file of its size (its HTML as a file of static/), in alternating batches;
    best batch of each."""
    app = create_app({"DATA_DIR": str(data_dir), "PAGE_CACHE_MB": 0, "PAGE_FILES": False})
    page = _law_page(app, page)[0]
    html = app.test_client().get(page).get_data()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "page.html").write_bytes(html)
        os.environ[STATIC_ENV] = f"bench/law-page.html={Path(tmp) / 'page.html'}"
        try:
            print(f"in one process, CPU microseconds a request, best of {batches} batches of {each} "
                  f"(law page {page} from its file / a static file of its size):")
            for mb in (0, 24):
                client = bench_app({"DATA_DIR": str(data_dir), "PAGE_CACHE_MB": mb}).test_client()
                urls = {"page": page, "static": static_url("bench/law-page.html", html)}
                best = {k: float("inf") for k in urls}
                for _ in range(batches):
                    for k, url in urls.items():
                        t0 = time.process_time()
                        for _ in range(each):
                            client.get(url, headers=BROWSER)
                        best[k] = min(best[k], (time.process_time() - t0) / each * 1e6)
                label = "off" if mb == 0 else f"on ({mb} MB)"
                print(f"  page cache {label}: {best['page']:.0f} / {best['static']:.0f} us, as a rate "
                      f"page/static {best['static'] / best['page']:.2f}x")
        finally:
            os.environ.pop(STATIC_ENV, None)


@contextlib.contextmanager
def prerendered(given: str | None):
    """A data directory whose build has pages pre-rendered by this code:
    `given` when it has, else a fresh build (the build command's) into a
    temporary folder, whose time with and without the pages is printed."""
    if given and pages_ready(given):
        yield Path(given)
        return
    import app as app_module
    from laws.build import build

    with tempfile.TemporaryDirectory() as tmp:
        print(f"{given} has no pages pre-rendered by this code: building into a temporary folder ...", flush=True)
        t0 = time.perf_counter()
        build(ROOT / "corpus", Path(tmp) / "plain", echo=lambda *_: None)
        t1 = time.perf_counter()
        result = app_module.build_all(create_app({"DATA_DIR": tmp}), ROOT / "corpus", Path(tmp),
                                      echo=lambda *_: None)
        t2 = time.perf_counter()
        print(f"build without pages {t1 - t0:.2f} s, with them {t2 - t1:.2f} s "
              f"(pages {result.steps['pages']:.2f} s wall, {result.cpu['pages']:.2f} s CPU)")
        yield Path(tmp)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("LAWS_DATA_DIR", str(ROOT / "data")))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=5, help="length of each wrk run (each is taken three times)")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--no-load", action="store_true", help="skip the gunicorn throughput runs")
    ap.add_argument("--cache", choices=["off", "on", "both"], default="both",
                    help="the page cache for the throughput runs (default both: off, then on)")
    args = ap.parse_args(argv)

    with prerendered(args.data) as data:
        if not args.no_load:
            sizes = {"off": [0], "on": [None], "both": [0, None]}[args.cache]
            runs = [measure_pages(data, args.seconds, args.connections, cache_mb=mb) for mb in sizes]
            show_throughput(runs, args.seconds, args.connections)
        in_process_files(data)
        offline_lists(data)
        return in_process(str(data), args)


def in_process(data: str, args) -> int:
    app = create_app({"DATA_DIR": data, "PAGE_CACHE_MB": 0, "PAGE_FILES": False})
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

    print(f"law pages: {len(laws)} ({args.rounds} rounds each, Flask test client, gzip, rendered: "
          f"page cache and pre-rendered files off)")
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
