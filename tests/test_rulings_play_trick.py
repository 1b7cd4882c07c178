"""Play rulings from a given trick, with the seat at fault (issue 20): a
revoke at trick 5 without entering tricks 1 to 4.  Every request of
tests/fixtures/rulings_play_trick.json through the Python facts and walker
(the JavaScript gives the same replies: test_rulings_play_browser.py); the
request schema agrees with the parser on `trick` and `seat`; the API and
the pages answer bad values with a 400 that names the field."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from laws.rulings import RulingError, play

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_play_trick.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]
EDITIONS = ("2017", "2007", "1993-rubber")
SCHEMA = json.loads((Path(play.__file__).parents[1] / "play-request.schema.json").read_text(encoding="utf-8"))


def summary(reply: dict) -> dict:
    o = reply["outcome"]
    return {"irregularity": reply["irregularity"], "questions": [q["id"] for q in reply["questions"]],
            "outcome": o and {k: o[k] for k in ("penalty_cards", "tricks_transferred", "next")},
            "say": reply["say"].split(". ")[0] if reply["say"] else "", "cites": reply["cites"]}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    for edition in EDITIONS:
        request = {**case["request"], "edition": edition}
        if "error" in case:
            with pytest.raises(RulingError) as info:
                play.rule(request)
            assert {"field": info.value.field, "message": str(info.value)} == case["error"]
            continue
        assert summary(play.rule(request)) == case[edition], (case["id"], edition)


def test_the_cases_cover_what_the_issue_asks():
    """A revoke at trick 5 by the seat at fault alone, in every edition,
    says trick 5; a lead marked as a revoke is refused; each bad trick and
    seat is refused naming its field."""
    by_id = {c["id"]: c for c in CASES}
    for edition in EDITIONS:
        assert by_id["seat-revoke-trick-5-transfer"][edition]["irregularity"] == {
            "index": 0, "seat": "W", "kind": "revoke", "law": "64", "trick": 5, "card": "C3"}
    assert by_id["seat-revoke-trick-5-transfer"]["2017"]["say"] == "West revoked on trick 5: he failed to follow " \
                                                                    "suit though able to (61A)"
    assert {c["error"]["field"] for c in CASES if "error" in c} == {"play", "trick", "seat"}
    assert all("lead cannot be a revoke" in by_id[k]["error"]["message"]
               for k in ("lead-marked-revoke", "lead-to-trick-6-marked-revoke", "lead-out-of-turn-marked-revoke"))


def test_tricks_count_from_the_trick_entered():
    """The same revoke, entered from trick 1 in full and from trick 5 alone,
    gets the same facts: the tricks before it change nothing but the number."""
    early = [["W", "D2"], ["N", "D3"], ["E", "D4"], ["S", "DA"]]  # South wins trick 1 and leads trick 2
    trick = [["S", "H2"], ["W", "C3"], ["N", "H4"], ["E", "H3"],   # West shows out; North wins
             ["N", "D5"], ["E", "D6"], ["S", "D7"], ["W", "H7"]]    # West plays a heart: established
    base = {"contract": "4S", "declarer": "S", "findings": {"noticed": "play", "other_revoke": "none",
                                                            "penalty_card_revoke": False}}
    full = play.rule({**base, "play": early + trick})
    from_2 = play.rule({**base, "trick": 2, "play": trick})
    assert full["irregularity"] == {"index": 5, "seat": "W", "kind": "revoke", "law": "64", "trick": 2, "card": "C3"}
    assert from_2["irregularity"] == dict(full["irregularity"], index=1)
    assert [from_2[k] for k in ("questions", "options", "outcome", "say", "cites", "path")] == \
        [full[k] for k in ("questions", "options", "outcome", "say", "cites", "path")]


def test_every_case_request_fits_the_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    valid = jsonschema.Draft202012Validator(SCHEMA)
    for case in CASES:
        errors = list(valid.iter_errors(case["request"]))
        field = case.get("error", {}).get("field")
        if field in ("trick", "seat") and any(e.path and e.path[0] == field for e in errors):
            continue  # refused by the schema as by the parser, for the same field
        assert not errors, (case["id"], [e.message for e in errors])


@pytest.mark.parametrize("value, ok", [(1, True), (13, True), (5.0, True), (0, False), (14, False), (-1, False),
                                       ("5", False), (True, False), (None, False), (5.5, False), ([5], False)])
def test_schema_and_parser_agree_on_the_trick(value, ok):
    request = {"contract": "4S", "declarer": "S", "trick": value, "play": [["W", "HK"]]}
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(request) is ok
    try:
        play.parse_request(request)
        parsed = True
    except RulingError as exc:
        assert exc.field == "trick"
        parsed = False
    assert parsed is ok


@pytest.mark.parametrize("value, ok", [("N", True), ("W", True), ("X", False), ("w", False), (None, False),
                                       (1, False), ("", False)])
def test_schema_and_parser_agree_on_the_seat(value, ok):
    card = [value if value in ("N", "E", "S", "W") else "E", "HK", "exposed"]  # (the seat's own card)
    request = {"contract": "4S", "declarer": "S", "trick": 5, "seat": value, "play": [card]}
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(request) is ok
    try:
        play.parse_request(request)
        parsed = True
    except RulingError as exc:
        assert exc.field == "seat"
        parsed = False
    assert parsed is ok


# --- over HTTP ---------------------------------------------------------------------------

REVOKE_5 = {"edition": "2017", "contract": "4S", "declarer": "S", "trick": 5, "seat": "W",
            "play": [["W", "C3", "revoke"]],
            "findings": {"established": True, "noticed": "play", "other_revoke": "none",
                         "penalty_card_revoke": False, "won_by": "opponents", "later_won": True}}


def test_api_rules_a_revoke_at_trick_5(client):
    r = client.post("/api/rulings/play", json=REVOKE_5)
    assert r.status_code == 200
    body = r.get_json()
    assert body["irregularity"] == {"index": 0, "seat": "W", "kind": "revoke", "law": "64", "trick": 5, "card": "C3"}
    assert body["cites"] == ["61A", "63A", "63B", "64A2", "64C1"]
    assert body["outcome"]["tricks_transferred"] == 1


@pytest.mark.parametrize("change, field", [
    ({"trick": 0}, "trick"), ({"trick": "5"}, "trick"), ({"trick": 14}, "trick"),
    ({"seat": "X"}, "seat"), ({"seat": "N"}, "seat"),
    ({"seat": None, "play": [["W", "C3", "revoke"]]}, "seat"),
])
def test_api_bad_trick_or_seat(client, change, field):
    r = client.post("/api/rulings/play", json={**REVOKE_5, **change})
    assert r.status_code == 400
    assert r.get_json()["field"] == field and r.get_json()["error"]


def test_api_refuses_a_lead_marked_as_a_revoke(client):
    r = client.post("/api/rulings/play", json={"contract": "4S", "declarer": "S", "trick": 5,
                                               "play": [["W", "C3", "revoke"]]})
    assert r.status_code == 400
    assert r.get_json() == {"error": "Card 1: West's 3 of clubs is the lead to trick 5, and a lead cannot be a "
                                     "revoke: a revoke is a failure to follow suit to the card led (61A). Enter the "
                                     "lead before it, or give the seat at fault (W) with his card alone.",
                            "field": "play"}


PAGE = ("/rulings/play?edition=2017&contract=4S&declarer=S&trick=5&seat=W&play=W:C3:revoke&established=yes"
        "&noticed=play&other_revoke=none&penalty_card_revoke=no&won_by=opponents&later_won=yes")


def test_page_rules_from_the_trick_and_the_seat(client):
    r = client.get(PAGE)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Law 64: revoke by West" in html and "West revoked on trick 5" in html
    assert 'id="f-trick" name="trick" type="number" min="1" max="13" value="5" placeholder="1"' in html
    assert '<option value="W" selected>West</option>' in html.split('id="f-seat"')[1].split("</select>")[0]
    # the record's address carries the trick and the seat
    assert "trick=5" in html.split('id="play-record"')[1].split(">")[0]
    assert "seat=W" in html.split('id="play-record"')[1].split(">")[0]


@pytest.mark.parametrize("query, field_words", [
    ("trick=0", "The trick is a number from 1 to 13"),
    ("trick=five", "The trick is a number from 1 to 13"),
    ("trick=5&seat=Q", "The seat at fault is one of N, E, S, W."),
    ("play=W:C3:revoke", "a lead cannot be a revoke"),
])
def test_page_bad_trick_or_seat_is_a_400(client, query, field_words):
    r = client.get("/rulings/play?contract=4S&declarer=S&" + query)
    assert r.status_code == 400
    assert field_words in r.get_data(as_text=True)


def test_record_says_trick_5(client):
    """The ruling record made from the page's address: the ruling says trick
    5 and what was entered lists the trick and the seat."""
    r = client.get("/rulings/record.txt?procedure=play&" + PAGE.split("?", 1)[1])
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert "West revoked on trick 5" in text
    entered = next(line for line in text.splitlines() if line.startswith("Entered: "))
    assert entered == "Entered: Contract: 4♠; Declarer: South; Trick: 5; At fault: West; Play: West played the ♣3 (revoke)"


# --- issue 21: the defective trick, 64A2's condition, the seat named ---------------------

def _defective(**findings) -> dict:
    return {"contract": "4S", "declarer": "S", "trick": 4, "seat": "E", "play": [],
            "findings": {"defective": "omitted", "when": "after", "misplaced": False, "has_suit": True, **findings}}


@pytest.mark.parametrize("edition", ["2017", "2007"])
def test_defective_trick_asks_64A2s_condition_and_names_the_seat(edition):
    """67B1: a deemed revoke, one trick transferred as in 64A2, so only if the
    offending side won the defective trick or a later one: who won it and
    whether they won a later one are asked, citing 64A2; every word names East
    (never "the offender"); none won gives 0, not null."""
    first = play.rule({**_defective(), "edition": edition})
    q = first["questions"][0]
    assert (q["id"], q["text"], q["cites"], q["answers"]) == (
        "won_by", "Who won the defective trick (trick 4)? (East played no card to it.)", ["64A2"],
        [{"value": "partner", "label": "West, East's partner"}, {"value": "opponents", "label": "The non-offending side"}])
    second = play.rule({**_defective(won_by="opponents"), "edition": edition})
    assert [(q["id"], q["text"], q["cites"]) for q in second["questions"]] == [
        ("later_won", "Did East's side win any trick after the defective trick (trick 4)?", ["64A2"])]
    none_won = play.rule({**_defective(won_by="opponents", later_won=False), "edition": edition})
    assert none_won["outcome"]["tricks_transferred"] == 0
    for reply in (first, second, none_won):
        words = reply["say"] + " ".join(q["text"] + " ".join(a["label"] for a in q["answers"] or [])
                                        for q in reply["questions"])
        assert "the offender" not in words and "East" in words, words


@pytest.mark.parametrize("edition", ["2017", "2007"])
def test_defective_trick_cannot_have_been_won_by_the_offender(edition):
    """He played no card to it (67B1): `won_by: offender` answers no question here."""
    with pytest.raises(RulingError) as info:
        play.rule({**_defective(won_by="offender"), "edition": edition})
    assert info.value.field == "findings.won_by"


def test_unintended_designation_asks_each_editions_test():
    """One finding, two tests (45C4(b)): each edition's question says its own."""
    req = {"contract": "4S", "declarer": "S", "play": [["W", "HK"], ["N", "H2"], ["N", "HQ", "changed"]]}
    asked = {ed: play.rule({**req, "edition": ed})["questions"][0] for ed in ("2017", "2007")}
    assert asked["2017"]["text"] == ("Was naming the 2 of hearts a slip of the tongue, rather than a loss of "
                                     "concentration or a reconsideration of action?")
    assert asked["2007"]["text"] == ("Was designating the 2 of hearts unintended, and was it changed without "
                                     "pause for thought?")
    assert asked["2017"]["cites"] == asked["2007"]["cites"] == ["45C4(b)"]


