"""Calling checkers in tests: a result, or the BadRequest a bad input raises."""
from __future__ import annotations

import pytest

from laws.checkers import registry
from laws.web.errors import BadRequest


def run(checker_id, **data):
    return registry.run(checker_id, data)


def bad(checker_id, **data) -> BadRequest:
    with pytest.raises(BadRequest) as info:
        registry.run(checker_id, data)
    return info.value


# --- generated inputs (the parity test of the JavaScript port) -------------------------

SUITS, RANKS = "CDHS", "23456789TJQKA"
CALLS = ["P", "P", "P", "X", "XX", "1C", "1D", "1H", "1S", "1NT", "2C", "2H", "2S", "2NT", "3D", "3NT", "4H", "4S",
         "5C", "6NT", "7NT", "8C", "pass", "dbl", "1N", "2♠", "Z9"]


def _card(rnd) -> str:
    suit, rank = rnd.choice(SUITS), rnd.choice(RANKS)
    return rnd.choice([suit + rank, rank + suit, suit + ("10" if rank == "T" else rank)])


def _cards(rnd, most: int, least: int = 0) -> list[str]:
    deck = [s + r for s in SUITS for r in RANKS]
    rnd.shuffle(deck)
    out = deck[:rnd.randint(least, most)]
    if out and rnd.random() < 0.2:
        out = [rnd.choice([c[1] + c[0], c.replace("T", "10"), c.lower(), "♠" + c[1]]) for c in out]
    return out


def _auction(rnd) -> list[str]:
    """Mostly auctions that could happen, some with an irregularity."""
    calls, level = [], 0
    for _ in range(rnd.randint(0, 14)):
        r = rnd.random()
        if r < 0.5:
            calls.append("P")
        elif r < 0.8:
            level = min(8, level + rnd.choice([0, 1, 1, 2]))
            calls.append(f"{max(level, 1)}{rnd.choice(['C', 'D', 'H', 'S', 'NT'])}")
        else:
            calls.append(rnd.choice(CALLS))
    return calls


def _valid(rnd, name: str, prop: dict):
    kind = prop.get("type")
    if "enum" in prop:
        return rnd.choice(prop["enum"])
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind in ("integer", "number"):
        lo = prop.get("minimum", prop.get("exclusiveMinimum", -3000))
        hi = prop.get("maximum", 3000)
        lo, hi = max(lo, -3000), min(hi, 3000)
        if name == "board":
            hi = 100
        value = rnd.randint(int(lo), int(hi))
        if kind == "number" and rnd.random() < 0.4:
            value = round(rnd.uniform(max(lo, -24), min(hi, 100)), rnd.choice([1, 2, 3]))
        return value
    if kind == "array":
        items = prop.get("items", {})
        if name == "calls":
            return _auction(rnd)
        if name == "required_to_pass":
            return rnd.sample(items["enum"], rnd.randint(0, 2))
        if name == "weights":
            n = rnd.randint(1, 3)
            w = [rnd.choice([10, 20, 25, 30, 40, 50, 60, 70, 75, 80]) for _ in range(n - 1)]
            return w + [100 - sum(w)] if sum(w) < 100 else w
        if items.get("type") in ("integer", "number"):
            return [rnd.choice([-1430, -800, -500, -200, -100, -50, 0, 50, 90, 110, 140, 170, 420, 450, 620, 630, 980,
                                1430, rnd.randint(-3000, 3000)]) for _ in range(rnd.randint(1, 12))]
        if name == "holdings":
            return [" ".join(_cards(rnd, 4, 1)) for _ in range(rnd.randint(1, 4))]
        if name == "cards":
            return _cards(rnd, prop.get("maxItems", 4), 1)
        if name == "dummy":
            return _cards(rnd, 6, 1)
        if name == "trick":
            return _cards(rnd, 3)
        return _cards(rnd, min(prop.get("maxItems", 5), 5))
    if name == "card":
        return _card(rnd)
    return "x"


def _invalid(rnd, name: str, prop: dict):
    kind = prop.get("type")
    options = ["nonsense", None, True, [], {"a": 1}, 1.5, -7]
    if kind in ("integer", "number"):
        options += [prop.get("maximum", 10**6) + 1, prop.get("minimum", -10**6) - 1, "7"]
    if kind == "array":
        options += [["", "??"], [1, 2], "S2 S3", ["SA", "SA"]]
    if "enum" in prop:
        options += ["n", "", "none of these"]
    return rnd.choice(options)


