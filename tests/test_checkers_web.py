"""The checkers on the web: the JSON API's shape and errors, the HTML forms,
and a property test that no input to any checker gets a 500."""
from __future__ import annotations

import json
import re
from urllib.parse import unquote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laws.checkers import registry

CHECKERS = registry.all_checkers()
IDS = [c.id for c in CHECKERS]


# --- GET /api/checkers ---------------------------------------------------------

def test_list_shape(client):
    r = client.get("/api/checkers")
    assert r.status_code == 200 and r.mimetype == "application/json"
    body = r.get_json()
    assert [c["id"] for c in body] == IDS
    for c in body:
        assert {"id", "title", "cites", "editions", "input_schema", "cites_by_edition"} <= set(c)
        assert all(isinstance(p, str) for p in c["cites"])
        assert c["input_schema"]["type"] == "object"
        assert c["editions"] == list(c["cites_by_edition"])


def test_describe_one(client):
    r = client.get("/api/checkers/score")
    assert r.status_code == 200 and "Law 77" in r.get_json()["doc"]
    assert client.get("/api/checkers/nope").status_code == 404


# --- POST /api/checkers/<id> ---------------------------------------------------

@pytest.mark.parametrize("checker_id, payload, expected", [
    ("board", {"board": 7}, {"dealer": "S", "vulnerable": "Both"}),
    ("score", {"level": 4, "strain": "S", "risk": "X", "vulnerable": True, "tricks": 11}, {"score": 990}),
    ("imps", {"difference": 430}, {"imps": 10}),
    ("imps", {"difference": -430}, {"imps": -10}),
    ("matchpoints", {"scores": [420, 420, 450, -50]}, {"matchpoints": [3, 3, 6, 0]}),
    ("auction", {"dealer": "N", "calls": ["1H", "P", "1S", "X", "XX", "P", "P", "P"]},
     {"complete": True, "legal": True, "contract": "1SXX", "declarer": "S", "next": None}),
])
def test_contract_examples(client, checker_id, payload, expected):
    r = client.post(f"/api/checkers/{checker_id}", json=payload)
    assert r.status_code == 200 and r.mimetype == "application/json"
    body = r.get_json()
    assert {k: body["result"][k] for k in expected} == expected
    assert isinstance(body["explanation"], str) and body["cites"]


def test_insufficient_bid_over_http(client):
    body = client.post("/api/checkers/auction", json={"dealer": "N", "calls": ["1S", "1H"]}).get_json()
    assert body["result"]["legal"] is False
    assert body["result"]["irregularity"]["index"] == 1 and body["result"]["irregularity"]["law"] == "27"


@pytest.mark.parametrize("kwargs, field", [
    ({"json": {"level": 9, "strain": "S", "tricks": 10}}, "level"),
    ({"json": {"level": 4, "strain": "S"}}, "tricks"),
    ({"json": [4, "S"]}, None),
    ({"json": None}, None),
    ({"data": "{not json", "content_type": "application/json"}, None),
    ({"data": "level=4", "content_type": "application/x-www-form-urlencoded"}, None),
    ({"data": b"\xff\xfe", "content_type": "application/json"}, None),
    ({"data": '{"level": NaN, "strain": "S", "tricks": 1}', "content_type": "application/json"}, "level"),
])
def test_bad_input_is_400_with_error_and_field(client, kwargs, field):
    r = client.post("/api/checkers/score", **kwargs)
    assert r.status_code == 400 and r.mimetype == "application/json"
    body = r.get_json()
    assert set(body) == {"error", "field"} and body["field"] == field
    assert body["error"] and "Traceback" not in body["error"]


def test_unknown_checker_is_404(client):
    r = client.post("/api/checkers/no-such", json={})
    assert r.status_code == 404 and "error" in r.get_json()


def test_get_on_run_url_lists_nothing_wrong(client):
    # GET /api/checkers/<id> describes; PUT is not allowed, and says so in JSON
    r = client.put("/api/checkers/score", json={})
    assert r.status_code == 405 and "error" in r.get_json()


# --- HTML ----------------------------------------------------------------------

def test_index_lists_every_checker(client):
    r = client.get("/checkers")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    for c in CHECKERS:
        assert f'href="/checkers/{c.id}"' in html


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_form_page_has_a_field_per_input(client, c):
    r = client.get(f"/checkers/{c.id}")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'name="viewport"' in html  # fits a phone (base.html)
    assert "<script>" not in html and " style=" not in html  # CSP: no inline script or style
    for name in c.input_schema["properties"]:
        assert f'name="{name}"' in html
        assert f'<label for="f-{name}"' in html


