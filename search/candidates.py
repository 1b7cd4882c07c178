"""The candidate stage of a search (issue 24): the query's score of every
matching document, computed over arrays (numpy), and the best hundred (more
when a page needs them) picked for what must run in Python
(search/query.py: grouping, second entries, guide topics after their laws,
snippets).

Why arrays and not SQLite FTS5 (or tantivy, not measured: it too would pick
by BM25 over the words): the candidates must hold every document the full
ranking would put in the top 10, and the full ranking is not BM25 over
OR-ed words (it scales a document by the share of the query's words it
holds, gives it the official index's and the guide's evidence, and weighs
editions and kinds).  Measured on the golden queries (tests/search_golden.py),
FTS5's bm25 over the same fields, the index entries' words included, lost a
top-10 result for 35 of 1,690 queries with its 300 best, and took longer
(p50 7 ms, wall, on a loaded machine) than the whole FTS5 baseline (1.7 ms)
since the synonyms multiply the words it OR-s.  The arrays compute the
ranking's own score, the same floating-point operations in the same order
as search/query.py's dictionaries did, so the candidates are exactly the
best documents: none the full ranking would rank above them is left out
(see `Searcher._ranked` for how grouping keeps that exact).

`Columns` holds what the score needs of every document, by document number;
a `View` is the same restricted to the editions one search reads (local
positions 0..n-1); `SlotScores` is what one slot of a query scores there.
"""
from __future__ import annotations

import numpy as np

NO_LAW = -1
NOT_A_PROVISION = -2  # a definition's or a topic's place in the law's tree
LINEAGE = 6  # a provision and its ancestors: '40B2(a)(v)' has five; more widen the arrays
# the candidates a search first ranks in Python; more are taken (x4 each
# time) only when grouping needs them for the page asked
FIRST_CANDIDATES = 100
MORE_CANDIDATES = 4


class Codes(dict):
    """A small number for each distinct value (a group, an edition, a kind)."""

    def code(self, value) -> int:
        found = self.get(value)
        if found is None:
            found = self[value] = len(self)
        return found


class Columns:
    """What scoring, weighting and filtering read of each document, as arrays
    by document number, filled as each shard is opened."""

    def __init__(self, total: int):
        self.weight_one = np.zeros(total)
        self.weight_any = np.zeros(total)
        self.neg_ord = np.zeros(total, np.int64)
        self.group = np.full(total, -1, np.int64)
        self.edition = np.full(total, -1, np.int64)
        self.kind = np.full(total, -1, np.int64)
        self.law = np.full(total, NO_LAW, np.int64)  # its law, when the guide is evidence for it
        # a provision's id, and its lineage (itself, then its ancestors, as
        # search/query.py `_lineage`), coded, padded with NO_LAW
        self.provision = np.full(total, NOT_A_PROVISION, np.int64)
        self.lineage = np.full((total, LINEAGE), NO_LAW, np.int64)
        self.groups, self.editions, self.kinds, self.provisions = Codes(), Codes(), Codes(), Codes()

    def set_lineage(self, d: int, lineage: tuple[str, ...]) -> None:
        if len(lineage) > self.lineage.shape[1]:
            wider = np.full((len(self.lineage), len(lineage)), NO_LAW, np.int64)
            wider[:, :self.lineage.shape[1]] = self.lineage
            self.lineage = wider
        codes = [self.provisions.code(p) for p in lineage]
        self.provision[d] = codes[0]
        self.lineage[d, :len(codes)] = codes

    def set(self, d: int, doc: dict, evidence_law: int | None) -> None:
        self.weight_one[d], self.weight_any[d] = doc["weight_one"], doc["weight_any"]
        self.neg_ord[d] = -doc["ord"]
        self.group[d] = self.groups.code(doc["group"])
        self.edition[d] = self.editions.code(doc["edition"])
        self.kind[d] = self.kinds.code(doc["kind"])
        self.law[d] = NO_LAW if evidence_law is None else evidence_law


class View:
    """`Columns` restricted to the documents `docs` (global numbers) of the
    editions one search reads: position i is document docs[i]."""

    def __init__(self, columns: Columns, docs: np.ndarray, topics: list[int], entries: list[int]):
        self.columns = columns
        self.docs = docs
        self.local = np.full(len(columns.weight_one), -1, np.int64)
        self.local[docs] = np.arange(len(docs))
        for name in ("weight_one", "weight_any", "neg_ord", "group", "edition", "kind", "law", "provision", "lineage"):
            setattr(self, name, getattr(columns, name)[docs])
        self.topics = self.local[np.asarray(topics, np.int64)] if topics else np.zeros(0, np.int64)
        self.topics = self.topics[self.topics >= 0]
        # the official index's entries that cite something (search/index.py)
        self.entries = self.local[np.asarray(entries, np.int64)] if entries else np.zeros(0, np.int64)
        self.entries = self.entries[self.entries >= 0]

    def __len__(self) -> int:
        return len(self.docs)

    def positions(self, docs) -> np.ndarray:
        """The local positions of the global documents `docs` in this view."""
        return self.local[np.fromiter(docs, np.int64)] if docs else np.zeros(0, np.int64)


