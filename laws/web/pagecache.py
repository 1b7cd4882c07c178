"""Pages kept per build: each page rendered once per worker and build, kept
compressed, and revalidated by its content hash (ETag / 304).

Why: a page (a law, a contents page, a guide topic) changes only when the
store is rebuilt, yet rendering one from the store costs milliseconds of CPU,
twenty times what sending a file costs.  So a view marked `@page` is rendered
on its first request under a build, and every later request under that
build is answered from memory as a static file is (`laws.web.site.static`):
the bytes already compressed, no store read, no template.

* The cache is keyed by (build, path): a rebuild swapped in is seen by the
  next request, whose build differs, and the previous build's pages are
  dropped.  Only the path is the key (these views read no query string), so
  `?x=1` cannot fill memory with copies.
* Bounded by bytes (`PAGE_CACHE_MB`, env `LAWS_PAGE_CACHE_MB`, default 24 MB a
  worker), least recently used first out; 0 turns it off (bench/pages.py
  measures rendering that way).
* The ETag is a hash of the page's HTML, weak (the same for its brotli, gzip
  and plain forms).  It is the same across builds when the page's text is:
  a browser, a CDN or the service worker revalidating after a rebuild gets a
  304 for every page that did not change.  The one thing on a page that
  names its build, the build date in a law page's print heading, is left out
  of the hash (`BUILT_MARK`): a kept copy of an unchanged page names the
  build it came from, whose text is the same.
* `etag_for(path)` gives any GET page's hash without sending it: the offline
  manifests (`laws.web.site`) list the hashes of the pages a device keeps, so
  after a rebuild the service worker refetches only those that changed.

The store is only read: nothing here is written anywhere but memory.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import os
import threading
from collections import OrderedDict

import brotli
from flask import Response, current_app, request

BUILT_MARK = "\ue000built-date\ue000"  # replaced by the build date after hashing (see above)
ENCODINGS = ["br", "gzip"]
MIN_COMPRESS = 300
DEFAULT_MB = 24


class Entry:
    """One page: its HTML, its hash and its compressed forms (made when first asked)."""

    __slots__ = ("raw", "etag", "encoded")

    def __init__(self, raw: bytes, etag: str):
        self.raw, self.etag, self.encoded = raw, etag, {}

    def size(self) -> int:
        return len(self.raw) + sum(len(b) for b in self.encoded.values())


def _encode(data: bytes, encoding: str) -> bytes:
    # the levels Flask-Compress uses for the rest of the site: a first
    # request after a rebuild pays this once, so keep it cheap
    if encoding == "br":
        return brotli.compress(data, quality=5)
    return gzip.compress(data, compresslevel=6, mtime=0)


class PageCache:
    """The pages of the build being served, least recently used first out."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.lock = threading.Lock()
        self.build: str | None = None
        self.entries: OrderedDict[str, Entry] = OrderedDict()
        self.etags: dict[str, str] = {}  # path -> hash, kept when the bytes are evicted (small)
        self.bytes = 0

    def _same_build(self, build: str) -> None:
        if build != self.build:  # a rebuild was swapped in: the old pages go
            self.build, self.bytes = build, 0
            self.entries.clear()
            self.etags.clear()

    def get(self, build: str, path: str) -> Entry | None:
        with self.lock:
            self._same_build(build)
            entry = self.entries.get(path)
            if entry is not None:
                self.entries.move_to_end(path)
            return entry

    def put(self, build: str, path: str, entry: Entry) -> None:
        with self.lock:
            self._same_build(build)
            self.etags[path] = entry.etag
            if len(self.etags) > 100_000:  # a bound for hostile paths; real ones are a few thousand
                self.etags.clear()
            if not self.max_bytes:
                return
            old = self.entries.pop(path, None)
            if old is not None:
                self.bytes -= old.size()
            self.entries[path] = entry
            self.bytes += entry.size()
            self._evict()

    def grew(self, path: str, entry: Entry, by: int) -> None:
        """`entry` gained a compressed form of `by` bytes."""
        with self.lock:
            if self.entries.get(path) is entry:
                self.bytes += by
                self._evict()

    def remember(self, build: str, path: str, etag: str) -> None:
        """The hash of a page that is not kept (see etag_for)."""
        with self.lock:
            self._same_build(build)
            self.etags[path] = etag

    def _evict(self) -> None:
        while self.bytes > self.max_bytes and self.entries:
            _, old = self.entries.popitem(last=False)
            self.bytes -= old.size()

    def etag(self, build: str, path: str) -> str | None:
        with self.lock:
            self._same_build(build)
            return self.etags.get(path)


