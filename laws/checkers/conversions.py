"""Checkers for scoring methods a Regulating Authority approves under Law 78D
("other scoring methods (for example conversions to Victory Points) may be
adopted"): victory points on the WBF continuous 20-point scale, cross-IMPs
and Butler.  The Laws give only the IMP scale (78B); what is converted, how
it is averaged, the datum and the VP scale are regulation, and each result
says which of its inputs and rules come from regulation.

What they compute from is data (the edition file's `tables`: `imps`,
`victory_points`, `butler`), read by the JavaScript port
(static/checkers/checkers.js) too.  Both must give the same digits, so:

- the VP formula is computed with + - * / and square roots only (IEEE 754
  gives those the same result in Python and JavaScript, where `**`, `exp`
  and `log` may differ in the last bit): tau to a power is exp(y * ln tau)
  by a fixed series, with ln tau from the data;
- averages and means of whole numbers are rounded exactly, in whole-number
  arithmetic (`div_round`), never through a binary fraction.
"""
from __future__ import annotations

import math

from laws.checkers.registry import Edition, Result, checker
from laws.checkers.scoring import _num, imps_for
from laws.errors import BadInput as BadRequest


def div_round(numerator: int, denominator: int) -> int:
    """numerator / denominator (denominator > 0) to the nearest whole number,
    exactly; halves away from zero, so that a result does not depend on the
    direction (North-South or East-West) the scores are written from."""
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q


def _hundredths(n: int) -> int | float:
    """A number of hundredths as a number (a whole number as an int)."""
    return n // 100 if n % 100 == 0 else n / 100


def _signed(n) -> str:
    """+3, 0, -3: a number of IMPs with its sign (none for 0)."""
    return f"+{n}" if n > 0 else f"{n}" if n < 0 else "0"


def _exp(x: float) -> float:
    """e ** x for 0 <= x <= 3 by its series, in an order of operations the
    JavaScript port repeats exactly (all terms positive: no cancellation;
    added smallest first, for the last bits)."""
    terms, term = [1.0], 1.0
    for k in range(1, 60):
        term = term * x / k
        terms.append(term)
    total = 0.0
    for t in reversed(terms):
        total = total + t
    return total


def vp_scale(scale: dict, boards: int, margin: float) -> tuple[float, float]:
    """(winner's VPs unrounded, blitz) for a non-negative IMP margin over
    `boards` boards on the continuous scale `scale` (tables.victory_points):
    VP = draw + (maximum - draw) * (1 - tau ** (3X / B)) / (1 - tau ** 3),
    B = blitz_per_root_board * sqrt(boards), X = min(margin, B)."""
    blitz = scale["blitz_per_root_board"] * math.sqrt(boards)
    if margin >= blitz:
        return float(scale["maximum"]), blitz
    tau = scale["tau"]
    power = 1 / _exp(-(scale["exponent"] * margin / blitz) * scale["ln_tau"])  # tau ** (3X/B)
    top = 1 - tau * tau * tau
    return scale["draw"] + (scale["maximum"] - scale["draw"]) * (1 - power) / top, blitz


# --- victory points --------------------------------------------------------------

@checker("victory-points")
def victory_points(data: dict, ed: Edition) -> Result:
    """Victory points for an IMP margin on the WBF continuous 20-point scale
    (2013), a regulation under Law 78D, not a Law.

    Inputs: `margin`, team A's IMPs less team B's over the match (negative
    when team B won; taken to two decimals), and `boards`, the number of
    boards in the match.  The scale and its use are regulation (Law 78D
    allows conversions to victory points if the Regulating Authority approves
    them); the Laws give only the IMPs.  The WBF formula: the blitz is
    15 x the square root of the number of boards (in IMPs, 60 for 16 boards);
    the winner of a margin X below the blitz gets 10 + 10 x (1 - tau^(3X /
    blitz)) / (1 - tau^3) VPs, tau = (sqrt 5 - 1) / 2, rounded to two
    decimals, and 20 at or above the blitz; the loser gets 20 less the
    winner's VPs.  Result: `team_a` and `team_b` (VPs), `blitz` (IMPs, to two
    decimals), `capped` (the margin reached the blitz).  The WBF's printed
    tables come from the same formula; where a regulation prints a table,
    its table is what applies."""
    scale = ed.tables["victory_points"]
    boards, margin = data["boards"], _num(data["margin"])
    raw, blitz = vp_scale(scale, boards, abs(margin))
    winner = _num(raw)
    cents = round(winner * 100)  # winner has two decimals: this is exact
    loser = _hundredths(scale["maximum"] * 100 - cents)
    a, b = (winner, loser) if margin >= 0 else (loser, winner)
    capped = abs(margin) >= blitz
    who = ("neither team won: a draw" if margin == 0 else
           f"team {'A' if margin > 0 else 'B'} won by {_num(abs(margin))} IMP{'' if abs(margin) == 1 else 's'}")
    how = (f"that reaches the blitz of {_num(blitz)} IMPs ({scale['blitz_per_root_board']} × √{boards}), so the "
           f"winner gets the maximum" if capped else
           f"against a blitz of {_num(blitz)} IMPs ({scale['blitz_per_root_board']} × √{boards}) the formula "
           f"gives {_num(winner)} VPs to the {'winner' if margin else 'each team'}")
    explanation = (f"Over {boards} board{'s' if boards != 1 else ''} {who}; {how}: team A {a} VPs, team B {b} VPs "
                   f"(rounded to two decimals, the loser getting {scale['maximum']} less the winner's). "
                   f"The scale is the {scale['name']}, which applies only where the Regulating Authority adopts it "
                   f"(Law {ed.law('regulation')}); the Laws themselves give only IMPs.")
    result = {"team_a": a, "team_b": b, "blitz": _num(blitz), "capped": capped}
    return Result(result, explanation, [ed.law("regulation")])


