"""The front server (issue 23): nginx, configured by laws/web/nginx.conf.template,
in front of gunicorn with the production settings, serving the session's build.

Slow clients are the reason it is there: gunicorn's threads read requests
themselves, so fifty phones trickling their headers or bodies hold every
thread.  Through nginx, ordinary requests go on being answered while they
trickle.  Needs nginx (`apt-get install -y nginx`; .ci/run installs it)."""
from __future__ import annotations

import functools
import gzip
import importlib.util
import shutil
import time
import urllib.request
from pathlib import Path

import brotli
import pytest

from conftest import ROOT
from test_hostile_gunicorn import exchange

_spec = importlib.util.spec_from_file_location("bench_serve", ROOT / "bench" / "serve.py")
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="needs nginx (apt-get install -y nginx)")

SLOW = 50  # slow connections held open
ORDINARY = 20  # ordinary requests that must all be answered meanwhile
CAP = 10.0  # seconds: the test's bound, not a timing assertion
CLIENT_TIMEOUT = 3  # the test server's client timeouts (production: 10 s)


@pytest.fixture(scope="module")
def prerendered(tmp_path_factory):
    """A build as the build command makes it, its pages pre-rendered: the
    session's one such build (tests/test_prerender.py reads it too)."""
    from conftest import shared_build

    return shared_build(tmp_path_factory, pages=True)


@pytest.fixture(scope="module")
def gunicorn(prerendered):
    # one worker of four threads: few enough that holding them all is easy
    with serve.gunicorn(prerendered, workers=1, threads=4) as (base, _):
        yield int(base.rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def front(gunicorn):
    with serve.front(f"127.0.0.1:{gunicorn}", client_timeout=CLIENT_TIMEOUT) as base:
        yield int(base.rsplit(":", 1)[1])


# the raw-socket exchange of the gunicorn tests, without closing our side
# first: a front server may read a half-closed connection as a finished client
request = functools.partial(exchange, close_write=False)


def head(reply: bytes) -> tuple[int, dict[str, str]]:
    lines = reply.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), fields


def ordinary_requests(port: int, n: int, cap: float) -> list[int | str]:
    """n ordinary requests, one after another, each given what is left of
    `cap`: their statuses, or what went wrong."""
    deadline = time.monotonic() + cap
    out: list[int | str] = []
    paths = ["/", "/2017/law/12", "/search?q=revoke", "/api/editions", "/2007/law/16"]
    for i in range(n):
        left = deadline - time.monotonic()
        if left <= 0:
            out.append("no time left")
            continue
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{paths[i % len(paths)]}", timeout=left) as r:
                out.append(r.status)
        except Exception as e:  # noqa: BLE001 (the test reports what went wrong)
            out.append(type(e).__name__)
    return out


def test_fifty_slow_clients_do_not_starve_ordinary_requests(front):
    # (gunicorn alone, with the same slow clients, answers none of the twenty:
    # the first times out and no time is left for the others)
    with serve.SlowClients(front, SLOW):
        time.sleep(1.0)  # every slow client connected and trickling
        assert ordinary_requests(front, ORDINARY, CAP) == [200] * ORDINARY


def test_a_client_that_stops_sending_headers_is_cut_off(front):
    start = time.monotonic()
    reply = request(front, b"GET / HTTP/1.1\r\nHost: a", timeout=CLIENT_TIMEOUT + 10)
    # nginx closes it (with no reply, or a 408) once the header timeout passes
    assert reply in (b"",) or head(reply)[0] == 408, reply[:200]
    assert time.monotonic() - start < CLIENT_TIMEOUT + 5


def test_redirects_are_relative_whatever_the_host(front):
    for host in (b"evil.example", b"lawbook.example:8443"):
        status, fields = head(request(front, b"GET //2017//law/12 HTTP/1.1\r\nHost: " + host +
                                      b"\r\nConnection: close\r\n\r\n"))
        assert (status, fields["location"]) == (308, "/2017/law/12")


def test_hostile_hosts_get_a_4xx_not_a_5xx(front):
    for host in (b"a..b", b"x" * 300, b"", b"[::1]", b"\xff\xfe"):
        status, _ = head(request(front, b"GET /2017/law/12 HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"))
        assert status in (200, 400), (host, status)


def test_the_apps_headers_pass_through_untouched(front, gunicorn):
    ask = b"GET /2017/law/12 HTTP/1.1\r\nHost: lawbook.example\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n"
    via_front, direct = head(request(front, ask)), head(request(gunicorn, ask))
    keep = ("content-security-policy", "content-encoding", "cache-control", "etag", "vary", "x-content-type-options",
            "referrer-policy", "content-type")
    assert via_front[0] == direct[0] == 200
    assert {k: via_front[1].get(k) for k in keep} == {k: direct[1].get(k) for k in keep}
    assert "server" not in via_front[1] or "nginx/" not in via_front[1]["server"]  # no version given away


# one page of each kind the build pre-renders (tests/test_prerender.py has them all)
PAGE_KINDS = ["/", "/2017/", "/2017/law/12", "/2007/definitions", "/2017/index", "/guide", "/guide/topic:notes",
              "/compare/40?from=2007&to=2017", "/compare?from=2007&to=2017", "/compare", "/sources",
              "/offline/pages.json", "/offline/editions/2007.json"]
HOP_BY_HOP = ("date", "server", "connection", "keep-alive", "transfer-encoding")


def decoded(encoding: str | None, body: bytes) -> bytes:
    # the JSON lists are compressed per request by Flask-Compress, whose gzip
    # header holds the time: compare what they say, not their bytes
    return {"br": brotli.decompress, "gzip": gzip.decompress}.get(encoding, bytes)(body)


def test_pre_rendered_pages_have_the_apps_headers_through_the_front_server(front, gunicorn):
    """Every kind of pre-rendered page, in each encoding, through nginx: the
    same status, headers and bytes as from gunicorn itself (nginx passes
    pages to the app, which sends their files: nginx.conf.template says why)."""
    differ = []
    for path in PAGE_KINDS:
        for accept in (b"br, gzip", b"gzip", b""):
            ask = (b"GET " + path.encode() + b" HTTP/1.1\r\nHost: lawbook.example\r\nAccept-Encoding: " + accept
                   + b"\r\nConnection: close\r\n\r\n")
            answers = []
            for port in (front, gunicorn):
                reply = request(port, ask)
                status, fields = head(reply)
                answers.append((status, {k: v for k, v in fields.items() if k not in HOP_BY_HOP},
                                decoded(fields.get("content-encoding"), reply.split(b"\r\n\r\n", 1)[1])))
            if answers[0] != answers[1] or answers[0][0] != 200:
                differ.append((path, accept, answers[0][:2], answers[1][:2]))
    assert differ == []


def test_a_body_over_the_apps_limit_is_refused_before_the_app(front):
    body = b"{" + b" " * (70 * 1024) + b"}"
    status, _ = head(request(front, b"POST /api/checkers/score HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                                    b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body))
    assert status == 413
