"""Comparison benchmark (issue 22): the stored 2007 -> 2017 alignment against a
hand-made truth, with the curated overrides on and off, next to a trivial
"same id" aligner, in one run.

    python bench/compare.py                  build corpus/ into a temp dir (twice: overrides on, off)
    python bench/compare.py --data ./data    overrides on: an existing build (LAWS_DATA_DIR layout)
    python bench/compare.py --on-only        skip the build with the overrides off
    python bench/compare.py --details        also list the tuning part's errors (never the held-out's)

The truth is bench/compare-truth-tuning.toml (may be tuned on) and
bench/compare-truth-heldout.toml (never tuned on); their header comments say
how they were made and what each key means.

What is measured is the public output, `GET /api/diff/<n>?from=2007&to=2017`
through the app's test client, not the aligner's internals (so the bench
survives a restructuring of laws/compare).  A change row's pairs are its
(from_provision, to_provision) and every pair of its from_provisions x
to_provisions; a row crossing laws names both ids, which carry their laws.
Only provisions with text count: a bare heading carries no rule to align.

For each part (tuning, held-out), for each aligner:

  pairs precision   aligned pairs touching the part that the truth has
  pairs recall      truth pairs the aligner found
  false removed     2007 provisions shown with no successor though the truth has one
  false added       2017 provisions shown with no predecessor though the truth has one
  renumbered        the truth's one-to-one pairs between different ids: found,
                    and of those found, how many are not labelled `moved`
  cross-law         the truth's moves to another law: found / in the truth

Judgement pairs (the truth's `judgement`, at most 5, each with its reason)
are listed and neither credited nor blamed.

The overrides are switched off by building a temporary copy of corpus/ whose
alignment-overrides.toml has no entries: the build reads the curated
alignments from that file, so nothing of the aligner is touched.

Last, the serve-time figure: GET /api/diff/<n> for every law both editions
have, p50 and p95 over a few rounds.
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "corpus"
TRUTH = {"tuning": ROOT / "bench" / "compare-truth-tuning.toml",
         "held-out": ROOT / "bench" / "compare-truth-heldout.toml"}
OVERRIDES = "alignment-overrides.toml"
OLD, NEW = "2007", "2017"
JUDGEMENT_MAX = 5

Pair = tuple[str, str]


# ---------------------------------------------------------------- the truth

@dataclass
class Truth:
    """One part of the hand-made alignment (one truth file)."""
    name: str
    laws: list[int]
    pairs: set[Pair] = field(default_factory=set)        # within a law and across laws
    cross: dict[Pair, tuple[int, int]] = field(default_factory=dict)   # pair -> (from_law, to_law)
    removed: set[str] = field(default_factory=set)       # 2007 ids
    added: set[str] = field(default_factory=set)         # 2017 ids
    judgement: dict[Pair, str] = field(default_factory=dict)          # pair -> reason
    # where each id was named, to report an id listed twice: (side, id) -> ["law.N pairs", ...]
    listed: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def scored_pairs(self) -> set[Pair]:
        """The pairs the aligner is measured on: judgement pairs are neither
        credited nor blamed."""
        return self.pairs - set(self.judgement)


def load_truth(path: Path, name: str | None = None) -> Truth:
    """Read one truth file.  Raises ValueError on a malformed entry (the
    ids themselves are checked against the store by tests/test_compare_truth.py)."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    unknown = set(data) - {"law"}
    if unknown:
        raise ValueError(f"{path.name}: unknown top-level keys {sorted(unknown)}")
    tables = data.get("law", {})
    t = Truth(name or path.stem, sorted(int(k) for k in tables))

    def note(side: str, pid: str, where: str) -> None:
        t.listed.setdefault((side, pid), []).append(where)

    for key, table in tables.items():
        law = int(key)
        unknown = set(table) - {"pairs", "cross", "removed", "added", "judgement"}
        if unknown:
            raise ValueError(f"{path.name}: law.{key} has unknown keys {sorted(unknown)}")
        for p in table.get("pairs", []):
            if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)):
                raise ValueError(f"{path.name}: law.{key}: a pair must be [2007 id, 2017 id], not {p!r}")
            if tuple(p) in t.pairs:
                raise ValueError(f"{path.name}: law.{key}: pair {p} listed twice")
            t.pairs.add(tuple(p))
            note(OLD, p[0], f"law.{law} pairs")
            note(NEW, p[1], f"law.{law} pairs")
        for c in table.get("cross", []):
            p = c.get("pair")
            if not (isinstance(p, list) and len(p) == 2) or not {"from_law", "to_law"} <= set(c):
                raise ValueError(f"{path.name}: law.{key}: a cross entry needs pair, from_law and to_law: {c!r}")
            if c["from_law"] == c["to_law"] or law not in (c["from_law"], c["to_law"]):
                raise ValueError(f"{path.name}: law.{key}: cross {p} must cross laws and touch Law {law}")
            if tuple(p) in t.pairs:
                raise ValueError(f"{path.name}: law.{key}: pair {p} listed twice")
            t.pairs.add(tuple(p))
            t.cross[tuple(p)] = (int(c["from_law"]), int(c["to_law"]))
            note(OLD, p[0], f"law.{law} cross")
            note(NEW, p[1], f"law.{law} cross")
        for pid in table.get("removed", []):
            t.removed.add(pid)
            note(OLD, pid, f"law.{law} removed")
        for pid in table.get("added", []):
            t.added.add(pid)
            note(NEW, pid, f"law.{law} added")
        for j in table.get("judgement", []):
            p, reason = j.get("pair"), str(j.get("reason", "")).strip()
            if not (isinstance(p, list) and len(p) == 2) or not reason:
                raise ValueError(f"{path.name}: law.{key}: a judgement needs a pair and its reason: {j!r}")
            t.judgement[tuple(p)] = reason
    return t


