"""Hostile input (issue 15): every case the audit found, each answered with a
4xx naming the problem, never a 500, and never at the cost of a worker.

The Flask test client encodes what it is given, so raw bytes a real server
passes on (a query string holding \\xff) are put in the WSGI environ as
gunicorn puts them: latin-1 text.  tests/test_hostile_gunicorn.py sends the
same bytes through a real gunicorn.
"""
from __future__ import annotations

import gzip
import json

import brotli
import pytest

from laws.web.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH

TOO_LARGE = "The request is too large: at most 64 KB is accepted (the largest input a checker takes is a few KB)."


def _main_words(r) -> str:
    """The words of a page's <main>, as a reader sees them."""
    import html
    import re

    m = re.search(r"<main[^>]*>(.*?)</main>", r.get_data(as_text=True), re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m[1])).split())


def _json_error(r, status: int) -> str:
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    assert r.content_type == "application/json"
    return r.get_json()["error"]


# --- 1. request size ------------------------------------------------------------

def test_oversized_json_body_is_refused_with_413_naming_the_limit(client):
    body = '{"scores": [' + ", ".join(["1"] * 40_000) + "]}"
    assert len(body) > MAX_BODY_BYTES
    r = client.post("/api/checkers/matchpoints", data=body, content_type="application/json")
    assert _json_error(r, 413) == (f"The request is too large: at most {MAX_BODY_BYTES // 1024} KB is accepted "
                                   "(the largest input a checker takes is a few KB).")


def test_oversized_form_post_gets_the_413_page(client):
    r = client.post("/checkers/matchpoints", data={"scores": "1 " * 40_000})
    assert r.status_code == 413
    assert r.mimetype == "text/html"
    assert f"at most {MAX_BODY_BYTES // 1024} KB" in r.get_data(as_text=True)


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read(client):
    """Content-Length alone decides: the body (absent here) is never waited for."""
    r = client.post("/api/checkers/board", data=b"{}", content_type="application/json",
                    environ_overrides={"CONTENT_LENGTH": str(MAX_BODY_BYTES + 1)})
    assert (r.status_code, r.get_json()) == (413, {"error": TOO_LARGE})
    r = client.get("/", environ_overrides={"CONTENT_LENGTH": str(10 ** 9)})
    assert (r.status_code, r.mimetype) == (413, "text/html")
    assert _main_words(r).startswith(f"Sorry {TOO_LARGE} Type a law in the box")


def test_checker_input_is_bounded_before_it_is_validated(client, monkeypatch):
    """A list longer than the schema allows is refused by its length, without
    jsonschema looking at every item (18 s for 5 million in the audit)."""
    from laws.checkers import registry

    def no_validation(*_a, **_kw):
        raise AssertionError("jsonschema should not be reached")

    monkeypatch.setattr(registry.jsonschema, "Draft202012Validator", no_validation)
    body = json.dumps({"scores": [1] * 20_000})
    assert len(body) < MAX_BODY_BYTES
    r = client.post("/api/checkers/matchpoints", json={"scores": [1] * 20_000})
    assert r.get_json() == {"error": "Scores can have at most 1000 entries.", "field": "scores"}
    assert r.status_code == 400
    r = client.post("/api/checkers/board", json={"board": 1, "x" * 5000: 1})
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("This checker has no field 'xxxxxxxx")


# --- 2. nesting ---------------------------------------------------------------------

@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 30_000])
def test_deeply_nested_json_is_a_400(client, depth):
    body = "[" * depth + "]" * depth
    for url in ("/api/checkers/matchpoints", "/api/checkers/auction"):
        r = client.post(url, data=body, content_type="application/json")
        assert _json_error(r, 400) == (f"The request body nests lists or objects more than {MAX_JSON_DEPTH} "
                                       "deep; no checker input does.")


def test_nesting_inside_strings_does_not_count(client):
    r = client.post("/api/checkers/auction", json={"dealer": "N", "calls": ["[" * 200]})
    assert r.status_code == 400
    assert "Calls" in r.get_json()["error"]


# --- 3. raw bytes in the query string ------------------------------------------------

RAW_QUERY_ROUTES = ["/search", "/api/search", "/go", "/compare", "/checkers/score", "/api/diff/35",
                    "/compare/35", "/2007/law/12"]


