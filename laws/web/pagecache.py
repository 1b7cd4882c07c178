"""Pages served as files: each page pre-rendered by the build, sent from its
file, optionally kept compressed in memory, and revalidated by its content
hash (ETag / 304).

Why: a page (a law, a contents page, a guide topic, a comparison of two
successive codes, the official index) changes only when the store is
rebuilt, yet rendering one from the store costs milliseconds of CPU, twenty
times what sending a file costs.  So the build renders every such page once
(laws.web.prerender) into the new build's directory, compressed, and a view
marked `@page` answers from that file as a static file is answered
(`laws.web.site.static`): no store read, no template.

* Where a page comes from, in order: this worker's memory (when the cache is
  on), the build's file (when the build's pages were made by this code:
  `page_files()`), else it is rendered here, as before pre-rendering, so a
  store built without pages (the tests' fixture) or a deploy of new code
  without a rebuild is served right, never stale.  The headers are the same
  whichever way (`respond`).
* The memory cache is keyed by (build, path): a rebuild swapped in is seen by
  the next request, whose build differs, and the previous build's pages are
  dropped.  Only the path is the key: views that read a query string
  (`@page(query=True)`: comparisons, the index's filter) are kept only at
  their bare path, so `?x=1` cannot fill memory with copies.
* Bounded by bytes (`PAGE_CACHE_MB`, env `LAWS_PAGE_CACHE_MB`, default 24 MB a
  worker), least recently used first out; 0 turns it off: pages then come
  from their files a form at a time, and a worker's memory does not grow
  with the number of pages (bench/pages.py measures both).
* The ETag is a hash of the page's HTML, weak (the same for its brotli, gzip
  and plain forms).  It is the same across builds when the page's text is:
  a browser, a CDN or the service worker revalidating after a rebuild gets a
  304 for every page that did not change.  The one thing on a page that
  names its build, the build date in a law page's print heading, is left out
  of the hash (`BUILT_MARK`): a kept copy of an unchanged page names the
  build it came from, whose text is the same.
* `etag_for(url)` gives any GET page's hash without sending it: the offline
  manifests (`laws.web.site`, written by the build) list the hashes of the
  pages a device keeps, so after a rebuild the service worker refetches only
  those that changed.

The store and the page files are only read: nothing here writes.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path

import brotli
from flask import Response, current_app, g, request

from laws.datadir import CURRENT
from laws.web import pagefiles

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


def encode(data: bytes, encoding: str) -> bytes:
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
        self.files: tuple[str | None] | None = None  # (the build's directory if its page files serve, else None)

    def _same_build(self, build: str) -> None:
        if build != self.build:  # a rebuild was swapped in: the old pages go
            self.build, self.bytes, self.files = build, 0, None
            self.entries.clear()
            self.etags.clear()

    def page_files(self, build: str, check) -> str | None:
        """The build's directory when its page files may be sent (`check()`
        says, once a build: it logs why not, so under the lock)."""
        with self.lock:
            self._same_build(build)
            if self.files is None:
                self.files = (check(),)
            return self.files[0]

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


def page_cache() -> PageCache:
    cache = current_app.extensions.get("lawbook_pages")
    if cache is None:
        mb = current_app.config.get("PAGE_CACHE_MB", os.environ.get("LAWS_PAGE_CACHE_MB", DEFAULT_MB))
        cache = current_app.extensions["lawbook_pages"] = PageCache(int(float(mb) * 1024 * 1024))
    return cache


def _build() -> str:
    """The name of the build served, by one readlink of `current` and no
    pathlib joins: this runs on every page request, and the general way
    (laws.web.db.build_dir) cost more than reading the page's file.  The
    request goes on with that build (g.build_dir), as build_dir would; under
    the build (laws.web.prerender), g names the new build."""
    if "build_dir" in g:
        return g.build_dir.name
    data = current_app.extensions.get("lawbook_data_dir")
    if data is None:
        data = current_app.extensions["lawbook_data_dir"] = os.path.abspath(current_app.config["DATA_DIR"])
    try:
        link = os.readlink(f"{data}/{CURRENT}")
    except OSError:  # no build yet, or not a link: the general way says
        from laws.web.site import store_version
        return store_version()
    g.build_dir = Path(data, link)
    return g.build_dir.name


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


def made(html: str) -> Entry:
    """A rendered page as it is kept and sent: hashed before the build date
    goes in (see BUILT_MARK)."""
    etag = content_hash(html)
    if BUILT_MARK in html:
        html = html.replace(BUILT_MARK, _built_date())
    return Entry(html.encode("utf-8"), etag)


def page_files() -> Path | None:
    """The directory of the build served when its pre-rendered pages were
    made by this code (laws.web.pagefiles), else None."""
    found = _files_dir(_build())
    return Path(found) if found is not None else None


def _files_dir(build_name: str) -> str | None:
    """page_files() as a string, for the request path: checked once a build
    and worker.  When the pages were made by other code they are rendered
    here, and the worker says why once (a deploy without a rebuild must
    never send the previous code's HTML)."""
    if not current_app.config.get("PAGE_FILES", True):
        return None
    return page_cache().page_files(build_name, _check_files)


def _check_files() -> str | None:
    from laws.web.db import build_dir
    from laws.web.site import page_key

    build = build_dir()
    found, wanted = pagefiles.read_key(build), page_key()
    if found == wanted:
        return str(build)
    if found is None:
        current_app.logger.info("build %s has no pre-rendered pages: rendering them", build.name)
    else:
        differs = ", ".join(f"{k} {found.get(k)} (this server: {v})" for k, v in wanted.items()
                            if found.get(k) != v)
        current_app.logger.warning("build %s: its pre-rendered pages were made by other code (%s); "
                                   "rendering them instead until the next build", build.name, differs)
    return None


def entry(key: str, render, keep: bool = True):
    """The page at address `key` under the build served: from memory, from
    its pre-rendered file, or rendered by `render()` (None when that answers
    something other than a page, e.g. a redirect, which is not kept).
    `keep`: whether it may go into memory (not for addresses with a query
    string, which a client can vary without end)."""
    cache, build = page_cache(), _build()
    if keep and cache.max_bytes:
        found = cache.get(build, key)
        if found is not None:
            return found
    files = _files_dir(build)
    on_disk = pagefiles.open_page(files, key) if files is not None else None
    if on_disk is not None:
        if not (keep and cache.max_bytes):
            return on_disk  # read a form at a time: nothing of it stays in the worker
        forms = on_disk.forms()
        if forms is not None:
            kept = Entry(forms["identity"], on_disk.etag)
            kept.encoded = {e: forms[e] for e in ENCODINGS if forms.get(e)}
            cache.put(build, key, kept)
            return kept
    html = render()
    if not isinstance(html, str):
        return None
    fresh = made(html)
    if keep:
        cache.put(build, key, fresh)
    return fresh


def _body(found, encoding: str | None) -> bytes | None:
    if isinstance(found, pagefiles.PageFile):
        return found.body(encoding)
    if not encoding:
        return found.raw
    body = found.encoded.get(encoding)
    if body is None:
        body = found.encoded[encoding] = encode(found.raw, encoding)
        page_cache().grew(request.path, found, len(body))
    return body


def _plain_size(found) -> int:
    return found.plain_size if isinstance(found, pagefiles.PageFile) else len(found.raw)


def respond(found) -> Response:
    """The page as a static file is sent: 304 when the client holds this
    version, else its bytes in the best encoding the client accepts.  The
    same headers whether it came from memory, from its file or was just
    rendered (tests/test_prerender.py compares them)."""
    if request.if_none_match.contains_weak(found.etag):
        resp = Response(status=304)
    else:
        encoding = (request.accept_encodings.best_match(ENCODINGS)
                    if _plain_size(found) >= MIN_COMPRESS else None)
        body = _body(found, encoding)
        if body is None:  # its file went away under us (a build pruned): the page is rendered
            raise FileGone
        resp = Response(body, mimetype="text/html")
        if encoding:
            resp.headers["Content-Encoding"] = encoding  # the compression extension leaves it alone
    resp.vary.add("Accept-Encoding")
    resp.set_etag(found.etag, weak=True)
    # revalidate every time: a rebuild must show at once, and the 304 is cheap
    resp.headers["Cache-Control"] = "no-cache"
    return resp


class FileGone(Exception):
    """A page file was removed between reading its header and its body."""


def address(query: bool) -> str:
    """The page's address as its file is named: the path, and for a view
    that reads its query string, the query string as sent."""
    qs = request.query_string.decode("latin-1") if query else ""
    return f"{request.path}?{qs}" if qs else request.path


def page(view=None, *, query: bool = False):
    """Mark a view whose HTML depends only on the store and its address:
    its path, and its query string too when `query` is set (the
    comparisons, the official index's filter).  Its pages are pre-rendered
    by the build (laws.web.prerender) and served from their files, kept in
    memory, or rendered here when neither has them."""
    if view is None:
        return functools.partial(page, query=query)

    @functools.wraps(view)
    def cached_view(**kwargs):
        answered = []

        def render():
            answered.append(view(**kwargs))
            return answered[-1]
        key = address(query)
        keep = key == request.path
        found = entry(key, render, keep)
        if found is None:  # not a page (a redirect): as the view answered
            return answered[-1]
        try:
            return respond(found)
        except FileGone:  # its file went away under us (a build pruned meanwhile): render it
            html = render()
            return respond(made(html)) if isinstance(html, str) else html
    cached_view.render = view
    return cached_view


def etag_for(url: str) -> str | None:
    """The content hash of what GET `url` answers under the build served
    (None for an address that is not a page: a redirect, an error).  A page
    comes from its file, from memory or is rendered; any other view's body
    is hashed.  The offline lists (laws.web.site) are made of these."""
    from werkzeug.exceptions import HTTPException

    cache, build = page_cache(), _build()
    known = cache.etag(build, url)
    if known is not None:
        return known
    path, _, query = url.partition("?")
    with current_app.test_request_context(path, query_string=query):
        adapter = current_app.url_map.bind("localhost")
        try:
            endpoint, args = adapter.match(path, method="GET")
            view = current_app.view_functions[endpoint]
            if hasattr(view, "render"):
                found = entry(url, lambda: view.render(**args), keep=False)
                tag = found.etag if found is not None else None
            else:
                tag = _body_hash(current_app.make_response(view(**args)))
        except HTTPException:
            return None
    if tag is not None:
        cache.remember(build, url, tag)
    return tag


def _body_hash(resp) -> str | None:
    if resp.status_code != 200 or resp.direct_passthrough:
        return None
    return content_hash(resp.get_data(as_text=True))
