"""Lawbook at scale: build, store, search and pages with 1 to 31 full codes.

    python bench/scale.py [--sizes 1,4,11,31] [--seconds 5] [--keep DIR]

For each size, from one run: a synthetic corpus (bench/synthetic.py: the real
corpus plus copies of the 2007 code with a few words changed per law) is
written to a temporary folder and built, and the run prints

* build time (and its steps: parse, store, references, comparisons, search
  index ...), store and search-index size;
* search p50/p95 over the question set (bench/questions.tsv), in process,
  against SQLite FTS5 over the same texts (the baseline, in the same run);
* first search after a worker starts (gunicorn, one worker, after it answers
  its first page), and worker RSS after warm-up;
* law-page throughput (/2007/law/12) against a static file (the stylesheet)
  through the same gunicorn with wrk, as a ratio.

Sizes count full 93-law codes; "1" is today's corpus as it is (2007 and 2017
complete, the rubber code's Laws 41-71 and the guide), as in issue 14's table.
The targets (issue 14): 31 codes build in at most 15 s with a store under
40 MB; search p95 within 1.5x FTS5; first search under 50 ms; RSS under
100 MB; a law page at least 0.5x a static file.

Each measurement is a function below (`build_figures`, `search_figures`,
`first_search_figures`, `throughput_figures`), so that the search and pages
benches can supply their own.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import synthetic  # noqa: E402  (bench/synthetic.py)
import serve  # noqa: E402  (bench/serve.py: gunicorn, wrk, RSS)

PAGE = "/2007/law/12"


def _bench_module(name: str):
    """bench/<name>.py by path (bench/search.py would otherwise shadow the
    `search` package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


# --- build and store -------------------------------------------------------------

def build_figures(corpus: Path, data: Path) -> dict:
    """Build `corpus` into `data`; seconds (total and per step), sizes in MB."""
    from laws.build import build

    result = build(corpus, data, echo=lambda *_: None)
    db = result.path / "laws.db"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        comparisons = conn.execute("select count(*) from law_comparisons").fetchone()[0]
        pairs = conn.execute("select count(distinct from_edition || '>' || to_edition) from law_comparisons").fetchone()[0]
        codes = conn.execute("select count(*) from editions where kind = 'code' and laws like '%93]'").fetchone()[0]
        # what the comparison tables weigh: the share issue 14 found at 82 %
        try:
            align_bytes = conn.execute("select sum(pgsize) from dbstat where name like 'alignments%' "
                                       "or name like 'law_comparisons%' or name like 'sqlite_autoindex_alignments%' "
                                       "or name like 'sqlite_autoindex_law_comparisons%'").fetchone()[0] or 0
        except sqlite3.OperationalError:  # SQLite built without dbstat
            align_bytes = None
    finally:
        conn.close()
    return {"seconds": result.seconds, "steps": result.steps, "store_mb": _size(db) / 2**20,
            "index_mb": _size(result.path / "index") / 2**20 if (result.path / "index").exists() else 0.0,
            "comparison_mb": align_bytes / 2**20 if align_bytes is not None else None,
            "law_comparisons": comparisons, "pairs": pairs, "full_codes": codes, "build_dir": result.path}


# --- search --------------------------------------------------------------------

def _questions() -> list[str]:
    from search.evaluate import load
    return [q for q, _answers, _kind in load()]


def search_figures(build_dir: Path, rounds: int = 3) -> dict:
    """Search p50/p95 (ms) over the question set, in process, against FTS5
    over the same texts (bench/search.py's baseline table), same run."""
    from search.query import Searcher

    bsearch = _bench_module("search")
    questions = _questions()
    searcher = Searcher.open(build_dir / "index")
    with tempfile.TemporaryDirectory() as tmp:
        fts = bsearch.build_fts(build_dir / "laws.db", Path(tmp) / "fts.db")
        ours, base = [], []
        for q in questions:  # warm-up: caches of terms and postings
            searcher.search(q, limit=5)
            bsearch.fts_search(fts, q)
        for _ in range(rounds):
            for q in questions:
                t0 = time.perf_counter()
                searcher.search(q, limit=5)
                t1 = time.perf_counter()
                bsearch.fts_search(fts, q)
                t2 = time.perf_counter()
                ours.append((t1 - t0) * 1000)
                base.append((t2 - t1) * 1000)
        fts.close()
    return {"p50": pct(ours, 50), "p95": pct(ours, 95), "fts_p50": pct(base, 50), "fts_p95": pct(base, 95),
            "queries": len(ours)}


# --- a gunicorn of our own, for the first search ----------------------------------

def _get(url: str, timeout: float = 30) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def first_search_figures(data: Path, query: str = "lead out of turn") -> dict:
    """Start gunicorn with one worker; once it answers a page, time its first
    search (ms); also how long the worker took to be ready (s)."""
    port = serve.free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(data), "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "2"}
    base = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:laws.web.gunicorn_config",
                             "-b", f"127.0.0.1:{port}", "app:create_app()"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                _get(f"{base}/api/editions", timeout=60)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.1)
        ready = time.perf_counter() - t0
        t1 = time.perf_counter()
        _get(f"{base}/api/search?q={urllib.request.quote(query)}")
        first = (time.perf_counter() - t1) * 1000
        t2 = time.perf_counter()
        _get(f"{base}/api/search?q={urllib.request.quote(query)}")
        second = (time.perf_counter() - t2) * 1000
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    return {"first_ms": first, "second_ms": second, "ready_s": ready}


