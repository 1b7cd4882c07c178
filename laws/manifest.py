"""The corpus manifest (`corpus/manifest.toml`): which editions exist and which
source file witnesses each, read and checked before anything is parsed."""
from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from laws import tomlfiles
from laws.model import SourceError

MANIFEST = "manifest.toml"
EDITION_ID = re.compile(r"^[0-9]{4}(-[a-z0-9]+)*$|^[a-z]+-[0-9]{4}$")
KINDS = {"code", "guide"}
# a "witness" is a second transcription of laws of an edition whose main text
# is another source: parsed and recorded as attesting those laws, not stored as their text
SOURCE_KINDS = {"code", "guide", "fragments", "witness"}


@dataclass(frozen=True)
class Edition:
    id: str
    title: str
    year: int
    kind: str
    family: str
    publisher: str
    laws: tuple[int, ...]
    description: str
    guide_to: str | None = None
    # Resolved when the manifest is loaded (`resolve`), as of the build's date:
    # True for the one code directors rule by, shown first, older codes point to it.
    in_force: bool = False
    published: date | None = None       # the day the code was published
    in_force_from: date | None = None   # the day it takes effect (the build on or after it makes it the code in force)
    # `in_force = true` in the manifest: the alias, kept for one release, for
    # "in force, date not recorded" (2017's entry: no date is invented for it)
    declared_in_force: bool = False
    # 'in force', 'published' (not yet in force), 'superseded' (an older code of
    # the family in force), or None (a guide; a code of another family)
    status: str | None = None
    superseded_by: str | None = None    # for a superseded code: the code of its family that followed it


@dataclass(frozen=True)
class Source:
    file: str
    edition: str
    title: str
    kind: str
    parser: str
    laws: tuple[int, ...]
    provenance: str
    attribution: str
    path: Path
    encoding: str = "utf-8"  # how the file's bytes are decoded (a PDF extract may be "latin-1")


@dataclass(frozen=True)
class Manifest:
    editions: tuple[Edition, ...]
    sources: tuple[Source, ...]
    as_of: date | None = None           # the date the statuses were resolved against
    override: str | None = None         # LAWS_IN_FORCE, when a deployment named the code in force

    def edition(self, edition_id: str) -> Edition:
        return next(e for e in self.editions if e.id == edition_id)

    def code_in_force(self) -> Edition | None:
        return next((e for e in self.editions if e.in_force), None)

    def statuses(self) -> str:
        """What the resolution gave, e.g. '2017 superseded by 2027; 2027 in
        force' (recorded in the store: a build made before a code's date is
        out of date once the same resolution gives another line)."""
        return "; ".join(f"{e.id} {e.status}" + (f" by {e.superseded_by}" if e.superseded_by else "")
                         for e in self.editions if e.status) or "no code in force"

    def resolved_how(self) -> str:
        """'as of 2027-09-01', or 'LAWS_IN_FORCE=2017' when a deployment named the code."""
        return f"{IN_FORCE_VARIABLE}={self.override}" if self.override else f"as of {self.as_of}"


def parse_law_list(text: str) -> tuple[int, ...]:
    """'1-93' or '2, 5, 6-7' -> the law numbers, in order."""
    numbers: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)\s*(?:-|–|to)\s*(\d+)|(\d+)", part)
        if not m:
            raise ValueError(f"'{part}' is not a law number or range like 41-71")
        lo, hi = (int(m[1]), int(m[2])) if m[1] else (int(m[3]), int(m[3]))
        if lo > hi or lo < 1:
            raise ValueError(f"'{part}' is not a valid range of law numbers")
        numbers.extend(range(lo, hi + 1))
    return tuple(sorted(set(numbers)))


def _require(entry: dict, key: str, where: str, path: Path, line: int | None) -> str:
    value = entry.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise SourceError(str(path.name), f"{where} has no '{key}'", line)
    return value


def _flag(entry: dict, key: str, where: str, line: int | None) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise SourceError(MANIFEST, f"{where}: {key} must be true or false, not {value!r}", line)
    return value


# The environment a deployment sets to steer the resolution (README, Production).
TODAY_VARIABLE = "LAWS_TODAY"
IN_FORCE_VARIABLE = "LAWS_IN_FORCE"
ENVIRONMENT = "the environment"  # what a SourceError about a variable names in place of a file
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _key_line(raw_lines: list[str], entry_line: int | None, key: str) -> int | None:
    """The line of `key = ...` in the entry starting at `entry_line`, so a bad
    value is named where it is written (the entry's line when not found)."""
    if entry_line is None:
        return None
    for i in range(entry_line, len(raw_lines)):  # raw_lines[entry_line] is the line after the header
        line = raw_lines[i].strip()
        if line.startswith("[["):
            break
        if re.match(rf"{re.escape(key)}\s*=", line):
            return i + 1
    return entry_line