class SlotScores:
    """One slot's scores in a view (search/query.py `_slot_scores`): the
    positions it matches, and at each its best field and alternative
    (`best`) and what the others add (`tie`)."""

    __slots__ = ("ids", "best", "tie")

    def __init__(self, ids: np.ndarray, best: np.ndarray, tie: np.ndarray):
        self.ids, self.best, self.tie = ids, best, tie

    def __len__(self) -> int:  # what the Searcher's bounded store counts
        return len(self.ids)


class Together:
    """The positions where a query's words stand together (its phrase bonus)."""

    __slots__ = ("ids",)

    def __init__(self, ids: np.ndarray):
        self.ids = np.unique(ids)

    def __len__(self) -> int:  # what the Searcher's bounded store counts
        return len(self.ids)


def totals(size: int, slots: list[SlotScores]) -> tuple[np.ndarray, np.ndarray]:
    """(score, slots matched) at every position: each slot's best plus its
    tie-break added in the query's order, as (total + best) + tie, which is
    what the dictionaries of search/query.py added, bit for bit."""
    t = np.zeros(size)
    matched = np.zeros(size, np.int64)
    for s in slots:
        t[s.ids] = (t[s.ids] + s.best) + s.tie
        matched[s.ids] += 1
    return t, matched


def weighed(view: View, weights: np.ndarray, t: np.ndarray, evidence: dict[int, float]) -> np.ndarray:
    """Each score times its document's weight, times 1 + the guide's evidence
    for its law where there is some (weight x (1 + evidence), then the score
    times that, as search/query.py multiplied them)."""
    if not evidence:
        return t * weights
    table = np.zeros(max(max(evidence), int(view.law.max(initial=0))) + 1)
    has = np.zeros(len(table), bool)
    for law, e in evidence.items():
        table[law], has[law] = e, True
    law = view.law
    sel = law >= 0
    sel[sel] = has[law[sel]]
    w = weights.copy()
    w[sel] = w[sel] * (1 + table[law[sel]])
    return t * w


def best(final: np.ndarray, eligible: np.ndarray, k: int) -> tuple[np.ndarray, bool]:
    """The positions of the `k` best eligible scores, with every one tied with
    the last (so no document left out scores as much as one taken), and
    whether that is every eligible position."""
    idx = np.flatnonzero(eligible)
    if len(idx) <= k:
        return idx, True
    vals = final[idx]
    kth = np.partition(vals, len(vals) - k)[len(vals) - k]
    taken = idx[vals >= kth]
    return taken, len(taken) == len(idx)


def ranked(view: View, final: np.ndarray, positions: np.ndarray) -> list[tuple[float, int, int]]:
    """(score, -order, document) at `positions`, best first, as the ranking sorts."""
    out = list(zip(final[positions].tolist(), view.neg_ord[positions].tolist(), view.docs[positions].tolist()))
    out.sort(reverse=True)
    return out



def split_groups(view: View, final: np.ndarray, over: np.ndarray) -> int:
    """How many groups of the documents at `over` (each group's members at
    or over its bar) have a second entry, as search/query.py
    `_second_entries` decides: a member of the head's edition that is
    neither above nor below the head in the law's tree (its provision not
    in the head's lineage, nor the head's in its)."""
    if not len(over):
        return 0
    # by group, then as ranked: each group's head is its last
    over = over[np.lexsort((view.docs[over], view.neg_ord[over], final[over], view.group[over]))]
    g = view.group[over]
    new = np.concatenate((g[1:] != g[:-1], [True]))
    last = np.flatnonzero(new)
    head = over[last[np.concatenate(([0], np.cumsum(new[:-1])))]]
    related = ((view.lineage[head] == view.provision[over][:, None]).any(axis=1)
               | (view.lineage[over] == view.provision[head][:, None]).any(axis=1))
    second = ((over != head) & (view.provision[head] != NOT_A_PROVISION)
              & (view.edition[over] == view.edition[head]) & ~related)
    return len(np.unique(g[second]))
