"""Generated hostile input over every route and method of the app (issue 15):
no response is ever a 500.

The routes come from the app's own URL map, so a route added later is fuzzed
too.  Each example picks a route and a method, fills the route's variables,
query string and body with hostile values (odd Unicode, digits `int` cannot
read, numbers of thousands of digits, raw non-UTF-8 bytes as a server passes
them, deep JSON, lone surrogates in JSON keys and values, wrong content types,
url_for's own argument names) and a hostile Host header, and checks the
answer is below 500 and carries the security headers.

    pytest tests/test_fuzz.py                              a quick run (300 examples)
    LAWS_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz.py    the full run
"""
from __future__ import annotations

import json
import os
from urllib.parse import quote, urlencode, urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("LAWS_FUZZ_EXAMPLES", "300"))

NASTY = ["", " ", "0", "00", "12", "93", "94", "999", "1000", "-1", "1e9", "²", "¹", "٣", "１２", "9" * 5000,
         "2007", "2017", "1993-rubber", "dbrs-2017", "topic:", "topic:claims", "def:Psychic call", "12C1(b)",
         "27B1", "law 40 b 2", "../../etc/passwd", "%00", "\x00", "\n", "<script>alert(1)</script>",
         "' or 1=1 --", "\u202e", "\ufeff", "ÿ", "null", "true", "[]", "{}", "NaN", "Infinity",
         "a" * 400, "score", "matchpoints", "auction", "x" * 5, "?", "#", "&", "=", ";", "//evil.example"]
ARG_NAMES = ["q", "edition", "kind", "limit", "page", "from", "to", "raw", "view", "board", "scores",
             "level", "strain", "risk", "dealer", "calls", "_external", "_scheme", "_anchor", "_method",
             "endpoint", "number", "x"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
CONTENT_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data",
                 "text/plain", "application/json; charset=latin-1", "", "application/octet-stream"]

# Hosts as a client may send them: werkzeug's router cannot encode an empty
# label or one over 63 characters
HOSTS = ["", ".", "a..b", "a" * 64, "a" * 63 + ".b", "x" * 5000, "\xff\xfe", "évil.example", "[::1]",
         "[::1]:5000", "foo:bar:baz", "<b>x</b>", "example.org:99999", "evil.example"]

text = st.one_of(st.sampled_from(NASTY),
                 st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
                 st.integers(-10 ** 30, 10 ** 30).map(str))
# in a JSON body, also lone surrogates: JSON writes them ("\ud800"), UTF-8 cannot
json_text = st.one_of(text, st.text(st.characters(categories=("Cs",)), min_size=1, max_size=3),
                      st.tuples(text, st.characters(categories=("Cs",))).map("".join))
raw_bytes = st.binary(max_size=60)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20), st.floats(allow_nan=False),
              json_text),
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(st.one_of(st.sampled_from(ARG_NAMES), json_text), children,
                                               max_size=6)),
    max_leaves=8)
hosts = st.one_of(st.sampled_from(HOSTS), st.text(max_size=80).filter(lambda h: "\n" not in h),
                  st.lists(st.integers(0, 70).map(lambda n: "a" * n), min_size=1, max_size=4).map(".".join))


def _routes(app) -> list[tuple[str, list[str], list[str]]]:
    """(rule, its variables, its methods) for every rule of the app."""
    out = []
    for rule in app.url_map.iter_rules():
        out.append((rule.rule, sorted(rule.arguments), sorted(rule.methods)))
    return sorted(out)


