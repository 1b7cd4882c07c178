"""The OpenAPI 3.1 document at /api/openapi.json: valid against the OpenAPI
3.1 meta-schema, built from the schemas the server enforces (every fixture
request fits them, every documented 400 happens and names the field), and
the real app, driven by schemathesis from the document, answers no request
with a 5xx or a reply outside its documented schema.

schemathesis runs LAWBOOK_FUZZ_EXAMPLES examples per operation and mode
(default 30, the same ones each run), and starts no new operation after
LAWBOOK_FUZZ_SECONDS (default 60; the default run takes about 20 s here).  The
long run, new random examples each time and no time cap:

    LAWBOOK_FUZZ_EXAMPLES=500 pytest tests/test_openapi.py -k schemathesis
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
import warnings
from pathlib import Path

import jsonschema
import pytest
import schemathesis
import schemathesis.checks  # noqa: F401 (the default checks are registered on import)
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import positive_data_acceptance
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import Unsatisfiable
from openapi_spec_validator import validate as validate_openapi
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from laws.checkers import registry
from laws.rulings import guided
from laws.rulings import requests as ruling_requests
from laws.rulings import RulingError
from laws.web.openapi import WHITE, WHOLE_NUMBERS, portable

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LONG_RUN = bool(os.environ.get("LAWBOOK_FUZZ_EXAMPLES"))
EXAMPLES = int(os.environ.get("LAWBOOK_FUZZ_EXAMPLES") or "30")
# the suite's run is capped (0: no cap, the long run's default)
BUDGET = float(os.environ.get("LAWBOOK_FUZZ_SECONDS") or ("0" if LONG_RUN else "60"))


def _load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def doc(app) -> dict:
    r = app.test_client().get("/api/openapi.json")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    return r.get_json()


def _resolve(doc: dict, schema: dict) -> dict:
    if "$ref" in schema:
        node = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return node
    return schema


def _body_schema(doc: dict, path: str) -> dict:
    """The request body's schema of a POST, as the document gives it: a
    validator over the whole document, so its references resolve."""
    ref = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return {**doc, "$ref": ref}


def _validator(doc: dict, path: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_body_schema(doc, path))


# --- the document ----------------------------------------------------------------------

def test_the_document_is_valid_openapi_3_1(doc):
    assert doc["openapi"] == "3.1.0"
    validate_openapi(doc)  # against the OpenAPI 3.1 meta-schema (openapi-spec-validator)


def test_the_validator_catches_a_broken_document(doc):
    """The meta-schema check can fail: a response without its description is refused."""
    broken = json.loads(json.dumps(doc))
    del broken["paths"]["/api/editions"]["get"]["responses"]["200"]["description"]
    with pytest.raises(OpenAPIValidationError):
        validate_openapi(broken)


def test_every_json_operation_is_documented(app, doc):
    """Every route under /api/ (a checker's, once per checker) is an
    operation of the document, and the document names no other."""
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = rule.rule.replace("<path:topic_id>", "{topic_id}")
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if "<checker_id>" in path:
                served |= {(path.replace("<checker_id>", c.id), method.lower()) for c in registry.all_checkers()}
            else:
                served.add((path.replace("<", "{").replace(">", "}"), method.lower()))
    documented = {(p, m) for p, ops in doc["paths"].items() for m in ops}
    assert documented == served
    for (path, method) in documented:
        op = doc["paths"][path][method]
        assert "200" in op["responses"], (path, method)
        if method == "post":
            bad = "400-laws" if f"POST {path}" in LAWS_RULES else "400"
            assert op["responses"]["400"] == {"$ref": f"#/components/responses/{bad}"}, path
    assert doc["components"]["responses"]["400"]["content"]["application/json"]["schema"] == \
        {"$ref": "#/components/schemas/Error"}
    assert doc["components"]["schemas"]["Error"] == {
        "type": "object", "required": ["error"], "properties": {"error": {"type": "string"},
                                                                 "field": {"type": ["string", "null"]}}}


def test_the_document_is_made_from_the_schemas_the_server_enforces(app, doc):
    """One source of truth: the request bodies are the schema files and the
    checkers' input schemas (as GET /api/checkers serves them)."""
    comps = doc["components"]["schemas"]
    for period, name in (("auction", "AuctionRequest"), ("play", "PlayRequest"), ("guided", "GuidedRequest")):
        file = ruling_requests.schema(period)
        assert comps[name]["properties"].keys() == file["properties"].keys()
        assert comps[name].get("required") == file.get("required")
        assert doc["paths"][f"/api/rulings/{period}"]["post"]["requestBody"]["content"]["application/json"][
            "schema"] == {"$ref": f"#/components/schemas/{name}"}
    served = {c["id"]: c["input_schema"] for c in app.test_client().get("/api/checkers").get_json()}
    for cid, schema in served.items():
        mine = {k: v for k, v in schema.items() if k != "$schema"}
        assert comps[f"Checker-{cid}"] == _portable_patterns(mine)
    play = comps["PlayRequest"]["properties"]["contract"]["pattern"]
    assert play == portable(ruling_requests.schema("play")["properties"]["contract"]["pattern"]) and "\\s" not in play


def _portable_patterns(value):
    if isinstance(value, dict):
        return {k: portable(v) if k == "pattern" and isinstance(v, str) else _portable_patterns(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_portable_patterns(v) for v in value]
    return value


def test_white_space_in_the_document_is_what_the_server_strips():
    """The patterns' white space is written out (ECMA-262's \\s is not Python's):
    WHITE is exactly the characters str.strip() and Python's \\s take."""
    white = {c for c in range(sys.maxunicode + 1) if re.fullmatch(f"[{WHITE}]", chr(c))}
    assert white == {c for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert portable(r"^\s*[a\s]\S\\s$") == f"^[{WHITE}]*[a{WHITE}][^{WHITE}]\\\\s$"


def test_the_guided_procedures_in_the_schema_are_those_of_the_data():
    procedures = []
    for e in guided.editions():
        procedures += [k for k in guided.load()[e]["kinds"] if k not in procedures]
    schema = ruling_requests.schema("guided")
    assert schema["properties"]["procedure"]["enum"] == procedures
    assert schema["properties"]["edition"]["enum"] == guided.editions()


# --- the fixtures fit the schemas ----------------------------------------------------

def _fixture_requests():
    auction = _load("rulings_auction.json")["cases"]
    for case in auction:
        for ed in ("2017", "2007"):
            yield "auction", {"edition": ed, "dealer": case["dealer"], "calls": case["calls"],
                              "findings": case["findings"]}
    for case in _load("rulings_play.json")["cases"]:
        for ed in ("2017", "2007", "1993-rubber"):
            if ed in case:
                yield "play", {"edition": ed, "contract": case["contract"], "declarer": case["declarer"],
                               "play": case["play"], "findings": case["findings"]}
    for case in _load("rulings_play_trick.json")["cases"]:
        # a case the Laws refuse for its trick or seat (0, a seat that is no seat) is
        # refused by the schema too, for that field: it is checked below, not here
        if case.get("error", {}).get("field") not in ("trick", "seat"):
            yield "play", case["request"]
    for name in ("rulings_guided_procedure.json", "guided_g2.json", "guided_rubber.json"):
        data = _load(name)
        for case in data["cases"]:
            eds = ([e for e in ("2017", "2007", "1993-rubber") if e in case]
                   or [case.get("edition", data.get("edition"))])
            for ed in eds:
                answers = case["answers"]
                if isinstance(case.get(ed), dict) and isinstance(case[ed].get("answers"), dict):
                    answers = {**answers, **case[ed]["answers"]}
                yield "guided", {"edition": ed, "procedure": case["procedure"], "answers": answers}


def test_every_fixture_request_fits_its_schema(doc):
    validators = {p: _validator(doc, f"/api/rulings/{p}") for p in ("auction", "play", "guided")}
    seen = {"auction": 0, "play": 0, "guided": 0}
    for period, request in _fixture_requests():
        errors = [e.message for e in validators[period].iter_errors(request)]
        assert not errors, (period, request, errors)
        seen[period] += 1
    assert all(n >= 50 for n in seen.values()), seen
    play = validators["play"]
    for case in _load("rulings_play_trick.json")["cases"]:
        field = case.get("error", {}).get("field")
        if field in ("trick", "seat"):
            errors = list(play.iter_errors(case["request"]))
            assert not errors or {e.path[0] for e in errors} == {field}, case["id"]
    for case in _load("checkers.json")["cases"]:
        v = _validator(doc, f"/api/checkers/{case['checker']}")
        assert not list(v.iter_errors(case["input"])), case["id"]
    for c in registry.all_checkers():
        assert not list(_validator(doc, f"/api/checkers/{c.id}").iter_errors(c.example)), c.id


def _reply_validator(doc: dict, path: str, method: str, status: str) -> jsonschema.Draft202012Validator:
    response = _resolve(doc, doc["paths"][path][method]["responses"][status])
    return jsonschema.Draft202012Validator({**doc, **response["content"]["application/json"]["schema"]})


def test_every_fixture_reply_fits_the_documented_reply(client, doc):
    """The fixtures' requests, sent: each reply fits the schema the document
    gives for its status (an option question's answers are null, say)."""
    replies = {}
    for period, request in _fixture_requests():
        path = f"/api/rulings/{period}"
        r = client.post(path, json=request)
        status = str(r.status_code)
        v = _reply_validator(doc, path, "post", status)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in v.iter_errors(r.get_json())]
        assert not errors, (path, request, errors[:3])
        replies[period, status] = replies.get((period, status), 0) + 1
    assert all(replies.get((p, "200"), 0) >= 50 for p in ("auction", "play", "guided")), replies


# --- every documented 400 happens --------------------------------------------------------

GOOD = {"/api/rulings/auction": {"edition": "2017", "dealer": "N", "calls": [["N", "1H"], ["E", "1D"]],
                                 "findings": {}},
        "/api/rulings/play": {"edition": "2017", "contract": "4S", "declarer": "S", "play": [["E", "HK"]],
                              "findings": {}},
        "/api/rulings/guided": {"edition": "2017", "procedure": "claim", "answers": {}}}

# (path, request breaking the schema, the field the 400 must name); those the
# parsers refused before the schema was enforced keep their messages, the
# rest are refused by the schema itself
BREAKING = [
    ("/api/rulings/auction", {"calls": []}, "dealer"),
    ("/api/rulings/auction", {"dealer": "N", "extra": 1}, "extra"),
    ("/api/rulings/auction", {"dealer": "N", "calls": [["N", "1H", "x"]]}, "calls"),
    ("/api/rulings/auction", {"dealer": "N", "calls": [["N", "1H"]], "findings": {"card": {"seat": "E",
                              "cards": ["SK"], "led": False, "when": "now"}}}, "findings.card"),
    ("/api/rulings/auction", {"dealer": "N", "calls": [["N", "1H"]], "findings": {"change": {"call": "2H",
                              "index": 0, "why": "x"}}}, "findings.change"),
    ("/api/rulings/auction", {"dealer": "N", "findings": {"accepted": "yes"}}, "findings.accepted"),
    ("/api/rulings/play", {"contract": "4S"}, "declarer"),
    ("/api/rulings/play", {"contract": "9S", "declarer": "S"}, "contract"),
    ("/api/rulings/play", {"contract": "4S", "declarer": "S", "findings": {"misinformed": "yes"}},
     "findings.misinformed"),
    ("/api/rulings/play", {"contract": "4S", "declarer": "S", "findings": {"choice": 3}}, "findings.choice"),
    ("/api/rulings/guided", {"edition": "2017"}, "procedure"),
    ("/api/rulings/guided", {"procedure": "claim", "answers": {"claim_kind": "x" * 101}}, "answers"),
    ("/api/rulings/guided", {"procedure": "claim", "note": "x"}, "note"),
]


@pytest.mark.parametrize("path, body, field", BREAKING)
def test_a_request_breaking_the_schema_gets_400_naming_the_field(client, doc, path, body, field):
    assert _validator(doc, path).is_valid(GOOD[path])
    assert not _validator(doc, path).is_valid(body)  # the case does break the schema
    r = client.post(path, json=body)
    assert r.status_code == 400, r.get_json()
    reply = r.get_json()
    assert reply["field"] == field and isinstance(reply["error"], str) and reply["error"], reply


# a GET documenting 400, and a request that gets it (the field it names)
GET_400 = {"/api/search": ("/api/search?q=%20", "q"),
           "/api/diff/{number}": ("/api/diff/12?from=2017", "to")}


def test_every_get_documenting_a_400_gets_it(client, doc):
    documenting = {p for p, ops in doc["paths"].items() if "400" in ops.get("get", {}).get("responses", {})}
    assert documenting == set(GET_400)
    for url, field in GET_400.values():
        r = client.get(url)
        assert (r.status_code, r.get_json()["field"]) == (400, field), url


def test_the_schema_alone_refuses_what_the_parsers_let_through():
    """Requests the hand-written parsers accepted, refused now by the schema,
    with the schema's message and field."""
    with pytest.raises(RulingError) as exc:
        ruling_requests.check("play", {"contract": "4S", "declarer": "S", "findings": {"misinformed": "yes"}})
    assert (str(exc.value), exc.value.field) == (
        "'findings.misinformed' must be true or false.", "findings.misinformed")
    with pytest.raises(RulingError) as exc:
        ruling_requests.check("guided", {"procedure": "claim", "note": "x"})
    assert (str(exc.value), exc.value.field) == (
        "The request has no field 'note'; its fields are edition, procedure, answers.", "note")
    with pytest.raises(RulingError) as exc:
        ruling_requests.check("auction", {"dealer": "N", "findings": {"card": {"seat": "E", "cards": []}}})
    assert (str(exc.value), exc.value.field) == ("'findings.card.cards' is too short (at least 1).", "findings.card")


def test_every_checker_refuses_a_request_breaking_its_schema(client, doc):
    """For each checker: a missing required field and an unknown field, 400 naming the field."""
    for c in registry.all_checkers():
        path = f"/api/checkers/{c.id}"
        schema = _resolve(doc, doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"])
        bad = {**c.example, "no_such_field": 1}
        assert not _validator(doc, path).is_valid(bad)
        r = client.post(path, json=bad)
        assert (r.status_code, r.get_json()["field"]) == (400, "no_such_field"), c.id
        for name in schema.get("required", []):
            missing = {k: v for k, v in c.example.items() if k != name}
            r = client.post(path, json=missing)
            assert (r.status_code, r.get_json()["field"]) == (400, name), (c.id, name)


# --- schemathesis: the real app against its own description ------------------------------

# what binds two parameters together, which their schemas cannot say (the
# document's descriptions do): schemathesis's valid cases are drawn among
# those that keep it, and the test below holds the server to the 400
TIED = {"GET /api/diff/{number}": lambda case: case.query["from"].strip() != case.query["to"].strip()}


# operations whose bodies the Laws hold to more than a schema can say (a card
# played twice, a seat at fault without its card, an answer its question does
# not offer, a percentage where the scoring is IMPs): a schema-valid request may get 400, as their documented 400 says
# (openapi.LAWS_REFUSE).  For them schemathesis's "valid data is accepted" is
# replaced by: a 400 to valid data says what is wrong and names its field.
LAWS_RULES = {"POST /api/rulings/auction", "POST /api/rulings/play", "POST /api/rulings/guided",
              *(f"POST /api/checkers/{c.id}" for c in registry.all_checkers())}


def a_refusal_of_valid_data_names_its_field(ctx, response, case):
    if case.meta is not None and case.meta.generation.mode.is_positive and response.status_code == 400:
        body = json.loads(response.content)
        assert isinstance(body.get("error"), str) and body["error"] and isinstance(body.get("field"), str), body
    return None


def _without_point(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_without_point(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_point(v) for k, v in value.items()}
    return value


def _query_numbers_in_digits(case):
    """schemathesis writes an integer as 7.0 at times (JSON Schema counts it as
    one); in a query the server reads digits only, as the document says
    (WHOLE_NUMBERS, held to by the tests below), so a valid case's query
    writes whole numbers as 7.  A body's 7.0 is sent as drawn."""
    if case.query:
        case.query = _without_point(case.query)
    return case


def test_a_whole_number_with_a_point_in_a_query_gets_the_documented_400(client, doc):
    assert WHOLE_NUMBERS in doc["info"]["description"]
    schema = next(p["schema"] for p in doc["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "limit")
    assert jsonschema.Draft202012Validator(schema).is_valid(2.0)  # an integer to JSON Schema
    r = client.get("/api/search", query_string={"q": "revoke", "limit": "2.0"})
    assert (r.status_code, r.get_json()["field"]) == (400, "limit"), r.get_json()
    assert client.get("/api/search", query_string={"q": "revoke", "limit": "2"}).status_code == 200


@pytest.mark.parametrize("path, body", [
    ("/api/rulings/play", {"contract": "4S", "declarer": "S", "trick": 2.0, "play": [["E", "HK"]]}),
    ("/api/rulings/auction", {"dealer": "N", "calls": [["N", "1H"], ["E", "1H"]],
                              "findings": {"change": {"call": "2H", "index": 1.0}}}),
    ("/api/checkers/board", {"board": 7.0}),
    ("/api/checkers/matchpoints", {"scores": [420, 420.0]}),
])
def test_a_whole_number_with_a_point_in_a_body_is_that_number(client, doc, path, body):
    assert _validator(doc, path).is_valid(body)
    r, digits = client.post(path, json=body), client.post(path, json=_without_point(body))
    assert r.status_code == digits.status_code == 200, r.get_json()
    assert r.get_json() == digits.get_json()


def test_what_binds_parameters_together_gets_its_documented_400(client, doc):
    params = {p["name"]: p for p in doc["paths"]["/api/diff/{number}"]["get"]["parameters"]}
    assert "not the same as" in params["to"]["description"]
    r = client.get("/api/diff/12?from=2017&to= 2017")
    assert (r.status_code, r.get_json()["field"]) == (400, "to")


def test_schemathesis_finds_no_server_error_and_no_reply_outside_the_document(app):
    """Each operation, requests generated from its schemas (valid ones, then
    ones that break them): no 5xx, every reply of the content type and schema
    the document gives for its status (schemathesis's default checks).

    schemathesis's pytest fixture integration (`from_fixture`) reads a field
    pytest 9.2 no longer has, so its cases are drawn here with its strategy
    API and Hypothesis's `given`, through Flask's WSGI test client."""
    from hypothesis import given

    api = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    ops = [r.ok() for r in api.get_all_operations()]
    # every operation but the document itself, which schemathesis leaves out
    assert {op.label for op in ops} == {f"{m.upper()} {p}" for p, v in api.raw_schema["paths"].items()
                                        for m in v} - {"GET /api/openapi.json"}
    started, ran, failures = time.monotonic(), 0, []
    for op in ops:
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            if BUDGET and time.monotonic() - started > BUDGET:
                break
            raw = api.raw_schema["paths"][op.path][op.method.lower()]
            if mode == schemathesis.GenerationMode.NEGATIVE and not ({"parameters", "requestBody"} & set(raw)):
                ran += 1  # nothing to break: no parameters, no body
                continue

            strategy = op.as_strategy(generation_mode=mode)
            if mode == schemathesis.GenerationMode.POSITIVE:
                strategy = strategy.map(_query_numbers_in_digits)
                if op.label in TIED:
                    strategy = strategy.filter(TIED[op.label])

            @given(case=strategy)
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG_RUN,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
                      database=None)
            def run(case):
                # identity: the WSGI client hands back the body as sent, and a compressed one
                # would not be read as JSON (compression has its own tests)
                if op.label in LAWS_RULES:
                    case.call_and_validate(headers={"Accept-Encoding": "identity"},
                                           excluded_checks=[positive_data_acceptance],
                                           additional_checks=[a_refusal_of_valid_data_names_its_field])
                else:
                    case.call_and_validate(headers={"Accept-Encoding": "identity"})

            try:
                run()
            except Unsatisfiable:
                # a schema nothing can break (a path parameter that is any text): no negative case exists
                assert mode == schemathesis.GenerationMode.NEGATIVE, op.label
            except (FailureGroup, AssertionError) as exc:  # schemathesis's failures, or a check's own
                # every operation runs: one run shows all that is wrong, not only the first
                failures.append(f"--- {op.label} ({mode.value}) ---\n{exc}")
            ran += 1
    assert not failures, "\n\n".join(failures)
    if ran < 2 * len(ops):
        # only the time cap stops it early; say so rather than pass as if all ran
        assert BUDGET, ran
        warnings.warn(f"schemathesis: {2 * len(ops) - ran} of {2 * len(ops)} runs left out after "
                      f"LAWBOOK_FUZZ_SECONDS={BUDGET:g}", stacklevel=1)
