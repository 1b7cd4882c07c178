"""The checkers on the day a new code takes effect (issue 25).

The made-up 2027 code of tests/test_edition_life.py (2017 Laws 33-40
transcribed, "is deemed to be" changed in Law 33) has no checker data file:
the build carried 2017's checker cites into it through the comparison
(laws/rulings/carry.py, the store's `carried_cites`), and the checkers offer
2027, the code in force, and rule by 2017's tables and logic.  A cite that
followed is 2027's provision; one awaiting review is 2017's, written
"2017:78B", and the reply says `carried_from`, `reviewed`, `review` as a
carried ruling's does.  Also here: the record's right to appeal, a carried
tree's sentences, the OpenAPI document's editions, and the checkers carried
on into tests/test_rulings_carried.py's made-up 2031 (2017 -> 2027 -> 2031).
"""
from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3

import jsonschema
import pytest
from openapi_spec_validator import validate as validate_openapi

from laws.build import build
from laws.checkers import registry
from laws.rulings import carry
from tests.test_browser import CHROMIUM, browser, serve, watched_page  # noqa: F401 (the shared browser)
from tests.test_edition_life import ON_THE_DAY, before, corpus_2027, on_the_day  # noqa: F401 (the shared 2027)
from tests.test_rulings_carried import _store, after_2031  # noqa: F401 (the shared 2031)

IMPS = {"difference": 450}
IMPS_2027 = {"result": {"difference": 450, "imps": 10, "band": "430–490"},
             "explanation": "A difference of 450 points is in the band 430–490 of the IMP scale, so the contestant "
                            "gains 10 IMPs.",
             "cites": ["2017:78B"], "edition": "2027", "carried_from": "2017", "reviewed": False,
             "review": "not yet reviewed for 2027: 78B has no counterpart in the 2027 Laws"}
AFTER_FINAL_PASS = {"dealer": "N", "calls": ["1H", "P", "P", "P", "P"]}
NOT_YET = "has no counterpart in the 2027 Laws"


def _run(client, checker: str, payload: dict) -> dict:
    reply = client.post(f"/api/checkers/{checker}", json=payload)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_the_checkers_offer_the_code_in_force_first(on_the_day, before):
    on_day = {c["id"]: c["editions"] for c in on_the_day[0].test_client().get("/api/checkers").get_json()}
    earlier = {c["id"]: c["editions"] for c in before[0].test_client().get("/api/checkers").get_json()}
    assert (on_day["imps"], on_day["auction"], on_day["revoke"]) == (
        ["2027", "2017", "2007"], ["2027", "2017", "2007"], ["2027", "2017", "2007", "1993-rubber"])
    # published, not yet in force: offered, not the default (as its carried rulings are)
    assert (earlier["imps"], earlier["revoke"]) == (["2017", "2027", "2007"], ["2017", "2027", "2007", "1993-rubber"])


def test_a_checker_rules_by_the_older_codes_rules_and_says_it_awaits_review(on_the_day):
    assert _run(on_the_day[0].test_client(), "imps", IMPS) == IMPS_2027


def test_a_cite_that_followed_is_the_new_codes_and_its_words_name_the_older_codes(on_the_day):
    body = _run(on_the_day[0].test_client(), "auction", AFTER_FINAL_PASS)
    # 35D and Law 39 (cited whole: the law is the same in 2027) followed; the rest is not in 2027
    assert body["cites"] == ["2017:17B", "2017:17C", "2017:18B", "2017:22A", "35D", "39"]
    assert body["result"]["irregularity"] == {"index": 4, "call": "P", "player": "N",
                                              "problem": "a call after the final pass of the auction",
                                              "law": "39", "cites": ["35D", "39"]}
    assert body["result"]["ruling"] == "/rulings/auction?edition=2027&dealer=N&calls=1H+P+P+P+P"
    assert body["explanation"] == ("Call 5 (P by North) is inadmissible, a call after the final pass of the auction, "
                                   "and Law 39 applies. Before it: the auction is complete: the contract "
                                   "is 1H by North, the first of North-South to name hearts.")
    # the checker's cites but 35A-35D and Laws 36-39, which are the same in 2027
    pending = ["17B", "17C", "18A", "18B", "18C", "18D", "18E", "19A1", "19B1", "19C", "19D", "22A", "22B", "27"]
    assert (body["carried_from"], body["reviewed"], body["review"]) == (
        "2017", False, "not yet reviewed for 2027: " + "; ".join(f"{p} {NOT_YET}" for p in pending))