def load_parts() -> dict[str, Truth]:
    return {name: load_truth(path, name) for name, path in TRUTH.items()}


# ---------------------------------------------------------------- the store

def text_provisions(db: sqlite3.Connection, edition: str) -> dict[str, int]:
    """{id: law} of the edition's provisions that have text."""
    return {r[0]: r[1] for r in db.execute(
        "select id, law from provisions where edition = ? and trim(coalesce(text, '')) <> ''", [edition])}


# ---------------------------------------------------------------- aligners

@dataclass
class Alignment:
    """What an aligner shows: its pairs, each pair's status, and the
    provisions it shows with no counterpart."""
    pairs: set[Pair]
    status: dict[Pair, str]
    removed: set[str]
    added: set[str]


def from_api(client, laws: list[int], old: dict[str, int], new: dict[str, int]) -> Alignment:
    """The stored alignment of the given laws, read through GET /api/diff."""
    pairs, status, removed, added = set(), {}, set(), set()
    for n in laws:
        r = client.get(f"/api/diff/{n}?from={OLD}&to={NEW}")
        if r.status_code != 200:
            raise SystemExit(f"GET /api/diff/{n}: {r.status_code} {r.get_data(as_text=True)[:200]}")
        for c in r.get_json()["changes"]:
            f1, t1 = c.get("from_provision"), c.get("to_provision")
            row = {(f1, t1)} if f1 and t1 else set()
            fp, tp = c.get("from_provisions") or [], c.get("to_provisions") or []
            row |= set(product(fp, tp))
            row = {p for p in row if p[0] in old and p[1] in new}
            for p in row:
                pairs.add(p)
                status[p] = c["status"]
            if c["status"] == "removed":
                removed |= {x for x in ([f1] if f1 else []) + list(fp) if x in old}
            if c["status"] == "added":
                added |= {x for x in ([t1] if t1 else []) + list(tp) if x in new}
    return Alignment(pairs, status, removed, added)


def same_id(old: dict[str, int], new: dict[str, int]) -> Alignment:
    """The trivial aligner: a pair wherever the id is the same in both editions."""
    pairs = {(x, x) for x in old if x in new}
    return Alignment(pairs, {p: "same id" for p in pairs}, set(old) - set(new), set(new) - set(old))


# ---------------------------------------------------------------- scoring

def scope(t: Truth, old: dict[str, int], new: dict[str, int]) -> tuple[set[str], set[str]]:
    """The provisions a part judges: those with text in its laws, on each
    side, and the ends of its moves into other laws."""
    laws = set(t.laws)
    a = {x for x, law in old.items() if law in laws} | {p[0] for p in t.pairs}
    b = {x for x, law in new.items() if law in laws} | {p[1] for p in t.pairs}
    return a, b


