"""The ruling record of every kind of ruling (guided, auction, play), and the
adjusted score carried into it from the score checkers: made from its
address alone, with the questions and answers, the provisions applied (each
in the store for its edition) and the checkers' results recomputed."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from werkzeug.datastructures import MultiDict

from laws.rulings import RulingError, record

FIXTURES = Path(__file__).resolve().parent / "fixtures"
UI_TO_ADJUSTED = {"ui_source": "partner", "ui_available": "yes", "ui_suggested": "yes",
                  "ui_logical_alternative": "yes", "ui_damaged": "yes", "assigned_possible": "assigned",
                  "self_inflicted": "no"}


def _yes_no(v):
    return "yes" if v is True else "no" if v is False else v


def auction_args(case: dict, edition: str) -> dict:
    """A fixture case as the auction page's address."""
    from laws.web.rulings import calls_text
    args = {"procedure": "auction", "edition": edition, "dealer": case["dealer"],
            "calls": calls_text(case["calls"], case["dealer"])}
    for k, v in case["findings"].items():
        if k == "card":
            args["card"] = f"{v['seat']}:{','.join(v['cards'])}"
            if v.get("led"):
                args["card_led"] = "yes"
        elif k == "change":
            args["change"] = v["call"]
            if "index" in v:
                args["change_index"] = str(v["index"])
        elif k == "required_to_pass":
            args[k] = " ".join(v)
        else:
            args[k] = _yes_no(v)
    return args


def play_args(case: dict, edition: str) -> dict:
    from laws.web.rulings_play import play_text
    return {"procedure": "play", "edition": edition, "contract": case["contract"], "declarer": case["declarer"],
            "play": play_text(case["play"]), **{k: _yes_no(v) for k, v in case["findings"].items()}}


def all_args() -> list[dict]:
    auction = json.loads((FIXTURES / "rulings_auction.json").read_text(encoding="utf-8"))["cases"]
    play = json.loads((FIXTURES / "rulings_play.json").read_text(encoding="utf-8"))["cases"]
    return ([auction_args(c, ed) for c in auction for ed in ("2017", "2007")]
            + [play_args(c, ed) for c in play for ed in ("2017", "2007", "1993-rubber") if ed in c])


def expected_errors() -> int:
    """How many of all_args() the fixtures say are input errors."""
    cases = [c for name in ("rulings_auction.json", "rulings_play.json")
             for c in json.loads((FIXTURES / name).read_text(encoding="utf-8"))["cases"]]
    return sum("error" in c[ed] for c in cases for ed in ("2017", "2007", "1993-rubber") if ed in c)


B = record.BLANK


def with_context(app, rec: dict, values: dict) -> dict:
    """What the phone makes of a record and its fragment's fields (record.js's withContext)."""
    from laws.web.guided import board_info
    ctx = record.context(values)
    with app.test_request_context():
        return record.with_context(rec, ctx, board_info(ctx))


def make(app, args) -> dict:
    from laws.web.guided import make_record
    with app.test_request_context():
        try:
            return make_record(MultiDict(args))
        except RulingError as exc:
            return {"error": exc.field}


# --- records of mechanical rulings ---------------------------------------------------------

def test_every_auction_and_play_case_makes_a_record_citing_provisions_in_the_store(app, db):
    made = 0
    for args in all_args():
        rec = make(app, args)
        if "error" in rec:
            continue
        made += 1
        assert rec["kind"] == args["procedure"] and rec["edition"] == args["edition"]
        ids = [p["id"] for p in rec["provisions"]]
        # a ruling cites nothing only where its code has no law on the matter (the rubber code)
        assert (ids or rec["ruling"].startswith("The 1993 rubber code has no law on ")) \
            and len(ids) == len(set(ids))
        for pid in ids:
            assert db.execute("select 1 from provisions where edition = ? and id = ?",
                              [rec["edition"], pid]).fetchone(), (args, pid)
        for step in rec["steps"]:
            assert set(step["cites"]) <= set(ids) and step["question"] and step["answer"]
        assert rec["complete"] == ("(Not complete" not in rec["ruling"])
    assert made > 300


