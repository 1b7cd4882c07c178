"""The rulings over every edition the manifest lists, not a list of names
(issue 25): a code the rulings data has is ruled only with provisions that
code has; a code it lacks is refused by name, never ruled by another code.
A new code added to the corpus is in these tests the day it is added."""
from __future__ import annotations

import pytest

from laws import manifest
from laws.rulings import data as rulings_data
from laws.rulings import guided

from conftest import CORPUS

CODES = [e.id for e in manifest.load(CORPUS).editions if e.kind == "code"]
REQUESTS = {
    "auction": {"dealer": "N", "calls": [["N", "1H"], ["E", "1D"]], "findings": {}},
    "play": {"contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {}},
}


def _cites(value, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cites":
                out.update(v)
            else:
                _cites(v, out)
    elif isinstance(value, list):
        for v in value:
            _cites(v, out)
    return out


def _provisions(db, edition: str) -> set[str]:
    return {r[0] for r in db.execute("SELECT id FROM provisions WHERE edition = ?", (edition,))}


def test_every_rulings_file_is_of_a_code_the_manifest_lists():
    ruled = set(guided.editions()) | {e for p in rulings_data.PERIODS for e in rulings_data.editions(p)}
    assert ruled <= set(CODES), sorted(ruled - set(CODES))


@pytest.mark.parametrize("edition", CODES)
@pytest.mark.parametrize("period", rulings_data.PERIODS)
def test_a_code_is_ruled_by_its_own_provisions_or_refused_by_name(client, db, period, edition):
    have = rulings_data.load(period).get(edition)
    reply = client.post(f"/api/rulings/{period}", json={"edition": edition, **REQUESTS[period]})
    if have is None:  # refused, naming the codes it rules
        body = reply.get_json()
        assert (reply.status_code, body["field"]) == (400, "edition")
        assert [e for e in CODES if e in body["error"]] == [e for e in CODES if e in rulings_data.editions(period)]
        return
    assert sorted(_cites(have, set()) - _provisions(db, edition)) == []
    body = reply.get_json()
    assert reply.status_code == 200 and body["edition"] == edition
    assert sorted(set(body["cites"]) - _provisions(db, edition)) == []


@pytest.mark.parametrize("edition", CODES)
def test_a_codes_guided_procedures_cite_only_its_provisions_or_are_refused_by_name(client, db, edition):
    if edition not in guided.editions():
        reply = client.post("/api/rulings/guided", json={"edition": edition, "procedure": "claim", "answers": {}})
        assert (reply.status_code, reply.get_json()["field"]) == (400, "edition")
        return
    assert sorted(_cites(guided.load()[edition], set()) - _provisions(db, edition)) == []


# --- a code the build carried rulings into (laws/rulings/carry.py) ------------------
#
# The made-up 2027 code of tests/test_edition_life.py on the day it takes
# effect: no rulings files of its own, so the build carries 2017's.  Every
# code of that corpus is ruled by its own provisions, or (carried, awaiting
# review) by the older code's, cited as "2017:<id>" and said to be unreviewed;
# or refused by name.

from tests.test_edition_life import corpus_2027, on_the_day  # noqa: E402,F401 (the shared 2027 code)

CODES_2027 = CODES + ["2027"]


def _carried_ok(db, edition: str, body: dict) -> list[str]:
    """The reply's cites that are neither the edition's own provisions nor an
    older code's provision said to await review."""
    bad = []
    for cite in sorted(_cites(body, set())):
        other, _, pid = cite.rpartition(":")
        if not other:
            ok = db.execute("select 1 from provisions where edition = ? and id = ?", [edition, cite]).fetchone()
        else:
            ok = body.get("reviewed") is False and cite.split(":")[1] in body["review"] and db.execute(
                "select 1 from provisions where edition = ? and id = ?", [other, pid]).fetchone()
        if not ok:
            bad.append(cite)
    return bad


@pytest.mark.parametrize("edition", CODES_2027)
@pytest.mark.parametrize("period", [*rulings_data.PERIODS, "guided"])
def test_after_the_switch_every_code_rules_by_its_own_provisions_or_says_it_is_unreviewed(on_the_day, period,
                                                                                           edition):
    from laws import store
    from laws.build import current_store

    app = on_the_day[0]
    db = store.connect(current_store(app.config["DATA_DIR"]))
    request = REQUESTS.get(period, {"procedure": "claim", "answers": {}})
    reply = app.test_client().post(f"/api/rulings/{period}", json={"edition": edition, **request})
    body = reply.get_json()
    files = guided.editions() if period == "guided" else rulings_data.editions(period)
    if edition == "1993-rubber" and period == "auction":  # no file, and no older rubber code to carry from
        assert (reply.status_code, body["field"]) == (400, "edition")
        return
    assert reply.status_code == 200 and body["edition"] == edition
    assert ("carried_from" in body) == (edition not in files)
    assert _carried_ok(db, edition, body) == []


# --- the default: the code in force, never a published code before its day --------------

from tests.test_edition_life import before  # noqa: E402,F401 (the 2027 code published, not in force)

BUNDLES = {"auction": "/rulings/auction.json", "play": "/rulings/play.json", "guided": "/rulings/guided.json"}


@pytest.mark.parametrize("day, in_force", [("before", "2017"), ("on_the_day", "2027")])
def test_a_ruling_with_no_edition_named_is_ruled_by_the_code_in_force(request, day, in_force):
    app = request.getfixturevalue(day)[0]
    client = app.test_client()
    for period, payload in REQUESTS.items():
        body = client.post(f"/api/rulings/{period}", json=payload).get_json()
        assert body["edition"] == in_force, (day, period)
    # the phone's bundles list the editions in the site's order: its first is the phone's default
    orders = {period: client.get(url).get_json()["order"] for period, url in BUNDLES.items()}
    others = ["2027" if in_force == "2017" else "2017", "2007"]
    assert orders == {"auction": [in_force, *others], "play": [in_force, *others, "1993-rubber"],
                      "guided": [in_force, *others, "1993-rubber"]}


@pytest.mark.browser
@pytest.mark.parametrize("day, in_force", [("before", "2017"), ("on_the_day", "2027")])
def test_the_phone_rules_by_the_code_in_force_when_no_edition_is_named(request, day, in_force):
    from tests.test_browser import CHROMIUM, serve

    if not CHROMIUM.exists():
        pytest.skip("needs Chromium at /usr/bin/chromium")
    app = request.getfixturevalue(day)[0]
    browser = request.getfixturevalue("chromium")  # the worker's one Chromium (conftest)
    with serve(app) as (url, _server):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{url}/rulings/play")
        got = page.evaluate("""async ([auction, play]) => {
            const a = await (await fetch('/rulings/auction.json')).json();
            const p = await (await fetch('/rulings/play.json')).json();
            return [LawbookRulings.auction ? null : 'no auction script',
                    LawbookRulings.play.rule(p.editions, play, p.order).edition,
                    LawbookRulings.editionOrder(a.editions, a.order)[0]];
        }""", [REQUESTS["auction"], REQUESTS["play"]])
        context.close()
    assert got[1:] == [in_force, in_force]
