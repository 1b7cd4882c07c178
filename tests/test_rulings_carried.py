"""A new code's rulings carried forward through the comparison (issue 25).

The made-up 2027 code of tests/test_edition_life.py (2017 Laws 33-40
transcribed, "is deemed to be" changed in Law 33) on the day it takes effect
has no rulings files: the build carries 2017's auction, play and guided
trees into it through the stored 2017 -> 2027 alignment.  A cite of a
provision the comparison finds the same follows it; any other stays the 2017
provision, cited as "2017:<id>", labelled as the 2017 Laws' and listed for
review, and a ruling through it says `reviewed: false` and what changed.  A
review in corpus/reviews/2027.toml settles it.
"""
from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest

from laws import store
from laws.build import build, current_store
from laws.model import SourceError
from laws.rulings import carry
from tests.conftest import shared_build
from tests.test_compare_new_edition import store_2027  # noqa: F401 (its 2027: 38B deleted, Law 41 rewritten)
from tests.test_browser import CHROMIUM, browser, serve, watched_page  # noqa: F401 (the shared browser)
from tests.test_edition_life import ON_THE_DAY, before, corpus_2027, on_the_day  # noqa: F401 (the shared 2027 code)

SIMULTANEOUS = {"edition": "2027", "dealer": "N", "calls": [["N", "1H"], ["S", "P"], ["E", "1S"]],
                "findings": {"simultaneous": True}}
OUT_OF_ROTATION = {"edition": "2027", "dealer": "N", "calls": [["N", "1H"], ["S", "1S"]], "findings": {}}
AFTER_FINAL_PASS = {"edition": "2027", "dealer": "N", "findings": {},
                    "calls": [["N", "1H"], ["E", "P"], ["S", "P"], ["W", "P"], ["N", "P"]]}
REVIEWS = """# reviews of the cites carried into the 2027 Laws
[[review]]
provision = "33"
decision = "accept"
reviewer = "A. Director"
date = 2027-08-20
note = "the new words rule the same"

[[review]]
provision = "29A"
decision = "replace"
to = ["34"]
where = "auction"
reviewer = "A. Director"
date = 2027-08-21

[[review]]
provision = "31"
decision = "remove"
reviewer = "B. Reviewer"
date = 2027-08-22
"""


def _store(app) -> sqlite3.Connection:
    conn = store.connect(current_store(app.config["DATA_DIR"]))
    conn.row_factory = None  # rows as tuples, to compare whole
    return conn


def _post(client, period, payload):
    reply = client.post(f"/api/rulings/{period}", json=payload)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def _carried(body: dict) -> dict:
    return {k: body.get(k) for k in ("edition", "cites", "carried_from", "reviewed", "review")}


def _text(html_text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html_text).split())


def test_the_build_carries_2017s_rulings_into_2027(on_the_day):
    conn = _store(on_the_day[0])
    assert conn.execute("select edition, period, from_edition, rules_of from carried_rulings "
                        "order by period").fetchall() == [
        ("2027", "auction", "2017", "2017"), ("2027", "guided", "2017", "2017"), ("2027", "play", "2017", "2017")]
    assert on_the_day[0].test_client().get("/api/rulings/guided").get_json()[0]["edition"] == "2027"


def test_a_same_provision_follows_and_the_ruling_is_reviewed(on_the_day):
    body = _post(on_the_day[0].test_client(), "auction", AFTER_FINAL_PASS)
    assert (body["irregularity"], _carried(body)) == (
        {"index": 4, "seat": "N", "kind": "call-after-final-pass", "law": "39"},
        {"edition": "2027", "cites": ["35D", "39A", "39B"], "carried_from": "2017", "reviewed": True,
         "review": None})


def test_a_changed_provision_waits_for_review_and_the_ruling_says_so(on_the_day):
    body = _post(on_the_day[0].test_client(), "auction", SIMULTANEOUS)
    assert _carried(body) == {"edition": "2027", "cites": ["2017:33"], "carried_from": "2017", "reviewed": False,
                              "review": "not yet reviewed for 2027: 33's words changed"}


def test_a_provision_the_new_code_lacks_is_cited_as_the_older_codes(on_the_day):
    body = _post(on_the_day[0].test_client(), "auction", OUT_OF_ROTATION)
    assert body["irregularity"]["law"] == "31 (2017 Laws)"
    assert body["questions"][0]["cites"] == ["2017:29A"]
    assert _carried(body) == {
        "edition": "2027", "cites": ["2017:31", "2017:29A"], "carried_from": "2017", "reviewed": False,
        "review": "not yet reviewed for 2027: 29A has no counterpart in the 2027 Laws; "
                  "31 has no counterpart in the 2027 Laws"}


