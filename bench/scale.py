"""Lawbook at scale: build, store, search and pages with 1 to 31 full codes.

    python bench/scale.py [--sizes 1,4,11,31] [--seconds 5] [--keep DIR]
    python bench/scale.py --adding [--sizes 31]     builds that add (issue 24), against clean builds

For each size, from one run: a synthetic corpus (bench/synthetic.py: the real
corpus plus copies of the 2007 code, and every fourth one of the 2017 PDF
text, with a few words changed per law) is
written to a temporary folder and built, and the run prints

* build time (and its steps: parse, store, references, comparisons, search
  index ...); the store's size, apart: its search tables (if any), the rest,
  and of the rest the comparison tables; the search index directory's size;
* search (bench/search.py `measure_scale`): p50/p95 over the question set
  in process against SQLite FTS5 over the same texts (the baseline, in the
  same run), opening the index and the first search in a fresh process, and
  a gunicorn worker's RSS;
* pages (bench/pages.py `measure_pages`): a law page and every law of the
  code in force, sent from their pre-rendered files, against a static file
  of the same size through the same gunicorn with wrk, as ratios, with each
  worker's page cache off and on, with the page's weight and render time.

Sizes count full 93-law codes; "1" is today's corpus as it is (2007 and 2017
complete, the rubber code's Laws 41-71 and the guide), as in issue 14's table.
The targets (issue 14): 31 codes build in at most 15 s with a store under
40 MB; search p95 within 1.5x FTS5; first search under 50 ms; RSS under
100 MB; a law page at least 0.5x a static file.

Each measurement is one function (`build_figures` here, `measure_scale` and
`measure_pages` in the search and pages benches), so each figure has one
source.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import synthetic  # noqa: E402  (bench/synthetic.py)
import serve  # noqa: E402  (bench/serve.py: gunicorn, wrk, RSS)



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
    """Build `corpus` into `data` as `flask --app app build` does (the store,
    the index, then the pages pre-rendered: the step `pages`); seconds (total
    and per step), sizes in MB."""
    from app import build_all, create_app

    app = create_app({"DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})
    result = build_all(app, corpus, data, echo=lambda *_: None)
    db = result.path / "laws.db"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        comparisons = conn.execute("select count(*) from law_comparisons").fetchone()[0]
        pairs = conn.execute("select count(distinct from_edition || '>' || to_edition) from law_comparisons").fetchone()[0]
        codes = conn.execute("select count(*) from editions where kind = 'code' and laws like '%93]'").fetchone()[0]
        parts = store_parts(conn)
    finally:
        conn.close()
    return {"seconds": result.seconds, "steps": result.steps, "cpu": result.cpu, "store_mb": _size(db) / 2**20,
            "index_mb": _size(result.path / "index") / 2**20 if (result.path / "index").exists() else 0.0,
            **parts,
            "law_comparisons": comparisons, "pairs": pairs, "full_codes": codes, "build_dir": result.path}


def store_parts(conn) -> dict:
    """The store's pages by what holds them, in MB: its search tables (full-text
    virtual tables and their shadow tables, should the search keep any in the
    store: today its index is a directory of its own), the rest, and of the
    rest the comparison tables (laws/compare/stored.py's, with their indexes:
    the share issue 14 found at 82 %).  None each without dbstat."""
    fts = [name for name, sql in conn.execute("select name, sql from sqlite_master where type = 'table'")
           if sql and sql.upper().startswith("CREATE VIRTUAL TABLE") and " FTS" in sql.upper()]
    tables = {name: tbl for name, tbl in conn.execute("select name, tbl_name from sqlite_master")}

    def kind(name: str) -> str:
        base = tables.get(name, name)  # an index counts with its table
        if any(base == t or base.startswith(t + "_") for t in fts):
            return "search"
        if base in ("law_changes", "alignments", "law_comparisons", "alignment_evidence", "alignment_overrides"):
            return "comparisons"
        return "other"
    try:
        pages = conn.execute("select name, sum(pgsize) from dbstat group by name").fetchall()
    except sqlite3.OperationalError:  # SQLite built without dbstat
        return {"search_tables_mb": None, "comparison_mb": None, "store_rest_mb": None}
    sums = {"search": 0, "comparisons": 0, "other": 0}
    for name, size in pages:
        sums[kind(name)] += size
    return {"search_tables_mb": sums["search"] / 2**20, "comparison_mb": sums["comparisons"] / 2**20,
            "store_rest_mb": (sums["comparisons"] + sums["other"]) / 2**20}


# --- builds that add (issue 24) ----------------------------------------------------

def _timed_build(corpus: Path, data: Path, **kw) -> dict:
    """One build as the build command makes it (pages too); seconds, CPU,
    and the seconds of the parses and comparisons it made (its cache lines)."""
    from app import build_all, create_app

    lines: list[str] = []
    app = create_app({"DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})
    c0 = _cpu()
    t0 = time.perf_counter()
    result = build_all(app, corpus, data, echo=lines.append, **kw)
    made, step = {}, None
    for line in lines:
        if line.startswith(("parse: ", "comparisons: ", "search index: ")):
            step = line.split(":")[0]
        elif line.startswith("  made ") and step:
            made.setdefault(step, []).append((line[7:].rsplit(":", 1)[0], float(line.rsplit(" ", 2)[-2])))
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu() - c0, "steps": result.steps, "made": made,
            "path": result.path}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def adding_figures(n: int, tmp: Path) -> dict:
    """A corpus of `n` codes built with the cache; then, each against a clean
    build (no cache) of the same corpus in the same run: a rebuild with
    nothing changed (the build command's shortcut), the same without the
    shortcut (every step from the cache, the pages rendered again), and the
    corpus of n + 1 codes (one older synthetic code added: make_corpus is
    deterministic, so it is the first corpus and one code) built over it."""
    corpus, bigger = tmp / f"add-corpus-{n}", tmp / f"add-corpus-{n + 1}"
    synthetic.make_corpus(n, corpus)
    synthetic.make_corpus(n + 1, bigger)
    data = tmp / f"add-data-{n}"
    first = _timed_build(corpus, data, cache=True)
    figs = {"n": n, "clean": _timed_build(corpus, tmp / f"add-clean-{n}"), "first": first,
            "nothing": _timed_build(corpus, data, cache=True, reuse_current=True),
            "all_cached": _timed_build(corpus, data, cache=True),
            "clean_bigger": _timed_build(bigger, tmp / f"add-clean-{n + 1}"),
            "old_code": _timed_build(bigger, data, cache=True)}
    return figs


def report_adding(f: dict) -> None:
    clean, bigger = f["clean"], f["clean_bigger"]

    def line(label: str, fig: dict, base: dict) -> None:
        made = {k: sum(s for _, s in v) for k, v in fig["made"].items()}
        beyond = fig["cpu"] - made.get("parse", 0.0) - made.get("comparisons", 0.0)
        print(f"| {label} | {fig['seconds']:.2f} ({fig['cpu']:.2f}) | {base['seconds']:.2f} ({base['cpu']:.2f}) | "
              f"{fig['seconds'] / max(base['seconds'], 1e-9):.2f}x | "
              f"{'; '.join(f'{k}: ' + ', '.join(w for w, _ in v) for k, v in fig['made'].items()) or 'nothing'} | "
              f"{beyond:.2f} | {fig['steps'].get('pages', 0.0):.2f} |")

    print(f"\n{f['n']} codes, builds that add (each against a clean build, no cache, of the same corpus, this run)")
    print("| build | s wall (CPU) | clean build, s wall (CPU) | ratio | made | CPU beyond what it made, s "
          "| of which pages, s wall |")
    print("|---|---|---|---|---|---|---|")
    line("first, cache empty", f["first"], clean)
    line("nothing changed (shortcut)", f["nothing"], clean)
    line("nothing changed, every step from the cache", f["all_cached"], clean)
    line("an old code added", f["old_code"], bigger)


# --- search --------------------------------------------------------------------

def search_figures(data: Path, serve_too: bool) -> dict:
    """bench/search.py's measure_scale: p50/p95 in process against FTS5 over
    the same texts in the same run, opening the index and the first search in
    a fresh process, and (with serve_too) a gunicorn worker's RSS."""
    return _bench_module("search").measure_scale(data, repeat=3, rss=serve_too)


def page_figures(data: Path, seconds: int) -> dict:
    """bench/pages.py's measure_pages: a law page and every law of the code in
    force against a static file of the same size through the same gunicorn
    (production settings), taken in turn three times, with each worker's page
    cache off (the pages sent from their pre-rendered files) and on."""
    pages = _bench_module("pages")
    return {"off": pages.measure_pages(data, seconds=seconds, cache_mb=0),
            "on": pages.measure_pages(data, seconds=seconds)}


# --- the run ---------------------------------------------------------------------------

def measure(n: int, tmp: Path, seconds: int, serve_too: bool) -> dict:
    corpus = synthetic.make_corpus(n, tmp / f"corpus-{n}")
    data = tmp / f"data-{n}"
    fig = {"n": n, **build_figures(corpus, data)}
    fig["search"] = search_figures(data, serve_too)
    if serve_too:
        fig["pages"] = page_figures(data, seconds)
    return fig


def _ratio(search: dict, key: str) -> str:
    """Lawbook's figure `key` over FTS5's (`fts5_<key>`), as 0.85x."""
    return f"{search[key] / max(search['fts5_' + key], 1e-9):.2f}x"


def _mb(value: float | None) -> str:
    return f"{value:.1f}" if value is not None else "?"


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
    row("build, s wall (CPU)", lambda f: f"{f['seconds']:.1f} ({sum(f['cpu'].values()):.1f})")
    for step in figs[0]["steps"]:
        row(f"  of which {step}, s wall (CPU)", lambda f, s=step: f"{f['steps'][s]:.1f} ({f['cpu'][s]:.1f})")
    row("comparisons stored (pairs / laws)", lambda f: f"{f['pairs']} / {f['law_comparisons']}")
    row("store, MB", lambda f: f"{f['store_mb']:.1f}")
    row("  of which search tables, MB", lambda f: _mb(f["search_tables_mb"]))
    row("  store without search tables, MB", lambda f: _mb(f["store_rest_mb"]))
    row("    of which comparisons, MB (share)", lambda f: (
        f"{f['comparison_mb']:.1f} ({100 * f['comparison_mb'] / max(f['store_rest_mb'], 1e-9):.0f} %)"
        if f["comparison_mb"] is not None else "?"))
    row("search index, MB", lambda f: f"{f['index_mb']:.1f}")
    row("search p50 / p95, ms", lambda f: f"{f['search']['p50']:.1f} / {f['search']['p95']:.1f}")
    row("FTS5 p50 / p95, ms (same texts)", lambda f: f"{f['search']['fts5_p50']:.1f} / {f['search']['fts5_p95']:.1f}")
    row("p95 / FTS5 p95", lambda f: _ratio(f["search"], "p95"))
    row("first sight p95, ms (FTS5)", lambda f: f"{f['search']['first_p95']:.1f} ({f['search']['fts5_first_p95']:.1f})")
    row("first sight p95 / FTS5 p95", lambda f: _ratio(f["search"], "first_p95"))
    row("FTS5 over every edition p95, ms", lambda f: f"{f['search']['fts5_all_p95']:.1f}")
    row("opening the index / first search, ms", lambda f: f"{f['search']['open_ms']:.0f} / {f['search']['first_search_ms']:.0f}")
    row("search worker RSS, MB", lambda f: f"{f['search']['rss_mb']:.0f}")
    for cache in ("off", "on"):
        row(f"law page req/s / static req/s, page cache {cache}",
            lambda f, c=cache: f"{f['pages'][c]['page_rps']:.0f} / {f['pages'][c]['static_rps']:.0f}")
        row(f"page / static (every law in turn), page cache {cache}",
            lambda f, c=cache: f"{f['pages'][c]['ratio']:.2f}x ({f['pages'][c]['pages_ratio']:.2f}x)")
        row(f"page worker RSS, MB, page cache {cache}", lambda f, c=cache: f"{f['pages'][c]['rss_mb']:.0f}")
    row("law page raw KB / render ms", lambda f: f"{f['pages']['off']['page_kb']:.0f} / {f['pages']['off']['render_ms']:.1f}")
    row("errors (wrk)", lambda f: str(f['pages']['off']['errors'] + f['pages']['on']['errors']))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,4,11,31", help="full codes per corpus, comma-separated (default 1,4,11,31)")
    ap.add_argument("--seconds", type=int, default=5, help="wrk run per URL (default 5)")
    ap.add_argument("--no-serve", action="store_true", help="build and in-process search only (no gunicorn, no wrk)")
    ap.add_argument("--keep", type=Path, help="write the corpora and builds here and keep them")
    ap.add_argument("--adding", action="store_true",
                    help="only the builds that add: for each size, cached rebuilds against clean builds")
    args = ap.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error("--sizes takes numbers: 1,4,11,31")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes: at least one size, each at least 1")
    if not args.no_serve and not args.adding:
        serve.need_wrk()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="lawbook-scale-"))
    tmp.mkdir(parents=True, exist_ok=True)
    figs = []
    try:
        if args.adding:
            for n in sizes:
                report_adding(adding_figures(n, tmp))
            return 0
        for n in sizes:
            t0 = time.perf_counter()
            fig = measure(n, tmp, args.seconds, not args.no_serve)
            figs.append(fig)
            print(f"{n} codes: built in {fig['seconds']:.1f} s "
                  f"({', '.join(f'{k} {v:.1f}' for k, v in fig['steps'].items())}), store {fig['store_mb']:.1f} MB "
                  f"(comparisons {_mb(fig['comparison_mb'])}, search tables {_mb(fig['search_tables_mb'])}), "
                  f"index {fig['index_mb']:.1f} MB, "
                  f"measured in {time.perf_counter() - t0:.0f} s", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    report(figs)
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores (wall times stretch with it; CPU times much less)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
