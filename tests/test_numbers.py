"""Numbers in input (the hardening issue): a number that is not a whole number
where one is due is a 400 naming the field, whatever JSON spells it as
(`0.999…9`, which a float reads as 1; `1e400`; `7.5`; `true`), a whole number
written with a point or an exponent (`7.0`, `7E0`) is that number, as JSON
Schema counts it, and a number literal over MAX_NUMBER_CHARS characters is
refused before it is parsed, in a JSON body and in a checker page's address
alike."""
from __future__ import annotations

import json

import pytest

from laws.web import limits

MAX_NUMBER_CHARS = 30  # as README.md's Security section says
NINES = "0." + "9" * 60_000  # float() reads it as 1.0: board 1, until now
LONG_INT = "1" * (MAX_NUMBER_CHARS + 1)
BOARD_7 = {"board": 7, "dealer": "S", "vulnerable": "Both", "cycle_position": 7}


def _post(client, url: str, body: str):
    return client.post(url, data=body, content_type="application/json")


def _error(r) -> dict:
    assert r.status_code == 400, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.content_type == "application/json"
    return r.get_json()


# --- a whole number where one is due ------------------------------------------------------

@pytest.mark.parametrize("literal", ["true", "false", "7.5", "0.5"])
def test_board_that_is_not_a_whole_number_is_a_400_naming_the_field(client, literal):
    r = _post(client, "/api/checkers/board", '{"board": %s}' % literal)
    assert _error(r) == {"error": "Board number must be a whole number.", "field": "board"}


@pytest.mark.parametrize("literal, error", [
    ("0.99999999999999999999", "board is not read exactly: 0.99999999999999999999 would be read as 1."),
    ("6.9999999999999999999", "board is not read exactly: 6.9999999999999999999 would be read as 7."),
    ("1e400", f"board is too large: a number of at most {MAX_NUMBER_CHARS} digits is read."),
    ("-1e400", f"board is too large: a number of at most {MAX_NUMBER_CHARS} digits is read."),
])
def test_a_number_a_float_would_misread_is_a_400_naming_the_field(client, literal, error):
    r = _post(client, "/api/checkers/board", '{"board": %s}' % literal)
    assert _error(r) == {"error": error, "field": "board"}


@pytest.mark.parametrize("literal", ["7.0", "7E0", "0.7e1", "700e-2"])
def test_a_whole_number_written_with_a_point_is_that_number(client, literal):
    r = _post(client, "/api/checkers/board", '{"board": %s}' % literal)
    assert (r.status_code, r.get_json()["result"]) == (200, BOARD_7)


def test_the_limit_is_the_documented_one():
    assert limits.MAX_NUMBER_CHARS == MAX_NUMBER_CHARS


def test_a_whole_number_is_still_read(client):
    r = _post(client, "/api/checkers/board", '{"board": 7}')
    assert r.status_code == 200
    assert r.get_json()["result"] == BOARD_7


def test_an_item_of_a_list_of_whole_numbers_is_named(client):
    r = _post(client, "/api/checkers/matchpoints", '{"scores": [420, 420.5, 450]}')
    assert _error(r) == {"error": "Scores: score 2 must be a whole number.", "field": "scores"}


def test_a_number_field_still_takes_a_fraction(client):
    r = client.post("/api/checkers/victory-points", json={"margin": 12.5, "boards": 8})
    assert (r.status_code, r.get_json()["result"]) == (200, {"team_a": 14.54, "team_b": 5.46, "blitz": 42.43,
                                                             "capped": False}), r.get_json()


def test_a_play_ruling_trick_must_be_a_whole_number(client):
    for literal in ("5.5", "4.99999999999999999999", "1e400", "true"):
        r = _post(client, "/api/rulings/play", '{"contract": "4S", "declarer": "S", "trick": %s}' % literal)
        body = _error(r)
        assert body["field"] == "trick", body


# --- long literals, refused before they are parsed ---------------------------------------------

@pytest.mark.parametrize("literal", [NINES, LONG_INT, "-" + LONG_INT, "1" + "0" * 40 + ".5", "1e" + "0" * 40])
def test_a_long_number_in_a_checker_body_is_refused_naming_the_field(client, literal):
    r = _post(client, "/api/checkers/board", '{"board": %s}' % literal)
    assert _error(r) == {"error": f"board must be a number of at most {MAX_NUMBER_CHARS} characters "
                                  f"(it has {len(literal)}).", "field": "board"}


def test_a_number_of_thirty_characters_is_read(client):
    """Board numbers have no maximum: 30 digits are a board (its dealer is the
    remainder's), so the limit refuses nothing a number of its size means."""
    literal = "1" * MAX_NUMBER_CHARS
    r = _post(client, "/api/checkers/board", '{"board": %s}' % literal)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["result"]["board"] == int(literal)


def test_a_long_number_deep_in_a_body_names_its_top_field(client):
    r = _post(client, "/api/checkers/matchpoints", '{"scores": [1, 2, %s]}' % LONG_INT)
    assert _error(r) == {"error": f"scores must be a number of at most {MAX_NUMBER_CHARS} characters "
                                  f"(it has {len(LONG_INT)}).", "field": "scores"}


@pytest.mark.parametrize("url, body, field", [
    ("/api/rulings/play", '{"contract": "4S", "declarer": "S", "trick": %s}', "trick"),
    ("/api/rulings/auction", '{"dealer": "N", "calls": [], "findings": {"change": {"index": %s}}}',
     "findings.change.index"),
    ("/api/rulings/guided", '{"procedure": "x", "answers": {"a": [%s]}}', "answers.a"),
])
def test_a_long_number_in_a_ruling_body_is_refused_naming_the_field(client, url, body, field):
    r = _post(client, url, body % NINES)
    assert _error(r) == {"error": f"{field} must be a number of at most {MAX_NUMBER_CHARS} characters "
                                  f"(it has {len(NINES)}).", "field": field}


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_no_json_numbers(client, constant):
    r = _post(client, "/api/checkers/board", '{"board": %s}' % constant)
    assert _error(r) == {"error": f"board must be a number: {constant} is not one in JSON.", "field": "board"}


# --- the same in a checker page's address -----------------------------------------------------

@pytest.mark.parametrize("value", [NINES[:5000], LONG_INT, "1e" + "0" * 40])
def test_a_long_number_in_a_checker_address_is_a_400_naming_the_field(client, value):
    r = client.get("/checkers/board", query_string={"board": value})
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert f"Board number must be a number of at most {MAX_NUMBER_CHARS} characters" in page


@pytest.mark.parametrize("value", ["1.0", "0.9999999", "1e400", "true"])
def test_a_board_in_a_checker_address_that_is_not_whole_is_a_400(client, value):
    r = client.get("/checkers/board", query_string={"board": value})
    assert r.status_code == 400
    assert "Board number must be a whole number." in r.get_data(as_text=True)
