"""Guided rulings: the laws that need the Director's judgement (unauthorized
information, misinformation, claims, adjusted scores, psychic calls, changes
of call, tempo, conduct and penalties, the Director's own error, disputed
counts and scores, agreed and disputed facts, team events and fouled boards,
appeals), one question at a time in the Laws' order.

Each procedure is a tree in `<edition>.json` beside this file, walked by the
same walker as the auction and play rulings (`laws.rulings.walker`, and
static/rulings/walker.js offline).  Every fact is an answer the Director
gives: nothing is computed, so nothing is guessed.  `rule` checks the
answers against the questions the tree can ask and returns the next
question, or the ending (the ruling, its provisions, what to record).
"""
from __future__ import annotations

from functools import lru_cache

from laws.rulings import RulingError
from laws.rulings import data as rulings_data
from laws.rulings import requests
from laws.rulings.walker import walk

PERIOD = "guided"
# the ending's fields (the walker also fills in the auction's defaults, which
# mean nothing here)
OUTCOME_FIELDS = ("result", "ruling", "score_adjustment", "information", "penalty", "see", "record")


def load() -> dict[str, dict]:
    return rulings_data.load(PERIOD)


def editions() -> list[str]:
    return rulings_data.editions(PERIOD)


def procedures(edition: str) -> list[dict]:
    """The procedures of an edition, in order: id, title, summary, laws."""
    data = load()[edition]
    return [{"id": k, "title": v["title"], "summary": v["summary"], "laws": v["laws"]}
            for k, v in data["kinds"].items()]


def _reachable(data: dict, tree: dict, seen: set[str]):
    """Every node reachable from `tree`, through the subtrees it uses or
    continues into after an outcome (`then`: an ending whose adjusted score a
    shared subtree works out keeps its own fields, e.g. a penalty)."""
    for _, node in rulings_data.nodes(tree):
        yield node
        for name in (node.get("use"), node.get("then")):
            if name and name not in seen:
                seen.add(name)
                yield from _reachable(data, data["subtrees"][name], seen)


def asks(data: dict, procedure: str) -> dict[str, dict]:
    """fact -> the question that asks it, for one procedure."""
    out: dict[str, dict] = {}
    for node in _reachable(data, data["kinds"][procedure]["tree"], set()):
        if "on" in node:
            out[node["on"]] = node["ask"]
    return out


def laws_applied(edition: str) -> dict[str, set[int]]:
    """`_laws_applied`, for the trees served now (a store's carried trees are its own)."""
    return _laws_applied(edition, rulings_data.served_store())


@lru_cache(maxsize=64)
def _laws_applied(edition: str, _store: str | None) -> dict[str, set[int]]:
    """procedure -> the law numbers it applies in `edition`: those it names
    and those of every provision it can cite (law pages link to it)."""
    data = load().get(edition)
    if data is None:
        return {}
    out: dict[str, set[int]] = {}
    for procedure, spec in data["kinds"].items():
        laws = set(spec.get("laws", []))
        for node in _reachable(data, spec["tree"], set()):
            found = list(node.get("cites", [])) + list((node.get("ask") or {}).get("cites", []))
            o = node.get("outcome") or {}
            found += o.get("cites", [])
            for key in ("score_adjustment", "information", "penalty"):
                if isinstance(o.get(key), dict):
                    found += o[key].get("cites", [])
            laws.update(n for c in found if (n := rulings_data.law_of(c)) is not None)
        out[procedure] = laws
    return out


def resolve(data: dict, pointer: str) -> dict:
    """The node at a walker pointer (`kinds/claim/tree/cases/contested`)."""
    node = data
    for part in pointer.split("/"):
        node = node[part]
    return node


def _terms(ask: dict) -> list[dict]:
    return [{"id": f"def:{t}", "term": t} for t in ask.get("terms", [])]


def _check(payload, available: list[str]) -> tuple[str, str, dict]:
    if not isinstance(payload, dict):
        raise RulingError("The request must be a JSON object: edition, procedure and answers.", None)
    edition = payload.get("edition", available[0] if available else None)
    if not isinstance(edition, str) or edition not in available:
        raise RulingError(f"Unknown edition {edition!r}: guided rulings exist for {', '.join(available)}.",
                          "edition")
    data = load()[edition]
    procedure = payload.get("procedure")
    if not isinstance(procedure, str) or procedure not in data["kinds"]:
        raise RulingError(f"Unknown procedure {procedure!r}: choose one of {', '.join(data['kinds'])}.",
                          "procedure")
    answers = payload.get("answers", {})
    if not isinstance(answers, dict):
        raise RulingError("Answers must be an object: question id -> answer.", "answers")
    questions = asks(data, procedure)
    for fact, value in answers.items():
        if fact not in questions:
            raise RulingError(f"The {edition} procedure '{procedure}' asks no question {fact!r}.", "answers")
        allowed = questions[fact]["answers"]
        if not isinstance(value, str) or value not in allowed:
            raise RulingError(f"{value!r} is not an answer to {fact!r}: answer one of {', '.join(allowed)}.",
                              "answers")
    return edition, procedure, answers


def rule(payload, available: list[str] | None = None) -> dict:
    """The next question, or the ending, for a procedure given the answers so far.

    `payload`: {"edition", "procedure", "answers": {question id: answer}}.
    `available`: the editions that may be asked for (those in the store).
    Raises RulingError (message, field) for anything the Director can correct."""
    available = available if available is not None else editions()
    edition, procedure, answers = _check(payload, available)
    # what the checks let through must still fit the documented schema (their own messages came first)
    requests.check(PERIOD, payload)
    data = load()[edition]
    spec = data["kinds"][procedure]
    out = walk(data, procedure, dict(answers), {}, {})
    questions = asks(data, procedure)
    answered = []
    for step in out["path"]:
        pointer, _, value = step.rpartition("=")
        fact = resolve(data, pointer)["on"]
        ask = questions[fact]
        answered.append({"id": fact, "text": ask["text"], "kind": ask["kind"], "value": value,
                         "label": ask["answers"][value], "cites": list(ask["cites"])})
    pending = []
    for q in out["questions"]:
        pending.append({**q, "terms": _terms(questions[q["id"]])})
    cites = list(out["cites"])
    outcome = None
    if out["outcome"] is not None:
        outcome = {k: out["outcome"].get(k) for k in OUTCOME_FIELDS}
        for c in (outcome["penalty"] or {}).get("cites", []):
            if c not in cites:
                cites.append(c)
    reply = {"edition": edition, "procedure": procedure, "title": spec["title"], "laws": spec["laws"],
             "questions": pending, "answered": answered, "outcome": outcome, "say": out["say"],
             "cites": cites, "path": out["path"]}
    return {**reply, **rulings_data.review_of(data, reply)}  # a carried code's ruling says whether it is reviewed


def endings(data: dict, procedure: str) -> list[tuple[dict, dict]]:
    """Every way through a procedure: (answers, the ruling they give), found
    by answering every question every way (for tests and documentation)."""
    done: list[tuple[dict, dict]] = []
    edition = data["edition"]

    def explore(answers: dict):
        r = rule({"edition": edition, "procedure": procedure, "answers": answers}, [edition])
        if r["outcome"] is not None:
            done.append((answers, r))
            return
        q = r["questions"][0]
        for a in q["answers"]:
            explore({**answers, q["id"]: a["value"]})

    explore({})
    return done
