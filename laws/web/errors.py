"""Errors as users see them: JSON under /api, a friendly page elsewhere.

Never a traceback: anything unexpected is logged and answered with a plain
message.
"""
from __future__ import annotations

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from laws.errors import BadInput
from laws.queries import NotFound
from laws.web.db import StoreMissing


# the domain's error for correctable input, answered here with a 400
BadRequest = BadInput


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def respond(status: int, message: str, **extra):
    if _wants_json():
        return jsonify({"error": message, **extra}), status
    return render_template("error.html", status=status, message=message), status


def init_app(app) -> None:
    @app.errorhandler(NotFound)
    def not_found(exc):
        return respond(404, str(exc))

    @app.errorhandler(BadRequest)
    def bad_request(exc):
        extra = {"field": exc.field} if exc.field else {}
        return respond(400, str(exc), **extra)

    @app.errorhandler(StoreMissing)
    def store_missing(exc):
        return respond(503, "The laws have not been built yet: run `flask --app app build`.")

    @app.errorhandler(HTTPException)
    def http_error(exc):
        messages = {
            404: f"There is nothing at {request.path}.",
            405: f"{request.method} is not allowed at {request.path}.",
        }
        return respond(exc.code or 500, messages.get(exc.code, exc.description or exc.name))

    @app.errorhandler(Exception)
    def unexpected(exc):
        app.logger.exception("unexpected error at %s", request.path)
        return respond(500, "Something went wrong on our side; the error has been logged.")
