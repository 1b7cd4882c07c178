"""On demand: comparisons of pairs the build did not store, made at serve time.

The sixth stage.  `law_data` gives one law of a pair of codes: the stored
rows for successive codes of a family, else the rows computed now
(`compute_law`, by `stored.compare_pair_law` over the read-only store,
with the store's copy of the curated overrides, so the answer is the
build's) and kept in a bounded in-memory cache.  No comparison a reader
never asks for is made.  It uses `stored` only; `read` shapes what it
returns for the web app.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict

from laws.compare.stored import compare_pair_law, editions_by_id, read_store, stored_rows, unpack_rows

# Pairs not compared at build time are compared on first request, from the
# read-only store (its provisions and its copy of the curated overrides, so
# the answer is the build's), and kept in a bounded in-memory LRU per worker
# process.  Why memory and not files beside the store: the web app never
# writes (the store, and the build directory it lives in, may be on a
# read-only disk or behind several stateless workers); one law of one pair
# takes milliseconds to compare, so a worker recomputing what another already
# has costs little; a cache in memory is gone with the worker and keyed by
# the build, so a rebuild can never serve stale comparisons; and requests for
# every pair of every law cannot fill a disk.  The bound keeps a worker's
# memory flat: a law's rows are a few KB, ON_DEMAND_LAWS of them at most.
ON_DEMAND_LAWS = 1024
_cache_lock = threading.Lock()
_cache: "OrderedDict[tuple, tuple[dict, list[dict]] | None]" = OrderedDict()


def _store_key(conn) -> tuple:
    """Which build a connection reads: its file and what it was built from
    (each build has its own directory, but a test may rebuild in place)."""
    path = conn.execute("pragma database_list").fetchone()[2]
    row = conn.execute("select value from meta where key = 'corpus'").fetchone()
    built = conn.execute("select value from meta where key = 'built_at'").fetchone()
    return (path, row[0] if row else None, built[0] if built else None)


def compute_law(conn, old: str, new: str, number: int) -> tuple[dict, list[dict]] | None:
    """One law of two codes compared now, law by law, from the store: the rows
    the build would have stored for it compared on its own (`compare_pair_law`), or None when the pair cannot be
    compared (not two codes, or one lacks the law).  Not cached."""
    eds = editions_by_id(conn)
    if eds[old]["kind"] != "code" or eds[new]["kind"] != "code":
        return None
    _, laws, provisions = read_store(conn, number, (old, new))
    if number not in laws.get(old, {}) or number not in laws.get(new, {}):
        return None
    overrides = [{"from": r["from_edition"], "to": r["to_edition"], "from_law": r["from_law"], "to_law": r["to_law"],
                  "from_provisions": json.loads(r["from_provisions"]),
                  "to_provisions": json.loads(r["to_provisions"]), "reason": r["reason"]}
                 for r in conn.execute("select * from alignment_overrides where from_edition = ? "
                                       "and to_edition = ? and law = ?", [old, new, number])]
    return compare_pair_law(old, new, number, provisions.get((old, number), []), provisions.get((new, number), []),
                            laws[old][number], laws[new][number], overrides,
                            renumbered=eds[old]["family"] == eds[new]["family"])


def _stored_law(conn, old: str, new: str, number: int) -> tuple[dict, list[dict]] | None:
    law = conn.execute("select * from law_comparisons where from_edition = ? and to_edition = ? and law = ?",
                       [old, new, number]).fetchone()
    if law is None:
        return None
    # the rows as compute_law gives them (a law with no provisions has none)
    return dict(law), unpack_rows(conn, stored_rows(conn, old, new, number) or [])


def law_data(conn, old: str, new: str, number: int) -> tuple[dict, list[dict]] | None:
    """One law of a pair (`old` the older, as `read._canonical` orders them): the
    stored comparison for successive editions, else the one computed on
    first request and cached.  None when the pair cannot be compared."""
    stored = _stored_law(conn, old, new, number)
    if stored is not None:
        return stored
    key = (_store_key(conn), old, new, number)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    value = compute_law(conn, old, new, number)  # outside the lock: two workers' threads may both compute it once
    with _cache_lock:
        _cache[key] = value
        _cache.move_to_end(key)
        while len(_cache) > ON_DEMAND_LAWS:
            _cache.popitem(last=False)
    return value
