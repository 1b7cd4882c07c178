"""Alignment: which provisions of two editions correspond.

The second stage: it pairs *units* of text (`units`) into groups
(`align`), then cuts splits and merges into one piece per provision
(`expand`).  It knows nothing of statuses, summaries or the store:
`changes` turns its groups into changes.  It uses `text` only.

How provisions are aligned
--------------------------
A provision's text is cut at its paragraph breaks into *units* (the rubber
code's laws are mostly one unlabelled provision of several paragraphs, each
the counterpart of one or more lettered provisions of the duplicate code).
A provision with no text but a heading ('40A Players' Systemic Agreements')
is a unit of its own, matched against other headings only.  Provisions with
neither (a bare '40A1' above its '(a)' and '(b)') carry no words to compare.
The units given may be one law's or a whole code's (each unit knows its
law): successive codes are aligned whole, so that a provision may move to
another law (2007 17D became 2017 15A).

1. Overrides (`corpus/alignment-overrides.toml`, read by `overrides`) are
   applied first.
2. One-to-one, a global greedy assignment: every candidate pair (`Evidence.
   candidates`: any pair of one law, and pairs across laws sharing enough
   weighted words) gets one score (`_score`), its text evidence (the mean of
   `fuzz.ratio` and the TF-IDF cosine of the words beyond boilerplate) plus
   bonuses for the same id, the same law and place in it, similar headings
   and shared cross-references; pairs are taken best first, each unit once,
   none below `MATCH_MIN` or with text evidence below `TEXT_MIN`.  A unit
   whose better-scored partner is already taken, but holds its clauses
   beyond what that partner's group carries, is left for step 3 as a piece
   of that group rather than paired with a worse partner
   (`_piece_of_better`).  Each group keeps its score and its evidence in
   words (`Group.evidence`).
3. Splits and merges, by residual coverage: a unit left over whose clauses
   are found in a unit of the other edition (`CONTAIN_MIN`,
   `fuzz.partial_ratio`; `COVER_MIN` of its text) joins that unit's group:
   2007 44A and 44B together became the first paragraph of rubber 44.
   Clauses are cut at sentence and clause marks and at commas, so that a
   rule's words carried over with new words between them are still found
   (2007 26, 'When an offending player's call is withdrawn, and he chooses a
   different final call ..., then if he becomes a defender', in 2017 26A).
   An old leftover found so in several new units faces each of them: the
   new code repeats that opening at the head of 2017 26A and 26B
   (`_join_openings`).  The structure weighs in: of the units holding a
   leftover, one that is (or whose parent is) the partner of the
   leftover's parent ranks `FAMILY_BONUS` higher, and a leftover joining
   on its score alone, no clause of it found, never leaves the family its
   parent went to (`_family`).
   A new *opening* (a text ending in a colon above its own sub-provisions,
   'The Regulating Authority:') waits until the others are placed, then
   joins the group most of its sub-provisions came from (`_pair_openings`);
   only if none came from anywhere do its words decide, as above.
4. The numbering, where the structure is kept (codes of one family only:
   the rubber code numbers its own way): a unit still unpaired whose parent
   is paired with the parent of the same id (or that is its law's own
   text), among siblings with the same labels in both editions, is paired
   with the unit of its id (`_pair_by_numbering`): 2007 31A2(a) and 2017
   31A2(a) are the lenient case of one rule, reworded whole.
5. Any unit left is removed (older edition) or added (newer).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from laws.compare.text import QUOTES, normalise, unique

# Thresholds (0-100 scales).  A candidate pair's score is its text evidence
# (`_text_score`: the mean of rapidfuzz's fuzz.ratio on normalised text and
# the TF-IDF cosine of the words beyond boilerplate, both 0-100) plus the
# bonuses of where it stands (`_score`).  Measured on the corpus: reworded
# counterparts score 55-100 on text (2007 36B3 'Law 23 may apply...' against
# 2017's 'Law 72C may apply...' scores 88), while unrelated provisions of one
# law rarely pass 45 once boilerplate words are left out.
MATCH_MIN = 60
# A pair's text evidence must reach this however good its place: bonuses
# choose between partners, they never make one on their own.  Reworded
# provisions kept under their id score 35-45 (2007 16B1(a) against 2017's,
# 36), unrelated neighbours in a law 10-30.
TEXT_MIN = 35
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
# Bonuses added to the text evidence (points of the same 0-100 scale).
SAME_ID_BONUS = 8  # 2017 36A is more likely 2007 36A than 2007 37A
ORDER_BONUS = 6  # times (1 - distance between the relative positions in the law)
# Aligning a whole code lets a provision move to another law (2007 17D became
# 2017 15A), but most provisions stay: a partner in the same law is preferred
# by this much, so a move across laws needs clearly better words.
SAME_LAW_BONUS = 12
# A leftover's containers are ranked by score plus coverage, plus this where
# the container (or its parent) is the partner of the leftover's parent: 2017
# 32A2(b) ('offender's partner must pass') is found in 2007 32A and in 2007
# 32B2 alike, and its parent 32A2 is 2007 32B2.
FAMILY_BONUS = 10
HEADING_BONUS = 4  # times the headings' similarity (0..1), when both have one
REFS_BONUS = 6  # times the share of cross-references both make (Jaccard), when either makes one
# Words in more than this share of all units are boilerplate ('the', 'player',
# 'law', 'director'): they say nothing about which provision is which.
BOILERPLATE_DF = 0.15
BOILERPLATE_MIN_UNITS = 200  # a whole code has ~1000 units, one law 5-40
# Across laws only pairs sharing this much weighted vocabulary (cosine, 0..1)
# are scored at all: it keeps a whole code's comparison near-linear.
CROSS_COSINE_MIN = 0.35


@dataclass
class Unit:
    index: int  # position among the units of its side in its law
    pid: str
    para: int  # paragraph of the provision's text (0 for a heading unit)
    kind: str  # 'text' | 'heading'
    heading: str
    text: str
    raw: str
    key: str = ""
    pos: float = 0.0  # relative position in the law, 0..1
    law: int = 0  # the law it is in (units of a whole code span several)
    refs: frozenset = frozenset()  # the provisions and laws it cites ('17D3', '17')


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
    evidence: str = ""  # why the units were paired, in words ('words 82, ratio 74, same id')


_CITED = re.compile(r"\bLaws?\s+(\d{1,3}(?:[A-H](?:\d{1,2}(?:\([a-z]{1,4}\))*)?)?)")


def units(provisions: list[dict], law: int = 0) -> list[Unit]:
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
                out.append(Unit(0, p["id"], k, "text", heading if k == 0 else "", para, rpara, law=law))
        elif heading:
            out.append(Unit(0, p["id"], 0, "heading", heading, "", "", law=law))
    for i, u in enumerate(out):
        u.index = i
        u.pos = i / max(len(out) - 1, 1)
        u.key = normalise(u.text if u.kind == "text" else u.heading.lower())
        # cited laws count as well as cited provisions: 'Law 16B' and 'Law 16D' share Law 16
        u.refs = frozenset(x for c in _CITED.findall(u.text) for x in (c, re.match(r"\d+", c)[0]))
    return out


def _k(side: int, u: Unit) -> tuple[int, int, int]:
    """A unit's key in a grouping: its side (0 the older edition), law and place."""
    return (side, u.law, u.index)