# --- cross-IMPs ---------------------------------------------------------------------

@checker("cross-imps")
def cross_imps(data: dict, ed: Edition) -> Result:
    """Cross-IMPs on a board: every score against every other, in IMPs on
    Law 78B's scale, averaged (a method of scoring by regulation, Law 78D).

    Input: `scores`, every result on the board from one direction (at least
    two).  Each score is compared with each of the n - 1 other scores (not
    with itself; an equal score counts as a comparison worth 0); each
    difference is converted to IMPs on Law 78B's scale.  Result: `imps`, the
    total for each score in the order given, `average`, that total divided
    by the n - 1 comparisons and rounded to two decimals (halves away from
    zero, computed exactly), and `comparisons` (n - 1).  Cross-IMP scoring,
    and dividing by the number of comparisons, are regulation (Law 78D);
    a regulation may scale the average otherwise."""
    scores = data["scores"]  # at least two (the schema's minItems)
    bands = ed.tables["imps"]["bands"]
    n = len(scores) - 1
    totals = [sum(imps_for(bands, s - o) for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]
    averages = [_hundredths(div_round(t * 100, n)) for t in totals]
    explanation = (f"Each of the {len(scores)} scores is compared with each of the {n} other"
                   f"{'s' if n != 1 else ''} (not with itself), each difference converted to IMPs on Law "
                   f"{ed.law('imps')}'s scale; the total is divided by the {n} comparison{'s' if n != 1 else ''} and "
                   f"rounded to two decimals (halves away from zero): "
                   + ", ".join(f"{s} gets {_signed(t)} ({_signed(a)} a comparison)"
                               for s, t, a in zip(scores, totals, averages))
                   + f". Scoring by cross-IMPs and the averaging are regulation (Law {ed.law('regulation')}), "
                   f"not the Laws.")
    return Result({"imps": totals, "average": averages, "comparisons": n}, explanation,
                  [ed.law("imps"), ed.law("regulation")])


# --- Butler ---------------------------------------------------------------------------

@checker("butler")
def butler(data: dict, ed: Edition) -> Result:
    """Butler scoring on a board: each score in IMPs (Law 78B) against a
    datum, the mean of the scores less the top and bottom ones, rounded to 10
    (regulation, Law 78D).

    Inputs: `scores`, every result on the board from one direction, and
    `drop`, how many of the highest and of the lowest scores are left out of
    the datum (set by regulation; 0 keeps them all).  The datum is the mean
    of the scores kept, rounded to the nearest 10; a mean ending in exactly
    5 rounds away from zero (415 to 420, -415 to -420), so the datum is the
    same whichever direction the scores are written from.  Each score's
    difference from the datum is converted to IMPs on Law 78B's scale.
    Result: `datum`, `mean` (of the scores kept, to two decimals), `kept`
    (how many) and `imps` (for each score, in the order given).  The datum,
    the number dropped and the rounding are regulation (Law 78D), not the
    Laws."""
    scores, drop = data["scores"], data["drop"]
    unit = ed.tables["butler"]["datum_rounding"]
    if 2 * drop >= len(scores):
        raise BadRequest(f"Dropping the top {drop} and the bottom {drop} of {len(scores)} score"
                         f"{'s' if len(scores) != 1 else ''} leaves none for the datum: drop fewer.", "drop")
    kept = sorted(scores)[drop:len(scores) - drop]
    total = sum(kept)
    mean = _hundredths(div_round(total * 100, len(kept)))
    datum = div_round(total, len(kept) * unit) * unit
    bands = ed.tables["imps"]["bands"]
    each = [imps_for(bands, s - datum) for s in scores]
    left = (f"leaving out the top {drop} and the bottom {drop} (a number set by regulation), the mean of the "
            f"other {len(kept)} is {mean}" if drop else f"none left out (the regulation drops none), the mean is {mean}")
    explanation = (f"Of the {len(scores)} score{'s' if len(scores) != 1 else ''}, {left}; rounded to the nearest "
                   f"{unit} (a mean ending in exactly 5 rounds away from zero) the datum is {datum}. Each score's "
                   f"difference from the datum in IMPs on Law {ed.law('imps')}'s scale: "
                   + ", ".join(f"{s} gets {_signed(m)}" for s, m in zip(scores, each))
                   + f". The datum and how it is made are regulation (Law {ed.law('regulation')}), not the Laws.")
    return Result({"datum": datum, "mean": mean, "kept": len(kept), "imps": each}, explanation,
                  [ed.law("imps"), ed.law("regulation")])