@st.composite
def requests(draw, routes, known):
    # routes that take a body half the time: few, and where JSON input is read
    rule, variables, methods = draw(st.one_of(st.sampled_from(routes),
                                              st.sampled_from([r for r in routes if "POST" in r[2]])))
    path = rule
    for var in variables:
        # a value the route knows (a checker's id) half the time, so its body is read
        value = draw(st.one_of(text, st.sampled_from(known[var]))) if known.get(var) else draw(text)
        # a route's variable as the client would percent-encode it
        path = path.replace(f"<{var}>", quote(value, safe="") or "x")
        for conv in ("path", "int", "string"):
            path = path.replace(f"<{conv}:{var}>", quote(value, safe="/") or "x")
    method = draw(st.sampled_from(methods + METHODS))
    kw: dict = {"method": method, "headers": {}, "environ_overrides": {}}
    query = draw(st.sampled_from(["args", "raw", "none"]))
    if query == "args":
        args = draw(st.lists(st.tuples(st.sampled_from(ARG_NAMES), text), max_size=5))
        path += "?" + urlencode(args)
    elif query == "raw":
        # bytes as gunicorn puts them in the environ: latin-1 text, unchecked
        kw["environ_overrides"]["QUERY_STRING"] = draw(raw_bytes).decode("latin-1")
    body = draw(st.sampled_from(["none", "json", "deep", "raw", "form"]))
    if body == "json":
        # an object at the top, as every JSON route takes; json.dumps writes a
        # lone surrogate as its escape, as a client would
        kw["data"] = json.dumps(draw(st.one_of(
            json_values, st.dictionaries(json_text, json_values, min_size=1, max_size=3))))
        if draw(st.booleans()):
            kw["headers"]["Content-Type"] = "application/json"
    elif body == "deep":
        depth = draw(st.sampled_from([21, 100, 999, 1001, 3000]))
        kw["data"] = draw(st.sampled_from(["[", "{\"a\":"])) * depth
    elif body == "raw":
        kw["data"] = draw(raw_bytes)
    elif body == "form":
        kw["data"] = {draw(st.sampled_from(ARG_NAMES)): draw(text) for _ in range(draw(st.integers(0, 4)))}
    if body != "form" and "Content-Type" not in kw["headers"]:
        kw["headers"]["Content-Type"] = draw(st.sampled_from(CONTENT_TYPES))
    if draw(st.booleans()):
        kw["headers"]["Accept-Encoding"] = draw(st.sampled_from(["br", "gzip", "identity", "*", "br;q=0, x"]))
    if draw(st.integers(0, 3)) == 0:
        kw["environ_overrides"]["HTTP_HOST"] = draw(hosts)
    return path, kw


def test_no_route_answers_500(app):
    from laws.web.site import SECURITY_HEADERS

    from laws.checkers import registry

    routes = _routes(app)
    known = {"checker_id": sorted(c.id for c in registry.all_checkers())}
    assert len(routes) > 20, "the URL map was not read"
    client = app.test_client()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(requests(routes, known))
    def check(req):
        path, kw = req
        r = client.open(path, **kw)
        assert r.status_code < 500, (path, kw.get("method"), r.status_code, r.get_data(as_text=True)[:300])
        assert b"Traceback" not in r.data
        assert all(r.headers.get(k) == v for k, v in SECURITY_HEADERS.items()), (path, r.status_code)
        assert urlsplit(r.headers.get("Location", "")).netloc == "", r.headers["Location"]

    check()


def test_no_json_route_answers_500(app):
    """Every route that reads a JSON body, sent generated JSON objects as the
    API's clients send them: keys and values hold lone surrogates, odd Unicode,
    the fields the routes know.  The reply is below 500 and is UTF-8 JSON."""
    from laws.checkers import registry
    from laws.web.site import SECURITY_HEADERS

    urls = []
    for rule, variables, methods in _routes(app):
        if rule.startswith("/api/") and "POST" in methods:
            urls += ([rule.replace("<checker_id>", c.id) for c in registry.all_checkers()]
                     if variables == ["checker_id"] else [rule])
    assert "/api/rulings/play" in urls and "/api/checkers/board" in urls
    client = app.test_client()
    fields = sorted({"edition", "dealer", "calls", "findings", "contract", "declarer", "trick", "seat", "play",
                     "procedure", "answers", "board", "scores", "level", "strain", "tricks"})
    keys = st.one_of(st.sampled_from(fields), json_text)

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.sampled_from(urls), st.dictionaries(keys, json_values, max_size=4))
    def check(url, body):
        r = client.post(url, data=json.dumps(body), content_type="application/json")
        assert r.status_code < 500, (url, body, r.status_code)
        json.loads(r.data.decode("utf-8"))
        assert all(r.headers.get(k) == v for k, v in SECURITY_HEADERS.items()), url

    check()