def test_an_older_code_asked_for_answers_as_before_the_switch(on_the_day, before):
    for checker, payload in (("auction", {**AFTER_FINAL_PASS, "edition": "2017"}),
                             ("revoke", {"edition": "2007", "won_by": "offending player", "later_tricks": 2})):
        on_day = on_the_day[0].test_client().post(f"/api/checkers/{checker}", json=payload)
        earlier = before[0].test_client().post(f"/api/checkers/{checker}", json=payload)
        assert (on_day.status_code, on_day.get_data()) == (earlier.status_code, earlier.get_data())


def test_the_revoke_checker_points_to_the_new_codes_carried_ruling(on_the_day):
    body = _run(on_the_day[0].test_client(), "revoke", {"won_by": "offending player", "later_tricks": 2})
    assert (body["edition"], body["result"]["ruling"], body["cites"]) == (
        "2027", "/rulings/play?edition=2027", ["2017:64A1", "2017:64C1"])


def test_the_page_shows_the_note_and_labels_the_older_codes_provision(on_the_day):
    page = on_the_day[0].test_client().get("/checkers/imps?difference=450&check=1").get_data(as_text=True)
    note = re.search(r'<p class="review-note" id="review-note" role="note">(.*?)</p>', page, re.S)
    assert _text(note[1]) == ("Checked by the 2017 rules carried into the 2027 Laws; not yet reviewed for 2027: "
                              "78B has no counterpart in the 2027 Laws .")
    cites = re.search(r'<ul class="cites">(.*?)</ul>', page, re.S)[1]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', cites) == [
        ("/2017/law/78#78B", "Law 78B of the 2017 Laws (not yet reviewed for 2027)")]
    about = re.search(r'<p class="edition-note carried-note">(.*?)</p>', page, re.S)
    assert _text(about[1]) == ("2027: checked by the 2017 rules carried into the 2027 Laws; not yet reviewed for "
                               "2027: 78B has no counterpart in the 2027 Laws.")


def test_the_phones_data_holds_the_carried_entry_and_its_notes(on_the_day):
    page = on_the_day[0].test_client().get("/checkers/imps").get_data(as_text=True)
    data = json.loads(re.search(r'<script type="application/json" id="checker-data">(.*?)</script>', page, re.S)[1])
    assert data["default"] == "2027"
    assert data["editions"]["2027"] == {
        "title": "Laws of Duplicate Bridge 2027 (test)", "tables": data["editions"]["2017"]["tables"],
        "entry": {"cites": ["2017:78B"], "law": {"imps": "2017:78B"}},
        "cites": {"2017:78B": {"url": "/2017/law/78#78B", "heading": "International Matchpoint Scoring",
                               "label": "Law 78B of the 2017 Laws (not yet reviewed for 2027)"}},
        "carried": {"from": "2017", "notes": {"2017:78B": "78B has no counterpart in the 2027 Laws"}}}


# --- reviewed: every cite of a checker followed or reviewed -----------------------------

REVIEWS = """# the imps checker's one cite, reviewed (a made-up decision for the made-up code)
[[review]]
provision = "78B"
decision = "replace"
to = ["40B"]
where = "checkers:/imps"
reviewer = "A. Director"
date = 2027-08-20
"""


@pytest.fixture(scope="module")
def reviewed(corpus_2027, tmp_path_factory):  # noqa: F811 (the fixture imported above)
    from app import create_app

    corpus = tmp_path_factory.mktemp("corpus-checkers-reviewed") / "corpus"
    shutil.copytree(corpus_2027, corpus)
    (corpus / "reviews").mkdir()
    (corpus / "reviews" / "2027.toml").write_text(REVIEWS, encoding="utf-8")
    data = tmp_path_factory.mktemp("data-checkers-reviewed")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", ON_THE_DAY)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        build(corpus, data, echo=lambda _line: None)
        return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})


def test_a_checker_whose_cites_are_all_reviewed_says_reviewed(reviewed):
    client = reviewed.test_client()
    assert _run(client, "imps", IMPS) == {**IMPS_2027, "cites": ["40B"], "reviewed": True, "review": None}
    page = client.get("/checkers/imps?difference=450&check=1").get_data(as_text=True)
    note = re.search(r'<p class="review-note" id="review-note" role="note">(.*?)</p>', page, re.S)
    assert _text(note[1]) == "Checked by the 2017 rules carried into the 2027 Laws, each provision cited the same " \
                             "or reviewed."