def laws_to_read(t: Truth) -> list[int]:
    return sorted(set(t.laws) | {law for fl, tl in t.cross.values() for law in (fl, tl)})


def score(t: Truth, al: Alignment, old: dict[str, int], new: dict[str, int]) -> dict:
    a_scope, b_scope = scope(t, old, new)
    judged = set(t.judgement)
    truth = t.scored_pairs()
    shown = {p for p in al.pairs if (p[0] in a_scope or p[1] in b_scope) and p not in judged}
    hit = shown & truth
    # a provision whose only counterpart is a judgement pair is not scored either
    has_succ = {p[0] for p in truth}
    has_pred = {p[1] for p in truth}
    paired_a = {p[0] for p in al.pairs}
    paired_b = {p[1] for p in al.pairs}
    false_removed = {x for x in has_succ if x in al.removed or x not in paired_a}
    false_added = {x for x in has_pred if x in al.added or x not in paired_b}
    succ_count, pred_count = {}, {}
    for f, to in t.pairs:
        succ_count[f] = succ_count.get(f, 0) + 1
        pred_count[to] = pred_count.get(to, 0) + 1
    renumbered = {p for p in truth if p[0] != p[1] and succ_count[p[0]] == 1 and pred_count[p[1]] == 1}
    ren_found = renumbered & al.pairs
    ren_not_moved = {p for p in ren_found if al.status.get(p) != "moved"}
    # `moved` means another id (the definition): a pair keeping its id is never moved
    same_moved = {p for p in truth & al.pairs if p[0] == p[1] and al.status.get(p) == "moved"}
    cross = set(t.cross) - judged
    return {
        "shown": len(shown), "truth": len(truth), "hit": len(hit),
        "precision": len(hit) / len(shown) if shown else 0.0,
        "recall": len(hit) / len(truth) if truth else 0.0,
        "false_removed": sorted(false_removed), "false_added": sorted(false_added),
        "renumbered": len(renumbered), "renumbered_found": len(ren_found),
        "renumbered_not_moved": sorted(ren_not_moved), "same_id_moved": sorted(same_moved),
        "cross": len(cross), "cross_found": len(cross & al.pairs),
        "missed": sorted(truth - al.pairs), "false_pairs": sorted(shown - truth),
    }


# ---------------------------------------------------------------- builds

def build_into(corpus: Path, data: Path) -> Path:
    from laws.build import build
    t0 = time.perf_counter()
    build(corpus, data, echo=lambda *_: None)
    print(f"  built {corpus.name}/ into a temp dir in {time.perf_counter() - t0:.1f} s")
    return data


def corpus_without_overrides(tmp: Path) -> Path:
    """A copy of corpus/ whose curated alignments file has no entries."""
    copy = tmp / "corpus-no-overrides"
    shutil.copytree(CORPUS, copy)
    (copy / OVERRIDES).write_text("# overrides switched off by bench/compare.py\n", encoding="utf-8")
    return copy


def client_for(data: Path, corpus: Path):
    from app import create_app
    return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)}).test_client()


def store_conn(data: Path) -> sqlite3.Connection:
    from laws import store
    from laws.build import current_store
    return store.connect(current_store(data))


# ---------------------------------------------------------------- output

def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def print_part(t: Truth, columns: list[tuple[str, dict]]) -> None:
    print(f"\n== {t.name} part: Laws {', '.join(map(str, t.laws))}  "
          f"({len(t.scored_pairs())} scored pairs, {len(t.removed)} removed, {len(t.added)} added, "
          f"{len(t.judgement)} judgement)")
    width = max(len(name) for name, _ in columns) + 2
    head = f"  {'':<27}" + "".join(f"{name:>{width}}" for name, _ in columns)
    print(head)

    def row(label: str, cell) -> None:
        print(f"  {label:<27}" + "".join(f"{cell(s):>{width}}" for _, s in columns))

    row("pairs precision", lambda s: f"{pct(s['precision'])} ({s['hit']}/{s['shown']})")
    row("pairs recall", lambda s: f"{pct(s['recall'])} ({s['hit']}/{s['truth']})")
    row("false removed", lambda s: str(len(s["false_removed"])))
    row("false added", lambda s: str(len(s["false_added"])))
    row("renumbered found", lambda s: f"{s['renumbered_found']}/{s['renumbered']}")
    row("renumbered not `moved`", lambda s: str(len(s["renumbered_not_moved"])))
    row("same id labelled `moved`", lambda s: str(len(s["same_id_moved"])))
    row("cross-law found", lambda s: f"{s['cross_found']}/{s['cross']}")