def _date(entry: dict, key: str, where: str, line: int | None) -> date | None:
    """A TOML date (2027-09-01, unquoted), or the same in quotes; anything
    else stops the build naming the entry and the line."""
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, datetime):  # a subclass of date: a time of day means nothing here
        raise SourceError(MANIFEST, f"{where}: {key} must be a date like 2027-09-01, without a time of day", line)
    if isinstance(value, date):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise SourceError(MANIFEST, f"{where}: {key} must be a date like 2027-09-01, not {value!r}", line)


def settings(environ=None) -> tuple[date, str | None]:
    """(the date the build resolves against, the code a deployment names in
    force or None), from LAWS_TODAY (default: today) and LAWS_IN_FORCE."""
    environ = os.environ if environ is None else environ
    today = (environ.get(TODAY_VARIABLE) or "").strip()
    as_of = date.today()
    if today:
        try:
            if not _ISO_DATE.fullmatch(today):
                raise ValueError
            as_of = date.fromisoformat(today)
        except ValueError:
            raise SourceError(ENVIRONMENT, f"{TODAY_VARIABLE} is {today!r}, which is not a date: "
                                           "write it YYYY-MM-DD (2027-09-01), or unset it for today") from None
    override = (environ.get(IN_FORCE_VARIABLE) or "").strip() or None
    return as_of, override


def resolve(editions: list[Edition], as_of: date, override: str | None = None) -> tuple[Edition, ...]:
    """Each code's status as of `as_of`.  The code in force is the one a
    deployment names (LAWS_IN_FORCE), else among the codes whose in_force_from
    is on or before `as_of` or that carry the alias `in_force = true`, the
    newest: a 2027 code whose day has come supersedes 2017's alias without
    anyone editing 2017's entry.  Of the family in force, older codes are
    superseded and newer ones published; a code of another family is
    published only while its in_force_from is still to come."""
    codes = [e for e in editions if e.kind == "code"]
    if override is not None:
        current = next((e for e in codes if e.id == override), None)
        if current is None:
            what = ("names the guide '" + override + "', not a code"
                    if any(e.id == override for e in editions) else f"is {override!r}, which names no code")
            raise SourceError(ENVIRONMENT, f"{IN_FORCE_VARIABLE} {what} of {MANIFEST} "
                                           f"(its codes: {', '.join(e.id for e in codes)}); "
                                           "name one of them, or unset it to go by the dates")
    else:
        eligible = [e for e in codes if e.declared_in_force or (e.in_force_from and e.in_force_from <= as_of)]
        current = max(eligible, key=lambda e: (e.year, e.in_force_from or date.min), default=None)
    out = []
    for e in editions:
        status, by = None, None
        if e.kind == "code":
            if e is current:
                status = "in force"
            elif current is not None and e.family == current.family:
                if e.year < current.year:
                    status = "superseded"
                    # the code that followed it, up to the one in force (2007 by 2017, though 2027 rules now)
                    by = min((c for c in codes if c.family == e.family and e.year < c.year <= current.year),
                             key=lambda c: c.year).id
                else:
                    status = "published"
            elif e.in_force_from is not None and e.in_force_from > as_of:
                status = "published"
        out.append(replace(e, in_force=e is current, status=status, superseded_by=by))
    return tuple(out)


