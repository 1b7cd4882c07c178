"""POST /api/rulings/play and the /rulings/play pages: JSON in the shape of
CONTRACT.md, 4xx with the field for bad input, the data bundle for offline."""
from __future__ import annotations

import pytest

OLOOT = {"edition": "2017", "contract": "4S", "declarer": "S", "play": [["E", "HK"]],
         "findings": {"misinformed": False, "saw_dummy": False, "choice": "refuse", "lead_choice": "free"}}


def test_ruling_in_the_contract_shape(client):
    r = client.post("/api/rulings/play", json=OLOOT)
    assert r.status_code == 200 and r.content_type == "application/json"
    body = r.get_json()
    assert list(body)[:7] == ["edition", "irregularity", "questions", "options", "outcome", "say", "cites"]
    assert body["irregularity"] == {"index": 0, "seat": "E", "kind": "opening-lead-out-of-turn", "law": "54",
                                    "trick": 1, "card": "HK"}
    assert body["outcome"]["penalty_cards"] == [{"seat": "E", "card": "HK", "kind": "major"}]
    assert body["outcome"]["next"] == "W"
    assert {"54D", "50D2(b)", "50E1"} <= set(body["cites"])


def test_questions_come_one_at_a_time(client):
    body = client.post("/api/rulings/play", json=dict(OLOOT, findings={})).get_json()
    assert [q["id"] for q in body["questions"]] == ["misinformed"] and body["outcome"] is None


@pytest.mark.parametrize("payload, status, field", [
    ({"contract": "4S", "declarer": "S", "play": [["E", "H1"]]}, 400, "play"),
    ({"contract": "4S", "declarer": "Q"}, 400, "declarer"),
    ({"contract": "4S", "declarer": "S", "edition": "1997"}, 400, "edition"),
    ({"contract": "4S", "declarer": "S", "play": [["E", "HK"]], "findings": {"choice": 3.5}}, 400, "findings"),
    ([1, 2], 400, None),
])
def test_bad_input(client, payload, status, field):
    r = client.post("/api/rulings/play", json=payload)
    assert r.status_code == status
    assert r.get_json()["field"] == field and r.get_json()["error"]


def test_not_json(client):
    assert client.post("/api/rulings/play", data="x").status_code == 400
    r = client.post("/api/rulings/play", data="{", content_type="application/json")
    assert r.status_code == 400 and "not valid JSON" in r.get_json()["error"]


def test_page_is_a_plain_form_that_rules(client):
    r = client.get("/rulings/play?edition=2007&contract=4S&declarer=S&play=W:HK+N:H2+E:H5+S:HA+W:D3"
                   "&misinformed=no&choice=retract")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "defender lead out of turn by West" in html and "W: D3 (major)".replace("W", "West") in html
    assert 'href="/2007/law/56#56"' in html or "/2007/law/56" in html
    r = client.get("/rulings/play?contract=4S&declarer=S&play=W:HK:dropped")
    assert r.status_code == 400 and "marker" in r.get_data(as_text=True)


def test_the_rubber_code_rules_when_asked(client):
    """Edition 1993-rubber: its own Laws by their own ids, and where it has no
    law, a ruling that says so and cites nothing from another edition."""
    body = client.post("/api/rulings/play", json=dict(OLOOT, edition="1993-rubber")).get_json()
    assert body["edition"] == "1993-rubber" and body["irregularity"]["law"] == "54"
    assert body["outcome"]["penalty_cards"] == [{"seat": "E", "card": "HK", "kind": "major"}]
    assert body["cites"] == ["54", "54(d)", "56(b)", "50"]
    facedown = {"edition": "1993-rubber", "contract": "4S", "declarer": "S", "play": [["E", "HK", "facedown"]]}
    body = client.post("/api/rulings/play", json=facedown).get_json()
    assert body["cites"] == [] and "The 1993 rubber code has no law on a face-down opening lead" in body["say"]
    r = client.get("/rulings/play?edition=1993-rubber&contract=4S&declarer=S&play=E:HK&misinformed=no")
    assert r.status_code == 200 and 'href="/1993-rubber/law/54' in r.get_data(as_text=True)


def test_bundle_has_every_edition_and_the_cited_texts(client):
    body = client.get("/rulings/play.json").get_json()
    assert set(body["editions"]) == {"2007", "2017", "1993-rubber"}
    assert body["texts"]["1993-rubber"]["64(d)(v)"]["text"].startswith("the revoke was on the 12th trick")
    assert body["texts"]["2017"]["57A3"]["text"].startswith("require")
    assert "57A3" in body["texts"]["2007"] and "forbid" in body["texts"]["2007"]["57A3"]["text"]


def test_rulings_index_offers_the_play(client):
    assert "/rulings/play" in client.get("/rulings").get_data(as_text=True)


def _page_of(case: dict, edition: str) -> str:
    from urllib.parse import urlencode

    play = " ".join(":".join(card) for card in case["play"])
    findings = {k: ("yes" if v is True else "no" if v is False else v) for k, v in case["findings"].items()}
    return "/rulings/play?" + urlencode({"edition": edition, "contract": case["contract"],
                                         "declarer": case["declarer"], "play": play, **findings})


def test_2007_differs_only_where_its_outcome_does(client):
    """"The 2007 Laws differ here" only when the 2007 outcome differs; where
    only the provisions' numbers do (2007 16D for 2017 16C), the page says so."""
    import json
    from pathlib import Path

    from laws.rulings import play

    cases = json.loads((Path(__file__).parent / "fixtures" / "rulings_play.json").read_text())["cases"]
    seen = {"differ": 0, "numbers": 0}
    for case in cases:
        request = {k: case[k] for k in ("contract", "declarer", "play", "findings")}
        try:
            new, old = (play.rule({**request, "edition": e}, ["2017", "2007"]) for e in ("2017", "2007"))
        except Exception:  # a case of the rubber code only, or one that asks first
            continue
        if not (new["outcome"] and old["outcome"]) or new["cites"] == old["cites"] and new["outcome"] == old["outcome"]:
            continue
        page = client.get(_page_of(case, "2017")).get_data(as_text=True)
        if new["outcome"] != old["outcome"]:
            assert "The 2007 Laws differ here." in page, case["id"]
            seen["differ"] += 1
        else:
            assert "The 2007 Laws differ here." not in page, case["id"]
            assert "The 2007 Laws give the same result here; only the numbers of the provisions differ." in page
            seen["numbers"] += 1
    assert seen["differ"] > 20 and seen["numbers"] > 10, seen


def test_a_request_without_an_edition_is_ruled_in_the_code_in_force(client):
    """The play and auction rulings default to the code the manifest marks in
    force (CONTRACT: `edition` may be left out)."""
    from pathlib import Path

    from laws import manifest

    in_force = [e.id for e in manifest.load(Path(__file__).resolve().parents[1] / "corpus").editions if e.in_force]
    play = client.post("/api/rulings/play", json={k: v for k, v in OLOOT.items() if k != "edition"}).get_json()
    auction = client.post("/api/rulings/auction", json={"dealer": "N", "calls": [["N", "1H"], ["E", "1D"]],
                                                        "findings": {}}).get_json()
    assert [play["edition"], auction["edition"]] == in_force * 2
