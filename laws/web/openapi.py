"""The OpenAPI 3.1 document of the JSON API, served at /api/openapi.json.

Built from the schemas the server itself validates against, so the
description cannot drift from what is enforced: each checker's input schema
(laws/checkers/data/schemas.json through the registry, with the codes of the
store being served: a code the build carried checkers into is one of their
editions, as /api/checkers lists it) and the rulings' request schemas
(laws/rulings/<period>-request.schema.json, held to by
laws.rulings.requests.check).  The replies' schemas are written here: they
name the fields CONTRACT.md and the README promise, and leave room for the
extras a reply may add.

Each checker gets its own paths (/api/checkers/board …): one templated path
could not say that each takes another request body.

The app builds a document from the manifest when it starts (laws/web/api.py),
before any store may exist; `served` makes the one for the store being
served, once per store version, and falls back to that one without a store.
"""
from __future__ import annotations

import copy

from laws.checkers import registry
from laws.checkers.codes import Codes
from laws.rulings import carry
from laws.rulings import data as ruling_data
from laws.rulings import requests as ruling_requests

_STR = {"type": "string"}
_INT = {"type": "integer"}
_STRS = {"type": "array", "items": _STR}
_INTS = {"type": "array", "items": _INT}
_NSTR = {"type": ["string", "null"]}


def _obj(required: dict, optional: dict | None = None) -> dict:
    """An object with these fields (required) and maybe these (optional); other fields may follow."""
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}


ERROR = _obj({"error": _STR}, {"field": _NSTR})

_EDITION = _obj({"id": _STR, "title": _STR, "year": _INT, "kind": _STR, "laws": _INTS,
                 "sources": {"type": "array", "items": {"type": "object"}}})
_PROVISION = _obj({"id": _STR, "parent": _NSTR, "label": _STR, "heading": _STR, "text": _STR})
_REFERENCE = _obj({"from": _STR, "to": _STR, "to_edition": _STR, "raw": _STR})
_LAW = _obj({"edition": _STR, "number": _INT, "title": _STR,
             "provisions": {"type": "array", "items": _PROVISION},
             "references": {"type": "array", "items": _REFERENCE},
             "cited_by": {"type": "array", "items": _REFERENCE},
             "guide": _STRS, "checkers": _STRS,
             "sources": {"type": "array", "items": _obj({"file": _STR, "title": _STR})}})
_DEFINITION = _obj({"id": _STR, "term": _STR, "text": _STR})
_TOPIC_LIST = _obj({"id": _STR, "title": _STR, "laws": _INTS})
_TOPIC = _obj({"id": _STR, "title": _STR, "laws": _INTS, "html": _STR, "text": _STR})
_INDEX_ENTRY = _obj({"term": _STR, "cites": _STRS, "see": _STRS,
                     "subterms": {"type": "array", "items": {"$ref": "#/components/schemas/IndexEntry"}}},
                    {"see_also": _STRS, "note": _STR})


def _search_reply(editions: list[str] | None) -> dict:
    """/api/search's reply; `editions` (which editions it searched: the one
    asked, else the default ones, in the order the site lists them) names
    editions of the corpus."""
    searched = {"type": "array", "items": {"enum": list(editions)} if editions else _STR,
                "minItems": 1, "uniqueItems": True}
    return _obj({"query": _STR,
                 "results": {"type": "array", "items": _obj({"edition": _STR, "law": {"type": ["integer", "null"]},
                                                              "provision": _NSTR, "title": _NSTR,
                                                              "snippet": _STR, "url": _STR})},
                 "suggestion": _NSTR, "editions": searched})


_OPS = {"type": "array", "items": {"type": "array", "prefixItems": [{"enum": ["equal", "insert", "delete"]}, _STR]}}
_DIFF = _obj({"law": _INT, "from": _STR, "to": _STR,
              "changes": {"type": "array", "items": _obj({"from_provision": _NSTR, "to_provision": _NSTR,
                                                          "status": {"enum": ["same", "changed", "moved", "split",
                                                                              "merged", "added", "removed"]},
                                                          "ops": _OPS})}})
