"""The build: corpus -> parse -> store -> references -> index, swapped in atomically.

Everything the web app serves is made here, once; the web app only reads.

Layout of the data directory (`LAWS_DATA_DIR`, default ./data):

    data/current -> builds/<stamp>      the build being served (a symlink)
    data/builds/<stamp>/laws.db         the store
    data/builds/<stamp>/index/          the search index

A build writes a new `builds/<stamp>` directory and only when every step has
succeeded points `current` at it (an atomic rename of a symlink).  A failed or
interrupted build leaves `current` as it was.  The previous build is kept so
a server still reading it is never pulled from under.  One build runs at a
time, and a killed build's leftovers go with the next one (laws.datadir).
"""
from __future__ import annotations

import codecs
import errno
import hashlib
import json
import os
import re
import shutil
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from laws import datadir, ligatures, plain, references, store
from laws import manifest as manifest_mod
from laws.buildcache import Cache, cached_map, code_hash, file_digest, read_files, write_files
from laws.corrections import CORRECTIONS, Corrections
from laws.model import ParsedSource, SourceError
from laws.parsers import get as get_parser
from laws.workers import fork_map

CURRENT = datadir.CURRENT
BUILDS = datadir.BUILDS
# sources are parsed in this order: fragments are matched against the code
# of their edition, so codes come first
KIND_ORDER = {"code": 0, "witness": 1, "guide": 2, "fragments": 3}
# A control character in a text source is damage (a NUL from a bad copy, an
# escape from a terminal), never text.  Tab, line feed and carriage return
# are text, and form feed is too: a PDF extract puts one between pages.
CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
# The longest line of any source today is under 1,500 characters (a PDF
# paragraph); a line of tens of thousands is junk appended or line breaks lost.
MAX_LINE = 20_000
# A new build that holds fewer provisions (definitions, guide topics) of an
# edition than this share of the build being served has lost text, unless
# told the shrink is meant (`--accept-shrink`).
SHRINK = 0.95
# what is counted, by store table (and EditionSummary field) -> its name in a message
COUNTED = {"provisions": "provisions", "definitions": "definitions", "topics": "guide topics"}
# in a build's directory: what it was made from ({"build": build_key, "store": the store's sha256})
BUILD_FILE = "build.json"


class BuildError(Exception):
    """A build that could not finish; the message is for the organiser."""


def disk_full(exc: BaseException) -> bool:
    """True for a write that failed for want of space, from a file write or
    from SQLite (whose own message for SQLITE_FULL is "database or disk is
    full"; a worker's error re-raised here keeps only the message)."""
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return False


@contextmanager
def _writing(directory: Path):
    """A full disk met while writing `directory` stops the build saying so,
    not as an unexpected failure: it is the organiser's to fix."""
    try:
        yield
    except Exception as exc:
        if isinstance(exc, BuildError) or not disk_full(exc):
            raise
        raise BuildError(f"the disk is full: no space left to write {_full_directory(exc, directory)}; "
                         "free some space (or set LAWS_DATA_DIR to a folder on another disk) "
                         "and build again") from None


def _full_directory(exc: Exception, directory: Path) -> Path:
    """The directory being written: `directory`, unless the failed write names
    a file elsewhere (a temporary file on another disk, say)."""
    name = getattr(exc, "filename", None)
    if not name:
        return directory
    path = Path(os.fsdecode(name))
    return directory if directory in path.parents else path.parent


def failure(exc: Exception) -> str:
    """A failed build's message in one line: the corpus's own errors as they
    are (they name the file and line), anything else by its type."""
    if isinstance(exc, (SourceError, BuildError)):
        return str(exc)
    return f"unexpected {type(exc).__name__}: {exc} (please report it)"