def _form_value(prop, value):
    if isinstance(value, bool):
        return "on" if value else None
    if isinstance(value, list):
        return (", " if prop.get("x-split") == "," else " ").join(map(str, value))
    return str(value)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_form_post_of_the_example_gives_the_api_result(client, c):
    form = {k: v for k, v in ((k, _form_value(c.input_schema["properties"][k], v)) for k, v in c.example.items())
            if v is not None}
    r = client.post(f"/checkers/{c.id}", data=form, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    api = client.post(f"/api/checkers/{c.id}", json=c.example).get_json()
    from markupsafe import escape
    assert str(escape(api["explanation"])) in html
    # every cited provision is a link to its law page, anchored at the provision
    links = re.findall(r'<li><a href="([^"]+)">Law ([^<]+)</a>', html)
    assert [unquote(h.split("#")[1]) for h, _ in links] == api["cites"]
    for href, pid in links:
        number = re.match(r"\d+", pid).group()
        assert href.split("#")[0] == f"/{api['edition']}/law/{number}"


def test_form_by_query_string_is_linkable(client):
    r = client.get("/checkers/board?board=7")
    assert r.status_code == 200 and "South deals" in r.get_data(as_text=True)


def test_auction_form_parses_a_typed_sequence(client):
    r = client.post("/checkers/auction", data={"dealer": "N", "calls": "1H P 1S X XX P P P"}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "1SXX by South" in html
    assert 'value="1H P 1S X XX P P P"' in html  # the form keeps what was typed


def test_form_error_rerenders_with_message_and_400(client):
    r = client.post("/checkers/score", data={"level": "9", "strain": "S", "tricks": "10"}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "Level must be at most 7." in html
    assert 'id="f-level" name="level" value="9"' in html and 'aria-invalid="true"' in html


@pytest.mark.parametrize("data, message", [
    ({"level": "four", "strain": "S", "tricks": "10"}, "Level must be a whole number."),
    ({"level": "4.5", "strain": "S", "tricks": "10"}, "Level must be a whole number."),
    ({"level": "", "strain": "", "tricks": ""}, "Level is missing: please give it."),
    ({}, "Level is missing: please give it."),
])
def test_form_nonsense_is_400_never_500(client, data, message):
    r = client.post("/checkers/score", data=data, follow_redirects=True)
    assert r.status_code == 400
    # the page says what is wrong with the first bad field, in its error box
    box = re.search(r'<div class="checker-error" role="alert" id="error">\s*<h2>(.*?)</h2>\s*(.*?)\s*</div>',
                    r.get_data(as_text=True), re.S)
    assert box and box.groups() == ("Please check the input", f"<p>{message}</p>")


def test_unknown_checker_page_is_404(client):
    r = client.get("/checkers/no-such")
    assert r.status_code == 404
    # the 404 names what was asked for, then lists the checkers there are
    lead = re.search(r'<p class="lead">(.*?)</p>', r.get_data(as_text=True)).group(1)
    assert lead.split(" Checkers: ")[0] == "There is no checker &#39;no-such&#39;."


def test_provision_fragment_is_url_encoded(app):
    from laws.web.checkers import provision_url
    with app.test_request_context():
        assert provision_url("1993-rubber", "64(d)(iv)").endswith("/1993-rubber/law/64#64(d)(iv)")
        assert provision_url("2007", "35.1").endswith("/2007/law/35#35.1")
        assert provision_url("2007", "12C1(c)").endswith("/2007/law/12#12C1(c)")
        assert provision_url("2007", "64 x").endswith("#64%20x")


# --- no input gets a 500 -------------------------------------------------------

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**20, max_value=10**20),
                         st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=20)
card_like = st.sampled_from(["SA", "S2", "HK", "H10", "HT", "DQ", "D9", "CJ", "C3", "10♥", "♠K", "XX", "", "S"])
call_like = st.sampled_from(["P", "X", "XX", "1C", "1H", "1S", "1NT", "2D", "3NT", "7NT", "8C", "1N", "pass", "Z"])


def _value_for(prop: dict):
    """Values near what the field expects, and anything at all."""
    options = [json_values]
    if "enum" in prop:
        options.append(st.sampled_from(prop["enum"]))
    kind = prop.get("type")
    if kind in ("integer", "number"):
        options.append(st.integers(min_value=-20, max_value=60))
    if kind == "boolean":
        options.append(st.booleans())
    if kind == "array":
        items = prop.get("items", {})
        if "enum" in items:
            options.append(st.lists(st.sampled_from(items["enum"]), max_size=5))
        elif items.get("type") == "integer":
            options.append(st.lists(st.integers(min_value=-3000, max_value=3000), max_size=8))
        elif items.get("type") == "number":
            options.append(st.lists(st.floats(min_value=0, max_value=100), max_size=5))
        else:
            options.append(st.lists(st.one_of(card_like, call_like), max_size=14))
            options.append(st.lists(st.lists(card_like, max_size=4).map(" ".join), max_size=4))
    return st.one_of(*options)


def _payloads(c: registry.Checker):
    props = c.input_schema["properties"]
    shaped = st.fixed_dictionaries({}, optional={k: _value_for(p) for k, p in props.items()})
    return st.one_of(shaped, json_values)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_no_json_input_gets_a_500(app, c):
    client = app.test_client()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_payloads(c))
    def check(payload):
        r = client.post(f"/api/checkers/{c.id}", data=json.dumps(payload), content_type="application/json")
        assert r.status_code in (200, 400), (payload, r.get_json())
        body = r.get_json()
        if r.status_code == 200:
            assert set(body["cites"]) <= set(c.cites[body["edition"]])
            assert body["explanation"]
        else:
            assert body["error"] and "field" in body

    check()


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_no_form_input_gets_a_500(app, c):
    client = app.test_client()
    names = list(c.input_schema["properties"])

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.dictionaries(st.sampled_from(names + ["junk"]),
                           st.one_of(st.text(max_size=20), card_like, call_like,
                                     st.integers(-50, 50).map(str)), max_size=len(names) + 1))
    def check(form):
        r = client.post(f"/checkers/{c.id}", data=form, follow_redirects=True)
        assert r.status_code in (200, 400), form

    check()


