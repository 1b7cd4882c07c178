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


# --- the record's parts on their own (no store: the cheapest tests come first) --------------------

def test_a_query_state_drops_the_records_own_fields_keeping_the_rest_byte_for_byte():
    assert record.query_state("procedure=play&date=2025-01-01&&edition=2017&board%3D=1&ev%65nt=x&play=E%3AHK&calc=a+b") \
        == "procedure=play&edition=2017&board%3D=1&play=E%3AHK&calc=a+b"


def test_the_records_fields_are_trimmed_checked_and_upper_cased_where_they_are_codes():
    assert record.context({"date": " 2025-03-14 ", "time": "", "event": None, "site": "   ", "board": "x" * 20,
                           "result_contract": "3ntxx", "result_declarer": "w", "facts": "f"}) == {
        "date": "2025-03-14", "board": "x" * 20, "facts": "f", "result_contract": "3NTXX", "result_declarer": "W"}
    for values, message in (({"board": "x" * 21}, "Board is too long (at most 20 characters)."),
                            ({"event": 5}, "Event must be text."),
                            ({"time": "24:00"}, "Time: give a time like 19:45, not '24:00'.")):
        with pytest.raises(RulingError) as exc:
            record.context(values)
        assert (exc.value.field, str(exc.value)) == (next(iter(values)), message)


def test_a_board_number_for_the_board_checker():
    assert [record.board_number({"board": b}) for b in ["23", "1", "0", "9999", "10000", "²", " 1", ""]] == [
        23, 1, None, 9999, None, None, None, None]
    assert record.board_number({}) is None


def test_the_board_line_and_the_table_result_in_words():
    assert record.board_line("E", "NS", ["2", "2A"]) == {
        "dealer": "E", "vulnerable": "NS", "cites": ["2", "2A"],
        "line": "Dealer East; North-South vulnerable (board checker, Law 2, 2A)"}
    assert record.board_line("W", "None", ["2"], "Law 2 of the rubber code")["line"] == \
        "Dealer West; Neither side vulnerable (board checker, Law 2 of the rubber code)"
    assert [record.table_result(c) for c in (
        {}, {"result_tricks": "1"}, {"result_declarer": "N"}, {"result_contract": "3NT"},
        {"result_contract": "P", "result_tricks": "0"}, {"result_contract": "4SX", "result_declarer": "E", "result_tricks": "9"})] \
        == [None, "Contract not given, 1 trick", "Contract not given by North", "3NT", "Pass, 0 tricks",
            "4♠ doubled by East, 9 tricks"]


def test_the_right_to_appeal_its_period_and_its_cites():
    words = record.WORDS["appeal"]
    assert record.appeal({}, "2017") == {"text": words["default"].format(minutes="30"), "cites": ["92B"]}
    assert record.appeal({"appeal_minutes": "15"}, None, ["2017:92B"]) == {
        "text": words["default"].format(minutes="15"), "cites": ["2017:92B"]}
    assert record.appeal({"appeal_source": "the club"}, "2007") == {
        "text": words["set"].format(minutes="30", source="the club"), "cites": ["92B"]}
    assert record.appeal({"appeal_source": "the club"}, "1993-rubber", ["92B"]) == {"text": words["without"], "cites": []}
    assert [record.carried_appeal(d) for d in (None, {}, {"carried": {"from": "2017"}}, {"carried": {"appeal": ["92B"]}})] \
        == [None, None, None, ["92B"]]


def test_calls_cards_seats_and_values_in_words():
    assert [record.call_words(c) for c in ["1h", " P ", "xx", "4SX", "3N", "7NTXX", "8S", "AP", "pass", "2c"]] == [
        "1♥", "Pass", "Redouble", "4♠ doubled", "3NT", "7NT redoubled", "8S", "All pass", "Pass", "2♣"]
    assert [record.card_words(c) for c in ["HK", "dt", "S10", "C2", "X9", " sa "]] == ["♥K", "♦10", "♠10", "♣2", "X9", "♠A"]
    assert [record.seat_words(s) for s in [" n", "Q", "w"]] == ["North", "Q", "West"]
    assert [record.value_words(v) for v in ["Yes", "require-suit", "4sx", "XX", "HQ", "some_thing-else", " p "]] == [
        "yes", "required the suit", "4♠ doubled", "Redouble", "♥Q", "some thing else", "Pass"]
    assert [record.calls_words(t, d) for t, d in [("1H E:1D P", "N"), ("1H P", "Q"), ("P 1S", "W"), ("Q:1H", "N"), ("", "N")]] \
        == ["North 1♥, East 1♦, South Pass", "North 1♥, East Pass", "West Pass, North 1♠", "Q:1H", ""]