@dataclass
class EditionSummary:
    edition: str
    laws: int = 0
    provisions: int = 0
    definitions: int = 0
    topics: int = 0
    index_entries: int = 0  # the official index's headings and sub-entries
    index_resolved: int = 0
    index_unresolved: int = 0
    resolved: int = 0
    unresolved: int = 0
    corrections: int = 0
    seconds: float = 0.0
    glosses: plain.Coverage | None = None  # the plain-words layer, for an edition that has one

    def line(self) -> str:
        parts = [f"{self.laws} laws", f"{self.provisions} provisions", f"{self.definitions} definitions"]
        if self.topics:
            parts.append(f"{self.topics} guide topics")
        if self.index_entries:
            parts.append(f"index {self.index_entries} entries, citations {self.index_resolved} resolved"
                         f" / {self.index_unresolved} unresolved")
        parts += [f"references {self.resolved} resolved / {self.unresolved} unresolved",
                  f"{self.corrections} corrections"]
        if self.glosses is not None:
            parts.append(self.glosses.line())
        parts.append(f"{self.seconds:.2f} s")
        return f"{self.edition}: " + ", ".join(parts)


@dataclass
class BuildResult:
    path: Path
    editions: list[EditionSummary] = field(default_factory=list)
    seconds: float = 0.0
    # wall time of each step (parse, store, references, then the after-store
    # steps by name), for bench/build.py and bench/scale.py
    steps: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)  # the same steps' CPU time (a loaded machine stretches wall time)
    # the parsed witnesses (second transcriptions), by file, for readings
    # compared word by word with their edition's main text
    witnesses: dict[str, ParsedSource] = field(default_factory=dict)


