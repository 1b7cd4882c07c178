"""Checkers for scoring: Law 77 (the score of a contract), Law 78 (matchpoints
and IMPs), and the adjusted scores of Law 12C and Law 86."""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from laws.checkers.cards import SUIT_NAMES
from laws.checkers.registry import Edition, Result, checker
from laws.errors import BadInput as BadRequest

# --- Law 77 ------------------------------------------------------------------

_RISK_WORDS = {"": "undoubled", "X": "doubled", "XX": "redoubled"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen")


def _nth(values: list, n: int):
    """The nth (1-based) of a list whose last value repeats (the score table's form)."""
    return values[min(n, len(values)) - 1]


def _vul(vulnerable: bool) -> str:
    return "vulnerable" if vulnerable else "not_vulnerable"


def _undertrick_penalty(table: dict, down: int, risk: str, vulnerable: bool) -> int:
    """Law 77, undertrick penalties: the total for `down` undertricks."""
    if risk == "":
        return sum(_nth(table["undertricks"]["undoubled"][_vul(vulnerable)], n) for n in range(1, down + 1))
    per = table["multiplier"][risk] // table["multiplier"]["X"]  # redoubled: the doubled values twice
    return sum(_nth(table["undertricks"]["doubled"][_vul(vulnerable)], n) * per for n in range(1, down + 1))


def contract_score(table: dict, level: int, strain: str, risk: str, vulnerable: bool, tricks: int) -> tuple[int, list]:
    """The declaring side's score and its parts as (name, points), from the
    edition's score table (`tables.score`)."""
    needed = level + 6
    mult = table["multiplier"][risk]
    if tricks < needed:
        down = needed - tricks
        pen = _undertrick_penalty(table, down, risk, vulnerable)
        return -pen, [(f"{_NUMBER_WORDS[down]} {_RISK_WORDS[risk]} undertrick{'s' if down > 1 else ''}", -pen)]
    parts = []
    values = table["trick_value"][strain]
    trick_score = sum(_nth(values, i) for i in range(1, level + 1)) * mult
    game = trick_score >= table["game"]
    parts.append((f"trick score ({'game' if game else 'partscore'})", trick_score))
    if game:
        parts.append(("game premium", table["game_premium"][_vul(vulnerable)]))
    else:
        parts.append(("partscore premium", table["partscore_premium"]))
    slam = table["slam_premium"].get(str(level))
    if slam:
        parts.append((slam["name"], slam[_vul(vulnerable)]))
    if risk:
        parts.append((f"premium for making a {_RISK_WORDS[risk]} contract", table["insult"][risk]))
    over = tricks - needed
    if over:
        if risk == "":
            each = _nth(values, level + 1)  # an overtrick is worth its trick value
        else:
            each = table["overtrick_doubled"][_vul(vulnerable)] * (mult // table["multiplier"]["X"])
        parts.append((f"{_NUMBER_WORDS[over]} {_RISK_WORDS[risk]} overtrick{'s' if over > 1 else ''}", over * each))
    return sum(p for _, p in parts), parts


def contract_name(level: int, strain: str, risk: str) -> str:
    return f"{level}{strain}{risk}"


@checker("score")
def score(data: dict, ed: Edition) -> Result:
    """The score of any contract at duplicate (Law 77).

    Inputs: `level` 1-7, `strain` (C, D, H, S, NT), `risk` ('' undoubled, 'X'
    doubled, 'XX' redoubled), `vulnerable` (the declaring side), `tricks`
    taken by declarer's side 0-13.  Result: `score` from the declaring side's
    point of view (negative when the contract is defeated), `made`, `overtricks`
    or `undertricks`, and `parts`, the trick score and premiums that add up to it."""
    level, strain, tricks = data["level"], data["strain"], data["tricks"]
    risk, vul = data.get("risk", ""), data.get("vulnerable", False)
    total, parts = contract_score(ed.tables["score"], level, strain, risk, vul, tricks)
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
    # "1 club", "4 spades": the suit's name is plural from two of it
    suit = SUIT_NAMES[strain][:-1] if level == 1 and SUIT_NAMES[strain].endswith("s") else SUIT_NAMES[strain]
    explanation = (f"{name} ({level} {suit}, {_RISK_WORDS[risk]}), {who}, taking {tricks} "
                   f"trick{'s' if tricks != 1 else ''}, is {how}: {detail}, so the declaring side scores {total}.")
    cites = [ed.law("score")] + ([ed.law("doubled")] if risk else [])
    result = {"contract": name, "score": total, "made": made,
              "overtricks": max(0, tricks - needed), "undertricks": max(0, needed - tricks),
              "parts": [{"name": n, "points": p} for n, p in parts]}
    return Result(result, explanation, cites)


# --- Law 78B: IMPs -------------------------------------------------------------

def imps_for(bands: list[int], difference: int | float) -> int:
    """IMPs on the scale `bands` (tables.imps.bands: a difference of at least
    bands[i] is worth i + 1 IMPs)."""
    n = bisect_right(bands, abs(difference))
    return n if difference >= 0 else -n


def _band(bands: list[int], n: int) -> str:
    if n == 0:
        return f"0–{bands[0] - 10}"
    if n == len(bands):
        return f"{bands[-1]} and upward"
    return f"{bands[n - 1]}–{bands[n] - 10}"


@checker("imps")
def imps(data: dict, ed: Edition) -> Result:
    """International matchpoints for a point difference (Law 78B).

    Input: `difference`, the total point difference between the two scores
    compared (negative when the contestant's score is the lower).  Result:
    `imps` with the sign of the difference, and `band`, the line of the scale
    used.  Differences fall between multiples of 10 only in averaged scores;
    they take the band whose lower bound they reach (45 is 1 IMP)."""
    d = data["difference"]
    bands = ed.tables["imps"]["bands"]
    n = imps_for(bands, d)
    band = _band(bands, abs(n))
    sign = "gains" if d > 0 else "loses" if d < 0 else "neither gains nor loses"
    explanation = (f"A difference of {d} point{'' if abs(d) == 1 else 's'} is in the band {band} of the IMP "
                   "scale, so the contestant "
                   f"{sign}{'' if d == 0 else f' {abs(n)} IMP' + ('s' if abs(n) != 1 else '')}"
                   f"{' (0 IMPs)' if d == 0 else ''}.")
    return Result({"difference": d, "imps": n, "band": band}, explanation, [ed.law("imps")])


# --- Law 78A: matchpoints ------------------------------------------------------

def matchpoints_for(table: dict, scores: list[int | float], others: list[int | float] | None = None) -> list[int]:
    """`beaten` units for each score beaten, `equalled` for each equal
    (tables.matchpoints: two and one).  Without `others` each score is
    compared with the rest of `scores`."""
    beaten, equalled = table["beaten"], table["equalled"]
    mine = 1 if others is None else 0  # a score is not compared with itself
    pool = sorted(scores if others is None else others)
    return [beaten * bisect_left(pool, s) + equalled * (bisect_right(pool, s) - bisect_left(pool, s) - mine)
            for s in scores]


def _num(x: float) -> int | float:
    x = round(x, 2)
    return int(x) if x == int(x) else x


@checker("matchpoints")
def matchpoints(data: dict, ed: Edition) -> Result:
    """Matchpoints for every score on a board (Law 78A).

    Input: `scores`, every result on the board from one direction.  Result:
    `matchpoints` in the order given (two for each score beaten, one for each
    score equalled), `top` (twice the number of other scores) and
    `percentages`."""
    scores = data["scores"]
    table = ed.tables["matchpoints"]
    mps = matchpoints_for(table, scores)
    top = table["beaten"] * (len(scores) - 1)
    pct = [_num(100 * m / top) if top else 50 for m in mps]
    ties = len(scores) - len(set(scores))
    each = f"Each of the {len(scores)} scores gets" if len(scores) > 1 else "The one score gets"
    explanation = (f"{each} two matchpoints for every score it beats and one for "
                   f"every score equal to it, on a top of {top}"
                   f"{'; tied scores share' if ties else ''}: " +
                   ", ".join(f"{s} gets {m}" for s, m in zip(scores, mps)) + ".")
    return Result({"matchpoints": mps, "top": top, "percentages": pct}, explanation, [ed.law("matchpoints")])


# --- Law 12C2 and 86A: artificial adjusted scores -------------------------------

_FAULT = {"none": ("average plus", 60, 3), "partly": ("average", 50, 0), "directly": ("average minus", 40, -3)}
_FAULT_WORDS = {"none": "in no way at fault", "partly": "only partly at fault", "directly": "directly at fault"}


@checker("artificial-score")
def artificial_score(data: dict, ed: Edition) -> Result:
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
    partly at fault is never modified.  `edition`: the code applied (the
    code in force unless another is chosen)."""
    fault, scoring = data["fault"], data.get("scoring", "matchpoints")
    award, pct, imp = _FAULT[fault]
    cites = [ed.law("average")]
    modified = False
    if scoring == "matchpoints":
        if "session_imps" in data:
            raise BadRequest("Session IMPs per board is for IMP scoring; at matchpoints give the session "
                             "percentage.", "session_imps")
        s = data.get("session_percentage")
        if s is not None and ((fault == "none" and s > 60) or (fault == "directly" and s < 40)):
            pct, modified = s, True
            cites.append(ed.law("session"))
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
            # which 2017 gave to other matters), so it alone is cited
            cites.append(ed.law("imps"))
        s = data.get("session_imps")
        if s is not None and ((fault == "none" and s > 3) or (fault == "directly" and s < -3)):
            imp, modified = s, True
            cites.append(ed.law("session"))
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

@checker("weighted-score")
def weighted_score(data: dict, ed: Edition) -> Result:
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
        table = ed.tables["matchpoints"]
        each = matchpoints_for(table, outcomes, others)
        top = table["beaten"] * len(others)
        total = sum(w * m for w, m in zip(weights, each)) / 100
        result = {"score": _num(total), "each": each, "top": top, "percentage": _num(100 * total / top),
                  "opponents": _num(top - total)}
        explanation = (f"Scored against the {len(others)} other results, the outcomes are worth "
                       + ", ".join(f"{m} (for {o})" for o, m in zip(outcomes, each))
                       + f" matchpoints; weighted as {parts}, that is {_num(total)} on a top of {top} "
                       f"({_num(100 * total / top)} %), leaving {_num(top - total)} to the opponents.")
        return Result(result, explanation, [ed.law("weighted"), ed.law("matchpoints")])
    if "other_scores" in data:
        raise BadRequest("At IMPs give the result at the other table, not a list of results.", "other_scores")
    if "other_table" not in data:
        raise BadRequest("At IMPs give the result at the other table to compare each outcome with.",
                         "other_table")
    other = data["other_table"]
    each = [imps_for(ed.tables["imps"]["bands"], o - other) for o in outcomes]
    total = sum(w * m for w, m in zip(weights, each)) / 100
    explanation = (f"Compared with {other} at the other table, the outcomes are worth "
                   + ", ".join(f"{m:+} IMPs (for {o})" for o, m in zip(outcomes, each))
                   + f"; weighted as {parts}, that is {_num(total):+} IMPs.")
    return Result({"score": _num(total), "each": each}, explanation, [ed.law("weighted"), ed.law("imps")])


# --- Law 86: team play ---------------------------------------------------------

@checker("team-average")
def team_average(data: dict, ed: Edition) -> Result:
    """Average plus and minus at IMPs, and non-balancing scores in knockouts (2007 Law 86; 2017 Law 12C2(b) and 12C4).

    Inputs: `adjustment` ('average plus', 'average minus' or 'non-balancing');
    for non-balancing, `imps_a` and `imps_b`, what each team's own assigned
    score is worth to it in IMPs; `edition`, the code applied (the code in
    force unless another is chosen).  Result: `imps` for average plus or
    minus (+3 or -3), or `team_a` and `team_b`, the average assigned to each:
    team A gets (imps_a - imps_b) / 2 and team B the opposite.  In 2007 these
    are 86A and 86B (with 12C4); the 2017 Laws moved 86A's ±3 IMPs into
    12C2(b), and the average of non-balancing scores is 12C4 alone (2017's
    Law 86 deals with other matters)."""
    kind = data["adjustment"]
    if kind != "non-balancing":
        for field in ("imps_a", "imps_b"):
            if field in data:
                raise BadRequest("IMPs for each team are needed only for non-balancing scores.", field)
        n = 3 if kind == "average plus" else -3
        return Result({"imps": n}, f"At IMPs {kind} is {n:+} IMPs (the Tournament Organizer may vary this "
                      "with the Regulating Authority's approval).", [ed.law("average")])
    for field in ("imps_a", "imps_b"):
        if field not in data:
            raise BadRequest(f"Give the IMPs for team {field[-1].upper()}, from its own assigned score.", field)
    a, b = data["imps_a"], data["imps_b"]
    avg = (a - b) / 2
    explanation = (f"In knockout play each team's score is calculated separately: team A's assigned score "
                   f"gives it {_num(a):+} IMPs and team B's gives it {_num(b):+} IMPs, that is {_num(-b):+} "
                   f"to team A; the average of the two, {_num(avg):+} IMPs, is assigned to team A, and "
                   f"{_num(-avg):+} to team B.")
    return Result({"team_a": _num(avg), "team_b": _num(-avg)}, explanation, list(ed.law("non_balancing")))
