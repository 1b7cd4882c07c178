"""The registry of checkers: what each one is, what it implements, how to run it.

A checker is a pure function from a validated input (a dict matching its JSON
Schema) to a `Result`.  It declares the provisions it implements, per edition;
each result names the provisions it actually applied.  The build writes the
declared provisions into the store (`write_links`) so that each law page can
list the checkers that implement it.

A checker's title, input schema and example are data (`data/schemas.json`),
and so is what it cites in each edition (`data/<edition>.json`, read through
laws.checkers.codes): the function receives the input and an `Edition`, the
data of the edition it answers in, and names provisions only through it.

Adding a checker: write the function in the module of its part of the Laws,
decorate it with `@checker(id)`, give it a docstring (it is the checker's
documentation), add its schema and its provisions to the data files, add the
module to `_MODULES` below, port it to static/checkers/checkers.js, and add
tests that name it.  See README.md in this folder.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any, Callable

import jsonschema

from laws.checkers import codes as codes_module
from laws.checkers.codes import Codes
from laws.errors import BadInput as BadRequest
from laws.errors import quotable

# checker modules, by the part of the Laws they implement
_MODULES = ("boards", "scoring", "conversions", "auction", "play")


@dataclass(frozen=True)
class Result:
    """What a checker answers: the facts computed, a sentence saying why, and
    the provisions applied (ids in `edition`)."""

    result: dict
    explanation: str
    cites: list[str]
    edition: str | None = None  # None: the edition the checker was run in

    def as_dict(self) -> dict:
        return {"result": self.result, "explanation": self.explanation, "cites": list(self.cites),
                "edition": self.edition}


class Edition:
    """One edition's data for one checker (data/<edition>.json): `law(role)`
    is the provision applied at a step of the reasoning, `get(key)` anything
    else of the edition the checker reads, `tables` the edition's tables."""

    def __init__(self, edition: str, data: dict, entry: dict):
        self.edition, self.title, self.entry = edition, data.get("title", edition), entry
        self.tables = data.get("tables", {})
        self.cites = list(entry["cites"])

    def law(self, role: str):
        return self.entry["law"][role]

    def get(self, key: str, default=None):
        return self.entry.get(key, default)


@dataclass(frozen=True)
class Checker:
    id: str
    title: str
    properties: dict  # the input schema's properties, as in data/schemas.json
    required: list
    function: Callable[[dict, Edition], Result]
    example: dict = field(default_factory=dict)  # a valid input, shown in the form and used by tests
    folder: Any = codes_module.DATA  # where its data files are (tests give another)

    def edition_data(self, codes: Codes | None = None) -> dict[str, dict]:
        """edition -> this checker's data in it (data/<edition>.json), and in
        each code its data was carried into (`codes.carried`)."""
        own = codes_module.checker_editions(self.id, self.folder)
        carried = {ed: data["checkers"][self.id] for ed, data in (codes.carried if codes else {}).items()
                   if self.id in data.get("checkers", {}) and ed not in own}
        return {**own, **carried}

    def edition_file(self, edition: str, codes: Codes | None = None) -> dict:
        """The whole data of the edition its entry for `edition` is in."""
        own = codes_module.editions(self.folder).get(edition, {})
        if self.id in own.get("checkers", {}) or codes is None or edition not in codes.carried:
            return own
        return codes.carried[edition]

    def editions_for(self, codes: Codes | None = None) -> list[str]:
        """The editions it implements: the one it answers in by default first, then newest first."""
        codes = codes or codes_module.from_manifest()
        eds = list(self.edition_data(codes))
        first = codes.default(eds)
        return [first] + [e for e in codes.order(eds) if e != first]

    def default_edition(self, codes: Codes | None = None) -> str:
        return self.editions_for(codes)[0]

    def cites_for(self, codes: Codes | None = None) -> dict[str, list[str]]:
        codes = codes or codes_module.from_manifest()
        data = self.edition_data(codes)
        return {ed: list(data[ed]["cites"]) for ed in self.editions_for(codes)}

    @property
    def cites(self) -> dict[str, list[str]]:
        """edition -> provision ids it implements (default edition first).  A
        checker lists an edition only where it implements that edition's text."""
        return self.cites_for()

    @property
    def editions(self) -> list[str]:
        return self.editions_for()

    def edition(self, edition: str, codes: Codes | None = None) -> Edition:
        data = self.edition_file(edition, codes)
        return Edition(edition, data, data["checkers"][self.id])

    def schema(self, codes: Codes | None = None) -> dict:
        """The full JSON Schema of its input; an `x-edition` input takes the
        editions it implements, the default one by default."""
        props = {}
        for name, prop in self.properties.items():
            if prop.get("x-edition"):
                eds = self.editions_for(codes)
                titles = {e: self.edition_file(e, codes).get("title", e) for e in eds}
                prop = {**prop, "enum": eds, "default": eds[0], "x-labels": titles}
            props[name] = prop
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": self.title, "type": "object",
                "additionalProperties": False, "properties": props, "required": list(self.required)}

    @property
    def input_schema(self) -> dict:
        return self.schema()

    def carried_note(self, edition: str, codes: Codes | None = None) -> dict:
        """{carried_from, reviewed, review} in a code its data was carried
        into (laws.checkers.codes.carried_note); {} otherwise."""
        return codes_module.carried_note(self.edition_file(edition, codes), self.id)

    def notes(self, codes: Codes | None = None) -> list[tuple[str, str]]:
        """(edition, note) for each edition whose data says something about
        how this checker reads it (a law moved, a reading made explicit)."""
        codes = codes or codes_module.from_manifest()
        data = self.edition_data(codes)
        return [(ed, data[ed]["note"]) for ed in self.editions_for(codes) if data[ed].get("note")]

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.function.__doc__ or "")

    @property
    def doc_paragraphs(self) -> list[str]:
        return [" ".join(p.split()) for p in self.doc.split("\n\n") if p.strip()]

    @property
    def summary(self) -> str:
        """The docstring's first paragraph, on one line."""
        return self.doc_paragraphs[0] if self.doc else ""

    def flat_cites(self, codes: Codes | None = None) -> list[str]:
        out: list[str] = []
        for ids in self.cites_for(codes).values():
            out.extend(i for i in ids if i not in out)
        return out

    def describe(self, codes: Codes | None = None) -> dict:
        cites = self.cites_for(codes)
        return {"id": self.id, "title": self.title, "cites": self.flat_cites(codes), "editions": list(cites),
                "input_schema": self.schema(codes), "cites_by_edition": cites,
                "description": self.summary, "example": self.example}


