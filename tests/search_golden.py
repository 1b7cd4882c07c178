"""The golden top 10 of search (issue 24): what the full ranking answered,
recorded before the candidate stage existed, for the tests that prove the
candidate stage changes no answer (tests/test_search_candidates.py).

    python tests/search_golden.py DATA_DIR    # record it again from a build

The queries: every question of the three question files (bench/questions.tsv,
bench/questions-words.tsv, bench/questions-heldout.tsv) and GENERATED queries
drawn from the corpus's own words (`generated`): law titles and provision
headings, the official index's terms and the directors' vocabulary
(search/synonyms.txt), one at a time and, for long questions, two together.
Each is searched with no edition, edition=2017 and edition=2007; a result is
named `kind|edition|provision`, the provisions under it (`more`) likewise.
"""
from __future__ import annotations

import gzip
import json
import random
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOLDEN = Path(__file__).resolve().parent / "data" / "search-golden-top10.json.gz"
QUESTION_FILES = ("questions.tsv", "questions-words.tsv", "questions-heldout.tsv")
EDITIONS = (None, "2017", "2007")
GENERATED = 1000
PAIRS = 200  # of the generated queries, this many are two of the others together (long questions)
SEED = 24


def questions() -> list[tuple[str, str]]:
    """(file name, question) of the three question files, in file order."""
    out = []
    for name in QUESTION_FILES:
        for line in (ROOT / "bench" / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.append((name, line.split("\t")[0].strip()))
    return out


def _synonym_phrases() -> list[str]:
    text = (ROOT / "search" / "synonyms.txt").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out += [p.strip() for p in re.split(r"[=,~]", line) if p.strip()]
    return out


def generated(store: Path, n: int = GENERATED, pairs: int = PAIRS, seed: int = SEED) -> list[str]:
    """`n` queries from the store's headings and index terms and the synonyms:
    `n - pairs` distinct single ones, then `pairs` made of two of them; the
    same store gives the same queries."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        words = [r[0] for r in conn.execute("select title from laws union select heading from provisions "
                                            "union select term from index_entries")]
    finally:
        conn.close()
    seen, pool = set(), []
    for w in [w for w in words if w] + _synonym_phrases():
        w = " ".join(w.split())
        if w and w.lower() not in seen:
            seen.add(w.lower())
            pool.append(w)
    pool.sort()
    rng = random.Random(seed)
    singles = rng.sample(pool, min(n - pairs, len(pool)))
    return singles + [f"{rng.choice(singles)} {rng.choice(singles)}" for _ in range(pairs)]


def named(r: dict) -> str:
    return f"{r['kind']}|{r['edition']}|{r['provision']}"


def answer(searcher, q: str, edition: str | None) -> dict:
    """What the golden file keeps of one search (`kept`)."""
    return kept(searcher.search(q, edition=edition, limit=10))


def kept(out: dict) -> dict:
    """What the golden file keeps of a search's reply: the result entries in
    order, the provisions listed under each, and the totals."""
    return {"top": [named(r) for r in out["results"]],
            "more": [[named(m | {"kind": r["kind"]}) for m in r["more"]] + [r["more_count"]]
                     for r in out["results"]],
            "total": out["total"]}


def record(data_dir: Path, path: Path = GOLDEN) -> int:
    from laws.build import current_store
    from search.query import Searcher

    store = current_store(data_dir).resolve()
    searcher = Searcher(store.parent / "index")
    queries = questions() + [("generated", q) for q in generated(store)]
    rows = [{"set": name, "q": q, "edition": ed, **answer(searcher, q, ed)}
            for name, q in queries for ed in EDITIONS]
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(rows, f, ensure_ascii=False, separators=(",", ":"))
    return len(rows)


def load(path: Path = GOLDEN) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


if __name__ == "__main__":
    print(f"{record(Path(sys.argv[1]))} searches recorded in {GOLDEN}")
