"""Hostile input through a real gunicorn (issues 15 and 23), over raw sockets:
the bytes a test client would encode, malformed bodies, clients that stop
sending, any Host header.  The server is started here, on a free port, with
the production settings (laws.web.gunicorn_config), serving the session's build."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import ROOT
from laws.web.gunicorn_config import BODY_TIMEOUT
from laws.web.limits import MAX_BODY_BYTES
from test_app_main import _free_port


@pytest.fixture(scope="module")
def server(built):
    port = _free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(built), "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "4"}
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:laws.web.gunicorn_config",
                             "-b", f"127.0.0.1:{port}", "app:create_app()"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/editions", timeout=2):
                break
        except OSError:
            assert proc.poll() is None, proc.stdout.read()
            assert time.monotonic() < deadline, "gunicorn did not come up"
            time.sleep(0.2)
    yield port
    proc.terminate()
    out, _ = proc.communicate(timeout=15)
    # the app logs every 500 it answers ("unexpected error at ..."): there must be none
    assert "unexpected error" not in out, out[-3000:]
    # nor an error page that failed to render (laws.web.errors falls back to a plain page)
    assert "the error page failed" not in out, out[-3000:]


def exchange(port: int, data: bytes, timeout: float = 15.0, close_write: bool = True) -> bytes:
    """Send `data` as it is, then read the reply until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if close_write:
            s.shutdown(socket.SHUT_WR)
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
        return b"".join(chunks)


def status(reply: bytes) -> int:
    assert reply.startswith(b"HTTP/1."), reply[:200]
    return int(reply.split(b" ", 2)[1])


def get(path: bytes, headers: bytes = b"") -> bytes:
    return b"GET " + path + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + headers + b"\r\n"


@pytest.mark.parametrize("path", [b"/search", b"/api/search", b"/go", b"/compare", b"/checkers/score",
                                  b"/api/diff/35", b"/compare/35"])
def test_raw_non_utf8_query_bytes(server, path):
    for query in (b"?q=\xff", b"?from=\xff&to=2017", b"?q=law&edition=\xc3", b"?\xff\xfe=1"):
        reply = exchange(server, get(path + query))
        assert status(reply) < 500, (path + query, reply[:300])


def test_raw_bytes_in_the_request_line_are_refused_by_gunicorn(server):
    """gunicorn 27 itself refuses a request line that is not ASCII; the app reads
    such bytes safely all the same (test_hostile.py), for servers that pass them."""
    for path in (b"/api/search?q=revoke\xff", b"/2007/law/\xff"):
        assert status(exchange(server, get(path))) == 400


@pytest.mark.parametrize("path", [b"/api/laws/2007/%C2%B2", b"/2007/law/%C2%B2", b"/compare/%C2%B2",
                                  b"/api/laws/2007/" + b"9" * 3000])
def test_odd_numbers_are_404(server, path):
    assert status(exchange(server, get(path))) == 404