def load(corpus_dir: Path, as_of: date | None = None, in_force: str | None = None) -> Manifest:
    """The manifest with every edition's status resolved as of `as_of`, with
    the code `in_force` in force when one is named; either left out is read
    from the environment (`settings`), so the build and every other reader of
    the manifest (the checkers without a store) resolve alike."""
    from laws.parsers import PARSERS  # the registry names the parsers a source may ask for

    path = Path(corpus_dir) / MANIFEST
    if not path.is_file():
        raise SourceError(MANIFEST, f"no manifest in {corpus_dir}: every corpus needs one")
    raw, data = tomlfiles.read(path)
    raw_lines = raw.splitlines()

    editions: list[Edition] = []
    for entry, line in zip(data.get("edition", []), tomlfiles.entry_lines(raw, "edition") + [None] * 99):
        where = f"edition '{entry.get('id', '?')}'"
        eid = str(_require(entry, "id", "an [[edition]] entry", path, line))
        if not EDITION_ID.match(eid):
            raise SourceError(MANIFEST, f"edition id '{eid}' must look like 2007, 1993-rubber or dbrs-2017", line)
        if any(e.id == eid for e in editions):
            raise SourceError(MANIFEST, f"edition '{eid}' is listed twice", line)
        kind = _require(entry, "kind", where, path, line)
        if kind not in KINDS:
            raise SourceError(MANIFEST, f"{where}: kind must be one of {sorted(KINDS)}, not '{kind}'", line)
        try:
            laws = parse_law_list(_require(entry, "laws", where, path, line))
            year = int(_require(entry, "year", where, path, line))
        except ValueError as exc:
            raise SourceError(MANIFEST, f"{where}: {exc}", line) from None
        published = _date(entry, "published", where, _key_line(raw_lines, line, "published"))
        from_line = _key_line(raw_lines, line, "in_force_from")
        in_force_from = _date(entry, "in_force_from", where, from_line)
        alias_line = _key_line(raw_lines, line, "in_force")
        declared = _flag(entry, "in_force", where, alias_line)
        editions.append(Edition(
            id=eid, title=_require(entry, "title", where, path, line), year=year, kind=kind,
            family=entry.get("family", "duplicate"), publisher=entry.get("publisher", ""),
            laws=laws, description=entry.get("description", ""), guide_to=entry.get("guide_to"),
            published=published, in_force_from=in_force_from, declared_in_force=declared,
        ))
        if (declared or in_force_from) and kind != "code":
            raise SourceError(MANIFEST, f"{where}: only a code can be in force",
                              alias_line if declared else from_line)
        if declared and in_force_from:
            raise SourceError(MANIFEST, f"{where}: give in_force_from (the day it takes effect) or "
                                        "in_force = true (in force, date not recorded), not both", alias_line)
        if published and in_force_from and in_force_from < published:
            raise SourceError(MANIFEST, f"{where}: in_force_from ({in_force_from}) is before published "
                                        f"({published}); a code takes effect on or after the day it is published",
                              from_line)
        if declared and any(e.declared_in_force for e in editions[:-1]):
            both = [e.id for e in editions if e.declared_in_force]
            raise SourceError(MANIFEST, f"editions {' and '.join(both)} are both marked in_force; only one code "
                                        "is in force (give the newer one its in_force_from date instead)",
                              alias_line)
    if not editions:
        raise SourceError(MANIFEST, "lists no [[edition]]")
    if as_of is None or in_force is None:
        env_date, env_override = settings()
        as_of = env_date if as_of is None else as_of
        in_force = env_override if in_force is None else in_force
    resolved = resolve(editions, as_of, in_force)

    sources: list[Source] = []
    known = {e.id for e in editions}
    for entry, line in zip(data.get("source", []), tomlfiles.entry_lines(raw, "source") + [None] * 99):
        fname = str(_require(entry, "file", "a [[source]] entry", path, line))
        where = f"source '{fname}'"
        if "/" in fname or "\\" in fname or fname.startswith("."):
            raise SourceError(MANIFEST, f"{where}: name a file in the corpus folder itself", line)
        edition = _require(entry, "edition", where, path, line)
        if edition not in known:
            raise SourceError(MANIFEST, f"{where} names edition '{edition}', which has no [[edition]] entry", line)
        parser = _require(entry, "parser", where, path, line)
        if parser not in PARSERS:
            raise SourceError(MANIFEST, f"{where}: there is no parser '{parser}' (there are: {', '.join(sorted(PARSERS))})", line)
        kind = _require(entry, "kind", where, path, line)
        if kind not in SOURCE_KINDS:
            raise SourceError(MANIFEST, f"{where}: kind must be one of {sorted(SOURCE_KINDS)}, not '{kind}'", line)
        try:
            laws = parse_law_list(_require(entry, "laws", where, path, line))
        except ValueError as exc:
            raise SourceError(MANIFEST, f"{where}: {exc}", line) from None
        encoding = str(entry.get("encoding", "utf-8"))
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise SourceError(MANIFEST, f"{where}: encoding '{encoding}' is not one Python knows "
                                        "(utf-8, latin-1, cp1252 ...)", line) from None
        file_path = Path(corpus_dir) / fname
        if not file_path.is_file():
            raise SourceError(fname, "is named in the manifest but is not in the corpus folder")
        if file_path.stat().st_size == 0:
            raise SourceError(fname, "is empty")
        if any(s.file == fname for s in sources):
            raise SourceError(MANIFEST, f"{where} is listed twice", line)
        sources.append(Source(
            file=fname, edition=edition, title=_require(entry, "title", where, path, line), kind=kind,
            parser=parser, laws=laws, provenance=entry.get("provenance", ""),
            attribution=entry.get("attribution", ""), path=file_path, encoding=encoding,
        ))
    for e in editions:
        if not any(s.edition == e.id for s in sources):
            raise SourceError(MANIFEST, f"edition '{e.id}' has no [[source]] file")
    return Manifest(resolved, tuple(sources), as_of=as_of, override=in_force)
