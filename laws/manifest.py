"""The corpus manifest (`corpus/manifest.toml`): which editions exist and which
source file witnesses each, read and checked before anything is parsed."""
from __future__ import annotations

import codecs
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

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
    in_force: bool = False  # the code directors rule by today: shown first, older codes point to it


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

    def edition(self, edition_id: str) -> Edition:
        return next(e for e in self.editions if e.id == edition_id)


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


def _entry_lines(raw: str, table: str) -> list[int]:
    """Line numbers of each [[table]] header, so errors can point at them."""
    return [i for i, l in enumerate(raw.splitlines(), 1) if l.strip() == f"[[{table}]]"]


def load(corpus_dir: Path) -> Manifest:
    from laws.parsers import PARSERS  # the registry names the parsers a source may ask for

    path = Path(corpus_dir) / MANIFEST
    if not path.is_file():
        raise SourceError(MANIFEST, f"no manifest in {corpus_dir}: every corpus needs one")
    raw = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise SourceError(MANIFEST, f"is not valid TOML ({exc})", int(m[1]) if m else None) from None

    editions: list[Edition] = []
    for entry, line in zip(data.get("edition", []), _entry_lines(raw, "edition") + [None] * 99):
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
        editions.append(Edition(
            id=eid, title=_require(entry, "title", where, path, line), year=year, kind=kind,
            family=entry.get("family", "duplicate"), publisher=entry.get("publisher", ""),
            laws=laws, description=entry.get("description", ""), guide_to=entry.get("guide_to"),
            in_force=_flag(entry, "in_force", where, line),
        ))
        if editions[-1].in_force and kind != "code":
            raise SourceError(MANIFEST, f"{where}: only a code can be in force", line)
    if not editions:
        raise SourceError(MANIFEST, "lists no [[edition]]")
    in_force = [e.id for e in editions if e.in_force]
    if len(in_force) > 1:
        raise SourceError(MANIFEST, f"editions {' and '.join(in_force)} are both marked in_force; only one code is in force")

    sources: list[Source] = []
    known = {e.id for e in editions}
    for entry, line in zip(data.get("source", []), _entry_lines(raw, "source") + [None] * 99):
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
    return Manifest(tuple(editions), tuple(sources))
