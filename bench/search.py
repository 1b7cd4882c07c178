"""Search benchmark: the answers and the speed of Lawbook's search, online and
offline, against the ranking before issue 13 and plain SQLite FTS5, in one run.

    python bench/search.py                 build the corpus into a temp dir, then measure
    python bench/search.py --data ./data   use an existing build (LAWS_DATA_DIR layout)
    python bench/search.py --repeat 20     more timed rounds
    python bench/search.py --no-browser    skip the offline search (needs Chromium)

On the question set (bench/questions.tsv: what directors ask, each with the
provisions of the Laws that answer it; search/evaluate.py judges), for each of

* Lawbook online: search/query.py's ranking, as /api/search serves it;
* the ranking before issue 13 (`Ranking.words_only()`: words and fields only,
  no evidence from the guide, no intents), on the same index;
* SQLite FTS5 over the same documents (`tokenize='porter unicode61'`, ranked
  by bm25(), the question's words OR-ed: what a plain search box does);
* Lawbook offline: static/search.js over /offline/search.json with MiniSearch,
  run in headless Chromium (/usr/bin/chromium) as a phone runs it;

it prints hit@1 (the first result answers), hit@5 and MRR at the provision
level, then the agreement of the offline top 5 with the online top 5, what the
offline payload weighs, and latencies (in-process cold and warm, over HTTP,
and in the browser), p50 and p95.

Then, one level deep (search/evaluate.py `StrictJudge`, issue 19), hit@1,
hit@3, hit@5 and MRR of Lawbook online, offline and FTS5 over the same fields
(the plain words included) on every question set: the tuned sets
(bench/questions.tsv in the Laws' words, bench/questions-words.tsv in
players' words) and the held-out set (bench/questions-heldout.tsv, never
tuned on), for edition=2017, edition=2007 (held-out only: judged by its 2007
column) and no edition, with the offline top 5's agreement with the online.
"""
from __future__ import annotations

import argparse
import dataclasses
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
from search.evaluate import HELDOUT, QUESTIONS, Judge, StrictJudge, as_questions, load, load_heldout, metrics  # noqa: E402
from search.query import Ranking, Searcher  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# --- the FTS5 baseline ----------------------------------------------------------

def build_fts(store: Path, out: Path, editions: list[str] | None = None) -> sqlite3.Connection:
    """FTS5 over the store's documents: every edition's, or those of `editions`."""
    src = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    conn = sqlite3.connect(out, check_same_thread=False)
    conn.execute("create virtual table docs using fts5(kind unindexed, edition unindexed, law unindexed, "
                 "provision unindexed, title, heading, text, plain, situations, tokenize='porter unicode61')")
    where = f" where {{}}edition in ({','.join('?' * len(editions))})" if editions else ""
    args = list(editions or ())
    # the plain-words layer (issue 19) as two more fields, as Lawbook indexes them
    glosses = ("left join glosses g on g.edition = p.edition and g.provision = p.id"
               if src.execute("select 1 from sqlite_master where name = 'glosses'").fetchone() else "")
    plain = "coalesce(g.plain, ''), coalesce(g.situations, '')" if glosses else "'', ''"
    conn.executemany("insert into docs values ('law', ?, ?, ?, ?, ?, ?, ?, ?)", src.execute(
        f"select p.edition, p.law, p.id, l.title, coalesce(p.heading, ''), coalesce(p.text, ''), {plain} "
        f"from provisions p join laws l on l.edition = p.edition and l.number = p.law {glosses}"
        + where.format("p."), args))
    conn.executemany("insert into docs values ('definition', ?, null, ?, ?, '', ?, '', '')",
                     src.execute("select edition, id, term, text from definitions" + where.format(""), args))
    conn.executemany("insert into docs values ('guide', ?, null, ?, ?, '', ?, '', '')",
                     src.execute("select edition, id, title, text from topics" + where.format(""), args))
    conn.commit()
    return conn