def test_play_record_lists_the_questions_answered_and_the_rectification(app):
    # 4S by South; East leads the HK out of turn; nobody told him to; declarer could not see dummy;
    # declarer refuses the lead and forbids hearts
    case = {"contract": "4S", "declarer": "S", "play": [["E", "HK"]],
            "findings": {"misinformed": False, "saw_dummy": False}}
    rec = with_context(app, make(app, play_args(case, "2017")), {"event": "Club pairs", "board": "9"})
    assert rec["title"] == "Irregularity in the play: opening lead out of turn (Law 54)"
    assert rec["entered"] == "Contract: 4♠; Declarer: South; Play: East led the ♥K out of turn"
    assert [(s["answer"], s["cites"]) for s in rec["steps"][:2]] == [("No", ["47E1"]), ("No", ["54C"])]
    text = record.as_text(rec)
    assert text.startswith("RULING RECORD — Irregularity in the play: opening lead out of turn (Law 54) (2017 Laws)\n"
                           f"Date: {B}\nTime: {B}\nEvent: Club pairs\nVenue: {B}\nSession: {B}\nRound: {B}\n"
                           f"Board: 9 — Dealer North; East-West vulnerable (board checker, Law 2)\nTable: {B}\n"
                           f"Director: {record.BLANK}\nPlayers: North {record.BLANK}; East {record.BLANK}; "
                           f"South {record.BLANK}; West {record.BLANK}\n"
                           "Entered: Contract: 4♠; Declarer: South; Play: East led the ♥K out of turn\n")
    assert "1. Did an opponent mistakenly tell East it was his turn to lead? [47E1]\n   — No" in text


def test_auction_record_gives_the_call_that_answered(app):
    args = {"procedure": "auction", "edition": "2017", "dealer": "N", "calls": "1H E:1D", "accepted": "no",
            "replacement": "2D", "same_denominations": "yes"}
    rec = make(app, args)
    assert [s["answer"] for s in rec["steps"]] == ["South does not accept it", "2D", "Yes"]
    assert rec["complete"] and "Offender's partner must pass" not in " ".join(rec["notes"])
    assert rec["notes"][-1] == "Next to call: South."


def test_findings_no_question_took_are_kept_with_what_was_entered(app):
    # 2007 31A2: whether East's call repeats the denomination is worked out from his replacement (natural,
    # not artificial): no question takes those findings, so the record lists them with the calls
    args = {"procedure": "auction", "edition": "2007", "dealer": "N", "calls": "E:1S", "accepted": "no",
            "rho_call": "1H", "replacement": "1S", "artificial": "no", "comparable": "yes"}
    rec = make(app, args)
    assert rec["complete"]
    assert rec["entered"] == "Dealer: North; Calls: East 1♠; Also found: comparable: yes, artificial: no, replacement: 1♠"
    assert [s["answer"] for s in rec["steps"]] == ["South does not accept it", "1H"]


def test_record_pages_of_play_rulings(client):
    q = "procedure=play&edition=2017&contract=4S&declarer=S&play=E:HK&misinformed=no"
    html = client.get(f"/rulings/record?{q}").get_data(as_text=True)
    assert "opening lead out of turn (Law 54)" in html and "Law 47E1" in html
    # the record's fields are blank lines to write on (the phone fills them from the fragment)
    assert '<dt>Board</dt><dd class="slot" data-context="board"></dd>' in html
    assert f"\nBoard: {B}\n" in client.get(f"/rulings/record.txt?{q}").get_data(as_text=True)
    bad = client.get("/rulings/record?procedure=play&edition=2017&contract=4S&declarer=S&play=E%3A%3Cb%3E")
    assert bad.status_code == 400 and "<b>" not in bad.get_data(as_text=True)
    # the play page offers the record without JavaScript, with the ruling's own parameters
    page = client.get("/rulings/play?edition=2017&contract=4S&declarer=S&play=E:HK").get_data(as_text=True)
    link = re.search(r'id="play-record"[^>]*href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert dict(parse_qsl(urlsplit(link).query)) == {"procedure": "play", "edition": "2017", "contract": "4S",
                                                     "declarer": "S", "play": "E:HK"}