def test_play_and_guided_rulings_say_it_too(on_the_day):
    client = on_the_day[0].test_client()
    play = _post(client, "play", {"edition": "2027", "contract": "4S", "declarer": "S", "play": [["E", "HK"]],
                                  "findings": {}})
    assert _carried(play) == {"edition": "2027", "cites": ["2017:47E1"], "carried_from": "2017", "reviewed": False,
                              "review": "not yet reviewed for 2027: 47E1 has no counterpart in the 2027 Laws"}
    claim = _post(client, "guided", {"edition": "2027", "procedure": "claim", "answers": {}})
    assert (claim["laws"], _carried(claim)) == ([], {
        "edition": "2027", "cites": ["2017:68D", "2017:69", "2017:70", "2017:71"], "carried_from": "2017",
        "reviewed": False, "review": "not yet reviewed for 2027: " + "; ".join(
            f"{p} has no counterpart in the 2027 Laws" for p in ("68D", "69", "70", "71"))})


def test_a_code_with_rulings_files_says_nothing_of_review(on_the_day):
    body = _post(on_the_day[0].test_client(), "auction", {**AFTER_FINAL_PASS, "edition": "2017"})
    assert ("carried_from" in body, "reviewed" in body, body["cites"]) == (False, False, ["35D", "39A", "39B"])


def test_every_carried_cite_is_the_codes_own_or_the_older_codes_with_a_note(on_the_day):
    conn = _store(on_the_day[0])
    have = {(e, p) for e, p in conn.execute("select edition, id from provisions")}
    for period, data in conn.execute("select period, data from carried_rulings"):
        tree = json.loads(data)
        cites: set[str] = set()
        _all_cites(tree, cites)
        own = {c for c in cites if ":" not in c}
        older = cites - own
        assert sorted(c for c in own if ("2027", c) not in have) == [], period
        assert sorted(c for c in older if ("2017", c.split(":", 1)[1]) not in have) == [], period
        assert sorted(older - set(tree["carried"]["notes"])) == [], period  # each says what changed


def _all_cites(value, out: set) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cites":
                out.update(v)
            elif k != "carried":
                _all_cites(v, out)
    elif isinstance(value, list):
        for v in value:
            _all_cites(v, out)


def test_the_page_says_it_and_labels_the_older_codes_provision(on_the_day):
    page = on_the_day[0].test_client().get("/rulings/auction?edition=2027&dealer=N&calls=1H+S:1S")
    text = page.get_data(as_text=True)
    note = re.search(r'<p class="review-note" id="review-note" role="note">(.*?)</p>', text, re.S)
    assert _text(note[1]) == ("Ruled by the 2017 rulings carried into the 2027 Laws; not yet reviewed for 2027: "
                              "29A has no counterpart in the 2027 Laws; 31 has no counterpart in the 2027 Laws .")
    summaries = [_text(s) for s in re.findall(r"<summary>(.*?)</summary>", text, re.S)]
    assert summaries[:2] == ["Law 31 of the 2017 Laws (not yet reviewed for 2027) — Bid Out of Rotation",
                             "Law 29A of the 2017 Laws (not yet reviewed for 2027) — Forfeiture of Right to "
                             "Rectification"]
    assert 'href="/2017/law/31#31"' in text and 'href="/2027/law/31' not in text


def test_the_phones_data_holds_the_carried_trees_and_labelled_texts(on_the_day):
    bundle = on_the_day[0].test_client().get("/rulings/auction.json").get_json()
    assert list(bundle["editions"]) == ["2027", "2017", "2007"]
    assert bundle["editions"]["2027"]["carried"]["notes"]["2017:33"] == "33's words changed"
    t = bundle["texts"]["2027"]["2017:31"]
    assert (t["label"], t["url"]) == ("Law 31 of the 2017 Laws (not yet reviewed for 2027)", "/2017/law/31#31")
    assert bundle["texts"]["2027"]["35D"]["url"] == "/2027/law/35#35D"


def test_the_new_codes_law_pages_link_the_carried_rulings_and_checkers(on_the_day):
    app = on_the_day[0]
    assert _store(app).execute("select checker, provision from checker_cites where edition = '2027' "
                               "order by provision").fetchall() == [
        ("auction", "35A"), ("auction", "35B"), ("auction", "35C"), ("auction", "35D"),
        # Laws 36-39 cited whole, each the same in 2027
        ("auction", "36"), ("auction", "37"), ("auction", "38"), ("auction", "39")]
    page = app.test_client().get("/2027/law/39").get_data(as_text=True)
    assert 'href="/rulings/auction?edition=2027"' in page


