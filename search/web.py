"""Search on the web: GET /api/search (JSON) and GET /search (the page).

Parameters, the same for both:

    q        the query: a citation (27B1, law 40 b 2) or words   (required by the API)
    edition  an edition id, to search only that edition          (optional)
    kind     law | definition | guide                           (optional)
    limit    results per page, 1 to 50                          (default 10)
    page     1, 2, ...                                          (default 1)

Every reply says which editions it searched (`editions`, ids in the order
the site lists them); the page names them in words, and its edition control
names the default editions ("2017 (in force), 2007, rubber 1993, the guide").

The API answers 400 {"error", "field"} for a missing or empty `q` and for a
bad edition, kind, limit or page.  A query that has nothing searchable in it
(only punctuation or stop words: `"((`, `the`) is not an error: it gets 200,
no results and a `message` saying what to type.  The page never answers 400
for an empty query: it shows the "type a citation or words" state.

The index is the served build's (`build_dir()/index`), opened read-only and
shared between requests (search.query.Searcher).
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, jsonify, render_template, request

from laws.rulings import handoff
from laws.web.db import StoreMissing, build_dir
from laws.web.errors import BadRequest
from laws.web.limits import number_arg
from search.index import KINDS, editions_label
from search.query import IndexMissing, Searcher

bp = Blueprint("search", __name__)

MAX_LIMIT = 50
MAX_PAGE = 1000
KIND_NAMES = {"law": "Law text", "definition": "Definitions", "guide": "Guide topics"}
EMPTY = "Type a citation such as 27B1, or some words, such as: lead out of turn."


def searcher() -> Searcher:
    try:
        return Searcher.open(build_dir() / "index")
    except IndexMissing as exc:
        raise StoreMissing(str(exc)) from None


def params(s: Searcher) -> dict:
    edition = request.args.get("edition", "").strip() or None
    if edition is not None and edition not in s.edition_by_id:
        known = ", ".join(e["id"] for e in s.editions)
        raise BadRequest(f"There is no edition '{edition[:40]}'; the editions are {known}.", field="edition")
    kind = request.args.get("kind", "").strip() or None
    if kind is not None and kind not in KINDS:
        raise BadRequest(f"'kind' must be one of {', '.join(KINDS)}.", field="kind")
    return {"q": request.args.get("q", ""), "edition": edition, "kind": kind,
            "limit": number_arg("limit", 10, 1, MAX_LIMIT), "page": number_arg("page", 1, 1, MAX_PAGE)}


def search(s: Searcher, p: dict) -> dict:
    """The search, its first result offering the ruling procedure that
    applies it (laws/rulings/handoff.py): `ruling` {"title", "url",
    "procedure", "prefilled"}, the url with what the question states filled
    in (who dealt, who is declarer: search.query ranks without them)."""
    out = s.search(p["q"], edition=p["edition"], kind=p["kind"], limit=p["limit"], page=p["page"])
    first = out["results"][0] if out["results"] and p["page"] == 1 else None
    if first and first["kind"] == "law":
        offer = handoff.offer(first["edition"], first["provision"], out["query"])
        if offer:
            first["ruling"] = offer
    return out


@bp.get("/api/search")
def api_search():
    s = searcher()
    p = params(s)
    if not p["q"].strip():
        raise BadRequest(EMPTY, field="q")
    return jsonify(search(s, p))


@bp.get("/search")
def search_page():
    s = searcher()
    try:
        p = params(s)
    except BadRequest as exc:  # shown on the page, with the form to correct it
        p = {"q": request.args.get("q", ""), "edition": None, "kind": None, "limit": 10, "page": 1}
        return _page(s, p, None, str(exc)), 400
    result = None
    if p["q"].strip():
        result = search(s, p)
    return _page(s, p, result, None)


def _page(s: Searcher, p: dict, result: dict | None, error: str | None) -> str:
    def link(**change) -> str:
        args = {"q": p["q"], "edition": p["edition"], "kind": p["kind"],
                "limit": p["limit"] if p["limit"] != 10 else None, "page": p["page"]} | change
        if args["page"] == 1:
            args["page"] = None
        return "/search?" + urlencode({k: v for k, v in args.items() if v is not None and (v != "" or k == "q")})

    # the edition control's default names what it searches, never "all
    # editions": the default editions are a few of them (search/index.py)
    searched = editions_label(s.editions, result["editions"]) if result else None
    return render_template("search.html", p=p, result=result, error=error, empty=EMPTY, editions=s.editions,
                           edition_titles={e["id"]: e["title"] for e in s.editions},
                           default_label=editions_label(s.editions, s.default_editions), searched=searched,
                           kinds=KIND_NAMES, link=link)