def test_the_play_in_words_saying_what_the_irregular_card_was():
    assert record.play_words("E:HK W:S4:facedown, N:c3;S:DT:revoke", {"index": 0, "kind": "lead-out-of-turn"}) == \
        "East led the ♥K out of turn; West ♠4 (face down); North ♣3; South ♦10 (revoke)"
    assert [record.play_words("E:HK W:S4" + how, {"index": 1, "kind": kind}) for how, kind in (
        (":revoke", "revoke"), ("", "exposed-card"), (":facedown", "play-out-of-turn"))] == [
        "East ♥K; West played the ♠4 (revoke)", "East ♥K; West played the ♠4 (exposed card)",
        "East ♥K; West played the ♠4 out of turn (face down)"]
    assert (record.play_words("E:HK W:S4", None), record.play_words("  ", None)) == ("East ♥K; West ♠4", "")


def test_what_was_entered_for_a_mechanical_ruling():
    args = {"contract": " 4sx ", "declarer": "s", "trick": "3", "seat": "e", "play": "E:HK W:S4", "dealer": "n",
            "card": "W: HK, s10", "required_to_pass": "N, s", "calls": "1H E:1D", "accepted": "no",
            "extra_thing": "require-suit", "misinformed": "yes", "blank": "  ", "defective": 3, "dummy_act": "lowest"}
    assert record.entered("play", args, ["extra_thing", "contract", "blank", "missing", "defective"],
                          {"index": 0, "kind": "lead-out-of-turn"}) == (
        "Contract: 4♠ doubled; Declarer: South; Trick: 3; At fault: East; "
        "Play: East led the ♥K out of turn; West ♠4; Dummy's act: required the lowest card; "
        "Also found: extra thing: required the suit")
    assert record.entered("auction", args) == (
        "Dealer: North; Calls: North 1♥, East 1♦; Card exposed: West: ♥K, ♠10; Required to pass: North, South")
    assert record.entered("auction", {"calls": "1H E:1D", "dealer": None}) == "Calls: North 1♥, East 1♦"
    assert record.entered("auction", {"calls": "1H P", "dealer": "w"}) == "Dealer: West; Calls: West 1♥, North Pass"


def test_the_notes_of_a_mechanical_rulings_outcome():
    o = {"offender_partner_must_pass": "whenever_it_is_his_turn", "offender_must_pass": "none",
         "penalty_cards": [{"seat": "E", "card": "HK", "kind": "major"}, {"seat": "Z", "card": "s2", "kind": "minor"}],
         "lead_restrictions": {"text": "LR."}, "information": {"text": "Info."}, "tricks_transferred": 0,
         "declarer": "W", "next": "N"}
    assert record._notes("play", o) == [
        "Offender's partner must pass: whenever it is his turn.",
        "Penalty cards: East: ♥K (major penalty card); Z: ♠2 (minor penalty card).", "LR.", "Info.",
        "Tricks transferred: 0.", "Declarer now: West.", "Next to play: North."]
    assert record._notes("auction", {"tricks_transferred": None, "next": None, "offender_must_pass": ""}) == [
        "Next to call: no one: the auction is over."]
    assert record._notes("auction", {}) == []


