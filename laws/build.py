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
import hashlib
import os
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from laws import datadir, plain, references, store
from laws import manifest as manifest_mod
from laws.corrections import CORRECTIONS, Corrections
from laws.model import ParsedSource, SourceError
from laws.parsers import get as get_parser
from laws.workers import fork_map

CURRENT = datadir.CURRENT
BUILDS = datadir.BUILDS
# sources are parsed in this order: fragments are matched against the code
# of their edition, so codes come first
KIND_ORDER = {"code": 0, "witness": 1, "guide": 2, "fragments": 3}


class BuildError(Exception):
    """A build that could not finish; the message is for the organiser."""


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
    """True when there is no store, or it was built from another corpus."""
    db_path = current_store(data_dir)
    if not db_path.exists():
        return True
    try:
        conn = store.connect(db_path)
        row = conn.execute("select value from meta where key = 'corpus'").fetchone()
        conn.close()
    except Exception:  # an unreadable store is as good as none
        return True
    return row is None or row[0] != fingerprint(corpus_dir)


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
    return text


def _check_coverage(source: manifest_mod.Source, parsed: ParsedSource) -> None:
    """A code (or witness) source must give every law the manifest says it covers."""
    if source.kind not in ("code", "witness"):
        return
    got = {law.number for law in parsed.laws}
    missing = [n for n in source.laws if n not in got]
    extra = sorted(got - set(source.laws))
    if missing:
        raise SourceError(source.file, f"the manifest says it covers Law {missing[0]}"
                          f"{' and others' if len(missing) > 1 else ''}, but the parser found no such law"
                          f" ({len(missing)} missing: {', '.join(map(str, missing[:10]))})")
    if extra:
        raise SourceError(source.file, f"has Laws {', '.join(map(str, extra))}, which the manifest does not list")


def parse_all(corpus_dir: Path, workers: int | None = None
              ) -> tuple[manifest_mod.Manifest, list[ParsedSource], dict[str, float]]:
    """Every source of the corpus parsed, in KIND_ORDER.  Sources that need
    nothing parsed before them (all but fragments) are parsed side by side,
    one per core (laws.workers): a corpus of thirty codes is thirty
    independent parses."""
    manifest = manifest_mod.load(corpus_dir)
    corrections = Corrections.load(corpus_dir)
    ordered = sorted(manifest.sources, key=lambda s: KIND_ORDER[s.kind])
    # the largest first, so that no long parse starts last while the other
    # cores wait (the 2017 PDF text, with its ligature repair, is the longest)
    independent = sorted((s for s in ordered if s.kind != "fragments"),
                         key=lambda s: -(s.path.stat().st_size if s.path.is_file() else 0))
    done = dict(zip((s.file for s in independent),
                    fork_map(_parse_source, independent, shared=(corrections, {}), workers=workers)))
    parsed: dict[str, list[ParsedSource]] = {}
    results: list[ParsedSource] = []
    seconds: dict[str, float] = {}
    for source in ordered:
        if source.file not in done:  # fragments: matched against their code, parsed above
            done[source.file] = _parse_source((corrections, parsed), source)
        result, took, uses = done[source.file]
        for entry, n in zip(corrections.for_file(source.file).entries, uses):
            entry.uses += n
        parsed.setdefault(source.edition, []).append(result)
        results.append(result)
        seconds[source.edition] = seconds.get(source.edition, 0.0) + took
    corrections.check_all_used({s.file for s in manifest.sources})
    return manifest, results, seconds


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
def _after_store_steps(corpus_dir: Path, glosses: dict, notes: list[str]):
    # imported here, not at the top: the checkers' registry reaches the web
    # package, which imports this module (laws.web.db uses current_store)
    from laws import compare
    from laws.checkers import registry
    from search import index
    return [
        ("plain words", lambda db, out: glosses.update(plain.build(db, corpus_dir))),
        ("checker links", lambda db, out: registry.write_links(db)),
        # the comparison's notes say which curated alignments the aligner no longer needs
        ("comparisons", lambda db, out: notes.extend(compare.build(db, corpus_dir)["notes"])),
        ("search index", lambda db, out: index.build(db, out / "index")),
    ]


def _cpu_time() -> float:
    """CPU seconds of this process and of the worker processes it has waited
    for (the search index is written by several)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build(corpus_dir: Path, data_dir: Path, echo=print) -> BuildResult:
    """Build everything into a new directory and switch `current` to it; one
    build at a time (BuildError for a second one)."""
    corpus_dir, data_dir = Path(corpus_dir), Path(data_dir)
    if not corpus_dir.is_dir():
        raise BuildError(f"there is no corpus folder at {corpus_dir}")
    try:
        with datadir.build_lock(data_dir):
            datadir.remove_leftovers(data_dir)  # no other build runs: any .tmp-* was killed
            return _build(corpus_dir, data_dir, echo)
    except datadir.BuildRunning as exc:  # raised on taking the lock only
        raise BuildError(str(exc)) from None


def _build(corpus_dir: Path, data_dir: Path, echo) -> BuildResult:
    t0, c0 = time.perf_counter(), _cpu_time()
    steps: dict[str, float] = {}
    cpu: dict[str, float] = {}
    manifest, results, seconds = parse_all(corpus_dir)
    steps["parse"], cpu["parse"] = time.perf_counter() - t0, _cpu_time() - c0
    kinds = {s.file: s.kind for s in manifest.sources}

    builds = data_dir / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
    tmp = builds / f".tmp-{stamp}"
    tmp.mkdir()
    try:
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
        for name, step in _after_store_steps(corpus_dir, glosses, notes):
            t3, c3 = time.perf_counter(), _cpu_time()
            step(db, tmp)
            steps[name], cpu[name] = time.perf_counter() - t3, _cpu_time() - c3
        store.finish(db, {"corpus": fingerprint(corpus_dir), "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                          "corrections_file": CORRECTIONS})
        summaries = _summaries(db, manifest, refs, index_refs, seconds, glosses)
        db.close()
        final = builds / stamp
        tmp.rename(final)
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
    echo(f"built {final / store.DB_NAME} in {result.seconds:.2f} s"
         f" ({', '.join(f'{k} {v:.2f} s' for k, v in steps.items())})")
    return result


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