@pytest.mark.parametrize("path", RAW_QUERY_ROUTES)
def test_non_utf8_query_bytes_are_read_as_replacement_characters(client, path):
    for raw in ("q=\xff", "from=\xff&to=2017", "q=law&edition=\xc3", "\xff=1", "q=%FF%FE"):
        r = client.get(path, environ_overrides={"QUERY_STRING": raw})
        assert r.status_code in (200, 302, 400, 404), (path, raw, r.status_code)
        # what is echoed is the replacement character, never the bytes read as Latin-1 ('\xff' as 'ÿ')
        body = r.get_data(as_text=True)
        assert "ÿ" not in body and "Ã" not in body, (path, raw)


def test_a_bad_byte_in_a_search_and_an_edition_is_named_as_the_replacement_character(client):
    r = client.get("/api/search", environ_overrides={"QUERY_STRING": "q=%FF%FE"})
    assert (r.status_code, r.get_json()["query"], r.get_json()["results"]) == (200, "\ufffd\ufffd", [])
    r = client.get("/api/search", environ_overrides={"QUERY_STRING": "q=law&edition=\xc3"})
    assert (r.status_code, r.get_json()) == (400, {
        "error": "There is no edition '\ufffd'; the editions are 2007, 2017, 1993-rubber, dbrs-2017.",
        "field": "edition"})


def test_non_utf8_search_is_searched_with_the_bad_byte_replaced(client):
    r = client.get("/api/search", environ_overrides={"QUERY_STRING": "q=revoke\xff"})
    assert r.status_code == 200
    assert r.get_json()["query"] == "revoke\ufffd"
    assert r.get_json()["results"], "the word before the bad byte is still searched"


def test_non_utf8_path_bytes_are_a_404(client):
    r = client.get("/", environ_overrides={"PATH_INFO": "/2007/law/\xff"})
    assert (r.status_code, r.mimetype) == (404, "text/html")
    assert _main_words(r).startswith("Not found '\ufffd' is not a law number: laws are numbered 1 to 93.")


# --- 4. numbers ------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "/api/laws/2007/%C2%B2", "/2007/law/%C2%B2", "/compare/%C2%B2", "/api/diff/%C2%B2?from=2007&to=2017",
    "/api/laws/2007/%D9%A3", "/2007/law/%D9%A3", "/api/laws/2007/" + "9" * 5000, "/2007/law/" + "9" * 5000,
    "/compare/" + "9" * 5000, "/api/laws/2007/0012", "/api/laws/2007/%EF%BC%91%EF%BC%92",
])
def test_law_numbers_are_ascii_digits_of_bounded_length(client, url):
    r = client.get(url)
    assert r.status_code == 404, url
    text = r.get_data(as_text=True)
    assert "is not a law number: laws are numbered 1 to 93." in text


@pytest.mark.parametrize("query, field", [
    ("q=law&limit=%C2%B2", "limit"), ("q=law&page=%C2%B9", "page"), ("q=law&limit=" + "9" * 5000, "limit"),
    ("q=law&page=%D9%A3", "page"), ("q=law&limit=-1", "limit"),
])
def test_search_numbers_are_ascii_digits(client, query, field):
    r = client.get("/api/search?" + query)
    assert r.status_code == 400
    assert r.get_json()["field"] == field
    assert client.get("/search?" + query).status_code == 400


# --- 5. /compare/ -------------------------------------------------------------------

@pytest.mark.parametrize("query", ["endpoint=x", "_method=POST", "_external=1", "_scheme=javascript",
                                   "_anchor=x", "from=2007&to=2017&_external=1"])
def test_compare_slash_never_hands_the_query_to_url_for(client, query):
    r = client.get("/compare/?" + query, headers={"Host": "evil.example"})
    assert r.status_code == 301
    location = r.headers["Location"]
    assert location.startswith("/compare"), location
    assert "evil" not in location and "#" not in location


def test_compare_slash_keeps_the_editions(client):
    r = client.get("/compare/?from=2007&to=2017")
    assert r.headers["Location"] == "/compare?from=2007&to=2017"


# --- 11. static files, HSTS -----------------------------------------------------------