def test_the_right_to_appeal_is_the_codes_own(client):
    """A duplicate code's record states the right to appeal and cites 92B; the
    rubber code has no appeal procedure (and no Law 92): its record says so
    and cites nothing it does not have."""
    q = "procedure=play&contract=4S&declarer=S&play=E:HK&misinformed=no"
    duplicate = client.get(f"/rulings/record.txt?{q}&edition=2017").get_data(as_text=True)
    rubber = client.get(f"/rulings/record.txt?{q}&edition=1993-rubber").get_data(as_text=True)
    words = record.WORDS["appeal"]
    assert f"Right to appeal: {words['default'].format(minutes='30')} [92B]\n" in duplicate
    assert f"Right to appeal: {words['without']}\n" in rubber and "92B" not in rubber
    html = client.get(f"/rulings/record?{q}&edition=1993-rubber").get_data(as_text=True)
    assert words["without"] in html and "/law/92" not in html


# --- the adjusted score carried from the checkers -----------------------------------------------

WEIGHTED = [("calc", "score;level=4;strain=S;tricks=10;vulnerable=yes;declarer=S;weight=30"),
            ("calc", "score;level=3;strain=S;tricks=9;declarer=S;weight=70"),
            ("calc", "weighted-score;outcomes=620 140;weights=30 70;other_scores=100 140 170 620 650")]


def test_carried_results_are_the_checkers_own(app, db):
    from laws.checkers import registry
    args = [("procedure", "unauthorized-information"), ("edition", "2017"), *UI_TO_ADJUSTED.items(), *WEIGHTED]
    rec = make(app, args)
    results = rec["adjusted"]["results"]
    assert [r["line"] for r in results[:2]] == ["4S by South (vulnerable), 10 tricks, made: NS +620 — weight 30 %",
                                                "3S by South, 9 tricks, made: NS +140 — weight 70 %"]
    assert [r["ns_score"] for r in results[:2]] == [620, 140]
    weighted = registry.run("weighted-score", {"outcomes": [620, 140], "weights": [30, 70],
                                               "other_scores": [100, 140, 170, 620, 650]})
    assert results[2]["result"] == weighted["result"] and results[2]["line"] == weighted["explanation"]
    # the checkers' provisions join the record's, with their text in the edition
    ids = [p["id"] for p in rec["provisions"]]
    assert {"77", "78A", "12C1(c)"} <= set(ids) and ids.index("77") > ids.index("16B1(a)")
    text = record.as_text(rec)
    assert "- 3S by South, 9 tricks, made: NS +140 — weight 70 % [77]" in text
    assert "that is 4.2 on a top of 10 (42 %)" in text


def test_carried_results_from_the_other_side_and_artificial_scores(app):
    args = [("procedure", "claim"), ("edition", "2007"),
            ("calc", "score;level=4;strain=H;risk=X;tricks=9;declarer=W"),
            ("calc", "artificial-score;fault=none;scoring=imps;side=NS")]
    rec = make(app, args)
    score, artificial = rec["adjusted"]["results"]
    assert score["line"] == "4HX by West, 9 tricks, down 1: EW -100" and score["ns_score"] == 100
    assert artificial["line"].startswith("North-South: A contestant in no way at fault gets average plus")
    assert "12C2(b)" in artificial["cites"]


@pytest.mark.parametrize("calc, field", [
    ("score;level=9;strain=S;tricks=10;declarer=S", "calc"),       # the checker refuses it
    ("score;level=4;strain=S;tricks=10", "calc"),                  # who declared?
    ("score;level=4;strain=S;tricks=10;declarer=S;weight=0", "calc"),
    ("imps;difference=10", "calc"),                                # not a checker a record carries
    ("score;level", "calc"),
    ("artificial-score;fault=none", "calc"),                       # for which side?
])
def test_bad_carried_results_name_the_field(app, calc, field):
    assert make(app, [("procedure", "claim"), ("edition", "2017"), ("calc", calc)]) == {"error": field}