def print_details(t: Truth, name: str, s: dict) -> None:
    print(f"\n-- {t.name} part, {name}: errors")
    for key in ("missed", "false_pairs", "false_removed", "false_added", "renumbered_not_moved", "same_id_moved"):
        items = s[key]
        shown = ", ".join(f"{x[0]}->{x[1]}" if isinstance(x, tuple) else x for x in items)
        print(f"  {key.replace('_', ' ')} ({len(items)}): {shown or '-'}")


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, help="an existing build (overrides on) instead of building corpus/")
    ap.add_argument("--on-only", action="store_true", help="skip the build with the overrides off")
    ap.add_argument("--details", action="store_true", help="list the tuning part's errors")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds of GET /api/diff over every law")
    args = ap.parse_args()

    parts = load_parts()
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        tmp = Path(tmp)
        print("builds:")
        data_on = args.data or build_into(CORPUS, tmp / "data-on")
        runs = [("overrides on", data_on, CORPUS)]
        if not args.on_only:
            off_corpus = corpus_without_overrides(tmp)
            runs.insert(0, ("overrides off", build_into(off_corpus, tmp / "data-off"), off_corpus))
        else:
            print("  overrides off: skipped (--on-only)")

        conn = store_conn(data_on)
        old, new = text_provisions(conn, OLD), text_provisions(conn, NEW)
        both = [r[0] for r in conn.execute(
            "select a.number from laws a join laws b on a.number = b.number "
            "where a.edition = ? and b.edition = ? order by a.number", [OLD, NEW])]
        conn.close()

        for name, data, _ in runs:
            c = store_conn(data)
            laws = [r[0] for r in c.execute("select law from alignment_overrides where from_edition = ? "
                                            "and to_edition = ? order by law", [OLD, NEW])]
            c.close()
            # the parts' figures can only differ on and off where an override touches a truth law
            touched = {t.name: sorted(set(laws) & set(laws_to_read(t))) for t in parts.values()}
            print(f"  {name}: {len(laws)} curated alignment(s) {OLD} -> {NEW} in the store"
                  + (f", in Laws {', '.join(map(str, sorted(set(laws))))}; in the parts' laws: {touched}" if laws else ""))
        clients = {name: client_for(data, corpus) for name, data, corpus in runs}
        baseline = same_id(old, new)
        for t in parts.values():
            cols = [("same id", score(t, baseline, old, new))]
            for name, _, _ in runs:
                cols.append((f"current, {name}", score(t, from_api(clients[name], laws_to_read(t), old, new), old, new)))
            print_part(t, cols)
            if args.details and t.name == "tuning":
                for name, s in cols[1:]:
                    print_details(t, name, s)

        print("\njudgement pairs (not scored):")
        for t in parts.values():
            for (a, b), reason in sorted(t.judgement.items()):
                verdict = "paired in the truth" if (a, b) in t.pairs else "not paired in the truth"
                print(f"  [{t.name}] 2007 {a} -> 2017 {b} ({verdict}): {reason}")

        client = clients["overrides on"]
        times = []
        for _ in range(args.rounds):
            for n in both:
                t0 = time.perf_counter()
                r = client.get(f"/api/diff/{n}?from={OLD}&to={NEW}")
                times.append(time.perf_counter() - t0)
                assert r.status_code == 200, n
        print(f"\nserve time  GET /api/diff/<n>, {len(both)} laws x {args.rounds} rounds (test client, "
              f"overrides on): p50 {p(times, 0.5) * 1000:.2f} ms   p95 {p(times, 0.95) * 1000:.2f} ms   "
              f"max {max(times) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