def fts_search(conn: sqlite3.Connection, q: str, limit: int = 5, edition: str | None = None) -> list[dict]:
    words = re.findall(r"\w+", q.lower())
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    if edition:
        rows = conn.execute("select kind, edition, law, provision from docs where docs match ? and edition = ? "
                            "order by bm25(docs) limit ?", (match, edition, limit)).fetchall()
    else:
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


def offline_runs(base: str, questions: list[str], limit: int = 5, edition: str | None = None) -> dict:
    """The offline search in headless Chromium: the page's own scripts over
    the served payload, every question (of `edition`, None: the default
    editions); top results, index and query times."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{base}/offline/search")
            return page.evaluate("""async ([qs, limit, edition]) => {
                const payload = await (await fetch('/offline/search.json')).json();
                let t = performance.now();
                const engine = LawbookSearch.create(payload);
                const indexMs = performance.now() - t;
                const out = [], ms = [];
                for (const q of qs) {
                    t = performance.now();
                    const r = engine.search(q, {limit, edition});
                    ms.push(performance.now() - t);
                    out.push(r.results.map(x => ({kind: x.kind, edition: x.edition, law: x.law, provision: x.provision})));
                }
                return {results: out, indexMs, ms};
            }""", [questions, limit, edition])
        finally:
            browser.close()


def agreement(a: list[dict], b: list[dict], k: int = 5) -> float:
    """Share of the online top k that the offline top k also has."""
    key = lambda r: (r.get("kind"), r.get("edition"), r.get("provision"))  # noqa: E731
    top = {key(r) for r in a[:k]}
    return len(top & {key(r) for r in b[:k]}) / len(top) if top else float(not b[:k])


def sizes(data: Path, base: str) -> list[tuple[str, int, int]]:
    import gzip

    out = []
    for name, body in (("offline.json (the documents)", (current_store(data).resolve().parent / "index" / "offline.json").read_bytes()),
                       ("minisearch.js (the library)", (ROOT / "static" / "vendor" / "minisearch.js").read_bytes()),
                       ("search.js (the ranking)", (ROOT / "static" / "search.js").read_bytes())):
        out.append((name, len(body), len(gzip.compress(body, 6))))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help="an existing data directory (default: build into a temp dir)")
    ap.add_argument("--repeat", type=int, default=10, help="warm rounds (default 10)")
    ap.add_argument("--questions", type=Path, default=QUESTIONS)
    ap.add_argument("--no-browser", action="store_true", help="skip the offline search in Chromium")
    ap.add_argument("--misses", action="store_true", help="list the questions each engine misses")
    ap.add_argument("--scale", type=Path, nargs="+", metavar="DATA",
                    help="only the figures at scale (measure_scale) of these builds")
    args = ap.parse_args(argv)
    if args.scale:
        for d in args.scale:
            print_scale(measure_scale(d, repeat=args.repeat))
        return 0

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
    rows = load(args.questions)
    queries = [q for q, _, _ in rows]
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    judge = Judge(db)

    t0 = time.perf_counter()
    searcher = Searcher(store.parent / "index")
    print(f"opened the Whoosh index in {(time.perf_counter() - t0) * 1000:.0f} ms; {len(queries)} questions\n")
    before = Searcher(store.parent / "index", Ranking.words_only())
    timings = {"whoosh": {"cold": [], "warm": [], "http": []}, "fts5": {"cold": [], "warm": [], "http": []}}
    for round_ in range(1 + args.repeat):
        for q in queries:
            t = time.perf_counter()
            searcher.search(q, limit=10)
            timings["whoosh"]["cold" if round_ == 0 else "warm"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            fts_search(fts, q, 10)
            timings["fts5"]["cold" if round_ == 0 else "warm"].append((time.perf_counter() - t) * 1000)

    online = [searcher.search(q, limit=5)["results"] for q in queries]
    runs = {"Lawbook online": online,
            "before issue 13": [before.search(q, limit=5)["results"] for q in queries],
            "SQLite FTS5": [fts_search(fts, q, 5) for q in queries]}

    server, base = serve(data, fts)
    offline = None
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
        browser = not args.no_browser and CHROMIUM.exists()
        if browser:
            offline = offline_runs(base, queries)
            runs["Lawbook offline"] = offline["results"]
        strict = strict_runs(searcher, fts, base if browser else None, args.questions)
        payload = sizes(data, base)
    finally:
        server.shutdown()

    ranks = {name: [judge.rank(res, ans) for res, (_, ans, _) in zip(results, rows)] for name, results in runs.items()}
    print(f"{'relevance, provision level':28}{'hit@1':>8}{'hit@3':>8}{'hit@5':>8}{'MRR':>8}   "
          f"({len(rows)} questions, {args.questions.name}; the old judge: an answer's whole subtree counts)")
    for name, rs in ranks.items():
        m = metrics(rs)
        print(f"{name:28}{m['hit@1']:>8.1%}{m['hit@3']:>8.1%}{m['hit@5']:>8.1%}{m['mrr']:>8.3f}")
    kinds = sorted({k for _, _, k in rows})
    print(f"\n{'hit@1 by kind of question':28}" + "".join(f"{n[:14]:>16}" for n in ranks))
    for k in kinds:
        idx = [i for i, (_, _, kk) in enumerate(rows) if kk == k]
        print(f"{k + f' ({len(idx)})':28}" + "".join(
            f"{metrics([rs[i] for i in idx])['hit@1']:>16.0%}" for rs in ranks.values()))

    index_contribution(searcher, judge, rows)
    print_strict(strict)

    if offline:
        agree = [agreement(on, off) for on, off in zip(online, offline["results"])]
        first = sum(bool(on) and bool(off) and on[0].get("provision") == off[0].get("provision")
                    and on[0].get("edition") == off[0].get("edition") for on, off in zip(online, offline["results"]))
        print(f"\noffline against online: top-5 agreement {statistics.mean(agree):.1%} (mean share of the online "
              f"top 5 in the offline top 5); same first result {first}/{len(rows)} ({first / len(rows):.0%})")
        print(f"offline in Chromium: indexing the payload {offline['indexMs']:.0f} ms; a question p50 "
              f"{statistics.median(offline['ms']):.2f} ms, p95 {pct(offline['ms'], 95):.2f} ms")
    print("\noffline payload (what a phone keeps)          bytes      gzip")
    for name, raw, gz in payload:
        print(f"  {name:40}{raw:>10,}{gz:>10,}")
    print(f"  {'total':40}{sum(r for _, r, _ in payload):>10,}{sum(g for _, _, g in payload):>10,}")

    print(f"\n{'latency, ms':28}{'Whoosh (Lawbook)':>20}{'FTS5 (porter, bm25)':>22}")
    for key, name in (("cold", "in-process, first round"), ("warm", "in-process, warm"), ("http", "HTTP, 127.0.0.1")):
        w, f = timings["whoosh"][key], timings["fts5"][key]
        print(f"{name + ' p50 / p95':28}{statistics.median(w):>10.2f} / {pct(w, 95):<7.2f}"
              f"{statistics.median(f):>12.2f} / {pct(f, 95):<7.2f}")

    if args.misses:
        for name, rs in ranks.items():
            print(f"\nmissed in the top 5 by {name}:")
            for (q, ans, _), r in zip(rows, rs):
                if r is None:
                    print(f"  {q}  (answer {', '.join(ans)})")
    return 0


# --- both question sets, one level deep, edition by edition (issue 19) ---------------

EDITIONS = (("2017", "2017"), ("2007", "2007"), ("no edition", None))


def question_sets(tuned: Path = QUESTIONS) -> list[tuple[str, list]]:
    """(name, questions): the tuned sets (the Laws' words, players' words),
    and the held-out set when there is one."""
    sets = [(f"tuned ({tuned.name})", as_questions(load(tuned)))]
    words = ROOT / "bench" / "questions-words.tsv"  # tuned too: players' words
    if words.exists() and tuned == QUESTIONS:
        sets.append((f"tuned ({words.name})", as_questions(load(words))))
    if HELDOUT.exists():
        sets.append((f"held-out ({HELDOUT.name})", load_heldout(HELDOUT)))
    return sets


def judged(questions: list, edition: str | None) -> list:
    """The questions a search of `edition` can be judged on: those with an
    answer in that edition (the tuned set has 2017 answers only; a held-out
    question whose 2007 column says `none` is not asked of 2007)."""
    return [q for q in questions if q.for_edition(edition) and q.for_edition(edition) != ("none",)
            or (edition is None and q.for_edition(None) == ("none",))]


def strict_runs(searcher: Searcher, fts: sqlite3.Connection, base: str | None, tuned: Path = QUESTIONS) -> dict:
    """{(set, edition label): {engine: ranks}} for Lawbook online, FTS5 over
    the same fields and, with `base`, Lawbook offline in Chromium."""
    judge = StrictJudge()
    out = {}
    for name, questions in question_sets(tuned):
        for label, edition in EDITIONS:
            qs = judged(questions, edition)
            if not qs:
                continue
            texts = [q.text for q in qs]
            runs = {"Lawbook online": [searcher.search(t, edition=edition, limit=5)["results"] for t in texts],
                    "FTS5, same fields": [fts_search(fts, t, 5, edition=edition) for t in texts]}
            if base:
                runs["Lawbook offline"] = offline_runs(base, texts, edition=edition)["results"]
            ranks = {engine: [judge.rank(res, q, edition) for res, q in zip(results, qs)]
                     for engine, results in runs.items()}
            agree = same = None
            if base:
                pairs = list(zip(runs["Lawbook online"], runs["Lawbook offline"]))
                agree = statistics.mean(agreement(a, b) for a, b in pairs)
                same = statistics.mean(agreement(a, b) == 1.0 for a, b in pairs)
            out[(name, label)] = {"ranks": ranks, "agreement": agree, "same_top5": same, "n": len(qs)}
    return out


def print_strict(strict: dict) -> None:
    print(f"\n{'one level deep (issue 19)':44}{'hit@1':>8}{'hit@3':>8}{'hit@5':>8}{'MRR':>8}")
    for (name, label), found in strict.items():
        print(f"{name}, {label}: {found['n']} questions"
              + (f"; offline against online: the same top 5 for {found['same_top5']:.1%} of questions, "
                 f"mean share {found['agreement']:.1%}" if found["agreement"] is not None else ""))
        for engine, ranks in found["ranks"].items():
            m = metrics(ranks)
            print(f"  {engine:42}{m['hit@1']:>8.1%}{m['hit@3']:>8.1%}{m['hit@5']:>8.1%}{m['mrr']:>8.3f}")


# --- search at scale (issue 14) -------------------------------------------------------

FIRST_QUERY = "partner hesitated then bid"
_FIRST_SEARCH = """
import json, sys, time
sys.path.insert(0, {root!r})
from search.query import Searcher
t = time.perf_counter()
s = Searcher({index!r})
t1 = time.perf_counter()
s.search({q!r}, limit=10)
print(json.dumps([(t1 - t) * 1000, (time.perf_counter() - t1) * 1000]))
"""


def _timed(fns: list, queries: list[str], repeat: int, clock=time.perf_counter) -> list[list[float]]:
    """Each of `fns(q)` over `queries`, interleaved query by query (so that a
    busy machine slows them alike), `repeat` rounds after one unmeasured round:
    the times in ms by `clock`, per function."""
    _timed_once(fns, queries, clock)
    out: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for i, times in enumerate(_timed_once(fns, queries, clock)):
            out[i] += times
    return out


SHORT_WORDS = 3  # a short keyword query has at most this many words; a long question more
PER_KIND = 250  # queries of each kind timed (a fixed sample: the same every run)


def query_kinds(store: Path) -> dict[str, list[str]]:
    """Short keyword queries (at most SHORT_WORDS words) and long questions,
    drawn from the three question files and the 1,000 queries made from the
    store's headings, index terms and synonyms (tests/search_golden.py): up
    to PER_KIND of each, the same every run."""
    import random

    from tests import search_golden

    pool = sorted({q for _, q in search_golden.questions()} | set(search_golden.generated(store)))
    kinds = {"short keyword queries": [q for q in pool if len(q.split()) <= SHORT_WORDS],
             "long questions": [q for q in pool if len(q.split()) > SHORT_WORDS]}
    return {k: random.Random(24).sample(qs, min(PER_KIND, len(qs))) for k, qs in kinds.items()}


def measure_kinds(index_dir: Path, store: Path, tmp: Path, repeat: int) -> dict:
    """{kind: {warm and first-sight p50 and p95, Lawbook's and FTS5's}} for each
    kind of query (`query_kinds`), in CPU time of the searching thread
    (time.thread_time: on a machine shared with other work, wall time
    measures the others), against FTS5 over the same fields and texts,
    interleaved query by query in the same run.  Warm: one Searcher, after a
    round; first sight: a new Searcher and a new FTS5 database each round."""
    from search.query import Searcher as _Searcher

    searcher = _Searcher(index_dir)
    fts = build_fts(store, tmp / "kinds.db", list(searcher.default_editions))
    out = {}
    for kind, queries in query_kinds(store).items():
        mine, theirs = _timed([lambda q: searcher.search(q, limit=10), lambda q: fts_search(fts, q, 10)],
                              queries, repeat, clock=time.thread_time)
        first, fts_first = _first_sight(index_dir, store, tmp, queries, repeat, clock=time.thread_time)
        out[kind] = {"n": len(queries), "p50": statistics.median(mine), "p95": pct(mine, 95),
                     "fts5_p50": statistics.median(theirs), "fts5_p95": pct(theirs, 95),
                     "first_p50": statistics.median(first), "first_p95": pct(first, 95),
                     "fts5_first_p50": statistics.median(fts_first), "fts5_first_p95": pct(fts_first, 95)}
    fts.close()
    return out


def measure_scale(data_dir: Path, repeat: int = 3, rss: bool = True) -> dict:
    """Search's figures on one build (a LAWS_DATA_DIR layout), for bench/scale.py:

    * p50, p95: a search (Searcher.search, limit 10) over the question set and
      the development questions, warm (after one round), in ms;
    * fts5_p50, fts5_p95: SQLite FTS5 (porter, bm25, the words OR-ed) over the
      same texts: the documents of the editions Lawbook searches when no
      edition is asked (search/index.py `default_editions`), same queries, same run;
    * fts5_all_p95: FTS5 over every edition's documents (what searching
      everything would cost);
    * first_p95, fts5_first_p95: each question's first sight: a new Searcher
      (nothing kept from earlier questions but what the same words left) and a
      new FTS5 database each round, every question once, interleaved; the
      warm p95 above reuses what a question's words scored the round before
      (search/query.py keeps it, bounded), this does not;
    * edition_p95, fts5_edition_p95: the same queries with the oldest code
      asked for (edition=...), Lawbook against FTS5 over every edition
      filtered to that one;
    * open_ms, first_search_ms: in a fresh process (imports excluded),
      opening the index (what a gunicorn worker does before it takes
      requests: laws/web/gunicorn_config.py) and then answering its first
      question, the median of three processes;
    * rss_mb: resident memory of one gunicorn worker (production settings)
      after answering every question once over HTTP (skipped with rss=False);
    * kinds: `measure_kinds`, short keyword queries and long questions apart,
      warm and at first sight, in CPU time, each against FTS5 (issue 24);
    * editions, documents, editions_searched: the build's size and what a
      search with no edition reads."""
    import subprocess

    from search.evaluate import load as load_questions
    from search.query import Searcher as _Searcher

    data_dir = Path(data_dir)
    store = current_store(data_dir).resolve()
    index_dir = store.parent / "index"
    queries = [q for q, _, _ in load_questions()]
    dev = ROOT / "tests" / "data" / "search-dev-queries.tsv"
    if dev.exists():
        queries += [line.split("\t")[0] for line in dev.read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.startswith("#")]
    searcher = _Searcher(index_dir)
    out: dict = {"editions": len(searcher.editions), "documents": len(searcher.docs),
                 "editions_searched": list(searcher.default_editions)}
    with tempfile.TemporaryDirectory() as tmp:
        same = build_fts(store, Path(tmp) / "same.db", list(searcher.default_editions))
        every = build_fts(store, Path(tmp) / "all.db")
        oldest = min((e for e in searcher.editions if e["kind"] == "code"), key=lambda e: e["year"])["id"]
        # each comparison interleaved on its own: FTS5 over every edition reads
        # ten times the data, and would slow whatever runs after it
        warm, fts = _timed([lambda q: searcher.search(q, limit=10), lambda q: fts_search(same, q, 10)],
                           queries, repeat)
        ed, fts_ed = _timed([lambda q: searcher.search(q, edition=oldest, limit=10),
                             lambda q: fts_search(every, q, 10, edition=oldest)], queries, repeat)
        (fts_all,) = _timed([lambda q: fts_search(every, q, 10)], queries, repeat)
        same.close()
        every.close()
        first, fts_first = _first_sight(index_dir, store, Path(tmp), queries, repeat)
        kinds = measure_kinds(index_dir, store, Path(tmp), repeat)
    out |= {"p50": statistics.median(warm), "p95": pct(warm, 95),
            "fts5_p50": statistics.median(fts), "fts5_p95": pct(fts, 95), "fts5_all_p95": pct(fts_all, 95),
            "edition": oldest, "edition_p95": pct(ed, 95), "fts5_edition_p95": pct(fts_ed, 95),
            "first_p95": pct(first, 95), "fts5_first_p95": pct(fts_first, 95), "kinds": kinds}
    opens, firsts = [], []
    for _ in range(3):
        code = _FIRST_SEARCH.format(root=str(ROOT), index=str(index_dir), q=FIRST_QUERY)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        o, f = json.loads(done.stdout.strip().splitlines()[-1])
        opens.append(o)
        firsts.append(f)
    out["open_ms"], out["first_search_ms"] = statistics.median(opens), statistics.median(firsts)
    out["rss_mb"] = _worker_rss(data_dir, queries) if rss else None
    return out


def _first_sight(index_dir: Path, store: Path, tmp: Path, queries: list[str], rounds: int,
                 clock=time.perf_counter) -> tuple[list[float], list[float]]:
    """Every question once on a new Searcher and a new FTS5 database, `rounds`
    times: the times in ms (Lawbook, FTS5), interleaved question by question."""
    from search.query import Searcher as _Searcher

    mine, theirs = [], []
    for r in range(rounds):
        searcher = _Searcher(index_dir)
        db = tmp / f"first-{r}.db"
        db.unlink(missing_ok=True)
        fts = build_fts(store, db, list(searcher.default_editions))
        a, b = _timed_once([lambda q: searcher.search(q, limit=10), lambda q: fts_search(fts, q, 10)], queries, clock)
        mine += a
        theirs += b
        fts.close()
    return mine, theirs


def _timed_once(fns: list, queries: list[str], clock=time.perf_counter) -> list[list[float]]:
    """Each of `fns(q)` over `queries` once, interleaved: the times in ms by `clock`."""
    out: list[list[float]] = [[] for _ in fns]
    for q in queries:
        for i, fn in enumerate(fns):
            t = clock()
            fn(q)
            out[i].append((clock() - t) * 1000)
    return out


def _worker_rss(data_dir: Path, queries: list[str]) -> float:
    """RSS of a gunicorn worker (one, production settings) after every query once."""
    sys.path.insert(0, str(ROOT / "bench"))
    import serve

    with serve.gunicorn(data_dir, workers=1) as (base, proc):
        for q in queries:
            get(f"{base}/api/search?" + urllib.parse.urlencode({"q": q}))
        return serve.rss_mb(serve.workers_of(proc)[0])


def print_scale(figures: dict) -> None:
    f = figures
    print(f"{f['editions']} editions, {f['documents']} documents; a search with no edition reads "
          f"{', '.join(f['editions_searched'])}")
    print(f"  search p50 / p95 {f['p50']:.2f} / {f['p95']:.2f} ms; FTS5 over the same texts "
          f"{f['fts5_p50']:.2f} / {f['fts5_p95']:.2f} ms (p95 ratio {f['p95'] / f['fts5_p95']:.2f}); "
          f"FTS5 over every edition p95 {f['fts5_all_p95']:.2f} ms")
    print(f"  edition={f['edition']}: p95 {f['edition_p95']:.2f} ms; FTS5 p95 {f['fts5_edition_p95']:.2f} ms "
          f"(ratio {f['edition_p95'] / f['fts5_edition_p95']:.2f})")
    rss = f"{f['rss_mb']:.0f} MB" if f.get("rss_mb") is not None else "not measured"
    print(f"  a fresh process: opening the index {f['open_ms']:.1f} ms, then its first search "
          f"{f['first_search_ms']:.1f} ms; gunicorn worker RSS {rss}")
    print_kinds(f.get("kinds") or {})


def print_kinds(kinds: dict) -> None:
    """`measure_kinds`' figures: Lawbook / FTS5 in ms of CPU, and the ratio
    (issue 24's limits: warm p50 and p95 at most 1.0x, first sight at most 1.5x)."""
    if not kinds:
        return
    cols = (("p50", "warm p50"), ("p95", "warm p95"), ("first_p50", "first sight p50"),
            ("first_p95", "first sight p95"))
    print(f"  {'CPU ms, Lawbook / FTS5 = ratio':30}" + "".join(f"{name:>24}" for _, name in cols))
    for kind, k in kinds.items():
        cells = []
        for key, _ in cols:
            mine, theirs = k[key], k["fts5_" + key]
            cells.append(f"{mine:.2f} / {theirs:.2f} = {mine / max(theirs, 1e-9):.2f}x")
        label = f"{kind} ({k['n']})"
        print(f"  {label:30}" + "".join(f"{c:>24}" for c in cells))


def index_contribution(searcher: Searcher, judge: Judge, rows: list) -> None:
    """The question set ranked with and without the official index's entries
    as evidence (search/index.py), over every edition and over the 2017 Laws
    only (the edition whose index it is), at the provision level."""
    without = Searcher(searcher.path, dataclasses.replace(searcher.ranking, index_weight=0.0))
    print(f"\n{'the official index':34}{'hit@1':>8}{'hit@5':>8}{'MRR':>8}")
    for edition in (None, "2017"):
        for label, s in (("with its entries", searcher), ("without them", without)):
            m = metrics([judge.rank(s.search(q, edition=edition, limit=5)["results"], ans) for q, ans, _ in rows])
            print(f"{(edition or 'all editions') + ', ' + label:34}{m['hit@1']:>8.1%}{m['hit@5']:>8.1%}"
                  f"{m['mrr']:>8.3f}")


if __name__ == "__main__":
    sys.exit(main())
