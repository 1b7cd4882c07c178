"""Rulings carried forward through the comparison: a new code's rulings,
checker cites and guide links, derived at build time from the previous
code's through the stored alignment, until the new code has files of its own.

For each code with no rulings file of its own for a period (`auction`,
`play`, `guided`), the rulings of the code before it in its family that has
them (its file, or what was carried into it) are copied, and every cite is
mapped through the alignment of that pair (the `alignments` table the
comparison stage wrote):

- a provision `same`, or `moved` with its words unchanged, follows to its
  new id by itself;
- any other (changed, moved with words changed, split, merged, removed, or
  not in the new code at all) waits for review: the carried tree keeps the
  previous code's provision, written `<edition>:<provision>` ("2017:45F"),
  never as a provision of the new code, and the tree's `carried.notes` says
  what changed ("45F became 45G, words changed"), which a ruling passing
  through it repeats (`data.review_of`).

A review (corpus/reviews/<edition>.toml, read by `laws.rulings.reviews`)
settles a waiting cite: accept the provision(s) it became, replace it by
others of the new code, or remove it.

Carried on again (2017 -> 2027 -> 2031, no review in between), a cite
follows through each comparison where its provision is the same (or moved,
words unchanged); otherwise it waits as the provision of the code it was
last followed or reviewed in: a cite already waiting as "2017:45F" stays
2017's (the rulings were written for its words, and no later code's words
were found the same as those), its note saying what became of it code by
code ("2027: 45F's words changed → 2031: 45F is the same"), and the later
code's reviews file settles it by that name (provision = "2017:45F"),
accepting what it became through every comparison.

The checkers' cites (the store's `checker_cites`, so that the new code's law
pages link them) and the guide's law links are carried the same way, carried
on too: a code carried from a carried one takes what was carried into that
one, the cites still waiting there included (a checker's "2017:78B", a guide
link's "2017:33"), never only what its checker_cites rows hold.
Everything is written into the store: `carried_rulings` (the derived trees,
served from there) and `carried_cites` (every cite carried, how, and whether
reviewed).  This module imports nothing from laws.web.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from laws import citations
from laws.checkers import codes as checker_codes
from laws.rulings import data as rulings_data
from laws.rulings import record
from laws.rulings import reviews as reviews_mod

PERIODS = ("auction", "play", "guided")
WORDED = ("say", "text")  # a tree's sentences that may name provisions ("(58A)", "Law 31 applies")
# a provision in brackets, as the trees' sentences cite one ("(27B)"); "(a)" is no provision
_BRACKETED = re.compile(r"\((\d{1,2}[A-H](?:\d{1,2})?(?:\((?:[a-z]|[ivx]{1,4})\))*)\)")
PENDING_FILE = "reviews-pending-{edition}.toml"  # written beside the store: what the organiser reviews


@dataclass(frozen=True)
class Successor:
    """What a provision of the older code became in the newer one."""

    old: str
    new: tuple[str, ...]  # the newer code's provisions it became (none: removed or absent)
    status: str  # same | moved | changed | split | merged | removed | absent
    words_changed: bool

    @property
    def follows(self) -> bool:
        """Carried without review: the same rule under the same or a new number."""
        return len(self.new) == 1 and (self.status == "same" or (self.status == "moved" and not self.words_changed))

    def change(self, new_edition: str) -> str:
        """What changed, in words ("45F became 45G, words changed")."""
        new = ", ".join(self.new)
        if self.follows:
            return f"{self.old} is the same" if self.new == (self.old,) else f"{self.old} became {new}, the same words"
        if self.status == "absent":
            return f"{self.old} has no counterpart in the {new_edition} Laws"
        if self.status == "removed":
            return f"{self.old} was removed"
        if self.status == "split":
            return f"{self.old} was split into {new}"
        if self.status == "merged":
            return f"{self.old} was merged into {new}"
        if self.new == (self.old,):
            return f"{self.old}'s words changed"
        return f"{self.old} became {new}" + (", words changed" if self.words_changed else "")


class Alignment:
    """The stored alignment of one pair of codes, read provision by provision."""

    def __init__(self, conn, old: str, new: str):
        self.old, self.new = old, new
        self.rows: dict[str, list[tuple[tuple[str, ...], str, bool]]] = {}
        for fp, fps, tp, tps, status, changed in conn.execute(
                "select from_provision, from_provisions, to_provision, to_provisions, status, text_changed "
                "from alignments where from_edition = ? and to_edition = ? order by law, ord", [old, new]):
            froms = json.loads(fps) if fps is not None else ([fp] if fp else [])
            tos = tuple(json.loads(tps) if tps is not None else ([tp] if tp else []))
            for pid in froms:
                if (tos, status, bool(changed)) not in self.rows.setdefault(pid, []):
                    self.rows[pid].append((tos, status, bool(changed)))
        # a law cited whole (69) where it has no text of its own, so no row
        # of its own: it follows as the law's comparison says (same, or changed)
        self.laws = dict(conn.execute("select law, status from law_comparisons where from_edition = ? "
                                      "and to_edition = ?", [old, new]).fetchall())

    def successor(self, pid: str) -> Successor:
        rows = self.rows.get(pid)
        if not rows and pid.isdigit() and self.laws.get(int(pid)) in ("same", "changed"):
            same = self.laws[int(pid)] == "same"
            return Successor(pid, (pid,), "same" if same else "changed", not same)
        if not rows:
            return Successor(pid, (), "absent", False)
        new = tuple(dict.fromkeys(p for tos, _, _ in rows for p in tos))
        statuses = {s for _, s, _ in rows}
        changed = any(c for _, _, c in rows)
        if len(statuses) == 1:
            status = statuses.pop()
        else:  # pieces of one provision went different ways: the strongest change speaks for it
            status = next(s for s in ("removed", "split", "merged", "changed", "moved", "same") if s in statuses)
        if status == "changed" and new != (pid,):
            status = "moved"
        return Successor(pid, new, status, changed or status == "changed")


@dataclass(frozen=True)
class Chain:
    """What a provision of an older code became, code by code, through the
    comparisons of successive carries (for a cite still waiting for review
    when its rulings are carried on).  Read as a Successor is by a review."""

    old: str
    new: tuple[str, ...]  # the last code's provisions it became (none: it ended on the way)
    steps: tuple[tuple[str, tuple[Successor, ...]], ...]  # (code, what each provision became in it)

    @property
    def status(self) -> str:
        if not self.new:  # how it ended: removed, or no counterpart
            return next(s.status for _, succs in self.steps for s in succs if not s.new)
        return "changed"

    def change(self, new_edition: str) -> str:
        """In words, code by code: "2027: 45F's words changed → 2031: 45F is the same"."""
        words = [(code, ", ".join(s.change(code) for s in succs)) for code, succs in self.steps]
        if len(words) == 1:
            return words[0][1]
        return " → ".join(f"{code}: {text}" for code, text in words)


def through(hops: list["Alignment"], pid: str) -> Chain:
    """Where `pid` of hops[0].old went through each comparison in turn."""
    current, steps = (pid,), []
    for align in hops:
        succs = tuple(align.successor(p) for p in current)
        current = tuple(dict.fromkeys(n for s in succs for n in s.new))
        steps.append((align.new, succs))
        if not current:
            break
    return Chain(pid, current, tuple(steps))


@dataclass
class Carried:
    """Every cite carried into one edition from another, and how."""

    edition: str
    source: str
    rows: list[dict] = field(default_factory=list)
    checker_cites: list[tuple] = field(default_factory=list)  # (checker, edition, provision, title) for the store

    def pending(self) -> list[dict]:
        return [r for r in self.rows if not r["reviewed"]]


def qualified(edition: str, pid: str) -> str:
    """A cite of another code's provision: "2017:45F"."""
    return f"{edition}:{pid}"


