"""The JSON API for editions, laws, definitions and the guide (CONTRACT.md)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, jsonify

from laws import queries
from laws.web.db import get_db
from laws.web.limits import law_number

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.record_once
def _build_openapi(state) -> None:
    """The OpenAPI document made at startup from the schemas the server
    validates against (laws/web/openapi.py), with the corpus's codes: what
    /api/openapi.json answers while there is no store to read (once there is
    one, `openapi.served` makes it from the store's codes)."""
    from laws import manifest
    from laws.checkers.codes import ROOT, Codes, from_manifest
    from laws.model import SourceError
    from laws.web import openapi

    corpus = state.app.config.get("CORPUS_DIR")
    # the manifest, not the store: the store may not be built yet when the app
    # starts (app.py builds it after), and it is built from these editions
    try:
        codes = from_manifest(corpus)
        editions = [e.id for e in manifest.load(Path(corpus or ROOT / "corpus")).editions]
    except (SourceError, OSError):
        # a broken corpus must not stop the app serving the store it has (app.py
        # serves the previous build when a build fails): the editions stay open
        codes, editions = Codes(in_force=None), None
    state.app.extensions["lawbook_openapi"] = openapi.document(codes, editions)


@bp.get("/openapi.json")
def openapi_document():
    from laws.web import openapi

    # the store's codes name the checkers' editions (a code carried into included)
    return jsonify(openapi.served(current_app.extensions["lawbook_openapi"]))


def _public_law(law: dict) -> dict:
    """The law as the API gives it: CONTRACT.md's fields first, then extras."""
    return {
        "edition": law["edition"], "number": law["number"], "title": law["title"],
        # plain: the plain-words layer (not text of the Laws), or null
        "provisions": [{k: p[k] for k in ("id", "parent", "label", "heading", "text", "raw_text", "tables", "plain")}
                       for p in law["provisions"]],
        "references": [{k: r[k] for k in ("from", "to", "to_edition", "raw", "resolved", "reason")}
                       for r in law["references"]],
        "cited_by": [{k: r[k] for k in ("from", "to", "to_edition", "raw")} | {"edition": law["edition"]}
                     for r in law["cited_by"]],
        "guide": law["guide"], "checkers": law["checkers"],
        "sources": [{"file": s["file"], "title": s["title"], "how": s["how"]} for s in law["sources"]],
        "footnotes": [{k: f[k] for k in ("provision", "mark", "text")} for f in law["footnotes"]],
        # where a witness (a second transcription) reads otherwise than the text
        "variants": [{k: v[k] for k in ("provision", "kind", "main", "witness", "reason", "source")}
                     for v in law["variants"]],
        "section": law["section"],
    }


@bp.get("/editions")
def editions():
    return jsonify([{k: e[k] for k in ("id", "title", "year", "kind", "laws", "sources", "description",
                                        "publisher", "family", "guide_to", "in_force") + queries.STATUS_FIELDS}
                    for e in queries.editions(get_db())])


@bp.get("/laws/<edition>/<number>")
def law(edition: str, number: str):
    return jsonify(_public_law(queries.law(get_db(), edition, law_number(number))))


@bp.get("/definitions/<edition>")
def definitions(edition: str):
    return jsonify([{k: d[k] for k in ("id", "term", "text")} for d in queries.definitions(get_db(), edition)])


@bp.get("/guide")
def guide():
    return jsonify([{k: t[k] for k in ("id", "title", "laws", "parent")} for t in queries.guide(get_db())])


@bp.get("/guide/<path:topic_id>")
def topic(topic_id: str):
    from laws.web.render import guide_html  # rendering lives with the pages

    t = queries.topic(get_db(), topic_id)
    return jsonify({"id": t["id"], "title": t["title"], "laws": t["laws"], "html": guide_html(t["markdown"]),
                    "text": t["text"], "parent": t["parent"]})


def _public_index_entry(e: dict) -> dict:
    """CONTRACT.md's shape: `see` holds every cross-reference ("See" and "See
    also"); `see_also` says which of them are "See also"; `citations` adds
    what each cite prints and whether the store has it."""
    out = {"term": e["term"], "cites": [c["id"] for c in e["cites"]], "see": e["see"] + e["see_also"],
           "see_also": e["see_also"],
           "citations": [{k: c.get(k) for k in ("raw", "id", "to", "resolved")} for c in e["cites"]]}
    if e["note"]:
        out["note"] = e["note"]
    out["subterms"] = [_public_index_entry(s) for s in e["subterms"]]
    return out


@bp.get("/index/<edition>")
def index(edition: str):
    return jsonify([_public_index_entry(e) for e in queries.index(get_db(), edition)])