REGISTRY: dict[str, Checker] = {}


def checker(id: str):
    """Register the decorated function as the checker `id` of data/schemas.json."""
    def register(function):
        if id in REGISTRY:
            raise ValueError(f"two checkers with id {id!r}")
        spec = codes_module.schemas()[id]
        c = Checker(id, spec["title"], spec["properties"], spec.get("required", []), function,
                    spec.get("example", {}))
        jsonschema.Draft202012Validator.check_schema(c.schema(Codes(None)))
        if not c.edition_data():
            raise ValueError(f"checker {id!r} cites no provision in any data/<edition>.json")
        REGISTRY[id] = c
        return function
    return register


def _load() -> None:
    for name in _MODULES:
        import_module(f"laws.checkers.{name}")


def all_checkers() -> list[Checker]:
    _load()
    return list(REGISTRY.values())


class UnknownChecker(LookupError):
    pass


def get(checker_id: str) -> Checker:
    _load()
    try:
        return REGISTRY[checker_id]
    except KeyError:
        raise UnknownChecker(f"There is no checker '{checker_id}'. Checkers: {', '.join(REGISTRY)}.") from None


def run(checker_id: str, payload: Any, codes: Codes | None = None) -> dict:
    """Validate `payload` against the checker's schema and run it, in the
    edition its `edition` input names or else the default one (`codes`: the
    corpus's codes, from the store; by default read from the manifest).

    Raises BadRequest (message for a user, field name) for any input the
    checker cannot take, UnknownChecker for an unknown id."""
    c = get(checker_id)
    schema = c.schema(codes)
    data = validate(c, payload, schema)
    edition = next((data[k] for k, p in c.properties.items() if p.get("x-edition") and k in data),
                   schema_default_edition(schema) or c.default_edition(codes))
    result = c.function(data, c.edition(edition, codes))
    if result.edition is None:
        result = replace(result, edition=edition)
    return _carried_reply(c, result.as_dict(), codes)


def _carried_reply(c: Checker, reply: dict, codes: Codes | None) -> dict:
    """A reply in a code the checker's data was carried into: its words name
    an older code's provision as such, and it says whose rules it followed
    and whether they are reviewed (as a carried ruling's reply does)."""
    note = c.carried_note(reply["edition"], codes)
    if not note:
        return reply
    data = c.edition_file(reply["edition"], codes)

    def words(value, key=None):
        if isinstance(value, str):
            return codes_module.carried_words(value, data, c.id)
        if isinstance(value, dict):
            return {k: words(v, k) for k, v in value.items()}
        if isinstance(value, list) and key != "cites":
            return [words(v) for v in value]
        return value
    return {**reply, "result": words(reply["result"]), "explanation": words(reply["explanation"]), **note}