def test_carried_checker_results_parsed_written_and_weighed():
    assert record.parse_carried(["score;level=4;declarer=S;weight= 30 ;strain= S", "artificial-score;side=ns;fault=none",
                                 "weighted-score;outcomes=1 2;declarer=N"]) == [
        {"checker": "score", "fields": {"level": "4", "strain": "S"}, "extra": {"declarer": "S", "weight": "30"}},
        {"checker": "artificial-score", "fields": {"fault": "none"}, "extra": {"side": "ns"}},
        {"checker": "weighted-score", "fields": {"outcomes": "1 2", "declarer": "N"}, "extra": {}}]
    assert (record.parse_carried(["score"] * 12)[11], record.parse_carried([])) == (
        {"checker": "score", "fields": {}, "extra": {}}, [])
    for values, message in ((["imps;x=1"], "A record carries the results of the checkers score, weighted-score, "
                                           "artificial-score, not 'imps'."),
                            (["score;level"], "'level': each field of a carried result is name=value."),
                            (["x" * 50], f"A record carries the results of the checkers score, weighted-score, "
                                         f"artificial-score, not '{'x' * 40}'."),
                            (["score;" + "y" * 50], f"'{'y' * 40}': each field of a carried result is name=value."),
                            (["score"] * 13, "A record carries at most 12 checker results.")):
        with pytest.raises(RulingError) as exc:
            record.parse_carried(values)
        assert (exc.value.field, str(exc.value)) == ("calc", message)
    assert record.carried_param("score", {"level": "4", "strain": None, "tricks": ""}, {"declarer": "S", "weight": 0}) \
        == "score;level=4;declarer=S;weight=0"
    assert [record._weight(w) for w in (None, "", "100", "0.5", "30", "100.0", "12.5")] == [
        None, None, 100, 0.5, 30, 100, 12.5]
    assert [type(record._weight(w)) for w in ("30", "12.5")] == [int, float]
    for w in ("0", "100.5", "nan", "x", "-1", "1e999", "1" * 25):
        with pytest.raises(RulingError) as exc:
            record._weight(w)
        assert str(exc.value) == f"A weight is a percentage above 0 and at most 100, not {w[:20]!r}."
    assert str(exc.value).endswith(f" not '{'1' * 20}'.")  # a long one is cut at 20 characters


def _score(contract, score, made, over, under):
    return {"result": {"contract": contract, "score": score, "made": made, "overtricks": over, "undertricks": under},
            "explanation": "E.", "cites": ["77"]}


def test_a_carried_result_in_the_records_words():
    assert record.adjusted_line("score", {"tricks": 10, "vulnerable": True}, _score("4S", 620, True, 0, 0),
                                {"declarer": "e", "weight": "25"}) == {
        "checker": "score", "by": "the score checker", "input": {"tricks": 10, "vulnerable": True},
        "result": {"contract": "4S", "score": 620, "made": True, "overtricks": 0, "undertricks": 0},
        "explanation": "E.", "cites": ["77"], "declarer": "E", "weight": 25, "ns_score": -620,
        "sides": "North-South -620, East-West +620", "line": "4S by East (vulnerable), 10 tricks, made: EW +620 — weight 25 %"}
    assert [record.adjusted_line("score", {"tricks": t}, _score("3NT", s, made, over, under), {"declarer": d})["line"]
            for t, s, made, over, under, d in ((10, 430, True, 1, 0, "N"), (11, 460, True, 2, 0, "S"),
                                               (7, -100, False, 0, 2, "W"))] == [
        "3NT by North, 10 tricks, made with 1 overtrick: NS +430", "3NT by South, 11 tricks, made with 2 overtricks: NS +460",
        "3NT by West, 7 tricks, down 2: EW -100"]
    down = record.adjusted_line("score", {"tricks": 7}, _score("3NT", -100, False, 0, 2), {"declarer": "W"})
    assert (down["ns_score"], down["sides"], down["weight"]) == (100, "North-South +100, East-West -100", None)
    assert record.adjusted_line("artificial-score", {}, {"result": 1, "explanation": "Avg.", "cites": ["12C2"]},
                                {"side": "ew"}) == {
        "checker": "artificial-score", "by": "the artificial score checker", "input": {}, "result": 1,
        "explanation": "Avg.", "cites": ["12C2"], "side": "EW", "sides": "East-West", "line": "East-West: Avg."}
    assert record.adjusted_line("weighted-score", {}, {"result": 1, "explanation": "W.", "cites": ["12C1(c)"]}, {}) == {
        "checker": "weighted-score", "by": "the weighted score checker", "input": {}, "result": 1, "explanation": "W.",
        "cites": ["12C1(c)"], "line": "W."}
    for checker, extra, message in (("score", {}, "Say who declared the contract (N, E, S or W) to carry its score."),
                                    ("score", {"declarer": "NS"}, "Say who declared the contract (N, E, S or W) to carry its score."),
                                    ("artificial-score", {"side": "x"}, "Say which side (NS or EW) the artificial score is for.")):
        with pytest.raises(RulingError) as exc:
            record.adjusted_line(checker, {"tricks": 1}, _score("4S", 620, True, 0, 0), extra)
        assert (exc.value.field, str(exc.value)) == ("calc", message)
    assert record.adjusted([]) is None
    assert record.adjusted([{"cites": ["77", "12C1"]}, {"cites": ["12C1", "78A"]}]) == {
        "results": [{"cites": ["77", "12C1"]}, {"cites": ["12C1", "78A"]}], "cites": ["77", "12C1", "78A"]}


