"""What a request may be, and how its raw parts are read: one place for every
route, so that no hostile input reaches a view as a 500.

* Size: a body over MAX_BODY_BYTES is refused with 413 as soon as its
  Content-Length is seen, before it is read (a chunked body, which declares
  no length, is cut off when it passes the limit).  The largest input any
  checker takes (1000 matchpoint scores) is under 8 KB, so 64 KB leaves room
  and still keeps one request's parsing and validation to a few milliseconds.
* JSON nesting: Python's parser recurses, so `[[[[...` a thousand deep is a
  RecursionError; no checker input is more than a few levels deep, so a body
  nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
* Raw bytes: a query string or form body that is not UTF-8 (gunicorn passes
  `?q=%FF` decoded but `?q=\\xff` as it came) is read with the bad bytes as
  U+FFFD instead of raising UnicodeDecodeError; raw bytes outside printable
  ASCII in a query string are percent-encoded before routing.
* The body stream: an error while reading it (a malformed chunk, a client that
  sends less than its Content-Length and stops) is a 400 or 408, not a 500.
* Numbers in JSON: a literal over MAX_NUMBER_CHARS characters is refused
  before it is parsed, naming the field that holds it (`0.` and 60,000 nines
  is read by float as 1.0, a board number; an integer of thousands of digits
  costs `int` real time); NaN and Infinity, which Python's parser accepts and
  JSON has not, are refused the same way.  A number written with a point or
  an exponent is read by what it says: a whole number (5.0, 1E2) is that
  integer, as JSON Schema counts it; a fraction a float would round to a
  whole number, or a whole number of more than MAX_NUMBER_CHARS digits
  (1e400), is refused naming its field.  Whether a number is whole where a
  whole number is due is the domain's to say (laws.checkers.registry).
* Numbers in addresses: ASCII digits only, at most MAX_NUMBER_DIGITS of them
  (`str.isdigit` accepts '²', which `int` rejects; a number of 5000 digits
  costs `int` real time): `number_arg` and `law_number` are the only way
  routes read one.
* The Host header: the site builds no absolute URL, so it never needs the
  host.  Werkzeug reads a Host of invalid characters as no host, but hands
  'a..b' or a label over 63 characters to its router, whose IDNA encoding
  fails: with no URL adapter every page, and the error page, failed (a bare
  500).  Such a Host is read as no host too (`unreadable_host_as_none`).
* Redirects: the Location is always a path.  Werkzeug's router (a `//` merged,
  a slash added) writes `http://<Host>/…`; its address is cut to the path
  (`relative_redirect`), so no Host reaches a header and HTTPS stays HTTPS.
* Replies: a lone surrogate (JSON's "\\ud800") read from a body cannot be
  encoded as UTF-8; messages quote input through `laws.errors.quotable`, and
  the JSON encoder escapes any left, so a reply always encodes.
"""
from __future__ import annotations

from decimal import Decimal

import re
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from flask import Request, abort, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest as HTTPBadRequest
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestTimeout
from werkzeug.formparser import FormDataParser
from werkzeug.routing import RequestRedirect
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream, get_host

from laws.errors import quotable

MAX_BODY_BYTES = 64 * 1024
MAX_JSON_DEPTH = 20
MAX_NUMBER_DIGITS = 3  # law numbers (1 to 93); a query argument allows the digits of its maximum
MAX_FORM_PARTS = 200
MAX_NUMBER_CHARS = 30  # a number literal in input: 10**29 is more than any count or score of bridge

TOO_LARGE = (f"The request is too large: at most {MAX_BODY_BYTES // 1024} KB is accepted "
             "(the largest input a checker takes is a few KB).")
TOO_DEEP = f"The request body nests lists or objects more than {MAX_JSON_DEPTH} deep; no checker input does."
BODY_UNREADABLE = "The request body could not be read"
BODY_ERROR = "lawbook.body_error"  # set in the WSGI environ when reading the body failed

_ASCII_DIGITS = re.compile(r"[0-9]+")
_RAW_IN_QUERY = re.compile(r"[^\x21-\x7e]")  # a query string as sent is printable ASCII
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


# --- numbers ---------------------------------------------------------------------

def ascii_number(text: str | None, digits: int = MAX_NUMBER_DIGITS) -> int | None:
    """`text` as a whole number when it is 1 to `digits` ASCII digits, else None."""
    if text is None or not 0 < len(text) <= digits or not _ASCII_DIGITS.fullmatch(text):
        return None
    return int(text)


def law_number(text: str) -> int:
    """A law number from an address, or NotFound in words a user understands."""
    from laws.queries import NotFound

    n = ascii_number(text)
    if n is None or not 1 <= n <= 999:
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise NotFound(f"'{shown}' is not a law number: laws are numbered 1 to 93.")
    return n