def test_static_files_are_compressed_once_not_per_request(app, client, monkeypatch):
    import flask_compress.flask_compress as fc

    def no_compression(*_a, **_kw):
        raise AssertionError("a static file was compressed while serving it")

    monkeypatch.setattr(fc, "_compress_data", no_compression)
    assets = app.extensions["lawbook_assets"]
    with app.test_request_context():
        url = assets.url("site.css")
    original = assets.files["site.css"][0]
    br = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert br.headers["Content-Encoding"] == "br"
    assert brotli.decompress(br.data) == original
    assert "Accept-Encoding" in br.headers["Vary"]
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(gz.data) == original
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data == original
    assert len({br.headers["ETag"], gz.headers["ETag"], plain.headers["ETag"]}) == 3
    again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": br.headers["ETag"]})
    assert again.status_code == 304


def test_hsts_is_off_by_default_and_on_when_configured(built, monkeypatch):
    from app import create_app

    plain = create_app({"TESTING": True, "DATA_DIR": str(built)}).test_client().get("/api/editions")
    assert "Strict-Transport-Security" not in plain.headers
    monkeypatch.setenv("LAWS_HSTS_MAX_AGE", "31536000")
    on = create_app({"TESTING": True, "DATA_DIR": str(built)}).test_client()
    for url in ("/", "/api/editions", "/no-such-page"):
        assert on.get(url).headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


def test_a_bad_hsts_setting_stops_the_app_with_a_message(built, monkeypatch):
    from app import create_app

    monkeypatch.setenv("LAWS_HSTS_MAX_AGE", "a year")
    with pytest.raises(ValueError, match="LAWS_HSTS_MAX_AGE must be a number of seconds"):
        create_app({"TESTING": True, "DATA_DIR": str(built)})


# --- 6. memory per unique search word ------------------------------------------------

def test_unique_search_words_do_not_grow_the_caches_without_bound(built):
    """A word typed by a robot is analysed through a bounded cache and leaves
    nothing behind: only terms the index has are kept, and no more postings
    than the bound."""
    from laws.build import current_store
    from search import analysis
    from search.query import MAX_CACHED_POSTINGS, MAX_CACHED_SLOT_SCORES, Searcher

    s = Searcher(current_store(built).resolve().parent / "index")
    s.search("revoke")
    kept, slots = set(s._post_cache), set(s._slot_cache)
    for i in range(3_000):
        s.search(f"zq{i}x revoke{i}")
    new = set(s._post_cache) - kept
    assert all(s.has_term(ed, field, t) for ed, field, t in new)
    assert len(new) < 200  # the few real words the nonsense was corrected to
    assert s._post_cached == sum(len(sc) for sc, _ in s._post_cache.values()) <= MAX_CACHED_POSTINGS
    assert len(set(s._slot_cache) - slots) < 100  # their slots' scores, as few
    assert s._slot_cache.size == sum(map(len, s._slot_cache.values())) <= MAX_CACHED_SLOT_SCORES
    for i in range(analysis.TERM_CACHE_SIZE + 5_000):
        analysis.term(f"qz{i}word")
    assert analysis.term_cache_size() <= analysis.TERM_CACHE_SIZE
    assert analysis.term("revokes") == analysis.terms("revokes")[0]


# --- 10. bodies that stop short ---------------------------------------------------------

def test_a_body_shorter_than_its_content_length_is_a_400(client):
    import io

    r = client.post("/api/checkers/board", environ_overrides={
        "wsgi.input": io.BytesIO(b'{"board": '), "CONTENT_LENGTH": "100", "CONTENT_TYPE": "application/json"})
    assert _json_error(r, 400) == "The request body could not be read: it ended before its Content-Length."


def test_a_chunked_body_over_the_limit_is_a_413(client):
    import io

    body = b"[" + b"1," * MAX_BODY_BYTES + b"1]"
    r = client.post("/api/checkers/matchpoints", environ_overrides={
        "wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True, "CONTENT_LENGTH": "",
        "CONTENT_TYPE": "application/json"})
    assert (r.status_code, r.get_json()) == (413, {"error": TOO_LARGE})


