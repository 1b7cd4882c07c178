"""gunicorn settings for serving Lawbook in production:

    gunicorn -c python:laws.web.gunicorn_config -b 0.0.0.0:8000 'app:create_app()'

Why these values:

* Threaded workers (gthread): a slow client holds one thread, never a whole
  worker, and gunicorn waits for a request's first bytes in its poller
  rather than in a thread.  Every request is short (a page or a search is a
  few milliseconds of CPU), so a few threads per worker keep the cores busy.
* BODY_TIMEOUT: a client that declares a Content-Length and then sends less
  would otherwise hold its thread until it hangs up.  The body is read with
  this socket timeout (the app answers 408); the largest body the app accepts
  is 64 KB, which needs far less than this even on a poor phone connection.
* After a body could not be read (a malformed chunk, the timeout), the
  connection is closed once the app's 4xx has been sent: what follows on it
  can no longer be told apart from the next request.
* timeout: a worker silent this long is restarted.  No request comes near it.
* Each worker opens the search index before taking requests (post_worker_init).
* Request line and headers: gunicorn's defaults (4094-byte line, 100 fields of
  8190 bytes) are kept, explicitly; the app's addresses and queries are far
  shorter (a search query is cut at 300 characters).

WEB_CONCURRENCY (workers, default 2) and GUNICORN_THREADS (default 4) adjust
the pool to the machine.
"""
from __future__ import annotations

import os
import socket

from laws.web.limits import BODY_ERROR

BODY_TIMEOUT = 10.0  # seconds

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = 20
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


def post_worker_init(worker):
    """Open the search index before the worker takes requests (its editions'
    documents and statistics: a few milliseconds), so no request waits for it."""
    from search.web import searcher

    try:
        with worker.wsgi.app_context():
            searcher()
    except Exception:  # noqa: BLE001 (no store yet: the pages say so, the worker still starts)
        worker.log.warning("no search index to open yet")


def pre_request(worker, req):
    """Read this request's body with a timeout (see BODY_TIMEOUT)."""
    sock = getattr(getattr(req, "unreader", None), "sock", None)
    if sock is not None:
        sock.settimeout(BODY_TIMEOUT)


def post_request(worker, req, environ, resp):
    """Close a connection whose request body could not be read, now that the
    app's answer has been sent."""
    if environ.get(BODY_ERROR):
        sock = environ.get("gunicorn.socket")
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
