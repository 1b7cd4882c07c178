"""Alignment: which provisions of one law in two editions correspond.

The second stage: it pairs *units* of text (`units`) into groups
(`align`), then cuts splits and merges into one piece per provision
(`expand`), and says which groups are out of order (`out_of_order`).  It
knows nothing of statuses, summaries or the store: `changes` turns its
groups into changes.  It uses `text` only.

How provisions are aligned
--------------------------
A provision's text is cut at its paragraph breaks into *units* (the rubber
code's laws are mostly one unlabelled provision of several paragraphs, each
the counterpart of one or more lettered provisions of the duplicate code).
A provision with no text but a heading ('40A Players' Systemic Agreements')
is a unit of its own, matched against other headings only.  Provisions with
neither (a bare '40A1' above its '(a)' and '(b)') carry no words to compare.

1. Overrides (`corpus/alignment-overrides.toml`, read by `overrides`) are
   applied first.
2. One-to-one: every pair of units whose texts are similar enough
   (`MATCH_MIN`, rapidfuzz's `fuzz.ratio` on normalised text) is a candidate;
   candidates are taken greedily, best first, with small bonuses for the same
   provision id and the same relative position in the law, so that of two
   equally good partners the one in the expected place wins.
3. Splits and merges: a unit left over whose text is contained in a unit of
   the other edition (`CONTAIN_MIN`, `fuzz.partial_ratio`) joins that unit's
   group: 2007 44A and 44B together became the first paragraph of rubber 44.
4. Out of order: an aligned group not on the longest run of groups that
   keeps its order in both editions is *moved* (`out_of_order`; the statuses
   themselves are given in `changes`).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from laws.compare.text import QUOTES, normalise, unique

# Thresholds (0-100 scales of rapidfuzz).  Measured on the corpus: reworded
# counterparts score 62-100 with fuzz.ratio (2007 36B3 'Law 23 may apply...'
# against 2017's 'Law 72C may apply...' scores 88; 37B2 with its new last
# sentence ~75), while unrelated provisions of one law rarely pass 55.
MATCH_MIN = 60
# Splits and merges are found clause by clause (a text cut at . ; : and
# brackets): a clause is found in another text when fuzz.partial_ratio, the
# best window of the other text, reaches CONTAIN_MIN.  A clause carried over
# scores 90-100 (with a word or two changed, 85+); unrelated clauses of the
# Laws reach 60-75 for sharing words like 'the player', 'declarer', 'trick'.
CONTAIN_MIN = 85
# A leftover provision joins another's group when at least this share of its
# text (by length) is in clauses found there.  2007 44D ('If unable to follow
# suit, a player may play any card (unless he is subject to restriction ...)')
# has 40% of its text in rubber 44's second paragraph.
COVER_MIN = 0.35
# Clauses shorter than this are not looked for: 'Law 72C may apply' or 'during
# the clarification period' are found almost anywhere.
CONTAIN_MIN_CHARS = 20
# Tie-breakers added to the similarity when choosing between candidates.
SAME_ID_BONUS = 8  # 2017 36A is more likely 2007 36A than 2007 37A
ORDER_BONUS = 6  # times (1 - distance between the relative positions in the law)


@dataclass
class Unit:
    index: int  # position among the units of its side
    pid: str
    para: int  # paragraph of the provision's text (0 for a heading unit)
    kind: str  # 'text' | 'heading'
    heading: str
    text: str
    raw: str
    key: str = ""
    pos: float = 0.0  # relative position in the law, 0..1


@dataclass
class Group:
    a: list[Unit] = field(default_factory=list)
    b: list[Unit] = field(default_factory=list)
    score: float = 100.0
    how: str = "auto"  # 'auto' | 'contained' | 'override'; pieces: 'split' | 'merged'
    reason: str = ""
    # a piece of a split or merge: its own texts (text, raw on each side) and
    # the whole group's provisions
    texts: tuple[str, str, str, str] | None = None
    whole: tuple[list[str], list[str]] | None = None


def units(provisions: list[dict]) -> list[Unit]:
    """The alignment units of one law in one edition, in reading order.
    `provisions`: dicts with id, heading, text, raw_text (store rows)."""
    out: list[Unit] = []
    for p in provisions:
        text = (p.get("text") or "").strip()
        heading = (p.get("heading") or "").strip()
        raw = (p.get("raw_text") or text).strip()
        if text:
            paras = [s for s in re.split(r"\n\s*\n", text) if s.strip()]
            raws = [s for s in re.split(r"\n\s*\n", raw) if s.strip()]
            if len(raws) != len(paras):  # the raw reading is cut differently: show it whole, once
                raws = [raw] + [""] * (len(paras) - 1)
            for k, (para, rpara) in enumerate(zip(paras, raws)):
                out.append(Unit(0, p["id"], k, "text", heading if k == 0 else "", para, rpara))
        elif heading:
            out.append(Unit(0, p["id"], 0, "heading", heading, "", ""))
    for i, u in enumerate(out):
        u.index = i
        u.pos = i / max(len(out) - 1, 1)
        u.key = normalise(u.text if u.kind == "text" else u.heading.lower())
    return out


class _Grouping:
    """The groups made so far, in the order made, and the group each unit is
    in ((side, index) -> group; side 0 is the older edition).  Each step of
    `align` takes only units no earlier step took."""

    def __init__(self) -> None:
        self.groups: list[Group] = []
        self.group_of: dict[tuple[int, int], Group] = {}

    def add(self, ua: list[Unit], ub: list[Unit], score: float, how: str, reason: str = "") -> Group:
        g = Group(list(ua), list(ub), score, how, reason)
        self.groups.append(g)
        for u in ua:
            self.group_of[(0, u.index)] = g
        for u in ub:
            self.group_of[(1, u.index)] = g
        return g


def align(a: list[Unit], b: list[Unit], overrides: list[dict] = ()) -> list[Group]:
    """Groups of corresponding units (see the module's docstring), in the
    order the steps made them."""
    grouping = _Grouping()
    _apply_overrides(grouping, a, b, overrides)
    _match_exact(grouping, a, b)
    _match_best_first(grouping, a, b)
    _join_contained(grouping, a, b)
    _leave_unmatched(grouping, a, b)
    _finish(grouping.groups)
    return grouping.groups


def _apply_overrides(grouping: _Grouping, a: list[Unit], b: list[Unit], overrides: list[dict]) -> None:
    for o in overrides:
        ua = [u for u in a if _named(u, o["from_provisions"])]
        ub = [u for u in b if _named(u, o["to_provisions"])]
        grouping.add(ua, ub, _ratio(ua, ub) if ua and ub else 0.0, "override", o["reason"])


def _match_exact(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """The same words under the same id, matched at once: no other candidate
    can outrank such a pair (it scores 100 plus the same-id bonus, which no
    other partner of either unit can have), so the greedy pass of
    `_match_best_first` would take it anyway; between successive codes most
    of a law is this."""
    group_of = grouping.group_of
    exact: dict[tuple, Unit] = {(ub.pid, ub.para, ub.kind, ub.key): ub for ub in b if ub.key}
    for ua in a:
        ub = exact.get((ua.pid, ua.para, ua.kind, ua.key)) if ua.key else None
        if ub is not None and (0, ua.index) not in group_of and (1, ub.index) not in group_of:
            grouping.add([ua], [ub], 100.0, "auto")


def _match_best_first(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """One-to-one, best candidate first."""
    group_of = grouping.group_of
    candidates = []
    for ua in a:
        if (0, ua.index) in group_of or not ua.key:
            continue
        for ub in b:
            if (1, ub.index) in group_of or ub.kind != ua.kind or not ub.key:
                continue
            score = fuzz.ratio(ua.key, ub.key)
            if score < MATCH_MIN:
                continue
            bonus = (SAME_ID_BONUS if ua.pid == ub.pid and ua.para == ub.para else 0) \
                + ORDER_BONUS * (1 - abs(ua.pos - ub.pos))
            candidates.append((score + bonus, -abs(ua.index - ub.index), score, ua.index, ub.index))
    candidates.sort(reverse=True)
    for _rank, _near, score, i, j in candidates:
        if (0, i) not in group_of and (1, j) not in group_of:
            grouping.add([a[i]], [b[j]], score, "auto")


def _join_contained(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """Splits and merges: leftovers whose clauses are found in a unit of the
    other side join that unit's group (or make one with it)."""
    group_of = grouping.group_of
    for side, mine, theirs in ((0, a, b), (1, b, a)):
        for u in mine:
            if (side, u.index) in group_of or u.kind != "text" or len(u.key) < CONTAIN_MIN_CHARS:
                continue
            best = _best_container(group_of, side, u, theirs)
            if best is None:
                continue
            _rank, v, cover = best
            g = group_of.get((1 - side, v.index))
            if g is None:
                pair = ([u], [v]) if side == 0 else ([v], [u])
                grouping.add(*pair, 100 * cover, "contained")
            else:
                (g.a if side == 0 else g.b).append(u)
                group_of[(side, u.index)] = g
                g.how = "contained" if g.how == "auto" else g.how


def _best_container(group_of: dict, side: int, u: Unit, theirs: list[Unit]) -> tuple | None:
    """(rank, unit, coverage) of the unit of the other side holding most of
    `u`'s clauses, nearest in place breaking ties; None when none holds
    COVER_MIN of it.  A unit an override placed is never joined."""
    best = None
    for v in theirs:
        if v.kind != "text":
            continue
        g = group_of.get((1 - side, v.index))
        if g is not None and g.how == "override":
            continue
        cover = coverage(u.key, v.key)
        if cover >= COVER_MIN:
            rank = (cover + ORDER_BONUS / 100 * (1 - abs(u.pos - v.pos)), -abs(u.pos - v.pos))
            if best is None or rank > best[0]:
                best = (rank, v, cover)
    return best


def _leave_unmatched(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """Each unit no step took: a group of its own (removed, or added)."""
    for u in a:
        if (0, u.index) not in grouping.group_of:
            grouping.add([u], [], 0.0, "auto")
    for u in b:
        if (1, u.index) not in grouping.group_of:
            grouping.add([], [u], 0.0, "auto")


def _finish(groups: list[Group]) -> None:
    """Each group's units in reading order; a group of more than two units
    scored as a whole."""
    for g in groups:
        g.a.sort(key=lambda u: u.index)
        g.b.sort(key=lambda u: u.index)
        if len(g.a) + len(g.b) > 2 and g.a and g.b:
            g.score = _ratio(g.a, g.b)


def _named(u: Unit, names: list[str]) -> bool:
    """An override names a provision ('44G') or one paragraph of it ('44#3')."""
    return u.pid in names or f"{u.pid}#{u.para + 1}" in names


def expand(groups: list[Group]) -> list[Group]:
    """Splits (one unit become several) and merges (several become one) as
    one piece per unit of the many side, each facing the part of the one
    side's text where its words are, so that each piece reads as its own
    change.  Other groups are kept as they are."""
    out = []
    for g in groups:
        one_many = len(g.a) == 1 and len(g.b) > 1
        many_one = len(g.a) > 1 and len(g.b) == 1
        if not (one_many or many_one) or any(u.kind != "text" for u in g.a + g.b):
            out.append(g)
            continue
        one, many = (g.a[0], g.b) if one_many else (g.b[0], g.a)
        texts = _segments(one.text, [u.text for u in many])
        raws = _segments(one.raw, [u.raw for u in many])
        whole = (unique(u.pid for u in g.a), unique(u.pid for u in g.b))
        for u, seg, rseg in zip(many, texts, raws):
            pa, pb = ([one], [u]) if one_many else ([u], [one])
            t = (seg, u.text, rseg, u.raw) if one_many else (u.text, seg, u.raw, rseg)
            score = fuzz.ratio(normalise(t[0]), normalise(t[1]))
            out.append(Group(pa, pb, score, "split" if one_many else "merged", g.reason, t, whole))
    return out


def _segments(whole: str, pieces: list[str]) -> list[str]:
    """Cut `whole` into consecutive segments, one per piece, each beginning
    where that piece's words begin in `whole` (found by rapidfuzz's partial
    alignment); the first begins at the start, so no word is lost."""
    flat = whole.translate(QUOTES).lower()  # same length as `whole`
    starts = [_locate(p, flat) for p in pieces]
    order = sorted(range(len(pieces)), key=lambda k: (starts[k], k))
    bounds = [0] * len(pieces)
    for rank, k in enumerate(order):
        bounds[k] = 0 if rank == 0 else max(_snap(whole, starts[k]), bounds[order[rank - 1]])
    ends = {}
    for rank, k in enumerate(order):
        ends[k] = bounds[order[rank + 1]] if rank + 1 < len(order) else len(whole)
    return [whole[bounds[k]:ends[k]].strip() for k in range(len(pieces))]


def _locate(piece: str, flat: str) -> int:
    """Where a piece's words begin in a (quote-unified, lower-case) text: at
    its first clause found there, else where the piece fits best."""
    for clause in _clauses(normalise(piece)):
        al = fuzz.partial_ratio_alignment(clause, flat)
        if al.score >= CONTAIN_MIN:
            return al.dest_start
    key = piece.translate(QUOTES).lower()
    return fuzz.partial_ratio_alignment(key, flat).dest_start if len(key) <= len(flat) else 0


def _snap(text: str, i: int) -> int:
    """Back to the start of the word, and to the start of the sentence when
    that is a few words back ('It may prescribe' rather than 'may prescribe')."""
    while 0 < i < len(text) and not text[i - 1].isspace():
        i -= 1
    head = text[max(0, i - 30):i]
    m = re.search(r"[.;:)]\s+(?=\S*(?:\s+\S+){0,2}\s*$)", head)
    if m:
        i = max(0, i - 30) + m.end()
    return i


def _clauses(key: str) -> list[str]:
    """A text cut at sentence and clause marks, keeping the pieces long
    enough to say something ('If unable to follow suit, a player may play any
    card' / 'unless he is subject to restriction ...')."""
    return [c.strip() for c in re.split(r"[.;:()]", key.lower()) if len(c.strip()) >= CONTAIN_MIN_CHARS]


def coverage(key: str, other: str) -> float:
    """How much of a text (0..1, by length) is in clauses found, nearly word
    for word, inside another text."""
    clauses = _clauses(key)
    total = sum(len(c) for c in clauses)
    if not total:
        return 0.0
    other = other.lower()
    found = sum(len(c) for c in clauses if fuzz.partial_ratio(c, other) >= CONTAIN_MIN)
    return found / total


def _ratio(ua: list[Unit], ub: list[Unit]) -> float:
    return fuzz.ratio(" ".join(u.key for u in ua), " ".join(u.key for u in ub))


def out_of_order(groups: list[Group]) -> set[int]:
    """ids of the aligned groups that are out of order: those not on a longest
    run of groups increasing in both editions."""
    both = sorted((g for g in groups if g.a and g.b), key=lambda g: (g.a[0].index, g.b[0].index))
    seq = [g.b[0].index for g in both]
    # patience sorting, keeping back-pointers to recover one longest run
    tails: list[int] = []
    tails_at: list[int] = []
    back = [-1] * len(seq)
    for k, x in enumerate(seq):
        p = bisect_left(tails, x)
        if p == len(tails):
            tails.append(x)
            tails_at.append(k)
        else:
            tails[p], tails_at[p] = x, k
        back[k] = tails_at[p - 1] if p else -1
    keep = set()
    k = tails_at[-1] if tails_at else -1
    while k >= 0:
        keep.add(k)
        k = back[k]
    return {id(g) for n, g in enumerate(both) if n not in keep}