_CHECKER = _obj({"id": _STR, "title": _STR, "cites": _STRS, "editions": _STRS, "input_schema": {"type": "object"}})
_CHECKER_RESULT = _obj({"result": {"type": "object"}, "explanation": _STR, "cites": _STRS}, {"edition": _NSTR})
# a question of kind "option" has no answers of its own (null): the reply's
# `options` are its choices
_QUESTION = _obj({"id": _STR, "text": _STR, "kind": _STR, "answers": {"type": ["array", "null"]}, "cites": _STRS})
# a code ruled by the trees the build carried into it from the previous
# code's (laws/rulings/carry.py) says so: whose rulings they are, whether
# every cite the reply makes was found the same or reviewed, and if not what
# changed; a cite awaiting review is the older code's provision, "2017:45F"
_CARRIED = {
    "carried_from": {**_STR, "description": "only for a code ruled by rulings carried from an older code's "
                                            "through the comparison: that code's id"},
    "reviewed": {"type": "boolean", "description": "with carried_from: true when every provision the reply cites "
                                                   "is the code's own, found the same or reviewed; false while any "
                                                   "waits for review (then cited as the older code's, '2017:45F')"},
    "review": {**_NSTR, "description": "with carried_from: what changed in the provisions awaiting review "
                                       "('not yet reviewed for 2027: 45F became 45G, words changed'); null "
                                       "when reviewed"}}
_RULING = _obj({"edition": _STR, "irregularity": {"type": ["object", "null"]},
                "questions": {"type": "array", "items": _QUESTION}, "options": {"type": "array"},
                "outcome": {"type": ["object", "null"]}, "say": _STR, "cites": _STRS}, _CARRIED)
_GUIDED_LIST = {"type": "array", "items": _obj({
    "edition": _STR, "procedures": {"type": "array", "items": _obj({"id": _STR, "title": _STR, "summary": _STR,
                                                                     "laws": _INTS})}})}
_GUIDED = _obj({"edition": _STR, "procedure": _STR, "title": _STR, "laws": _INTS,
                "questions": {"type": "array", "items": _QUESTION}, "answered": {"type": "array"},
                "outcome": {"type": ["object", "null"]}, "say": _STR, "cites": _STRS}, _CARRIED)

# A query's numbers are read as digits (laws.web.limits.number_arg), where a
# body's 7.0 is 7 as JSON Schema counts it: a parameter's schema cannot say
# that its text must be digits, so the document says it in words
WHOLE_NUMBERS = ("In an address's query a whole number is written in digits (limit=5): 5.0 there gets 400 "
                 "naming the parameter. In a JSON body 5.0 is 5, as JSON Schema counts it.")

RULING_PERIODS = {"auction": "AuctionRequest", "play": "PlayRequest", "guided": "GuidedRequest"}


# White space as the server reads it: Python's `\s` and str.strip() (which
# add \x1c-\x1f to ECMA's and leave out \ufeff).  A pattern's \s and \S are
# written out with it, so that a client reading the pattern as JSON Schema
# says (ECMA-262) means what the server checks.
WHITE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"


def portable(pattern: str) -> str:
    """`pattern` with \\s and \\S written out as WHITE, in a class or not."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            if e == "s":
                out.append(WHITE if in_class else f"[{WHITE}]")
            elif e == "S" and not in_class:
                out.append(f"[^{WHITE}]")
            else:  # \S in a class has no class of its own to be written as: kept
                out.append(c + e)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


def _embedded(schema: dict, pointer: str) -> dict:
    """A schema file as a component: its own `#/...` references made to point
    inside the component (the document is their base, not the file), its
    patterns' white space written out (`portable`), and `$schema` dropped
    (the document's dialect is JSON Schema 2020-12)."""
    def walk(value):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k == "$schema":
                    continue
                if k == "$ref" and isinstance(v, str) and v.startswith("#/"):
                    v = pointer + v[1:]
                if k == "pattern" and isinstance(v, str):
                    v = portable(v)
                out[k] = walk(v)
            return out
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value
    return walk(copy.deepcopy(schema))


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict:
    words = {400: "Bad input: what is wrong, and the field at fault where there is one.",
             404: "Nothing of that name (edition, law, topic, index).",
             415: "The body was not sent as JSON."}
    return {str(c): {"$ref": f"#/components/responses/{c}"} for c in codes if c in words}


def _get(op_id: str, summary: str, ok: dict, *codes: int, params: list | None = None) -> dict:
    op = {"operationId": op_id, "summary": summary, "responses": {"200": _json(ok, "OK"), **_errors(*codes)}}
    if params:
        op["parameters"] = params
    return op


def _path_param(name: str, description: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema or _STR}


def _query(name: str, description: str, schema: dict | None = None, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema or _STR}


# a ruling's or a checker's request is held to the Laws as well as to its
# schema, and no schema can say all they require: its 400 says so
LAWS_REFUSE = ("Bad input: what is wrong, and the field at fault. Besides what the schema refuses, a request "
               "it allows can be refused for what the Laws make impossible or one field rules out for another "
               "(a card played twice, a seat at fault without its card, an answer the question does not offer, "
               "a percentage where the scoring is IMPs).")


def _post(op_id: str, summary: str, body_ref: str, ok: dict, description: str = "",
          laws_rules: bool = False) -> dict:
    errors = _errors(400, 404)
    if laws_rules:
        errors["400"] = {"$ref": "#/components/responses/400-laws"}
    op = {"operationId": op_id, "summary": summary,
          "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": body_ref}}}},
          "responses": {"200": _json(ok, "OK"), **errors}}
    if description:
        op["description"] = description
    return op


