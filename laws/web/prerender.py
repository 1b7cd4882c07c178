"""Pre-rendering: every page that depends only on the build, rendered and
compressed once by the build, into the new build's directory, before it is
switched in (laws.web.pagefiles says how the files are laid out and read).

Build time only: `flask --app app build` and `python app.py` call `write`
through the domain build's hook for steps run on the finished build's
directory (laws.build), so the domain build imports nothing from the web
layer, and the serving app, which only reads, never calls it.

The pages: home, sources, the offline pages, the guide and its topics,
every code edition's contents, definitions, laws and official index, and
the comparisons of the successive codes the build compared (overview and
every law the two share, at the addresses the site links to).  Then the
offline lists (/offline/pages.json, /offline/editions/<id>.json), made of
the pages' hashes.  A page that fails to render stops the build with the
address and the error; the store being served stays as it was.

A rebuild renders every page again (what a page reads is not tracked, so
only its HTML can say it is unchanged); a page whose HTML is the one in the
build being served, made by the same code and assets, keeps that build's
file (`pagefiles.same_page`, `keep_page`): its forms are read back and
checked, not compressed again.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, g, request, url_for

from laws import compare, datadir, queries
from laws.build import BuildError
from laws.web import pagefiles
from laws.web.db import get_db
from laws.web.pagecache import ENCODINGS, MIN_COMPRESS, encode, made, page_cache
from laws.web.site import (code_edition_ids, compare_pages, edition_pages, offline_edition_body,
                           offline_edition_file, offline_pages_body, page_key)
from laws.workers import cores, fork_map

FIXED = ["/", "/sources", "/offline", "/offline/search", "/guide", "/compare"]


class PrerenderError(BuildError):
    """A page could not be rendered (one readable line: the address and why);
    a BuildError, so the build command prints it as it is."""


def addresses() -> list[str]:
    """Every address pre-rendered, under the build of the request context."""
    db = get_db()
    eds = {e["id"]: e for e in queries.editions(db)}
    out = list(FIXED) + [url_for("pages.topic", topic_id=t["id"]) for t in queries.guide(db)]
    for e in eds.values():
        if e["kind"] != "code":
            continue
        out += edition_pages(e["id"])
        if queries.has_index(db, e["id"]):
            out.append(url_for("pages.official_index", edition=e["id"]))
    for pair in compare.pairs(db):
        shared = sorted(set(eds[pair["from"]]["laws"]) & set(eds[pair["to"]]["laws"]))
        out += compare_pages(pair["from"], pair["to"], shared)
    return list(dict.fromkeys(out))  # once each, in order


def render(app: Flask, build: Path, address: str):
    """The page at `address` as the serving app makes it (pagecache.made),
    or None when the address answers something else (a redirect)."""
    path, _, query = address.partition("?")
    with app.test_request_context(path, query_string=query):
        g.build_dir = build  # the new build, not the one served
        if request.routing_exception is not None or request.url_rule is None:
            raise PrerenderError(f"pre-rendering {address}: no page answers this address")
        view = app.view_functions[request.url_rule.endpoint]
        if not hasattr(view, "render"):
            raise PrerenderError(f"pre-rendering {address}: its view is not marked @page")
        html = view.render(**request.view_args)
        return made(html) if isinstance(html, str) else None


def _render_some(shared: tuple[Flask, Path, Path | None], chunk: list[str]) -> list[tuple[str, str, str, bool]]:
    """Render and write the pages of `chunk`: [(address, file name, etag,
    whether the previous build's file was kept)]."""
    app, build, previous = shared
    out = []
    for address in chunk:
        try:
            page = render(app, build, address)
        except PrerenderError:
            raise
        except Exception as exc:  # noqa: BLE001 (any failure stops the build, named in one line)
            raise PrerenderError(f"pre-rendering {address} failed: {type(exc).__name__}: {exc}") from None
        if page is None:
            continue
        if previous is not None and pagefiles.same_page(previous, address, page.etag, page.raw):
            out.append((address, pagefiles.keep_page(previous, build, address), page.etag, True))
            continue
        forms = {"identity": page.raw}
        if len(page.raw) >= MIN_COMPRESS:  # the forms pagecache.respond would make
            forms.update({e: encode(page.raw, e) for e in ENCODINGS})
        out.append((address, pagefiles.write_page(build, address, page.etag, forms), page.etag, False))
    return out


def _previous(build: Path, key: dict) -> Path | None:
    """The build being served (the one this build replaces), when its pages
    were made by this code from the same assets: a page of it whose HTML is
    this page's is this page's file, byte for byte (`pagefiles.same_page`)."""
    name = datadir.served(build.parent.parent)
    if name is None or name == build.name:
        return None
    previous = build.parent / name
    made = pagefiles.read_key(previous)
    if not isinstance(made, dict) or (made.get("code"), made.get("assets")) != (key["code"], key["assets"]):
        return None
    return previous


def _chunks(items: list[str], n: int) -> list[list[str]]:
    return [items[i::n] for i in range(n) if items[i::n]]


def write(app: Flask, build: Path, echo=None) -> dict[str, str]:
    """Pre-render every page of `build` (a finished build's directory, not
    yet served) and its offline lists; returns {address: etag}.  A page
    rendered the same as in the build served keeps that build's file (its
    compressed forms are not made again); `echo`, if given, is told how many
    pages were made and how many kept.  The build's last line gives the time
    it took ("pages")."""
    build = Path(build)
    with app.test_request_context("/"):
        g.build_dir = build
        urls = addresses()
        edition_ids = sorted(code_edition_ids())
        key = page_key()
    previous = _previous(build, key)
    # the pages are independent: spread over the cores (laws.workers), each
    # worker writing its own files; a few chunks a core evens out slow pages
    done = fork_map(_render_some, _chunks(urls, 4 * cores()), shared=(app, build, previous))
    written = [row for rows in done for row in rows]
    with app.test_request_context("/"):
        g.build_dir = build
        cache = page_cache()
        for address, _, etag, _kept in written:  # the lists below are made of these hashes: render none again
            cache.remember(build.name, address, etag)
        pagefiles.write_json(build, pagefiles.KEY, key)
        _write_offline_lists(build, edition_ids)
    pagefiles.write_json(build, pagefiles.INDEX, {a: {"file": f, "etag": e} for a, f, e, _kept in written})
    if echo is not None:
        kept = sum(1 for row in written if row[3])
        echo(f"pages: {len(written) - kept} made, {kept} kept from build {previous.name}" if previous is not None
             else f"pages: {len(written)} made, 0 kept (no build served with pages of this code)")
    return {a: e for a, _, e, _kept in written}


def _write_offline_lists(build: Path, edition_ids: list[str]) -> None:
    lists = {"pages.json": offline_pages_body()}
    lists.update({offline_edition_file(e): offline_edition_body(e) for e in edition_ids})
    for name, body in lists.items():
        path = pagefiles.offline_path(build, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
