"""The scoring checkers: board (Law 2), score (Law 77), imps (78B), matchpoints
(78A), artificial-score (12C2), weighted-score (12C1(c)), team-average (86).

Each expected value names where it comes from: the Law text in corpus/
(000_f79d4105db5f19c6.txt, the 2007 Laws; 001_c10fccc6a02ee89d.txt, the
simplified guide) or an independent published source.
"""
from __future__ import annotations

import itertools
import json

import pytest

from checker_calls import bad, run


# --- board (Law 2) -------------------------------------------------------------

# Law 2's table, read column by column from the 2007 text: boards by
# vulnerability, and dealer N, E, S, W for boards 1, 2, 3, 4 of each four.
LAW_2_TABLE = {"None": {1, 8, 11, 14}, "NS": {2, 5, 12, 15}, "EW": {3, 6, 9, 16}, "Both": {4, 7, 10, 13}}


@pytest.mark.parametrize("n", range(1, 65))
def test_board_follows_law_2_table_and_repeats_every_16(n):
    r = run("board", board=n)["result"]
    position = (n - 1) % 16 + 1
    assert r["vulnerable"] == next(v for v, boards in LAW_2_TABLE.items() if position in boards)
    assert r["dealer"] == "NESW"[(n - 1) % 4]


@pytest.mark.parametrize("n, dealer, vul", [
    (7, "S", "Both"),  # CONTRACT.md's example
    (1, "N", "None"), (16, "W", "EW"), (17, "N", "None"), (32, "W", "EW"),
    (36, "W", "Both"),  # 36 = 32 + 4: like Board 4
    # Published board cycles (e.g. the ACBL and EBU board tables) agree:
    (9, "N", "EW"), (13, "N", "Both"), (100, "W", "Both"),  # 100 = 96 + 4
])
def test_board_known_values(n, dealer, vul):
    out = run("board", board=n)
    assert out["result"]["dealer"] == dealer and out["result"]["vulnerable"] == vul
    assert out["cites"] == ["2"] and out["explanation"].endswith(".")


@pytest.mark.parametrize("value", [0, -1, "7", 7.5, None, True, [7]])
def test_board_rejects_bad_numbers(value):
    assert bad("board", board=value).field == "board"


def test_a_board_past_the_cycle_says_whose_place_it_takes_and_board_16_does_not():
    assert run("board", board=16)["explanation"] == "On Board 16 West deals and East-West are vulnerable."
    assert run("board", board=17)["explanation"] == (
        "On Board 17 (it takes the place of Board 1 in Law 2's table) North deals and neither side is vulnerable.")


def test_board_accepts_7_0_as_7():
    assert run("board", board=7.0)["result"]["board"] == 7


# --- score (Law 77) ------------------------------------------------------------

# An independent table-driven Law 77, written from the Law's table rather than
# from the checker: per-trick values, cumulative undertrick penalties.
TRICK_VALUE = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}
FIRST_TRICK_EXTRA = {"C": 0, "D": 0, "H": 0, "S": 0, "NT": 10}
# cumulative doubled penalties for 1..13 undertricks (Law 77: 100, +200, +200,
# then +300 not vulnerable; 200 then +300 vulnerable)
DOUBLED_DOWN = {False: [100, 300, 500] + [500 + 300 * k for k in range(1, 11)],
                True: [200 + 300 * k for k in range(13)]}


