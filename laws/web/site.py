"""Site-wide behaviour: static assets with content-hashed names, compression,
security headers, caching, and the files that make the site installable and
usable offline (web app manifest, service worker, offline index).

Assets: `asset_url('site.css')` gives `/static/site.<hash>.css`, where the
hash is taken from the file's bytes when the app starts.  Hashed names are
served with a year of immutable caching; a changed file gets a new name, so
no one ever sees a stale stylesheet.  The files are small and read once into
memory, and compressed then (brotli and gzip, at their best levels), so
serving one never compresses it again.

HSTS: a deployment served over HTTPS sets `LAWS_HSTS_MAX_AGE` (seconds, e.g.
31536000) and every response carries Strict-Transport-Security.  It is off by
default: over plain HTTP (localhost, `python app.py`) it would mean nothing.

Offline: `/sw.js` is the service worker (scope `/`).  Its text names the
version of the assets and of the store being served, so a rebuild or a new
stylesheet installs a new worker, which fetches the pages again.  What every
device keeps is `kit()`, listed by `/offline/pages.json`: the code in force
and its official index, the rulings and their records, every checker of the
registry, the guide, and the comparison of the code in force with the code
before it, all made from the store (no edition is named here, so a 2027 code
is kept by rebuilding); the offline page lists the same groups
(`offline_kit()`).  These lists depend only on the build, so the build
writes them (laws.web.prerender) and a worker sends the build's files
(`_offline_list`); it makes them itself only for a build without them.
`/offline/index.json` lets the worker (and the page script) resolve a
citation typed in the jump box without the network.  The footer's editions
come from the store too (`footer_editions()`).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import mimetypes
import re
from pathlib import Path
from urllib.parse import urlencode

import brotli
from flask import Response, abort, current_app, render_template, request, url_for
from flask_compress import Compress

from laws import queries
from laws.checkers import registry
from laws.web import pagefiles
from laws.web.db import StoreMissing, build_dir, get_db

YEAR = 365 * 24 * 3600
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}
COMPRESSIBLE = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "application/manifest+json", "image/svg+xml", "text/plain"]
_HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[A-Za-z0-9]+)$")


ENCODINGS = ("br", "gzip")
MIN_COMPRESS = 300  # bytes: smaller files gain nothing from compression


def _encode(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=11)
    return gzip.compress(data, compresslevel=9, mtime=0)


class Assets:
    """The files of static/, read once, each with the hash of its bytes and,
    when it is text, its brotli and gzip forms."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.files: dict[str, tuple[bytes, str, str]] = {}  # name -> (bytes, hash, mimetype)
        self.encoded: dict[str, dict[str, bytes]] = {}  # name -> {encoding: bytes}
        for path in sorted(self.folder.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                data = path.read_bytes()
                name = path.relative_to(self.folder).as_posix()
                mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
                if name.endswith(".webmanifest"):
                    mime = "application/manifest+json"
                self.files[name] = (data, hashlib.sha256(data).hexdigest()[:10], mime)
                if mime in COMPRESSIBLE and len(data) >= MIN_COMPRESS:
                    self.encoded[name] = {e: _encode(data, e) for e in ENCODINGS}
        digest = hashlib.sha256("".join(h for _, h, _ in self.files.values()).encode())
        self.version = digest.hexdigest()[:10]

    def hashed_name(self, name: str) -> str:
        data, h, _ = self.files[name]
        stem, dot, ext = name.rpartition(".")
        return f"{stem}.{h}.{ext}" if dot else f"{name}.{h}"

    def url(self, name: str) -> str:
        return url_for("static", filename=self.hashed_name(name))

    def lookup(self, requested: str) -> tuple[str, bool] | None:
        """(file name, whether the request used the current hashed name)."""
        m = _HASHED.match(requested)
        if m:
            name = m["stem"] + m["ext"]
            if name in self.files:
                return name, self.files[name][1] == m["hash"]
        if requested in self.files:
            return requested, False
        return None


def store_version() -> str:
    """Names the store being served: the build directory's name (a time stamp)."""
    try:
        return build_dir().name
    except Exception:  # no store yet: the pages will say so
        return "none"


def cached(name: str, compute):
    """A value computed from the store, kept for as long as that store is served
    (the store never changes under a build directory)."""
    cache = current_app.extensions.setdefault("lawbook_cache", {})
    key = (store_version(), name)
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = compute()
    return cache[key]


# --- what the offline site needs ------------------------------------------------

def offline_index() -> dict:
    """Every code edition's laws and provision ids, in force first: enough to
    resolve a citation in the browser exactly as /go does on the server."""
    def compute():
        db = get_db()
        out = []
        for e in sorted((e for e in queries.editions(db) if e["kind"] == "code"), key=queries.jump_order):
            laws: dict[str, list[str]] = {}
            for r in db.execute("select law, id from provisions where edition = ? order by ord", [e["id"]]):
                laws.setdefault(str(r["law"]), []).append(r["id"])
            out.append({"id": e["id"], "laws": laws})
        return {"version": store_version(), "editions": out}
    return cached("offline_index", compute)


def _code_editions() -> list[dict]:
    return [e for e in queries.editions(get_db()) if e["kind"] == "code"]


def code_edition_ids() -> frozenset[str]:
    return cached("code_edition_ids", lambda: frozenset(e["id"] for e in _code_editions()))


def edition_pages(edition_id: str) -> list[str]:
    """An edition's pages: its contents, its definitions (where it has them)
    and every law."""
    def compute():
        db = get_db()
        e = next((e for e in _code_editions() if e["id"] == edition_id), None)
        if e is None:
            return None
        urls = [url_for("pages.contents", edition=e["id"])]
        if db.execute("select 1 from definitions where edition = ? limit 1", [e["id"]]).fetchone():
            urls.append(url_for("pages.definitions", edition=e["id"]))
        return urls + [url_for("pages.law", edition=e["id"], number=n) for n in e["laws"]]
    return cached(f"edition_pages:{edition_id}", compute)


def previous_code(in_force: dict, codes: list[dict]) -> dict | None:
    """The code the one in force replaced: the newest older code of its family
    (2007 for 2017; a 2027 code in force would make it 2017)."""
    older = [e for e in codes if e["family"] == in_force["family"] and e["year"] < in_force["year"]]
    return max(older, key=lambda e: e["year"]) if older else None


def compare_pages(older: str, newer: str, laws: list[int]) -> list[str]:
    """The comparison pages of two codes, at the addresses the site links to
    (a law page's history, the overview's table: `?from=<older>&to=<newer>`),
    so that a tap with no connection finds the kept page."""
    pair = urlencode({"from": older, "to": newer})
    return ["/compare", f"/compare?{pair}"] + [f"/compare/{n}?{pair}" for n in laws]


def kit() -> list[dict]:
    """What every device keeps once a first page has been seen, in the groups
    the offline page lists (`key`, `title`, `what`, `href`, `urls`): the code
    in force with its official index, the rulings and their records, the
    checkers, the guide, the comparison of the code in force with the one
    before it, and search.  Other editions are kept as the reader opens their
    pages, or all at once when the reader asks ("Keep offline" on the
    edition's contents page; their lists are `/offline/editions/<id>.json`),
    so what a phone holds does not grow with the number of editions."""
    def compute():
        db = get_db()
        codes = _code_editions()
        groups = [{"key": "site", "title": "Lawbook", "what": "the home page, this page and the sources",
                   "href": "/", "urls": ["/", "/offline", "/sources"]}]
        in_force = next((e for e in codes if e.get("in_force")), None)
        if in_force is not None:
            urls = list(edition_pages(in_force["id"]))
            what = f"contents, every law ({len(in_force['laws'])})"
            if len(urls) > len(in_force["laws"]) + 1:
                what += ", the definitions"
            if queries.has_index(db, in_force["id"]):  # its official index, A to Z (filtered on the phone)
                urls.append(url_for("pages.official_index", edition=in_force["id"]))
                what += " and the official index"
            groups.append({"key": "code", "title": f"{in_force['title']} (in force)", "what": what,
                           "href": urls[0], "urls": urls})
        groups.append(_rulings_group())
        checkers = registry.all_checkers()
        groups.append({"key": "checkers", "title": "Rule checkers",
                       "what": f"all {len(checkers)} checker pages, each with its form",
                       "href": "/checkers",
                       "urls": ["/checkers"] + [url_for("checkers.page", checker_id=c.id) for c in checkers]})
        topics = queries.guide(db)
        groups.append({"key": "guide", "title": "The simplified guide", "what": f"{len(topics)} topics",
                       "href": url_for("pages.guide"),
                       "urls": [url_for("pages.guide")] + [url_for("pages.topic", topic_id=t["id"]) for t in topics]})
        before = previous_code(in_force, codes) if in_force is not None else None
        if before is not None:
            shared = sorted(set(before["laws"]) & set(in_force["laws"]))
            groups.append({"key": "compare",
                           "title": f"What changed: the {before['year']} Laws against the {in_force['year']} Laws",
                           "what": f"every law the two codes share ({len(shared)}), word by word",
                           "href": f"/compare?{urlencode({'from': before['id'], 'to': in_force['id']})}",
                           "urls": compare_pages(before["id"], in_force["id"], shared)})
        groups.append({"key": "search", "title": "Search", "what": "words and citations, in the editions this device keeps",
                       "href": "/offline/search", "urls": ["/offline/search"]})
        return groups
    return cached("kit", compute)


def _rulings_group() -> dict:
    """The ruling flows and the ruling record: the pages and the data their
    scripts walk offline (/rulings/auction.json is in sw.js's CORE)."""
    from laws.web import guided

    urls = ["/rulings", "/rulings/auction", "/rulings/play", "/rulings/play.json",
            "/rulings/guided", "/rulings/guided.json", "/rulings/record", "/rulings/saved"]
    eds = guided.available()
    procedures = guided.guided.procedures(eds[0]) if eds else []
    urls += [f"/rulings/guided/{p['id']}" for p in procedures]
    return {"key": "rulings", "title": "Rulings at the table",
            "what": f"auction, play and {len(procedures)} guided rulings, each ending in its ruling record",
            "href": "/rulings", "urls": urls}


def kept_pages() -> list[str]:
    """Every address of the kit (`kit()`), once each, most needed first: the
    service worker fetches them in this order."""
    def compute():
        out: list[str] = []
        for g in kit():
            out += [u for u in g["urls"] if u not in out]
        return out
    return cached("kept_pages", compute)


def offline_kit() -> dict:
    """What the offline page lists: the kit's groups with their page counts,
    and the other code editions a reader may keep as well."""
    def compute():
        codes = sorted(_code_editions(), key=queries.jump_order)
        return {"groups": [{k: g[k] for k in ("key", "title", "what", "href")} | {"pages": len(g["urls"])}
                           for g in kit()],
                "pages": len(kept_pages()),
                "others": [{"id": e["id"], "title": e["title"], "pages": len(edition_pages(e["id"])),
                            "href": url_for("pages.contents", edition=e["id"])}
                           for e in codes if not e.get("in_force")]}
    return cached("offline_kit", compute)


def footer_editions() -> list[dict]:
    """The code editions for the footer, the code in force first then newest
    first (`queries.jump_order`): a new code appears by rebuilding."""
    def compute():
        return [{"href": url_for("pages.contents", edition=e["id"]),
                 "label": f"{e['year']} Laws" + ("" if e["family"] == "duplicate" else f" ({e['family']})")}
                for e in sorted(_code_editions(), key=queries.jump_order)]
    try:
        return cached("footer_editions", compute)
    except StoreMissing:  # no store yet (the page that says so): the footer names no edition
        return []


def every_page() -> list[str]:
    """Every page of the site a device can keep: the kept pages and every
    edition's (tests scan them all)."""
    urls = list(kept_pages())
    for e in _code_editions():
        urls += [u for u in edition_pages(e["id"]) if u not in urls]
    return urls


def hashed(urls: list[str]) -> dict[str, str]:
    """Each address with the content hash of what it answers (the ETag of a
    page, laws.web.pagecache): the service worker refetches a kept page only
    when its hash changed, so a rebuild that changed one law costs a device
    one page."""
    from laws.web.pagecache import etag_for

    out = {}
    for u in urls:
        tag = etag_for(u)
        if tag is not None:
            out[u] = tag
    return out


def offline_manifest() -> dict:
    def compute():
        eds = [{"id": e["id"], "title": e["title"], "year": e["year"], "in_force": bool(e.get("in_force")),
                "pages": len(edition_pages(e["id"])),
                "manifest": url_for("offline_edition_json", edition=e["id"])} for e in _code_editions()]
        return {"version": store_version(), "pages": hashed(kept_pages()), "editions": eds}
    return cached("offline_manifest", compute)


def edition_manifest(edition_id: str) -> dict | None:
    def compute():
        urls = edition_pages(edition_id)
        return None if urls is None else {"edition": edition_id, "version": store_version(),
                                          "pages": hashed(urls)}
    return cached(f"edition_manifest:{edition_id}", compute)


def offline_pages_body() -> str:
    """/offline/pages.json's body (written by the build, laws.web.prerender)."""
    return json.dumps(offline_manifest(), separators=(",", ":"))


def offline_edition_body(edition_id: str) -> str:
    """/offline/editions/<id>.json's body, for a code edition's id."""
    return json.dumps(edition_manifest(edition_id), separators=(",", ":"))


def offline_edition_file(edition_id: str) -> str:
    return f"editions/{edition_id}.json"


def _offline_list(name: str, compute) -> bytes | str:
    """An offline list from the build's files when its pages were made by
    this code (they depend only on the build: a worker's first pages.json
    after a switch cost it a second of CPU to make), else made here."""
    from laws.web.pagecache import page_files

    build = page_files()
    if build is not None:
        try:
            return pagefiles.offline_path(build, name).read_bytes()
        except OSError:  # a build made before the lists were written: make it
            pass
    return compute()


def page_key() -> dict:
    """What the pages of the build served depend on besides the store: the
    code that renders them and the assets they link to (laws.web.pagefiles)."""
    return {"store": store_version(), "code": current_app.extensions["lawbook_code_version"],
            "assets": current_app.extensions["lawbook_assets"].version}


def _code_version(root: Path) -> str:
    h = hashlib.sha256()
    for folder in ("templates", "laws", "search"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in (".html", ".js", ".py", ".json", ".toml"):
                h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:10]


def hsts_header() -> str | None:
    """Strict-Transport-Security from LAWS_HSTS_MAX_AGE, or None when unset."""
    raw = os.environ.get("LAWS_HSTS_MAX_AGE", "").strip()
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit():
        raise ValueError(f"LAWS_HSTS_MAX_AGE must be a number of seconds (31536000 is a year), not {raw!r}")
    return f"max-age={int(raw)}; includeSubDomains"


def init_app(app) -> None:
    hsts = hsts_header()
    assets = Assets(Path(app.root_path) / (app.static_folder or "static"))
    app.extensions["lawbook_assets"] = assets

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSIBLE)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 300)
    Compress(app)

    # Static files come from memory under their hashed names: replaces Flask's
    # own static view (same endpoint, so url_for('static', ...) still works).
    def static(filename: str):
        found = assets.lookup(filename)
        if found is None:
            abort(404)
        name, immutable = found
        data, h, mime = assets.files[name]
        encodings = assets.encoded.get(name, {})
        encoding = request.accept_encodings.best_match(list(encodings)) if encodings else None
        resp = Response(encodings[encoding] if encoding else data, mimetype=mime)
        if encodings:
            resp.vary.add("Accept-Encoding")
        if encoding:
            # set here, the compression extension leaves the response alone
            resp.headers["Content-Encoding"] = encoding
        resp.headers["Cache-Control"] = (f"public, max-age={YEAR}, immutable" if immutable
                                         else "public, max-age=300")
        resp.set_etag(f"{h}-{encoding}" if encoding else h)
        return resp.make_conditional(request)

    app.view_functions["static"] = static

    @app.context_processor
    def helpers():
        # called by the templates that need them (the footer, the offline page), not on every render
        return {"asset": assets.url, "footer_editions": footer_editions, "offline_kit": offline_kit}

    # what renders the pages: a deploy that changes it changes the worker's
    # version, so devices compare their kept pages' hashes again
    code = app.extensions["lawbook_code_version"] = _code_version(Path(app.root_path))

    @app.get("/sw.js")
    def service_worker():
        body = render_template(
            "sw.js", version=f"{assets.version}-{code}-{store_version()}",
            assets=[assets.url(n) for n in sorted(assets.files) if not n.startswith("icons/")
                    or n.endswith(("192.png", ".svg"))])
        resp = Response(body, mimetype="text/javascript")
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["Service-Worker-Allowed"] = "/"
        return resp

    @app.get("/manifest.webmanifest")
    def web_manifest():
        body = {
            "name": "Lawbook — the Laws of Bridge",
            "short_name": "Lawbook",
            "description": "The Laws of Duplicate Bridge, for the director at the table.",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#fbfaf7",
            "theme_color": "#1d4d3a",
            "icons": [
                {"src": assets.url("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": assets.url("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {"src": assets.url("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
                 "purpose": "maskable"},
                {"src": assets.url("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
        resp = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
        resp.headers["Cache-Control"] = "public, max-age=3600"
        return resp

    @app.get("/favicon.ico")
    def favicon():
        from flask import redirect
        return redirect(assets.url("icons/icon.svg"), 301)

    @app.get("/offline/index.json")
    def offline_index_json():
        resp = Response(json.dumps(offline_index(), separators=(",", ":")), mimetype="application/json")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/offline/search.json")
    def offline_search_json():
        # written by the build beside the search index (search/offline.py)
        def read():
            path = build_dir() / "index" / "offline.json"
            return path.read_bytes() if path.exists() else None
        body = cached("offline_search", read)
        if body is None:
            abort(404)
        resp = Response(body, mimetype="application/json")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/offline/pages.json")
    def offline_pages_json():
        resp = Response(_offline_list("pages.json", offline_pages_body), mimetype="application/json")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/offline/editions/<edition>.json")
    def offline_edition_json(edition: str):
        # an id is looked up before anything is kept under it: kept per id,
        # junk ids would fill the worker's caches and push the real pages out
        if edition not in code_edition_ids():
            shown = edition if len(edition) <= 40 else edition[:40] + "…"
            raise queries.NotFound(f"There is no code edition '{shown}' to keep offline.")
        body = _offline_list(offline_edition_file(edition), lambda: offline_edition_body(edition))
        resp = Response(body, mimetype="application/json")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.after_request
    def headers(response):
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        if hsts:
            response.headers.setdefault("Strict-Transport-Security", hsts)
        if response.mimetype == "text/html" and "Cache-Control" not in response.headers:
            # pages change only with a rebuild; revalidate so a rebuild shows at once
            response.headers["Cache-Control"] = "no-cache"
        return response