def number_arg(name: str, default: int, low: int, high: int) -> int:
    """The query argument `name` as a whole number from `low` to `high`."""
    from laws.web.errors import BadRequest

    raw = request.args.get(name, "").strip()
    if not raw:
        return default
    n = ascii_number(raw, digits=len(str(high)))
    if n is None or not low <= n <= high:
        raise BadRequest(f"'{name}' must be a whole number from {low} to {high}.", field=name)
    return n


# --- JSON ------------------------------------------------------------------------------

class NumberRefused(HTTPBadRequest):
    """A number in a JSON body the app does not read, with the field holding it
    (answered by laws.web.errors as the other input errors: 400 {error, field})."""

    def __init__(self, message: str, field: str | None):
        super().__init__(message)
        self.field = field


class _Refused:
    """A number literal the parser was handed and did not read: the walk after
    parsing finds the field holding it, which the parser's hooks cannot see."""

    __slots__ = ("in_field", "in_body")

    def __init__(self, in_field: str, in_body: str):
        self.in_field, self.in_body = in_field, in_body  # what is wrong, said of a field / of the body


def _field_name(path: list[str]) -> str:
    return ".".join(k if len(k) <= 40 else k[:40] + "…" for k in path)


def _find_refused(value, path: list[str]) -> tuple[_Refused, list[str]] | None:
    # recursion is bounded: the body's nesting was checked first (MAX_JSON_DEPTH)
    if isinstance(value, _Refused):
        return value, path
    if isinstance(value, dict):
        items = ((path + [k], v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((path, v) for v in value)
    else:
        return None
    for p, v in items:
        found = _find_refused(v, p)
        if found is not None:
            return found
    return None


def loads_numbers_bounded(text, loads, **kwargs):
    """`loads(text)` with number literals over MAX_NUMBER_CHARS characters, NaN
    and Infinity refused by a NumberRefused naming the field that holds one."""
    refused: list[_Refused] = []

    def refuse(in_field: str, in_body: str) -> _Refused:
        refused.append(_Refused(in_field, in_body))
        return refused[-1]

    def number(parse):
        def hook(literal: str):
            n = len(literal)
            if n > MAX_NUMBER_CHARS:
                return refuse(f"must be a number of at most {MAX_NUMBER_CHARS} characters (it has {n})",
                              f"holds a number of {n} characters; at most {MAX_NUMBER_CHARS} are read")
            return parse(literal)
        return hook

    def fraction(literal: str):
        # The literal decides, not the float it rounds to: a whole number
        # written with a point or an exponent (5.0, 1E2) is the integer it
        # says, as JSON Schema counts it; a fraction that a float would read
        # as a whole number (0.99999999999999999999 -> 1.0) is refused, and
        # so is a whole number too large for any count of bridge (1e400).
        exact = Decimal(literal)
        if exact == exact.to_integral_value():
            if exact.adjusted() >= MAX_NUMBER_CHARS:
                return refuse(f"is too large: a number of at most {MAX_NUMBER_CHARS} digits is read",
                              f"holds a number of more than {MAX_NUMBER_CHARS} digits")
            return int(exact)
        read = float(literal)
        if read.is_integer():
            return refuse(f"is not read exactly: {literal} would be read as {read:g}",
                          f"holds {literal}, which would be read as {read:g}")
        return read

    def constant(name: str):
        return refuse(f"must be a number: {name} is not one in JSON", f"holds {name}, which is not a number in JSON")

    value = loads(text, parse_int=number(int), parse_float=number(fraction), parse_constant=constant, **kwargs)
    if refused:
        found, path = _find_refused(value, [])  # type: ignore[misc]
        if path:
            raise NumberRefused(f"{_field_name(path)} {found.in_field}.", _field_name(path))
        raise NumberRefused(f"The request body {found.in_body}.", None)
    return value


def json_depth(text: str | bytes) -> int:
    """How deep lists and objects nest in a JSON text (brackets inside strings
    do not count).  Linear in the text, which the size limit bounds."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        c = m[0]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, refusing a body nested deeper than any input needs or a
    number longer than any input needs, and writing only what UTF-8 can encode."""

    def loads(self, s, **kwargs):
        if json_depth(s) > MAX_JSON_DEPTH:
            raise HTTPBadRequest(TOO_DEEP)
        return loads_numbers_bounded(s, super().loads, **kwargs)

    def dumps(self, obj, **kwargs):
        # ensure_ascii is off (readable replies), so a lone surrogate from the
        # input would reach the reply raw and fail to encode: the last line,
        # whatever a view echoes.  Surrogates appear only inside JSON strings,
        # where their \uXXXX escape is what ensure_ascii would have written.
        return quotable(super().dumps(obj, **kwargs))


# --- the request ------------------------------------------------------------------------

class _GuardedStream:
    """The body stream: an error from the server while reading it (gunicorn's
    InvalidChunkSize, a socket timeout) becomes an HTTP error for the client,
    and the environ records it so the server closes the connection."""

    def __init__(self, stream, environ):
        self._stream, self._environ = stream, environ

    def _guard(self, method, *args):
        try:
            return method(*args)
        except ClientDisconnected as exc:  # werkzeug's word for a body that stopped short
            self._environ[BODY_ERROR] = True
            if isinstance(exc.__context__, TimeoutError):
                raise RequestTimeout(f"{BODY_UNREADABLE}: it did not arrive in time.") from None
            raise HTTPBadRequest(f"{BODY_UNREADABLE}: it ended before its Content-Length.") from None
        except HTTPException:
            raise
        except TimeoutError:
            self._environ[BODY_ERROR] = True
            raise RequestTimeout(f"{BODY_UNREADABLE}: it did not arrive in time.") from None
        except Exception as exc:  # noqa: BLE001 (the server's own parse errors have no common base)
            self._environ[BODY_ERROR] = True
            raise HTTPBadRequest(f"{BODY_UNREADABLE}: {type(exc).__name__}.") from None

    def read(self, size=-1):
        data = self._guard(self._stream.read, size)
        if (size is None or size < 0) and isinstance(self._stream, LimitedStream) and self._stream.is_exhausted:
            # a body of no declared length (chunked) stopped at the limit:
            # reading on tells whether there was more (413) or not
            self._guard(self._stream.read, 1)
        return data

    def readline(self, *args):
        return self._guard(self._stream.readline, *args)

    def readlines(self, *args):
        return self._guard(self._stream.readlines, *args)

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line


class _FormParser(FormDataParser):
    def _parse_urlencoded(self, stream, mimetype, content_length, options):
        items = parse_qsl(stream.read().decode("utf-8", "replace"), keep_blank_values=True,
                          errors="replace")
        return stream, self.cls(items), self.cls()


class SafeRequest(Request):
    form_data_parser_class = _FormParser

    @cached_property
    def args(self):
        return self.parameter_storage_class(
            parse_qsl(self.query_string.decode("utf-8", "replace"), keep_blank_values=True, errors="replace"))

    @cached_property
    def stream(self):
        return _GuardedStream(super().stream, self.environ)


def _percent_encode(m: re.Match) -> str:
    c = m[0]
    return "".join(f"%{b:02X}" for b in (c.encode("latin-1") if ord(c) < 256 else c.encode("utf-8")))


def quote_raw_query(wsgi_app):
    """WSGI middleware: bytes of the query string outside printable ASCII
    (a raw CR, \xff) percent-encoded before routing.  Reading the arguments
    gives the same text, and werkzeug, which copies the query string into
    the Location of its slash redirects, never puts a raw CR in a header."""
    def app(environ, start_response):
        qs = environ.get("QUERY_STRING", "")
        if qs and _RAW_IN_QUERY.search(qs):
            environ["QUERY_STRING"] = _RAW_IN_QUERY.sub(_percent_encode, qs)
        return wsgi_app(environ, start_response)
    return app


def unreadable_host_as_none(wsgi_app):
    """WSGI middleware: a Host header werkzeug's router cannot bind (its name
    fails IDNA: an empty label as in 'a..b', one over 63 characters) is read as
    no host, as werkzeug reads one with invalid characters.  The request is
    then served as any other: its links and redirects are paths, whatever the
    host.  (A 400 for every malformed Host would also refuse names some
    proxies pass on, such as 'my_host', which werkzeug serves as no host.)"""
    def app(environ, start_response):
        try:
            # as werkzeug.routing.Map.bind encodes it: the port is not part of the name
            get_host(environ).lower().partition(":")[0].encode("idna")
        except (UnicodeError, ValueError):
            environ["HTTP_HOST"] = ""
        return wsgi_app(environ, start_response)
    return app


def relative_url(url: str) -> str:
    """`url` without its scheme and host: a path, never '//x' (which a browser
    reads as another host)."""
    parts = urlsplit(url)
    return urlunsplit(("", "", "/" + parts.path.lstrip("/"), parts.query, parts.fragment))


def init_app(app) -> None:
    app.wsgi_app = quote_raw_query(unreadable_host_as_none(app.wsgi_app))
    app.request_class = SafeRequest
    app.json = JSONProvider(app)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    # Flask's defaults (no limit on a body, 500 KB of form) are replaced
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, MAX_FORM_MEMORY_SIZE=MAX_BODY_BYTES,
                      MAX_FORM_PARTS=MAX_FORM_PARTS)

    @app.before_request
    def relative_redirect():
        # the router's redirect (a '//' merged, a slash added) is raised after
        # the before_request functions: its address becomes a path first
        exc = request.routing_exception
        if isinstance(exc, RequestRedirect):
            exc.new_url = relative_url(exc.new_url)

    @app.before_request
    def refuse_large_bodies():
        # every route, including those that never read a body: refused on the
        # declared length alone, so the body is never waited for
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            abort(413)