def _post(path: bytes, body: bytes, headers: bytes) -> bytes:
    return (b"POST " + path + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\n" + headers + b"\r\n" + body)


def test_malformed_chunked_body_is_a_400(server):
    for body in (b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n", b"ffffffffffffffffffff\r\n{}\r\n"):
        reply = exchange(server, _post(b"/api/checkers/board", body, b"Transfer-Encoding: chunked\r\n"))
        assert 400 <= status(reply) < 500, reply[:300]


def test_chunked_body_over_the_limit_is_a_413(server):
    """A chunked body declares no length: it is cut off where it passes the limit."""
    chunk = b"[" + b"1," * (MAX_BODY_BYTES // 2) + b"1]"
    body = b"%x\r\n" % len(chunk) + chunk + b"\r\n0\r\n\r\n"
    reply = exchange(server, _post(b"/api/checkers/matchpoints", body, b"Transfer-Encoding: chunked\r\n"))
    assert status(reply) == 413


def test_declared_length_over_the_limit_is_refused_at_once(server):
    t0 = time.monotonic()
    reply = exchange(server, _post(b"/api/checkers/matchpoints", b"{",
                                   b"Content-Length: %d\r\n" % (10 * 1024 * 1024)), close_write=False)
    assert status(reply) == 413
    assert b"at most 64 KB" in reply
    assert time.monotonic() - t0 < BODY_TIMEOUT / 2


def test_deep_nesting_is_a_400(server):
    body = b"[" * 1000 + b"]" * 1000
    reply = exchange(server, _post(b"/api/checkers/matchpoints", body, b"Content-Length: %d\r\n" % len(body)))
    assert status(reply) == 400


def test_short_body_does_not_hold_the_server(server):
    """A client that promises 100 bytes, sends 10 and waits: it gets a 408 after
    the body timeout, and meanwhile everyone else is served."""
    slow = socket.create_connection(("127.0.0.1", server), timeout=BODY_TIMEOUT + 10)
    try:
        slow.sendall(_post(b"/api/checkers/board", b'{"board": ', b"Content-Length: 100\r\n"))
        t0 = time.monotonic()
        for _ in range(5):
            assert status(exchange(server, get(b"/api/editions"))) == 200
        assert time.monotonic() - t0 < BODY_TIMEOUT / 2
        reply = b""
        while chunk := slow.recv(65536):
            reply += chunk
        assert status(reply) == 408, reply[-300:]
        assert b"did not arrive in time" in reply
    finally:
        slow.close()


# --- the Host header, redirects, unencodable JSON (issue 23) --------------------------------

# Host headers as bytes on the wire: empty, labels werkzeug's router cannot
# encode (an empty one, one over 63 characters), 5000 characters, non-ASCII
# bytes, IPv6 literals, colons, markup.
HOSTILE_HOSTS = [b"", b".", b"a..b", b"a" * 64 + b".example", b"x" * 5000, b"\xff\xfe\xc3", b"\xc3\xa9vil.example",
                 b"[::1]", b"[::1]:5000", b"foo:bar:baz", b"<script>alert(1)</script>", b"example.org:99999"]
# a page, static files, the API, error pages (HTML and JSON), redirects
HOST_PATHS = [b"/", b"/2007/law/12", b"/static/site.css", b"/api/editions", b"/no-such-page", b"/api/nothing",
              b"/api//editions", b"/2007", b"/favicon.ico"]
SECURITY_HEADER_NAMES = [b"content-security-policy", b"x-content-type-options", b"x-frame-options",
                         b"referrer-policy"]


def head_of(reply: bytes) -> dict[bytes, bytes]:
    lines = reply.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines)}


@pytest.mark.parametrize("host", HOSTILE_HOSTS, ids=lambda h: repr(h[:16]))
def test_a_hostile_host_is_served_with_the_security_headers(server, host):
    """A Host werkzeug could not bind made every page, static file and error
    page a bare 500 from gunicorn, with no security headers and two tracebacks."""
    for path in HOST_PATHS:
        reply = exchange(server, b"GET " + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        assert status(reply) < 500, (host[:20], path, reply[:300])
        head = head_of(reply)
        for name in SECURITY_HEADER_NAMES:
            assert name in head, (host[:20], path, name)
        if len(host) > 5:
            assert host not in reply, (host[:20], path)


@pytest.mark.parametrize("host", [b"lawbook.example", b"", b"a..b", b"[::1]:5000"])
def test_a_merged_slash_redirect_is_a_path(server, host):
    """werkzeug's router answered `//` with 308 to http://<Host>/… (http even
    behind HTTPS, http:///… with no Host)."""
    reply = exchange(server, b"GET /api//editions?x=1 HTTP/1.1\r\nHost: " + host + b"\r\n"
                             b"X-Forwarded-Proto: https\r\nConnection: close\r\n\r\n")
    assert status(reply) == 308
    assert head_of(reply)[b"location"] == b"/api/editions?x=1"


@pytest.mark.parametrize("path", [b"/api/checkers/board", b"/api/checkers/matchpoints", b"/api/rulings/auction",
                                  b"/api/rulings/play", b"/api/rulings/guided"])
def test_a_lone_surrogate_in_a_json_key_is_a_400(server, path):
    for body in (b'{"\\ud800": 1}', b'{"board": "\\udfff", "scores": ["\\ud800"], "calls": [["N", "\\ud800"]]}'):
        reply = exchange(server, _post(path, body, b"Content-Length: %d\r\n" % len(body)))
        assert status(reply) == 400, reply[:300]
        reply_body = json.loads(reply.split(b"\r\n\r\n", 1)[1].decode("utf-8"))
        assert reply_body["error"]
        assert b"content-security-policy" in head_of(reply)