def test_the_hands_auction_and_play_kept_on_the_phone_in_words():
    assert record.hands_lines(None) == record.hands_lines("") == []
    assert record.hands_lines("N:AKQJT98765432... - .AKQJT98765432.. -") == [
        "North: ♠AKQJT98765432 ♥— ♦— ♣—", "East: (not known)", "South: ♠— ♥AKQJT98765432 ♦— ♣—", "West: (not known)"]
    assert [record.sequence_words(t, c) for t, c in [(None, True), ("  ", True), ("E 1H P X", True), ("Q 1H P", True),
                                                     ("W HK S2 DT", False), ("S 1C P P P P", True)]] == [
        "", "", "East 1♥, South Pass, West Double", "North 1♥, East Pass", "West ♥K, North ♠2, East ♦10",
        "South 1♣, West Pass, North Pass, East Pass, South Pass"]
    assert record.people_lines({}) == [f"Director: {B}", f"Players: North {B}; East {B}; South {B}; West {B}"]
    assert record.people_lines({"director": "D", "south": "Sam", "deal": "N:AKQJT98765432... - - -", "auction": "N 1H",
                                "cardplay": "E HK"}) == [
        "Director: D", f"Players: North {B}; East {B}; South Sam; West {B}", "Hands:", "  North: ♠AKQJT98765432 ♥— ♦— ♣—",
        "  East: (not known)", "  South: (not known)", "  West: (not known)", "Auction: North 1♥", "Play: East ♥K"]


def test_review_notes_and_the_provisions_a_ruling_applied_each_once():
    assert record.review_notes({}) == []
    assert record.review_notes({"carried_from": "2017", "edition": "2027", "reviewed": True}) == [
        "Ruled by the 2017 rulings carried into the 2027 Laws, each provision cited the same or reviewed."]
    assert record.review_notes({"carried_from": "2017", "edition": "2027", "reviewed": False,
                                "review": "not yet reviewed for 2027: 45F"}) == [
        "Ruled by the 2017 rulings carried into the 2027 Laws; not yet reviewed for 2027: 45F."]
    assert record.cited({"cites": ["9", "1", "9"]}) == ["9", "1"]
    assert record.cited({"answered": [{"cites": ["1", "2"]}], "steps": [{"cites": ["x"]}], "cites": ["2", "3"]},
                        {"cites": ["3", "4"]}) == ["1", "2", "3", "4"]
    assert record.cited({"steps": [{"cites": ["5"]}], "cites": ["6"]}) == ["5", "6"]


def test_the_provisions_texts_with_their_childrens_in_the_order_cited():
    import sqlite3
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    conn.execute("create table provisions (edition, id, parent, ord, heading, text)")
    conn.executemany("insert into provisions values (?, ?, ?, ?, ?, ?)", [
        ("2017", "45", "", 1, "Card Played", "Each card."), ("2017", "45C", "45", 4, "", "C text."),
        ("2017", "45A", "45", 2, None, "A text."), ("2017", "45B", "45", 3, "", None),
        ("2017", "46", "", 5, None, None), ("2007", "45", "", 1, "Old", "Old 45.")])
    assert record.provision_texts(conn, "2017", ["45", "99", "2007:45", "46", "45A"]) == [
        {"id": "45", "heading": "Card Played", "text": "Each card. A text. C text."},
        {"id": "2007:45", "heading": "Old", "text": "Old 45."}, {"id": "46", "heading": "", "text": ""},
        {"id": "45A", "heading": "", "text": "A text."}]


def _rule(payload):
    """A ruling that asks a, then b, then c, until each is found (the
    questions still open, the next to ask first)."""
    f = payload["findings"]
    return {"questions": [{"id": qid, "text": text, "cites": [qid.upper()], "answers": answers} for qid, text, answers in (
        ("a", "A?", [{"value": "yes", "label": "Yes it was"}, {"value": "no", "label": "No"}]),
        ("b", "B?", None), ("c", "C?", [])) if qid not in f]}