class _Mapper:
    """Maps the cites of one (period, source tree) into the new edition."""

    def __init__(self, align: Alignment, reviews: reviews_mod.Reviews, carried: Carried, period: str,
                 hops=None):
        self.align, self.reviews, self.carried, self.period = align, reviews, carried, period
        self.notes: dict[str, str] = {}
        # code -> the alignments from it to the new code, each carry's in turn (None: not on this line)
        self.hops = hops or (lambda code: [align] if code == align.old else None)
        self.waiting: dict[str, str] = {}  # provision -> its cite still waiting in the tree ("45F" -> "2017:45F")

    def cite(self, pid: str, node: str) -> list[str]:
        """The new edition's cites for one cite of the older code at `node`."""
        old, new = self.align.old, self.align.new
        if rulings_data.split_cite(pid)[0] is not None:  # an older code's provision still waiting
            return self._waited(pid, node)
        succ = self.align.successor(pid)
        review = self.reviews.find(pid, self.period, node)
        if review is not None:
            cites = review.apply(succ, new)
            self._row(node, pid, succ.change(new), tuple(cites), succ.status, review)
            return cites
        if succ.follows:
            self._row(node, pid, succ.change(new), succ.new, succ.status, None, reviewed=True)
            return list(succ.new)
        q = qualified(old, pid)
        self.notes[q] = succ.change(new)
        self._row(node, pid, succ.change(new), (), succ.status, None, reviewed=False)
        return [q]

    def _chain(self, cite: str) -> Chain | None:
        other, pid = rulings_data.split_cite(cite)
        hops = self.hops(other)
        return through(hops, pid) if hops else None

    def _waited(self, cite: str, node: str) -> list[str]:
        """A cite of an older code's provision, still waiting for review in the
        tree carried on ("2017:45F"): it stays that code's, saying what became
        of it in each code since, until the new code's reviews settle it."""
        chain = self._chain(cite)
        if chain is None:  # not carried along this code's line (no alignment to follow): it stays
            note = self.notes.setdefault(cite, f"still {cite.replace(':', ' ')}, carried unreviewed into "
                                               f"{self.align.old}")
            self._row(node, cite, note, (), "carried", None)
            return [cite]
        review = self.reviews.find(cite, self.period, node)
        if review is not None:
            cites = review.apply(chain, self.align.new)
            self._row(node, cite, chain.change(self.align.new), tuple(cites), chain.status, review)
            return cites
        self.notes[cite] = chain.change(self.align.new)
        self._row(node, cite, self.notes[cite], (), chain.status, None, reviewed=False)
        return [cite]

    def _row(self, node, pid, change, to, status, review, reviewed=None):
        self.carried.rows.append({
            "edition": self.align.new, "period": self.period, "node": node, "from_edition": self.align.old,
            "provision": pid, "to_provisions": json.dumps(list(to)), "status": status, "change": change,
            "reviewed": int(review is not None if reviewed is None else reviewed),
            "decision": review.decision if review else ("follows" if reviewed else None),
            "reviewer": review.reviewer if review else None, "reviewed_on": review.date if review else None})

    def followed(self, pid: str, node: str) -> str | None:
        """The one provision of the new code a provision of the older became,
        by the comparison or a review; None while it awaits review (or went
        to several, or none)."""
        if pid in self.waiting:  # the sentence names the older code's provision its cite waits as
            cite = self.waiting[pid]
            chain, review = self._chain(cite), self.reviews.find(cite, self.period, node)
            to = review.apply(chain, self.align.new) if review is not None and chain is not None else []
            return to[0] if len(to) == 1 else None
        succ = self.align.successor(pid)
        review = self.reviews.find(pid, self.period, node)
        to = review.apply(succ, self.align.new) if review is not None else list(succ.new) if succ.follows else []
        return to[0] if len(to) == 1 else None

    def words(self, text: str, node: str) -> str:
        """A sentence of the tree with each provision it cites ("Law 31",
        "(58A)", found as laws.citations finds citations) written as the new
        code's where it followed or was reviewed; one awaiting review keeps
        the older number, which the review note covers."""
        spans = [(c.start, c.end, c.raw, c.id) for c in citations.find(text) if c.law is not None and not c.outside]
        taken = [range(a, b) for a, b, _, _ in spans]
        spans += [(m.start(1), m.end(1), m[1], m[1]) for m in _BRACKETED.finditer(text)
                  if not any(m.start(1) in r for r in taken)]
        for start, end, raw, pid in sorted(set(spans), reverse=True):
            if not raw.endswith(pid):  # a range ("Laws 61 to 64") names its laws between: not rewritten
                continue
            new = self.followed(pid, node)
            if new is not None and new != pid:
                text = text[:end - len(pid)] + new + text[end:]
        return text

    def tree(self, value, pointer: str = ""):
        """A deep copy of `value` with every `cites` list mapped, and the
        provisions its sentences name (`words`)."""
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k == "cites" and isinstance(v, list):
                    out[k] = list(dict.fromkeys(c for pid in v for c in self.cite(pid, pointer or "/")))
                elif k in WORDED and isinstance(v, str):
                    out[k] = self.words(v, pointer or "/")
                else:
                    out[k] = self.tree(v, f"{pointer}/{k}")
            return out
        if isinstance(value, list):
            return [self.tree(v, f"{pointer}/{i}") for i, v in enumerate(value)]
        return copy.deepcopy(value)


