"""Each result offers the next step, with the facts known carried over:
board → score (the declaring side's vulnerability) → IMPs (the difference)
or matchpoints (the scores) → into the ruling record (laws/web/checkers.py
next_steps; static/checkers/page.js makes the same links offline)."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import pytest


def _links(html: str) -> list[tuple[str, str]]:
    nav = re.search(r'<nav class="next-steps".*?</nav>', html, re.S)
    if not nav:
        return []
    return [(unescape(h), unescape(t)) for h, t in re.findall(r'<a class="next-step" href="([^"]+)">([^<]+)</a>', nav.group())]


@pytest.mark.parametrize("board, ns, ew", [
    (7, True, True),     # Law 2: Board 7, both vulnerable
    (1, False, False),   # Board 1: neither
    (2, True, False),    # Board 2: North-South
    (19, False, True),   # Board 19 is Board 3 of the cycle: East-West
])
def test_board_leads_to_the_score_with_each_sides_vulnerability(client, board, ns, ew):
    html = client.get(f"/checkers/board?board={board}").get_data(as_text=True)
    assert _links(html) == [
        ("/checkers/score?" + ("vulnerable=on&" if ns else "") + "fill=1",
         f"Score a contract by North-South ({'vulnerable' if ns else 'not vulnerable'})"),
        ("/checkers/score?" + ("vulnerable=on&" if ew else "") + "fill=1",
         f"Score a contract by East-West ({'vulnerable' if ew else 'not vulnerable'})")]


def test_fill_fills_the_form_without_checking_it(client):
    r = client.get("/checkers/score?vulnerable=on&fill=1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="result"' not in html and 'id="error"' not in html
    assert re.search(r'id="f-vulnerable" name="vulnerable" checked', html)


def test_score_leads_to_imps_and_matchpoints_and_the_record(client):
    html = client.get("/checkers/score?level=4&strain=S&risk=X&vulnerable=on&tricks=11&check=1").get_data(as_text=True)
    assert _links(html) == [
        ("/checkers/imps?difference=990&fill=1", "IMPs: the difference from +990, less the other table's score"),
        ("/checkers/matchpoints?scores=990&fill=1", "Matchpoints: +990 with the other scores on the board")]
    form = re.search(r'<form class="carry" id="next-record" method="get" action="/rulings/record">(.*?)</form>', html, re.S)
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(1)))
    assert hidden == {"procedure": "adjusted-score", "edition": "2017",
                      "calc": "score;level=4;strain=S;risk=X;vulnerable=yes;tricks=11"}
    assert 'name="calc_declarer"' in form.group(1)


def test_the_score_carried_into_the_record_is_the_checkers(client):
    r = client.get("/rulings/record?procedure=adjusted-score&edition=2017&calc=score;level=4;strain=S;risk=X;"
                   "vulnerable=yes;tricks=11&calc_declarer=E")
    assert r.status_code == 303
    page = client.get(r.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "4SX by East (vulnerable), 11 tricks, made with 1 overtrick: EW +990" in html


def test_the_imps_page_filled_from_a_score_then_checked(client):
    filled = client.get("/checkers/imps?difference=990&fill=1").get_data(as_text=True)
    assert 'id="f-difference" name="difference" value="990"' in filled and 'id="result"' not in filled
    html = client.get("/checkers/imps?difference=450&check=1").get_data(as_text=True)
    (href, label), = _links(html)
    assert label == "Into a ruling record (adjusted score)"
    # the adjustment is a record field: in the fragment (the phone's), never in the query
    query = dict(parse_qsl(urlsplit(href).query))
    assert query == {"procedure": "adjusted-score", "edition": "2017"}
    assert dict(parse_qsl(urlsplit(href).fragment)) == {"adjustment": "+10 IMPs (a difference of 450, Law 78B)"}
    assert client.get(href).status_code == 200


def test_matchpoints_lead_to_the_record_with_the_first_score(client):
    html = client.get("/checkers/matchpoints?scores=990+420+420+-50&check=1").get_data(as_text=True)
    (href, _), = _links(html)
    assert dict(parse_qsl(urlsplit(href).fragment))["adjustment"] == "990: 6 matchpoints on a top of 6 (100 %, Law 78A)"
    assert client.get(href).status_code == 200


def test_a_2007_result_goes_into_a_2007_record(client):
    html = client.get("/checkers/artificial-score?fault=none&scoring=imps&edition=2007&check=1").get_data(as_text=True)
    form = re.search(r'<form class="carry" id="next-record".*?</form>', html, re.S).group()
    assert '<input type="hidden" name="edition" value="2007">' in form
    assert "calc\" value=\"artificial-score;fault=none;scoring=imps;edition=2007\"" in form
    assert 'name="calc_side"' in form


def test_no_next_step_for_an_error_or_a_checker_with_none(client):
    assert _links(client.get("/checkers/score?level=9&strain=S&tricks=1").get_data(as_text=True)) == []
    html = client.get("/checkers/trick?cards=HK+H4+S2+HA&trumps=S&check=1").get_data(as_text=True)
    assert 'class="next-steps"' not in html


def test_a_result_opened_from_a_record_offers_its_own_way_back_only(client):
    state = "procedure=misinformation&edition=2017&board=7"
    html = client.get("/checkers/score?record=" + state.replace("&", "%26").replace("=", "%3D")
                      + "&level=4&strain=S&tricks=10&check=1").get_data(as_text=True)
    assert 'id="carry"' in html and 'class="next-steps"' not in html