def _search_params(editions: list[str] | None) -> list[dict]:
    """/api/search's parameters, as exact as search.web.params holds them
    (a schema looser than the server would promise what it refuses): `q`
    with something besides white space, `kind` one of the index's KINDS,
    `edition` one of the corpus's editions, `limit` and `page` within
    MAX_LIMIT and MAX_PAGE.  A blank `edition` or `kind` means none, and
    white space around a value is dropped, as the server does."""
    from search.index import KINDS
    from search.web import MAX_LIMIT, MAX_PAGE

    blank = {"type": "string", "pattern": portable("^\\s*$")}  # = not given

    def choice(values) -> dict:
        return {"anyOf": [{"enum": list(values)}, blank]}

    def count(high: int) -> dict:
        return {"anyOf": [{"type": "integer", "minimum": 1, "maximum": high}, blank]}

    edition = choice(editions) if editions else _STR
    return [
        _query("q", "a citation (27B1) or words", {"type": "string", "pattern": portable("\\S")},
               required=True),
        _query("edition", "one edition's id (default: the default editions)", edition),
        _query("kind", "law, definition or guide (default: all)", choice(KINDS)),
        _query("limit", "results per page (default 10)", count(MAX_LIMIT)),
        _query("page", "the page of results (default 1)", count(MAX_PAGE)),
    ]


def _diff_params() -> list[dict]:
    """/api/diff's `from` and `to`: each an edition's id (an unknown one, or
    one without the law: 404), not blank (400).  That they must differ (400,
    field `to`) binds the two together, which a parameter's schema cannot
    say: the descriptions say it."""
    given = {"type": "string", "pattern": portable("\\S")}
    return [_query("from", "the older edition (not the same as `to`: 400)", given, required=True),
            _query("to", "the newer edition (not the same as `from`: 400)", given, required=True)]


def _carried_rulings(codes: Codes | None, period: str) -> tuple[list[str], str | None]:
    """The codes a period's rulings are carried into (laws.rulings.carry's
    rule, over the codes the document is made with: the store's, or the
    manifest's before a store exists), and the code in force if it is one
    of them (the default edition)."""
    if codes is None or not codes.years:
        return [], None
    order = sorted(codes.years, key=lambda e: (codes.years[e] or 0, e))
    into = carry.carried_into([{"id": e, "family": codes.families.get(e)} for e in order],
                              ruling_data.files(period))
    return list(into), codes.in_force