def _cache() -> PageCache:
    cache = current_app.extensions.get("lawbook_pages")
    if cache is None:
        mb = current_app.config.get("PAGE_CACHE_MB", os.environ.get("LAWS_PAGE_CACHE_MB", DEFAULT_MB))
        cache = current_app.extensions["lawbook_pages"] = PageCache(int(float(mb) * 1024 * 1024))
    return cache


def _build() -> str:
    from laws.web.site import store_version
    return store_version()


def content_hash(html: str) -> str:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()[:20]


def _built_date() -> str:
    """The date the served store was built (a law page's print heading)."""
    from laws.web.db import get_db
    from laws.web.site import cached

    def compute():
        row = get_db().execute("select value from meta where key = 'built_at'").fetchone()
        return (row[0] or "")[:10] if row else ""
    return cached("built_date", compute)


def entry(path: str, render) -> Entry | None:
    """The page at `path` under the build served: from memory, or rendered by
    `render()` (None when that answers something other than a page, e.g. a
    redirect, which is not kept)."""
    cache, build = _cache(), _build()
    found = cache.get(build, path)
    if found is not None:
        return found
    html = render()
    if not isinstance(html, str):
        return None
    etag = content_hash(html)
    if BUILT_MARK in html:
        html = html.replace(BUILT_MARK, _built_date())
    made = Entry(html.encode("utf-8"), etag)
    cache.put(build, path, made)
    return made


def respond(found: Entry) -> Response:
    """The page as a static file is sent: 304 when the client holds this
    version, else its bytes in the best encoding the client accepts."""
    if request.if_none_match.contains_weak(found.etag):
        resp = Response(status=304)
    else:
        encoding = (request.accept_encodings.best_match(ENCODINGS)
                    if len(found.raw) >= MIN_COMPRESS else None)
        body = found.raw
        if encoding:
            body = found.encoded.get(encoding)
            if body is None:
                body = found.encoded[encoding] = _encode(found.raw, encoding)
                _cache().grew(request.path, found, len(body))
        resp = Response(body, mimetype="text/html")
        if encoding:
            resp.headers["Content-Encoding"] = encoding  # the compression extension leaves it alone
    resp.vary.add("Accept-Encoding")
    resp.set_etag(found.etag, weak=True)
    # revalidate every time: a rebuild must show at once, and the 304 is cheap
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def page(view):
    """Mark a view whose HTML depends only on the store and its path."""
    @functools.wraps(view)
    def cached_view(**kwargs):
        answered = []

        def render():
            answered.append(view(**kwargs))
            return answered[0]
        found = entry(request.path, render)
        return respond(found) if found is not None else answered[0]
    cached_view.render = view
    return cached_view


def etag_for(path: str) -> str | None:
    """The content hash of what GET `path` answers under the build served
    (None for an address that is not a page: a redirect, an error).  A page
    view is rendered through the cache; any other view's body is hashed."""
    from werkzeug.exceptions import HTTPException

    cache, build = _cache(), _build()
    known = cache.etag(build, path)
    if known is not None:
        return known
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, args = adapter.match(path, method="GET")
    except HTTPException:
        return None
    view = current_app.view_functions[endpoint]
    try:
        if hasattr(view, "render"):
            found = entry(path, lambda: view.render(**args))
            return found.etag if found else None
        resp = current_app.make_response(view(**args))
    except HTTPException:
        return None
    if resp.status_code != 200 or resp.direct_passthrough:
        return None
    tag = content_hash(resp.get_data(as_text=True))
    cache.remember(build, path, tag)
    return tag