# --- the record's right to appeal, and a carried tree's sentences ------------------------

def test_a_carried_records_appeal_cites_the_older_codes_92b(on_the_day):
    from laws.rulings import record
    from tests.test_rulings_record import make

    rec = make(on_the_day[0], {"procedure": "claim", "edition": "2027"})
    assert rec["appeal"]["cites"] == ["2017:92B"]
    assert [line for line in record.as_text(rec).splitlines() if line.startswith("Right to appeal")] == [
        "Right to appeal: A contestant may appeal this ruling within 30 minutes after the official score is made "
        "available (Law 92B), unless the Tournament Organizer has specified a different time period. [2017:92B]"]
    assert make(on_the_day[0], {"procedure": "claim", "edition": "2017"})["appeal"]["cites"] == ["92B"]


def test_a_sentence_names_the_new_codes_provision_where_it_was_reviewed(on_the_day, tmp_path):
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2027.toml").write_text(
        '[[review]]\nprovision = "31"\ndecision = "replace"\nto = ["34"]\nwhere = "auction"\n'
        'reviewer = "A. Director"\ndate = 2027-08-20\n', encoding="utf-8")
    trees, _ = carry.derive(_store(on_the_day[0]), tmp_path)
    sentences: list[str] = []
    _sentences(trees[("2027", "auction")], sentences)
    assert sorted(s for s in sentences if re.search(r"Law 3[14] applies", s)) == [
        "An artificial pass (or a pass of an artificial call) out of rotation is treated as a bid out of rotation: "
        "Law 34 applies.",
        "{call} is also insufficient, but it was made out of rotation: Law 34 applies, not Law 27.",
        # 29B awaits review: its number stays, and the ruling's note says so
        "{lho} may refuse it: {call} is cancelled and the auction reverts to {turn} (29B); Law 34 applies."]
    unreviewed, _ = carry.derive(_store(on_the_day[0]), tmp_path / "none")
    plain: list[str] = []
    _sentences(unreviewed[("2027", "auction")], plain)
    assert sum("Law 31 applies" in s for s in plain) == 3 and not any("Law 34" in s for s in plain)


def _sentences(value, out: list) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k in carry.WORDED and isinstance(v, str):
                out.append(v)
            else:
                _sentences(v, out)
    elif isinstance(value, list):
        for v in value:
            _sentences(v, out)


# --- the OpenAPI document ----------------------------------------------------------------

def test_the_openapi_documents_the_carried_code_as_a_rulings_edition(on_the_day, before):
    def edition(app, name):
        return app.test_client().get("/api/openapi.json").get_json()["components"]["schemas"][name][
            "properties"]["edition"]
    assert [(edition(on_the_day[0], n)["enum"], edition(on_the_day[0], n)["default"])
            for n in ("AuctionRequest", "PlayRequest", "GuidedRequest")] == [
        (["2017", "2007", "2027"], "2027"), (["2017", "2007", "1993-rubber", "2027"], "2027"),
        (["2017", "2007", "1993-rubber", "2027"], "2027")]
    # published but not yet in force, 2027 is carried into all the same (the build carries it), not the default
    assert (edition(before[0], "AuctionRequest")["enum"], edition(before[0], "AuctionRequest")["default"]) == (
        ["2017", "2007", "2027"], "2017")


def _edition_inputs(app) -> dict[str, tuple[list[str], str]]:
    """checker -> (its `edition` input's choices, its default) in the served document."""
    doc = app.test_client().get("/api/openapi.json").get_json()
    validate_openapi(doc)  # still OpenAPI 3.1 (openapi-spec-validator's meta-schema), as tests/test_openapi.py holds it
    out = {}
    for name, schema in doc["components"]["schemas"].items():
        prop = schema.get("properties", {}).get("edition") if name.startswith("Checker-") else None
        if prop is not None:
            out[name.removeprefix("Checker-")] = (prop["enum"], prop["default"])
    return out


