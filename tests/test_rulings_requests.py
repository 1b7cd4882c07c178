"""laws.rulings.requests: what the request schemas refuse, in what words and
naming which field, when the periods' own parsers let a request through.

These call the module directly (no store, no app), so that each message and
field it makes is asserted whole: the API tests (test_rulings_api.py,
test_rulings_play_api.py) see mostly the parsers' messages, which come first.
"""
from __future__ import annotations

import jsonschema
import pytest

from laws.rulings import RulingError
from laws.rulings import requests as ruling_requests

PLAY_FIELDS = "edition, contract, declarer, trick, seat, play, findings"
FINDINGS = list(ruling_requests.schema("play")["properties"]["findings"]["properties"])


def refusal(period: str, payload) -> tuple[str, str | None]:
    with pytest.raises(RulingError) as exc:
        ruling_requests.check(period, payload)
    return str(exc.value), exc.value.field


@pytest.mark.parametrize("period, payload, message, field", [
    # a missing field, at the top and inside another
    ("play", {"declarer": "S"}, "The request needs the field 'contract'.", "contract"),
    ("play", {"contract": "4S"}, "The request needs the field 'declarer'.", "declarer"),
    ("auction", {"dealer": "N", "findings": {"card": {"cards": ["SA"]}}},
     "'findings.card' needs the field 'seat'.", "findings.card"),
    ("auction", {"dealer": "N", "findings": {"change": {"index": 1}}},
     "'findings.change' needs the field 'call'.", "findings.change"),
    # an unknown field: the first in sorted order, a long name cut at 40 characters
    ("play", {"contract": "4S", "declarer": "S", "zz": 1, "aa": 2},
     f"The request has no field 'aa'; its fields are {PLAY_FIELDS}.", "aa"),
    ("play", {"contract": "4S", "declarer": "S", "x" * 40: 1},
     f"The request has no field '{'x' * 40}'; its fields are {PLAY_FIELDS}.", "x" * 40),
    ("play", {"contract": "4S", "declarer": "S", "y" * 41: 1},
     f"The request has no field '{'y' * 40}…'; its fields are {PLAY_FIELDS}.", "y" * 41),
    ("play", {"contract": "4S", "declarer": "S", "findings": {"nope": True}},
     "'findings' has no field 'nope'; its fields are " + ", ".join(FINDINGS) + ".", "findings.nope"),
    ("guided", {"procedure": "claim", "note": "x"},
     "The request has no field 'note'; its fields are edition, procedure, answers.", "note"),
    ("auction", {"dealer": "N", "findings": {"card": {"seat": "E", "cards": ["SA"], "x": 1}}},
     "'findings.card' has no field 'x'; its fields are seat, cards, led.", "findings.card"),
    # enum, type, pattern
    ("play", {"contract": "4S", "declarer": "Q"}, "'declarer' must be one of \"N\", \"E\", \"S\", \"W\".",
     "declarer"),
    ("play", {"contract": "4S", "declarer": "S", "trick": "1"}, "'trick' must be a whole number.", "trick"),
    ("play", {"contract": "4S", "declarer": "S", "findings": {"misinformed": "yes"}},
     "'findings.misinformed' must be true or false.", "findings.misinformed"),
    ("auction", {"dealer": "N", "findings": {"required_to_pass": "N"}},
     "'findings.required_to_pass' must be a list or null.", "findings.required_to_pass"),
    ("play", {"contract": "4S", "declarer": "S", "play": [["E", 5]]}, "'play[0][1]' must be text.", "play"),
    ("guided", {"procedure": "claim", "answers": {"a": 1}}, "'answers.a' must be text.", "answers"),
    ("play", {"contract": "4S", "declarer": "S", "play": [["E", "H1"]]},
     "'play[0][1]' is not in the form asked for: suit then rank: SA, H10, DT, C2 (read whatever its case).",
     "play"),
    # lengths and bounds
    ("play", {"contract": "4S", "declarer": "S", "play": [["E"]]}, "'play[0]' is too short (at least 2).",
     "play"),
    ("auction", {"dealer": "N", "findings": {"card": {"seat": "E", "cards": []}}},
     "'findings.card.cards' is too short (at least 1).", "findings.card"),
    ("play", {"contract": "4S", "declarer": "S", "play": [["E", "HK", "exposed", "x"]]},
     "'play[0]' is too long (at most 3).", "play"),
    ("auction", {"dealer": "N", "findings": {"change": {"call": "1H" * 11}}},
     "'findings.change.call' is too long (at most 20).", "findings.change"),
    ("guided", {"procedure": "claim", "answers": {str(i): "x" for i in range(101)}},
     "'answers' is too long (at most 100).", "answers"),
    ("play", {"contract": "4S", "declarer": "S", "trick": 0}, "'trick' must be at least 1.", "trick"),
    ("play", {"contract": "4S", "declarer": "S", "trick": 14}, "'trick' must be at most 13.", "trick"),
    ("auction", {"dealer": "N", "findings": {"change": {"call": "1H", "index": 100}}},
     "'findings.change.index' must be at most 99.", "findings.change"),
    # anyOf, with the schema's description
    ("auction", {"dealer": "N", "findings": {"replacement": 3}},
     "'findings.replacement' is not valid: the call that replaces the irregular one (the offender's call "
     "at his proper turn).", "findings.replacement"),
    # not an object at all
    ("play", [1], "The request must be an object.", None),
])
def test_the_schema_refuses_with_the_words_and_field(period, payload, message, field):
    assert refusal(period, payload) == (message, field)