def test_a_checker_opened_from_a_record_carries_its_result_back(client):
    state = urlencode([("procedure", "unauthorized-information"), ("edition", "2017"), *UI_TO_ADJUSTED.items()])
    # the record offers the checkers, each opened for it (an old address's board is not carried on)
    html = client.get(f"/rulings/record?{state}&board=7").get_data(as_text=True)
    link = re.search(r'data-checker="score" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert dict(parse_qsl(urlsplit(link).query)) == {"record": state}
    page = client.get(link).get_data(as_text=True)
    assert 'id="record-back"' in page and 'name="record"' in page and 'id="carry"' not in page  # nothing computed yet
    example = re.search(r'href="([^"]+)">Try an example', page).group(1).replace("&amp;", "&")
    assert dict(parse_qsl(urlsplit(example).query))["record"] == state  # the example is for the same record
    # computed: the result goes back to the record by a plain form
    r = client.post("/checkers/score", data={"record": state, "level": "4", "strain": "S", "tricks": "10",
                                             "vulnerable": "on"}, follow_redirects=True)
    form = re.search(r'<form class="carry".*?</form>', r.get_data(as_text=True), re.S).group(0)
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    assert ("calc", "score;level=4;strain=S;vulnerable=yes;tricks=10") in hidden
    assert "board" not in dict(hidden) and 'name="calc_declarer"' in form and 'name="calc_weight"' in form
    back = client.get("/rulings/record", query_string=[*hidden, ("calc_declarer", "N"), ("calc_weight", "")])
    assert back.status_code == 303
    target = back.headers["Location"]
    assert ("calc", "score;level=4;strain=S;vulnerable=yes;tricks=10;declarer=N") in parse_qsl(urlsplit(target).query)
    final = client.get(target).get_data(as_text=True)
    assert "4S by North (vulnerable), 10 tricks, made: NS +620" in final
    # and from there the weighting checker, filled in with the carried scores
    weigh = re.search(r'data-checker="weighted-score" href="([^"]+)"', final).group(1).replace("&amp;", "&")
    assert dict(parse_qsl(urlsplit(weigh).query))["outcomes"] == "620"
    filled = client.get(weigh).get_data(as_text=True)  # filled in, not yet checked
    assert 'id="f-outcomes" name="outcomes" value="620"' in filled and 'id="error"' not in filled
    # each carried result can be taken out again
    remove = re.search(r'class="remove noprint" href="([^"]+)"', final).group(1).replace("&amp;", "&")
    assert "calc" not in dict(parse_qsl(urlsplit(remove).query))


def test_checker_page_ignores_a_record_that_is_not_one(client):
    r = client.get("/checkers/score?record=%3Cscript%3E")
    assert r.status_code == 200 and 'id="record-back"' not in r.get_data(as_text=True)


# --- no address gives a 500 ----------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECE = st.one_of(st.sampled_from(["level=4", "strain=S", "tricks=10", "tricks=99", "declarer=S", "declarer=Q",
                                    "weight=50", "weight=nan", "weight=1e999", "outcomes=620 140", "weights=30 70",
                                    "other_scores=1 2", "fault=none", "side=EW", "scoring=imps", "=", ";", "x"]),
                   st.text(max_size=12))
_CALC = st.builds(lambda c, ps: ";".join([c, *ps]),
                  st.sampled_from(["score", "weighted-score", "artificial-score", "imps", ""]),
                  st.lists(_PIECE, max_size=6))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(procedure=st.sampled_from(["claim", "auction", "play", ""]), calcs=st.lists(_CALC, max_size=14),
       extra=st.dictionaries(st.sampled_from(["calc_declarer", "calc_weight", "calc_side", "board"]),
                             st.text(max_size=10), max_size=3))
def test_any_carried_result_gives_a_record_or_a_4xx(client, procedure, calcs, extra):
    query = [("procedure", procedure), ("edition", "2017"), ("calls", "1H E:1D"), ("contract", "4S"),
             ("declarer", "S"), *[("calc", c) for c in calcs], *extra.items()]
    r = client.get("/rulings/record", query_string=query)
    assert r.status_code in (200, 303, 400), r.get_data(as_text=True)[:500]
    if r.status_code == 303:
        assert client.get(r.headers["Location"]).status_code in (200, 400)
    assert client.get("/rulings/record.txt", query_string=query).status_code in (200, 400)
    checker = client.get("/checkers/score", query_string={"record": urlencode(query)})
    assert checker.status_code == 200


def test_the_records_fields_of_the_wrong_shape_are_refused_naming_them():
    # the phone checks them (record.js's context, the same words): the server never sees them
    for values, message in (({"result_contract": "9Z"}, "Contract at the table: give a contract like 4S, 3NT or 2HX, not '9Z'."),
                            ({"date": "11/03/2025"}, "Date: give a date like 2025-03-14, not '11/03/2025'."),
                            ({"result_tricks": "14"}, "Tricks taken by declarer: give a number of tricks from 0 to 13, not '14'.")):
        with pytest.raises(RulingError) as exc:
            record.context(values)
        assert (exc.value.field, str(exc.value)) == (next(iter(values)), message)