def test_the_build_lists_what_awaits_review(on_the_day):
    build_dir = current_store(on_the_day[0].config["DATA_DIR"]).resolve().parent
    pending = (build_dir / "reviews-pending-2027.toml").read_text(encoding="utf-8")
    entry = pending[pending.index("# 33's words changed"):].split("\n\n")[0]
    assert entry == "\n".join([
        "# 33's words changed; carried at 3 place(s): auction:/kinds/simultaneous-call, "
        "auction:/kinds/simultaneous-call/tree/cases/in-rotation, "
        "auction:/kinds/simultaneous-call/tree/cases/irregular",
        "[[review]]", 'provision = "33"', 'decision = "accept"  # or "replace" (with to = [...]) or "remove"',
        'reviewer = ""', 'date = ""  # the day of the review, unquoted: 2027-06-10'])


# --- reviews -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def reviewed(corpus_2027, tmp_path_factory):  # noqa: F811 (the fixture imported above)
    """2027 on its day, with three reviews recorded."""
    from app import create_app

    corpus = tmp_path_factory.mktemp("corpus-reviewed") / "corpus"
    shutil.copytree(corpus_2027, corpus)
    (corpus / "reviews").mkdir()
    (corpus / "reviews" / "2027.toml").write_text(REVIEWS, encoding="utf-8")
    data = tmp_path_factory.mktemp("data-reviewed")
    lines: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", ON_THE_DAY)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        build(corpus, data, echo=lines.append)
    return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)}), lines


def test_an_accepted_review_makes_the_ruling_reviewed(reviewed):
    body = _post(reviewed[0].test_client(), "auction", SIMULTANEOUS)
    assert _carried(body) == {"edition": "2027", "cites": ["33"], "carried_from": "2017", "reviewed": True,
                              "review": None}


def test_replaced_and_removed_cites(reviewed):
    body = _post(reviewed[0].test_client(), "auction", OUT_OF_ROTATION)
    assert (body["questions"][0]["cites"], _carried(body)) == (["34"], {
        "edition": "2027", "cites": ["34"], "carried_from": "2017", "reviewed": True, "review": None})


def test_the_store_records_who_reviewed_what(reviewed):
    rows = _store(reviewed[0]).execute(
        "select distinct period, provision, to_provisions, decision, reviewer, reviewed_on from carried_cites "
        "where reviewer is not null order by provision, period").fetchall()
    assert rows == [
        ("auction", "29A", '["34"]', "replace", "A. Director", "2027-08-21"),
        ("auction", "31", "[]", "remove", "B. Reviewer", "2027-08-22"),
        ("auction", "33", '["33"]', "accept", "A. Director", "2027-08-20"),
    ]


def test_the_build_line_counts_what_still_awaits_review(reviewed, on_the_day):
    def line(lines):
        return next(x for x in lines if x.startswith("2027: rulings"))
    before = _store(on_the_day[0]).execute("select count(*) from carried_cites where reviewed = 0").fetchone()[0]
    conn = _store(reviewed[0])
    after = conn.execute("select count(*) from carried_cites where reviewed = 0").fetchone()[0]
    assert conn.execute("select period, node, provision from carried_cites where reviewer is not null "
                        "order by provision, period, node").fetchall() == [
        ("auction", "/kinds/pass-out-of-rotation/tree", "29A"), ("auction", "/subtrees/accepted-29A", "29A"),
        ("auction", "/subtrees/bid-oor", "29A"), ("auction", "/subtrees/double-oor", "29A"),
        ("auction", "/kinds/bid-out-of-rotation", "31"), ("auction", "/kinds/simultaneous-call", "33"),
        ("auction", "/kinds/simultaneous-call/tree/cases/in-rotation", "33"),
        ("auction", "/kinds/simultaneous-call/tree/cases/irregular", "33")]
    assert before - after == 8
    assert re.fullmatch(
        rf"2027: rulings, checker cites and guide links carried from 2017: \d+ cites, \d+ follow the comparison, "
        rf"8 reviewed, {after} await review \(\d+ provisions: listed in reviews-pending-2027.toml beside the "
        rf"store; record decisions in corpus/reviews/2027.toml\)", line(reviewed[1]))


