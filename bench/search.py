"""Search benchmark: Lawbook's Whoosh search against plain SQLite FTS5, side by side.

    python bench/search.py                 build the corpus into a temp dir, then measure
    python bench/search.py --data ./data   use an existing build (LAWS_DATA_DIR layout)
    python bench/search.py --repeat 20     more timed rounds

For each of the development questions (tests/data/search-dev-queries.tsv) it
measures, for both engines:

* latency in-process: the first ("cold") round on a freshly opened index, and
  then `--repeat` warm rounds, p50 and p95;
* latency over HTTP: a real server on 127.0.0.1 (a free port, loopback only)
  answering /api/search (Lawbook) and /fts (the FTS5 baseline), p50 and p95;
* relevance: how many questions have a right law in the top five, by the rule
  of tests/test_search_relevance.py.

The FTS5 baseline indexes the same documents (provisions with their law
title and heading, definitions, guide topics) with `tokenize='porter
unicode61'` and ranks by bm25(); the query is the question's words OR-ed,
which is what a plain full-text search box does.
"""
from __future__ import annotations

import argparse
import json
import logging
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from laws.build import build, current_store  # noqa: E402
from search.query import Searcher  # noqa: E402
from tests.test_search_relevance import DEV, answered, load  # noqa: E402


# The issue's own examples, what a director types at the table (not used for
# tuning either); shown beside the development questions.
TABLE_TALK = [
    ("lead out of turn", {53, 54, 55, 56}), ("partner hesitated", {16, 73}), ("UI", {16}),
    ("revoke 12th trick", {62}), ("27B1", {27}), ("unauthorised", {16}), ("insuficient bid", {27}),
    ("LOOT", {53, 54, 55, 56}), ("BIT", {16, 73}), ("MPC", {50}),
]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# --- the FTS5 baseline ----------------------------------------------------------

def build_fts(store: Path, out: Path) -> sqlite3.Connection:
    src = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    conn = sqlite3.connect(out, check_same_thread=False)
    conn.execute("create virtual table docs using fts5(kind unindexed, edition unindexed, law unindexed, "
                 "provision unindexed, title, heading, text, tokenize='porter unicode61')")
    conn.executemany("insert into docs values ('law', ?, ?, ?, ?, ?, ?)", src.execute(
        "select p.edition, p.law, p.id, l.title, coalesce(p.heading, ''), coalesce(p.text, '') "
        "from provisions p join laws l on l.edition = p.edition and l.number = p.law"))
    conn.executemany("insert into docs values ('definition', ?, null, ?, ?, '', ?)",
                     src.execute("select edition, id, term, text from definitions"))
    conn.executemany("insert into docs values ('guide', ?, null, ?, ?, '', ?)",
                     src.execute("select edition, id, title, text from topics"))
    conn.commit()
    return conn


def fts_search(conn: sqlite3.Connection, q: str, limit: int = 5) -> list[dict]:
    words = re.findall(r"\w+", q.lower())
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    rows = conn.execute("select kind, edition, law, provision from docs where docs match ? "
                        "order by bm25(docs) limit ?", (match, limit)).fetchall()
    return [{"kind": k, "edition": e, "law": int(n) if n is not None else None, "provision": p}
            for k, e, n, p in rows]


# --- the HTTP server ------------------------------------------------------------------