def test_analysing_new_words_from_many_threads_stays_bounded_and_never_fails():
    """gunicorn's threads analyse queries at once.  Whoosh's own stem cache is
    not thread-safe: past its size it raised 'dictionary changed size during
    iteration' and grew without bound (a worker then answered 500 to every
    search).  The stems are kept in a bounded, thread-safe cache instead."""
    import threading

    from search import analysis

    errors: list[str] = []

    def work(t: int) -> None:
        try:
            for i in range(analysis.TERM_CACHE_SIZE // 3):
                analysis.terms(f"w{t}x{i}zed")
        except Exception as exc:  # noqa: BLE001 (any failure is the finding)
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert analysis.stem_cache_size() <= analysis.TERM_CACHE_SIZE
    assert analysis.terms("revoked penalties") == ["revok", "penalti"]


@pytest.mark.parametrize("raw", ["\r", "\n", "a=1\r\nSet-Cookie: x=1", "q=\x00", "q=\x7f\xff"])
def test_control_characters_in_the_query_never_reach_a_header(client, raw):
    """Found by tests/test_fuzz.py: werkzeug redirects '//x' to '/x' with the
    query string as it came, and a raw CR in it made the Location header
    invalid (a 500).  Raw bytes outside printable ASCII are percent-encoded
    before routing."""
    r = client.get("/api/checkers//evil.example", environ_overrides={"QUERY_STRING": raw})
    assert r.status_code < 500
    location = r.headers.get("Location", "")
    assert "\r" not in location and "\n" not in location
    assert "Set-Cookie" not in r.headers


# --- 12. the Host header, redirects, characters no reply can encode (issue 23) ----------

# Hosts a client can send.  Werkzeug reads one with characters outside
# [a-z0-9.-] as no host, but passed 'a..b' and a label over 63 characters on
# to its router, whose IDNA encoding refused them: the request then had no URL
# adapter, the error page's url_for failed, and so did the 500 page after it.
HOSTILE_HOSTS = ["", ".", "a..b", "a" * 64 + ".example", "x" * 5000, "\xff\xfe", "évil.example", "[::1]",
                 "[::1]:5000", "foo:bar:baz", "<script>alert(1)</script>", "example.org:99999", "a.b" * 30]


def _host_routes(app) -> list[tuple[str, str]]:
    """(method, path) for each kind of route: a page, a static file, the API,
    an error page (404 and 405, HTML and JSON), a 400 JSON reply, redirects."""
    with app.test_request_context(base_url="http://lawbook.example"):
        static = app.extensions["lawbook_assets"].url("site.css")
    return [("GET", "/"), ("GET", "/2007/law/12"), ("GET", static), ("GET", "/static/site.css"),
            ("GET", "/api/editions"), ("GET", "/no-such-page"), ("GET", "/api/no-such-thing"),
            ("DELETE", "/"), ("POST", "/api/checkers/board"), ("GET", "/api//editions"), ("GET", "/2007"),
            ("GET", "/favicon.ico"), ("GET", "/search?q=revoke")]


def _assert_security_headers(r) -> None:
    from laws.web.site import SECURITY_HEADERS

    for name, value in SECURITY_HEADERS.items():
        assert r.headers.get(name) == value, (name, r.status_code)


@pytest.mark.parametrize("host", HOSTILE_HOSTS, ids=lambda h: repr(h[:16]))
def test_a_hostile_host_is_never_a_500_and_never_echoed(app, client, host):
    for method, path in _host_routes(app):
        r = client.open(path, method=method, environ_overrides={"HTTP_HOST": host})
        assert r.status_code < 500, (host[:20], method, path, r.status_code)
        _assert_security_headers(r)
        if len(host) > 5:
            assert host.encode("utf-8") not in r.data, (method, path)
            assert host not in r.headers.get("Location", ""), (method, path)


def test_an_untrusted_host_is_a_400_without_the_host(built):
    """With Flask's TRUSTED_HOSTS set, the router refuses any other host and
    the request has no URL adapter: the error page, which needs one for its
    assets' addresses, is answered as a plain page."""
    from app import create_app

    app = create_app({"TESTING": True, "DATA_DIR": str(built), "TRUSTED_HOSTS": ["lawbook.example"]})
    client = app.test_client()
    for method, path in _host_routes(app):
        r = client.open(path, method=method, environ_overrides={"HTTP_HOST": "evil.example"})
        assert r.status_code == 400, (method, path, r.status_code)
        assert "This site does not answer to the host named in the request." in r.get_data(as_text=True)
        assert b"evil" not in r.data
        _assert_security_headers(r)
    assert client.get("/", environ_overrides={"HTTP_HOST": "lawbook.example"}).status_code == 200


@pytest.mark.parametrize("path, location", [
    ("/api//editions", "/api/editions"), ("/2007//law/12", "/2007/law/12"), ("/2007", "/2007/"),
    ("/api//search?q=revoke", "/api/search?q=revoke"), ("/favicon.ico", None), ("/compare/?from=2007", None),
])
@pytest.mark.parametrize("host", ["lawbook.example", "", "evil.example:8080", "[::1]:5000", "a..b"])
def test_redirects_are_relative(client, path, location, host):
    """The Location of every redirect is a path: no scheme (werkzeug's router
    wrote http:// even behind HTTPS) and no host (it copied the Host header;
    an empty one gave http:///…)."""
    r = client.get(path, base_url="https://lawbook.example", environ_overrides={"HTTP_HOST": host})
    assert 300 <= r.status_code < 400, r.status_code
    got = r.headers["Location"]
    assert got.startswith("/") and not got.startswith("//"), got
    assert location is None or got == location
    _assert_security_headers(r)


# Lone surrogates: JSON can write them ("\ud800"), Python reads them into a
# str, and UTF-8 cannot encode them.  A message or a "field" quoting such a key
# or value made the reply itself fail (a 500).
UNENCODABLE = ["\ud800", "a\udfffb", "\udc80" * 3, "\ud83d"]


def _json_post_routes(app) -> list[str]:
    """Every JSON route taking a body, from the URL map (a checker route for each checker)."""
    from laws.checkers import registry

    out = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and "POST" in rule.methods:
            if rule.arguments == {"checker_id"}:
                out += [rule.rule.replace("<checker_id>", c.id) for c in registry.all_checkers()]
            else:
                assert not rule.arguments, rule.rule
                out.append(rule.rule)
    return sorted(out)


def _field_names(app, client, url: str) -> list[str]:
    from laws.rulings.play import FIELDS as PLAY_FIELDS

    if url.startswith("/api/checkers/"):
        return list(client.get(url).get_json()["input_schema"]["properties"])
    return sorted(set(PLAY_FIELDS) | {"dealer", "calls", "procedure", "answers"})


def _encodable_json_error(r) -> dict:
    assert r.status_code < 500, (r.status_code, r.data[:300])
    assert r.content_type == "application/json"
    body = json.loads(r.data.decode("utf-8"))  # strict: the reply is UTF-8
    _assert_security_headers(r)
    return body


def test_every_json_route_answers_unencodable_input_with_an_encodable_reply(app, client):
    routes = _json_post_routes(app)
    assert {"/api/checkers/board", "/api/checkers/matchpoints", "/api/rulings/auction", "/api/rulings/play",
            "/api/rulings/guided"} <= set(routes)
    for url in routes:
        bodies = [{bad: 1} for bad in UNENCODABLE]
        for name in _field_names(app, client, url):
            for bad in UNENCODABLE[:2]:
                bodies += [{name: bad}, {name: [bad, [bad]]}, {name: {bad: bad}}]
        for body in bodies:
            # json.dumps writes a lone surrogate as the escape \ud800, as a client would
            r = client.post(url, data=json.dumps(body), content_type="application/json")
            reply = _encodable_json_error(r)
            if r.status_code == 400:
                assert reply["error"]


@pytest.mark.parametrize("url", ["/api/checkers/board", "/api/checkers/matchpoints", "/api/rulings/auction",
                                 "/api/rulings/play"])
def test_an_unknown_field_with_an_unencodable_name_is_named_with_an_escape(client, url):
    r = client.post(url, data='{"\\ud800x": 1}', content_type="application/json")
    reply = _encodable_json_error(r)
    assert r.status_code == 400
    assert reply["field"] == "\\ud800x"
    assert "no field '\\ud800x'" in reply["error"]


def test_an_unencodable_reply_is_escaped_not_a_500(app):
    """The last line: whatever a view puts in a JSON reply, the reply encodes."""
    with app.test_request_context():
        from flask import jsonify

        r = jsonify({"k\ud800": ["\udfff", "ok"]})
    assert json.loads(r.get_data().decode("utf-8")) == {"k\ud800": ["\udfff", "ok"]}
