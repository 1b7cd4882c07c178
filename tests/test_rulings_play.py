"""Play rulings through the Python walker: every table situation in
tests/fixtures/rulings_play.json, in 2007 and 2017 and, where the case has
an entry for it, the 1993 rubber code; every branch of every
tree taken by some case; every cited provision in the store; no request
gives anything but a ruling or a RulingError.

(The same cases run through the JavaScript facts and walker in
test_rulings_play_js.py.)
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laws.rulings import RulingError, data as rulings_data, play, walker

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulings_play.json"
CASES = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]
EDITIONS = ("2007", "2017", "1993-rubber")
# every case has 2007 and 2017; the rubber code's entries cover its every
# kind and branch (tests below), not every case
PAIRS = [(case, edition) for case in CASES for edition in EDITIONS if edition in case]
# the requests with a trick and a seat at fault (a defective trick is ruled for
# a seat at a trick: test_rulings_play_trick.py); they count for the coverage
TRICK_CASES = json.loads((FIXTURES.parent / "rulings_play_trick.json").read_text(encoding="utf-8"))["cases"]


def request(case: dict, edition: str) -> dict:
    return {"edition": edition, "contract": case["contract"], "declarer": case["declarer"], "play": case["play"],
            "findings": case["findings"]}


def summary(reply: dict, expected: dict) -> dict:
    """The reply in the fixture's terms (decided_by kept only if all are cited)."""
    irr = reply["irregularity"]
    out = {"kind": irr["kind"] if irr else "none", "law": irr["law"] if irr else "44",
           "questions": [q["id"] for q in reply["questions"]],
           "pending": [o["id"] for o in reply["options"] if o["chosen"] is None]}
    o = reply["outcome"]
    if o is not None:
        out.update(penalty=[f"{p['seat']} {p['card']} {p['kind']}" for p in o["penalty_cards"]], next=o["next"],
                   tricks=o["tricks_transferred"], declarer=o["declarer"])
    missing = [c for c in expected["decided_by"] if c not in reply["cites"]]
    out["decided_by"] = expected["decided_by"] if not missing else {"not cited": missing}
    out["cites"] = expected["cites"]  # compared whole in test_cites_are_exactly_the_reviewed_list
    return out


def test_there_are_enough_cases_and_every_kind_is_covered():
    assert len(CASES) >= 60
    assert len({c["id"] for c in CASES}) == len(CASES)
    for edition in EDITIONS:
        kinds = set(rulings_data.load("play")[edition]["kinds"])
        covered = {c[edition]["kind"] for c in CASES if "kind" in c.get(edition, {})}
        covered |= {c[edition]["irregularity"]["kind"] for c in TRICK_CASES if (c.get(edition) or {}).get("irregularity")}
        assert kinds <= covered, kinds - covered


@pytest.mark.parametrize("case, edition", PAIRS, ids=[f"{c['id']}-{e}" for c, e in PAIRS])
def test_case(case, edition):
    expected = case[edition]
    if "error" in expected:
        with pytest.raises(RulingError) as info:
            play.rule(request(case, edition))
        assert info.value.field == expected["error"]
        return
    reply = play.rule(request(case, edition))
    assert summary(reply, expected) == expected, case["situation"]
    assert (reply["outcome"] is None) == bool(reply["questions"])
    assert "{" not in reply["say"], reply["say"]
    if not expected["decided_by"]:  # a situation the rubber code has no law for: the ruling says so
        assert edition == "1993-rubber" and "The 1993 rubber code has no law" in reply["say"], reply["say"]


# Cases whose reply cites a provision judged wrong when the fixture's cites
# were reviewed against the law texts: the fixture records the list judged
# right, and the case is an expected failure (strict: it must fail) so the
# suspected bug stays visible. Keyed "case-id edition".
KNOWN_WRONG_CITES: dict[str, str] = {
}


def _cite_params():
    for case, edition in PAIRS:
        if "error" in case[edition]:
            continue
        reason = KNOWN_WRONG_CITES.get(f"{case['id']} {edition}")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(case, edition, id=f"{case['id']}-{edition}", marks=marks)


@pytest.mark.parametrize("case, edition", list(_cite_params()))
def test_cites_are_exactly_the_reviewed_list(case, edition):
    """The reply cites exactly the fixture's list, in order: every provision
    the ruling applies or whose test it poses, and nothing else."""
    expected = case[edition]
    # the fixture's own consistency: what decides is among what is cited
    assert [c for c in expected["decided_by"] if c not in expected["cites"]] == []
    reply = play.rule(request(case, edition))
    assert reply["cites"] == expected["cites"], case["situation"]


