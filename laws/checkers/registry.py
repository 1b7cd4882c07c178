"""The registry of checkers: what each one is, what it implements, how to run it.

A checker is a pure function from a validated input (a dict matching its JSON
Schema) to a `Result`.  It declares the provisions it implements, per edition;
each result names the provisions it actually applied.  The build writes the
declared provisions into the store (`write_links`) so that each law page can
list the checkers that implement it.

Adding a checker: write the function in the module of its part of the Laws,
decorate it with `@checker(...)`, give it a docstring (it is the checker's
documentation), add the module to `_MODULES` below, and add tests that name
it.  See README.md in this folder.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any, Callable

import jsonschema
from jsonschema.exceptions import best_match

from laws.errors import BadInput as BadRequest

# checker modules, by the part of the Laws they implement
_MODULES = ("boards", "scoring", "auction", "play")


@dataclass(frozen=True)
class Result:
    """What a checker answers: the facts computed, a sentence saying why, and
    the provisions applied (ids in `edition`)."""

    result: dict
    explanation: str
    cites: list[str]
    edition: str | None = None  # None: the first edition the checker declares (the one in force)

    def as_dict(self) -> dict:
        return {"result": self.result, "explanation": self.explanation, "cites": list(self.cites),
                "edition": self.edition}


@dataclass(frozen=True)
class Checker:
    id: str
    title: str
    # edition -> provision ids it implements, the edition in force first.  A
    # checker lists an edition only where it implements that edition's text:
    # where 2017 changed a law, a 2007-only checker says so by not listing 2017.
    cites: dict[str, list[str]]
    input_schema: dict
    function: Callable[[dict], Result]
    example: dict = field(default_factory=dict)  # a valid input, shown in the form and used by tests

    @property
    def editions(self) -> list[str]:
        return list(self.cites)

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

    @property
    def flat_cites(self) -> list[str]:
        out: list[str] = []
        for ids in self.cites.values():
            out.extend(i for i in ids if i not in out)
        return out

    def describe(self) -> dict:
        return {"id": self.id, "title": self.title, "cites": self.flat_cites, "editions": self.editions,
                "input_schema": self.input_schema, "cites_by_edition": self.cites,
                "description": self.summary, "example": self.example}


REGISTRY: dict[str, Checker] = {}


def checker(id: str, title: str, cites: dict[str, list[str]], schema: dict, example: dict):
    """Register the decorated function as a checker."""
    def register(function):
        if id in REGISTRY:
            raise ValueError(f"two checkers with id {id!r}")
        full = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, "type": "object",
                "additionalProperties": False, **schema}
        jsonschema.Draft202012Validator.check_schema(full)
        REGISTRY[id] = Checker(id, title, cites, full, function, example)
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


def run(checker_id: str, payload: Any) -> dict:
    """Validate `payload` against the checker's schema and run it.

    Raises BadRequest (message for a user, field name) for any input the
    checker cannot take, UnknownChecker for an unknown id."""
    c = get(checker_id)
    data = validate(c, payload)
    result = c.function(data)
    if result.edition is None:
        result = replace(result, edition=c.editions[0])
    return result.as_dict()


# --- validation --------------------------------------------------------------

def validate(c: Checker, payload: Any) -> dict:
    if not isinstance(payload, dict):
        raise BadRequest("The input must be a JSON object with the checker's fields "
                         f"({', '.join(c.input_schema.get('properties', {}))}).", None)
    _reject_non_finite(c, payload)
    error = best_match(jsonschema.Draft202012Validator(c.input_schema).iter_errors(payload))
    if error is not None:
        raise BadRequest(*_explain(c.input_schema, error))
    return _coerce(c.input_schema, payload)


def _reject_non_finite(c: Checker, payload: dict) -> None:
    def walk(value, top):
        if isinstance(value, float) and not math.isfinite(value):
            raise BadRequest(f"{_title(c.input_schema, top)} must be a finite number.", top)
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
        return (f"This checker has no field {name!r}; its fields are {', '.join(props)}.", name)
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
            for c in all_checkers() for ed, ids in c.cites.items() for pid in ids]


def write_links(db) -> None:
    """Record in the store which provisions each checker implements (build time)."""
    db["checker_cites"].insert_all(links(), ignore=True)


def missing_cites(db, checkers: list[Checker] | None = None) -> list[tuple[str, str, str]]:
    """(checker, edition, provision) for every cited provision not in the store
    `db` (an sqlite3 connection or sqlite_utils Database)."""
    conn = getattr(db, "conn", db)
    out = []
    for c in checkers if checkers is not None else all_checkers():
        for ed, ids in c.cites.items():
            for pid in ids:
                if conn.execute("select 1 from provisions where edition = ? and id = ?", [ed, pid]).fetchone() is None:
                    out.append((c.id, ed, pid))
    return out