def serve(data_dir: Path, fts: sqlite3.Connection):
    from flask import jsonify, request
    from werkzeug.serving import make_server

    from app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"DATA_DIR": str(data_dir)})
    lock = threading.Lock()

    @app.get("/fts")
    def fts_endpoint():
        with lock:
            return jsonify({"results": fts_search(fts, request.args.get("q", ""), int(request.args.get("limit", 5)))})

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help="an existing data directory (default: build into a temp dir)")
    ap.add_argument("--repeat", type=int, default=10, help="warm rounds (default 10)")
    ap.add_argument("--queries", type=Path, default=DEV)
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="lawbook-bench-"))
    data = args.data
    if data is None:
        data = tmp / "data"
        t0 = time.perf_counter()
        build(ROOT / "corpus", data, echo=lambda *_: None)
        print(f"built the store and index in {time.perf_counter() - t0:.2f} s")
    store = current_store(data).resolve()
    t0 = time.perf_counter()
    fts = build_fts(store, tmp / "fts.db")
    print(f"built the FTS5 baseline in {time.perf_counter() - t0:.2f} s")
    rows = load(args.queries)
    queries = [q for q, _ in rows]

    # in-process
    t0 = time.perf_counter()
    searcher = Searcher(store.parent / "index")
    print(f"opened the Whoosh index in {(time.perf_counter() - t0) * 1000:.0f} ms; {len(queries)} questions\n")
    timings = {"whoosh": {"cold": [], "warm": [], "http": []}, "fts5": {"cold": [], "warm": [], "http": []}}
    for round_ in range(1 + args.repeat):
        for q in queries:
            t = time.perf_counter()
            searcher.search(q, limit=10)
            timings["whoosh"]["cold" if round_ == 0 else "warm"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            fts_search(fts, q, 10)
            timings["fts5"]["cold" if round_ == 0 else "warm"].append((time.perf_counter() - t) * 1000)

    # over HTTP
    server, base = serve(data, fts)
    try:
        for q in queries:  # the server opens its index on the first request
            get(f"{base}/api/search?" + urllib.parse.urlencode({"q": q}))
        for _ in range(max(1, args.repeat // 2)):
            for q in queries:
                qs = urllib.parse.urlencode({"q": q, "limit": 10})
                t = time.perf_counter()
                get(f"{base}/api/search?{qs}")
                timings["whoosh"]["http"].append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                get(f"{base}/fts?{qs}")
                timings["fts5"]["http"].append((time.perf_counter() - t) * 1000)
    finally:
        server.shutdown()

    # relevance
    per_q = []
    for q, laws in rows:
        w = searcher.search(q, limit=5)["results"]
        f = fts_search(fts, q, 5)
        per_q.append((q, answered(w, laws), answered(f, laws)))

    print(f"{'latency, ms':28}{'Whoosh (Lawbook)':>20}{'FTS5 (porter, bm25)':>22}")
    for key, name in (("cold", "in-process, first round"), ("warm", "in-process, warm"), ("http", "HTTP, 127.0.0.1")):
        w, f = timings["whoosh"][key], timings["fts5"][key]
        print(f"{name + ' p50 / p95':28}{statistics.median(w):>10.2f} / {pct(w, 95):<7.2f}"
              f"{statistics.median(f):>12.2f} / {pct(f, 95):<7.2f}")
    wn, fn = sum(w for _, w, _ in per_q), sum(f for _, _, f in per_q)
    print(f"\n{'relevance: right law in top 5':34}{f'{wn}/{len(rows)} ({wn / len(rows):.0%})':>14}"
          f"{f'{fn}/{len(rows)} ({fn / len(rows):.0%})':>22}\n")
    talk = [(q, answered(searcher.search(q, limit=5)["results"], laws), answered(fts_search(fts, q, 5), laws))
            for q, laws in TABLE_TALK]
    tw, tf = sum(w for _, w, _ in talk), sum(f for _, _, f in talk)
    print(f"{'relevance: the issue examples':34}{f'{tw}/{len(talk)} ({tw / len(talk):.0%})':>14}"
          f"{f'{tf}/{len(talk)} ({tf / len(talk):.0%})':>22}\n")
    print(f"{'question':52}{'Whoosh':>8}{'FTS5':>8}")
    for q, w, f in per_q + [("", True, True)] + talk:
        print(f"{q[:50]:52}{('hit' if w else '-') if q else '':>8}{('hit' if f else '-') if q else '':>8}")
    index_contribution(searcher, rows + TABLE_TALK)
    return 0


def _rank(results: list[dict], laws: set[int]) -> int | None:
    """1-based rank of the first result in a right law (as `answered` counts them)."""
    return next((i for i, r in enumerate(results, 1) if answered([r], laws)), None)


def index_contribution(searcher: Searcher, rows: list[tuple[str, set[int]]]) -> None:
    """The same questions ranked with and without the official index's field
    (search/index.py), over every edition and over the 2017 Laws only (the
    edition whose index it is): right law in the top 5, and the mean
    reciprocal rank of the first right law in the top 10."""
    from search import query

    with_index = query.FIELDS
    without = tuple(f for f in with_index if f[0] != "index")
    print(f"\n{'the official index':34}{'top 5':>10}{'MRR@10':>10}")
    try:
        for edition in (None, "2017"):
            for label, fields in (("with its field", with_index), ("without it", without)):
                query.FIELDS = fields
                ranks = [_rank(searcher.search(q, edition=edition, limit=10)["results"], laws) for q, laws in rows]
                top5 = sum(1 for r in ranks if r and r <= 5)
                mrr = sum(1 / r for r in ranks if r) / len(rows)
                print(f"{(edition or 'all editions') + ', ' + label:34}{f'{top5}/{len(rows)}':>10}{mrr:>10.3f}")
    finally:
        query.FIELDS = with_index


if __name__ == "__main__":
    sys.exit(main())
