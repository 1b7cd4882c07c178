"""The scoring checkers by regulation beside Law 78 (laws/checkers/conversions.py):
victory-points (the WBF continuous 20-point scale), cross-imps, butler.

Where each expected value comes from:

- victory points: the WBF Scoring Panel's published formula ("The New WBF IMP
  to VP Scales", 2013): blitz = 15 x sqrt(boards); the winner of a margin X
  below it gets 10 + 10 (1 - tau^(3X/blitz)) / (1 - tau^3), tau = (sqrt 5 - 1)/2,
  to two decimals; 20 at or beyond; the loser 20 less.  The rows are computed
  here from that formula in 50-digit decimal arithmetic (`wbf_vp`), not copied
  from the WBF's printed tables (which could not be checked here); two rows
  follow from tau + tau^2 = 1 alone: a third of the blitz gives exactly 15,
  two thirds 10 + 10 / (2 tau) = 18.09;
- IMPs: Law 78B's scale (worked by hand below, band by band);
- the averaging and the datum: the rules the checkers state (n - 1
  comparisons; a datum less the top and bottom `drop`, to the nearest 10),
  halves away from zero.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext

import pytest

from checker_calls import bad, run
from laws.checkers import codes, conversions, registry

TABLES = {ed: codes.editions()[ed]["tables"] for ed in ("2017", "2007")}


def wbf_vp(margin, boards) -> Decimal:
    """The winner's VPs by the published formula, in 50-digit decimals, rounded half up to two decimals."""
    with localcontext() as ctx:
        ctx.prec = 50
        tau = (Decimal(5).sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        x = Decimal(str(margin))
        if x >= blitz:
            return Decimal(20)
        v = 10 + 10 * (1 - (3 * x / blitz * tau.ln()).exp()) / (1 - tau ** 3)
        return v.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def vp(margin, boards):
    r = run("victory-points", margin=margin, boards=boards)["result"]
    return r["team_a"], r["team_b"]


# --- victory points ------------------------------------------------------------------

# 16 boards (blitz 60) and 8 boards (blitz 42.43): rows computed from the formula
@pytest.mark.parametrize("boards, margin, winner", [
    (16, 0, 10), (16, 1, 10.31), (16, 2, 10.61), (16, 3, 10.91), (16, 5, 11.48), (16, 10, 12.8),
    (16, 20, 15), (16, 23, 15.56), (16, 30, 16.73), (16, 40, 18.09), (16, 50, 19.16), (16, 59, 19.92),
    (16, 60, 20), (16, 61, 20), (16, 300, 20),
    (8, 5, 12.05), (8, 10, 13.78), (8, 20, 16.46), (8, 30, 18.37), (8, 42, 19.95), (8, 43, 20),
    (9, 15, 15), (9, 30, 18.09), (9, 45, 20),  # blitz 45: a third and two thirds of it
])
def test_victory_point_rows_from_the_wbf_formula(boards, margin, winner):
    assert Decimal(str(winner)) == wbf_vp(margin, boards)
    loser = round(20 - winner, 2)
    assert vp(margin, boards) == (winner, int(loser) if loser == int(loser) else loser)
    assert vp(-margin, boards) == (int(loser) if loser == int(loser) else loser, winner) or margin == 0


@pytest.mark.parametrize("boards", range(1, 65))
def test_every_whole_margin_agrees_with_the_formula_in_50_digits(boards):
    """Each integer margin from 0 to past the blitz, for matches of 1 to 64
    boards: the checker's two decimals are those of the exact formula, and the
    two teams' VPs add up to exactly 20."""
    blitz = 15 * math.sqrt(boards)
    for m in range(0, math.ceil(blitz) + 2):
        a, b = vp(m, boards)
        assert (Decimal(str(a)), Decimal(str(a)) + Decimal(str(b))) == (wbf_vp(m, boards), 20), (boards, m)


@pytest.mark.parametrize("margin", [0.5, 3.456, 12.25, 19.99, 59.99, 59.994])
def test_a_fractional_margin_is_taken_to_two_decimals(margin):
    taken = float(Decimal(str(margin)).quantize(Decimal("0.01")))  # round half even, as Python's round
    a, _ = vp(margin, 16)
    assert Decimal(str(a)) == wbf_vp(taken, 16)


def test_victory_points_say_the_scale_is_regulation_under_78d():
    out = run("victory-points", margin=23, boards=16)
    assert out["result"] == {"team_a": 15.56, "team_b": 4.44, "blitz": 60, "capped": False}
    assert out["cites"] == ["78D"]
    assert out["explanation"] == (
        "Over 16 boards team A won by 23 IMPs; against a blitz of 60 IMPs (15 × √16) the formula gives 15.56 VPs "
        "to the winner: team A 15.56 VPs, team B 4.44 VPs (rounded to two decimals, the loser getting 20 less the "
        "winner's). The scale is the WBF continuous 20-point victory point scale (2013), which applies only where "
        "the Regulating Authority adopts it (Law 78D); the Laws themselves give only IMPs.")
    summary = registry.get("victory-points").summary
    assert "regulation under Law 78D, not a Law" in summary


def test_victory_points_at_and_beyond_the_blitz_and_for_team_b():
    assert run("victory-points", margin=-75, boards=16)["result"] == {"team_a": 0, "team_b": 20, "blitz": 60,
                                                                      "capped": True}
    out = run("victory-points", margin=0, boards=7)
    assert out["result"] == {"team_a": 10, "team_b": 10, "blitz": 39.69, "capped": False}
    assert "neither team won: a draw" in out["explanation"]



@pytest.mark.parametrize("margin, boards, a, b, who, blitz, winner", [
    (0.5, 16, 10.16, 9.84, "Over 16 boards team A won by 0.5 IMPs", 60, 10.16),
    (-0.5, 16, 9.84, 10.16, "Over 16 boards team B won by 0.5 IMPs", 60, 10.16),
    (1, 1, 11.2, 8.8, "Over 1 board team A won by 1 IMP", 15, 11.2),
    (-1, 4, 9.39, 10.61, "Over 4 boards team B won by 1 IMP", 30, 10.61),
    (3, 2, 12.42, 7.58, "Over 2 boards team A won by 3 IMPs", 21.21, 12.42),
])
def test_victory_points_whole_answer_for_small_margins(margin, boards, a, b, who, blitz, winner):
    assert Decimal(str(winner)) == wbf_vp(abs(margin), boards)
    assert run("victory-points", margin=margin, boards=boards) == {
        "result": {"team_a": a, "team_b": b, "blitz": blitz, "capped": False},
        "explanation": f"{who}; against a blitz of {blitz} IMPs (15 × √{boards}) the formula gives {winner} VPs to "
                       f"the winner: team A {a} VPs, team B {b} VPs (rounded to two decimals, the loser getting 20 "
                       "less the winner's). The scale is the WBF continuous 20-point victory point scale (2013), "
                       "which applies only where the Regulating Authority adopts it (Law 78D); the Laws themselves "
                       "give only IMPs.",
        "cites": ["78D"], "edition": "2017"}

def test_victory_points_at_the_blitz_exactly_are_capped():
    assert run("victory-points", margin=60, boards=16) == {
        "result": {"team_a": 20, "team_b": 0, "blitz": 60, "capped": True},
        "explanation": "Over 16 boards team A won by 60 IMPs; that reaches the blitz of 60 IMPs (15 × √16), so the "
                       "winner gets the maximum: team A 20 VPs, team B 0 VPs (rounded to two decimals, the loser "
                       "getting 20 less the winner's). The scale is the WBF continuous 20-point victory point scale "
                       "(2013), which applies only where the Regulating Authority adopts it (Law 78D); the Laws "
                       "themselves give only IMPs.",
        "cites": ["78D"], "edition": "2017"}


@pytest.mark.parametrize("numerator, denominator, expected", [
    (5, 2, 3), (-5, 2, -3), (1, 2, 1), (-1, 2, -1),  # halves away from zero
    (0, 3, 0), (4, 3, 1), (-4, 3, -1), (-2, 3, -1), (2, 3, 1),
])
def test_div_round_is_exact_with_halves_away_from_zero(numerator, denominator, expected):
    assert conversions.div_round(numerator, denominator) == expected


def test_the_scale_constants_are_the_nearest_doubles():
    """tau and ln tau in the data are the doubles nearest the exact values
    (math.log(tau) is not: it is off in the last bits on some platforms)."""
    with localcontext() as ctx:
        ctx.prec = 50
        tau = (Decimal(5).sqrt() - 1) / 2
        for ed, tables in TABLES.items():
            scale = tables["victory_points"]
            assert (scale["tau"], scale["ln_tau"]) == (float(tau), float(tau.ln())), ed
            assert {k: scale[k] for k in ("draw", "maximum", "blitz_per_root_board", "exponent")} == \
                {"draw": 10, "maximum": 20, "blitz_per_root_board": 15, "exponent": 3}


def test_the_series_for_exp_is_within_two_ulps():
    for i in range(0, 1501):
        x = i / 1000
        assert abs(conversions._exp(x) - math.exp(x)) <= 2 * math.ulp(math.exp(x)), x


@pytest.mark.parametrize("payload, field", [
    ({"margin": 10}, "boards"),
    ({"boards": 16}, "margin"),
    ({"margin": 10, "boards": 0}, "boards"),
    ({"margin": 10, "boards": 2.5}, "boards"),
    ({"margin": "ten", "boards": 16}, "margin"),
    ({"margin": 10001, "boards": 16}, "margin"),
    ({"margin": 10, "boards": 16, "edition": "2017"}, "edition"),
])
def test_victory_points_refuse_bad_input_naming_the_field(payload, field):
    assert bad("victory-points", **payload).field == field


# --- cross-IMPs ----------------------------------------------------------------------

def test_cross_imps_worked_by_hand_on_law_78b():
    """420 against 420, 450, -50, 170: 0, -30 (-1), +470 (+10), +250 (+6) = +15 over 4 comparisons;
    450: +30 (+1) twice, +500 (+11), +280 (+7) = +20; -50: -10, -10, -11, -220 (-6) = -37;
    170: -6, -6, -7, +6 = -13."""
    out = run("cross-imps", scores=[420, 420, 450, -50, 170])
    assert out["result"] == {"imps": [15, 15, 20, -37, -13], "average": [3.75, 3.75, 5, -9.25, -3.25],
                             "comparisons": 4}
    assert out["cites"] == ["78B", "78D"]
    assert "divided by the 4 comparisons" in out["explanation"]
    assert "(not with itself)" in out["explanation"] and "halves away from zero" in out["explanation"]
    assert out["explanation"].endswith("Scoring by cross-IMPs and the averaging are regulation (Law 78D), not the Laws.")


def test_cross_imps_round_halves_away_from_zero():
    """20 against eight 0s: +1 IMP each, +8 over 8; each 0 gets -1 over 8 = -0.125 -> -0.13
    (half to even would give -0.12)."""
    assert run("cross-imps", scores=[20] + [0] * 8)["result"] == {
        "imps": [8] + [-1] * 8, "average": [1] + [-0.13] * 8, "comparisons": 8}
    assert run("cross-imps", scores=[-20] + [0] * 8)["result"]["average"] == [-1] + [0.13] * 8


def test_cross_imps_of_two_scores_and_of_equal_scores():
    assert run("cross-imps", scores=[620, 170])["result"] == {"imps": [10, -10], "average": [10, -10],
                                                              "comparisons": 1}
    assert run("cross-imps", scores=[620, 170])["explanation"] == (
        "Each of the 2 scores is compared with each of the 1 other (not with itself), each difference converted to "
        "IMPs on Law 78B's scale; the total is divided by the 1 comparison and rounded to two decimals (halves away "
        "from zero): 620 gets +10 (+10 a comparison), 170 gets -10 (-10 a comparison). Scoring by cross-IMPs and "
        "the averaging are regulation (Law 78D), not the Laws.")
    assert run("cross-imps", scores=[100, 100, 100])["result"] == {"imps": [0, 0, 0], "average": [0, 0, 0],
                                                                   "comparisons": 2}



def test_cross_imps_whole_answer_of_three_scores():
    """130 against 100 twice: +30 is 1 IMP (Law 78B's 20-40), so +2 over 2 comparisons; each 100 gets
    0 and -1."""
    assert run("cross-imps", scores=[100, 100, 130]) == {
        "result": {"imps": [-1, -1, 2], "average": [-0.5, -0.5, 1], "comparisons": 2},
        "explanation": "Each of the 3 scores is compared with each of the 2 others (not with itself), each difference "
                       "converted to IMPs on Law 78B's scale; the total is divided by the 2 comparisons and rounded "
                       "to two decimals (halves away from zero): 100 gets -1 (-0.5 a comparison), 100 gets -1 (-0.5 "
                       "a comparison), 130 gets +2 (+1 a comparison). Scoring by cross-IMPs and the averaging are "
                       "regulation (Law 78D), not the Laws.",
        "cites": ["78B", "78D"], "edition": "2017"}

def test_cross_imps_totals_balance():
    import random
    rnd = random.Random(78)
    for _ in range(50):
        scores = [rnd.choice([-1430, -620, -100, 50, 110, 140, 420, 450, 620, 1430]) for _ in range(rnd.randint(2, 15))]
        assert sum(run("cross-imps", scores=scores)["result"]["imps"]) == 0


@pytest.mark.parametrize("scores", [[420], [], "420 450", [420, "x"]])
def test_cross_imps_refuse_bad_scores(scores):
    assert bad("cross-imps", scores=scores).field == "scores"


# --- Butler ----------------------------------------------------------------------------

def test_butler_example_worked_by_hand():
    """Sorted: -50 170 420 420 450 620; dropping one at each end leaves 170 420 420 450, mean 365,
    a tie that rounds away from zero to 370; 420: +50 (+2), 450: +80 (+2), -50: -420 (-9),
    170: -200 (-5), 620: +250 (+6)."""
    out = run("butler", scores=[420, 420, 450, -50, 170, 620], drop=1)
    assert out["result"] == {"datum": 370, "mean": 365, "kept": 4, "imps": [2, 2, 2, -9, -5, 6]}
    assert out["cites"] == ["78B", "78D"]
    assert out["explanation"] == (
        "Of the 6 scores, leaving out the top 1 and the bottom 1 (a number set by regulation), the mean of the "
        "other 4 is 365; rounded to the nearest 10 (a mean ending in exactly 5 rounds away from zero) the datum "
        "is 370. Each score's difference from the datum in IMPs on Law 78B's scale: 420 gets +2, 420 gets +2, "
        "450 gets +2, -50 gets -9, 170 gets -5, 620 gets +6. The datum and how it is made are regulation "
        "(Law 78D), not the Laws.")


@pytest.mark.parametrize("scores, datum, mean", [
    ([410, 420], 420, 415), ([-410, -420], -420, -415),  # halves away from zero
    ([410, 415], 410, 412.5), ([-410, -415], -410, -412.5),
    ([0, 10, 0, 10], 10, 5), ([0, -10, 0, -10], -10, -5),
    ([100, 100, 101], 100, 100.33), ([4], 0, 4), ([5], 10, 5), ([-5], -10, -5),
])
def test_butler_datum_rounds_to_ten_halves_away_from_zero(scores, datum, mean):
    r = run("butler", scores=scores, drop=0)["result"]
    assert (r["datum"], r["mean"], r["kept"]) == (datum, mean, len(scores))


@pytest.mark.parametrize("scores, head, mean, datum, each", [
    ([4], "Of the 1 score", 4, 0, "4 gets 0"),
    ([410, 420], "Of the 2 scores", 415, 420, "410 gets 0, 420 gets 0"),
])
def test_butler_whole_explanation_without_a_drop(scores, head, mean, datum, each):
    assert run("butler", scores=scores, drop=0)["explanation"] == (
        f"{head}, none left out (the regulation drops none), the mean is {mean}; rounded to the nearest 10 (a mean "
        f"ending in exactly 5 rounds away from zero) the datum is {datum}. Each score's difference from the datum "
        f"in IMPs on Law 78B's scale: {each}. The datum and how it is made are regulation (Law 78D), not the Laws.")


def test_butler_is_the_same_from_either_direction():
    import random
    rnd = random.Random(7)
    for _ in range(50):
        scores = [rnd.choice([-1430, -620, -100, -50, 50, 110, 140, 420, 450, 620]) for _ in range(rnd.randint(1, 12))]
        drop = rnd.randint(0, (len(scores) - 1) // 2)
        ns = run("butler", scores=scores, drop=drop)["result"]
        ew = run("butler", scores=[-s for s in scores], drop=drop)["result"]
        assert (ew["datum"], ew["imps"]) == (-ns["datum"], [-i for i in ns["imps"]])


def test_butler_drops_from_each_end_whatever_the_order():
    """2000 and -2000 are dropped: the datum is the mean of 100, 140, 120; then 2000 - 120 = 1880 is
    in 78B's band 1750-1990 (18 IMPs) and -2120 in 2000-2240 (19)."""
    r = run("butler", scores=[100, 2000, 140, -2000, 120], drop=1)["result"]
    assert r == {"datum": 120, "mean": 120, "kept": 3, "imps": [-1, 18, 1, -19, 0]}


@pytest.mark.parametrize("payload, field, words", [
    ({"scores": [100, 200], "drop": 1}, "drop", "Dropping the top 1 and the bottom 1 of 2 scores leaves none"),
    ({"scores": [100], "drop": 1}, "drop", "of 1 score leaves none"),
    ({"scores": [100, 200]}, "drop", "is missing"),
    ({"scores": [100, 200], "drop": -1}, "drop", "at least 0"),
    ({"scores": [], "drop": 0}, "scores", "at least 1"),
    ({"scores": [1.5], "drop": 0}, "scores", "whole number"),
])
def test_butler_refuses_bad_input_naming_the_field(payload, field, words):
    e = bad("butler", **payload)
    assert e.field == field and words in str(e)


# --- on the web ---------------------------------------------------------------------------

@pytest.mark.parametrize("checker_id, payload, field", [
    ("victory-points", {"margin": 10, "boards": 0}, "boards"),
    ("cross-imps", {"scores": [1]}, "scores"),
    ("butler", {"scores": [1, 2], "drop": 1}, "drop"),
])
def test_api_refuses_with_400_naming_the_field(client, checker_id, payload, field):
    r = client.post(f"/api/checkers/{checker_id}", json=payload)
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_the_pages_show_the_result_and_say_regulation(client):
    page = client.get("/checkers/victory-points?margin=23&boards=16").get_data(as_text=True)
    assert "15.56" in page and "Regulating Authority adopts it" in page
    page = client.get("/checkers/butler?scores=410+420&drop=0").get_data(as_text=True)
    assert "the datum is 420" in page
    page = client.get("/checkers/cross-imps?scores=620+170").get_data(as_text=True)
    assert "620 gets +10 (+10 a comparison)" in page


def test_law_78_page_lists_the_checkers(client):
    for edition in ("2017", "2007"):
        listed = client.get(f"/api/laws/{edition}/78").get_json()["checkers"]
        assert {"victory-points", "cross-imps", "butler"} <= set(listed)


@pytest.mark.parametrize("query, adjustment", [
    ("cross-imps?scores=420+420+450+-50+170", "420: +3.75 IMPs (cross-IMPs, 15 over 4 comparisons, Laws 78B and 78D)"),
    ("butler?scores=420+420+450+-50+170+620&drop=1", "420: +2 IMPs (Butler, datum 370, Laws 78B and 78D)"),
])
def test_cross_imps_and_butler_lead_to_the_record_with_the_first_score(client, query, adjustment):
    import re
    from html import unescape
    from urllib.parse import parse_qsl, urlsplit
    html = client.get(f"/checkers/{query}&check=1").get_data(as_text=True)
    nav = re.search(r'<nav class="next-steps".*?</nav>', html, re.S).group()
    (href,) = [unescape(h) for h in re.findall(r'<a class="next-step" href="([^"]+)"', nav)]
    assert dict(parse_qsl(urlsplit(href).query)) == {"procedure": "adjusted-score", "edition": "2017"}
    assert dict(parse_qsl(urlsplit(href).fragment)) == {"adjustment": adjustment}  # a record field: the phone's
    assert client.get(href).status_code == 200


def test_victory_points_offer_no_next_step(client):
    html = client.get("/checkers/victory-points?margin=23&boards=16&check=1").get_data(as_text=True)
    assert 'class="next-step"' not in html