def test_the_questions_a_mechanical_ruling_asked_in_order_and_the_findings_none_took():
    assert record.answered(_rule, {"findings": {"fact": "x", "a": True, "b": "1H", "c": False, "z": "q"}},
                           {"a", "b", "c", "z"}) == (
        [{"question": "A?", "answer": "Yes it was", "cites": ["A"]}, {"question": "B?", "answer": "1H", "cites": ["B"]},
         {"question": "C?", "answer": "no", "cites": ["C"]}], ["z"])
    assert record.answered(_rule, {"findings": {"a": False, "c": True}}, {"a", "c"}) == (
        [{"question": "A?", "answer": "No", "cites": ["A"]}], ["c"])
    assert record.answered(_rule, {"findings": {"b": "1H"}}, {"a", "b"}) == ([], ["b"])
    assert record.answered(_rule, {}, {"a"}) == ([], [])
    data = {"kinds": {"k": {"tree": {"on": "x", "ask": {"finding": "f1"},
                                     "cases": {"y": {"on": "g", "ask": {}}, "n": {"outcome": {}}}}}},
            "subtrees": {"s": {"on": "h", "ask": {"cites": []}}}}
    assert record.asked(data) == {"f1", "g", "h"}


def test_a_guided_record_and_a_records_context_keeping_its_carried_appeal():
    ruling = {"procedure": "claim", "title": "Claim", "edition": "2017", "carried_from": None,
              "answered": [{"text": "Q?", "label": "Yes", "cites": ["70A"]}],
              "outcome": {"ruling": "Declarer gets 10 tricks.", "information": {"text": "Info."}, "penalty": None,
                          "score_adjustment": {"when": "If damaged.", "checker": "score"},
                          "record": ["the claim statement"]}}
    texts = [{"id": "70A", "heading": "H", "text": "T"}]
    appeal = {"text": record.WORDS["appeal"]["default"].format(minutes="30"), "cites": ["92B"]}
    signatures = ["Director", "North-South", "East-West"]
    assert record.from_guided(ruling, {"event": "E"}, texts) == {
        "kind": "guided", "procedure": "claim", "title": "Claim", "edition": "2017", "event": "E",
        "steps": [{"question": "Q?", "answer": "Yes", "cites": ["70A"]}], "ruling": "Declarer gets 10 tricks.",
        "notes": ["Info."], "score_adjustment": "If damaged.", "checker": "score", "adjusted": None,
        "keep": ["the claim statement"], "provisions": texts, "complete": True, "board_info": None,
        "table_result": None, "appeal": appeal, "signatures": signatures}
    assert record.from_guided({**ruling, "outcome": None, "answered": []}, {}, []) == {
        "kind": "guided", "procedure": "claim", "title": "Claim", "edition": "2017", "steps": [],
        "ruling": "(not reached: questions remain)", "notes": [], "score_adjustment": None, "checker": None,
        "adjusted": None, "keep": [], "provisions": [], "complete": False, "board_info": None, "table_result": None,
        "appeal": appeal, "signatures": signatures}
    # the phone's step (with_context) keeps the appeal's cites the record was made with (a carried code's)
    carried = {"edition": "2027", "appeal": {"text": "x", "cites": ["2017:92B"]}}
    assert record.with_context(carried, {"board": "3"}, None) == {
        "edition": "2027", "board": "3", "board_info": None, "table_result": None,
        "appeal": {"text": appeal["text"], "cites": ["2017:92B"]}, "signatures": signatures}