def test_a_request_the_schema_allows_passes():
    assert ruling_requests.check("guided", {"procedure": "claim", "answers": {"claim_kind": "declarer"}}) is None
    assert ruling_requests.check("play", {"contract": "4S", "declarer": "S", "play": [["E", "HK"]],
                                          "findings": {"misinformed": False}}) is None


def test_the_outermost_error_is_reported_first():
    # a missing field before a wrong one inside the findings
    assert refusal("play", {"declarer": "S", "findings": {"misinformed": "yes"}}) == (
        "The request needs the field 'contract'.", "contract")
    # at one depth, in the order of the path
    assert refusal("play", {"contract": "9S", "declarer": "Q", "trick": 0})[1] == "contract"
    assert refusal("play", {"contract": "4S", "declarer": "Q", "trick": 0})[1] == "declarer"


def _error(schema: dict, instance) -> jsonschema.ValidationError:
    return next(jsonschema.Draft202012Validator(schema).iter_errors(instance))


def test_explain_without_a_description_and_for_a_validator_it_has_no_words_for():
    assert ruling_requests.explain(_error({"pattern": "^a$"}, "b")) == "The request is not in the form asked for."
    assert ruling_requests.explain(_error({"anyOf": [{"type": "null"}]}, 1)) == "The request is not valid."
    assert ruling_requests.explain(_error({"const": 1}, 2)) == "The request is not valid (const)."
    assert ruling_requests.explain(_error({"minLength": 2}, "a")) == "The request is too short (at least 2)."
    assert ruling_requests.explain(_error({"minimum": 0}, -1)) == "The request must be at least 0."
    assert ruling_requests.explain(_error({"maxProperties": 1}, {"a": 1, "b": 2})) == (
        "The request is too long (at most 1).")
    assert ruling_requests.explain(_error({"type": ["integer", "number", "boolean"]}, "x")) == (
        "The request must be a whole number or a number or true or false.")


def test_a_field_is_named_as_the_parsers_name_it():
    # a required field missing inside an object inside the findings: the object, not the field
    err = _error({"properties": {"findings": {"properties": {"card": {"required": ["seat"]}}}}},
                 {"findings": {"card": {}}})
    assert ruling_requests.field_of(err) == "findings.card"
    # an unknown field of a list's object: the list, by its name
    err = _error({"properties": {"play": {"items": {"additionalProperties": False}}}}, {"play": [{"x": 1}]})
    assert ruling_requests.field_of(err) == "play"
    # additionalProperties on something not an object names no extra field
    err = _error({"type": "object", "additionalProperties": False}, [1])
    assert ruling_requests.field_of(err) is None
    # any other error about an object as a whole names none of its fields
    assert ruling_requests.field_of(_error({"minProperties": 2}, {"a": 1})) is None
    assert ruling_requests.field_of(_error({"properties": {"findings": {"minProperties": 2}}},
                                           {"findings": {"a": 1}})) == "findings"
    # a lone surrogate in an unknown field's name is written as its escape
    err = _error({"additionalProperties": False}, {"\ud800": 1})
    assert ruling_requests.field_of(err) == "\\ud800"


def test_the_schema_takes_the_carried_codes_after_its_own():
    own = ruling_requests.schema("play")
    assert ruling_requests.schema_with("play", ["2017", "2007"]) is own
    assert own["properties"]["edition"]["enum"] == ["2017", "2007", "1993-rubber"]
    carried = ruling_requests.schema_with("play", ["2027", "2017", "2030"], default="2027")
    assert carried["properties"]["edition"] == {**own["properties"]["edition"],
                                               "enum": ["2017", "2007", "1993-rubber", "2027", "2030"],
                                               "default": "2027"}
    assert {k: v for k, v in carried["properties"].items() if k != "edition"} == {
        k: v for k, v in own["properties"].items() if k != "edition"}
    # the default stays the file's when the one asked for is not a carried code
    assert ruling_requests.schema_with("play", ["2027"], default="2017")["properties"]["edition"]["default"] == (
        "2017")
    assert own["properties"]["edition"]["enum"] == ["2017", "2007", "1993-rubber"]  # the file's, unchanged


def test_a_carried_code_is_an_edition_the_check_accepts(monkeypatch):
    from laws.rulings import data as rulings_data

    request = {"edition": "2027", "contract": "4S", "declarer": "S"}
    assert refusal("play", request) == ("'edition' must be one of \"2017\", \"2007\", \"1993-rubber\".", "edition")
    monkeypatch.setattr(rulings_data, "editions", lambda period: ["2027", "2017", "2007", "1993-rubber"])
    assert ruling_requests.check("play", request) is None


def test_each_period_has_its_schema_file():
    assert [ruling_requests.path(p).name for p in ruling_requests.PERIODS] == [
        "auction-request.schema.json", "play-request.schema.json", "guided-request.schema.json"]
    assert [ruling_requests.schema(p)["title"].split(":")[0] for p in ruling_requests.PERIODS] == [
        "POST /api/rulings/auction", "POST /api/rulings/play", "POST /api/rulings/guided"]
