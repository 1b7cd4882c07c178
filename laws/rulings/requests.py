"""The rulings' requests as JSON Schemas: `<period>-request.schema.json`
beside this file, for the periods `auction`, `play` and `guided`.

One source of truth: the API's OpenAPI document (laws.web.openapi) is built
from these files, and `check` holds every request to them, so what is
documented is what is accepted.  Each period's own parser runs first, so the
messages it gives (and tests assert) stay; `check` then refuses whatever
else the schema does not allow, naming the field as the parsers do
(`calls`, `findings.card`, an unknown field by its own name).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from laws.errors import quotable
from laws.rulings import RulingError
from laws.rulings import data as rulings_data

FOLDER = Path(__file__).resolve().parent
PERIODS = ("auction", "play", "guided")


def path(period: str) -> Path:
    return FOLDER / f"{period}-request.schema.json"


@lru_cache(maxsize=None)
def schema(period: str) -> dict:
    """The request schema of a period (read once; callers must not change it)."""
    data = json.loads(path(period).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def schema_with(period: str, editions, default: str | None = None) -> dict:
    """The period's schema, its `edition` also taking `editions`: the codes
    ruled by trees the build carried into them (laws.rulings.carry), which
    the file, written before them, cannot list, after its own (`default`:
    the code asked for by default, when it is a carried one)."""
    data = schema(period)
    prop = data["properties"]["edition"]
    extra = [e for e in editions if e not in prop["enum"]]
    if not extra:
        return data
    prop = {**prop, "enum": prop["enum"] + extra} | ({"default": default} if default in extra else {})
    return {**data, "properties": {**data["properties"], "edition": prop}}


@lru_cache(maxsize=None)
def _validator(period: str, editions: tuple[str, ...]) -> jsonschema.Draft202012Validator:
    """The period's schema with the carried codes among its editions (schema_with)."""
    return jsonschema.Draft202012Validator(schema_with(period, editions))


def field_of(error: jsonschema.ValidationError) -> str | None:
    """The field an error is about, named as the parsers name it: the
    top-level input, or `findings.<name>` inside the findings; a missing or
    unknown field by its own name."""
    parts = [p for p in error.absolute_path if isinstance(p, str)]
    extra = None
    if error.validator == "required":
        extra = next((r for r in error.validator_value if r not in error.instance), None)
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = next((k for k in sorted(error.instance) if k not in allowed), None)
    if extra is not None and (not parts or (parts == ["findings"])):
        parts = parts + [extra]
    if not parts:
        return None
    name = ".".join(parts[:2]) if parts[0] == "findings" else parts[0]
    return quotable(name)


_TYPES = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
          "array": "a list", "object": "an object", "null": "null"}


def _words(value) -> str:
    values = value if isinstance(value, list) else [value]
    return " or ".join(_TYPES.get(v, str(v)) for v in values)


def explain(error: jsonschema.ValidationError) -> str:
    """A validation error in words: where, and what the schema asks for."""
    at = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    where = f"'{quotable(at)}'" if at else "The request"
    v, want = error.validator, error.validator_value
    if v == "required":
        missing = next((r for r in want if r not in error.instance), want[0])
        return f"{where} needs the field {missing!r}."
    if v == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = next((k for k in sorted(error.instance) if k not in allowed), "?")
        name = extra if len(extra) <= 40 else extra[:40] + "…"
        return f"{where} has no field {quotable(name)!r}; its fields are {', '.join(allowed)}."
    if v == "enum":
        return f"{where} must be one of {', '.join(json.dumps(x) for x in want)}."
    if v == "type":
        return f"{where} must be {_words(want)}."
    if v == "pattern":
        desc = error.schema.get("description")
        return f"{where} is not in the form asked for" + (f": {desc}." if desc else ".")
    if v in ("maxItems", "maxLength", "maxProperties"):
        return f"{where} is too long (at most {want})."
    if v in ("minItems", "minLength"):
        return f"{where} is too short (at least {want})."
    if v in ("minimum", "maximum"):
        return f"{where} must be {'at least' if v == 'minimum' else 'at most'} {want}."
    if v == "anyOf":
        desc = error.schema.get("description")
        return f"{where} is not valid" + (f": {desc}." if desc else ".")
    return f"{where} is not valid ({v})."


def _order(error: jsonschema.ValidationError):
    """Report the outermost error first (a missing or unknown field before
    what is inside another), then in the document's order."""
    return (len(error.absolute_path), [str(p) for p in error.absolute_path])


def check(period: str, payload) -> None:
    """Refuse `payload` unless it fits the period's request schema:
    RulingError naming the field."""
    errors = list(_validator(period, tuple(rulings_data.editions(period))).iter_errors(payload))
    if errors:
        error = min(errors, key=_order)
        raise RulingError(explain(error), field_of(error))