# --- pages against a static file ----------------------------------------------------

def throughput_figures(data: Path, seconds: int = 5) -> dict:
    """wrk against a law page and against the stylesheet through the same
    gunicorn (2 workers, production settings); requests/s of each, and the
    workers' RSS (MB) after warm-up and the runs."""
    with serve.gunicorn(data) as (base, proc):
        for q in _questions()[:40]:  # warm-up: the searches a worker sees first
            _get(f"{base}/api/search?q={urllib.request.quote(q)}")
        home = _get(f"{base}/").decode()
        import re
        css = re.search(r'href="(/static/site[^"]*\.css)"', home)
        static = css[1] if css else "/static/site.css"
        _get(base + PAGE)
        page = serve.parse_wrk(serve.run_wrk(base, None, PAGE, seconds=seconds, connections=20))
        stat = serve.parse_wrk(serve.run_wrk(base, None, static, seconds=seconds, connections=20))
        rss = [serve.rss_mb(pid) for pid in serve.workers_of(proc)]
    return {"page_rps": page["rps"], "static_rps": stat["rps"], "ratio": page["rps"] / max(stat["rps"], 1e-9),
            "page_kb": len(_get_raw(data, PAGE)) / 1024, "rss_mb": max(rss) if rss else None,
            "errors": page["errors"] + stat["errors"]}


def _get_raw(data: Path, path: str) -> bytes:
    """The page's uncompressed bytes, from the app in process."""
    from app import create_app
    return create_app({"DATA_DIR": str(data)}).test_client().get(path).get_data()


# --- the run ---------------------------------------------------------------------------

def measure(n: int, tmp: Path, seconds: int, serve_too: bool) -> dict:
    corpus = synthetic.make_corpus(n, tmp / f"corpus-{n}")
    data = tmp / f"data-{n}"
    fig = {"n": n, **build_figures(corpus, data)}
    fig["search"] = search_figures(fig["build_dir"])
    if serve_too:
        fig["first"] = first_search_figures(data)
        fig["pages"] = throughput_figures(data, seconds)
    return fig


def report(figs: list[dict]) -> None:
    def row(label, fn):
        cells = []
        for f in figs:
            try:
                cells.append(fn(f))
            except (KeyError, TypeError):
                cells.append("")
        print(f"| {label} | " + " | ".join(cells) + " |")

    print()
    print("| full codes | " + " | ".join(str(f["n"]) for f in figs) + " |")
    print("|---|" + "---|" * len(figs))
    row("build, s", lambda f: f"{f['seconds']:.1f}")
    for step in figs[0]["steps"]:
        row(f"  of which {step}, s", lambda f, s=step: f"{f['steps'][s]:.1f}")
    row("comparisons stored (pairs / laws)", lambda f: f"{f['pairs']} / {f['law_comparisons']}")
    row("store, MB", lambda f: f"{f['store_mb']:.1f}")
    row("  of which comparisons, MB", lambda f: f"{f['comparison_mb']:.1f}" if f["comparison_mb"] is not None else "?")
    row("search index, MB", lambda f: f"{f['index_mb']:.1f}")
    row("search p50 / p95, ms", lambda f: f"{f['search']['p50']:.1f} / {f['search']['p95']:.1f}")
    row("FTS5 p50 / p95, ms", lambda f: f"{f['search']['fts_p50']:.1f} / {f['search']['fts_p95']:.1f}")
    row("p95 / FTS5 p95", lambda f: f"{f['search']['p95'] / max(f['search']['fts_p95'], 1e-9):.1f}x")
    row("first search, ms (worker ready, s)", lambda f: f"{f['first']['first_ms']:.0f} ({f['first']['ready_s']:.1f})")
    row("worker RSS after warm-up, MB", lambda f: f"{f['pages']['rss_mb']:.0f}")
    row(f"{PAGE} req/s / static req/s", lambda f: f"{f['pages']['page_rps']:.0f} / {f['pages']['static_rps']:.0f}")
    row("page / static", lambda f: f"{f['pages']['ratio']:.2f}x")
    row(f"{PAGE} raw KB", lambda f: f"{f['pages']['page_kb']:.0f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,4,11,31", help="full codes per corpus, comma-separated (default 1,4,11,31)")
    ap.add_argument("--seconds", type=int, default=5, help="wrk run per URL (default 5)")
    ap.add_argument("--no-serve", action="store_true", help="build and in-process search only (no gunicorn, no wrk)")
    ap.add_argument("--keep", type=Path, help="write the corpora and builds here and keep them")
    args = ap.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error("--sizes takes numbers: 1,4,11,31")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes: at least one size, each at least 1")
    if not args.no_serve:
        serve.need_wrk()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="lawbook-scale-"))
    tmp.mkdir(parents=True, exist_ok=True)
    figs = []
    try:
        for n in sizes:
            t0 = time.perf_counter()
            fig = measure(n, tmp, args.seconds, not args.no_serve)
            figs.append(fig)
            print(f"{n} codes: built in {fig['seconds']:.1f} s "
                  f"({', '.join(f'{k} {v:.1f}' for k, v in fig['steps'].items())}), store {fig['store_mb']:.1f} MB, "
                  f"measured in {time.perf_counter() - t0:.0f} s", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    report(figs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