def test_a_mechanical_record_and_its_text():
    ruling = {"edition": "2017", "irregularity": {"kind": "lead-out-of-turn", "law": "54"}, "say": "Declarer may accept.",
              "outcome": None, "questions": [{"text": "Q2?", "cites": ["54A"]}]}
    texts = [{"id": "54A", "heading": "Declarer", "text": "T."}, {"id": "47E1", "heading": "", "text": "U."}]
    board = {"line": "Dealer North; Neither side vulnerable (board checker, Law 2)"}
    rec = record.from_mechanical("play", ruling, [{"question": "Q1?", "answer": "No", "cites": ["47E1"]}],
                                 "Contract: 4♠", {"board": "5", "event": "Pairs"}, texts, None, board)
    appeal = {"text": record.WORDS["appeal"]["default"].format(minutes="30"), "cites": ["92B"]}
    assert rec == {
        "kind": "play", "procedure": "play", "title": "Irregularity in the play: lead out of turn (Law 54)",
        "edition": "2017", "board": "5", "event": "Pairs", "entered": "Contract: 4♠",
        "steps": [{"question": "Q1?", "answer": "No", "cites": ["47E1"]},
                  {"question": "Q2?", "answer": "(not answered)", "cites": ["54A"]}],
        "ruling": "Declarer may accept. (Not complete: questions remain.)", "notes": [], "score_adjustment": None,
        "checker": None, "adjusted": None, "keep": [], "provisions": texts, "complete": False, "board_info": board,
        "table_result": None, "appeal": appeal, "signatures": ["Director", "North-South", "East-West"]}
    assert record.as_text(rec) == (
        "RULING RECORD — Irregularity in the play: lead out of turn (Law 54) (2017 Laws)\n"
        f"Date: {B}\nTime: {B}\nEvent: Pairs\nVenue: {B}\nSession: {B}\nRound: {B}\n"
        f"Board: 5 — Dealer North; Neither side vulnerable (board checker, Law 2)\nTable: {B}\n"
        f"Director: {B}\nPlayers: North {B}; East {B}; South {B}; West {B}\nEntered: Contract: 4♠\n\n"
        f"Facts:\n{B}\n\nQuestions and answers:\n1. Q1? [47E1]\n   — No\n2. Q2? [54A]\n   — (not answered)\n\n"
        f"Ruling:\nDeclarer may accept. (Not complete: questions remain.)\n\nTable result: {B}\n\n"
        f"Right to appeal: {appeal['text']} [92B]\n\nProvisions applied (2017 Laws):\n"
        "Law 54A — Declarer: T.\nLaw 47E1: U.\n\n"
        f"Signatures:\nDirector: {B}\nNorth-South: {B}\nEast-West: {B}\n")
    adjusted = {"results": [{"line": "L1", "cites": ["77"], "by": "the score checker",
                             "sides": "North-South +620, East-West -620"},
                            {"line": "L2", "cites": [], "by": "the weighted score checker"}], "cites": ["77"]}
    rec = record.from_mechanical("auction", {"edition": "2007", "outcome": {"next": "S", "score_adjustment": {
        "when": "If damaged."}}}, [], "", {}, [], adjusted, None)
    assert (rec["title"], rec["ruling"], rec["notes"], rec["score_adjustment"], rec["complete"], rec["board_info"]) == (
        "Irregularity in the auction", "No irregularity.", ["Next to call: South."], "If damaged.", True, None)
    assert record.as_text({**rec, "adjustment": "NS 170", "facts": "He hesitated.", "keep": ["the hands", "the auction"],
                           "appeal": {"text": "None.", "cites": []}}) == (
        "RULING RECORD — Irregularity in the auction (2007 Laws)\n"
        f"Date: {B}\nTime: {B}\nEvent: {B}\nVenue: {B}\nSession: {B}\nRound: {B}\nBoard: {B}\nTable: {B}\n"
        f"Director: {B}\nPlayers: North {B}; East {B}; South {B}; West {B}\n\n"
        "Facts:\nHe hesitated.\n\nRuling:\nNo irregularity.\nNext to call: South.\n\n"
        f"Table result: {B}\n\nScore adjustment:\nIf damaged.\n- L1 [77]\n"
        "  North-South +620, East-West -620 — computed by the score checker\n- L2 []\n"
        "  computed by the weighted score checker\nNS 170\n\nTo record: the hands; the auction.\n\n"
        "Right to appeal: None.\n\nProvisions applied (2007 Laws):\n\n"
        f"Signatures:\nDirector: {B}\nNorth-South: {B}\nEast-West: {B}\n")
    # a score adjustment's words alone, or carried results alone, still make the section
    assert f"\nTable result: {B}\n\nScore adjustment:\nIf damaged.\n\nRight to appeal: " in record.as_text(
        {**rec, "adjusted": None})
    assert (f"\nTable result: {B}\n\nScore adjustment:\n- L1 [77]\n"
            "  North-South +620, East-West -620 — computed by the score checker\n- L2 []\n"
            "  computed by the weighted score checker\n\nRight to appeal: ") in record.as_text({**rec, "score_adjustment": None})


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