@pytest.mark.parametrize("entry, message", [
    ('provision = "45Z"\ndecision = "remove"', "line 2: names 45Z, which the 2017 Laws (the code 2027 is carried "
                                               "from) do not have"),
    ('provision = "33"\ndecision = "replace"\nto = ["12A"]', "line 2: replaces 33 by 12A, which the 2027 Laws do "
                                                             "not have"),
    ('provision = "31"\ndecision = "accept"', "line 2: accepts 31, but 31 has no counterpart in the 2027 Laws: "
                                              "replace it (decision = \"replace\", to = [...]) or remove it"),
    ('provision = "33"\ndecision = "keep"', "line 2: decision must be one of accept, replace, remove, not 'keep'"),
    ('provision = "33"\ndecision = "remove"\nwhere = "bidding"',
     "line 2: where must be one of auction, play, guided, checkers, guide (optionally with \":<node>\"), "
     "not 'bidding'"),
    ('provision = "1A"\ndecision = "remove"', "line 2: reviews 1A, which no ruling, checker or guide link "
                                               "carried into 2027 cites"),
])
def test_a_review_that_cannot_apply_is_a_readable_build_error(on_the_day, tmp_path, entry, message):
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2027.toml").write_text(
        f'# one review\n[[review]]\n{entry}\nreviewer = "A. Director"\ndate = 2027-08-20\n', encoding="utf-8")
    with pytest.raises(SourceError) as err:
        carry.derive(_store(on_the_day[0]), tmp_path)
    assert str(err.value) == f"reviews/2027.toml, {message}"


def test_a_reviews_file_for_no_code_is_refused(on_the_day, tmp_path):
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2031.toml").write_text("", encoding="utf-8")
    with pytest.raises(SourceError) as err:
        carry.derive(_store(on_the_day[0]), tmp_path)
    assert str(err.value) == ("reviews/2031.toml: is named for '2031', which is no code of manifest.toml "
                              "(its codes: 1993-rubber, 2007, 2017, 2027)")


# --- the phone, offline: the same carried trees and the same note ---------------------

@pytest.fixture(scope="module")
def carried_url(on_the_day):  # noqa: F811 (the fixture imported above)
    with serve(on_the_day[0]) as (url, _server):
        yield url