def test_the_form_is_sent_with_get_and_a_post_goes_there(client):
    """The result has an address (to share, to come back to) and Back never
    sends the form again: the page's form uses GET; a POST answers 303 to
    the same address."""
    page = client.get("/checkers/score").get_data(as_text=True)
    assert '<form method="get" action="/checkers/score" class="checker-form"' in page
    r = client.post("/checkers/score", data={"level": "4", "strain": "S", "risk": "X", "vulnerable": "on",
                                             "tricks": "11", "check": "1"})
    assert r.status_code == 303
    assert r.headers["Location"] == "/checkers/score?level=4&strain=S&risk=X&vulnerable=on&tricks=11&check=1"
    got = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "990" in got


def test_a_submitted_form_from_a_record_is_checked_not_only_filled(client):
    state = "procedure=misinformation&edition=2017&board=7"
    filled = client.get("/checkers/score?" + urlencode({"record": state, "level": "4", "strain": "S",
                                                        "tricks": "10"}))
    assert 'id="carry"' not in filled.get_data(as_text=True)  # opened from the record: filled in only
    checked = client.get("/checkers/score?" + urlencode({"record": state, "level": "4", "strain": "S",
                                                         "tricks": "10", "check": "1"}))
    assert checked.status_code == 200 and 'id="carry"' in checked.get_data(as_text=True)


# --- what the page carries for its script, and the editions -----------------------

@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_page_embeds_its_data_in_order_for_the_offline_port(client, c):
    html = client.get(f"/checkers/{c.id}").get_data(as_text=True)
    m = re.search(r'<script type="application/json" id="checker-data">(.*?)</script>', html, re.S)
    data = json.loads(m.group(1))
    # the schema's own order (the form's, and the field an error names first)
    assert list(data["schema"]["properties"]) == list(c.input_schema["properties"])
    assert data["schema"] == c.input_schema and data["default"] == c.editions[0] == "2017"
    assert list(data["editions"]) == c.editions
    for ed, d in data["editions"].items():
        assert d["entry"]["cites"] == c.cites[ed]
        assert set(d["cites"]) == set(c.cites[ed])
    assert "<" not in m.group(1) and "&" not in m.group(1)  # nothing that could end the element


def test_team_average_page_says_where_2017_put_it(client):
    html = client.get("/checkers/team-average").get_data(as_text=True)
    assert "2017: The 2017 Laws moved Law 86A&#39;s plus or minus 3 IMPs into 12C2(b)" in html
    assert re.search(r'<p>2017 \(by default\): <a href="/2017/law/12#12C2\(b\)">12C2\(b\)</a>, '
                     r'<a href="/2017/law/12#12C4">12C4</a></p>', html)
    body = client.post("/api/checkers/team-average", json={"adjustment": "average plus"}).get_json()
    assert (body["edition"], body["cites"]) == ("2017", ["12C2(b)"])


def test_the_edition_input_lists_the_code_in_force_first(client):
    html = client.get("/checkers/revoke").get_data(as_text=True)
    select = re.search(r'<select id="f-edition".*?</select>', html, re.S).group()
    assert re.findall(r'<option value="([^"]+)"( selected)?', select) == [
        ("2017", " selected"), ("2007", ""), ("1993-rubber", "")]
