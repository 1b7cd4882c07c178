"""The directors' vocabulary (search/synonyms.txt), applied as query expansion.

Entries are matched on index terms (see search/analysis.py), so case,
spelling, apostrophes and word endings do not matter.  `Synonyms.expand`
splits a query's terms into slots: a slot is one word of the query, or the
several words of a matched entry, with the alternatives it may also be found
as.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from search.analysis import terms

SYNONYMS_FILE = Path(__file__).resolve().parent / "synonyms.txt"
EXPANSION_WEIGHT = 0.8  # an expansion counts a little less than what was typed


@dataclass(frozen=True)
class Slot:
    typed: tuple[str, ...]  # the terms as typed (one word, or an entry's words)
    alternatives: tuple[tuple[str, ...], ...] = ()  # other phrases it is found as

    def all(self) -> list[tuple[tuple[str, ...], float]]:
        return [(self.typed, 1.0)] + [(a, EXPANSION_WEIGHT) for a in self.alternatives]


class Synonyms:
    def __init__(self, entries: dict[tuple[str, ...], list[tuple[str, ...]]]):
        self.entries = entries
        self.longest = max((len(k) for k in entries), default=0)

    @classmethod
    def load(cls, path: Path = SYNONYMS_FILE) -> "Synonyms":
        entries: dict[tuple[str, ...], list[tuple[str, ...]]] = {}

        def add(key: tuple[str, ...], alts: list[tuple[str, ...]]) -> None:
            have = entries.setdefault(key, [])
            for a in alts:
                if a and a != key and a not in have:
                    have.append(a)

        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" in line:
                left, _, right = line.partition("=")
                key = tuple(terms(left))
                alts = [tuple(terms(a)) for a in right.split(",")]
                if not key or not all(alts):
                    raise ValueError(f"{path}, line {n}: '{line}' has a side with no searchable words")
                add(key, alts)
            elif "~" in line:
                group = [tuple(terms(w)) for w in line.split("~")]
                if not all(group):
                    raise ValueError(f"{path}, line {n}: '{line}' has a member with no searchable words")
                for member in group:
                    add(member, group)
            else:
                raise ValueError(f"{path}, line {n}: expected 'term = expansions' or 'word ~ word'")
        return cls(entries)

    def known(self, term: str) -> bool:
        return (term,) in self.entries

    def expand(self, query_terms: list[str]) -> list[Slot]:
        """Slots for the query's terms, longest entries first, left to right."""
        slots, i = [], 0
        while i < len(query_terms):
            for size in range(min(self.longest, len(query_terms) - i), 0, -1):
                key = tuple(query_terms[i:i + size])
                if key in self.entries:
                    slots.append(Slot(key, tuple(self.entries[key])))
                    i += size
                    break
            else:
                slots.append(Slot((query_terms[i],)))
                i += 1
        return slots


@lru_cache(maxsize=1)
def synonyms() -> Synonyms:
    return Synonyms.load()
