"""Comparing editions: which laws, which provisions and which words changed.

Build time (`build`): successive codes of each family (for each law, every
code that has it against the next one that has it: `successive_pairs`) are
compared; the provisions of each law are aligned and each aligned pair is
given a status and its word-level differences.  That is linear in editions:
thirty codes of one family make twenty-nine pairs, not 435.  The results go
in the store:

    law_comparisons      one row per (older edition, newer edition, law): status,
                         counts, title change, changed cross-references
    alignments           one row per change: the provisions on each side, status,
                         similarity score, word ops on the corrected text (`ops`)
                         and on the sources' raw readings (`raw_ops`)
    alignment_overrides  the corpus's curated alignments, for comparisons made later

Serve time (`law_data`): any other pair of codes (2007 against a rubber code,
or two codes of a family further apart) is compared when a reader first asks
for it, by the same function over the read-only store, and kept in a bounded
in-memory cache (why there: see ON_DEMAND_LAWS).  No comparison a reader
never asks for is made.

Pairs are compared once, older -> newer (by year, then manifest order);
`diff` reverses them when asked the other way round, which only swaps
inserts and deletes.

Query time (`pairs`, `overview`, `diff`, `history`): plain functions over the
read-only store, shaped like CONTRACT.md's `GET /api/diff`.

How provisions are aligned
--------------------------
A provision's text is cut at its paragraph breaks into *units* (the rubber
code's laws are mostly one unlabelled provision of several paragraphs, each
the counterpart of one or more lettered provisions of the duplicate code).
A provision with no text but a heading ('40A Players' Systemic Agreements')
is a unit of its own, matched against other headings only.  Provisions with
neither (a bare '40A1' above its '(a)' and '(b)') carry no words to compare.

1. Overrides (`corpus/alignment-overrides.toml`) are applied first.
2. One-to-one: every pair of units whose texts are similar enough
   (`MATCH_MIN`, rapidfuzz's `fuzz.ratio` on normalised text) is a candidate;
   candidates are taken greedily, best first, with small bonuses for the same
   provision id and the same relative position in the law, so that of two
   equally good partners the one in the expected place wins.
3. Splits and merges: a unit left over whose text is contained in a unit of
   the other edition (`CONTAIN_MIN`, `fuzz.partial_ratio`) joins that unit's
   group: 2007 44A and 44B together became the first paragraph of rubber 44.
4. Status of each group: `same` (equal after normalising whitespace, quote
   marks and footnote marks; headings compared ignoring case), `changed`,
   `moved` (aligned, but out of order with the other aligned provisions: not on
   the longest run of groups that keeps its order in both editions; a moved
   provision may also have changed words, its ops say), `added`, `removed`.
   A renumbered provision (2007 35.1 -> 2017 35A) keeps both ids.
"""
from __future__ import annotations

import json
import re
import threading
import time
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass, field
import functools
from difflib import SequenceMatcher
from pathlib import Path

from rapidfuzz import fuzz

from laws import citations, tomlfiles
from laws.model import SourceError
from laws.workers import fork_map

OVERRIDES = "alignment-overrides.toml"

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

STATUSES = ("same", "changed", "moved", "added", "removed")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})
_TOKEN = re.compile(r"(\s*)(\w+|[^\w\s])")
_FOOTNOTE_MARK = re.compile(r"^[*†‡]+$")
# a citation as the Laws write it, after 'Law': 17E2, 40B2(a)(v), 26, 72C
_CITATION = re.compile(r"^\d{1,3}(?:[A-H](?:\d{1,2}(?:\([a-z]{1,4}\))*)?)?$")


# ---------------------------------------------------------------- text

@functools.lru_cache(maxsize=16384)
def normalise(text: str) -> str:
    """What is compared: whitespace collapsed, quote marks and dashes unified,
    footnote marks dropped.  Case is kept (it is the text's own).  Cached: a
    provision's text is compared with the codes either side of it, several
    times each."""
    words = (text or "").translate(_QUOTES).split()
    if not any(c in text for c in "*†‡"):  # no footnote mark to drop: the common case
        return " ".join(words)
    return " ".join(t for t in words if not _FOOTNOTE_MARK.match(t))