def _codes(conn) -> list[dict]:
    """The store's codes, oldest first within each family (year, then manifest order)."""
    rows = conn.execute("select id, year, family, ord from editions where kind = 'code' order by year, ord")
    return [{"id": r[0], "year": r[1], "family": r[2]} for r in rows]


def carried_into(codes: list[dict], have) -> dict[str, str]:
    """new code -> the code its rulings of one period are carried from: each
    code (`codes`: id, family, oldest first) with no file of its own (`have`:
    the codes with one) takes the nearest older code of its family that has
    rulings, its file or what was carried into it."""
    have, out = set(have), {}
    for i, code in enumerate(codes):
        if code["id"] in have:
            continue
        before = [c["id"] for c in codes[:i] if c["family"] == code["family"] and c["id"] in have]
        if before:
            out[code["id"]] = before[-1]
            have.add(code["id"])
    return out


def _laws(conn, edition: str) -> set[int]:
    return {r[0] for r in conn.execute("select distinct law from provisions where edition = ?", [edition])}


def carry_tree(data: dict, mapper: _Mapper, new_laws: set[int], new_terms: set[str]) -> dict:
    """One period's data of the older code, carried into the newer one."""
    old, new = mapper.align.old, mapper.align.new
    before = data.get("carried") or {}
    mapper.waiting = {pid: cite for cite in before.get("notes", {})
                      for other, pid in [rulings_data.split_cite(cite)] if other is not None}
    out = mapper.tree({k: v for k, v in data.items() if k != "carried"})
    out["edition"] = new
    for _, node in rulings_data.all_nodes(out):
        # a question links the defined terms it uses: only those the new code defines
        if isinstance((node.get("ask") or {}).get("terms"), list):
            node["ask"]["terms"] = [t for t in node["ask"]["terms"] if t in new_terms]
    for spec in out["kinds"].values():
        # the law a kind is named for: the new code's, or said to be the older code's
        # (carried on, a law already said to be an older code's stays so)
        if isinstance(spec.get("law"), str) and rulings_data.law_of(spec["law"]) not in new_laws \
                and not _OLDER_LAW.search(spec["law"]):
            spec["law"] = f"{spec['law']} ({old} Laws)"
        if isinstance(spec.get("laws"), list):
            spec["laws"] = [n for n in spec["laws"] if rulings_data.law_of(str(n)) in new_laws]
    # the record's right to appeal cites its period (record.json): carried as every other cite,
    # from what the older code's tree cites for it when that tree was carried itself
    cites = before.get("appeal", record.WORDS["appeal"]["cites"])
    appeal = list(dict.fromkeys(c for pid in cites for c in mapper.cite(pid, "/appeal")))
    source = before.get("rules_of") or old
    notes = {**before.get("notes", {}), **mapper.notes}
    # a note is kept for the cites the carried tree still makes: one settled on the way is gone
    made: set[str] = set(appeal)
    _cites_in(out, made)
    out["carried"] = {"from": old, "rules_of": source, "notes": {k: v for k, v in notes.items() if k in made},
                      "appeal": appeal}
    return out