def test_the_openapi_documents_the_editions_the_store_offers_each_checker(on_the_day, before):
    """The served document is made from the store (laws/web/openapi.py
    `served`): a checker's `edition` input takes the codes /api/checkers
    lists for it, the carried 2027 among them, and defaults to the one it
    answers in; a request naming 2027 fits the document and is answered."""
    for app in (on_the_day[0], before[0]):
        listed = {c["id"]: c["editions"] for c in app.test_client().get("/api/checkers").get_json()}
        assert _edition_inputs(app) == {c: (listed[c], listed[c][0]) for c in _edition_inputs(app)}
    assert _edition_inputs(on_the_day[0]) == {
        "artificial-score": (["2027", "2017", "2007"], "2027"), "team-average": (["2027", "2017", "2007"], "2027"),
        "auction": (["2027", "2017", "2007"], "2027"), "dummy-designation": (["2027", "2017", "2007"], "2027"),
        "penalty-card": (["2027", "2017", "2007", "1993-rubber"], "2027"),
        "revoke": (["2027", "2017", "2007", "1993-rubber"], "2027")}
    assert _edition_inputs(before[0])["revoke"] == (["2017", "2027", "2007", "1993-rubber"], "2017")
    doc = before[0].test_client().get("/api/openapi.json").get_json()
    client = before[0].test_client()
    for checker, (choices, _) in _edition_inputs(before[0]).items():
        example = {**registry.get(checker).example, "edition": "2027"}
        schema = {**doc, "$ref": f"#/components/schemas/Checker-{checker}"}
        jsonschema.Draft202012Validator(schema).validate(example)
        reply = client.post(f"/api/checkers/{checker}", json=example)
        assert (reply.status_code, reply.get_json()["edition"]) == (200, "2027"), checker


# --- the phone ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def carried_url(on_the_day):  # noqa: F811 (the fixture imported above)
    with serve(on_the_day[0]) as (url, _server):
        yield url


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
@pytest.mark.parametrize("checker, payload", [("imps", IMPS), ("auction", AFTER_FINAL_PASS),
                                              ("auction", {**AFTER_FINAL_PASS, "edition": "2017"}),
                                              ("score", {"level": 4, "strain": "S", "risk": "X", "vulnerable": True,
                                                         "tricks": 10})])
def test_the_phone_rules_the_carried_code_as_the_server_does(browser, carried_url, on_the_day, checker, payload):
    with watched_page(browser) as page:
        page.goto(f"{carried_url}/checkers/{checker}")
        page.wait_for_function("() => window.LawbookCheckers")
        got = page.evaluate("""([id, payload]) => LawbookCheckers.run(id, payload,
            JSON.parse(document.getElementById('checker-data').textContent))""", [checker, payload])
    assert got == _run(on_the_day[0].test_client(), checker, payload)


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_a_kept_page_shows_the_note_and_the_older_codes_label_on_the_phone(browser, carried_url):
    from tests.test_checkers_offline_browser import _offline

    with watched_page(browser) as page:
        _offline(page, carried_url, "imps")
        page.goto(f"{carried_url}/checkers/imps?difference=450&check=1")
        page.wait_for_selector("#result[data-computed=phone] #review-note")
        note = page.inner_text("#result #review-note")
        cite = page.eval_on_selector("#result ul.cites a", "a => [a.getAttribute('href'), a.textContent]")
    assert (note, cite) == (
        "Checked by the 2017 rules carried into the 2027 Laws; not yet reviewed for 2027: 78B has no counterpart in "
        "the 2027 Laws.", ["/2017/law/78#78B", "Law 78B of the 2017 Laws (not yet reviewed for 2027)"])


# --- carried on: 2017 -> 2027 -> 2031, 2031 in force --------------------------------------
# tests/test_rulings_carried.py's made-up 2031 (2027's text, a word added to 35D), with no
# checker data of its own: its checkers' data is 2027's carried data carried again

IMPS_2031 = {**IMPS_2027, "edition": "2031", "carried_from": "2027",
             "review": "not yet reviewed for 2031: 78B has no counterpart in the 2027 Laws"}


def _phone_data(app, checker: str) -> dict:
    page = app.test_client().get(f"/checkers/{checker}").get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="checker-data">(.*?)</script>', page, re.S)[1])


def test_carried_on_every_checker_is_offered_in_2031_first(after_2031):
    listed = {c["id"]: c["editions"] for c in after_2031.test_client().get("/api/checkers").get_json()}
    assert listed == {c.id: ["2031", "2027", "2017", "2007"] + (["1993-rubber"] if c.id in ("penalty-card", "revoke")
                                                                else []) for c in registry.all_checkers()}


