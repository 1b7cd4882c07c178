"""The walker: follows one edition's decision tree for one kind of
irregularity, given the facts established so far, to the ruling.

static/rulings/walker.js is the same walker in JavaScript (for the phone,
offline); both are run over tests/fixtures/rulings_*.json and must answer
identically, so change them together.

A node (see README.md in this folder) may carry `say` (what the Director
tells the table, a template) and `cites` (provision ids), and then one of:

- `on` + `cases`: branch on a fact's value; if the fact is not yet known the
  node's `ask` becomes the next question and the walk stops (outcome null).
  An `option` lists the choices the Laws give a player at that point.
  An `ask` may add `together`: the same question asked with its follow-ups
  folded in, each answer settling several facts at once (`facts`, offered
  only `when` the facts it names hold), so that a director taps once where
  the tree would ask two or three times.  The tree and its one-fact answers
  stay the truth: an answer in `together` is a path through them, and a
  client that sends only the asked fact is asked the follow-up next.
- `use`: continue with a shared subtree; `use_kind`: with the tree of the kind
  named by a fact.
- `outcome`: fields of the ruling; `then` continues with a subtree whose
  outcome fields are merged in (e.g. Law 26's lead restrictions).
"""
from __future__ import annotations

import re

OUTCOME_DEFAULTS = {"offender_partner_must_pass": "none", "offender_must_pass": "none",
                    "lead_restrictions": None, "score_adjustment": None, "information": None, "next": None}
MAX_STEPS = 200
_VAR = re.compile(r"\{(\w+)\}")


class DataError(RuntimeError):
    """The rulings data cannot answer these facts: a bug in the data, not in the input."""


class AnswerError(DataError):
    """A question's fact was given a value (from the request's findings) that
    this question does not take, though another question of the same name
    does: an input error, which the period's module reports to the user."""

    def __init__(self, pointer: str, name: str, value: str, allowed: list[str]):
        super().__init__(f"{pointer}: no case for {name} = {value!r}")
        self.name, self.value, self.allowed = name, value, allowed


def fill(text: str, values: dict) -> str:
    return _VAR.sub(lambda m: str(values[m.group(1)]) if values.get(m.group(1)) is not None else m.group(0), text)


def _together(together: dict, facts: dict, values: dict) -> dict:
    """A question's folded form: its text and the answers that hold here
    (`when`: fact -> the values for which the answer is offered; an answer
    that contradicts a fact already known is not offered)."""
    return {"text": fill(together["text"], values),
            "answers": [{"label": fill(a["label"], values), "facts": dict(a["facts"])}
                        for a in together["answers"]
                        if all(facts.get(k) in allowed for k, allowed in (a.get("when") or {}).items())
                        and all(facts.get(k) in (None, v) for k, v in a["facts"].items())]}


def _filled(obj, values, seats):
    """An outcome field with its templates filled: every string in it, and
    each `seat` field mapped from a seat symbol to a seat."""
    if isinstance(obj, str):
        return fill(obj, values)
    if isinstance(obj, list):
        return [_filled(v, values, seats) for v in obj]
    if isinstance(obj, dict):
        return {k: seats.get(v) if k == "seat" else _filled(v, values, seats) for k, v in obj.items()}
    return obj


def walk(data: dict, kind: str, facts: dict, values: dict, seats: dict) -> dict:
    """The ruling for `kind` in this edition's `data`.

    `facts`: fact name -> value (a string) for what is established; `values`:
    the words filled into templates ({offender}, {call}…); `seats`: seat
    symbol (offender, lho, turn…) -> seat or None.  Returns questions,
    options, outcome (None until every question is answered), say, cites and
    path (each branch taken, `pointer=value`)."""
    cites: list[str] = []
    says: list[str] = []
    options: list[dict] = []
    questions: list[dict] = []
    path: list[str] = []
    merged: dict = {}

    def add(ids):
        for c in ids or []:
            if c not in cites:
                cites.append(c)

    spec = data["kinds"][kind]
    add(spec.get("cites"))
    node, pointer = spec["tree"], f"kinds/{kind}/tree"
    done = False
    for _ in range(MAX_STEPS):
        add(node.get("cites"))
        if node.get("say"):
            says.append(fill(node["say"], values))
        if "use" in node:
            pointer, node = f"subtrees/{node['use']}", data["subtrees"][node["use"]]
            continue
        if "use_kind" in node:
            other = facts.get(node["use_kind"])
            if other not in data["kinds"]:
                raise DataError(f"{pointer}: no kind {other!r}")
            add(data["kinds"][other].get("cites"))
            pointer, node = f"kinds/{other}/tree", data["kinds"][other]["tree"]
            continue
        if "on" in node:
            name = node["on"]
            value = facts.get(name)
            option = node.get("option")
            if option:
                for key, choice in option["choices"].items():
                    options.append({"id": choice["id"], "value": key, "who": seats.get(option["who"]),
                                    "text": fill(choice["text"], values),
                                    "cites": list(option.get("cites") or node.get("cites") or []),
                                    "chosen": None if value is None else value == key})
            if value is None:
                ask = node.get("ask")
                if not ask:
                    raise DataError(f"{pointer}: fact {name!r} is unknown and the node asks nothing")
                questions.append({
                    "id": ask.get("finding", name), "text": fill(ask["text"], values), "kind": ask["kind"],
                    "who": seats.get(ask.get("who")) if ask.get("who") else None,
                    "answers": None if ask.get("answers") is None else
                    [{"value": v, "label": fill(label, values)} for v, label in ask["answers"].items()],
                    "cites": list(ask.get("cites") or node.get("cites") or [])})
                if ask.get("together"):
                    questions[-1]["together"] = _together(ask["together"], facts, values)
                add(ask.get("cites"))
                break
            if value not in node["cases"]:
                if "ask" in node or "option" in node:
                    raise AnswerError(pointer, name, value, list(node["cases"]))
                raise DataError(f"{pointer}: no case for {name} = {value!r}")
            path.append(f"{pointer}={value}")
            pointer, node = f"{pointer}/cases/{value}", node["cases"][value]
            continue
        if "outcome" in node:
            for key, v in node["outcome"].items():
                merged[key] = v
            if "then" in node:
                pointer, node = f"subtrees/{node['then']}", data["subtrees"][node["then"]]
                continue
            done = True
            break
        raise DataError(f"{pointer}: a node needs on, use, use_kind or outcome")
    else:
        raise DataError(f"kinds/{kind}: more than {MAX_STEPS} steps (a loop?)")

    outcome = None
    if done:
        # a period's data may give its own outcome fields and defaults
        # (`outcome_defaults`) and name the fields that hold a seat symbol
        # (`outcome_seats`, by default just `next`)
        outcome = dict(data.get("outcome_defaults", OUTCOME_DEFAULTS))
        for key, v in merged.items():
            outcome[key] = _filled(v, values, seats)
        for key in data.get("outcome_seats", ["next"]):
            outcome[key] = seats.get(merged.get(key) or "none")
        for v in outcome.values():
            if isinstance(v, dict):
                add(v.get("cites"))
    return {"questions": questions, "options": options, "outcome": outcome, "say": " ".join(says),
            "cites": cites, "path": path}