def fingerprint(corpus_dir: Path) -> str:
    """What the store was built from: every corpus file's name and bytes, the
    store's schema version and the search index's format (a data folder
    built before either changed is rebuilt)."""
    from search.index import FORMAT  # imported here, as in _after_store_steps

    h = hashlib.sha256(f"schema {store.SCHEMA_VERSION}\nsearch index {FORMAT}\n".encode())
    corpus_dir = Path(corpus_dir)
    # every file, those in folders too (the plain-words layer: plain/<edition>/*.toml)
    for p in sorted(p for p in corpus_dir.rglob("*") if p.is_file()):
        h.update(p.relative_to(corpus_dir).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def current_store(data_dir: Path) -> Path:
    return Path(data_dir) / CURRENT / store.DB_NAME


def is_stale(corpus_dir: Path, data_dir: Path) -> bool:
    """True when there is no store, it was built from another corpus or by
    code of another store schema (new code pulled without a rebuild: the app
    would answer 503), or the editions' statuses resolve otherwise today (a
    code's in_force_from has come, LAWS_IN_FORCE or LAWS_TODAY changed):
    `python app.py` started on the day a code takes effect rebuilds."""
    db_path = current_store(data_dir)
    if not db_path.exists():
        return True
    try:
        conn = store.connect(db_path)
        row = conn.execute("select value from meta where key = 'corpus'").fetchone()
        life = conn.execute("select value from meta where key = 'statuses'").fetchone()
        schema = conn.execute("select value from meta where key = 'schema_version'").fetchone()
        conn.close()
    except Exception:  # an unreadable store is as good as none
        return True
    if row is None or row[0] != fingerprint(corpus_dir) or schema is None or schema[0] != str(store.SCHEMA_VERSION):
        return True
    try:
        return life is None or life[0] != manifest_mod.load(corpus_dir).statuses()
    except SourceError:  # a broken manifest or setting: the build says what is wrong
        return True


def _read(source: manifest_mod.Source) -> str:
    """The file's text, decoded as the manifest says (UTF-8 unless it names
    another `encoding`)."""
    try:
        text = source.path.read_bytes().decode(source.encoding)
    except UnicodeDecodeError as exc:
        line = source.path.read_bytes()[: exc.start].count(b"\n") + 1
        name = "UTF-8" if codecs.lookup(source.encoding).name == "utf-8" else source.encoding
        raise SourceError(source.file, f"is not {name} text (a source in another encoding names it "
                                       "in the manifest: encoding = \"latin-1\")", line) from None
    if not text.strip():
        raise SourceError(source.file, "is empty")
    _check_characters(source, text)
    _check_line_lengths(source, text)
    return text


def _check_characters(source: manifest_mod.Source, text: str) -> None:
    m = CONTROL.search(text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        column = m.start() - text.rfind("\n", 0, m.start())
        raise SourceError(source.file, f"holds the control character U+{ord(m[0]):04X} (column {column}), "
                          "which no text has: the file is damaged (a source may hold tab, line feed, carriage "
                          "return and form feed, no other control character); put back a good copy", line)


def _check_line_lengths(source: manifest_mod.Source, text: str) -> None:
    for n, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE:
            raise SourceError(source.file, f"is {len(line):,} characters long; no line of a source is longer "
                              f"than {MAX_LINE:,}: junk was added or the line breaks were lost; "
                              "put back a good copy", n)


def _check_coverage(source: manifest_mod.Source, parsed: ParsedSource) -> None:
    """A source must give every law the manifest says it covers: a code or a
    witness as laws, fragments as the laws they reproduce (a guide's `laws`
    are those of the code it explains, not a promise of its own)."""
    if source.kind in ("code", "witness"):
        got, what = {law.number for law in parsed.laws}, "the parser found"
    elif source.kind == "fragments":
        got, what = {f.law for f in parsed.fragments if f.law is not None}, "its fragments reproduce"
    else:
        return
    missing = [n for n in source.laws if n not in got]
    if missing:
        laws = f"Law {missing[0]} is" if len(missing) == 1 else f"Laws {law_ranges(missing)} are"
        raise SourceError(source.file, f"{what} {len(source.laws) - len(missing)} of the {len(source.laws)} laws "
                                       f"the manifest lists for it ({law_ranges(source.laws)}): {laws} missing")
    extra = sorted(got - set(source.laws))
    if extra and source.kind != "fragments":
        raise SourceError(source.file, f"has Laws {', '.join(map(str, extra))}, which the manifest does not list")


def law_ranges(numbers) -> str:
    """(2, 5, 6, 7, 12) -> '2, 5-7, 12', as the manifest writes them."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def parse_all(corpus_dir: Path, workers: int | None = None, cache: Cache | None = None
              ) -> tuple[manifest_mod.Manifest, list[ParsedSource], dict[str, float]]:
    """Every source of the corpus parsed, in KIND_ORDER.  Sources that need
    nothing parsed before them (all but fragments) are parsed side by side,
    one per core (laws.workers): a corpus of thirty codes is thirty
    independent parses.  With a `cache`, a source whose inputs and parser
    code are those of a parse kept (`parse_keys`) is not parsed again."""
    cache = cache or Cache(None)
    manifest = manifest_mod.load(corpus_dir)
    corrections = Corrections.load(corpus_dir)
    ordered = sorted(manifest.sources, key=lambda s: KIND_ORDER[s.kind])
    keys = parse_keys(cache, manifest, corrections, ordered) if cache.enabled else {}
    done: dict[str, tuple[ParsedSource, float, list[int]]] = {}
    for source in ordered:
        found, value = cache.get("parse", keys[source.file], source.file) if keys else (False, None)
        if found:
            done[source.file] = value
    # the largest first, so that no long parse starts last while the other
    # cores wait (the 2017 PDF text, with its ligature repair, is the longest)
    independent = sorted((s for s in ordered if s.kind != "fragments" and s.file not in done),
                         key=lambda s: -(s.path.stat().st_size if s.path.is_file() else 0))
    cached = set(done)
    done.update(zip((s.file for s in independent),
                    fork_map(_parse_source, independent, shared=(corrections, {}), workers=workers)))
    parsed: dict[str, list[ParsedSource]] = {}
    results: list[ParsedSource] = []
    seconds: dict[str, float] = {}
    for source in ordered:
        if source.file not in done:  # fragments: matched against their code, parsed above
            done[source.file] = _parse_source((corrections, parsed), source)
        result, took, uses = done[source.file]
        if source.file not in cached and keys:
            cache.put("parse", keys[source.file], (result, took, uses))
        for entry, n in zip(corrections.for_file(source.file).entries, uses):
            entry.uses += n
        parsed.setdefault(source.edition, []).append(result)
        results.append(result)
        seconds[source.edition] = seconds.get(source.edition, 0.0) + (0.0 if source.file in cached else took)
    corrections.check_all_used({s.file for s in manifest.sources})
    if cache.enabled:
        cache.step("parse", sorted(cached), [(s.file, done[s.file][1]) for s in ordered if s.file not in cached])
    return manifest, results, seconds


def parse_keys(cache: Cache, manifest: manifest_mod.Manifest, corrections: Corrections,
               ordered: list[manifest_mod.Source]) -> dict[str, str]:
    """{file: the key of its parse}: its bytes, its manifest entry and its
    edition's, its curated corrections; a PDF text's also the files its
    ligature lexicon may read (`ligatures.related_sources`); fragments' also the keys
    of their edition's sources parsed before them (`parsed[edition]`)."""
    keys: dict[str, str] = {}
    for source in ordered:
        before = [keys[s.file] for s in ordered if s.edition == source.edition and s.file in keys]
        related = ligatures.related_sources(manifest, source.edition) if source.parser == "pdf" else []
        keys[source.file] = cache.key(
            "parse", source.path.read_bytes() if source.path.is_file() else b"",
            _entry(source), _entry(manifest.edition(source.edition)),
            [_entry(e) for e in corrections.for_file(source.file).entries],
            [(s.file, hashlib.sha256(s.path.read_bytes()).hexdigest()) for s in related if s.path.is_file()],
            before if source.kind == "fragments" else [])
    return keys


# not read by a parser: a source's path (the same file in another folder
# parses the same), a correction's count of uses, an edition's status today
_NOT_PARSED = {"path", "uses", "in_force", "published", "in_force_from", "declared_in_force", "status",
               "superseded_by"}


def _entry(obj) -> dict:
    """A manifest or corrections entry's fields, as a parse key reads them."""
    return {k: v for k, v in vars(obj).items() if k not in _NOT_PARSED}


def _parse_source(shared: tuple[Corrections, dict], source: manifest_mod.Source
                  ) -> tuple[ParsedSource, float, list[int]]:
    """(the parsed source, seconds, how often each of its file's corrections
    was used).  The corrections are a copy, in a worker process or here
    alike, so the build adds up each source's uses the same way."""
    corrections, parsed = shared
    mine = Corrections([replace(e, uses=0) for e in corrections.entries if e.file == source.file])
    t0 = time.perf_counter()
    text = _read(source)
    try:
        result = get_parser(source.parser)(text, source, mine, parsed)
    except SourceError:
        raise
    except Exception as exc:  # a parser bug or input it did not foresee: name the file
        raise SourceError(source.file, f"could not be read by the '{source.parser}' parser "
                          f"({type(exc).__name__}: {exc})") from exc
    _check_coverage(source, result)
    return result, time.perf_counter() - t0, [e.uses for e in mine.entries]


# Steps that run on the finished store, each given (db, build directory).
# The plain-words layer, search indexing and edition comparison register here;
# each is fast and pure build-time work.  The plain words come before the
# search index, which indexes them; `glosses` receives their coverage by
# edition, for the summary lines.
def _after_store_steps(corpus_dir: Path, glosses: dict, notes: list[str], cache: Cache):
    # imported here, not at the top: the checkers' registry reaches the web
    # package, which imports this module (laws.web.db uses current_store)
    from laws import compare
    from laws.checkers import registry
    from laws.rulings import carry
    from search import index
    return [
        ("plain words", lambda db, out: glosses.update(plain.build(db, corpus_dir))),
        ("checker links", lambda db, out: registry.write_links(db)),
        # the comparison's notes say which curated alignments the aligner no longer needs
        ("comparisons", lambda db, out: notes.extend(compare.build(db, corpus_dir, pair_map=(
            cached_map(cache, "comparison", "comparisons", lambda pair: f"{pair[0][0]} -> {pair[0][1]}")
            if cache.enabled else None))["notes"])),
        # a new code's rulings, checker cites and guide links carried through the
        # comparison; its lines say how many carried cites await review
        ("carried rulings", lambda db, out: notes.extend(carry.build(db, corpus_dir, out))),
        ("search index", lambda db, out: _search_index(db, out / "index", cache, index.build)),
    ]


def _search_index(db, out: Path, cache: Cache, make) -> None:
    """The search index (search/index.py, a black box here): kept whole in
    the cache under the key of the store's bytes as the index reads them
    and the code of search/ and the domain."""
    if not cache.enabled:
        make(db, out)
        return
    db.conn.commit()
    key = cache.key("search", file_digest(Path(_db_file(db))))
    found, files = cache.get("search", key, "the search index")
    if found:
        write_files(out, files)
        cache.step("search index", ["the search index"], [])
        return
    t0 = time.perf_counter()
    make(db, out)
    cache.put("search", key, read_files(out))
    cache.step("search index", [], [("the search index", time.perf_counter() - t0)])


def _db_file(db) -> str:
    return db.conn.execute("pragma database_list").fetchone()[2]


def _cpu_time() -> float:
    """CPU seconds of this process and of the worker processes it has waited
    for (the search index is written by several)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build(corpus_dir: Path, data_dir: Path, echo=print, accept_shrink=(), before_switch=(),
          cache: bool = False, reuse_current: bool = False) -> BuildResult:
    """Build everything into a new directory and switch `current` to it; one
    build at a time (BuildError for a second one).  `accept_shrink` names the
    editions (or their source files) that may hold much less than in the
    build being served.  `before_switch`: (name, step(build directory))
    pairs run on the finished build, under its final name, before it is
    switched in (the web layer's pre-rendered pages, given by the build
    command: this module imports nothing from it); one that raises stops
    the build, which is then removed; the lines one returns (a list) are
    printed with the build's notes.

    `cache`: reuse and keep parses, comparisons and the search index in
    data/cache (laws.buildcache); the store is the same as without.
    `reuse_current` (with `cache`): when the corpus, the code, the day's
    statuses and the steps are those the served build was made from (its
    BUILD_FILE) and its store still has the bytes recorded there, build
    nothing and say so."""
    corpus_dir, data_dir = Path(corpus_dir), Path(data_dir)
    if not corpus_dir.is_dir():
        raise BuildError(f"there is no corpus folder at {corpus_dir}")
    try:
        with _writing(data_dir), datadir.build_lock(data_dir):
            datadir.remove_leftovers(data_dir)  # no other build runs: any .tmp-* was killed
            t0 = time.perf_counter()
            the_cache = Cache.of(data_dir, cache)
            key = build_key(corpus_dir, [name for name, _ in before_switch]) if cache else None
            if reuse_current and key:
                current = _current_if_same(data_dir, key)
                if current is not None:
                    echo(f"nothing changed: build {current.name} is current "
                         f"(corpus, code and statuses as it was built from; store checked against its hash)")
                    return BuildResult(current, seconds=time.perf_counter() - t0)
            return _build(corpus_dir, data_dir, echo, set(accept_shrink), list(before_switch), the_cache, key)
    except datadir.BuildRunning as exc:  # raised on taking the lock only
        raise BuildError(str(exc)) from None


def build_key(corpus_dir: Path, steps: list[str]) -> str:
    """What a build is made from: the corpus (`fingerprint`), the statuses
    the editions resolve to today and the day itself (the store records it,
    the pages print it), all the code, and the steps run after the store."""
    try:
        manifest = manifest_mod.load(corpus_dir)
        life = [manifest.statuses(), str(manifest.as_of), manifest.override or ""]
    except SourceError:  # the build says what is wrong
        life = ["unreadable manifest"]
    h = hashlib.sha256()
    for part in [fingerprint(corpus_dir), *life, code_hash("all"), *steps]:
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def _current_if_same(data_dir: Path, key: str) -> Path | None:
    """The served build, if it was made from `key` and its store is intact."""
    name = datadir.served(data_dir)
    if name is None:
        return None
    served = data_dir / BUILDS / name
    try:
        made = json.loads((served / BUILD_FILE).read_text(encoding="utf-8"))
        if made.get("build") != key or not (served / "index").is_dir():
            return None
        return served if file_digest(served / store.DB_NAME) == made.get("store") else None
    except (OSError, ValueError, AttributeError):  # no record, or a damaged one: build
        return None


def _build(corpus_dir: Path, data_dir: Path, echo, accept_shrink: set[str], before_switch: list,
           cache: Cache, key: str | None) -> BuildResult:
    t0, c0 = time.perf_counter(), _cpu_time()
    steps: dict[str, float] = {}
    cpu: dict[str, float] = {}
    manifest, results, seconds = parse_all(corpus_dir, cache=cache) if cache.enabled else parse_all(corpus_dir)
    served = served_counts(data_dir)
    accepted = _accepted(accept_shrink, manifest, served)
    steps["parse"], cpu["parse"] = time.perf_counter() - t0, _cpu_time() - c0
    kinds = {s.file: s.kind for s in manifest.sources}

    builds = data_dir / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
    tmp = builds / f".tmp-{stamp}"
    tmp.mkdir()
    try:
        with _writing(tmp):
            t1, c1 = time.perf_counter(), _cpu_time()
            db = store.create(tmp / store.DB_NAME)
            hashes = {s.file: (hashlib.sha256(s.path.read_bytes()).hexdigest(), s.path.stat().st_size)
                      for s in manifest.sources}
            store.write_manifest(db, manifest, hashes)
            store.write_sources(db, manifest, results)
            steps["store"], cpu["store"] = (t2 := time.perf_counter()) - t1, (c2 := _cpu_time()) - c1
            refs = references.build(db)
            index_refs = references.resolve_index(db)
            db.conn.commit()
            steps["references"], cpu["references"] = time.perf_counter() - t2, _cpu_time() - c2
            glosses: dict[str, plain.Coverage] = {}
            notes: list[str] = []
            for name, step in _after_store_steps(corpus_dir, glosses, notes, cache):
                t3, c3 = time.perf_counter(), _cpu_time()
                step(db, tmp)
                steps[name], cpu[name] = time.perf_counter() - t3, _cpu_time() - c3
            store.finish(db, {"corpus": fingerprint(corpus_dir), "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                              "corrections_file": CORRECTIONS,
                              # the editions' statuses and the date (or LAWS_IN_FORCE) they were resolved by
                              "statuses": manifest.statuses(), "as_of": manifest.as_of.isoformat(),
                              "in_force_override": manifest.override or ""})
            summaries = _summaries(db, manifest, refs, index_refs, seconds, glosses)
            db.close()
            _check_shrink(manifest, summaries, served, accepted)
            # what the build was made from, for the next build's shortcut (`_current_if_same`)
            (tmp / BUILD_FILE).write_text(json.dumps({"build": key, "store": file_digest(tmp / store.DB_NAME)}),
                                          encoding="utf-8")
            final = builds / stamp
            tmp.rename(final)
            tmp = final  # what to remove if a step below fails: nothing points at it yet
            for name, step in before_switch:
                t4, c4 = time.perf_counter(), _cpu_time()
                said = step(final)
                steps[name], cpu[name] = time.perf_counter() - t4, _cpu_time() - c4
                # a step's lines are printed with the others, after the editions' summaries
                notes.extend(said if isinstance(said, list) else [])
            previous = datadir.served(data_dir)
            datadir.switch(data_dir, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    datadir.prune(data_dir, keep={final.name, previous})
    result = BuildResult(final, summaries, time.perf_counter() - t0, steps, cpu,
                         witnesses={p.file: p for p in results if kinds[p.file] == "witness"})
    for s in summaries:
        echo(s.line())
    for note in notes:
        echo(note)
    for line in cache.lines:
        echo(line)
    cache.prune()
    echo(f"built {final / store.DB_NAME} in {result.seconds:.2f} s"
         f" ({', '.join(f'{k} {v:.2f} s' for k, v in steps.items())});"
         f" {manifest.resolved_how()}: {manifest.statuses()}")
    return result


def served_counts(data_dir: Path) -> dict[str, dict[str, int]]:
    """What each edition holds in the build being served, by COUNTED table
    ({} when no build is served)."""
    db_path = current_store(data_dir)
    if not db_path.exists():
        return {}
    counts: dict[str, dict[str, int]] = {}
    try:
        conn = store.connect(db_path)
        try:
            for table in COUNTED:
                for edition, n in conn.execute(f"select edition, count(*) from {table} group by edition"):
                    counts.setdefault(edition, {})[table] = n
        finally:
            conn.close()
    except sqlite3.Error:  # an unreadable store is as good as none (as for is_stale)
        return {}
    return counts


def _accepted(names: set[str], manifest: manifest_mod.Manifest, served: dict) -> set[str]:
    """The editions whose shrink `--accept-shrink` accepts: named by id or by
    one of their source files.  A name that is neither stops the build, lest
    a typo accept nothing while the organiser believes otherwise."""
    by_file = {s.file: s.edition for s in manifest.sources}
    editions = {e.id for e in manifest.editions} | set(served)
    unknown = sorted(names - editions - set(by_file))
    if unknown:
        raise BuildError(f"--accept-shrink {unknown[0]}: there is no such edition or source file "
                         f"(editions: {', '.join(sorted(editions))}; or a source file named in the manifest)")
    return {by_file.get(name, name) for name in names}


def _check_shrink(manifest: manifest_mod.Manifest, summaries: list[EditionSummary],
                  served: dict[str, dict[str, int]], accepted: set[str]) -> None:
    """Stop a build holding much less of an edition than the build served:
    a source cut short can still parse (a guide that lost fifteen topics, a
    code that lost its definitions)."""
    now = {s.edition: s for s in summaries}
    for edition, had in served.items():
        if edition in accepted:
            continue
        for table, label in COUNTED.items():
            has = getattr(now[edition], table) if edition in now else 0
            if has < SHRINK * had.get(table, 0):
                raise BuildError(f"edition {edition} ({_origin(manifest, edition)}) would have {has} {label}, "
                                 f"fewer than {SHRINK * 100:.0f} % of the {had[table]} of the build being served; if the "
                                 f"corpus is meant to shrink, build again with --accept-shrink {edition}")


def _origin(manifest: manifest_mod.Manifest, edition: str) -> str:
    files = [s.file for s in manifest.sources if s.edition == edition]
    return f"from {', '.join(files)}" if files else "no longer in the manifest"


def _summaries(db, manifest, refs, index_refs, seconds, glosses) -> list[EditionSummary]:
    out = []
    for e in manifest.editions:
        def count(sql: str) -> int:
            return db.execute(sql, [e.id]).fetchone()[0]
        resolved, unresolved = refs.get(e.id, (0, 0))
        out.append(EditionSummary(
            edition=e.id, laws=count("select count(*) from laws where edition = ?"),
            provisions=count("select count(*) from provisions where edition = ?"),
            definitions=count("select count(*) from definitions where edition = ?"),
            topics=count("select count(*) from topics where edition = ?"),
            index_entries=count("select count(*) from index_entries where edition = ?"),
            index_resolved=index_refs.get(e.id, (0, 0))[0], index_unresolved=index_refs.get(e.id, (0, 0))[1],
            resolved=resolved, unresolved=unresolved,
            corrections=count("select count(*) from corrections where edition = ? and certain = 1"),
            seconds=seconds.get(e.id, 0.0), glosses=glosses.get(e.id),
        ))
    return out
