"""The rulings' data files: `laws/rulings/<period>/<edition>.json`.

Each file is one edition's rectifications for one period of the deal (the
auction, the play), as decision trees; the two editions' files keep the same
keys in the same order, so `diff 2007.json 2017.json` shows the edition's
changes, and a new edition is one new file (a copy of the latest, edited).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
PERIODS = ("auction", "play")


def files(period: str) -> dict[str, Path]:
    """edition id -> its data file, for one period."""
    return {p.stem: p for p in sorted((HERE / period).glob("*.json"))}


@lru_cache(maxsize=None)
def load(period: str) -> dict[str, dict]:
    """Every edition's data for a period: {edition: data}."""
    out = {}
    for edition, path in files(period).items():
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("edition") != edition:
            raise ValueError(f"{path.name} says it is edition {data.get('edition')!r}")
        out[edition] = data
    return out


def editions(period: str) -> list[str]:
    return sorted(load(period), reverse=True)  # newest first: the edition in force leads


def nodes(tree, pointer: str = ""):
    """Every node of a tree with its pointer, depth first (for checks and coverage)."""
    yield pointer, tree
    for key, child in (tree.get("cases") or {}).items():
        yield from nodes(child, f"{pointer}/cases/{key}")


def all_nodes(data: dict):
    """(pointer, node) for every node of an edition's data."""
    for kind, spec in data["kinds"].items():
        yield from nodes(spec["tree"], f"kinds/{kind}/tree")
    for name, tree in data.get("subtrees", {}).items():
        yield from nodes(tree, f"subtrees/{name}")


def cites(data: dict) -> set[str]:
    """Every provision an edition's data cites anywhere."""
    out = set()
    for spec in data["kinds"].values():
        out.update(spec.get("cites", []))
    for _, node in all_nodes(data):
        out.update(node.get("cites", []))
        out.update((node.get("ask") or {}).get("cites", []))
        o = node.get("outcome") or {}
        out.update(o.get("cites", []))
        for key in ("lead_restrictions", "score_adjustment", "information"):
            if isinstance(o.get(key), dict):
                out.update(o[key].get("cites", []))
    return out


@lru_cache(maxsize=None)
def laws_cited(period: str) -> dict[str, set[int]]:
    """edition -> the law numbers its rulings cite (law pages link to the ruling)."""
    import re
    return {ed: {int(re.match(r"\d+", c).group()) for c in cites(d)} for ed, d in load(period).items()}