JS_RULES = """async (reqs) => {
    const get = async (p) => (await fetch('/rulings/' + p + '.json')).json();
    const b = {auction: await get('auction'), play: await get('play'), guided: await get('guided')};
    return reqs.map(([period, r]) => period === 'guided'
        ? LawbookGuided.rule(b.guided.editions[r.edition], r.procedure, r.answers)
        : LawbookRulings[period].rule(b[period].editions, r));
}"""
REQUESTS = [("auction", SIMULTANEOUS), ("auction", OUT_OF_ROTATION), ("auction", AFTER_FINAL_PASS),
            ("play", {"edition": "2027", "contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {}}),
            ("guided", {"edition": "2027", "procedure": "claim", "answers": {}})]


@pytest.mark.parametrize("path, script", [
    ("/rulings/auction", "rulings/auction.js"), ("/rulings/play", "rulings/play.js"),
    ("/rulings/guided/claim?edition=2027", "rulings/guided.js")])
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_phone_rules_the_carried_code_as_the_server_does(browser, carried_url, on_the_day, path, script):
    client = on_the_day[0].test_client()
    period = script.split("/")[1].split(".")[0]
    mine = [(p, r) for p, r in REQUESTS if p == period]
    with watched_page(browser) as page:
        page.goto(carried_url + path)
        page.wait_for_function("() => window.LawbookRulings && (window.LawbookGuided || LawbookRulings.auction "
                               "|| LawbookRulings.play)")
        got = page.evaluate(JS_RULES, mine)
    assert got == [client.post(f"/api/rulings/{p}", json=r).get_json() for p, r in mine]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_phones_page_shows_the_note_and_the_older_codes_label(browser, carried_url):
    with watched_page(browser) as page:
        page.goto(carried_url + "/rulings/auction?edition=2027&dealer=N&calls=1H+S:1S")
        page.wait_for_selector("#app-flow #review-note")  # drawn by the phone's script (ui.js, dom.js)
        note = page.inner_text("#app-flow #review-note")
        first = page.inner_text("#app-flow ul.cites li summary")
    assert (note, first) == (
        "Ruled by the 2017 rulings carried into the 2027 Laws; not yet reviewed for 2027: 29A has no counterpart "
        "in the 2027 Laws; 31 has no counterpart in the 2027 Laws.",
        "Law 31 of the 2017 Laws (not yet reviewed for 2027)")  # a whole law's heading is its title: not shown here


def test_the_guides_links_follow_a_law_the_comparison_finds_the_same(on_the_day):
    """Laws 28-32 are not in the made-up code, 33's words changed: those links
    stay on 2017 (listed for review, `where = "guide"`); 34 is the same."""
    links = carry.guide_links(_store(on_the_day[0]), "2027")
    assert {n: ed for (topic, n), ed in links.items() if topic == "topic:call-out-of-rotation"} == {
        28: "2017", 29: "2017", 30: "2017", 31: "2017", 32: "2017", 33: "2017", 34: "2027"}


def test_a_question_links_only_terms_the_new_code_defines(on_the_day):
    client = on_the_day[0].test_client()
    asked = {"procedure": "unauthorized-information", "answers": {}}
    older = _post(client, "guided", {"edition": "2017", **asked})["questions"][0]["terms"]
    newer = _post(client, "guided", {"edition": "2027", **asked})["questions"][0]["terms"]
    assert (older, newer) == ([{"id": "def:Extraneous", "term": "Extraneous"}], [])  # 2027 defines no term


RECORDS = [{"procedure": "auction", "edition": "2027", "dealer": "N", "calls": "1H S:1S"},
           {"procedure": "auction", "edition": "2027", "dealer": "N", "calls": "1H S:P E:1S", "simultaneous": "yes"},
           {"procedure": "play", "edition": "2027", "contract": "4S", "declarer": "S", "play": "E:HK"},
           {"procedure": "claim", "edition": "2027"}]


def test_a_carried_rulings_record_says_it_and_holds_the_older_codes_text(on_the_day):
    from tests.test_rulings_record import make

    rec = make(on_the_day[0], RECORDS[0])
    assert rec["notes"][0] == ("Ruled by the 2017 rulings carried into the 2027 Laws; not yet reviewed for 2027: "
                               "29A has no counterpart in the 2027 Laws; 31 has no counterpart in the 2027 Laws.")
    assert [(p["id"], p["heading"]) for p in rec["provisions"]] == [
        ("2017:31", ""), ("2017:29A", "Forfeiture of Right to Rectification")]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_phone_makes_the_servers_record_of_a_carried_ruling(browser, carried_url, on_the_day):
    from tests.test_rulings_record import make
    from tests.test_rulings_record_browser import JS_RECORDS

    with watched_page(browser) as page:
        page.goto(carried_url + "/rulings/record")
        got = page.evaluate(JS_RECORDS, RECORDS)
    assert [g["rec"] for g in got] == [make(on_the_day[0], r) for r in RECORDS]


# --- a deleted provision, and a number that now holds another rule --------------------

def test_a_deleted_provision_and_a_reused_number_never_follow(store_2027, tmp_path):
    """tests/test_compare_new_edition.py's 2027 deletes 38B and rewrites Law 41,
    whose B now holds another rule (Review of Auction, where 2017's 41B is
    the opening lead's): neither is carried as a 2027 provision."""
    trees, _ = carry.derive(store_2027, tmp_path)
    notes = {**trees[("2027", "auction")]["carried"]["notes"], **trees[("2027", "play")]["carried"]["notes"]}
    assert {c: notes[c] for c in ("2017:38B", "2017:41A", "2017:41B") if c in notes} == {
        "2017:38B": "38B was removed", "2017:41A": "41A's words changed"}
    own: set[str] = set()
    for period in ("auction", "play", "guided"):
        _all_cites(trees[("2027", period)], own)
    assert sorted(c for c in own if re.match(r"(38|41)\D", c)) == ["38A", "38C", "38D"]


def test_a_reviews_file_for_a_code_with_its_own_rulings_is_refused(on_the_day, tmp_path):
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2017.toml").write_text(
        '[[review]]\nprovision = "33"\ndecision = "remove"\nreviewer = "A. Director"\ndate = 2027-08-20\n',
        encoding="utf-8")
    with pytest.raises(SourceError) as err:
        carry.derive(_store(on_the_day[0]), tmp_path)
    assert str(err.value) == ("reviews/2017.toml: reviews cites carried into 2017, but 2017 has rulings of its "
                              "own: nothing is carried into it")


def test_the_guides_law_links_follow_the_code_in_force_where_the_law_is_the_same(before, on_the_day):
    """The guide explains the 2017 Laws: on the day 2027 takes effect, a law
    2027 kept word for word (34) is linked in 2027, one whose words changed
    (33: "deemed" became "considered") stays on the 2017 law the guide
    explains, until a review says otherwise."""
    import re

    links = {}
    for day, (app, _) in (("before", before), ("on the day", on_the_day)):
        page = app.test_client().get("/guide/topic:call-out-of-rotation").get_data(as_text=True)
        links[day] = sorted(set(re.findall(r'href="(/[^"]*/law/3[34])[#"]', page)))
    assert links == {"before": ["/2017/law/33", "/2017/law/34"], "on the day": ["/2017/law/33", "/2027/law/34"]}


def test_the_phones_search_offers_the_carried_code_its_rulings(on_the_day):
    """What the phone keeps for search (search/offline.py) maps 2027's
    provisions to the rulings carried into 2027, as the server's hand-off does."""
    handoff = on_the_day[0].test_client().get("/offline/search.json").get_json()["handoff"]
    assert "2027" in handoff["by"] and handoff["by"]["2027"]
    places = {p for ps in handoff["by"]["2027"].values() for p in ps}
    assert {handoff["procedures"][p][3].split("?")[1] for p in places} >= {"edition=2027"}
    assert ["auction", "insufficient-bid", "Insufficient bid", "/rulings/auction?edition=2027"] in handoff["procedures"]


# --- a carried ruling's record: its board line and adjusted score by the carried checkers --

SCORE = {"level": 4, "strain": "S", "risk": "X", "vulnerable": True, "tricks": 10}
CALC = "score;level=4;strain=S;risk=X;vulnerable=true;tricks=10;declarer=S"
NOTE_FIELDS = ("result", "explanation", "cites", "carried_from", "reviewed", "review")
BOARD_23 = {"board": "23"}


def _check(app, checker: str, payload: dict) -> dict:
    reply = app.test_client().post(f"/api/checkers/{checker}", json=payload)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def _adjusted(app, edition: str) -> dict:
    from tests.test_rulings_record import make

    [item] = make(app, {"procedure": "claim", "edition": edition, "calc": CALC})["adjusted"]["results"]
    return item


def _board(app, edition: str) -> dict:
    from laws.web.guided import board_info

    with app.test_request_context():
        return board_info(BOARD_23, edition)


def test_a_carried_records_adjusted_score_is_the_carried_codes_checkers(on_the_day, before):
    """The score carried into a 2027 record is worked out as /api/checkers/score
    works it out in 2027: 2017's rules, its cites carried (2017's while they
    await review) and the note, also before the day, when the checker
    answers in 2017 unless asked; a 2017 record's is 2017's as before."""
    api = _check(on_the_day[0], "score", SCORE)
    item = _adjusted(on_the_day[0], "2027")
    assert (api["edition"], {k: item.get(k) for k in NOTE_FIELDS}) == ("2027", {k: api[k] for k in NOTE_FIELDS})
    assert (item["cites"], item["by"]) == (["2017:77", "2017:19D"], (
        "the score checker (the 2017 rules carried into the 2027 Laws, not yet reviewed for 2027: 77 has no "
        "counterpart in the 2027 Laws; 19D has no counterpart in the 2027 Laws)"))
    assert _adjusted(before[0], "2027") == item
    older = _adjusted(on_the_day[0], "2017")
    assert (older["cites"], older["by"], "carried_from" in older) == (["77", "19D"], "the score checker", False)
    assert {k: older[k] for k in ("result", "explanation")} == {k: item[k] for k in ("result", "explanation")}


def test_a_carried_records_board_line_is_the_carried_codes_board_checker(on_the_day, before):
    api = _check(on_the_day[0], "board", {"board": 23})
    assert _board(on_the_day[0], "2027") == {
        "dealer": "S", "vulnerable": "Both", "cites": api["cites"],
        "line": "Dealer South; Both sides vulnerable (board checker, Law 2 of the 2017 Laws, not yet reviewed "
                "for 2027)",
        "carried_from": "2017", "reviewed": False, "review": api["review"]}
    assert api["review"] == "not yet reviewed for 2027: 2 has no counterpart in the 2027 Laws"
    assert _board(before[0], "2027") == _board(on_the_day[0], "2027")
    assert _board(on_the_day[0], "2017") == {"dealer": "S", "vulnerable": "Both", "cites": ["2"],
                                             "line": "Dealer South; Both sides vulnerable (board checker, Law 2)"}


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_phone_makes_a_carried_records_board_line_as_the_server_does(browser, carried_url, on_the_day):
    from tests.test_rulings_record import make

    recs = [make(on_the_day[0], {**RECORDS[3], "edition": ed}) for ed in ("2027", "2017")]
    with watched_page(browser) as page:
        page.goto(carried_url + "/rulings/record")
        got = page.evaluate("""async ([recs, values]) => {
            const words = (await (await fetch('/rulings/guided.json')).json()).record;
            return recs.map(rec => LawbookRecord.withContext(words, rec, LawbookRecord.context(words, values)).board_info);
        }""", [recs, BOARD_23])
    assert got == [_board(on_the_day[0], "2027"), _board(on_the_day[0], "2017")]


# --- carried on: 2017 -> 2027 -> 2031, no review in between ---------------------------------

FILE_2031 = "006_laws_2031_test.txt"
# the one change 2031 makes to the made-up 2027: a word added to 35D, which followed 2017's into 2027
CHANGE_2031 = ("D. A call after the final pass of the auction.", "D. A call made after the final pass of the auction.")
DATED_2031, DAY_2031 = "published = 2031-06-01\nin_force_from = 2031-09-01\n", "2031-09-01"


@pytest.fixture(scope="module")
def after_2031(corpus_2027, tmp_path_factory):  # noqa: F811 (the fixture imported above)
    """The made-up 2027 and a made-up 2031 (2027's text, 35D reworded), both
    with no rulings or checker data of their own, built as of the day 2031
    takes effect: 2031's rulings, checkers and guide links are 2027's carried
    on.  One build in the session (tests/conftest.py `shared_build`), shared
    with tests/test_checkers_carried.py."""
    from app import create_app
    from tests.test_compare_new_edition import NEW_FILE, manifest_2027

    corpus = tmp_path_factory.mktemp("corpus-2031") / "corpus"
    shutil.copytree(corpus_2027, corpus)
    text = (corpus / NEW_FILE).read_text(encoding="utf-8")
    assert text.count(CHANGE_2031[0]) == 1
    (corpus / FILE_2031).write_text(text.replace(*CHANGE_2031), encoding="utf-8")
    entry = manifest_2027("33-40", "The made-up 2027 with 35D reworded", DATED_2031).replace(NEW_FILE, FILE_2031)
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        f.write(re.sub(r"\b2027\b", "2031", entry))
    data = shared_build(tmp_path_factory, corpus, today=DAY_2031)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", DAY_2031)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})


def test_carried_on_a_cite_follows_each_comparison_or_waits_as_the_code_it_was_last_followed_in(after_2031):
    """2017's 33 waits in 2027 (its words changed) and stays 2017's in 2031,
    though 2031's 33 is 2027's word for word: the rulings were written for
    2017's words; its note says what became of it in each code.  35D, which
    followed into 2027, waits in 2031 (a word added) as 2027's; 39A and 39B
    followed twice."""
    client = after_2031.test_client()
    replies = [_carried(_post(client, "auction", {**p, "edition": "2031"}))
               for p in (SIMULTANEOUS, AFTER_FINAL_PASS, OUT_OF_ROTATION)]
    carried = {"edition": "2031", "carried_from": "2027", "reviewed": False}
    assert replies == [
        {**carried, "cites": ["2017:33"],
         "review": "not yet reviewed for 2031: 2027: 33's words changed → 2031: 33 is the same"},
        {**carried, "cites": ["2027:35D", "39A", "39B"], "review": "not yet reviewed for 2031: 35D's words changed"},
        {**carried, "cites": ["2017:31", "2017:29A"],
         "review": "not yet reviewed for 2031: 29A has no counterpart in the 2027 Laws; "
                   "31 has no counterpart in the 2027 Laws"}]


def test_carried_on_the_appeal_and_a_kinds_law_stay_the_older_codes(after_2031, tmp_path):
    trees, _ = carry.derive(_store(after_2031), tmp_path)
    auction = trees[("2031", "auction")]
    assert (auction["carried"]["from"], auction["carried"]["rules_of"], auction["carried"]["appeal"]) == (
        "2027", "2017", ["2017:92B"])
    assert {k: spec["law"] for k, spec in auction["kinds"].items() if k.endswith("out-of-rotation")} == {
        "pass-out-of-rotation": "30 (2017 Laws)", "bid-out-of-rotation": "31 (2017 Laws)",
        "double-out-of-rotation": "32 (2017 Laws)", "redouble-out-of-rotation": "32 (2017 Laws)"}


def test_every_cite_carried_on_is_its_codes_with_a_note_for_each_older_one(after_2031):
    conn = _store(after_2031)
    have = {(e, p) for e, p in conn.execute("select edition, id from provisions")}
    for period, data in conn.execute("select period, data from carried_rulings where edition = '2031'"):
        tree = json.loads(data)
        cites = set(tree["carried"]["appeal"])
        _all_cites(tree, cites)
        older = {c for c in cites if ":" in c}
        assert sorted(c for c in cites - older if ("2031", c) not in have) == [], period
        assert sorted(c for c in older if tuple(c.split(":", 1)) not in have) == [], period
        assert sorted(older - set(tree["carried"]["notes"])) == [], period
        assert sorted(set(tree["carried"]["notes"]) - older) == [], period  # and no note of a cite it no longer makes


REVIEWS_2031 = """# cites still waiting since 2017, reviewed for 2031 by the names the build listed them
[[review]]
provision = "2017:33"
decision = "accept"
reviewer = "A. Director"
date = 2031-08-20

[[review]]
provision = "2017:31"
decision = "replace"
to = ["34"]
where = "auction"
reviewer = "A. Director"
date = 2031-08-21
"""


def test_a_cite_waiting_since_an_older_code_is_reviewed_by_that_name(after_2031, tmp_path):
    pending = (current_store(after_2031.config["DATA_DIR"]).resolve().parent
               / "reviews-pending-2031.toml").read_text(encoding="utf-8")
    entry = pending[pending.index("# 2027: 33's words changed"):].split("\n\n")[0]
    assert entry.splitlines()[1:4] == ["[[review]]", 'provision = "2017:33"', 'decision = "accept"  # or '
                                       '"replace" (with to = [...]) or "remove"']
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2031.toml").write_text(REVIEWS_2031, encoding="utf-8")
    trees, carried = carry.derive(_store(after_2031), tmp_path)
    auction = trees[("2031", "auction")]
    cites: set[str] = set()
    _all_cites(auction["kinds"]["simultaneous-call"], cites)
    assert (cites, auction["kinds"]["bid-out-of-rotation"]["cites"]) == ({"33"}, ["34"])
    assert not {"2017:33", "2017:31"} & set(auction["carried"]["notes"])
    assert sorted({(r["provision"], r["to_provisions"], r["decision"], r["reviewer"], r["reviewed_on"])
                   for r in carried["2031"].rows if r["reviewer"]}) == [
        ("2017:31", '["34"]', "replace", "A. Director", "2031-08-21"),
        ("2017:33", '["33"]', "accept", "A. Director", "2031-08-20")]


@pytest.mark.parametrize("entry, message", [
    ('provision = "2017:45Z"\ndecision = "remove"', "line 2: names 2017:45Z, which the 2017 Laws do not have"),
    ('provision = "2017:31"\ndecision = "accept"', "line 2: accepts 2017:31, but 31 has no counterpart in the 2027 "
                                                   "Laws: replace it (decision = \"replace\", to = [...]) or remove it"),
])
def test_a_review_of_a_cite_waiting_since_an_older_code_that_cannot_apply(after_2031, tmp_path, entry, message):
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "2031.toml").write_text(
        f'# one review\n[[review]]\n{entry}\nreviewer = "A. Director"\ndate = 2031-08-20\n', encoding="utf-8")
    with pytest.raises(SourceError) as err:
        carry.derive(_store(after_2031), tmp_path)
    assert str(err.value) == f"reviews/2031.toml, {message}"