@functools.lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(display, key) per word or punctuation mark; display keeps the
    whitespace before it, key is what is compared.  Cached: a provision's
    text is compared with every edition that has its law."""
    return tuple(_tokens_of(text))


def _tokens_of(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _TOKEN.finditer(text or ""):
        if _FOOTNOTE_MARK.match(m[2]):
            continue
        out.append((m[1] + m[2], m[2].translate(_QUOTES)))
    if out:
        out[0] = (out[0][0].lstrip(), out[0][1])
    return out


def word_ops(old: str, new: str) -> list[list[str]]:
    """Word-level differences as [[op, text], ...], op one of equal, delete,
    insert.  Joining the equal and delete texts gives the old text, the equal
    and insert texts the new one (equal runs show the new text's spacing)."""
    a, b = _tokens(old), _tokens(new)
    if a == b:  # the same words: what SequenceMatcher would say, without it
        text = "".join(t[0] for t in b)
        return [["equal", text]] if text else []
    ops: list[list[str]] = []

    def add(op: str, toks) -> None:
        text = "".join(t[0] for t in toks)
        if not text:
            return
        if ops and ops[-1][0] == op:
            ops[-1][1] += text
        else:
            ops.append([op, text])

    sm = SequenceMatcher(None, [k for _, k in a], [k for _, k in b], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            add("equal", b[j1:j2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return _tidy_spaces(ops)


def _tidy_spaces(ops: list[list[str]]) -> list[list[str]]:
    """Move the space in front of a changed run to the equal text before it,
    so that 'Law 17E2' -> 'Law 17D3' reads equal 'Law ', delete '17E2',
    insert '17D3' rather than marking the space as changed."""
    i = 0
    while i < len(ops):
        if ops[i][0] == "equal":
            i += 1
            continue
        j = i
        while j < len(ops) and ops[j][0] != "equal":
            j += 1
        run = ops[i:j]
        lead = re.match(r"\s*", run[0][1])[0]
        if i > 0 and lead and all(o[1].startswith(lead) for o in run):
            ops[i - 1][1] += lead
            for o in run:
                o[1] = o[1][len(lead):]
        i = j
    return [o for o in ops if o[1]]


def reverse_ops(ops: list[list[str]]) -> list[list[str]]:
    """The ops read the other way round.  Equal runs keep the spacing of the
    text they were taken from, which does not matter for reading."""
    swap = {"insert": "delete", "delete": "insert", "equal": "equal"}
    out: list[list[str]] = []
    i = 0
    while i < len(ops):
        # a delete followed by an insert stays in that order when reversed
        if ops[i][0] == "delete" and i + 1 < len(ops) and ops[i + 1][0] == "insert":
            out += [["delete", ops[i + 1][1]], ["insert", ops[i][1]]]
            i += 2
            continue
        out.append([swap[ops[i][0]], ops[i][1]])
        i += 1
    return out


def citation_changes(ops: list[list[str]]) -> list[tuple[str, str]]:
    """Cross-references changed in place: a deleted citation followed by an
    inserted one ('17E2' -> '17D3', '26' -> '26B')."""
    out = []
    for (op1, old), (op2, new) in zip(ops, ops[1:]):
        if op1 == "delete" and op2 == "insert":
            old, new = old.strip(), new.strip()
            if old != new and _CITATION.match(old) and _CITATION.match(new):
                out.append((old, new))
    return out


# ---------------------------------------------------------------- alignment

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


def align(a: list[Unit], b: list[Unit], overrides: list[dict] = ()) -> list[Group]:
    """Groups of corresponding units (see the module's docstring)."""
    group_of: dict[tuple[int, int], Group] = {}  # (side, index) -> group
    groups: list[Group] = []

    def new_group(ua: list[Unit], ub: list[Unit], score: float, how: str, reason: str = "") -> Group:
        g = Group(list(ua), list(ub), score, how, reason)
        groups.append(g)
        for u in ua:
            group_of[(0, u.index)] = g
        for u in ub:
            group_of[(1, u.index)] = g
        return g

    for o in overrides:
        ua = [u for u in a if _named(u, o["from_provisions"])]
        ub = [u for u in b if _named(u, o["to_provisions"])]
        new_group(ua, ub, _ratio(ua, ub) if ua and ub else 0.0, "override", o["reason"])

    # the same words under the same id, matched at once: no other candidate
    # can outrank such a pair (it scores 100 plus the same-id bonus, which no
    # other partner of either unit can have), so the greedy pass below would
    # take it anyway; between successive codes most of a law is this
    exact: dict[tuple, Unit] = {(ub.pid, ub.para, ub.kind, ub.key): ub for ub in b if ub.key}
    for ua in a:
        ub = exact.get((ua.pid, ua.para, ua.kind, ua.key)) if ua.key else None
        if ub is not None and (0, ua.index) not in group_of and (1, ub.index) not in group_of:
            new_group([ua], [ub], 100.0, "auto")

    # one-to-one, best first
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
            new_group([a[i]], [b[j]], score, "auto")

    # splits and merges: leftovers whose clauses are found in a unit of the other side
    for side, mine, theirs in ((0, a, b), (1, b, a)):
        for u in mine:
            if (side, u.index) in group_of or u.kind != "text" or len(u.key) < CONTAIN_MIN_CHARS:
                continue
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
            if best is None:
                continue
            _rank, v, cover = best
            g = group_of.get((1 - side, v.index))
            if g is None:
                pair = ([u], [v]) if side == 0 else ([v], [u])
                new_group(*pair, 100 * cover, "contained")
            else:
                (g.a if side == 0 else g.b).append(u)
                group_of[(side, u.index)] = g
                g.how = "contained" if g.how == "auto" else g.how

    for u in a:
        if (0, u.index) not in group_of:
            new_group([u], [], 0.0, "auto")
    for u in b:
        if (1, u.index) not in group_of:
            new_group([], [u], 0.0, "auto")
    for g in groups:
        g.a.sort(key=lambda u: u.index)
        g.b.sort(key=lambda u: u.index)
        if len(g.a) + len(g.b) > 2 and g.a and g.b:
            g.score = _ratio(g.a, g.b)
    return groups


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
        whole = (_unique(u.pid for u in g.a), _unique(u.pid for u in g.b))
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
    flat = whole.translate(_QUOTES).lower()  # same length as `whole`
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
    key = piece.translate(_QUOTES).lower()
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


def _moved(groups: list[Group]) -> set[int]:
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


def _unique(items):
    seen = []
    for x in items:
        if x not in seen:
            seen.append(x)
    return seen


def _join(us: list[Unit], attr: str) -> str:
    return "\n\n".join(getattr(u, attr) for u in us if getattr(u, attr))


def compare_law(a_provisions: list[dict], b_provisions: list[dict], overrides: list[dict] = ()) -> list[dict]:
    """The changes between one law's provisions in two editions, in the newer
    edition's reading order (removed provisions where they stood).  Each
    change has `ord` (its place in that order) and `rev_ord` (its place in the
    older edition's order, for reading the comparison the other way round)."""
    a, b = units(a_provisions), units(b_provisions)
    groups = expand(align(a, b, overrides))
    moved = _moved(groups)
    changes = []
    for g in sorted(groups, key=_placement(groups, "b")):
        change = _change(g, id(g) in moved)
        change["_a"], change["_b"] = [u.index for u in g.a], [u.index for u in g.b]
        prev = changes[-1] if changes else None
        # paragraphs of one provision aligned to paragraphs of one provision: one change
        if (prev and prev["from_provisions"] == change["from_provisions"]
                and prev["to_provisions"] == change["to_provisions"] and prev["from_provisions"]
                and prev["to_provisions"] and prev["how"] == change["how"] == "auto"):
            _coalesce(prev, change)
            prev["_a"] += change["_a"]
            prev["_b"] += change["_b"]
            continue
        changes.append(change)
    for n, c in enumerate(changes):
        c["ord"] = n
    for n, c in enumerate(sorted(changes, key=_placement_of_changes(changes))):
        c["rev_ord"] = n
    for c in changes:
        del c["_a"], c["_b"]
    return changes


def _placement(groups: list[Group], primary: str):
    """Sort key putting groups in the primary side's reading order; a group
    with no unit on that side goes just after the counterpart of the aligned
    unit before it on its own side."""
    other = "a" if primary == "b" else "b"
    partner: dict[int, int] = {}
    for g in groups:
        mine, theirs = getattr(g, other), getattr(g, primary)
        if mine and theirs:
            for u in mine:
                partner[u.index] = theirs[0].index

    def key(g: Group) -> tuple:
        mine, theirs = getattr(g, other), getattr(g, primary)
        if theirs:
            return (theirs[0].index, 0, mine[0].index if mine else -1)
        before = [partner[i] for i in range(mine[0].index) if i in partner]
        return (max(before) if before else -1, 1, mine[0].index)
    return key


def _placement_of_changes(changes: list[dict]):
    """The same as `_placement` for finished changes, in the older edition's order."""
    partner: dict[int, int] = {}
    for c in changes:
        if c["_a"] and c["_b"]:
            for i in c["_b"]:
                partner[i] = min(c["_a"])

    def key(c: dict) -> tuple:
        if c["_a"]:
            return (min(c["_a"]), 0, min(c["_b"]) if c["_b"] else -1)
        before = [partner[i] for i in range(min(c["_b"])) if i in partner]
        return (max(before) if before else -1, 1, min(c["_b"]))
    return key


def _change(g: Group, is_moved: bool) -> dict:
    if g.texts:
        old, new, old_raw, new_raw = g.texts
    else:
        old, new = _join(g.a, "text"), _join(g.b, "text")
        old_raw, new_raw = _join(g.a, "raw"), _join(g.b, "raw")
    old_head = next((u.heading for u in g.a if u.heading), "")
    new_head = next((u.heading for u in g.b if u.heading), "")
    if g.a and not g.b:
        status = "removed"
    elif g.b and not g.a:
        status = "added"
    else:
        same_text = normalise(old) == normalise(new)
        same_head = normalise(old_head).lower() == normalise(new_head).lower()
        # a split or merge is a change even where the words are all kept
        status = "moved" if is_moved else ("same" if same_text and same_head and not g.whole else "changed")
    text_changed = status in ("changed", "moved") and normalise(old) != normalise(new)
    ops = word_ops(old, new) if (old or new) else []
    if (old_raw, new_raw) == (old, new):  # no corrections on either side: the same differences
        raw_ops = [list(op) for op in ops]
    else:
        raw_ops = word_ops(old_raw, new_raw) if (old_raw or new_raw) else []
    heading_ops = (word_ops(old_head, new_head)
                   if normalise(old_head).lower() != normalise(new_head).lower() else [])
    minor = text_changed and _bare(old) == _bare(new)
    return {
        "from_provision": g.a[0].pid if g.a else None,
        "to_provision": g.b[0].pid if g.b else None,
        "status": status,
        "ops": ops,
        "from_provisions": _unique(u.pid for u in g.a),
        "to_provisions": _unique(u.pid for u in g.b),
        "score": round(g.score, 1),
        "how": g.how,
        "reason": g.reason,
        "part_of": {"from_provisions": g.whole[0], "to_provisions": g.whole[1]} if g.whole else None,
        "text_changed": text_changed,
        "minor": minor,
        "heading_ops": heading_ops,
        "raw_ops": raw_ops,
    }


def _bare(text: str) -> str:
    """Text without case and punctuation: a change that vanishes here is one of
    capitalisation or punctuation only."""
    return " ".join(re.findall(r"\w+", normalise(text).lower()))


def _coalesce(prev: dict, change: dict) -> None:
    for key in ("ops", "raw_ops"):
        if prev[key] and change[key]:
            prev[key] = prev[key] + [["equal", "\n\n"]] + change[key]
        else:
            prev[key] = prev[key] or change[key]
    prev["heading_ops"] = prev["heading_ops"] or change["heading_ops"]
    rank = {"same": 0, "changed": 1, "moved": 2}
    if rank.get(change["status"], 0) > rank.get(prev["status"], 0):
        prev["status"] = change["status"]
    # minor: every paragraph whose words changed changed only in case or punctuation
    parts = [(p["text_changed"], p["minor"]) for p in (prev, change)]
    prev["text_changed"] = any(t for t, _m in parts)
    prev["minor"] = prev["text_changed"] and all(m for t, m in parts if t)
    prev["score"] = min(prev["score"], change["score"])


# ---------------------------------------------------------------- summaries

def counts(changes: list[dict]) -> dict[str, int]:
    c = {s: 0 for s in STATUSES}
    for ch in changes:
        c[ch["status"]] += 1
    return c


def law_status(changes: list[dict], title_changed: bool) -> str:
    return "same" if not title_changed and all(c["status"] == "same" for c in changes) else "changed"


def summary(c: dict[str, int], title_changed: bool = False, refs: list = ()) -> str:
    """'3 provisions changed, 1 added; cross-reference 17E2 → 17D3'."""
    parts = []
    for status in ("changed", "moved", "added", "removed"):
        n = c.get(status, 0)
        if n:
            noun = "provision" if n == 1 else "provisions"
            parts.append(f"{n} {noun} {status}" if not parts else f"{n} {status}")
    if title_changed:
        parts.append("title changed")
    text = ", ".join(parts) if parts else "no changes"
    if refs:
        shown = ", ".join(f"{old} → {new}" for old, new in refs[:4])
        more = f" and {len(refs) - 4} more" if len(refs) > 4 else ""
        text += f"; cross-reference{'s' if len(refs) > 1 else ''} {shown}{more}"
    return text


# ---------------------------------------------------------------- overrides

def load_overrides(corpus_dir: Path | None) -> list[dict]:
    """Curated alignments (`corpus/alignment-overrides.toml`), each with its
    reason.  Checked against the store in `build`."""
    if corpus_dir is None:
        return []
    path = Path(corpus_dir) / OVERRIDES
    if not path.exists():
        return []
    raw, data = tomlfiles.read(path)
    lines = tomlfiles.entry_lines(raw, "override")
    out = []
    for entry, line in zip(data.get("override", []), lines):
        for key in ("from", "to", "law", "reason"):
            if not str(entry.get(key, "")).strip():
                raise SourceError(OVERRIDES, f"an override has no '{key}'", line)
        if not isinstance(entry["law"], int) or isinstance(entry["law"], bool):
            raise SourceError(OVERRIDES, f"'law' must be a law number, not {entry['law']!r}", line)
        fp, tp = list(entry.get("from_provisions", [])), list(entry.get("to_provisions", []))
        if not fp and not tp:
            raise SourceError(OVERRIDES, "an override names no provisions", line)
        out.append({"from": str(entry["from"]), "to": str(entry["to"]), "law": int(entry["law"]),
                    "from_provisions": fp, "to_provisions": tp, "reason": entry["reason"], "line": line})
    return out


# ---------------------------------------------------------------- build

def successive_pairs(editions: list[dict], laws: dict[str, dict[int, str]]) -> dict[tuple[str, str], list[int]]:
    """The comparisons made at build time: in each family, for each law, every
    code that has the law with the next one that has it (by year, then
    manifest order).  Linear in editions: a reader follows a law through its
    family's codes one step at a time; any other pair (2007 against a 1987
    code, a rubber code against a duplicate one) is compared when first asked
    for (`law_data`).  {(older id, newer id): [law, ...]}"""
    codes = sorted((e for e in editions if e["kind"] == "code"), key=lambda e: (e["year"], e["ord"]))
    out: dict[tuple[str, str], list[int]] = {}
    for family in _unique(e["family"] for e in codes):
        chain = [e["id"] for e in codes if e["family"] == family]
        for number in sorted({n for eid in chain for n in laws.get(eid, {})}):
            having = [eid for eid in chain if number in laws.get(eid, {})]
            for old, new in zip(having, having[1:]):
                out.setdefault((old, new), []).append(number)
    return out


# json.dumps(..., ensure_ascii=False) makes an encoder per call; a comparison
# row has six JSON columns and thirty codes have twenty thousand rows
_json = json.JSONEncoder(ensure_ascii=False).encode


def compare_pair_law(old: str, new: str, number: int, old_provisions: list[dict], new_provisions: list[dict],
                     title_old: str, title_new: str, overrides: list[dict]) -> tuple[dict, list[dict]]:
    """One law compared between two editions, as the rows the store keeps:
    (its law_comparisons row, its alignments rows).  The same function serves
    the build (successive editions) and the web app (any other pair, on
    request), so both give the same answer for the same pair."""
    mine = [o for o in overrides if (o["from"], o["to"], o["law"]) == (old, new, number)]
    changes = compare_law(old_provisions, new_provisions, mine)
    title_changed = normalise(title_old).lower() != normalise(title_new).lower()
    refs = _unique(r for c in changes for r in citation_changes(c["ops"]))
    c = counts(changes)
    law_row = {
        "from_edition": old, "to_edition": new, "law": number,
        "status": law_status(changes, title_changed), "title_from": title_old, "title_to": title_new,
        "title_ops": _json(word_ops(title_old, title_new) if title_changed else []),
        **c, "refs": _json(refs), "summary": summary(c, title_changed, refs),
    }
    align_rows = [{
        "from_edition": old, "to_edition": new, "law": number, "ord": ch["ord"], "rev_ord": ch["rev_ord"],
        "from_provision": ch["from_provision"], "to_provision": ch["to_provision"],
        "from_provisions": _json(ch["from_provisions"]),
        "to_provisions": _json(ch["to_provisions"]),
        "part_of": _json(ch["part_of"]),
        "status": ch["status"], "score": ch["score"], "how": ch["how"], "reason": ch["reason"],
        "text_changed": int(ch["text_changed"]), "minor": int(ch["minor"]),
        "ops": _json(ch["ops"]),
        "raw_ops": _json(ch["raw_ops"]),
        "heading_ops": _json(ch["heading_ops"]),
    } for ch in changes]
    return law_row, align_rows


def _compare_pair(shared: tuple[dict, dict, list[dict]], pair: tuple[tuple[str, str], list[int]]
                  ) -> tuple[list[dict], list[dict]]:
    """The rows of one pair of editions, law by law (`compare_pair_law`)."""
    laws, provisions, overrides = shared
    (old, new), numbers = pair
    law_rows, align_rows = [], []
    for number in numbers:
        law_row, rows = compare_pair_law(old, new, number, provisions.get((old, number), []),
                                         provisions.get((new, number), []), laws[old][number],
                                         laws[new][number], overrides)
        law_rows.append(law_row)
        align_rows += rows
    return law_rows, align_rows


def build(db, corpus_dir: Path) -> dict:
    """Compare successive codes of each family (`successive_pairs`) and write
    the two tables, and the curated overrides the web app needs to compare
    any other pair the same way.  `db` is the sqlite_utils.Database being
    built.  Returns figures."""
    t0 = time.perf_counter()
    conn = db.conn
    for table in ("alignments", "law_comparisons", "alignment_overrides"):
        conn.execute(f"drop table if exists {table}")
    db["law_comparisons"].create({
        "from_edition": str, "to_edition": str, "law": int, "status": str,
        "title_from": str, "title_to": str, "title_ops": str,
        "same": int, "changed": int, "moved": int, "added": int, "removed": int,
        "refs": str,  # JSON [[old, new], ...]: cross-references changed in place
        "summary": str,
    }, pk=("from_edition", "to_edition", "law"))
    db["alignments"].create({
        "from_edition": str, "to_edition": str, "law": int, "ord": int, "rev_ord": int,
        "from_provision": str, "to_provision": str,
        "from_provisions": str, "to_provisions": str,  # JSON lists (N:M groups)
        "part_of": str,  # JSON {"from_provisions", "to_provisions"} of a split or merge, or null
        "status": str, "score": float, "how": str, "reason": str,
        "text_changed": int, "minor": int,
        "ops": str, "raw_ops": str, "heading_ops": str,  # JSON [[op, text], ...]
    }, pk=("from_edition", "to_edition", "law", "ord"))
    # the corpus's curated alignments, kept in the store: comparisons made
    # later by the web app read the store only, never the corpus folder
    db["alignment_overrides"].create({
        "from_edition": str, "to_edition": str, "law": int,
        "from_provisions": str, "to_provisions": str, "reason": str,  # JSON lists
    })

    conn.row_factory = None
    editions, laws, provisions = _read_store(conn)
    overrides = load_overrides(corpus_dir)
    _check_overrides(overrides, laws, provisions)
    db["alignment_overrides"].insert_all([{
        "from_edition": o["from"], "to_edition": o["to"], "law": o["law"],
        "from_provisions": json.dumps(o["from_provisions"]), "to_provisions": json.dumps(o["to_provisions"]),
        "reason": o["reason"]} for o in overrides])
    pairs = successive_pairs(editions, laws)
    law_rows, align_rows = [], []
    # each pair in a worker process (laws.workers): at thirty codes, thirty pairs
    for rows in fork_map(_compare_pair, list(pairs.items()), shared=(laws, provisions, overrides)):
        law_rows += rows[0]
        align_rows += rows[1]
    figures = {"pairs": len(pairs), "laws": len(law_rows), "changes": len(align_rows)}
    # plain executemany: sqlite-utils' insert_all inspects every value of
    # every row, which cost more than the comparisons at thirty codes
    for table, rows in (("law_comparisons", law_rows), ("alignments", align_rows)):
        if rows:
            cols = list(rows[0])
            conn.executemany(f"insert into {table} ({', '.join(cols)}) values ({', '.join('?' * len(cols))})",
                             [tuple(r[c] for c in cols) for r in rows])
    db["alignments"].create_index(["from_edition", "from_provision"])
    db["alignments"].create_index(["to_edition", "to_provision"])
    conn.commit()
    figures["seconds"] = round(time.perf_counter() - t0, 3)
    return figures


def _read_store(conn, law: int | None = None, editions_wanted: tuple[str, ...] = ()):
    """(editions, {edition: {law: title}}, {(edition, law): [provision dicts]})
    from the store, all of it or one law of some editions."""
    cols = [d[0] for d in conn.execute("select * from editions limit 0").description]
    editions = [dict(zip(cols, tuple(r))) for r in conn.execute("select * from editions")]
    where, args = "", []
    if law is not None:
        where = f" where number = ? and edition in ({','.join('?' * len(editions_wanted))})"
        args = [law, *editions_wanted]
    laws: dict[str, dict[int, str]] = {}
    for ed, number, title in conn.execute("select edition, number, title from laws" + where, args):
        laws.setdefault(ed, {})[number] = title or ""
    provisions: dict[tuple[str, int], list[dict]] = {}
    for ed, pid, number, heading, text, raw in conn.execute(
            "select edition, id, law, heading, text, raw_text from provisions"
            + where.replace("number", "law") + " order by edition, ord", args):
        provisions.setdefault((ed, number), []).append(
            {"id": pid, "heading": heading, "text": text, "raw_text": raw})
    return editions, laws, provisions


def _check_overrides(overrides: list[dict], laws: dict, provisions: dict) -> None:
    """An override that no longer fits the store stops the build, as a stale
    correction does: silently ignoring it would bring the wrong alignment back."""
    for o in overrides:
        for side, ids in (("from", o["from_provisions"]), ("to", o["to_provisions"])):
            ed = o[side]
            if o["law"] not in laws.get(ed, {}):
                raise SourceError(OVERRIDES, f"an override names Law {o['law']} of edition '{ed}', "
                                  "which the store does not have", o["line"])
            have = {p["id"] for p in provisions.get((ed, o["law"]), [])}
            for name in ids:
                pid, _, para = name.partition("#")
                paras = len([x for x in re.split(r"\n\s*\n", next(
                    (p["text"] or "" for p in provisions.get((ed, o["law"]), []) if p["id"] == pid), "")) if x.strip()])
                if pid not in have or (para and not (para.isdigit() and 1 <= int(para) <= paras)):
                    raise SourceError(OVERRIDES, f"an override names provision {pid} of edition '{ed}', "
                                      "which the store does not have", o["line"])


# ---------------------------------------------------------------- serve time: on demand

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
    """One law of two codes compared now, from the store: the rows the build
    would have stored (`compare_pair_law`), or None when the pair cannot be
    compared (not two codes, or one lacks the law).  Not cached."""
    eds = _editions(conn)
    if eds[old]["kind"] != "code" or eds[new]["kind"] != "code":
        return None
    _, laws, provisions = _read_store(conn, number, (old, new))
    if number not in laws.get(old, {}) or number not in laws.get(new, {}):
        return None
    overrides = [{"from": r["from_edition"], "to": r["to_edition"], "law": r["law"],
                  "from_provisions": json.loads(r["from_provisions"]),
                  "to_provisions": json.loads(r["to_provisions"]), "reason": r["reason"]}
                 for r in conn.execute("select * from alignment_overrides where from_edition = ? "
                                       "and to_edition = ? and law = ?", [old, new, number])]
    return compare_pair_law(old, new, number, provisions.get((old, number), []), provisions.get((new, number), []),
                            laws[old][number], laws[new][number], overrides)


def _stored_law(conn, old: str, new: str, number: int) -> tuple[dict, list[dict]] | None:
    law = conn.execute("select * from law_comparisons where from_edition = ? and to_edition = ? and law = ?",
                       [old, new, number]).fetchone()
    if law is None:
        return None
    rows = conn.execute("select * from alignments where from_edition = ? and to_edition = ? and law = ? "
                        "order by ord", [old, new, number]).fetchall()
    return dict(law), [dict(r) for r in rows]


def law_data(conn, old: str, new: str, number: int) -> tuple[dict, list[dict]] | None:
    """One law of a pair (`old` the older, as `_canonical` orders them): the
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


# ---------------------------------------------------------------- reading (web app)

def _not_found():
    from laws.queries import NotFound
    return NotFound


def _editions(conn) -> dict[str, dict]:
    return {r["id"]: dict(r) for r in conn.execute("select * from editions order by ord")}


def _canonical(conn, e1: str, e2: str) -> tuple[str, str, bool]:
    """(older, newer, reversed?) for a pair of edition ids as stored."""
    eds = _editions(conn)
    for e in (e1, e2):
        if e not in eds:
            known = ", ".join(eds)
            raise _not_found()(f"There is no edition '{e}'. Editions: {known}.")
    k1, k2 = (eds[e1]["year"], eds[e1]["ord"]), (eds[e2]["year"], eds[e2]["ord"])
    return (e1, e2, False) if k1 <= k2 else (e2, e1, True)


def _flip_status(status: str, rev: bool) -> str:
    if not rev:
        return status
    return {"added": "removed", "removed": "added"}.get(status, status)


def _law_numbers(conn, edition: str) -> list[int]:
    return [r[0] for r in conn.execute("select number from laws where edition = ? order by number", [edition])]


def pairs(conn) -> list[dict]:
    """The pairs compared at build time (successive codes of a family), newest
    first, with how many shared laws changed.  Any other pair of codes can be
    compared too (`overview`, `diff`): see `other_pairs`."""
    eds = _editions(conn)
    out = []
    for r in conn.execute(
            "select from_edition, to_edition, count(*) as laws, "
            "sum(status = 'changed') as changed, sum(status = 'same') as same, "
            + ", ".join(f"sum({s}) as p_{s}" for s in STATUSES) +
            " from law_comparisons group by from_edition, to_edition"):
        a, b = eds[r["from_edition"]], eds[r["to_edition"]]
        out.append({"from": a["id"], "to": b["id"], "from_title": a["title"], "to_title": b["title"],
                    "laws": r["laws"], "changed": r["changed"], "same": r["same"],
                    "provisions": {s: r[f"p_{s}"] for s in STATUSES},
                    "family": a["family"] if a["family"] == b["family"] else "mixed",
                    "_key": (b["year"], b["ord"], a["year"], a["ord"])})
    out.sort(key=lambda p: p.pop("_key"), reverse=True)
    return out


def _across(eds: dict[str, dict], edition: dict, candidates: list[dict]) -> list[dict]:
    """The codes of another family worth showing beside `edition`: the one
    nearest in year and the code in force, if that family has it.  At most
    two a family, however many editions the corpus holds."""
    out = []
    for family in _unique(c["family"] for c in candidates):
        mine = [c for c in candidates if c["family"] == family]
        nearest = min(mine, key=lambda c: (abs(c["year"] - edition["year"]), -c["year"], c["ord"]))
        out += [c for c in mine if c is nearest or c["in_force"]]
    return out


def other_pairs(conn) -> list[dict]:
    """Pairs across families that the comparison index offers (computed when
    opened): each code with the nearest code of every other family and that
    family's code in force.  {from, to, from_title, to_title}, older first."""
    eds = _editions(conn)
    codes = [e for e in eds.values() if e["kind"] == "code"]
    seen, out = set(), []
    for e in codes:
        for o in _across(eds, e, [c for c in codes if c["family"] != e["family"]]):
            a, b = sorted([e, o], key=lambda x: (x["year"], x["ord"]))
            if (a["id"], b["id"]) not in seen and set(_law_numbers(conn, a["id"])) & set(_law_numbers(conn, b["id"])):
                seen.add((a["id"], b["id"]))
                out.append({"from": a["id"], "to": b["id"], "from_title": a["title"], "to_title": b["title"]})
    return out


def overview(conn, from_ed: str, to_ed: str) -> dict:
    """Every law two editions share, with its status and counts, and the laws
    only one of them has (in the corpus)."""
    old, new, rev = _canonical(conn, from_ed, to_ed)
    eds = _editions(conn)
    have_from, have_to = set(_law_numbers(conn, from_ed)), set(_law_numbers(conn, to_ed))
    stored = {r["law"]: r for r in conn.execute(
        "select * from law_comparisons where from_edition = ? and to_edition = ? order by law", [old, new])}
    rows = []
    for number in sorted(have_from & have_to):
        row = stored.get(number)
        if row is None:
            data = law_data(conn, old, new, number)
            row = data[0] if data else None
        if row is not None:
            rows.append(row)
    laws = [_law_entry(r, rev) for r in rows]
    # provisions by status over every shared law: the change matrix's row
    totals = {s: sum(l["counts"][s] for l in laws) for s in STATUSES}
    n_changed = sum(1 for l in laws if l["status"] == "changed")
    return {
        "from": from_ed, "to": to_ed, "from_title": eds[from_ed]["title"], "to_title": eds[to_ed]["title"],
        "laws": laws, "only_from": sorted(have_from - have_to), "only_to": sorted(have_to - have_from),
        "summary": (f"{n_changed} of {len(laws)} shared laws changed" if laws else "no laws in common"),
        "totals": totals,
    }


def law_comparison(conn, from_ed: str, to_ed: str, number: int) -> dict | None:
    """The comparison of one law between two editions, read from `from_ed` to
    `to_ed` (either may be the older), or None."""
    old, new, rev = _canonical(conn, from_ed, to_ed)
    data = law_data(conn, old, new, number)
    return _law_entry(data[0], rev) if data is not None else None


def _law_entry(r, rev: bool) -> dict:
    """A law_comparisons row as read in the direction asked for."""
    c = {s: r[s] for s in STATUSES}
    if rev:
        c["added"], c["removed"] = c["removed"], c["added"]
    refs = [tuple(x) for x in json.loads(r["refs"])]
    refs = [(b, a) for a, b in refs] if rev else refs
    title_changed = bool(json.loads(r["title_ops"]))
    return {
        "law": r["law"], "status": r["status"],
        "title_from": r["title_to"] if rev else r["title_from"],
        "title_to": r["title_from"] if rev else r["title_to"],
        "counts": c, "summary": summary(c, title_changed, refs),
    }


def diff(conn, number: int, from_ed: str, to_ed: str, raw: bool = False) -> dict:
    """One law compared between two editions: CONTRACT.md's GET /api/diff,
    with a few more fields for the pages.  Raises laws.queries.NotFound."""
    NotFound = _not_found()
    old, new, rev = _canonical(conn, from_ed, to_ed)
    eds = _editions(conn)
    for e in (from_ed, to_ed):
        if number not in _law_numbers(conn, e):
            have = _law_numbers(conn, e)
            raise NotFound(f"{eds[e]['title']} has no Law {number} in the corpus (it has {citations.law_ranges(have)}), "
                           "so there is nothing to compare.")
    data = law_data(conn, old, new, number)
    if data is None:  # both have the law but they cannot be compared (not codes)
        raise NotFound(f"Law {number} of {eds[from_ed]['title']} and of {eds[to_ed]['title']} "
                       "are not compared: only codes of the Laws are.")
    law, rows = data
    rows = sorted(rows, key=lambda r: r["rev_ord" if rev else "ord"])
    changes = []
    for r in rows:
        ops = json.loads(r["raw_ops"] if raw else r["ops"])
        heading_ops = json.loads(r["heading_ops"])
        fp, tp = json.loads(r["from_provisions"]), json.loads(r["to_provisions"])
        f1, t1 = r["from_provision"], r["to_provision"]
        part_of = json.loads(r["part_of"])
        how = r["how"]
        if rev:
            ops, heading_ops = reverse_ops(ops), reverse_ops(heading_ops)
            fp, tp, f1, t1 = tp, fp, t1, f1
            how = {"split": "merged", "merged": "split"}.get(how, how)
            if part_of:
                part_of = {"from_provisions": part_of["to_provisions"], "to_provisions": part_of["from_provisions"]}
        changes.append({
            "from_provision": f1, "to_provision": t1, "status": _flip_status(r["status"], rev), "ops": ops,
            "from_provisions": fp, "to_provisions": tp, "heading_ops": heading_ops,
            "score": r["score"], "text_changed": bool(r["text_changed"]), "minor": bool(r["minor"]),
            "how": how, "part_of": part_of, "override": r["reason"] or None,
        })
    c = counts(changes)
    refs = [tuple(x) for x in json.loads(law["refs"])]
    refs = [(b, a) for a, b in refs] if rev else refs
    title_ops = json.loads(law["title_ops"])
    title_ops = reverse_ops(title_ops) if rev else title_ops
    return {
        "law": number, "from": from_ed, "to": to_ed, "changes": changes,
        "summary": summary(c, bool(title_ops), refs), "status": law["status"], "counts": c,
        "title_from": law["title_to"] if rev else law["title_from"],
        "title_to": law["title_from"] if rev else law["title_to"], "title_ops": title_ops,
        "references": [list(x) for x in refs], "raw": raw,
    }


def history(conn, edition: str, law: int) -> dict[str, list[dict]]:
    """For each provision of a law in one edition, the same provision in the
    editions a reader follows it to, oldest first: the codes just before and
    after it in its family that have the law (compared at build time), and of
    each other family the code nearest in year and the code in force
    (compared on demand).  Its size does not grow with the number of editions.

        {"35A": [{"edition": "2007", "year": 2007, "provision": "35.1",
                  "status": "changed"}], ...}

    `status` says what happened between the two, read from the older edition
    to the newer (`same`, `changed`, `moved`; `added` when the provision is
    new in the newer edition, so `provision` is None for an older one;
    `removed` when a newer edition dropped it).  `provision` is the
    counterpart's id (the first one, for a split or merge; all are in
    `provisions`).  Provisions that carry no words of their own (a bare '40A1')
    have no entry."""
    eds = _editions(conn)
    rows = [dict(r) for r in conn.execute(
        "select * from alignments where law = ? and (from_edition = ? or to_edition = ?)",
        [law, edition, edition])]
    me = eds.get(edition)
    if me is not None and me["kind"] == "code":
        others = [e for e in eds.values() if e["kind"] == "code" and e["family"] != me["family"]
                  and law in _law_numbers(conn, e["id"])]
        for o in _across(eds, me, others):
            old, new, _rev = _canonical(conn, edition, o["id"])
            data = law_data(conn, old, new, law)
            rows += data[1] if data else []
    out: dict[str, list[dict]] = {}
    for r in rows:
        mine_is_from = r["from_edition"] == edition
        mine = json.loads(r["from_provisions"] if mine_is_from else r["to_provisions"])
        theirs = json.loads(r["to_provisions"] if mine_is_from else r["from_provisions"])
        other = r["to_edition"] if mine_is_from else r["from_edition"]
        for pid in mine:
            entries = out.setdefault(pid, [])
            if any(e["edition"] == other for e in entries):
                continue
            entries.append({"edition": other, "year": eds[other]["year"], "title": eds[other]["title"],
                            "provision": theirs[0] if theirs else None, "provisions": theirs,
                            "status": r["status"]})
    for entries in out.values():
        entries.sort(key=lambda e: (e["year"], eds[e["edition"]]["ord"]))
    return out