def _coherent(rnd, checker_id: str, data: dict) -> None:
    """Make the fields that go together agree, so that most inputs are answered."""
    if checker_id == "weighted-score":
        n = len(data["outcomes"])
        cuts = sorted(rnd.sample(range(1, 100), n - 1)) if n <= 20 else []
        data["weights"] = [b - a for a, b in zip([0] + cuts, cuts + [100])]
        data.pop("other_scores", None), data.pop("other_table", None)
        if data.get("scoring", "matchpoints") == "matchpoints":
            data["other_scores"] = [rnd.choice([-200, -100, 100, 110, 140, 170, 420, 620]) for _ in range(rnd.randint(1, 9))]
        else:
            data["other_table"] = rnd.choice([-620, -100, 0, 140, 420, 620])
    elif checker_id == "team-average":
        if data["adjustment"] == "non-balancing":
            data["imps_a"], data["imps_b"] = rnd.randint(-24, 24), rnd.choice([rnd.randint(-24, 24), 3.5, -7.25])
        else:
            data.pop("imps_a", None), data.pop("imps_b", None)
    elif checker_id == "artificial-score":
        if data.get("scoring", "matchpoints") == "imps":
            data.pop("session_percentage", None), data.pop("top", None)
        else:
            data.pop("session_imps", None)
    elif checker_id == "dummy-designation":
        dummy = set(data["dummy"])
        data["trick"] = [c for c in data.get("trick", []) if c not in dummy]
        needed = {"suit": "suit", "rank": "rank", "card": "card"}.get(data["designation"])
        if needed and needed not in data:
            data[needed] = _valid(rnd, needed, {"suit": {"enum": list(SUITS)}, "rank": {"enum": ["A", "K", "10", "2"]},
                                                "card": {}}[needed])
    elif checker_id == "victory-points":
        # margins near the scale: inside the blitz, at it (16 boards: 60), at a third of it (exactly 15.00 VPs)
        boards = data["boards"] = rnd.choice([4, 8, 9, 12, 14, 16, 20, 24, 28, 32, 64, rnd.randint(1, 100)])
        blitz = 15 * boards ** 0.5
        data["margin"] = rnd.choice([rnd.randint(-int(blitz) - 3, int(blitz) + 3), 0, round(blitz), -round(blitz),
                                     round(blitz / 3), round(rnd.uniform(-blitz, blitz), rnd.choice([1, 2, 3]))])
    elif checker_id == "butler":
        scores = data["scores"]
        if rnd.random() < 0.3:  # two scores 10 apart: a mean ending in exactly 5
            base = rnd.choice([-630, -420, -110, 0, 110, 410, 620])
            scores = data["scores"] = [base, base + 10] * rnd.randint(1, 3)
        data["drop"] = rnd.randint(0, (len(scores) - 1) // 2)
    elif checker_id == "trick" and "holdings" in data:
        data["holdings"] = [" ".join([c] + _cards(rnd, 3)) for c in data["cards"]]


def generated_inputs(checker, n: int, seed: int) -> list[dict]:
    """`n` inputs for a checker from a seeded generator: mostly valid, the
    rest with a field missing, wrong or unknown (for the same refusal)."""
    import random
    rnd = random.Random(f"{seed}:{checker.id}")
    props, required = checker.input_schema["properties"], checker.input_schema.get("required", [])
    out = []
    for _ in range(n):
        data = {k: _valid(rnd, k, p) for k, p in props.items() if k in required or rnd.random() < 0.5}
        if rnd.random() < 0.7:
            _coherent(rnd, checker.id, data)
        r = rnd.random()
        if r < 0.12 and data:
            data.pop(rnd.choice(list(data)))
        elif r < 0.3:
            name = rnd.choice(list(props))
            data[name] = _invalid(rnd, name, props[name])
        elif r < 0.33:
            data[rnd.choice(["extra", "zeta", "Board"])] = 1
        out.append(data)
    return out


def python_answer(checker_id: str, payload: dict, codes=None) -> dict:
    """What the Python gives, in the shape the parity test compares: the
    answer, or the refusal {error, field}."""
    from laws.checkers import registry
    try:
        return registry.run(checker_id, payload, codes)
    except BadRequest as exc:
        return {"error": str(exc), "field": exc.field}