def schema_default_edition(schema: dict) -> str | None:
    return next((p["default"] for p in schema["properties"].values() if p.get("x-edition")), None)


# --- validation --------------------------------------------------------------

def validate(c: Checker, payload: Any, schema: dict | None = None) -> dict:
    schema = schema or c.input_schema
    if not isinstance(payload, dict):
        raise BadRequest("The input must be a JSON object with the checker's fields "
                         f"({', '.join(schema.get('properties', {}))}).", None)
    _bound(schema, payload)
    _reject_non_whole(schema, payload)
    _reject_non_finite(schema, payload)
    error = first_error(schema, jsonschema.Draft202012Validator(schema).iter_errors(payload))
    if error is not None:
        raise BadRequest(*_explain(schema, error))
    return _coerce(schema, payload)


def first_error(schema: dict, errors):
    """The error to report: a missing field first, then the first field in
    the form's order that is wrong (the field itself before its items).  A
    rule simple enough to be the same in the JavaScript port."""
    order = {name: i for i, name in enumerate(schema.get("properties", {}))}

    def key(error):
        path = list(error.absolute_path)
        if not path:
            return (0, 0, 0, 0)
        item = path[1] if len(path) > 1 and isinstance(path[1], int) else -1
        return (1, order.get(path[0], len(order)), len(path), item)
    return min(errors, key=key, default=None)


MAX_STRING = 1000  # characters in any one string of an input (no field needs a tenth of it)
MAX_VALUES = 5000  # values in a whole input: lists of at most 1000, a few fields


def _bound(schema: dict, payload: dict) -> None:
    """Refuse an input larger than the schema allows by its sizes alone, before
    jsonschema validates it item by item: unknown fields, lists over their
    maxItems, long strings, too many values in all.  Fields are looked at in
    sorted order, so the field named does not depend on the order of a JSON
    object's keys (which JavaScript does not keep for every key)."""
    props = schema.get("properties", {})
    for key in sorted(payload):
        value = payload[key]
        if key not in props:
            name = key if len(key) <= 40 else key[:40] + "…"
            # repr escapes a lone surrogate in the message; the field names it the same way
            raise BadRequest(f"This checker has no field {name!r}; its fields are {', '.join(props)}.",
                             quotable(name))
        prop = props[key]
        most = prop.get("maxItems")
        if isinstance(value, list) and most is not None and len(value) > most:
            raise BadRequest(f"{_title(schema, key)} can have at most {most} entries.", key)
    count = 0
    stack = [(k, v) for k, v in payload.items()]
    while stack:
        top, value = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise BadRequest(f"The input has more than {MAX_VALUES} values; no checker needs so many.", None)
        if isinstance(value, str) and len(value) > MAX_STRING:
            raise BadRequest(f"{_title(schema, top)} is too long (at most {MAX_STRING} characters).", top)
        if isinstance(value, list):
            stack.extend((top, v) for v in value)
        elif isinstance(value, dict):
            stack.extend((top, v) for v in value.values())


def _fraction(value) -> bool:
    return isinstance(value, float) and not value.is_integer()


def _reject_non_whole(schema: dict, payload: dict) -> None:
    """A fraction where the schema wants an integer is refused in words that
    say so; 7.0 is 7, as JSON Schema counts it (`_coerce`).  (A fraction a
    float would round to a whole number, JSON's `0.` and sixty nines, never
    gets here: the web layer reads a literal by what it says.)"""
    for name, prop in schema.get("properties", {}).items():
        value = payload.get(name)
        if prop.get("type") == "integer" and _fraction(value):
            raise BadRequest(f"{_title(schema, name)} must be a whole number.", name)
        items = prop.get("items", {})
        if prop.get("type") == "array" and items.get("type") == "integer" and isinstance(value, list):
            for i, v in enumerate(value):
                if _fraction(v):
                    raise BadRequest(f"{_title(schema, name)}: {items.get('title', 'item')} {i + 1} "
                                     "must be a whole number.", name)


def _reject_non_finite(schema: dict, payload: dict) -> None:
    def walk(value, top):
        if isinstance(value, float) and not math.isfinite(value):
            raise BadRequest(f"{_title(schema, top)} must be a finite number.", top)
        if isinstance(value, list):
            for v in value:
                walk(v, top)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, top)
    for key, value in payload.items():
        walk(value, key)


