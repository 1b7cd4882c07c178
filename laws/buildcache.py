"""The build's cache: artefacts kept by the content hash of what made them.

    data/cache/<kind>/<key>     one entry: a header line, then its payload

A build that finds the entry for the same inputs and the same code reuses it
instead of making the artefact again: a source's parse, a comparison of two
codes, the search index.  The key is the sha256 of the kind, the code that
makes the artefact (`code_hash`: the source of the modules named for that
kind, and requirements.txt, which pins the libraries they call) and every
input the maker reads (`Cache.key`).  An entry is its payload (a pickle)
behind the line `lawbook-cache 1 <sha256 of the payload> <length>`; an entry
whose bytes do not match its own hash (changed, cut short, unreadable) is
reported on one line, removed and made again: never used.  The hash guards
against damage, not against someone who can write to the data folder (who
can change the store too).

The cache lives beside builds/, never in a build's directory (builds are
pruned); entries no build has used for MAX_AGE_DAYS are removed after a
build.  `Cache(None)` is no cache at all (`flask --app app build
--no-cache`): every artefact made, nothing read or written.

Domain code: it imports nothing from laws.web.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path

DIR = "cache"
MAGIC = b"lawbook-cache 1"
MAX_AGE_DAYS = 14
ROOT = Path(__file__).resolve().parents[1]

# What each kind of artefact is made by, as folders and files under the
# repository's root: a change in any of them makes that kind's entries stale.
# Broad on purpose (a helper module a parser imports is in laws/*.py): a
# needless rebuild costs seconds, a stale hit a wrong store.
CODE = {
    "parse": ("laws/*.py", "laws/parsers/**/*"),
    "comparison": ("laws/*.py", "laws/compare/**/*"),
    # the search index is a black box: everything the domain has, and search/
    "search": ("laws/*.py", "laws/parsers/**/*", "laws/compare/**/*", "laws/rulings/**/*",
               "laws/checkers/**/*", "search/**/*"),
    # everything: the whole build (its shortcut when nothing changed) and the pages
    "all": ("app.py", "laws/**/*", "search/**/*", "templates/**/*", "static/**/*"),
}


def code_hash(kind: str, root: Path = ROOT) -> str:
    """sha256 of the files that make `kind` (CODE), names and bytes, and of
    requirements.txt."""
    h = hashlib.sha256(kind.encode() + b"\0")
    paths = {p for pattern in CODE[kind] for p in root.glob(pattern)
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    for p in sorted(paths | {root / "requirements.txt"}):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _part_bytes(part) -> bytes:
    """An input as bytes for a key: bytes as they are, anything else as
    sorted JSON (dataclasses and dates by their repr)."""
    if isinstance(part, bytes):
        return part
    return json.dumps(part, sort_keys=True, ensure_ascii=False, default=repr).encode("utf-8")


def file_digest(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


class Damaged(Exception):
    """An entry whose bytes are not what was written."""


def _unwrap(data: bytes) -> object:
    header, nl, payload = data.partition(b"\n")
    parts = header.split(b" ")
    if not nl or len(parts) != 4 or b" ".join(parts[:2]) != MAGIC:
        raise Damaged("its header is not the cache's")
    if not parts[3].isdigit() or int(parts[3]) != len(payload):
        raise Damaged(f"{len(payload)} bytes where {parts[3].decode('ascii', 'replace')} were written")
    if hashlib.sha256(payload).hexdigest().encode() != parts[2]:
        raise Damaged("its bytes do not match its hash")
    try:
        return pickle.loads(payload)
    except Exception as exc:  # noqa: BLE001 (the hash matched: written by other code; make it again)
        raise Damaged(f"it cannot be read ({type(exc).__name__})") from None


def _wrap(value: object) -> bytes:
    payload = pickle.dumps(value, protocol=5)
    return b"%s %s %d\n" % (MAGIC, hashlib.sha256(payload).hexdigest().encode(), len(payload)) + payload


@dataclass
class Cache:
    """The cache of data folder `root`/cache, or none (`root` None).  `lines`
    collects what it says (a damaged entry, what each step reused and
    made), which the build prints after its summary."""
    root: Path | None
    lines: list[str] = field(default_factory=list)
    _codes: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, data_dir: Path, enabled: bool = True) -> "Cache":
        return cls(Path(data_dir) / DIR if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def code(self, kind: str) -> str:
        if kind not in self._codes:
            self._codes[kind] = code_hash(kind)
        return self._codes[kind]

    def key(self, kind: str, *inputs) -> str:
        """The key of `kind`'s artefact made from `inputs` by this code."""
        h = hashlib.sha256(kind.encode() + b"\0" + self.code(kind).encode())
        for part in inputs:
            b = _part_bytes(part)
            h.update(b"%d\0" % len(b) + b)
        return h.hexdigest()

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key

    def get(self, kind: str, key: str, what: str):
        """(True, the value) for a sound entry, else (False, None); a damaged
        entry is said (naming `what` it held), removed and not used."""
        if self.root is None:
            return False, None
        path = self._path(kind, key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return False, None
        except OSError as exc:
            self._damaged(path, kind, what, f"it cannot be read ({exc.strerror})")
            return False, None
        try:
            value = _unwrap(data)
        except Damaged as exc:
            self._damaged(path, kind, what, str(exc))
            return False, None
        try:
            os.utime(path)  # used: kept by `prune`
        except OSError:
            pass
        return True, value

    def _damaged(self, path: Path, kind: str, what: str, why: str) -> None:
        self.lines.append(f"cache: the {kind} entry for {what} is damaged ({why}): made again, not used")
        try:
            path.unlink()
        except OSError:
            pass

    def put(self, kind: str, key: str, value: object) -> None:
        """Keep `value` (written whole under another name, then renamed: a
        killed build leaves no half-written entry under a key)."""
        if self.root is None:
            return
        folder = self.root / kind
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".tmp-{key}-{os.getpid()}"
        try:
            tmp.write_bytes(_wrap(value))
            os.replace(tmp, folder / key)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def prune(self, max_age_days: float = MAX_AGE_DAYS) -> None:
        """Remove entries unused for `max_age_days`, and any half-written one."""
        if self.root is None or not self.root.is_dir():
            return
        cutoff = time.time() - max_age_days * 86400
        for folder in self.root.iterdir():
            if not folder.is_dir():
                continue
            for p in folder.iterdir():
                try:
                    if p.name.startswith(".tmp-") or p.stat().st_mtime < cutoff:
                        p.unlink()
                except OSError:
                    pass

    def step(self, name: str, cached: list[str], made: list[tuple[str, float]]) -> None:
        """What a step reused and made: one line, then a line for each thing made."""
        self.lines.append(f"{name}: {len(cached)} cached, {len(made)} made")
        self.lines += [f"  made {what}: {seconds:.2f} s" for what, seconds in made]


def read_files(directory: Path) -> dict[str, bytes]:
    """A directory's files, {relative path: bytes} (a directory artefact as one entry)."""
    directory = Path(directory)
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def write_files(directory: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = Path(directory) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _timed(shared: tuple, item):
    fn, inner = shared
    t0 = time.perf_counter()
    return fn(inner, item), time.perf_counter() - t0


def cached_map(cache: Cache, kind: str, step: str, name) -> callable:
    """A `fork_map` that keeps each item's result in `cache` under the key of
    `inputs(shared, item)` (all that `fn` reads of `shared` for the item):
    the items whose inputs and code are those of a kept result are not
    computed again; the rest are, side by side (laws.workers).  `name(item)`
    names an item in the step's lines."""
    from laws.workers import fork_map

    def run(fn, items: list, shared, inputs) -> list:
        keys = [cache.key(kind, inputs(shared, item)) for item in items]
        out: list = [None] * len(items)
        cached, todo = [], []
        for i, (item, key) in enumerate(zip(items, keys)):
            found, value = cache.get(kind, key, name(item))
            if found:
                out[i] = value
                cached.append(name(item))
            else:
                todo.append(i)
        made = []
        for i, (value, seconds) in zip(todo, fork_map(_timed, [items[i] for i in todo], shared=(fn, shared))):
            out[i] = value
            cache.put(kind, keys[i], value)
            made.append((name(items[i]), seconds))
        cache.step(step, cached, made)
        return out
    return run
