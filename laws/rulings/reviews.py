"""The reviews of carried cites: corpus/reviews/<edition>.toml.

When a new code's rulings are carried from the previous code's
(`laws.rulings.carry`), a cite whose provision the comparison does not find
the same waits for a reviewer.  Each review is an entry:

    [[review]]
    provision = "45F"          # the previous code's provision, as the build listed it ("2017:45F":
                               # an older code's, still waiting when its rulings were carried on)
    decision = "accept"        # accept: cite what it became; replace: cite `to`; remove: cite nothing
    to = ["45G"]               # replace only: the new code's provisions
    where = "auction"          # optional: only there (auction, play, guided, checkers, guide;
                               # or "auction:/kinds/lead/tree", a node and the nodes below it).
                               # A guide's law link is reviewed by law number with where = "guide"
    reviewer = "A. Director"
    date = 2027-06-10
    note = "45G keeps 45F's rule; the words are tidier"   # optional

An entry that cannot be applied (a provision the previous code lacks, a
`to` the new code lacks, accepting a provision that has no successor, an
entry nothing carried uses) stops the build with a message naming the file
and line, never a traceback.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path

from laws import tomlfiles
from laws.model import SourceError

FOLDER = "reviews"
DECISIONS = ("accept", "replace", "remove")
PLACES = ("auction", "play", "guided", "checkers", "guide")


@dataclass(frozen=True)
class Review:
    provision: str
    decision: str
    to: tuple[str, ...]
    where: str | None
    reviewer: str
    date: str
    note: str
    file: str
    line: int | None

    def matches(self, provision: str, period: str, node: str) -> bool:
        if provision != self.provision:
            return False
        if self.where is None:  # everywhere the provision is cited; a guide's link is to a whole law, asked by name
            return period != "guide"
        place, _, below = self.where.partition(":")
        return place == period and (not below or node == below or node.startswith(below.rstrip("/") + "/"))

    def apply(self, successor, new_edition: str) -> list[str]:
        """The new code's cites this review gives for the carried cite."""
        if self.decision == "remove":
            return []
        if self.decision == "replace":
            return list(self.to)
        if not successor.new:
            raise SourceError(self.file, f"accepts {self.provision}, but {successor.change(new_edition)}: "
                                         f"replace it (decision = \"replace\", to = [...]) or remove it", self.line)
        return list(successor.new)


@dataclass
class Reviews:
    """One edition's reviews."""

    edition: str
    entries: list[Review] = field(default_factory=list)
    used: set[int] = field(default_factory=set)

    def find(self, provision: str, period: str, node: str) -> Review | None:
        """The review that settles this cite: one naming its place before one for everywhere."""
        hits = [(i, r) for i, r in enumerate(self.entries) if r.matches(provision, period, node)]
        if not hits:
            return None
        i, r = max(hits, key=lambda h: len(h[1].where or ""))
        self.used.add(i)
        return r

    def check(self, conn, carried) -> None:
        """Every entry names provisions that exist, and settles something carried."""
        def has(edition: str, pid: str) -> bool:
            return conn.execute("select 1 from provisions where edition = ? and id = ?", [edition, pid]).fetchone() \
                is not None
        for i, r in enumerate(self.entries):
            for pid in r.to:
                if not has(self.edition, pid):
                    raise SourceError(r.file, f"replaces {r.provision} by {pid}, which the {self.edition} Laws "
                                              f"do not have", r.line)
            if i in self.used:
                continue
            if r.where is None or r.where.partition(":")[0] != "guide":
                # a cite still waiting as an older code's provision is reviewed by that name ("2017:45F")
                other, _, pid = r.provision.rpartition(":")
                if not has(other or carried.source, pid):
                    raise SourceError(r.file, f"names {r.provision}, which the {other or carried.source} Laws "
                                              + ("" if other else f"(the code {self.edition} is carried from) ")
                                              + "do not have", r.line)
            raise SourceError(r.file, f"reviews {r.provision}" + (f" in {r.where}" if r.where else "")
                              + f", which no ruling, checker or guide link carried into {self.edition} cites",
                              r.line)


class AllReviews:
    def __init__(self, by_edition: dict[str, Reviews]):
        self.by_edition = by_edition

    def of(self, edition: str) -> Reviews:
        return self.by_edition.setdefault(edition, Reviews(edition))

    def check_carried(self, carried: set[str]) -> None:
        """A reviews file is for a code the build carried rulings into."""
        for edition, r in self.by_edition.items():
            if r.entries and edition not in carried:
                raise SourceError(f"{FOLDER}/{edition}.toml", f"reviews cites carried into {edition}, but {edition} "
                                                             f"has rulings of its own: nothing is carried into it")