def document(codes: Codes | None = None, editions: list[str] | None = None) -> dict:
    """The whole OpenAPI 3.1 document (`codes`: the corpus's codes, which
    give the checkers' edition inputs their choices and default; `editions`:
    every edition id of the corpus, the search's `edition` choices)."""
    edition = _path_param("edition", "an edition id" + (f": {', '.join(editions)}" if editions else "")
                          + " (another: 404)")
    number = _path_param("number", "a law number, 1 to 93", {"type": "string", "pattern": "^[0-9]{1,3}$"})
    schemas: dict = {"Error": ERROR, "IndexEntry": _INDEX_ENTRY}
    for period, name in RULING_PERIODS.items():
        schemas[name] = _embedded(ruling_requests.schema_with(period, *_carried_rulings(codes, period)),
                                  f"#/components/schemas/{name}")
    paths: dict = {
        "/api/openapi.json": {"get": _get("openapi", "This document", {"type": "object"})},
        "/api/editions": {"get": _get("editions", "Every edition: id, title, year, kind, laws, sources",
                                      {"type": "array", "items": _EDITION})},
        "/api/laws/{edition}/{number}": {"get": _get("law", "A law of an edition, provision by provision", _LAW,
                                                     404, params=[edition, number])},
        "/api/definitions/{edition}": {"get": _get("definitions", "The edition's defined terms",
                                                   {"type": "array", "items": _DEFINITION}, 404, params=[edition])},
        "/api/index/{edition}": {"get": _get("index", "The edition's official index",
                                             {"type": "array", "items": {"$ref": "#/components/schemas/IndexEntry"}},
                                             404, params=[edition])},
        "/api/guide": {"get": _get("guide", "The simplified guide's topics", {"type": "array", "items": _TOPIC_LIST})},
        "/api/guide/{topic_id}": {"get": _get("topic", "One topic of the guide, with its HTML and text", _TOPIC, 404,
                                              params=[_path_param("topic_id", "a topic id: topic:<slug>")])},
        "/api/search": {"get": _get("search", "Search the Laws: results with <mark>ed, escaped snippets, and the "
                                    "editions searched", _search_reply(editions),
                                    400, params=_search_params(editions))},
        "/api/diff/{number}": {"get": _get("diff", "A law's provisions aligned between two editions", _DIFF, 400, 404,
                                           params=[number, *_diff_params()])},
        "/api/checkers": {"get": _get("checkers", "The rule checkers with their input schemas",
                                      {"type": "array", "items": _CHECKER})},
        "/api/rulings/auction": {"post": _post("ruling_auction", "A ruling on an irregularity of the auction",
                                               "#/components/schemas/AuctionRequest", _RULING,
                                               laws_rules=True)},
        "/api/rulings/play": {"post": _post("ruling_play", "A ruling on the first irregularity in the play",
                                            "#/components/schemas/PlayRequest", _RULING,
                                               laws_rules=True)},
        "/api/rulings/guided": {
            "get": _get("guided_procedures", "Each edition's guided procedures", _GUIDED_LIST),
            "post": _post("ruling_guided", "A step of a guided procedure: the next question, or the ruling",
                          "#/components/schemas/GuidedRequest", _GUIDED, laws_rules=True)},
    }
    for c in registry.all_checkers():
        name = "Checker-" + c.id
        schemas[name] = _embedded(c.schema(codes), f"#/components/schemas/{name}")
        paths[f"/api/checkers/{c.id}"] = {
            "get": _get(f"checker_{c.id}", f"The checker '{c.id}': {c.title}", _CHECKER),
            "post": _post(f"check_{c.id}", f"Run the checker '{c.id}': {c.title}", f"#/components/schemas/{name}",
                          _CHECKER_RESULT, c.summary, laws_rules=True)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Lawbook API", "version": "3",
                 "description": "The Laws of Duplicate Bridge as JSON: editions, laws, definitions, the official "
                                "index, the guide, search, comparisons, rule checkers and rulings at the table. "
                                "Bad input gets a 4xx reply {\"error\", \"field\"}, never a 500. " + WHOLE_NUMBERS},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": {
                "400": _json({"$ref": "#/components/schemas/Error"},
                             "Bad input: what is wrong, and the field at fault where there is one."),
                "400-laws": _json({"$ref": "#/components/schemas/Error"}, LAWS_REFUSE),
                "404": _json({"$ref": "#/components/schemas/Error"}, "Nothing of that name."),
            },
        },
    }


def served(startup: dict) -> dict:
    """The document for the store being served (its codes, with the
    checkers' data the build carried into a code without its own, and its
    editions), made once per store version; `startup` (the manifest's, made
    when the app started) while there is no store to read."""
    from laws.web.checkers import store_codes
    from laws.web.db import StoreMissing, get_db
    from laws.web.site import cached

    def compute() -> dict:
        editions = [r[0] for r in get_db().execute("select id from editions order by ord")]
        return document(store_codes(), editions)
    try:
        return cached("openapi", compute)
    except (StoreMissing, OSError):
        return startup