def test_carried_on_every_checker_answers_its_example_in_2031_citing_2031_or_a_waiting_cite(after_2031, on_the_day):
    """Each checker answers its registry example in 2031 as it answers it in
    2027 on 2027's day (the 2017 rules, carried), each cite a 2031 provision
    or an older code's with its note, and says it is not yet reviewed, note
    by note."""
    client, conn = after_2031.test_client(), _store(after_2031)
    have = set(conn.execute("select edition, id from provisions").fetchall())
    for c in registry.all_checkers():
        body, earlier = _run(client, c.id, c.example), _run(on_the_day[0].test_client(), c.id, c.example)
        notes = _phone_data(after_2031, c.id)["editions"]["2031"]["carried"]["notes"]
        own = [x for x in body["cites"] if ":" not in x]
        older = [tuple(x.split(":")) for x in body["cites"] if ":" in x]
        assert (body["edition"], body["carried_from"], body["reviewed"], body["review"]) == (
            "2031", "2027", False, "not yet reviewed for 2031: " + "; ".join(notes.values())), c.id
        assert ([x for x in own if ("2031", x) not in have], [o for o in older if o not in have],
                [o for o in older if ":".join(o) not in notes]) == ([], [], []), c.id
        assert {o[0] for o in older} <= {"2017", "2027"}, c.id
        # the code's title and its rulings' links name 2031 where they named 2027
        assert json.dumps([body["result"], body["explanation"]]) == json.dumps(
            [earlier["result"], earlier["explanation"]]).replace("2027", "2031"), c.id


def test_carried_on_a_cite_followed_twice_is_2031s_and_one_followed_once_waits_as_2027s(after_2031):
    body = _run(after_2031.test_client(), "auction", AFTER_FINAL_PASS)
    # 35D followed 2017's into 2027 and had a word added in 2031: it waits as 2027's; Law 39 followed twice
    assert body["cites"] == ["2017:17B", "2017:17C", "2017:18B", "2017:22A", "2027:35D", "39"]
    assert (body["result"]["irregularity"]["cites"], body["result"]["ruling"]) == (
        ["2027:35D", "39"], "/rulings/auction?edition=2031&dealer=N&calls=1H+P+P+P+P")
    pending = ["17B", "17C", "18A", "18B", "18C", "18D", "18E", "19A1", "19B1", "19C", "19D", "22A", "22B", "27"]
    assert (body["carried_from"], body["reviewed"], body["review"]) == (
        "2027", False, "not yet reviewed for 2031: " + "; ".join(f"{p} {NOT_YET}" for p in pending)
        + "; 35D's words changed")
    page = after_2031.test_client().get("/checkers/auction?dealer=N&calls=1H+P+P+P+P&check=1").get_data(as_text=True)
    cites = re.search(r'<ul class="cites">(.*?)</ul>', page, re.S)[1]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', cites)[-2:] == [
        ("/2027/law/35#35D", "Law 35D of the 2027 Laws (not yet reviewed for 2031)"), ("/2031/law/39#39", "Law 39")]
    # 2031's law pages link the checker where its cites followed twice (not 35D)
    assert _store(after_2031).execute("select checker, provision from checker_cites where edition = '2031' "
                                      "order by provision").fetchall() == [
        ("auction", p) for p in ("35A", "35B", "35C", "36", "37", "38", "39")]


