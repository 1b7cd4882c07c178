"""Site-wide behaviour: static assets with content-hashed names, compression,
security headers, caching, and the files that make the site installable and
usable offline (web app manifest, service worker, offline index).

Assets: `asset_url('site.css')` gives `/static/site.<hash>.css`, where the
hash is taken from the file's bytes when the app starts.  Hashed names are
served with a year of immutable caching; a changed file gets a new name, so
no one ever sees a stale stylesheet.  The files are small and read once into
memory.

Offline: `/sw.js` is the service worker (scope `/`).  Its text names the
version of the assets and of the store being served, so a rebuild or a new
stylesheet installs a new worker, which fetches the pages again.  What it
keeps is listed by `/offline/pages.json` (every contents, law, definitions and
guide page, made from the store); `/offline/index.json` lets it (and the page
script) resolve a citation typed in the jump box without the network.
"""
from __future__ import annotations

import hashlib
import json
import mimetypes
import re
from pathlib import Path

from flask import Response, abort, current_app, render_template, request, url_for
from flask_compress import Compress

from laws import queries
from laws.web.db import build_dir, get_db

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


class Assets:
    """The files of static/, read once, each with the hash of its bytes."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.files: dict[str, tuple[bytes, str, str]] = {}  # name -> (bytes, hash, mimetype)
        for path in sorted(self.folder.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                data = path.read_bytes()
                name = path.relative_to(self.folder).as_posix()
                mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
                if name.endswith(".webmanifest"):
                    mime = "application/manifest+json"
                self.files[name] = (data, hashlib.sha256(data).hexdigest()[:10], mime)
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


def offline_pages() -> list[str]:
    """Every page the service worker keeps once a first page has been seen."""
    def compute():
        db = get_db()
        urls = ["/", "/guide", "/sources", "/offline", "/offline/search"]
        for e in queries.editions(db):
            if e["kind"] != "code":
                continue
            urls.append(url_for("pages.contents", edition=e["id"]))
            if db.execute("select 1 from definitions where edition = ? limit 1", [e["id"]]).fetchone():
                urls.append(url_for("pages.definitions", edition=e["id"]))
            urls += [url_for("pages.law", edition=e["id"], number=n) for n in e["laws"]]
        urls += [url_for("pages.topic", topic_id=t["id"]) for t in queries.guide(db)]
        urls += ["/rulings", "/rulings/auction", "/rulings/auction.json",  # the ruling flow works offline
                 "/rulings/play", "/rulings/play.json"]
        return urls
    return cached("offline_pages", compute)


def init_app(app) -> None:
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
        resp = Response(data, mimetype=mime)
        resp.headers["Cache-Control"] = (f"public, max-age={YEAR}, immutable" if immutable
                                         else "public, max-age=300")
        resp.set_etag(h)
        return resp.make_conditional(request)

    app.view_functions["static"] = static

    @app.context_processor
    def helpers():
        return {"asset": assets.url}

    @app.get("/sw.js")
    def service_worker():
        body = render_template(
            "sw.js", version=f"{assets.version}-{store_version()}",
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

    @app.get("/offline/pages.json")
    def offline_pages_json():
        resp = Response(json.dumps({"version": store_version(), "pages": offline_pages()}),
                        mimetype="application/json")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.after_request
    def headers(response):
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        if response.mimetype == "text/html" and "Cache-Control" not in response.headers:
            # pages change only with a rebuild; revalidate so a rebuild shows at once
            response.headers["Cache-Control"] = "no-cache"
        return response