def _title(schema: dict, name: str) -> str:
    prop = schema.get("properties", {}).get(name, {})
    return prop.get("title", name).capitalize() if prop else repr(name)


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "an object", "null": "empty"}


def _describe_value_kind(expected) -> str:
    if isinstance(expected, list):
        return " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
    return _TYPE_WORDS.get(expected, str(expected))


def _choices(schema: dict) -> str:
    labels = schema.get("x-labels") or {}
    shown = [f"{v!r}" + (f" ({labels[v]})" if isinstance(v, str) and v in labels else "") if v != "" else
             f"'' ({labels.get('', 'empty')})" for v in schema["enum"]]
    return ", ".join(shown)


def _explain(schema: dict, error: jsonschema.ValidationError) -> tuple[str, str | None]:
    """A jsonschema error as a sentence a director understands, and the field."""
    path = list(error.absolute_path)
    props = schema.get("properties", {})
    if error.validator == "required":
        missing = next((p for p in error.validator_value if p not in error.instance), None)
        title = _title(schema, missing) if missing else "A field"
        return f"{title} is missing: please give it.", missing
    if error.validator == "additionalProperties" and not path:
        extra = sorted(set(error.instance) - set(props))
        name = extra[0] if extra else None
        return (f"This checker has no field {name!r}; its fields are {', '.join(props)}.",
                quotable(name) if name is not None else None)
    if not path:
        return f"The input is not acceptable: {error.message}.", None
    top = str(path[0])
    what = _title(schema, top)
    if len(path) > 1 and isinstance(path[1], int):
        item_title = props.get(top, {}).get("items", {}).get("title", "item")
        what = f"{what}: {item_title} {path[1] + 1}"
    v, sub = error.validator, error.schema
    if v == "type":
        return f"{what} must be {_describe_value_kind(error.validator_value)}.", top
    if v == "enum":
        return f"{what} must be one of {_choices(sub)}.", top
    if v == "const":
        return f"{what} must be {error.validator_value!r}.", top
    if v == "minimum":
        return f"{what} must be at least {error.validator_value}.", top
    if v == "maximum":
        return f"{what} must be at most {error.validator_value}.", top
    if v == "exclusiveMinimum":
        return f"{what} must be more than {error.validator_value}.", top
    if v == "exclusiveMaximum":
        return f"{what} must be less than {error.validator_value}.", top
    if v == "minItems":
        n = error.validator_value
        return f"{what} needs at least {n} {'entry' if n == 1 else 'entries'}.", top
    if v == "maxItems":
        return f"{what} can have at most {error.validator_value} entries.", top
    if v == "minLength":
        return f"{what} must not be empty.", top
    if v == "uniqueItems":
        return f"{what} names the same {props.get(top, {}).get('items', {}).get('title', 'item')} twice.", top
    if v == "maxLength":
        return f"{what} is too long (at most {error.validator_value} characters).", top
    if v == "pattern":
        return f"{what} is not in the expected form ({sub.get('x-format-hint', 'see the description')}).", top
    return f"{what} is not acceptable: {error.message}.", top


def _coerce(schema: dict, payload: dict) -> dict:
    """JSON has one kind of number: 7.0 passes as an integer; make it 7."""
    out = dict(payload)
    for name, prop in schema.get("properties", {}).items():
        if name not in out:
            continue
        if prop.get("type") == "integer" and isinstance(out[name], float):
            out[name] = int(out[name])
        elif prop.get("type") == "array" and prop.get("items", {}).get("type") == "integer":
            out[name] = [int(v) if isinstance(v, float) else v for v in out[name]]
    return out


# --- the store ---------------------------------------------------------------

def links() -> list[dict]:
    """One row per (checker, edition, provision) it implements."""
    return [{"checker": c.id, "edition": ed, "provision": pid, "title": c.title}
            for c in all_checkers() for ed, ids in c.cites_for(Codes(None)).items() for pid in ids]


def write_links(db) -> None:
    """Record in the store which provisions each checker implements (build time)."""
    db["checker_cites"].insert_all(links(), ignore=True)


def missing_cites(db, checkers: list[Checker] | None = None) -> list[tuple[str, str, str]]:
    """(checker, edition, provision) for every cited provision not in the store
    `db` (an sqlite3 connection or sqlite_utils Database)."""
    conn = getattr(db, "conn", db)
    out = []
    for c in checkers if checkers is not None else all_checkers():
        for ed, ids in c.cites_for(Codes(None)).items():
            for pid in ids:
                if conn.execute("select 1 from provisions where edition = ? and id = ?", [ed, pid]).fetchone() is None:
                    out.append((c.id, ed, pid))
    return out