# every record field, as an old address carried them in its query (a name in the facts too)
OLD_FIELDS = {"date": "2025-03-11", "time": "19:45", "event": "Tuesday Evening Pairs", "site": "Riverside Club",
              "session": "Evening", "round": "Round 4", "board": "23", "table": "Table 6",
              "facts": "Ann Secretname hesitated over 3S <b>", "result_contract": "4SX", "result_declarer": "S",
              "result_tricks": "9", "adjustment": "3S+1 NS 170", "appeal_minutes": "20",
              "appeal_source": "the County Handbook", "director": "Sam Secret", "north": "Nora Secret", "deal": "N:AK"}


@pytest.mark.parametrize("kind", ["play", "guided"])
def test_an_old_address_with_the_records_fields_in_its_query_is_not_echoed(client, kind):
    """The server ignores every record field in a query: not in the page, its
    links, its hidden fields or its text — blank lines instead; the page's
    state is the query without them (the address the phone leaves)."""
    ruling = ([("procedure", "play"), ("edition", "2017"), ("contract", "4S"), ("declarer", "S"), ("play", "E:HK")]
              if kind == "play" else [("procedure", "unauthorized-information"), ("edition", "2017"),
                                      *UI_TO_ADJUSTED.items(), ("calc", "score;level=4;strain=S;tricks=10;declarer=S")])
    mixed = [*ruling[:2], *OLD_FIELDS.items(), *ruling[2:]]
    page = client.get("/rulings/record", query_string=mixed)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    for v in (v for v in OLD_FIELDS.values() if len(v) >= 7):  # (a short one, like S, is in any page)
        for shown in (v, urlencode({"x": v})[2:]):
            assert shown not in html, shown
    assert "Secret" not in html and "Riverside" not in html
    assert parse_qsl(re.search(r'data-state="([^"]*)"', html).group(1).replace("&amp;", "&")) == ruling
    form = re.search(r'<form method="get" action="/rulings/record" id="record-form">.*?</form>', html, re.S).group(0)
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    assert [k for k, _ in hidden] == [k for k, _ in ruling]
    assert " name=" not in form.replace('<input type="hidden" name=', "")  # nothing written here is sent
    text = client.get("/rulings/record.txt", query_string=mixed).get_data(as_text=True)
    assert text == client.get("/rulings/record.txt", query_string=ruling).get_data(as_text=True)
    assert f"Date: {B}\nTime: {B}\nEvent: {B}\n" in text and f"\nFacts:\n{B}\n" in text
    assert "Secret" not in text and "Riverside" not in text
    # a field of the wrong shape in an old query is not a reason to refuse the record: it is not read
    assert client.get("/rulings/record", query_string=[*ruling, ("result_tricks", "14")]).status_code == 200


def test_names_in_the_query_are_not_part_of_the_record(client):
    """The people's names belong in the fragment: one put in the query by hand is not shown, printed or sent on."""
    text = client.get("/rulings/record.txt?procedure=play&edition=2017&contract=4S&declarer=S&play=E:HK"
                      "&director=Sam+Secret&north=Nora+Secret").get_data(as_text=True)
    assert "Secret" not in text and f"Director: {record.BLANK}\n" in text


def test_board_dealer_vulnerability_table_result_and_appeal_period(app):
    rec = with_context(app, make(app, {"procedure": "play", "edition": "2017", "contract": "4S", "declarer": "S",
                                       "play": "E:HK"}),
                       {"board": "23", "result_contract": "4sx", "result_declarer": "s", "result_tricks": "9",
                        "appeal_minutes": "20", "appeal_source": "the EBU White Book 8.92.1"})
    assert rec["board_info"] == {"dealer": "S", "vulnerable": "Both", "cites": ["2"],
                                 "line": "Dealer South; Both sides vulnerable (board checker, Law 2)"}
    assert rec["table_result"] == "4♠ doubled by South, 9 tricks"
    assert rec["appeal"] == {"text": "A contestant may appeal this ruling within 20 minutes after the official score is "
                                     "made available, the period set by the EBU White Book 8.92.1 (Law 92B).",
                             "cites": ["92B"]}
    assert rec["signatures"] == ["Director", "North-South", "East-West"]
