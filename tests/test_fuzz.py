"""Generated hostile input over every route and method of the app (issue 15):
no response is ever a 500.

The routes come from the app's own URL map, so a route added later is fuzzed
too.  Each example picks a route and a method, fills the route's variables,
query string and body with hostile values (odd Unicode, digits `int` cannot
read, numbers of thousands of digits, raw non-UTF-8 bytes as a server passes
them, deep JSON, lone surrogates in JSON keys and values, wrong content types,
url_for's own argument names) and a hostile Host header (any bytes, any
length, empty labels as in 'a..b', labels over 63 characters, IPv6
literals), and checks the answer is below 500 and carries the security
headers.  The JSON routes also get number literals json.dumps cannot write
(`0.` and 60,000 nines, 1.0, 1e400, NaN, 31 digits); every route a body
shorter than its Content-Length.

    pytest tests/test_fuzz.py                              a quick run (300 examples, about 10 s)
    LAWS_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz.py    the full run
"""
from __future__ import annotations

import io
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
         "[::1]:5000", "foo:bar:baz", "<b>x</b>", "example.org:99999", "evil.example", "[", "[::1", "::1",
         "[fe80::1%eth0]", "a..b:80", ".a", "a.", "xn--", "xn--a.b", "\x00", "a b"]
LABEL = st.text(st.sampled_from("abcxyz0189-_."), max_size=70)

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
hosts = st.one_of(
    st.sampled_from(HOSTS),
    st.text(max_size=80),
    # any bytes, as a server hands them on (latin-1 text in the environ)
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
    # names of labels of any length, empty ones too ('a..b'), with a port or not
    st.tuples(st.lists(st.one_of(st.integers(0, 70).map(lambda n: "a" * n), LABEL), min_size=1, max_size=5),
              st.sampled_from(["", ":80", ":", ":99999", ":x"])).map(lambda t: ".".join(t[0]) + t[1]),
    # IPv6 literals, bracketed or not, with a port or not
    st.tuples(st.ip_addresses(v=6).map(str), st.sampled_from(["[{}]", "[{}]:5000", "{}", "[{}", "[{}]x"]))
    .map(lambda t: t[1].format(t[0])),
    st.integers(64, 20_000).map(lambda n: "h" * n))

# number literals JSON's grammar allows (and Python's parser, NaN and
# Infinity): long ones, fractions where whole numbers are due, huge exponents
number_literals = st.one_of(
    st.sampled_from(["1.0", "7.0", "-0", "-0.0", "1e400", "-1e400", "1E0", "0.5", "NaN", "Infinity", "-Infinity",
                     "0." + "9" * 60_000, "1" * 31, "1" * 30, "1e" + "0" * 40, "1" * 4301]),
    st.integers(1, 200).map(lambda n: "9" * n),
    st.tuples(st.integers(1, 40), st.integers(0, 40)).map(lambda t: "1" * t[0] + ("." + "5" * t[1] if t[1] else "")),
    st.floats(allow_nan=False, allow_infinity=False).map(repr))


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
    # not the test client: it works out the request's URL from the Host
    # (for cookies, for redirects) and fails on names the app reads ('xn--')
    from werkzeug.datastructures import Headers
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    class Reply:
        def __init__(self, path, method="GET", headers=None, environ_overrides=None, **kw):
            env = EnvironBuilder(path, method=method, headers=headers, **kw).get_environ()
            env.update(environ_overrides or {})
            body, status, headers = run_wsgi_app(app, env, buffered=True)
            self.data, self.status_code, self.headers = b"".join(body), int(status.split()[0]), Headers(headers)

        def get_data(self, as_text=False):
            return self.data.decode("utf-8", "replace") if as_text else self.data

    class client:  # noqa: N801 (stands for the test client)
        open = Reply

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
    @given(st.sampled_from(urls), st.dictionaries(keys, json_values, max_size=4),
           st.lists(st.tuples(keys, number_literals), max_size=3))
    def check(url, body, numbers):
        # number literals json.dumps cannot write (a long one, 1.0, NaN) go in
        # as text, each in place of a placeholder string
        text = json.dumps(body | {k: f"\x00n{i}" for i, (k, _) in enumerate(numbers)})
        for i, (_, literal) in enumerate(numbers):
            text = text.replace(json.dumps(f"\x00n{i}"), literal, 1)
        r = client.post(url, data=text, content_type="application/json")
        assert r.status_code < 500, (url, text[:300], r.status_code)
        reply = json.loads(r.data.decode("utf-8"))
        if r.status_code == 400:
            # a 400 answers as CONTRACT.md says: the error in words, the field at fault (or null)
            assert set(reply) == {"error", "field"} and reply["error"], (url, text[:300], reply)
        assert all(r.headers.get(k) == v for k, v in SECURITY_HEADERS.items()), url

    check()


def test_a_short_body_is_never_a_500(app):
    """A body that stops before its Content-Length (a slow client the server
    gave up on, a dropped connection), to any route and method: a 4xx (400,
    408 or 413 on its declared length), never a 500."""
    from laws.web.site import SECURITY_HEADERS

    routes = [rule.replace("<checker_id>", "board") for rule, variables, _ in _routes(app)
              if variables in ([], ["checker_id"])]
    client = app.test_client()

    @settings(max_examples=max(EXAMPLES // 3, 50), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.sampled_from(routes), st.sampled_from(METHODS), st.binary(max_size=200),
           st.integers(1, 2 * 64 * 1024), st.sampled_from(CONTENT_TYPES[:4]))
    def check(path, method, body, missing, content_type):
        r = client.open(path, method=method, environ_overrides={
            "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body) + missing),
            "CONTENT_TYPE": content_type})
        assert r.status_code < 500, (path, method, r.status_code, r.get_data(as_text=True)[:300])
        assert all(r.headers.get(k) == v for k, v in SECURITY_HEADERS.items()), (path, r.status_code)

    check()
