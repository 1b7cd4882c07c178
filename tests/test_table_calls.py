"""The table calls (tests/data/table-calls.tsv) answered through the API: the
outcome fields and the exact 2017 cites each call must get, whatever page
the director reaches it from.  The browser test plays the same rows on a
phone (test_table_calls_browser.py)."""
from __future__ import annotations

import pytest

from tests.table_calls import STARTS, load

CALLS = load()


def subset(expected, got) -> bool:
    """`expected` is `got`, or (for objects) each of its fields is, recursively."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and subset(v, got[k]) for k, v in expected.items())
    return expected == got


def answer(client, call) -> tuple[dict, list[str]]:
    """What the site answers for `call`: (the outcome fields, the cites)."""
    f = call.facts
    if call.start in ("auction", "play"):
        body = client.post(f"/api/rulings/{call.start}", json=call.request()).get_json()
        assert body.get("questions") == [], body
        outcome = dict(body["outcome"], **({"trick": body["irregularity"]["trick"]}
                                          if "trick" in body["irregularity"] else {}))
        return outcome, body["cites"]
    if call.start == "judgement":
        body = client.post("/api/rulings/guided", json={"edition": "2017", "procedure": f["procedure"],
                                                        "answers": dict(f["answers"])}).get_json()
        return body["outcome"], body["cites"]
    if call.start == "scores":
        inputs = {k: v for k, v in f.items() if k != "checker"}
        body = client.post(f"/api/checkers/{f['checker']}", json=inputs).get_json()
        return body["result"], body["cites"]
    if call.start == "search":
        first = client.get("/api/search", query_string={"q": f["q"], "edition": "2017"}).get_json()["results"][0]
        return {"first": first["provision"]}, [first["provision"]]
    if call.start == "compare":
        body = client.get(f"/api/diff/{f['law']}", query_string={"from": f["from"], "to": f["to"]}).get_json()
        rows = [[c["from_provision"], c["to_provision"], c["status"]] for c in body["changes"]]
        return {"changes": [r for r in rows if r in call.expect["changes"]]}, [str(body["law"])]
    if call.start == "index":
        entry = next(e for e in client.get("/api/index/2017").get_json() if e["term"].lower() == f["q"])
        return {"term": entry["term"]}, entry["cites"]
    raise AssertionError(call.start)


def test_the_calls_cover_every_kind_the_issue_names():
    kinds = {c.kind for c in CALLS}
    assert len(kinds) >= 12 and {c.start for c in CALLS} == set(STARTS)


@pytest.mark.parametrize("call", CALLS, ids=[c.id for c in CALLS])
def test_each_call_gets_its_outcome_and_exact_cites(client, call):
    outcome, cites = answer(client, call)
    assert subset(call.expect, outcome), outcome
    assert tuple(cites) == call.cites


@pytest.mark.parametrize("call", CALLS, ids=[c.id for c in CALLS])
def test_every_cite_of_a_call_is_a_2017_provision(db, call):
    have = {r[0] for r in db.execute("select id from provisions where edition = '2017'")}
    assert set(call.cites) <= have