class _Grouping:
    """The groups made so far, in the order made, and the group each unit is
    in (`_k` -> group).  Each step of `align` takes only units no earlier
    step took."""

    def __init__(self) -> None:
        self.groups: list[Group] = []
        self.group_of: dict[tuple[int, int, int], Group] = {}

    def add(self, ua: list[Unit], ub: list[Unit], score: float, how: str, reason: str = "",
            evidence: str = "") -> Group:
        g = Group(list(ua), list(ub), score, how, reason, evidence=evidence)
        self.groups.append(g)
        for u in ua:
            self.group_of[_k(0, u)] = g
        for u in ub:
            self.group_of[_k(1, u)] = g
        return g

    def free(self, side: int, u: Unit) -> bool:
        return _k(side, u) not in self.group_of


class Evidence:
    """The words each unit carries beyond boilerplate, weighted by TF-IDF over
    the units of both editions, and the pairs worth scoring: every pair of one
    law, and pairs across laws sharing enough weighted vocabulary
    (`CROSS_COSINE_MIN`), found through an inverted index rather than by
    trying every pair of a whole code."""

    def __init__(self, a: list[Unit], b: list[Unit]) -> None:
        docs = [Counter(_words(u.key)) for u in a + b]
        df = Counter(w for d in docs for w in d)
        n = max(len(docs), 1)
        # one law on its own has too few units to tell boilerplate by its
        # share of them: there the IDF weights alone play the part
        cut = BOILERPLATE_DF if n >= BOILERPLATE_MIN_UNITS else 1.0
        idf = {w: math.log(1 + n / c) for w, c in df.items() if c / n <= cut}
        self.vec: dict[tuple[int, int, int], dict[str, float]] = {}
        for side, us, ds in ((0, a, docs[:len(a)]), (1, b, docs[len(a):])):
            for u, d in zip(us, ds):
                v = {w: (1 + math.log(c)) * idf[w] for w, c in d.items() if w in idf}
                norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
                self.vec[_k(side, u)] = {w: x / norm for w, x in v.items()}

    def cosine(self, ua: Unit, ub: Unit, sides: tuple[int, int] = (0, 1)) -> float:
        va, vb = self.vec[_k(sides[0], ua)], self.vec[_k(sides[1], ub)]
        if len(va) > len(vb):
            va, vb = vb, va
        return sum(x * vb.get(w, 0.0) for w, x in va.items())

    def candidates(self, a: list[Unit], b: list[Unit]) -> list[tuple[Unit, Unit]]:
        """Pairs of the same kind worth scoring (see the class's docstring)."""
        by_law: dict[int, list[Unit]] = {}
        posting: dict[str, list[Unit]] = {}
        for ub in b:
            by_law.setdefault(ub.law, []).append(ub)
            for w in self.vec[_k(1, ub)]:
                posting.setdefault(w, []).append(ub)
        out = []
        for ua in a:
            out += [(ua, ub) for ub in by_law.get(ua.law, []) if ub.kind == ua.kind]
            dots: dict[int, float] = {}
            seen: dict[int, Unit] = {}
            for w, x in self.vec[_k(0, ua)].items():
                for ub in posting.get(w, []):
                    if ub.law != ua.law and ub.kind == ua.kind:
                        dots[id(ub)] = dots.get(id(ub), 0.0) + x * self.vec[_k(1, ub)][w]
                        seen[id(ub)] = ub
            out += [(ua, seen[i]) for i, d in dots.items() if d >= CROSS_COSINE_MIN]
        return out


