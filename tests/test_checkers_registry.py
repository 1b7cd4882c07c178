"""Every checker is documented, tested, and cites provisions that exist in the
built store; the build links the checkers to the laws they implement."""
from __future__ import annotations

import json
import re
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest

from laws.checkers import registry

CHECKERS = registry.all_checkers()
IDS = [c.id for c in CHECKERS]
TESTS = Path(__file__).parent
REQUIRED = {"board", "score", "imps", "matchpoints", "auction", "artificial-score", "weighted-score",
            "team-average", "trick", "dummy-designation", "penalty-card", "revoke"}


def test_the_required_checkers_exist():
    assert REQUIRED <= set(IDS)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_id_is_lowercase_words_with_hyphens(c):
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", c.id)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_is_documented(c):
    assert len(c.doc) > 80, f"{c.id} needs a docstring saying what it does, its inputs and its result"
    assert c.title and c.summary
    for name, prop in c.input_schema["properties"].items():
        assert prop.get("title"), f"{c.id}: field {name} needs a title, used in messages and forms"
        assert name in c.doc, f"{c.id}: the docstring does not mention its input {name!r}"
    readme = (Path(registry.__file__).parent / "README.md").read_text(encoding="utf-8")
    assert f"`{c.id}`" in readme, f"{c.id} is not described in laws/checkers/README.md"


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_has_its_own_tests(c):
    """Each checker's id appears, quoted, in a test file of its own part of the
    Laws (not only in the generic registry and web tests)."""
    files = [p for p in TESTS.glob("test_checkers_*.py")
             if p.name not in ("test_checkers_registry.py", "test_checkers_web.py")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    uses = len(re.findall(rf"[\"']{re.escape(c.id)}[\"']", text))
    assert uses >= 2 or c.id == "auction" and "def auction(" in text, f"no tests for checker {c.id}"


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_example_runs_and_cites_what_the_checker_declares(c):
    out = registry.run(c.id, c.example)
    assert set(out) == {"result", "explanation", "cites", "edition"}
    assert out["explanation"].endswith(".") and len(out["explanation"]) > 20
    assert out["cites"] and set(out["cites"]) <= set(c.cites[out["edition"]])


@pytest.mark.parametrize("checker_id, payload, message, field", [
    ("imps", [1], "The input must be a JSON object with the checker's fields (difference).", None),
    ("imps", {}, "Point difference is missing: please give it.", "difference"),
    ("score", {}, "Level is missing: please give it.", "level"),
    # unknown fields: the first in sorted order, a long name cut at 40 characters
    ("imps", {"difference": 1, "zz": 1, "aa": 2}, "This checker has no field 'aa'; its fields are difference.", "aa"),
    ("imps", {"difference": 1, "q" * 41: 1},
     f"This checker has no field '{'q' * 40}…'; its fields are difference.", "q" * 40 + "…"),
    # sizes, before any item is validated
    ("matchpoints", {"scores": [[1, 1, 1]] * 1001}, "Scores can have at most 1000 entries.", "scores"),
    # the size is named before any item: 201 fractions are too many, not a fraction
    ("cross-imps", {"scores": [1.5] * 201}, "Scores can have at most 200 entries.", "scores"),
    # a text longer than a list's maxItems is not a list at all
    ("auction", {"dealer": "N", "calls": "x" * 401}, "Calls must be a list.", "calls"),
    # 1000 characters are within MAX_STRING: the schema's own maxLength names it
    ("auction", {"dealer": "N", "calls": ["x" * 1000]}, "Calls: call 1 is too long (at most 20 characters).",
     "calls"),
    ("matchpoints", {"scores": [[1] * 5] * 1000}, "The input has more than 5000 values; no checker needs so many.",
     None),
    ("auction", {"dealer": "N", "calls": ["x" * 1001]}, "Calls is too long (at most 1000 characters).", "calls"),
    # whole numbers and finite numbers
    ("imps", {"difference": 1.5}, "Point difference must be a whole number.", "difference"),
    ("victory-points", {"margin": 1, "boards": 8.5}, "Boards in the match must be a whole number.", "boards"),
    ("cross-imps", {"scores": [1, 2.5]}, "Scores: score 2 must be a whole number.", "scores"),
    # a fraction in a list is named before a missing field (weights), as a fraction in a field is
    ("weighted-score", {"outcomes": [1, 2.5]}, "Possible results: result 2 must be a whole number.", "outcomes"),
    ("victory-points", {"margin": float("nan"), "boards": 8}, "Margin must be a finite number.", "margin"),
    ("auction", {"dealer": "N", "calls": [{"a": float("inf")}]}, "Calls must be a finite number.", "calls"),
    # what the schema says, in words
    ("imps", {"difference": "x"}, "Point difference must be a whole number.", "difference"),
    ("auction", {"dealer": "N", "calls": "1H"}, "Calls must be a list.", "calls"),
    ("auction", {"dealer": "N", "calls": [1]}, "Calls: call 1 must be text.", "calls"),
    ("score", {"level": 1, "strain": "C", "tricks": 7, "vulnerable": "yes"},
     "Declaring side vulnerable must be true or false.", "vulnerable"),
    ("score", {"level": 1, "strain": "C", "risk": "Y", "tricks": 7},
     "Doubled or redoubled must be one of '' (undoubled), 'X' (doubled), 'XX' (redoubled).", "risk"),
    ("dummy-designation", {"dummy": ["SA"], "trumps": "C", "designation": "rank", "rank": "1"},
     "Rank named must be one of 'A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'.", "rank"),
    ("board", {"board": 0}, "Board number must be at least 1.", "board"),
    ("score", {"level": 8, "strain": "C", "tricks": 7}, "Level must be at most 7.", "level"),
    ("artificial-score", {"fault": "none", "top": 0}, "Top on the board must be more than 0.", "top"),
    ("weighted-score", {"outcomes": [1], "weights": [0]}, "Weights (%): weight 1 must be more than 0.", "weights"),
    ("matchpoints", {"scores": []}, "Scores needs at least 1 entry.", "scores"),
    ("cross-imps", {"scores": [1]}, "Scores needs at least 2 entries.", "scores"),
    ("cross-imps", {"scores": list(range(201))}, "Scores can have at most 200 entries.", "scores"),
    ("auction", {"dealer": "N", "calls": [], "required_to_pass": ["E", "E"]},
     "Players required to pass names the same player twice.", "required_to_pass"),
    ("trick", {"cards": ["HK"], "trumps": "S", "holdings": ["x" * 81]},
     "Hands before the trick: hand 1 is too long (at most 80 characters).", "holdings"),
    ("revoke", {"won_by": "offending player", "later_tricks": 0, "edition": "1066"},
     # str.capitalize lowers the rest of the title, as the JavaScript port's pyCapitalize does
     "Edition of the laws must be one of '2017' (Laws of Duplicate Bridge 2017), '2007' (Laws of Duplicate Bridge "
     "2007), '1993-rubber' (Laws of Contract Bridge 1993 (rubber)).", "edition"),
])
def test_bad_input_is_refused_in_words_naming_the_field(checker_id, payload, message, field):
    with pytest.raises(registry.BadRequest) as info:
        registry.run(checker_id, payload)
    assert (str(info.value), info.value.field) == (message, field)


def test_the_limit_on_values_counts_every_value_once():
    # 1 (scores) + 1 + 833 + 833 x 5 = 5000 values: within the limit (then refused for what they are)
    with pytest.raises(registry.BadRequest) as info:
        registry.run("matchpoints", {"scores": [[[1] * 5] * 833]})
    assert str(info.value) == "Scores: score 1 must be a whole number."
    # 1 + 2 + 2 x 833 + 2 x 833 x 2 = 5001: one too many
    with pytest.raises(registry.BadRequest) as info:
        registry.run("matchpoints", {"scores": [[[1] * 2] * 833] * 2})
    assert str(info.value) == "The input has more than 5000 values; no checker needs so many."


def test_a_field_name_of_forty_characters_is_named_whole():
    with pytest.raises(registry.BadRequest) as info:
        registry.run("imps", {"difference": 1, "q" * 40: 1})
    assert (str(info.value), info.value.field) == (
        f"This checker has no field '{'q' * 40}'; its fields are difference.", "q" * 40)


def _explained(schema: dict, payload) -> tuple[str, str | None]:
    import jsonschema

    errors = jsonschema.Draft202012Validator(schema).iter_errors(payload)
    return registry._explain(schema, registry.first_error(schema, errors))


def test_errors_no_checker_schema_makes_today_are_still_in_words():
    """A pattern (with its hint, or without), a rule the messages do not name,
    and one about the whole input: what a new checker's schema may bring."""
    schema = {"type": "object", "minProperties": 2, "properties": {
        "code": {"type": "string", "pattern": "^a$", "title": "code", "x-format-hint": "the letter a"},
        "plain": {"type": "string", "pattern": "^a$"},
        "n": {"type": "number", "multipleOf": 2, "title": "n"}}}
    assert _explained(schema, {"code": "b", "n": 2}) == ("Code is not in the expected form (the letter a).", "code")
    assert _explained(schema, {"plain": "b", "n": 2}) == (
        "Plain is not in the expected form (see the description).", "plain")
    assert _explained(schema, {"n": 3, "code": "a"}) == ("N is not acceptable: 3 is not a multiple of 2.", "n")
    assert _explained(schema, {"n": 2}) == (
        "The input is not acceptable: {'n': 2} does not have enough properties.", None)


def test_the_first_field_in_the_forms_order_is_named_even_for_an_item():
    # cards (the first field) has a bad item, trumps (the second) a bad value: cards is named
    with pytest.raises(registry.BadRequest) as info:
        registry.run("trick", {"cards": [1], "trumps": "X"})
    assert (str(info.value), info.value.field) == ("Cards played: card 1 must be text.", "cards")
    # several unknown fields (were _bound not to catch them first): the first in sorted order
    assert _explained({"properties": {"a": {}}, "additionalProperties": False}, {"z": 1, "b": 2}) == (
        "This checker has no field 'b'; its fields are a.", "b")


def test_an_edition_a_checker_has_no_data_for_is_its_own_file():
    from laws.checkers import codes

    imps = registry.get("imps")
    assert imps.edition_file("1993-rubber") == codes.editions()["1993-rubber"]
    assert imps.carried_note("1993-rubber") == {}


def test_a_fraction_is_named_before_a_missing_field():
    # the whole-number check runs before the schema's, whose first error would be the missing strain
    with pytest.raises(registry.BadRequest) as info:
        registry.run("score", {"level": 1.5})
    assert (str(info.value), info.value.field) == ("Level must be a whole number.", "level")
    assert registry.get("revoke").editions == ["2017", "2007", "1993-rubber"]


# 1.0 == 1 in Python: the tests below compare JSON text, which tells 1.0 from 1

def test_only_whole_number_fields_are_made_whole():
    weighted = registry.get("weighted-score")
    assert json.dumps(registry.validate(weighted, {"outcomes": [1.0, 2], "weights": [33.5, 66.5]})) == (
        '{"outcomes": [1, 2], "weights": [33.5, 66.5]}')
    assert json.dumps(registry.validate(weighted, {"outcomes": [1.0, 2], "weights": [50.0, 50.0]})) == (
        '{"outcomes": [1, 2], "weights": [50.0, 50.0]}')


def test_a_whole_number_written_with_a_point_is_that_number():
    assert json.dumps(registry.run("imps", {"difference": 450.0})["result"], ensure_ascii=False) == (
        '{"difference": 450, "imps": 10, "band": "430–490"}')
    assert json.dumps(registry.validate(registry.get("matchpoints"), {"scores": [1.0, 2, 3.0]})) == (
        '{"scores": [1, 2, 3]}')
    assert json.dumps(registry.validate(registry.get("victory-points"), {"margin": 2.5, "boards": 8.0})) == (
        '{"margin": 2.5, "boards": 8}')
    # a field left out (risk, before tricks in the schema) does not stop the fields after it being made whole
    assert json.dumps(registry.validate(registry.get("score"), {"level": 1.0, "strain": "C", "tricks": 7.0})) == (
        '{"level": 1, "strain": "C", "tricks": 7}')


def test_an_unknown_checker_is_named_with_the_others():
    with pytest.raises(registry.UnknownChecker) as info:
        registry.get("nope")
    assert str(info.value) == f"There is no checker 'nope'. Checkers: {', '.join(IDS)}."


def test_the_edition_asked_for_is_the_one_answered_in():
    out = registry.run("revoke", {"won_by": "offending player", "later_tricks": 0, "edition": "1993-rubber"})
    assert (out["edition"], out["cites"]) == ("1993-rubber", ["64(a)"])
    assert registry.run("imps", {"difference": 450})["edition"] == "2017"


def test_a_checkers_description_and_schema():
    imps = registry.get("imps")
    d = imps.describe()
    assert (d["id"], d["title"], d["cites"], d["editions"], d["cites_by_edition"]) == (
        "imps", imps.title, ["78B"], ["2017", "2007"], {"2017": ["78B"], "2007": ["78B"]})
    assert d["description"] == imps.summary == imps.doc_paragraphs[0]
    assert d["input_schema"] == {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": imps.title,
                                 "type": "object", "additionalProperties": False,
                                 "properties": imps.properties, "required": ["difference"]}
    edition = registry.get("revoke").schema()["properties"]["edition"]
    assert (edition["enum"], edition["default"], edition["x-labels"]) == (
        ["2017", "2007", "1993-rubber"], "2017",
        {"2017": "Laws of Duplicate Bridge 2017", "2007": "Laws of Duplicate Bridge 2007",
         "1993-rubber": "Laws of Contract Bridge 1993 (rubber)"})
    assert registry.get("revoke").flat_cites()[:3] == ["64A1", "64A2", "64B1"]


def test_checkers_and_results_cannot_be_changed_once_made():
    """A checker in the registry is shared by every request (and thread), and
    run() makes a new Result to give it its edition: neither is changed in place."""
    imps = replace(registry.get("imps"))
    with pytest.raises(FrozenInstanceError):
        imps.title = "changed"
    result = registry.Result({"imps": 10}, "Ten IMPs.", ["78B"])
    with pytest.raises(FrozenInstanceError):
        result.edition = "2017"
    assert (imps.title, result.edition) == (registry.get("imps").title, None)


def test_the_links_are_one_row_per_checker_edition_and_provision():
    rows = registry.links()
    assert {"checker": "imps", "edition": "2007", "provision": "78B", "title": registry.get("imps").title} in rows
    assert len(rows) == sum(len(ids) for c in CHECKERS for ids in c.cites_for(registry.Codes(None)).values())
    assert len({(r["checker"], r["edition"], r["provision"]) for r in rows}) == len(rows)


# 2017's imps carried into a made-up 2027 code, its 78B awaiting review
CARRIED_2027 = {"edition": "2027", "title": "Laws of Duplicate Bridge 2027",
                "tables": {}, "checkers": {"imps": {"cites": ["2017:78B"], "law": {"imps": "2017:78B"}}},
                "carried": {"from": "2017", "checkers": {"imps": {"notes": {
                    "2017:78B": "78B has no counterpart in the 2027 Laws"}}}}}


def test_a_checker_carried_into_a_new_code_answers_in_it():
    from laws.checkers import codes

    corpus = codes.Codes(in_force="2027", years={"2007": 2007, "2017": 2017, "2027": 2027},
                         families={"2007": "duplicate", "2017": "duplicate", "2027": "duplicate"},
                         carried={"2027": {**CARRIED_2027, "tables": codes.editions()["2017"]["tables"]}})
    imps = registry.get("imps")
    assert imps.editions_for(corpus) == ["2027", "2017", "2007"]
    assert imps.cites_for(corpus) == {"2027": ["2017:78B"], "2017": ["78B"], "2007": ["78B"]}
    assert registry.run("imps", {"difference": 450}, corpus) == {
        "result": {"difference": 450, "imps": 10, "band": "430–490"},
        "explanation": "A difference of 450 points is in the band 430–490 of the IMP scale, so the contestant "
                       "gains 10 IMPs.",
        "cites": ["2017:78B"], "edition": "2027", "carried_from": "2017", "reviewed": False,
        "review": "not yet reviewed for 2027: 78B has no counterpart in the 2027 Laws"}
    # an older code asked for answers as before, with no note
    assert registry.run("imps", {"difference": 450}, codes.Codes(None))["edition"] == "2017"
    assert imps.carried_note("2017", corpus) == {}
    assert registry.get("revoke").editions_for(corpus) == ["2017", "2007", "1993-rubber"]


def _carried_but(checker_ids: tuple[str, ...], waiting: str, change: str) -> "registry.Codes":
    """A made-up 2027 code whose checkers' data was carried from 2017's, each
    provision to its namesake but `waiting`, which awaits review (`change`)."""
    from laws.checkers import codes

    own = codes.editions()["2017"]
    data = {"edition": "2027", "title": "Laws of Duplicate Bridge 2027", "tables": own["tables"], "checkers": {},
            "carried": {"from": "2017", "checkers": {}}}
    for cid in checker_ids:
        way = {pid: ([pid], "unchanged") for pid in own["checkers"][cid]["cites"]}
        way[waiting] = (None, change)
        entry, notes = codes.carry_entry(own["checkers"][cid], way, "2017", "2027")
        data["checkers"][cid] = entry
        data["carried"]["checkers"][cid] = {"notes": notes}
    return codes.Codes(in_force="2027", years={"2007": 2007, "2017": 2017, "2027": 2027},
                       families={"2007": "duplicate", "2017": "duplicate", "2027": "duplicate"},
                       carried={"2027": data})


def test_a_carried_reply_names_a_waiting_law_in_words_inside_the_result_but_keeps_its_cites():
    """The words of a carried reply are rewritten at any depth of the result
    (a dict inside it), while every list named `cites` keeps the qualified
    form a link needs."""
    corpus = _carried_but(("auction",), "27", "27 was rewritten in 2027")
    out = registry.run("auction", {"dealer": "N", "calls": ["1H", "1D"]}, corpus)
    assert out["result"]["irregularity"] == {
        "index": 1, "call": "1D", "player": "E", "problem": "an insufficient bid: 1D does not supersede 1H",
        "law": "27 (2017 Laws)", "cites": ["18D", "2017:27"]}
    assert (out["cites"], out["edition"], out["review"]) == (
        ["17B", "17C", "18C", "18D", "2017:27"], "2027", "not yet reviewed for 2027: 27 was rewritten in 2027")
    assert out["explanation"] == (
        "Call 2 (1D by East) is inadmissible, an insufficient bid: 1D does not supersede 1H, and Law 27 (2017 "
        "Laws) applies. Before it: the auction is not complete: the last bid is 1H by North and East was to call.")


def test_a_carried_checkers_notes_and_result_strings_are_the_carried_codes():
    corpus = _carried_but(("dummy-designation",), "46B1(c)", "46B1(c) now names the card played")
    dd = registry.get("dummy-designation")
    out = registry.run("dummy-designation", {"dummy": ["SK", "S7", "S3", "H9"], "trick": ["S5"], "trumps": "H",
                                             "designation": "low"}, corpus)
    assert (out["result"], out["cites"]) == (
        {"deemed": "S3", "chooser": None, "legal_cards": ["SK", "S7", "S3"], "rule": "46B1(c) (2017 Laws)",
         "legal": True}, ["46B", "2017:46B1(c)"])
    # 2017's note is carried with its data: the codes given are the ones read, not the manifest's
    data_file = Path(registry.__file__).parent / "data" / "2017.json"
    note = json.loads(data_file.read_text(encoding="utf-8"))["checkers"]["dummy-designation"]["note"]
    assert note.startswith("The 2017 Laws say in 46B1(a) and (c) what the 2007 text left to reading")
    assert dd.notes(corpus) == [("2027", note), ("2017", note)]


def test_every_cited_provision_exists_in_the_built_store(db):
    assert registry.missing_cites(db) == []


def _data_folder(tmp_path, editions: dict) -> Path:
    """A data folder like laws/checkers/data with the given editions' files."""
    (tmp_path / "schemas.json").write_text("{}", encoding="utf-8")
    for ed, checkers in editions.items():
        (tmp_path / f"{ed}.json").write_text(json.dumps({"edition": ed, "title": f"Laws {ed}", "checkers": checkers}),
                                             encoding="utf-8")
    return tmp_path


def test_missing_cites_catches_a_provision_that_does_not_exist(db, tmp_path):
    folder = _data_folder(tmp_path, {"2007": {"fake": {"cites": ["77", "77Z"]}},
                                     "1993-rubber": {"fake": {"cites": ["64(e)"]}}})
    fake = registry.Checker("fake", "Fake", {}, [], lambda d, ed: None, folder=folder)
    assert sorted(registry.missing_cites(db, [fake])) == [("fake", "1993-rubber", "64(e)"), ("fake", "2007", "77Z")]


def test_the_build_writes_every_link(db):
    rows = {(r["checker"], r["edition"], r["provision"]) for r in
            db.execute("select checker, edition, provision from checker_cites")}
    assert rows == {(r["checker"], r["edition"], r["provision"]) for r in registry.links()}


def test_a_provision_a_data_file_names_twice_is_linked_once(tmp_path, monkeypatch):
    from laws import store

    (tmp_path / "data").mkdir()
    folder = _data_folder(tmp_path / "data", {"2007": {"fake": {"cites": ["77", "77", "78B"]}}})
    fake = registry.Checker("fake", "Fake", {}, [], lambda d, ed: None, folder=folder)
    monkeypatch.setitem(registry.REGISTRY, "fake", fake)
    db = store.create(tmp_path / "laws.sqlite")
    registry.write_links(db)
    rows = list(db.execute("select checker, edition, provision, title from checker_cites where checker = 'fake'"
                           " order by provision"))
    assert rows == [("fake", "2007", "77", "Fake"), ("fake", "2007", "78B", "Fake")]


@pytest.mark.parametrize("edition, number, checker", [
    ("2007", 2, "board"), ("2007", 77, "score"), ("2007", 78, "imps"), ("2007", 78, "matchpoints"),
    ("2007", 12, "artificial-score"), ("2007", 12, "weighted-score"), ("2007", 86, "team-average"),
    ("2007", 27, "auction"), ("2007", 22, "auction"), ("2007", 44, "trick"), ("2007", 46, "dummy-designation"),
    ("2007", 50, "penalty-card"), ("1993-rubber", 50, "penalty-card"), ("2007", 64, "revoke"),
    ("1993-rubber", 64, "revoke"),
])
def test_law_api_lists_the_checkers_that_cite_it(client, edition, number, checker):
    r = client.get(f"/api/laws/{edition}/{number}")
    assert r.status_code == 200
    assert checker in r.get_json()["checkers"]


def test_law_api_does_not_list_unrelated_checkers(client):
    assert "revoke" not in client.get("/api/laws/2007/77").get_json()["checkers"]
    assert client.get("/api/laws/2007/1").get_json()["checkers"] == []
