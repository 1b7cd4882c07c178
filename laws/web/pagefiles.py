"""Pages pre-rendered by the build, as files in the build's directory: how
they are laid out, written (laws.web.prerender, at build time) and read
(laws.web.pagecache, when serving).

    builds/<stamp>/pages/key.json          what made them: {"store", "code", "assets"}
    builds/<stamp>/pages/index.json        {address: {"file", "etag"}}, for people and tests
    builds/<stamp>/pages/p/<name>          one file a page (below)
    builds/<stamp>/pages/offline/...       the offline lists (/offline/pages.json, editions/<id>.json)

One file holds a page whole: a header line `<etag> <br> <gzip> <plain> <size>\\n`
(its hash, the lengths of its three forms as stored, its size uncompressed)
and the forms one after the other.  The plain form is stored only for a
page too small to compress: a client that takes neither brotli nor gzip (a
script, rarely a browser) is sent the gzip form uncompressed, which keeps
the pages at a third of the space (2.6 MB, not 8.4, today).  A request
reads the header and the one form it is sent, most
often in one read (the fewer system calls, the less a worker's threads wait
for one another), so a worker keeps nothing of a page between requests and
its memory does not grow with the number of pages.  A file's name is a hash
of the page's address (path, and query string for the views that read one),
so no address a client types can name anything but a page file.

The key: pages depend on the store and on the code that renders them (the
templates, the asset hashes the templates link to).  The pages are inside
the build's directory, so they are the store's; `key.json` names the code,
and a server whose code differs (a deploy without a rebuild) renders the
pages itself instead of sending stale HTML (laws.web.pagecache)."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import zlib
from pathlib import Path

import brotli

DIR = "pages"
KEY = "key.json"
INDEX = "index.json"
OFFLINE = "offline"
# the forms in the order they are stored: brotli first, as browsers ask for
# it, so that the first read of a file (FIRST_READ) holds the header and,
# for most pages, the whole brotli form: one open, one read, one close
FORMS = ("br", "gzip", "identity")
FIRST_READ = 32 * 1024  # bytes: a law page's brotli form is 2 to 15 KB


def file_name(address: str) -> str:
    return hashlib.sha256(address.encode("utf-8")).hexdigest()[:32]


def page_path(build: Path, address: str) -> Path:
    return build / DIR / "p" / file_name(address)


def write_page(build: Path, address: str, etag: str, forms: dict[str, bytes]) -> str:
    """Write one page's file (`forms`: its plain form and, when compressed,
    its br and gzip forms); returns its name."""
    name = file_name(address)
    size = len(forms["identity"])
    if forms.get("gzip"):  # the plain form is made again from it when asked for
        forms = {**forms, "identity": b""}
    bodies = [forms.get(f, b"") for f in FORMS]
    head = f"{etag} {' '.join(str(len(b)) for b in bodies)} {size}\n".encode("ascii")
    path = build / DIR / "p" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head + b"".join(bodies))
    return name


def same_page(previous: Path, address: str, etag: str, raw: bytes) -> bool:
    """Whether the file for `address` in the build `previous` holds this very
    page: its hash, and every form it stores read back to `raw` (reading
    them back costs a small part of compressing them again)."""
    found = open_page(previous, address)
    if found is None or found.etag != etag or found.plain_size != len(raw):
        return False
    try:
        forms = found.forms()
        return forms is not None and forms["identity"] == raw and all(
            decompress(forms[f], f) == raw for f in ("br", "gzip") if forms.get(f))
    except (OSError, EOFError, ValueError, zlib.error, brotli.error):  # a damaged form: the page is made again
        return False


def decompress(data: bytes, form: str) -> bytes:
    return brotli.decompress(data) if form == "br" else gzip.decompress(data)


def keep_page(previous: Path, build: Path, address: str) -> str:
    """The file for `address` in `previous` made the file of `build` too (a
    second link to it, else a copy); returns its name.  Page files are
    written once and never changed in place, so two builds may share one."""
    name = file_name(address)
    path = build / DIR / "p" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(previous / DIR / "p" / name, path)
    except OSError:  # another file system, or links not allowed: a copy
        shutil.copyfile(previous / DIR / "p" / name, path)
    return name


def write_json(build: Path, name: str, value) -> None:
    path = build / DIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")


def read_key(build: Path) -> dict | None:
    """What made the build's pages, or None when it has none (a build made
    without them, e.g. by the tests' fixture or an older release)."""
    try:
        return json.loads((build / DIR / KEY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def offline_path(build: Path, name: str) -> Path:
    return build / DIR / OFFLINE / name


class PageFile:
    """One page's file: its header and the first bytes read (`first`); the
    file is opened again only for a form beyond them."""

    __slots__ = ("etag", "lengths", "offsets", "path", "first", "plain_size")

    def __init__(self, path: str, etag: str, lengths: list[int], size: int, start: int, first: bytes = b""):
        self.path, self.etag, self.lengths, self.first = path, etag, dict(zip(FORMS, lengths)), first
        self.plain_size = size
        self.offsets, at = {}, start
        for f, n in zip(FORMS, lengths):
            self.offsets[f], at = at, at + n

    def body(self, encoding: str | None) -> bytes | None:
        """The page in `encoding` (None: plain), or None if the file went
        away since its header was read (a build pruned meanwhile)."""
        form = encoding or "identity"
        if form == "identity" and self.plain_size and not self.lengths[form]:
            packed = self.body("gzip")
            return gzip.decompress(packed) if packed is not None else None
        if not self.lengths.get(form) and form != "identity":
            return None
        start, n = self.offsets[form], self.lengths[form]
        if start + n <= len(self.first):
            return self.first[start:start + n]
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return None
        try:
            data = os.pread(fd, n, start)
        finally:
            os.close(fd)
        return data if len(data) == n else None

    def forms(self) -> dict[str, bytes] | None:
        """Every form (for the in-memory cache)."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        out = {f: data[self.offsets[f]:self.offsets[f] + n] for f, n in self.lengths.items()}
        if self.plain_size and not out["identity"]:
            out["identity"] = gzip.decompress(out["gzip"])
        return out


def open_page(build: str | Path, address: str) -> PageFile | None:
    """The page file for `address` in the build directory `build`, its header
    read; None when there is none.  (Strings, not pathlib: this runs on every
    page request, and joining Paths cost more than reading the file.)"""
    path = f"{build}/{DIR}/p/{file_name(address)}"
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        first = os.pread(fd, FIRST_READ, 0)
    finally:
        os.close(fd)
    line, nl, _ = first.partition(b"\n")
    parts = line.decode("ascii", "replace").split()
    if not nl or len(parts) != 2 + len(FORMS) or not all(p.isdigit() for p in parts[1:]):
        return None  # not a file this module wrote: render the page instead
    numbers = [int(p) for p in parts[1:]]
    return PageFile(path, parts[0], numbers[:-1], numbers[-1], len(line) + 1, first)
