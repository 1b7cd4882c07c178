"""Checkers for scoring: Law 77 (the score of a contract), Law 78 (matchpoints
and IMPs), and the adjusted scores of Law 12C and Law 86."""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from laws.checkers.cards import STRAINS, SUIT_NAMES
from laws.checkers.registry import Result, checker
from laws.errors import BadInput as BadRequest

# --- Law 77 ------------------------------------------------------------------

_RISK_WORDS = {"": "undoubled", "X": "doubled", "XX": "redoubled"}
_MULTIPLIER = {"": 1, "X": 2, "XX": 4}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen")


def _odd_trick_value(strain: str, nth: int) -> int:
    """Undoubled trick score of the nth odd trick (1-based) bid and made."""
    if strain in ("C", "D"):
        return 20
    if strain in ("H", "S"):
        return 30
    return 40 if nth == 1 else 30


def _undertrick_penalty(down: int, risk: str, vulnerable: bool) -> int:
    """Law 77, undertrick penalties: the total for `down` undertricks."""
    total = 0
    for n in range(1, down + 1):
        if risk == "":
            total += 100 if vulnerable else 50
        else:
            if vulnerable:
                each = 200 if n == 1 else 300
            else:
                each = 100 if n == 1 else 200 if n <= 3 else 300  # 200 + the 100 bonus from the fourth
            total += each * (_MULTIPLIER[risk] // 2)
    return total


def contract_score(level: int, strain: str, risk: str, vulnerable: bool, tricks: int) -> tuple[int, list]:
    """The declaring side's score and its parts as (name, points)."""
    needed = level + 6
    mult = _MULTIPLIER[risk]
    if tricks < needed:
        down = needed - tricks
        pen = _undertrick_penalty(down, risk, vulnerable)
        return -pen, [(f"{_NUMBER_WORDS[down]} {_RISK_WORDS[risk]} undertrick{'s' if down > 1 else ''}", -pen)]
    parts = []
    trick_score = sum(_odd_trick_value(strain, i) for i in range(1, level + 1)) * mult
    game = trick_score >= 100
    parts.append((f"trick score ({'game' if game else 'partscore'})", trick_score))
    if game:
        parts.append(("game premium", 500 if vulnerable else 300))
    else:
        parts.append(("partscore premium", 50))
    if level == 6:
        parts.append(("small slam premium", 750 if vulnerable else 500))
    elif level == 7:
        parts.append(("grand slam premium", 1500 if vulnerable else 1000))
    if risk == "X":
        parts.append(("premium for making a doubled contract", 50))
    elif risk == "XX":
        parts.append(("premium for making a redoubled contract", 100))
    over = tricks - needed
    if over:
        if risk == "":
            each = _odd_trick_value(strain, 2)  # an overtrick is worth its trick value
        else:
            each = (200 if vulnerable else 100) * (mult // 2)
        parts.append((f"{_NUMBER_WORDS[over]} {_RISK_WORDS[risk]} overtrick{'s' if over > 1 else ''}", over * each))
    return sum(p for _, p in parts), parts


def contract_name(level: int, strain: str, risk: str) -> str:
    return f"{level}{strain}{risk}"


@checker(
    "score", "Score of a contract",
    cites={"2017": ["77", "19D"], "2007": ["77", "19D"]},
    schema={
        "properties": {
            "level": {"type": "integer", "minimum": 1, "maximum": 7, "title": "level",
                      "description": "the number of odd tricks bid, 1 to 7"},
            "strain": {"enum": list(STRAINS), "title": "strain",
                       "x-labels": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}},
            "risk": {"enum": ["", "X", "XX"], "title": "doubled or redoubled", "default": "",
                     "x-labels": {"": "undoubled", "X": "doubled", "XX": "redoubled"}},
            "vulnerable": {"type": "boolean", "title": "declaring side vulnerable", "default": False},
            "tricks": {"type": "integer", "minimum": 0, "maximum": 13, "title": "tricks taken",
                       "description": "tricks won by declarer's side, 0 to 13"},
        },
        "required": ["level", "strain", "tricks"],
    },
    example={"level": 4, "strain": "S", "risk": "X", "vulnerable": True, "tricks": 11},
)
def score(data: dict) -> Result:
    """The score of any contract at duplicate (Law 77).

    Inputs: `level` 1-7, `strain` (C, D, H, S, NT), `risk` ('' undoubled, 'X'
    doubled, 'XX' redoubled), `vulnerable` (the declaring side), `tricks`
    taken by declarer's side 0-13.  Result: `score` from the declaring side's
    point of view (negative when the contract is defeated), `made`, `overtricks`
    or `undertricks`, and `parts`, the trick score and premiums that add up to it."""
    level, strain, tricks = data["level"], data["strain"], data["tricks"]
    risk, vul = data.get("risk", ""), data.get("vulnerable", False)
    total, parts = contract_score(level, strain, risk, vul, tricks)
    needed = level + 6
    made = tricks >= needed
    name = contract_name(level, strain, risk)
    who = "vulnerable" if vul else "not vulnerable"
    if made:
        over = tricks - needed
        how = "just made" if not over else f"made with {_NUMBER_WORDS[over]} overtrick{'s' if over > 1 else ''}"
    else:
        how = f"defeated by {_NUMBER_WORDS[needed - tricks]} trick{'s' if needed - tricks > 1 else ''}"
    detail = " + ".join(f"{n} {abs(p)}" for n, p in parts)
    explanation = (f"{name} ({level} {SUIT_NAMES[strain]}, {_RISK_WORDS[risk]}), {who}, taking {tricks} "
                   f"trick{'s' if tricks != 1 else ''}, is {how}: {detail}, so the declaring side scores {total}.")
    cites = ["77"] + (["19D"] if risk else [])
    result = {"contract": name, "score": total, "made": made,
              "overtricks": max(0, tricks - needed), "undertricks": max(0, needed - tricks),
              "parts": [{"name": n, "points": p} for n, p in parts]}
    return Result(result, explanation, cites)


# --- Law 78B: IMPs -------------------------------------------------------------

# The lower bound of each band of Law 78B's scale: a difference of at least
# IMP_BANDS[i] is worth i + 1 IMPs.
IMP_BANDS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
             1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps_for(difference: int | float) -> int:
    n = bisect_right(IMP_BANDS, abs(difference))
    return n if difference >= 0 else -n


def _band(n: int) -> str:
    if n == 0:
        return "0–10"
    if n == 24:
        return "4000 and upward"
    return f"{IMP_BANDS[n - 1]}–{IMP_BANDS[n] - 10}"


@checker(
    "imps", "IMPs for a difference in points",
    cites={"2017": ["78B"], "2007": ["78B"]},
    schema={
        "properties": {
            "difference": {"type": "integer", "title": "point difference",
                           "description": "your score minus the score it is compared with (negative if less)"},
        },
        "required": ["difference"],
    },
    example={"difference": 430},
)
def imps(data: dict) -> Result:
    """International matchpoints for a point difference (Law 78B).

    Input: `difference`, the total point difference between the two scores
    compared (negative when the contestant's score is the lower).  Result:
    `imps` with the sign of the difference, and `band`, the line of the scale
    used.  Differences fall between multiples of 10 only in averaged scores;
    they take the band whose lower bound they reach (45 is 1 IMP)."""
    d = data["difference"]
    n = imps_for(d)
    band = _band(abs(n))
    sign = "gains" if d > 0 else "loses" if d < 0 else "neither gains nor loses"
    explanation = (f"A difference of {d} points is in the band {band} of the IMP scale, so the contestant "
                   f"{sign}{'' if d == 0 else f' {abs(n)} IMP' + ('s' if abs(n) != 1 else '')}"
                   f"{' (0 IMPs)' if d == 0 else ''}.")
    return Result({"difference": d, "imps": n, "band": band}, explanation, ["78B"])


# --- Law 78A: matchpoints ------------------------------------------------------

def matchpoints_for(scores: list[int | float], others: list[int | float] | None = None) -> list[int]:
    """Two units for each score beaten, one for each equal.  Without `others`
    each score is compared with the rest of `scores`."""
    if others is None:
        pool = sorted(scores)
        return [2 * bisect_left(pool, s) + (bisect_right(pool, s) - bisect_left(pool, s) - 1) for s in scores]
    pool = sorted(others)
    return [2 * bisect_left(pool, s) + (bisect_right(pool, s) - bisect_left(pool, s)) for s in scores]


def _num(x: float) -> int | float:
    x = round(x, 2)
    return int(x) if x == int(x) else x


@checker(
    "matchpoints", "Matchpoints on a board",
    cites={"2017": ["78A"], "2007": ["78A"]},
    schema={
        "properties": {
            "scores": {"type": "array", "minItems": 1, "maxItems": 1000, "title": "scores",
                       "items": {"type": "integer", "title": "score"},
                       "description": "every score on the board, all from the same direction (say North-South)"},
        },
        "required": ["scores"],
    },
    example={"scores": [420, 420, 450, -50]},
)
def matchpoints(data: dict) -> Result:
    """Matchpoints for every score on a board (Law 78A).

    Input: `scores`, every result on the board from one direction.  Result:
    `matchpoints` in the order given (two for each score beaten, one for each
    score equalled), `top` (twice the number of other scores) and
    `percentages`."""
    scores = data["scores"]
    mps = matchpoints_for(scores)
    top = 2 * (len(scores) - 1)
    pct = [_num(100 * m / top) if top else 50 for m in mps]
    ties = len(scores) - len(set(scores))
    explanation = (f"Each of the {len(scores)} scores gets two matchpoints for every score it beats and one for "
                   f"every score equal to it, on a top of {top}"
                   f"{'; tied scores share' if ties else ''}: " +
                   ", ".join(f"{s} gets {m}" for s, m in zip(scores, mps)) + ".")
    return Result({"matchpoints": mps, "top": top, "percentages": pct}, explanation, ["78A"])


# --- Law 12C2 and 86A: artificial adjusted scores -------------------------------

_FAULT = {"none": ("average plus", 60, 3), "partly": ("average", 50, 0), "directly": ("average minus", 40, -3)}
_FAULT_WORDS = {"none": "in no way at fault", "partly": "only partly at fault", "directly": "directly at fault"}


@checker(
    "artificial-score", "Artificial adjusted score (average plus, average, average minus)",
    # 2007 put the IMP average-plus/minus in 86A; 2017 moved it into 12C2(b)
    cites={"2017": ["12C2(a)", "12C2(b)", "12C2(c)"], "2007": ["12C2(a)", "12C2(b)", "12C2(c)", "86A"]},
    schema={
        "properties": {
            "fault": {"enum": ["none", "partly", "directly"], "title": "contestant's fault",
                      "x-labels": {"none": "in no way at fault", "partly": "only partly at fault",
                                   "directly": "directly at fault"}},
            "scoring": {"enum": ["matchpoints", "imps"], "title": "form of scoring", "default": "matchpoints",
                        "x-labels": {"matchpoints": "matchpoints (pairs)", "imps": "IMPs"}},
            "session_percentage": {"type": "number", "minimum": 0, "maximum": 100,
                                   "title": "session percentage",
                                   "description": "the contestant's percentage on the other boards of the "
                                                  "session (matchpoints), if known"},
            "session_imps": {"type": "number", "minimum": -24, "maximum": 24, "title": "session IMPs per board",
                             "description": "the contestant's average IMPs per board on the other boards "
                                            "(IMPs), if known"},
            "top": {"type": "number", "exclusiveMinimum": 0, "maximum": 100000, "title": "top on the board",
                    "description": "the matchpoint top, to give the award in matchpoints too (optional)"},
        },
        "required": ["fault"],
    },
    example={"fault": "none", "scoring": "matchpoints", "session_percentage": 64, "top": 20},
)
def artificial_score(data: dict) -> Result:
    """An artificial adjusted score when no result can be obtained (Law 12C2).

    Inputs: `fault` ('none', 'partly', 'directly'), `scoring` ('matchpoints' or
    'imps'), optionally the contestant's `session_percentage` (or
    `session_imps`, average IMPs per board) on the other boards, and the
    matchpoint `top`.  Result: `award` (average plus, average, average minus),
    `percentage` (matchpoints) or `imps`, and `matchpoints` when a top is
    given.  12C2(a) gives at least 60 %, 50 % and at most 40 %; 12C2(b) (and
    2007's 86A) make average plus and minus ±3 IMPs; 12C2(c) gives a non-offending
    contestant above 60 % (an offending one below 40 %) its own session
    percentage, or the equivalent in IMPs.  Law 12C2(c) speaks only of
    non-offending and offending contestants, so the average of a contestant
    partly at fault is never modified."""
    fault, scoring = data["fault"], data.get("scoring", "matchpoints")
    award, pct, imp = _FAULT[fault]
    cites = ["12C2(a)"]
    modified = False
    if scoring == "matchpoints":
        if "session_imps" in data:
            raise BadRequest("Session IMPs per board is for IMP scoring; at matchpoints give the session "
                             "percentage.", "session_imps")
        s = data.get("session_percentage")
        if s is not None and ((fault == "none" and s > 60) or (fault == "directly" and s < 40)):
            pct, modified = s, True
            cites.append("12C2(c)")
        result = {"award": award, "percentage": _num(pct)}
        if "top" in data:
            result["matchpoints"] = _num(data["top"] * pct / 100)
        value = f"{_num(pct)} % of the matchpoints" + (
            f" ({result['matchpoints']} on a top of {_num(data['top'])})" if "top" in data else "")
    else:
        if "session_percentage" in data or "top" in data:
            field = "session_percentage" if "session_percentage" in data else "top"
            raise BadRequest("At IMPs give the session IMPs per board, not a percentage or a top.", field)
        if fault != "partly":
            # 12C2(b) says +/-3 IMPs in both codes (2007 also printed it in 86A,
            # which 2017 gave to substitute boards), so it alone is cited
            cites.append("12C2(b)")
        s = data.get("session_imps")
        if s is not None and ((fault == "none" and s > 3) or (fault == "directly" and s < -3)):
            imp, modified = s, True
            cites.append("12C2(c)")
        result = {"award": award, "imps": _num(imp)}
        value = f"{_num(imp):+} IMPs" if imp else "0 IMPs"
    result["modified_by_session_score"] = modified
    why = (f"A contestant {_FAULT_WORDS[fault]} gets {award}"
           + (", but its session score on the other boards is better for it than that, so it keeps it"
              if modified and fault == "none" else
              ", but its session score on the other boards is worse than that, so it gets that instead"
              if modified else "")
           + f": {value}.")
    return Result(result, why, cites)


# --- Law 12C1(c): weighted scores ----------------------------------------------

@checker(
    "weighted-score", "Weighted assigned score",
    cites={"2017": ["12C1(c)", "78A", "78B"], "2007": ["12C1(c)", "78A", "78B"]},
    schema={
        "properties": {
            "outcomes": {"type": "array", "minItems": 1, "maxItems": 20, "title": "possible results",
                         "items": {"type": "integer", "title": "result"},
                         "description": "the results the Director weights, as scores from one direction"},
            "weights": {"type": "array", "minItems": 1, "maxItems": 20, "title": "weights (%)",
                        "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 100, "title": "weight"},
                        "description": "the percentage given to each result, in the same order; they add up to 100"},
            "scoring": {"enum": ["matchpoints", "imps"], "title": "form of scoring", "default": "matchpoints",
                        "x-labels": {"matchpoints": "matchpoints (pairs)", "imps": "IMPs (teams)"}},
            "other_scores": {"type": "array", "maxItems": 1000, "title": "other results on the board",
                             "items": {"type": "integer", "title": "result"},
                             "description": "matchpoints: the results at the other tables, same direction"},
            "other_table": {"type": "integer", "title": "result at the other table",
                            "description": "IMPs: the score it is compared with, same direction"},
        },
        "required": ["outcomes", "weights"],
    },
    example={"outcomes": [500, 200], "weights": [30, 70], "scoring": "matchpoints",
             "other_scores": [-100, 100, 200, 300, 620, 620, 620, 620, 620, 620]},
)
def weighted_score(data: dict) -> Result:
    """A weighted assigned adjusted score, scored against the board (Law 12C1(c)).

    Inputs: `outcomes`, the possible results (scores from one direction);
    `weights`, the percentage for each (adding up to 100); `scoring`
    'matchpoints' with `other_scores` (the results at the other tables) or
    'imps' with `other_table` (the score it is compared with).  Each outcome is
    scored as it would have been (Law 78A or 78B) and the scores are weighted:
    the simplified guide's example, 30 % of 8 and 70 % of 5 matchpoints, gives
    5.9 on a top of 20.  Result: `score` (matchpoints or IMPs), `each` (the
    score of each outcome), and at matchpoints `top`, `percentage` and
    `opponents` (the top less the score)."""
    outcomes, weights = data["outcomes"], data["weights"]
    scoring = data.get("scoring", "matchpoints")
    if len(weights) != len(outcomes):
        raise BadRequest(f"Give one weight for each possible result: there are {len(outcomes)} results and "
                         f"{len(weights)} weights.", "weights")
    if abs(sum(weights) - 100) > 0.01:
        raise BadRequest(f"The weights must add up to 100 %; they add up to {_num(sum(weights))} %.", "weights")
    parts = ", ".join(f"{_num(w)} % of {o}" for o, w in zip(outcomes, weights))
    if scoring == "matchpoints":
        if "other_table" in data:
            raise BadRequest("At matchpoints give the other results on the board, not one other table.",
                             "other_table")
        others = data.get("other_scores")
        if not others:
            raise BadRequest("At matchpoints give the other results on the board, to score each outcome "
                             "against them.", "other_scores")
        each = matchpoints_for(outcomes, others)
        top = 2 * len(others)
        total = sum(w * m for w, m in zip(weights, each)) / 100
        result = {"score": _num(total), "each": each, "top": top, "percentage": _num(100 * total / top),
                  "opponents": _num(top - total)}
        explanation = (f"Scored against the {len(others)} other results, the outcomes are worth "
                       + ", ".join(f"{m} (for {o})" for o, m in zip(outcomes, each))
                       + f" matchpoints; weighted as {parts}, that is {_num(total)} on a top of {top} "
                       f"({_num(100 * total / top)} %), leaving {_num(top - total)} to the opponents.")
        return Result(result, explanation, ["12C1(c)", "78A"])
    if "other_scores" in data:
        raise BadRequest("At IMPs give the result at the other table, not a list of results.", "other_scores")
    if "other_table" not in data:
        raise BadRequest("At IMPs give the result at the other table to compare each outcome with.",
                         "other_table")
    other = data["other_table"]
    each = [imps_for(o - other) for o in outcomes]
    total = sum(w * m for w, m in zip(weights, each)) / 100
    explanation = (f"Compared with {other} at the other table, the outcomes are worth "
                   + ", ".join(f"{m:+} IMPs (for {o})" for o, m in zip(outcomes, each))
                   + f"; weighted as {parts}, that is {_num(total):+} IMPs.")
    return Result({"score": _num(total), "each": each}, explanation, ["12C1(c)", "78B"])


# --- Law 86: team play ---------------------------------------------------------

@checker(
    "team-average", "Adjusted scores at teams",
    cites={"2007": ["86A", "86B", "12C4"]},
    schema={
        "properties": {
            "adjustment": {"enum": ["average plus", "average minus", "non-balancing"], "title": "adjustment",
                           "x-labels": {"average plus": "average plus (86A)", "average minus": "average minus (86A)",
                                        "non-balancing": "non-balancing scores, knockout"}},
            "imps_a": {"type": "number", "minimum": -24, "maximum": 24, "title": "IMPs for team A",
                       "description": "non-balancing: what team A's own assigned score is worth to team A"},
            "imps_b": {"type": "number", "minimum": -24, "maximum": 24, "title": "IMPs for team B",
                       "description": "non-balancing: what team B's own assigned score is worth to team B"},
        },
        "required": ["adjustment"],
    },
    example={"adjustment": "non-balancing", "imps_a": 10, "imps_b": -6},
)
def team_average(data: dict) -> Result:
    """Average plus and minus at IMPs, and non-balancing scores in knockouts (Law 86).

    Inputs: `adjustment` ('average plus', 'average minus' or 'non-balancing');
    for non-balancing, `imps_a` and `imps_b`, what each team's own assigned
    score is worth to it in IMPs.  Result: `imps` for average plus or minus
    (+3 or -3, 86A), or `team_a` and `team_b`, the average assigned to each
    (86B): team A gets (imps_a - imps_b) / 2 and team B the opposite."""
    kind = data["adjustment"]
    if kind != "non-balancing":
        for field in ("imps_a", "imps_b"):
            if field in data:
                raise BadRequest("IMPs for each team are needed only for non-balancing scores.", field)
        n = 3 if kind == "average plus" else -3
        return Result({"imps": n}, f"At IMPs {kind} is {n:+} IMPs (the Tournament Organizer may vary this "
                      "with the Regulating Authority's approval).", ["86A"])
    for field in ("imps_a", "imps_b"):
        if field not in data:
            raise BadRequest(f"Give the IMPs for team {field[-1].upper()}, from its own assigned score.", field)
    a, b = data["imps_a"], data["imps_b"]
    avg = (a - b) / 2
    explanation = (f"In knockout play each team's score is calculated separately: team A's assigned score "
                   f"gives it {_num(a):+} IMPs and team B's gives it {_num(b):+} IMPs, that is {_num(-b):+} "
                   f"to team A; the average of the two, {_num(avg):+} IMPs, is assigned to team A, and "
                   f"{_num(-avg):+} to team B.")
    return Result({"team_a": _num(avg), "team_b": _num(-avg)}, explanation, ["86B", "12C4"])