def test_a_revoke_or_defective_trick_ruling_always_says_how_many_tricks():
    """CONTRACT v3: 0 where the ruling decides a transfer and none is made;
    every revoke and defective-trick ruling of both fixture files, in every
    edition, gives a number."""
    from test_rulings_play import CASES as PLAY_CASES, request
    replies = [play.rule(request(c, ed)) for c in PLAY_CASES for ed in EDITIONS if ed in c and "error" not in c[ed]]
    replies += [play.rule({**c["request"], "edition": ed}) for c in CASES if "error" not in c for ed in EDITIONS]
    ruled = [r for r in replies if r["outcome"] and r["irregularity"]
             and r["irregularity"]["kind"] in ("revoke", "defective-trick")]
    assert len(ruled) > 100
    assert all(isinstance(r["outcome"]["tricks_transferred"], int) for r in ruled)
    assert any(r["outcome"]["tricks_transferred"] == 0 for r in ruled)


def test_page_says_no_trick_transferred(client):
    r = client.get("/rulings/play?edition=2017&contract=4S&declarer=S&trick=4&seat=E&defective=omitted&when=after"
                   "&misplaced=no&has_suit=yes&won_by=opponents&later_won=no")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "<dt>Tricks transferred</dt><dd>No trick transferred</dd>" in html
    assert "Law 67: defective trick by East" in html


def test_page_defective_trick_without_seat_is_a_400(client):
    r = client.get("/rulings/play?edition=2017&contract=4S&declarer=S&defective=omitted&when=after")
    assert r.status_code == 400
    assert "A defective trick is ruled for the player at fault" in r.get_data(as_text=True)
