"""Build work spread over the machine's cores.

A build with thirty codes does the same work thirty times: parse a source,
compare two successive codes, index an edition.  Each piece is pure Python,
so threads would take turns on one core; `fork_map` runs them in worker
processes instead, one per core.

The workers are forked after `shared` is set, so they read it (the parsed
corpus, the store's provisions) from the memory they inherit, and only each
item and its result cross between processes.  Nothing but build code calls
this: the web app never forks.
"""
from __future__ import annotations

import multiprocessing
import os
from typing import Any, Callable, Iterable

_TASK: tuple[Callable, Any] | None = None  # (fn, shared) for the workers forked by fork_map


def _run(item):
    fn, shared = _TASK
    return fn(shared, item)


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def fork_map(fn: Callable[[Any, Any], Any], items: Iterable, shared: Any = None,
             workers: int | None = None) -> list:
    """[fn(shared, item) for item in items], in order, computed in `workers`
    processes (default: one per core); here, when there is one worker or
    one item, or the system cannot fork.  `fn` and each item and result must pickle; `shared` need not.
    An exception in a worker is raised here (so it must pickle too)."""
    global _TASK
    items = list(items)
    workers = min(workers or cores(), len(items))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():  # (Windows): here
        return [fn(shared, item) for item in items]
    _TASK = (fn, shared)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_run, items, chunksize=1)
    finally:
        _TASK = None