def _words(key: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", key.lower())


def _score(ev: Evidence, ua: Unit, ub: Unit) -> tuple[float, float, str]:
    """(score, text evidence, the evidence in words) of a candidate pair: the
    one explainable score every step of `align` ranks by."""
    ratio = fuzz.ratio(ua.key, ub.key)
    words = 100 * ev.cosine(ua, ub)
    text = (ratio + words) / 2
    bits = [f"words {words:.0f}", f"ratio {ratio:.0f}"]
    score = text
    if ua.pid == ub.pid and ua.para == ub.para:
        score += SAME_ID_BONUS
        bits.append("same id")
    if ua.law == ub.law:
        near = 1 - abs(ua.pos - ub.pos)
        score += SAME_LAW_BONUS + ORDER_BONUS * near
        bits.append(f"same law, place {near:.2f}")
    else:
        bits.append(f"Law {ua.law} -> Law {ub.law}")
    if ua.heading and ub.heading:
        h = fuzz.ratio(ua.heading.lower(), ub.heading.lower()) / 100
        score += HEADING_BONUS * h
        bits.append(f"headings {h:.2f}")
    if ua.refs or ub.refs:
        shared = len(ua.refs & ub.refs) / len(ua.refs | ub.refs)
        score += REFS_BONUS * shared
        bits.append(f"cross-references {shared:.2f}")
    return score, text, ", ".join(bits)


def align(a: list[Unit], b: list[Unit], overrides: list[dict] = (), numbering: bool = True) -> list[Group]:
    """Groups of corresponding units (see the module's docstring), in the
    order the steps made them.  `a` and `b` may hold one law or a whole code
    (units of several laws, each with its `law`).  `numbering`: whether the
    two editions number their provisions alike (codes of one family), so
    that the numbering is evidence (step 4); the rubber code's Law 41 is not
    the duplicate code's Law 41 by its number."""
    grouping = _Grouping()
    ev = Evidence(a, b)
    _apply_overrides(grouping, a, b, overrides)
    _auto_steps(grouping, ev, a, b, numbering)
    _finish(grouping.groups)
    return grouping.groups


def _auto_steps(grouping: _Grouping, ev: Evidence, a: list[Unit], b: list[Unit], numbering: bool) -> None:
    """Every step after the overrides, in order (the module's docstring)."""
    _match_exact(grouping, a, b)
    _match_best_first(grouping, ev, a, b)
    openings = _openings(b)
    _join_contained(grouping, ev, a, b, lambda side, u: _k(side, u) not in openings)
    _pair_openings(grouping, openings)
    _join_contained(grouping, ev, a, b, lambda side, u: _k(side, u) in openings)
    if numbering:
        _pair_by_numbering(grouping, a, b)
    _leave_unmatched(grouping, a, b)


def _apply_overrides(grouping: _Grouping, a: list[Unit], b: list[Unit], overrides: list[dict]) -> None:
    for o in overrides:
        ua = [u for u in a if u.law in (o["from_law"], 0) and _named(u, o["from_provisions"])]
        ub = [u for u in b if u.law in (o["to_law"], 0) and _named(u, o["to_provisions"])]
        grouping.add(ua, ub, _ratio(ua, ub) if ua and ub else 0.0, "override", o["reason"])


def _match_exact(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """The same words under the same id in the same law, matched at once: no
    other candidate can outrank such a pair (full text evidence plus every
    bonus of place), so the greedy pass of `_match_best_first` would take it
    anyway; between successive codes most of a code is this."""
    exact: dict[tuple, Unit] = {(ub.law, ub.pid, ub.para, ub.kind, ub.key): ub for ub in b if ub.key}
    for ua in a:
        ub = exact.get((ua.law, ua.pid, ua.para, ua.kind, ua.key)) if ua.key else None
        if ub is not None and grouping.free(0, ua) and grouping.free(1, ub):
            grouping.add([ua], [ub], 100.0, "auto", evidence="the same words under the same id")


def _match_best_first(grouping: _Grouping, ev: Evidence, a: list[Unit], b: list[Unit]) -> None:
    """One-to-one, best score first: a global assignment, greedy, each unit
    taken once, no pair below MATCH_MIN (or TEXT_MIN on its words alone)."""
    free = [u for u in a if grouping.free(0, u) and u.key]
    mine = [u for u in b if grouping.free(1, u) and u.key]
    candidates = []
    for ua, ub in ev.candidates(free, mine):
        score, text, why = _score(ev, ua, ub)
        if score >= MATCH_MIN and text >= TEXT_MIN:
            # ties: the nearer in place, then the later unit (deterministic)
            candidates.append((round(score, 3), -abs(ua.pos - ub.pos), round(text, 3), _k(0, ua), _k(1, ub),
                               ua, ub, why))
    candidates.sort(key=lambda c: c[:5], reverse=True)
    best: dict[tuple[int, int, int], list[tuple[float, Unit]]] = {}
    for score, _near, _text, ka, kb, ua, ub, _why in candidates:
        best.setdefault(ka, []).append((score, ub))
        best.setdefault(kb, []).append((score, ua))
    for score, _near, text, _i, _j, ua, ub, why in candidates:
        if grouping.free(0, ua) and grouping.free(1, ub) \
                and not _piece_of_better(grouping, best, 0, ua, score) \
                and not _piece_of_better(grouping, best, 1, ub, score):
            grouping.add([ua], [ub], round(text, 1), "auto", evidence=f"score {score:.0f}: {why}")


def _piece_of_better(grouping: _Grouping, best: dict, side: int, u: Unit, score: float) -> bool:
    """Whether `u` has a better-scored partner, already taken, that holds
    COVER_MIN of its clauses beyond what that partner's group carries: `u`
    is then a piece of that group's merge or split (step 3), not the
    one-to-one partner of a worse match.  2007 13D2 ('When the Director
    determines that one or more pockets ... if the Director deems:') and its
    case 13D2(a) became 2017 13A2 together; 13D2(a) scores a hair better
    there and takes it, and 13D2 is not 2017 13B."""
    for better, v in best.get(_k(side, u), []):
        if better <= score:
            return False
        g = grouping.group_of.get(_k(1 - side, v))
        if g is None or g.how == "override":
            continue
        partners = g.a if side == 0 else g.b
        if residual(u.key, v.key, [p.key for p in partners]) >= COVER_MIN:
            return True
    return False


def _join_contained(grouping: _Grouping, ev: Evidence, a: list[Unit], b: list[Unit],
                    which=lambda side, u: True) -> None:
    """Splits and merges, by residual coverage: a leftover joins the group of
    the unit of the other side that holds it best (`_containers`), or makes
    one with it.  The units looked in are those of the same law and, across
    laws, those sharing enough words (`Evidence.candidates`).  `which(side,
    unit)`: the leftovers this pass considers (openings wait for their
    sub-provisions to be placed, `_pair_openings`)."""
    group_of = grouping.group_of
    parents = _parent_units(a, b)
    for side, mine, theirs in ((0, a, b), (1, b, a)):
        left = [u for u in mine if grouping.free(side, u) and u.kind == "text" and len(u.key) >= CONTAIN_MIN_CHARS
                and which(side, u)]
        if not left:
            continue
        pairs = ev.candidates(left, theirs) if side == 0 else [(u, v) for v, u in ev.candidates(theirs, left)]
        near: dict[int, list[Unit]] = {}
        for u, v in pairs:
            near.setdefault(id(u), []).append(v)
        for u in left:
            found = _containers(group_of, ev, side, u, near.get(id(u), []), parents)
            if not found:
                continue
            _rank, v, why, _cover = found[0]
            g = group_of.get(_k(1 - side, v))
            if g is None:
                pair = ([u], [v]) if side == 0 else ([v], [u])
                g = grouping.add(*pair, _rank, "contained", evidence=why)
            else:
                _join(g, side, u, why)
                group_of[_k(side, u)] = g
            if side == 0:
                _join_openings(grouping, g, u, found[1:])


def _openings(b: list[Unit]) -> dict[tuple[int, int, int], tuple[Unit, list[Unit]]]:
    """{unit key: (unit, its sub-provisions' first units)} of each opening
    of the newer edition: a provision whose text ends in a colon above
    sub-provisions of its own ('The Regulating Authority:' above 2017
    40B2(a)(i)-(v)).  Its words only introduce a list, and may be found in
    many provisions of the older edition; the list says where it came from
    (`_pair_openings`).  The older edition's openings are left to their
    words: a new code keeps an old opening's words at the head of the
    provisions it became (2007 26 in 2017 26A and 26B, `_join_openings`)."""
    children: dict[tuple[int, str], list[Unit]] = {}
    for u in b:
        if u.kind == "text" and u.para == 0 and _parent(u.pid):
            children.setdefault((u.law, _parent(u.pid)), []).append(u)
    out = {}
    for u in b:
        kids = children.get((u.law, u.pid))
        if kids and u.kind == "text" and u.para == 0 and u.text.rstrip().endswith(":"):
            out[_k(1, u)] = (u, kids)
    return out


def _pair_openings(grouping: _Grouping, openings: dict) -> None:
    """An opening left over joins the group of the older provision most of
    its sub-provisions came from (of equals, the one holding more of its
    clauses, then the first met): the list and its opening stay together.
    2017 13B ('... and a player with an incorrect hand has made a call:')
    opens B1, which is 2007 13A, and B2, 2007 13B; 13A holds its clause
    about the call, so 2007 13A became 2017 13B and 13B1."""
    for u, kids in openings.values():
        if not grouping.free(1, u):
            continue
        sources: dict[tuple[int, int, int], list] = {}  # key -> [count, coverage, -first, unit, group]
        for rank, kid in enumerate(kids):
            g = grouping.group_of.get(_k(1, kid))
            if g is None or g.how == "override":
                continue
            for v in g.a:
                sources.setdefault(_k(0, v), [0, 0.0, -rank, v, g])[0] += 1
        if not sources:
            continue
        for entry in sources.values():
            entry[1] = residual(u.key, entry[3].key, [])
        count, cover, _first, v, g = max(sources.values(), key=lambda e: e[:3])
        _join(g, 1, u, f"opens {count} of {len(kids)} sub-provisions that come from {v.pid}, "
                       f"{cover:.0%} of its clauses found there")
        grouping.group_of[_k(1, u)] = g


def _join(g: Group, side: int, u: Unit, why: str) -> None:
    (g.a if side == 0 else g.b).append(u)
    g.how = "contained" if g.how == "auto" else g.how
    g.evidence += f"; {u.pid} joined: {why}"


def _join_openings(grouping: _Grouping, first: Group, u: Unit, others: list[tuple]) -> None:
    """An old leftover's words found in more new units than the one it
    joined: an opening the new code repeats at the head of several
    provisions (2007 26's 'When an offending player's call is withdrawn ...
    then if he becomes a defender' opens both 2017 26A and 26B).  The
    leftover faces each unit holding COVER_MIN of its clauses by coverage
    alone (not by a one-to-one score): a free one joins its group as another
    piece of the split; one already grouped takes it as another piece of its
    merge (the leftover is then in two groups, as the one side of a split is
    in each of its pieces).  Old units only: a new leftover found in several
    old ones is mostly a short opening the new code put above its
    sub-provisions ('The Regulating Authority:', 2017 40B2(a)), whose words
    do not say which old rule it carries."""
    done = {id(first)}
    for _rank, v, why, cover in others:
        if cover < COVER_MIN:
            continue
        g = grouping.group_of.get(_k(1, v))
        if g is None:
            first.b.append(v)
            grouping.group_of[_k(1, v)] = first
            first.evidence += f"; {v.pid} joined: {why}"
        elif id(g) not in done and g.how != "override":
            _join(g, 0, u, why)
            done.add(id(g))


def _parent_units(a: list[Unit], b: list[Unit]) -> dict[tuple[int, int, int], Unit]:
    """{unit key: the first unit of its provision's parent} (`_parent`), where
    the parent has one."""
    out = {}
    for side, us in ((0, a), (1, b)):
        first = {(u.law, u.pid): u for u in reversed(us)}
        for u in us:
            parent = _parent(u.pid)
            if parent and (u.law, parent) in first:
                out[_k(side, u)] = first[(u.law, parent)]
    return out


def _family(group_of: dict, parents: dict, side: int, u: Unit, v: Unit) -> bool:
    """Whether `v`, or its parent, is grouped with the parent of `u`: a
    sub-provision most likely comes from where the rule it belongs to came
    from."""
    pu = parents.get(_k(side, u))
    g = group_of.get(_k(side, pu)) if pu is not None else None
    if g is None:
        return False
    theirs = g.b if side == 0 else g.a
    pv = parents.get(_k(1 - side, v))
    return any(x is v or x is pv for x in theirs)


def _parent_paired(group_of: dict, parents: dict, side: int, u: Unit) -> bool:
    """Whether the parent of `u` has a partner in the other edition."""
    pu = parents.get(_k(side, u))
    g = group_of.get(_k(side, pu)) if pu is not None else None
    return g is not None and bool(g.b if side == 0 else g.a)


def _containers(group_of: dict, ev: Evidence, side: int, u: Unit, theirs: list[Unit],
                parents: dict) -> list[tuple]:
    """(rank, unit, evidence in words, coverage) of each unit of the other
    side that holds the leftover `u`, best first.  A unit holds it when
    `u`'s clauses are found there beyond what its partners already carry
    (`residual`, COVER_MIN), or when the pair scores as a one-to-one match
    would (`_score`; across laws its words alone must reach MATCH_MIN plus
    the same-law bonus it lacks).  A new provision that is closer to one of
    the unit's partners than to the unit is a copy of what the new code
    already has (2017 56A restating 54B, kept as 54B): it is added, not a
    piece of a split.  An old provision is never such a copy: a rule whose
    words live on in the new code is not removed.  A unit an override placed
    is never joined."""
    out = []
    for v in theirs:
        if v.kind != "text":
            continue
        g = group_of.get(_k(1 - side, v))
        if g is not None and g.how == "override":
            continue
        partners = [] if g is None else (g.a if side == 0 else g.b)
        ua, ub = (u, v) if side == 0 else (v, u)
        score, text, why = _score(ev, ua, ub)
        cover = residual(u.key, v.key, [p.key for p in partners])
        # the copy test weighs whole texts; clauses found in `v` and in none of
        # its partners are better evidence (2017 68D1 'If the claim or
        # concession is agreed, Law 69 applies' is a clause of 2007 68D, though
        # as a whole it reads more like 2017 68D 'After any claim or concession')
        if side == 1 and partners and cover < COVER_MIN \
                and text <= max(_same_side_text(ev, u, p) for p in partners):
            continue
        # across laws, as for a one-to-one pair, the words must make up for the place
        matches = score >= MATCH_MIN and text >= TEXT_MIN + (0 if u.law == v.law else SAME_LAW_BONUS + MATCH_MIN - TEXT_MIN)
        family = _family(group_of, parents, side, u, v)
        # on its score alone (no clause found) a sub-provision does not leave
        # the family its parent went to: 2007 13D2(b) shares only 'the
        # Director shall award an adjusted score and may penalize an
        # offender' with 2017 13B2, and its parent 13D2 is 2017 13A2
        if matches and cover < COVER_MIN and not family and _parent_paired(group_of, parents, side, u):
            matches = False
        if cover >= COVER_MIN or matches:
            rank = score + 100 * cover + (FAMILY_BONUS if family else 0)
            out.append((rank, v, f"{cover:.0%} of its clauses found, score {score:.0f}: {why}"
                                 + (", its parent's partner" if family else ""), cover))
    out.sort(key=lambda c: -c[0])  # best first; stable: of equals, the first met
    return out


def _pair_by_numbering(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """The numbering as evidence, where the structure is kept: a provision
    no step paired, under a parent paired with the parent of the same id
    (or the law's own text, under the law), whose siblings have the same
    labels in both editions, is the successor of the provision of the same
    id: the cases of a rule kept in their order, reworded whole (2007
    31A2(a), the lenient case when the bid repeats the denomination, is
    2017 31A2(a), the lenient case of a comparable call), or a law's text
    rewritten whole under its title (2007 56 'See Law 54D', 2017 56 'When
    a lead out of turn is faced, declarer may:').  The partner may already
    be a piece of a merge or split (its words found in another provision);
    one paired one-to-one has its successor there.  Where the labels differ
    (a law rewritten with other sections), the numbering says nothing."""
    first = {(side, u.law, u.pid): u for side, us in ((0, a), (1, b)) for u in us
             if u.para == 0 and u.kind == "text"}
    labels: dict[tuple[int, int, str | None], set[str]] = {}
    for side, us in ((0, a), (1, b)):
        for u in us:
            labels.setdefault((side, u.law, _parent(u.pid)), set()).add(u.pid)
    for (side, law, pid), u in first.items():
        v = first.get((1, law, pid))
        if side == 1 or v is None or not (grouping.free(0, u) or grouping.free(1, v)):
            continue
        parent = _parent(pid)
        if labels[(0, law, parent)] != labels[(1, law, parent)] or not _parents_paired(grouping, first, law, parent):
            continue
        if not all(_shared(grouping, s, x) for s, x in ((0, u), (1, v))):
            continue
        grouping.add([u], [v], fuzz.ratio(u.key, v.key), "auto",
                     evidence=f"the same id under {'the law' if parent is None else parent}, "
                              "whose provisions keep their labels")


def _parents_paired(grouping: _Grouping, first: dict, law: int, parent: str | None) -> bool:
    """Whether the parent of that id is paired with itself (the law always is)."""
    if parent is None:
        return True
    pa, pb = first.get((0, law, parent)), first.get((1, law, parent))
    return pa is not None and pb is not None and not grouping.free(0, pa) \
        and grouping.group_of[_k(0, pa)] is grouping.group_of.get(_k(1, pb))


def _shared(grouping: _Grouping, side: int, u: Unit) -> bool:
    """Free, or one of several units of its side in its group (a piece of a
    merge or split): a unit paired one-to-one keeps its one partner."""
    g = grouping.group_of.get(_k(side, u))
    return g is None or len(g.a if side == 0 else g.b) > 1


_LAST_LABEL = re.compile(r"(?:\([a-z]+\)|[A-Z]|\d+|\.\w+)$")


def _parent(pid: str) -> str | None:
    """The id a provision's id continues ('31A2' for '31A2(a)', '31' for
    '31A'); None for the law's own text ('31')."""
    m = _LAST_LABEL.search(pid)
    return (pid[:m.start()] if m else "") or None


def _same_side_text(ev: Evidence, u: Unit, p: Unit) -> float:
    """Text evidence between two units of the new edition (the copy test)."""
    return (fuzz.ratio(u.key, p.key) + 100 * ev.cosine(u, p, (1, 1))) / 2


def residual(key: str, container: str, partners: list[str]) -> float:
    """How much of a text (0..1, by length) is in clauses found in `container`
    and in none of `partners`, the units already paired with the container:
    a provision restating what another already carries (2017 56A repeating
    54B, which 2017 keeps as 54B) is a copy, not a piece of a split."""
    clauses = _clauses(key)
    total = sum(len(c) for c in clauses)
    if not total:
        return 0.0
    container = container.lower()
    partners = [p.lower() for p in partners]
    found = sum(len(c) for c in clauses if fuzz.partial_ratio(c, container) >= CONTAIN_MIN
                and not any(fuzz.partial_ratio(c, p) >= CONTAIN_MIN for p in partners))
    return found / total


def _leave_unmatched(grouping: _Grouping, a: list[Unit], b: list[Unit]) -> None:
    """Each unit no step took: a group of its own (removed, or added)."""
    for u in a:
        if grouping.free(0, u):
            grouping.add([u], [], 0.0, "auto")
    for u in b:
        if grouping.free(1, u):
            grouping.add([], [u], 0.0, "auto")


def unnecessary_overrides(a: list[Unit], b: list[Unit], overrides: list[dict], numbering: bool = True) -> list[dict]:
    """The overrides the aligner no longer needs: those whose provisions it
    groups exactly as the override does when run without any override.
    `numbering` as for `align` (the build stores successive codes of one
    family, which number alike)."""
    auto = _Grouping()
    _auto_steps(auto, Evidence(a, b), a, b, numbering)
    out = []
    for o in overrides:
        ua = [_k(0, u) for u in a if u.law == o["from_law"] and _named(u, o["from_provisions"])]
        ub = [_k(1, u) for u in b if u.law == o["to_law"] and _named(u, o["to_provisions"])]
        found = {id(auto.group_of[k]): auto.group_of[k] for k in ua + ub}.values()
        if set(ua + ub) == {k for g in found for k in [_k(0, u) for u in g.a] + [_k(1, u) for u in g.b]} \
                and (len(found) == 1 or not (ua and ub)):
            out.append(o)
    return out


def _finish(groups: list[Group]) -> None:
    """Each group's units in reading order; a group of more than two units
    scored as a whole."""
    for g in groups:
        g.a.sort(key=lambda u: (u.law, u.index))
        g.b.sort(key=lambda u: (u.law, u.index))
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
            out.append(Group(pa, pb, score, "split" if one_many else "merged", g.reason, t, whole, g.evidence))
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
    """A text cut at sentence and clause marks and at commas, keeping the
    pieces long enough to say something ('If unable to follow suit' / 'a
    player may play any card' / 'unless he is subject to restriction ...')."""
    return [c.strip() for c in re.split(r"[.;:(),]", key.lower()) if len(c.strip()) >= CONTAIN_MIN_CHARS]


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