def reference_score(level, strain, risk, vul, tricks):
    factor = {"": 1, "X": 2, "XX": 4}[risk]
    short = level + 6 - tricks
    if short > 0:
        if risk == "":
            return -short * (100 if vul else 50)
        return -DOUBLED_DOWN[vul][short - 1] * factor // 2
    contract_points = (level * TRICK_VALUE[strain] + FIRST_TRICK_EXTRA[strain]) * factor
    total = contract_points
    total += (500 if vul else 300) if contract_points >= 100 else 50
    total += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    total += {"": 0, "X": 50, "XX": 100}[risk]
    over = -short
    total += over * (TRICK_VALUE[strain] if risk == "" else (200 if vul else 100) * factor // 2)
    return total


ALL_CASES = list(itertools.product(range(1, 8), ["C", "D", "H", "S", "NT"], ["", "X", "XX"], [False, True],
                                   range(14)))


def test_the_whole_law_77_space_has_2940_cases():
    assert len(ALL_CASES) == 2940


def test_every_one_of_the_2940_scores_matches_the_reference():
    wrong = []
    for level, strain, risk, vul, tricks in ALL_CASES:
        got = run("score", level=level, strain=strain, risk=risk, vulnerable=vul, tricks=tricks)
        want = reference_score(level, strain, risk, vul, tricks)
        if got["result"]["score"] != want or sum(p["points"] for p in got["result"]["parts"]) != want:
            wrong.append((level, strain, risk, vul, tricks, got["result"]["score"], want))
    assert wrong == []


@pytest.mark.parametrize("level, strain, risk, vul, tricks, expected, source", [
    # CONTRACT.md's example
    (4, "S", "X", True, 11, 990, "CONTRACT.md"),
    # ACBL, "How to keep score" (acbl.org/learn_page/how-to-play-bridge/how-to-keep-score):
    (2, "S", "", False, 10, 170, "ACBL: 2 spades making 4 scores 170"),
    (4, "S", "", False, 10, 420, "ACBL: 4 spades not vulnerable 420"),
    (4, "S", "", True, 10, 620, "ACBL: 4 spades vulnerable 620"),
    # Lumbroso, "Learn Bridge Very Slowly", Scoring part 2 (homepage.eircom.net/~lumbrosoforbridge/EN5.html):
    (1, "C", "", False, 7, 70, "Lumbroso: 1C making 70"),
    (2, "H", "", False, 8, 110, "Lumbroso: 2H making 110"),
    (6, "H", "", False, 12, 980, "Lumbroso: 6H making 980"),
    (7, "D", "", False, 13, 1440, "Lumbroso: 7D making 1440"),
    # Common published values (duplicate scoring tables, e.g. nofearbridge.co.uk, ACBL scoring slider):
    (4, "S", "", True, 11, 650, "4S vulnerable making 11"),
    (3, "NT", "", False, 9, 400, "3NT not vulnerable"),
    (3, "NT", "", True, 9, 600, "3NT vulnerable"),
    (1, "NT", "", False, 7, 90, "1NT making"),
    (2, "H", "X", False, 8, 470, "the 'four-seventy': 2H doubled making"),
    (1, "NT", "XX", False, 7, 560, "1NT redoubled not vulnerable making"),
    (1, "NT", "XX", True, 7, 760, "1NT redoubled vulnerable making"),
    (7, "NT", "XX", True, 13, 2980, "7NT redoubled vulnerable making"),
    (1, "NT", "XX", True, 13, 3160, "the highest possible duplicate score"),
    (1, "C", "X", True, 0, -2000, "1C doubled vulnerable down 7"),
    (7, "NT", "XX", True, 0, -7600, "the largest possible penalty"),
    # 'four undertricks doubled not vulnerable cost 800, the same as three
    # undertricks doubled vulnerable' (Wikipedia, Bridge scoring)
    (4, "H", "X", False, 6, -800, "4 down doubled not vulnerable"),
    (4, "H", "X", True, 7, -800, "3 down doubled vulnerable"),
    (3, "NT", "", True, 7, -200, "2 down undoubled vulnerable"),
])
def test_score_known_values(level, strain, risk, vul, tricks, expected, source):
    out = run("score", level=level, strain=strain, risk=risk, vulnerable=vul, tricks=tricks)
    assert out["result"]["score"] == expected, source
    assert str(expected) in out["explanation"]


def test_score_cites_19d_only_when_doubled():
    assert run("score", level=2, strain="H", tricks=8)["cites"] == ["77"]
    assert run("score", level=2, strain="H", risk="X", tricks=8)["cites"] == ["77", "19D"]


def test_score_defaults_to_undoubled_not_vulnerable():
    assert run("score", level=1, strain="NT", tricks=7)["result"]["score"] == 90


@pytest.mark.parametrize("data, field", [
    ({"level": 8, "strain": "S", "tricks": 10}, "level"),
    ({"level": 0, "strain": "S", "tricks": 10}, "level"),
    ({"level": 4, "strain": "N", "tricks": 10}, "strain"),
    ({"level": 4, "strain": "S", "tricks": 14}, "tricks"),
    ({"level": 4, "strain": "S", "tricks": -1}, "tricks"),
    ({"level": 4, "strain": "S", "risk": "XXX", "tricks": 10}, "risk"),
    ({"level": 4, "strain": "S", "vulnerable": "yes", "tricks": 10}, "vulnerable"),
    ({"level": 4, "strain": "S"}, "tricks"),
    ({"level": 4, "strain": "S", "tricks": 10, "declarer": "N"}, "declarer"),
])
def test_score_bad_input_names_the_field(data, field):
    err = bad("score", **data)
    assert err.field == field
    assert "must" in str(err) or "missing" in str(err) or "no field" in str(err)


def test_score_message_is_in_words():
    assert str(bad("score", level=4, strain="S", tricks=14)) == "Tricks taken must be at most 13."


def test_score_defeated_contract_whole_answer():
    # Law 77: doubled vulnerable undertricks are 200, then 300 each: three down is 800
    assert run("score", level=4, strain="S", risk="X", vulnerable=True, tricks=7) == {
        "result": {"contract": "4SX", "score": -800, "made": False, "overtricks": 0, "undertricks": 3,
                   "parts": [{"name": "three doubled undertricks", "points": -800}]},
        "explanation": "4SX (4 spades, doubled), vulnerable, taking 7 tricks, is defeated by three tricks: "
                       "three doubled undertricks 800, so the declaring side scores -800.",
        "cites": ["77", "19D"], "edition": "2017"}


def test_score_made_contract_whole_answer():
    # 3NT + 1 not vulnerable: 100 trick score, 300 game premium, 30 overtrick (Law 77)
    assert run("score", level=3, strain="NT", tricks=10) == {
        "result": {"contract": "3NT", "score": 430, "made": True, "overtricks": 1, "undertricks": 0,
                   "parts": [{"name": "trick score (game)", "points": 100}, {"name": "game premium", "points": 300},
                             {"name": "one undoubled overtrick", "points": 30}]},
        "explanation": "3NT (3 no trump, undoubled), not vulnerable, taking 10 tricks, is made with one overtrick: "
                       "trick score (game) 100 + game premium 300 + one undoubled overtrick 30, so the declaring "
                       "side scores 430.",
        "cites": ["77"], "edition": "2017"}


def test_score_just_made_and_two_overtricks_whole_answers():
    assert run("score", level=4, strain="H", tricks=10) == {
        "result": {"contract": "4H", "score": 420, "made": True, "overtricks": 0, "undertricks": 0,
                   "parts": [{"name": "trick score (game)", "points": 120}, {"name": "game premium", "points": 300}]},
        "explanation": "4H (4 hearts, undoubled), not vulnerable, taking 10 tricks, is just made: trick score (game) "
                       "120 + game premium 300, so the declaring side scores 420.",
        "cites": ["77"], "edition": "2017"}
    # 2DXX vulnerable + 2: 160 (4 x 40) + 500 + 100 (Law 77's premium for a redoubled contract) + 2 x 400
    assert run("score", level=2, strain="D", risk="XX", vulnerable=True, tricks=10) == {
        "result": {"contract": "2DXX", "score": 1560, "made": True, "overtricks": 2, "undertricks": 0,
                   "parts": [{"name": "trick score (game)", "points": 160}, {"name": "game premium", "points": 500},
                             {"name": "premium for making a redoubled contract", "points": 100},
                             {"name": "two redoubled overtricks", "points": 800}]},
        "explanation": "2DXX (2 diamonds, redoubled), vulnerable, taking 10 tricks, is made with two overtricks: "
                       "trick score (game) 160 + game premium 500 + premium for making a redoubled contract 100 + "
                       "two redoubled overtricks 800, so the declaring side scores 1560.",
        "cites": ["77", "19D"], "edition": "2017"}
    # as the API sends it: whole numbers of points (800, not 800.0)
    parts = run("score", level=2, strain="D", risk="XX", vulnerable=True, tricks=10)["result"]["parts"]
    assert json.dumps([p["points"] for p in parts]) == "[160, 500, 100, 800]"


@pytest.mark.parametrize("level, strain, risk, vul, tricks, contract, words, score", [
    # Law 77's undertricks: undoubled 50 (100 vulnerable) each; doubled not vulnerable 100, 200, 200, then 300
    (3, "NT", "", True, 8, "3NT (3 no trump, undoubled), vulnerable, taking 8 tricks", "one undoubled undertrick",
     -100),
    (4, "H", "", False, 8, "4H (4 hearts, undoubled), not vulnerable, taking 8 tricks", "two undoubled undertricks",
     -100),
    (2, "C", "X", False, 1, "2CX (2 clubs, doubled), not vulnerable, taking 1 trick", "seven doubled undertricks",
     -1700),
    (3, "S", "", False, 0, "3S (3 spades, undoubled), not vulnerable, taking 0 tricks", "nine undoubled undertricks",
     -450),
])
def test_score_defeated_explanation_counts_tricks_in_words(level, strain, risk, vul, tricks, contract, words, score):
    out = run("score", level=level, strain=strain, risk=risk, vulnerable=vul, tricks=tricks)
    down = words.split()[0]
    assert out["explanation"] == (f"{contract}, is defeated by {down} trick{'' if down == 'one' else 's'}: "
                                  f"{words} {-score}, so the declaring side scores {score}.")
    assert out["result"]["parts"] == [{"name": words, "points": score}]
    assert json.dumps(out["result"]["score"]) == str(score)  # a whole number (-1700, not -1700.0)


# --- imps (Law 78B) ------------------------------------------------------------

# Law 78B's scale, as printed in the 2007 text: (low, high, IMPs)
LAW_78B = [(20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6), (270, 310, 7),
           (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12), (750, 890, 13),
           (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18),
           (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23)]


def test_whole_imp_scale_every_multiple_of_ten_both_signs():
    expected = {0: 0, 10: 0}
    for low, high, n in LAW_78B:
        for d in range(low, high + 1, 10):
            expected[d] = n
    for d in range(4000, 8000, 10):
        expected[d] = 24
    for d, n in expected.items():
        assert run("imps", difference=d)["result"]["imps"] == n, d
        assert run("imps", difference=-d)["result"]["imps"] == -n, -d


@pytest.mark.parametrize("low, high, n", LAW_78B)
def test_imp_band_boundaries(low, high, n):
    assert run("imps", difference=low - 10)["result"]["imps"] == n - 1
    assert run("imps", difference=low)["result"]["imps"] == n
    assert run("imps", difference=high)["result"]["imps"] == n
    assert run("imps", difference=high + 10)["result"]["imps"] == n + 1


@pytest.mark.parametrize("difference, imps, source", [
    (430, 10, "CONTRACT.md"),
    (450, 10, "620 v 170: the vulnerable game swing, 10 IMPs (standard IMP tables)"),
    (-450, -10, "the same swing lost"),
    (1100, 15, "WBF IMP table: 1100-1290 = 15"),
    (7600, 24, "4000 and upward = 24"),
    (45, 1, "between multiples of ten: the band reached"),
])
def test_imps_known_values(difference, imps, source):
    assert run("imps", difference=difference)["result"]["imps"] == imps, source



@pytest.mark.parametrize("difference, imps, band, words", [
    (430, 10, "430–490", "gains 10 IMPs"),
    (-20, -1, "20–40", "loses 1 IMP"),
    (0, 0, "0–10", "neither gains nor loses (0 IMPs)"),
    (1, 0, "0–10", "gains 0 IMPs"),  # any positive difference is a gain, even one worth no IMP
    (-1, 0, "0–10", "loses 0 IMPs"),
    (4000, 24, "4000 and upward", "gains 24 IMPs"),
])
def test_imps_whole_answer(difference, imps, band, words):
    assert run("imps", difference=difference) == {
        "result": {"difference": difference, "imps": imps, "band": band},
        "explanation": f"A difference of {difference} point{'' if abs(difference) == 1 else 's'} is in the band "
                       f"{band} of the IMP scale, so the "
                       f"contestant {words}.",
        "cites": ["78B"], "edition": "2017"}

def test_imps_bad_input():
    assert bad("imps", difference="430").field == "difference"
    assert bad("imps").field == "difference"


# --- matchpoints (Law 78A) -----------------------------------------------------

@pytest.mark.parametrize("scores, expected, source", [
    ([420, 420, 450, -50], [3, 3, 6, 0], "CONTRACT.md"),
    ([100], [0], "a board played once: top 0"),
    ([50, 50, 50], [2, 2, 2], "all equal: one for each equal score"),
    # A 7-table top of 12 (2 x 6): scores in order, with a three-way tie
    ([620, 650, 620, 170, 620, -100, 680], [6, 10, 6, 2, 6, 0, 12], "Law 78A by hand"),
])
def test_matchpoints_known_values(scores, expected, source):
    out = run("matchpoints", scores=scores)
    assert out["result"]["matchpoints"] == expected, source
    assert out["result"]["top"] == 2 * (len(scores) - 1)
    assert out["cites"] == ["78A"]


def test_matchpoints_percentages_to_two_decimals():
    out = run("matchpoints", scores=[100, 200, 300, 400])
    assert out["result"] == {"matchpoints": [0, 2, 4, 6], "top": 6, "percentages": [0, 33.33, 66.67, 100]}
    assert out["explanation"] == ("Each of the 4 scores gets two matchpoints for every score it beats and one for "
                                  "every score equal to it, on a top of 6: 100 gets 0, 200 gets 2, 300 gets 4, "
                                  "400 gets 6.")
    assert run("matchpoints", scores=[420, 420, 450, -50])["explanation"] == (
        "Each of the 4 scores gets two matchpoints for every score it beats and one for every score equal to it, "
        "on a top of 6; tied scores share: 420 gets 3, 420 gets 3, 450 gets 6, -50 gets 0.")
    # a board played once has a top of 0: the score is an average
    assert run("matchpoints", scores=[100])["result"] == {"matchpoints": [0], "top": 0, "percentages": [50]}


def test_matchpoints_sum_to_n_times_n_minus_1():
    scores = [-200, 100, 100, 110, 140, 140, 140, 170, 200, 620, -50]
    mps = run("matchpoints", scores=scores)["result"]["matchpoints"]
    assert sum(mps) == len(scores) * (len(scores) - 1)


def test_matchpoints_bad_input():
    assert bad("matchpoints", scores=[]).field == "scores"
    assert bad("matchpoints", scores=[1, "x"]).field == "scores"
    assert bad("matchpoints", scores=list(range(1001))).field == "scores"


# --- artificial-score (Law 12C2) -----------------------------------------------

@pytest.mark.parametrize("fault, award, pct", [
    ("none", "average plus", 60), ("partly", "average", 50), ("directly", "average minus", 40),
])
def test_artificial_score_at_matchpoints(fault, award, pct):
    # 12C2(a): 'average minus (at most 40%) ... average (50%) ... average plus (at least 60%)'
    r = run("artificial-score", fault=fault, top=20)
    assert r["result"]["award"] == award and r["result"]["percentage"] == pct
    assert r["result"]["matchpoints"] == pct * 20 / 100
    assert r["cites"] == ["12C2(a)"]


@pytest.mark.parametrize("fault, imps", [("none", 3), ("partly", 0), ("directly", -3)])
def test_artificial_score_at_imps(fault, imps):
    # 12C2(b) (2007 also 86A, which 2017 gave to substitute boards): 'plus or minus 3 imps'
    r = run("artificial-score", fault=fault, scoring="imps")
    assert r["result"]["imps"] == imps
    assert r["explanation"] == {"none": "A contestant in no way at fault gets average plus: +3 IMPs.",
                                "partly": "A contestant only partly at fault gets average: 0 IMPs.",
                                "directly": "A contestant directly at fault gets average minus: -3 IMPs."}[fault]
    assert r["cites"] == (["12C2(a)"] if fault == "partly" else ["12C2(a)", "12C2(b)"])


@pytest.mark.parametrize("fault, session, expected, modified", [
    ("none", 64, 64, True),       # 12C2(c): above 60 % keeps its session percentage
    ("none", 55, 60, False),
    ("none", 60, 60, False),      # 'exceeding 60%'
    ("none", 60.5, 60.5, True),
    ("directly", 35, 35, True),   # 'less than 40%'
    ("directly", 45, 40, False),
    ("directly", 40, 40, False),  # 'less than 40%'
    ("directly", 39.5, 39.5, True),
    ("partly", 30, 50, False),    # 12C2(c) is for non-offending and offending contestants
])
def test_artificial_score_session_modification(fault, session, expected, modified):
    r = run("artificial-score", fault=fault, session_percentage=session)
    assert r["result"]["percentage"] == expected
    assert r["result"]["modified_by_session_score"] is modified
    assert ("12C2(c)" in r["cites"]) is modified


def test_artificial_score_session_imps():
    assert run("artificial-score", fault="none", scoring="imps", session_imps=4.5)["result"]["imps"] == 4.5
    assert run("artificial-score", fault="directly", scoring="imps", session_imps=-5)["result"]["imps"] == -5
    assert run("artificial-score", fault="directly", scoring="imps", session_imps=2)["result"]["imps"] == -3



def test_artificial_score_session_percentage_keeps_two_decimals():
    assert run("artificial-score", fault="none", session_percentage=61.25, top=20)["result"] == {
        "award": "average plus", "percentage": 61.25, "matchpoints": 12.25, "modified_by_session_score": True}


@pytest.mark.parametrize("session, imps, modified", [
    (5, -3, False),     # a good session does not help a contestant directly at fault
    (-3.5, -3.5, True),  # 'less than' -3: its own worse average
    (-3, -3, False),
    (-2.5, -3, False),
])
def test_artificial_score_directly_at_fault_at_imps(session, imps, modified):
    r = run("artificial-score", fault="directly", scoring="imps", session_imps=session)
    assert r["result"] == {"award": "average minus", "imps": imps, "modified_by_session_score": modified}
    assert r["cites"] == ["12C2(a)", "12C2(b)"] + (["12C2(c)"] if modified else [])


@pytest.mark.parametrize("session, imps, modified", [(3.5, 3.5, True), (3, 3, False), (-5, 3, False)])
def test_artificial_score_in_no_way_at_fault_at_imps(session, imps, modified):
    # 12C2(c): a non-offending contestant keeps its session average when it exceeds +3 IMPs
    r = run("artificial-score", fault="none", scoring="imps", session_imps=session)
    assert r["result"] == {"award": "average plus", "imps": imps, "modified_by_session_score": modified}
    assert r["cites"] == ["12C2(a)", "12C2(b)"] + (["12C2(c)"] if modified else [])

@pytest.mark.parametrize("fault, session, explanation", [
    ("none", 64, "A contestant in no way at fault gets average plus, but its session score on the other boards is "
                 "better for it than that, so it keeps it: 64 % of the matchpoints."),
    ("directly", 35, "A contestant directly at fault gets average minus, but its session score on the other boards "
                     "is worse than that, so it gets that instead: 35 % of the matchpoints."),
])
def test_artificial_score_explains_the_session_score(fault, session, explanation):
    assert run("artificial-score", fault=fault, session_percentage=session)["explanation"] == explanation


def test_artificial_score_guide_example():
    # The simplified guide: 'Average-plus: 60% of the match points (or their
    # overall average whichever is higher)' -- on a top of 20, 64 % is 12.8
    r = run("artificial-score", fault="none", session_percentage=64, top=20)
    assert r["result"]["matchpoints"] == 12.8


def test_artificial_score_bad_input():
    assert bad("artificial-score", fault="some").field == "fault"
    assert bad("artificial-score", fault="none", session_percentage=101).field == "session_percentage"
    assert bad("artificial-score", fault="none", scoring="imps", top=20).field == "top"
    assert bad("artificial-score", fault="none", session_imps=4).field == "session_imps"


# --- weighted-score (Law 12C1(c)) ----------------------------------------------

# The simplified guide (corpus/001, 'Weighted scores'): an 11-table movement,
# NS +500 worth 8 and NS +200 worth 5 matchpoints; 30 % and 70 % give 5.9 on
# a top of 20, and E/W 14.1.  These ten other results give exactly 8 and 5.
GUIDE_OTHERS = [-100, 100, 200, 300, 620, 620, 620, 620, 620, 620]


def test_weighted_score_guide_example():
    r = run("weighted-score", outcomes=[500, 200], weights=[30, 70], other_scores=GUIDE_OTHERS)
    # 5.9 of 20 is 29.5 %
    assert r["result"] == {"score": 5.9, "each": [8, 5], "top": 20, "percentage": 29.5, "opponents": 14.1}
    assert r["explanation"] == ("Scored against the 10 other results, the outcomes are worth 8 (for 500), 5 (for 200) "
                                "matchpoints; weighted as 30 % of 500, 70 % of 200, that is 5.9 on a top of 20 "
                                "(29.5 %), leaving 14.1 to the opponents.")
    assert r["cites"] == ["12C1(c)", "78A"]


def test_weighted_score_at_imps():
    # 'A similar approach is used in teams, where the IMPs are calculated, then
    # the weighting is applied' (the guide).  +500 v +420 is 80, 2 IMPs; +200
    # v +420 is -220, -6 IMPs (Law 78B): 0.3 * 2 + 0.7 * -6 = -3.6
    r = run("weighted-score", outcomes=[500, 200], weights=[30, 70], scoring="imps", other_table=420)
    assert r["result"]["each"] == [2, -6]
    assert r["result"]["score"] == -3.6
    assert r["cites"] == ["12C1(c)", "78B"]


def test_weighted_score_single_outcome_is_plain_matchpoints():
    r = run("weighted-score", outcomes=[420], weights=[100], other_scores=[420, 450, -50])
    assert r["result"]["score"] == 3  # as the matchpoints checker gives 420 among 420, 420, 450, -50


@pytest.mark.parametrize("data, field", [
    ({"outcomes": [500, 200], "weights": [30, 60], "other_scores": [1]}, "weights"),
    ({"outcomes": [500, 200], "weights": [100], "other_scores": [1]}, "weights"),
    ({"outcomes": [500, 200], "weights": [30, 70.5], "other_scores": [1]}, "weights"),  # 100.5 %
    ({"outcomes": [500], "weights": [100]}, "other_scores"),
    ({"outcomes": [500], "weights": [100], "scoring": "imps"}, "other_table"),
    ({"outcomes": [500], "weights": [0]}, "weights"),
    ({"outcomes": [], "weights": [100]}, "outcomes"),
])
def test_weighted_score_bad_input(data, field):
    assert bad("weighted-score", **data).field == field


# --- team-average (Law 86) -----------------------------------------------------

@pytest.mark.parametrize("edition, law", [
    # 2007 86A: 'that score is plus 3 IMPs or minus 3 IMPs respectively'
    ("2007", "86A"),
    # 2017 12C2(b): 'When the Director chooses to award an artificial adjusted
    # score of average plus or average minus at IMP play, that score is plus 3
    # IMPs or minus 3 IMPs respectively' (2017's 86A is the redeal of a board)
    ("2017", "12C2(b)"),
])
def test_team_average_plus_and_minus(edition, law):
    assert run("team-average", adjustment="average plus", edition=edition)["result"] == {"imps": 3}
    assert run("team-average", adjustment="average minus", edition=edition)["result"] == {"imps": -3}
    assert run("team-average", adjustment="average plus", edition=edition)["cites"] == [law]


def test_team_average_answers_in_the_code_in_force():
    out = run("team-average", adjustment="average minus")
    assert (out["edition"], out["cites"]) == ("2017", ["12C2(b)"])


@pytest.mark.parametrize("edition, laws", [
    # 2007 86B: 'each contestant's score on the board is calculated separately.
    # The average of the two scores is then assigned to each contestant' (and 12C4)
    ("2007", ["86B", "12C4"]),
    # 2017 12C4: 'each contestant's score on the board is calculated separately
    # and the average of them is assigned to each' (2017's 86B is another matter)
    ("2017", ["12C4"]),
])
def test_team_average_non_balancing_knockout(edition, laws):
    # A's score gives A +10; B's gives B -6 (A +6): the average is +8 / -8.
    r = run("team-average", adjustment="non-balancing", imps_a=10, imps_b=-6, edition=edition)
    assert r["result"] == {"team_a": 8, "team_b": -8}
    assert r["cites"] == laws
    r = run("team-average", adjustment="non-balancing", imps_a=5, imps_b=-2)
    assert r["result"] == {"team_a": 3.5, "team_b": -3.5}
    assert r["explanation"] == ("In knockout play each team's score is calculated separately: team A's assigned "
                                "score gives it +5 IMPs and team B's gives it -2 IMPs, that is +2 to team A; the "
                                "average of the two, +3.5 IMPs, is assigned to team A, and -3.5 to team B.")
    # balancing scores average to themselves
    assert run("team-average", adjustment="non-balancing", imps_a=7, imps_b=-7)["result"]["team_a"] == 7


def test_team_average_bad_input():
    assert bad("team-average", adjustment="non-balancing", imps_a=3).field == "imps_b"
    assert str(bad("team-average", adjustment="non-balancing", imps_a=3)) == (
        "Give the IMPs for team B, from its own assigned score.")
    assert str(bad("team-average", adjustment="non-balancing", imps_b=3)) == (
        "Give the IMPs for team A, from its own assigned score.")
    assert bad("team-average", adjustment="average plus", imps_a=3).field == "imps_a"
    assert bad("team-average", adjustment="average").field == "adjustment"