_OLDER_LAW = re.compile(r"\(\S+ Laws\)$")  # "31 (2017 Laws)": a kind's law that is an older code's


def _cites_in(value, out: set) -> None:
    """Every cite a tree makes (its `cites` lists)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cites" and isinstance(v, list):
                out.update(v)
            else:
                _cites_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _cites_in(v, out)


def derive(conn, corpus_dir: Path) -> tuple[dict[tuple[str, str], dict], dict[str, Carried]]:
    """Every carried tree ({(edition, period): data}) and every cite carried
    ({edition: Carried}), the reviews applied.  Reads the store, writes nothing."""
    codes = _codes(conn)
    reviews = reviews_mod.load_all(corpus_dir, {c["id"] for c in codes})
    trees: dict[tuple[str, str], dict] = {}
    carried: dict[str, Carried] = {}
    laws = {c["id"]: _laws(conn, c["id"]) for c in codes}
    aligned: dict[tuple[str, str], Alignment] = {}

    def alignment(old: str, new: str) -> Alignment:
        if (old, new) not in aligned:
            aligned[(old, new)] = Alignment(conn, old, new)
        return aligned[(old, new)]

    for period in PERIODS:
        have = dict(rulings_data.files_data(period))
        sources = carried_into([c for c in codes if laws[c["id"]]], have)
        for new, old in sources.items():
            c = carried.setdefault(new, Carried(new, old))
            mapper = _Mapper(alignment(old, new), reviews.of(new), c, period,
                             lambda code, new=new: _hops(sources, code, new, alignment))
            terms = {r[0] for r in conn.execute("select term from definitions where edition = ?", [new])}
            have[new] = trees[(new, period)] = carry_tree(have[old], mapper, laws[new], terms)
    # the checkers and the guide's links go the way the rulings went (each code's source,
    # oldest first): a code carried from a carried one takes what was carried into that one
    line = {ed: c.source for ed, c in carried.items()}
    for code in codes:
        if code["id"] in carried:
            c = carried[code["id"]]
            c.checker_cites = _carry_links(conn, c, reviews.of(c.edition), carried.get(c.source),
                                           lambda code, new=c.edition: _hops(line, code, new, alignment))
    for c in carried.values():
        reviews.of(c.edition).check(conn, c)
    reviews.check_carried(set(carried))
    return trees, carried


def _hops(sources: dict[str, str], code: str, new: str, alignment) -> list[Alignment] | None:
    """The alignments of each carry from `code` to `new` in turn (`sources`:
    each carried code's source), or None if `new`'s rulings were not carried
    along a line through `code`."""
    line = [new]
    while line[-1] != code:
        if line[-1] not in sources:
            return None
        line.append(sources[line[-1]])
    line.reverse()
    return [alignment(a, b) for a, b in zip(line, line[1:])]


def _carry_links(conn, carried: Carried, reviews: reviews_mod.Reviews, before: Carried | None,
                 hops) -> list[tuple]:
    """The checkers' cites and the guide's law links of the older code, carried:
    the checker_cites rows for the new code (its law pages link the checkers),
    and every link listed in `carried`, reviewed or waiting.  `before`: what
    was carried into the older code, when it was carried itself (its cites
    still waiting are carried on, as the rulings' are); `hops`: the
    alignments from an older code to the new one (`_hops`)."""
    align = Alignment(conn, carried.source, carried.edition)
    own = checker_codes.editions().get(carried.edition, {}).get("checkers", {})
    new_rows = []
    for checker, title, cites in _source_checker_cites(conn, carried.source, before):
        if checker in own:  # a checker with data of its own for the new code keeps it
            continue
        mapper = _Mapper(align, reviews, carried, "checkers", hops)
        for pid in cites:
            for cite in mapper.cite(pid, f"/{checker}"):
                if rulings_data.split_cite(cite)[0] is None:
                    new_rows.append((checker, carried.edition, cite, title))
    _carry_guide_links(conn, carried, reviews)
    if before is not None:
        _carry_guide_links_on(carried, reviews, before, align, hops)
    return new_rows


def _source_checker_cites(conn, source: str, before: Carried | None) -> list[tuple[str, str, list[str]]]:
    """(checker, title, cites) of each checker in the code carried from: its
    data file's cites (the store's checker_cites), or, for a checker whose
    cites were carried into it (`before`), what they became there, those
    still waiting as the older code's ("2017:78B") included, so that they are
    carried on rather than dropped."""
    out: dict[str, tuple[str, list[str]]] = {}
    for checker, pid, title in conn.execute("select checker, provision, title from checker_cites where edition = ? "
                                            "order by checker", [source]):
        out.setdefault(checker, (title, []))[1].append(pid)
    carried_in: dict[str, list[str]] = {}
    for r in (before.rows if before is not None else []):
        checker = r["node"].lstrip("/")
        if r["period"] == "checkers" and checker not in out:
            carried_in.setdefault(checker, []).extend(_cited_now(r))
    titles = checker_codes.schemas()
    for checker, cites in carried_in.items():
        out[checker] = (titles.get(checker, {}).get("title", checker), list(dict.fromkeys(cites)))
    return [(checker, title, cites) for checker, (title, cites) in sorted(out.items())]


def _cited_now(row: dict) -> list[str]:
    """What a carried cite (a row of Carried.rows) cites in the code it was
    carried into: the provisions it followed to or a review gave, none if a
    review removed it, else the older code's provision it waits as."""
    to = json.loads(row["to_provisions"])
    if to or row["reviewed"]:
        return to
    pid = row["provision"]
    return [pid if rulings_data.split_cite(pid)[0] is not None else qualified(row["from_edition"], pid)]


def _carry_guide_links(conn, carried: Carried, reviews: reviews_mod.Reviews) -> None:
    """A guide to the older code links laws of the code in force: a law follows
    to the newer code when the comparison finds it the same; any other is
    listed for review (the guide's words explain the older code's law)."""
    old = carried.source
    status = dict(conn.execute("select law, status from law_comparisons where from_edition = ? and to_edition = ?",
                               [old, carried.edition]).fetchall())
    for topic, law in conn.execute(
            "select tl.topic, tl.law from topic_laws tl join topics t on t.id = tl.topic join editions e "
            "on e.id = t.edition where e.guide_to = ? order by tl.topic, tl.law", [old]):
        _guide_link(carried, reviews, f"/{topic}", law, status)


def _guide_link(carried: Carried, reviews: reviews_mod.Reviews, node: str, law: int, status: dict) -> None:
    """One guide link to a law of the older code, carried (`status`: law ->
    what the comparison of the two codes found of it)."""
    old, new, pid = carried.source, carried.edition, str(law)
    review = reviews.find(pid, "guide", node)
    same = status.get(law) == "same"
    # reviewed: accept follows the law to the newer code, replace names the newer code's law, remove keeps the older
    to = list(review.to) if review and review.decision == "replace" else \
        [pid] if same or (review and review.decision == "accept") else []
    carried.rows.append({
        "edition": new, "period": "guide", "node": node, "from_edition": old, "provision": pid,
        "to_provisions": json.dumps(to), "status": status.get(law, "absent"),
        "change": f"Law {law}: {_law_words(law, status, new)}", "reviewed": int(same or review is not None),
        "decision": review.decision if review else ("follows" if same else None),
        "reviewer": review.reviewer if review else None, "reviewed_on": review.date if review else None})


def _law_words(law: int, status: dict, new: str) -> str:
    if status.get(law) == "same":
        return "the same text"
    return "changed" if law in status else f"not in the {new} Laws"


def _carry_guide_links_on(carried: Carried, reviews: reviews_mod.Reviews, before: Carried, align: Alignment,
                          hops) -> None:
    """The guide links carried into the older code (`before`), carried on as
    the rulings' cites are: a link to the older code's law (it followed
    there, or a review sent it there) follows to the newer code when the
    comparison finds that law the same; one waiting as an earlier code's law
    ("2017:33") stays that code's (the guide explains its words), its change
    told code by code, until the newer code's reviews settle it by that name;
    one a review kept on an earlier code stays there, settled."""
    for r in before.rows:
        if r["period"] != "guide":
            continue
        other, pid = rulings_data.split_cite(r["provision"])
        if json.loads(r["to_provisions"]):
            _guide_link(carried, reviews, r["node"], int(pid), align.laws)
        elif r["reviewed"]:
            carried.rows.append({**r, "edition": carried.edition, "from_edition": carried.source,
                                 "provision": qualified(other or r["from_edition"], pid)})
        else:
            _guide_link_waiting(carried, reviews, r["node"], qualified(other or r["from_edition"], pid), hops)


def _guide_link_waiting(carried: Carried, reviews: reviews_mod.Reviews, node: str, cite: str, hops) -> None:
    """A guide link still waiting as an earlier code's law ("2017:33"), carried on."""
    other, pid = rulings_data.split_cite(cite)
    law, steps, status = int(pid), [], "changed"
    for align in hops(other) or []:
        steps.append((align.new, _law_words(law, align.laws, align.new)))
        if law not in align.laws:  # the law ended on the way
            status = "absent"
            break
    if not steps:  # not carried along this code's line: it stays, as a ruling's cite does
        change = f"still {other} Law {law}, carried unreviewed into {carried.source}"
    elif len(steps) == 1:
        change = f"Law {law}: {steps[0][1]}"
    else:
        change = " → ".join(f"{code}: Law {law}: {words}" for code, words in steps)
    review = reviews.find(cite, "guide", node)
    to = list(review.to) if review and review.decision == "replace" else \
        [pid] if review and review.decision == "accept" else []
    carried.rows.append({
        "edition": carried.edition, "period": "guide", "node": node, "from_edition": carried.source,
        "provision": cite, "to_provisions": json.dumps(to),
        "status": status if steps else "carried",
        "change": change, "reviewed": int(review is not None), "decision": review.decision if review else None,
        "reviewer": review.reviewer if review else None, "reviewed_on": review.date if review else None})


def guide_links(conn, edition: str) -> dict[tuple[str, int], str]:
    """(topic, law) -> the code a guide link goes to, for a guide whose code
    has been carried into `edition`: the newer code where the law followed
    (or a review accepted it), else the older code."""
    out = {}
    for node, pid, frm, to in conn.execute(
            "select node, provision, from_edition, to_provisions from carried_cites where edition = ? "
            "and period = 'guide'", [edition]):
        # one waiting since an earlier code ("2017:33", carried on) stays on that code's law
        other, law = rulings_data.split_cite(pid)
        out[(node.lstrip("/"), int(law))] = edition if json.loads(to) else other or frm
    return out  # read by the guide's topic pages (laws/web/pages.py `topic`)


def build(db, corpus_dir: Path, out: Path) -> list[str]:
    """The build step: derive, write into the store, and say (one line per
    carried edition) how many carried cites still await review; those are
    listed in reviews-pending-<edition>.toml beside the store (`out`)."""
    conn = db.conn
    trees, carried = derive(conn, Path(corpus_dir))
    _write(conn, trees, carried)
    lines = []
    for c in carried.values():
        if c.pending():
            (Path(out) / PENDING_FILE.format(edition=c.edition)).write_text(reviews_mod.pending_text(c),
                                                                            encoding="utf-8")
        lines.append(_line(c))
    return lines


def _write(conn, trees: dict[tuple[str, str], dict], carried: dict[str, Carried]) -> None:
    conn.executemany("insert into carried_rulings (edition, period, from_edition, rules_of, data) "
                     "values (?, ?, ?, ?, ?)",
                     [(ed, period, t["carried"]["from"], t["carried"]["rules_of"],
                       json.dumps(t, ensure_ascii=False, separators=(",", ":")))
                      for (ed, period), t in trees.items()])
    for c in carried.values():
        conn.executemany("insert or ignore into checker_cites (checker, edition, provision, title) "
                         "values (?, ?, ?, ?)", c.checker_cites)
        if c.rows:
            cols = list(c.rows[0])
            conn.executemany(f"insert into carried_cites ({', '.join(cols)}) values ({', '.join('?' * len(cols))})",
                             [tuple(r[k] for k in cols) for r in c.rows])
    conn.commit()


def _line(c: Carried) -> str:
    """The build's line for one carried edition."""
    pending = c.pending()
    line = (f"{c.edition}: rulings, checker cites and guide links carried from {c.source}: "
            f"{len(c.rows)} cites, {sum(r['decision'] == 'follows' for r in c.rows)} follow the comparison, "
            f"{sum(r['reviewer'] is not None for r in c.rows)} reviewed, {len(pending)} await review")
    if pending:
        waiting = {(r["period"] == "guide", r["provision"]) for r in pending}
        line += (f" ({len(waiting)} provisions: listed in {PENDING_FILE.format(edition=c.edition)} beside the "
                 f"store; record decisions in corpus/reviews/{c.edition}.toml)")
    return line