def test_known_wrong_cites_name_real_cases():
    # a stale entry would hide nothing but still read as a known bug
    keys = {f"{c['id']} {e}" for c, e in PAIRS if "error" not in c[e]}
    assert set(KNOWN_WRONG_CITES) <= keys, sorted(set(KNOWN_WRONG_CITES) - keys)


def _taken(edition: str) -> set[str]:
    taken = set()
    for case in CASES:
        if edition in case and "error" not in case[edition]:
            taken.update(play.rule(request(case, edition))["path"])
    for case in TRICK_CASES:
        if "error" not in case:
            taken.update(play.rule({**case["request"], "edition": edition})["path"])
    return taken


def _branches(data: dict) -> set[str]:
    out = set()
    for pointer, node in rulings_data.all_nodes(data):
        if "on" in node:
            out.update(f"{pointer}={value}" for value in node["cases"])
    return out


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_branch_is_taken_by_some_case(edition):
    untaken = _branches(rulings_data.load("play")[edition]) - _taken(edition)
    assert not untaken, sorted(untaken)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_editions_keep_the_same_kinds(edition):
    data = rulings_data.load("play")
    assert list(data[edition]["kinds"]) == list(data["2017"]["kinds"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_cited_provision_exists_in_the_store(db, edition):
    have = {r[0] for r in db.execute("SELECT id FROM provisions WHERE edition = ?", (edition,))}
    cited = set()

    def collect(value):
        if isinstance(value, dict):
            for k, v in value.items():
                cited.update(v) if k == "cites" else collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)
    collect(rulings_data.load("play")[edition])  # (including `simultaneous`, the cite the facts module adds)
    assert cited and not sorted(cited - have)


@pytest.mark.parametrize("payload, field", [
    ("not an object", None),
    ({"contract": "8S", "declarer": "S"}, "contract"),
    ({"contract": "4S", "declarer": "X"}, "declarer"),
    ({"contract": "4S", "declarer": "S", "edition": "1997"}, "edition"),
    ({"contract": "4S", "declarer": "S", "play": [["W", "ZZ"]]}, "play"),
    ({"contract": "4S", "declarer": "S", "play": [["W", "HK", "dropped"]]}, "play"),
    ({"contract": "4S", "declarer": "S", "play": [["W", "HK"], ["N", "HK"]]}, "play"),
    ({"contract": "4S", "declarer": "S", "play": [["W", "HK"], ["N", "H2", "facedown"]]}, "play"),
    ({"contract": "4S", "declarer": "S", "play": [["N", "HK", "penalty"]]}, "play"),
    ({"contract": "4S", "declarer": "S", "play": [["W", "HK"]], "findings": {"mood": "bad"}}, "findings.mood"),
    ({"contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {"choice": "maybe"}}, "findings.choice"),
    ({"contract": "4S", "declarer": "S", "extra": 1}, "extra"),
])
def test_bad_input_names_the_field(payload, field):
    with pytest.raises(RulingError) as info:
        play.rule(payload)
    assert info.value.field == field
    assert str(info.value)


CARDS = [s + r for s in "CDHS" for r in "23456789TJQKA"]
EVENT = st.tuples(st.sampled_from("NESW"), st.sampled_from(CARDS),
                  st.sampled_from([None, None, None, "exposed", "facedown", "simultaneous", "revoke", "penalty",
                                   "minor", "changed", "fifth", "retract"])).map(lambda t: [t[0], t[1]] + ([t[2]] if t[2] else []))
FINDING_VALUES = st.one_of(st.booleans(), st.sampled_from(["accept", "refuse", "retract", "spread", "require",
                                                           "prohibit", "free", "highest", "lowest", "forbid-suit",
                                                           "play", "none", "omitted", "too-many", "before",
                                                           "after", "offender", "partner", "opponents", "high", "win", "low",
                                                           "suit", "rank", "absent", "anything"]))
FINDINGS = st.dictionaries(st.sampled_from(sorted(set().union(*(play.answerable(d) for d in
                                                               rulings_data.load("play").values()))) +
                                           ["defective", "dummy_act"]), FINDING_VALUES, max_size=6)


# the trick and the seat at fault (issue 20): absent, or any value, valid or not
PLACE = st.fixed_dictionaries({}, optional={"trick": st.one_of(st.integers(0, 14), st.just("5"), st.booleans()),
                                            "seat": st.sampled_from(["N", "E", "S", "W", "X", None])})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(EDITIONS), contract=st.sampled_from(["4S", "3NT", "2HX", "7CXX"]),
       declarer=st.sampled_from("NESW"), events=st.lists(EVENT, max_size=30), findings=FINDINGS, place=PLACE)
def test_no_play_and_no_findings_break_the_ruling(edition, contract, declarer, events, findings, place):
    try:
        reply = play.rule({"edition": edition, "contract": contract, "declarer": declarer, "play": events,
                           "findings": findings, **place})
    except RulingError as exc:
        assert str(exc)
        return
    assert (reply["outcome"] is None) == bool(reply["questions"])
    data = rulings_data.load("play")[edition]
    assert set(reply["cites"]) <= rulings_data.cites(data) | _all_cites(data)


def _all_cites(data) -> set:
    out = set()

    def collect(value):
        if isinstance(value, dict):
            for k, v in value.items():
                out.update(v) if k == "cites" else collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)
    collect(data)
    return out


def test_every_case_and_every_finding_fits_the_request_schema():
    """The JSON Schema documents the request: every fixture request is valid,
    and it names every finding the trees can ask."""
    import jsonschema

    schema = json.loads((Path(play.__file__).parents[1] / "play-request.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for case, edition in PAIRS:
        jsonschema.validate(request(case, edition), schema)
    asked = set()
    for data in rulings_data.load("play").values():
        asked |= set(play.answerable(data))
    assert asked | {"defective", "dummy_act"} == set(schema["properties"]["findings"]["properties"])


def _folded(data):
    for pointer, node in rulings_data.all_nodes(data):
        if "together" in (node.get("ask") or {}):
            yield pointer, node


def _settles(data, node, facts: dict) -> tuple[list[str], str | None]:
    """The facts a walk down from `node` reads, in order, given `facts`,
    and the fact it then asks (None if it asks nothing there)."""
    read = []
    for _ in range(50):
        if "use" in node:
            node = data["subtrees"][node["use"]]
        elif node.get("on") in facts:
            read.append(node["on"])
            node = node["cases"][facts[node["on"]]]
        else:
            return read, node["on"] if "ask" in node else None
    raise AssertionError("a loop")


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_folded_answer_is_one_path_through_the_tree(edition):
    """A question asked with its follow-ups folded in (`together`): each
    answer settles facts the tree reads one after another from that question,
    every one of them (for each value of the facts it is offered `when`),
    after which the tree asks none of the facts the question folds in; and
    together the answers reach every answer of the question itself."""
    data = rulings_data.load("play")[edition]
    folded = dict(_folded(data))
    assert len(folded) == 2, sorted(folded)  # the revoke's 64B findings, and who won the revoke trick
    for pointer, node in folded.items():
        answers = node["ask"]["together"]["answers"]
        seen, group = [], {f for a in answers for f in a["facts"]}
        for a in answers:
            whens = [dict(zip(a.get("when", {}), vs)) for vs in itertools.product(*a.get("when", {}).values())]
            for when in whens:
                read, asks = _settles(data, node, when | a["facts"])
                assert [f for f in read if f not in when] == list(a["facts"]), (pointer, a)
                assert asks not in group, (pointer, a, asks)
            seen.append(a["facts"][node["on"]])
        assert set(seen) == set(node["cases"]), pointer
        assert len({json.dumps(a["facts"], sort_keys=True) + json.dumps(a.get("when")) for a in answers}) == len(answers)


# --- the walker itself, on a small tree ------------------------------------------

SMALL_TREE = {
    "kinds": {
        "lead": {"cites": ["54"], "tree": {"say": "{offender} led out of turn.", "cites": ["54A"], "use": "accept"}},
        "other": {"cites": ["9"], "tree": {"outcome": {"next": "lho"}}},
        "loop": {"tree": {"use": "loop"}},
        "asked": {"tree": {"on": "suit", "ask": {"text": "Which suit?", "kind": "suit"},
                           "cases": {"S": {"outcome": {}}}}},
        "unasked": {"tree": {"on": "suit", "cases": {"S": {"outcome": {}}}}},
    },
    "subtrees": {
        "accept": {
            "on": "accepted", "cites": ["54B"],
            "option": {"who": "lho", "choices": {"yes": {"id": "accept", "text": "{lho} accepts the lead"},
                                                 "no": {"id": "refuse", "text": "{lho} refuses it"}}},
            "ask": {"text": "Does {lho} accept the lead?", "kind": "choice", "who": "lho",
                    "answers": {"yes": "Yes, {lho} accepts", "no": "No"},
                    "together": {"text": "Does {lho} accept, and is the suit spades?",
                                 "answers": [{"label": "{lho} accepts; spades",
                                              "facts": {"accepted": "yes", "suit": "S"}},
                                             {"label": "Refused", "facts": {"accepted": "no"}},
                                             {"label": "Refused, vulnerable", "facts": {"accepted": "no"},
                                              "when": {"vul": ["yes"]}}]}},
            "cases": {"yes": {"outcome": {"information": "{lho} accepted", "next": "offender"}, "then": "restrict"},
                      "no": {"use_kind": "kind2"}}},
        "restrict": {"cites": ["26"], "outcome": {"lead_restrictions": {"declarer_may": "forbid", "seat": "offender"}}},
        "loop": {"use": "loop"},
    },
}
SMALL_VALUES = {"offender": "West", "lho": "North"}
SMALL_SEATS = {"offender": "W", "lho": "N"}
QUESTION = {"id": "accepted", "text": "Does North accept the lead?", "kind": "choice", "who": "N",
            "answers": [{"value": "yes", "label": "Yes, North accepts"}, {"value": "no", "label": "No"}],
            "cites": ["54B"]}


def _options(chosen_yes, chosen_no):
    return [{"id": "accept", "value": "yes", "who": "N", "text": "North accepts the lead", "cites": ["54B"],
             "chosen": chosen_yes},
            {"id": "refuse", "value": "no", "who": "N", "text": "North refuses it", "cites": ["54B"],
             "chosen": chosen_no}]


def _walk(kind, facts):
    return walker.walk(SMALL_TREE, kind, facts, SMALL_VALUES, SMALL_SEATS)


def test_walker_asks_with_the_folded_answers_that_hold():
    # nothing known: every folded answer without a `when`
    assert _walk("lead", {}) == {
        "questions": [QUESTION | {"together": {"text": "Does North accept, and is the suit spades?", "answers": [
            {"label": "North accepts; spades", "facts": {"accepted": "yes", "suit": "S"}},
            {"label": "Refused", "facts": {"accepted": "no"}}]}}],
        "options": _options(None, None), "outcome": None, "say": "West led out of turn.",
        "cites": ["54", "54A", "54B"], "path": []}
    # the suit is known to be hearts (spades is not offered), and the `when` holds
    assert _walk("lead", {"suit": "H", "vul": "yes"})["questions"] == [
        QUESTION | {"together": {"text": "Does North accept, and is the suit spades?", "answers": [
            {"label": "Refused", "facts": {"accepted": "no"}},
            {"label": "Refused, vulnerable", "facts": {"accepted": "no"}}]}}]


def test_walker_outcome_then_subtree_and_the_chosen_option():
    assert _walk("lead", {"accepted": "yes"}) == {
        "questions": [], "options": _options(True, False),
        "outcome": {"offender_partner_must_pass": "none", "offender_must_pass": "none",
                    "lead_restrictions": {"declarer_may": "forbid", "seat": "W"}, "score_adjustment": None,
                    "information": "North accepted", "next": "W"},
        "say": "West led out of turn.", "cites": ["54", "54A", "54B", "26"], "path": ["subtrees/accept=yes"]}


def test_walker_continues_with_the_kind_a_fact_names():
    assert _walk("lead", {"accepted": "no", "kind2": "other"}) == {
        "questions": [], "options": _options(False, True),
        "outcome": {"offender_partner_must_pass": "none", "offender_must_pass": "none", "lead_restrictions": None,
                    "score_adjustment": None, "information": None, "next": "N"},
        "say": "West led out of turn.", "cites": ["54", "54A", "54B", "9"], "path": ["subtrees/accept=no"]}


def test_walker_errors():
    with pytest.raises(walker.DataError) as info:
        _walk("lead", {"accepted": "no", "kind2": "nope"})
    assert str(info.value) == "subtrees/accept/cases/no: no kind 'nope'"
    with pytest.raises(walker.AnswerError) as answer:
        _walk("lead", {"accepted": "maybe"})
    assert (str(answer.value), answer.value.name, answer.value.value, answer.value.allowed) == (
        "subtrees/accept: no case for accepted = 'maybe'", "accepted", "maybe", ["yes", "no"])
    # a value no case takes: the user's error where the tree asks for it, the data's where it does not
    with pytest.raises(walker.DataError) as asked:
        _walk("asked", {"suit": "H"})
    assert (type(asked.value), str(asked.value)) == (walker.AnswerError, "kinds/asked/tree: no case for suit = 'H'")
    with pytest.raises(walker.DataError) as unasked:
        _walk("unasked", {"suit": "H"})
    assert (type(unasked.value), str(unasked.value)) == (walker.DataError, "kinds/unasked/tree: no case for suit = 'H'")
    with pytest.raises(walker.DataError) as loop:
        _walk("loop", {})
    assert str(loop.value) == "kinds/loop: more than 200 steps (a loop?)"


def test_walker_fill_leaves_a_blank_it_has_no_value_for():
    assert walker.fill("{offender} to {lho}, {call}.", {"offender": "West", "lho": None}) == "West to {lho}, {call}."