def _entry(raw: dict, file: str, line: int | None) -> Review:
    known = {"provision", "decision", "to", "where", "reviewer", "date", "note"}
    extra = sorted(set(raw) - known)
    if extra:
        raise SourceError(file, f"unknown field {extra[0]!r} (the fields: {', '.join(sorted(known))})", line)
    provision = tomlfiles.text(raw, "provision", file, line)
    decision = tomlfiles.text(raw, "decision", file, line)
    if decision not in DECISIONS:
        raise SourceError(file, f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}", line)
    to = raw.get("to", [])
    if isinstance(to, str):
        to = [to]
    if not isinstance(to, list) or not all(isinstance(t, str) and t for t in to):
        raise SourceError(file, "'to' must be a list of provisions in quotes, like [\"45G\"]", line)
    if (decision == "replace") != bool(to):
        raise SourceError(file, "give 'to' (the new code's provisions) with decision = \"replace\", and only then",
                          line)
    where = raw.get("where")
    if where is not None and (not isinstance(where, str) or where.partition(":")[0] not in PLACES):
        raise SourceError(file, f"where must be one of {', '.join(PLACES)} (optionally with \":<node>\"), "
                                f"not {where!r}", line)
    reviewer = tomlfiles.text(raw, "reviewer", file, line)
    if not reviewer.strip():
        raise SourceError(file, "'reviewer' must name who reviewed it", line)
    date = raw.get("date")
    if not isinstance(date, datetime.date) or isinstance(date, datetime.datetime):
        raise SourceError(file, f"date must be a date like 2027-06-10, unquoted, not {date!r}", line)
    note = tomlfiles.text(raw, "note", file, line, default="")
    return Review(provision, decision, tuple(to), where, reviewer, date.isoformat(), note, file, line)


def load(path: Path) -> list[Review]:
    file = f"{FOLDER}/{path.name}"
    raw, data = tomlfiles.read(path)
    extra = sorted(set(data) - {"review"})
    if extra:
        raise SourceError(file, f"holds {extra[0]!r}; a reviews file holds [[review]] entries only")
    entries = data.get("review", [])
    if not isinstance(entries, list):
        raise SourceError(file, "write each review as a [[review]] entry")
    lines = tomlfiles.entry_lines(raw, "review")
    return [_entry(e, file, lines[i] if i < len(lines) else None) for i, e in enumerate(entries)]


def load_all(corpus_dir: Path, codes: set[str]) -> AllReviews:
    """Every edition's reviews (corpus/reviews/<edition>.toml); a file for no code of the manifest stops the build."""
    out = {}
    folder = Path(corpus_dir) / FOLDER
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        if path.stem not in codes:
            raise SourceError(f"{FOLDER}/{path.name}", f"is named for {path.stem!r}, which is no code of "
                                                       f"manifest.toml (its codes: {', '.join(sorted(codes))})")
        out[path.stem] = Reviews(path.stem, load(path))
    return AllReviews(out)


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pending_text(carried) -> str:
    """The cites still waiting, as entries to copy into corpus/reviews/<edition>.toml and fill in."""
    out = [f"# Cites carried into {carried.edition} from {carried.source} that await review.",
           f"# Copy an entry into corpus/reviews/{carried.edition}.toml, choose its decision",
           "# (accept / replace with to = [...] / remove), name the reviewer and the date, and rebuild.",
           "# Without `where`, a decision holds everywhere the provision is carried.", ""]
    seen: dict[str, list[dict]] = {}
    for r in carried.pending():
        seen.setdefault(r["provision"] if r["period"] != "guide" else f"guide:{r['provision']}", []).append(r)
    for key, rows in seen.items():
        r = rows[0]
        places = sorted({f"{x['period']}:{x['node']}" for x in rows})
        out += [f"# {r['change']}; carried at {len(rows)} place(s): " + ", ".join(places[:4])
                + (", ..." if len(places) > 4 else ""),
                "[[review]]", f"provision = {_toml_str(r['provision'])}",
                'decision = "accept"  # or "replace" (with to = [...]) or "remove"'
                if r["status"] not in ("removed", "absent")
                else 'decision = "replace"  # with to = [...], or "remove": it has no successor',
                *(['where = "guide"'] if r["period"] == "guide" else []),
                'reviewer = ""', 'date = ""  # the day of the review, unquoted: 2027-06-10', ""]
    return "\n".join(out)

