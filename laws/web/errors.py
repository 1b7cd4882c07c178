"""Errors as users see them: JSON under /api, a friendly page elsewhere.

Never a traceback: anything unexpected is logged and answered with a plain
message.  Every message is made encodable (`quotable`: a lone surrogate from a
JSON body is written as its escape), and an error page that cannot render
(it needs the router, for its assets' addresses) falls back to a plain page,
so an error is never a bare 500 without the security headers.
"""
from __future__ import annotations

from flask import current_app, jsonify, render_template, request
from flask.globals import request_ctx
from markupsafe import escape
from werkzeug.exceptions import HTTPException, SecurityError

from laws.errors import BadInput, quotable
from laws.queries import NotFound
from laws.web.db import StoreMissing, StoreOutdated
from laws.web.limits import TOO_LARGE, NumberRefused


# the domain's error for correctable input, answered here with a 400
BadRequest = BadInput


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def respond(status: int, message: str, **extra):
    message = quotable(message)
    extra = {k: quotable(v) if isinstance(v, str) else v for k, v in extra.items()}
    if _wants_json():
        return jsonify({"error": message, **extra}), status
    if request_ctx.url_adapter is None:
        # the router refused the request's host (Flask's TRUSTED_HOSTS, when
        # set): the page's asset addresses cannot be built, a plain page is the answer
        return _plain_page(message), status
    try:
        return render_template("error.html", status=status, message=message), status
    except Exception:  # noqa: BLE001 (the page's own failure must not hide the answer)
        current_app.logger.exception("the error page failed at %s", request.path)
        return _plain_page(message), status


def _plain_page(message: str) -> str:
    """The error page without the template, for when the template cannot render."""
    return (f"<!doctype html><meta charset=utf-8><title>Lawbook</title><h1>Lawbook</h1>"
            f"<p>{escape(message)}</p><p><a href=\"/\">The editions</a></p>")


def init_app(app) -> None:
    @app.errorhandler(NotFound)
    def not_found(exc):
        return respond(404, str(exc))

    @app.errorhandler(BadRequest)
    def bad_request(exc):
        extra = {"field": exc.field} if exc.field else {}
        return respond(400, str(exc), **extra)

    @app.errorhandler(NumberRefused)
    def number_refused(exc):
        # the JSON routes' 400s name a field, null when the body as a whole is at fault
        return respond(400, exc.description, field=exc.field)

    @app.errorhandler(StoreMissing)
    def store_missing(exc):
        if isinstance(exc, StoreOutdated):
            return respond(503, str(exc))
        return respond(503, "The laws have not been built yet: run `flask --app app build`.")

    @app.errorhandler(HTTPException)
    def http_error(exc):
        messages = {
            404: f"There is nothing at {request.path}.",
            405: f"{request.method} is not allowed at {request.path}.",
            413: TOO_LARGE,
        }
        if isinstance(exc, SecurityError):  # werkzeug's message quotes the Host: not echoed
            return respond(400, "This site does not answer to the host named in the request.")
        return respond(exc.code or 500, messages.get(exc.code, exc.description or exc.name))

    @app.errorhandler(Exception)
    def unexpected(exc):
        app.logger.exception("unexpected error at %s", request.path)
        return respond(500, "Something went wrong on our side; the error has been logged.")