def test_carried_on_a_checkers_cite_waiting_in_2027_still_waits_in_2031(after_2031):
    assert _run(after_2031.test_client(), "imps", IMPS) == IMPS_2031
    conn = _store(after_2031)

    def waiting(edition):
        return conn.execute("select node, from_edition, provision from carried_cites where edition = ? and "
                            "period = 'checkers' and reviewed = 0 order by node, provision", [edition]).fetchall()
    assert waiting("2031") == sorted([(node, "2027", f"{frm}:{pid}") for node, frm, pid in waiting("2027")]
                                     + [("/auction", "2027", "35D")])
    page = after_2031.test_client().get("/checkers/imps?difference=450&check=1").get_data(as_text=True)
    note = re.search(r'<p class="review-note" id="review-note" role="note">(.*?)</p>', page, re.S)
    assert _text(note[1]) == ("Checked by the 2027 rules carried into the 2031 Laws; not yet reviewed for 2031: "
                              "78B has no counterpart in the 2027 Laws .")
    cites = re.search(r'<ul class="cites">(.*?)</ul>', page, re.S)[1]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', cites) == [
        ("/2017/law/78#78B", "Law 78B of the 2017 Laws (not yet reviewed for 2031)")]
    assert _phone_data(after_2031, "imps")["editions"]["2031"] == {
        "title": "Laws of Duplicate Bridge 2031 (test)", "tables": _phone_data(after_2031, "imps")["editions"]["2017"][
            "tables"],
        "entry": {"cites": ["2017:78B"], "law": {"imps": "2017:78B"}},
        "cites": {"2017:78B": {"url": "/2017/law/78#78B", "heading": "International Matchpoint Scoring",
                               "label": "Law 78B of the 2017 Laws (not yet reviewed for 2031)"}},
        "carried": {"from": "2027", "notes": {"2017:78B": "78B has no counterpart in the 2027 Laws"}}}


def test_carried_on_the_older_codes_reply_as_before(after_2031, before):
    for checker, payload in (("auction", {**AFTER_FINAL_PASS, "edition": "2017"}),
                             ("revoke", {"edition": "2007", "won_by": "offending player", "later_tricks": 2}),
                             ("penalty-card", {**registry.get("penalty-card").example, "edition": "1993-rubber"})):
        now = after_2031.test_client().post(f"/api/checkers/{checker}", json=payload)
        earlier = before[0].test_client().post(f"/api/checkers/{checker}", json=payload)
        assert (now.status_code, now.get_data()) == (earlier.status_code, earlier.get_data()), checker


REVIEWS_2031 = """# a checker's cite and a guide link waiting since 2017, reviewed for 2031 by that name
[[review]]
provision = "2017:78B"
decision = "replace"
to = ["40B"]
where = "checkers:/imps"
reviewer = "A. Director"
date = 2031-08-20

[[review]]
provision = "2017:33"
decision = "accept"
where = "guide:/topic:call-out-of-rotation"
reviewer = "A. Director"
date = 2031-08-21
"""


def test_carried_on_a_cite_waiting_since_2017_is_reviewed_for_2031_by_that_name(after_2031, tmp_path):
    """Derived again with a 2031 reviews file (into a copy of the store, not a
    new build): the imps checker's 2017:78B becomes 2031's 40B, reviewed, and
    the guide's link to Law 33 goes to 2031."""
    from types import SimpleNamespace

    from laws.checkers import codes

    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2031.toml").write_text(REVIEWS_2031, encoding="utf-8")
    conn = sqlite3.connect(":memory:")
    _store(after_2031).backup(conn)
    conn.execute("delete from carried_rulings")
    conn.execute("delete from carried_cites")
    conn.execute("delete from checker_cites where edition in ('2027', '2031')")
    carry.build(SimpleNamespace(conn=conn), tmp_path, tmp_path)
    data = codes.carried_data(conn)["2031"]
    assert (data["checkers"]["imps"], data["carried"]["checkers"]["imps"]) == (
        {"cites": ["40B"], "law": {"imps": "40B"}}, {"notes": {}})
    assert conn.execute("select checker, provision, title from checker_cites where edition = '2031' and "
                        "checker = 'imps'").fetchall() == [("imps", "40B", registry.get("imps").title)]
    assert carry.guide_links(conn, "2031")[("topic:call-out-of-rotation", 33)] == "2031"


@pytest.fixture(scope="module")
def url_2031(after_2031):  # noqa: F811 (the fixture imported above)
    with serve(after_2031) as (url, _server):
        yield url


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
@pytest.mark.parametrize("checker, payload", [("imps", IMPS), ("auction", AFTER_FINAL_PASS)])
def test_carried_on_the_phone_rules_2031_as_the_server_does(browser, url_2031, after_2031, checker, payload):
    with watched_page(browser) as page:
        page.goto(f"{url_2031}/checkers/{checker}")
        page.wait_for_function("() => window.LawbookCheckers")
        got = page.evaluate("""([id, payload]) => LawbookCheckers.run(id, payload,
            JSON.parse(document.getElementById('checker-data').textContent))""", [checker, payload])
    assert got == _run(after_2031.test_client(), checker, payload)