def test_carried_on_the_guides_law_links_follow_or_stay_on_the_code_they_wait_in(after_2031):
    """On the day 2031 takes effect, the guide (written for the 2017 Laws)
    links in 2031 a law 2031 has word for word from 2027, which had it from
    2017 (34, 36-39); 35, which followed into 2027 and had a word added in
    2031, in 2027; 33, waiting since 2017 (its words changed in 2027), and
    Laws 28-32, which 2027 lacks, in 2017."""
    client = after_2031.test_client()
    links = {topic: sorted(set(re.findall(r'href="(/[^"]*/law/\d+)[#"]',
                                          client.get(f"/guide/topic:{topic}").get_data(as_text=True))))
             for topic in ("call-out-of-rotation", "other-illegal-calls")}
    assert links == {
        "call-out-of-rotation": ["/2017/law/28", "/2017/law/29", "/2017/law/30", "/2017/law/31", "/2017/law/32",
                                 "/2017/law/33", "/2031/law/34"],
        "other-illegal-calls": ["/2027/law/35", "/2031/law/36", "/2031/law/37", "/2031/law/38", "/2031/law/39"]}
    assert _store(after_2031).execute(
        "select provision, from_edition, to_provisions, reviewed, change from carried_cites where edition = '2031' "
        "and period = 'guide' and node = '/topic:call-out-of-rotation' and provision in ('2017:33', '34', '2017:31')"
        " order by provision").fetchall() == [
        ("2017:31", "2027", "[]", 0, "Law 31: not in the 2027 Laws"),
        ("2017:33", "2027", "[]", 0, "2027: Law 33: changed → 2031: Law 33: the same text"),
        ("34", "2027", '["34"]', 1, "Law 34: the same text")]
    pending = (current_store(after_2031.config["DATA_DIR"]).resolve().parent
               / "reviews-pending-2031.toml").read_text(encoding="utf-8")
    entry = pending[pending.index("# 2027: Law 33: changed"):].split("\n\n")[0]
    assert entry.splitlines()[:5] == [
        "# 2027: Law 33: changed → 2031: Law 33: the same text; carried at 1 place(s): "
        "guide:/topic:call-out-of-rotation", "[[review]]", 'provision = "2017:33"',
        'decision = "accept"  # or "replace" (with to = [...]) or "remove"', 'where = "guide"']
