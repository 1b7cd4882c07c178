"""search.index.build writes its shards and their postings in worker
processes: the index is the same whatever the number of workers."""
from __future__ import annotations

import json
import pickle

import sqlite_utils

from laws.build import current_store
from search import index, offline


def _contents(out) -> dict:
    meta = json.loads((out / index.META).read_text(encoding="utf-8"))
    meta.pop("seconds")
    files = {p.name: p.read_bytes() for p in out.iterdir() if p.name.startswith("postings-")}
    docs = {p.name: pickle.loads(p.read_bytes()) for p in out.iterdir() if p.name.startswith("docs-")}
    return {"meta": meta, "postings": files, "docs": docs,
            "offline": (out / offline.PAYLOAD).read_bytes() if (out / offline.PAYLOAD).exists() else None}


def test_the_index_is_the_same_built_by_one_process_or_two(built, tmp_path):
    db = sqlite_utils.Database(current_store(built))
    one = index.build(db, tmp_path / "one", workers=1)
    two = index.build(db, tmp_path / "two", workers=2)
    a, b = _contents(one), _contents(two)
    assert len(a["postings"]) == len(a["meta"]["editions"]) > 1
    assert a == b
