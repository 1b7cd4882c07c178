"""Rulings on irregularities in the play, on the web: POST /api/rulings/play,
the phone flow at /rulings/play (each step a plain form; the card picker and
the same facts and walker run in static/rulings/ offline), and
/rulings/play.json (the data and the text of every cited provision).

A ruling is a GET address: `/rulings/play?edition=2017&contract=4S
&declarer=S&play=W:HK+N:H2+E:S5:exposed&held=no&unintentional=yes` — each card
`SEAT:CARD` or `SEAT:CARD:MARKER`, each finding a parameter (`yes`/`no`, or
the answer's word); `trick=5` when the play entered starts at trick 5, and
`seat=W` for the seat at fault whose card is entered alone
(`/rulings/play?contract=4S&declarer=S&trick=5&seat=W&play=W:C3:revoke`).
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from flask import Blueprint, Response, render_template, request

from laws.rulings import RulingError
from laws.rulings import data as rulings_data
from laws.rulings import play as play_rulings
from laws.web.db import get_db
from laws.web.rulings import json_ruling, provision_texts, ruling_cite_links
from laws.web.site import cached

bp = Blueprint("rulings_play", __name__)
NAMES = play_rulings.SEAT_NAMES


def editions() -> list[str]:
    """Editions with play rulings whose play laws are in the store, newest first."""
    def compute():
        db = get_db()
        # a code whose play rulings were carried into it cites only provisions the store has
        return [e for e in rulings_data.editions("play") if "carried" in rulings_data.load("play")[e] or
                db.execute("select count(distinct law) from provisions where edition = ? and law between 41 "
                           "and 67", [e]).fetchone()[0] >= 27]
    return cached("rulings_play_editions", compute)


def rule(payload) -> dict:
    return play_rulings.rule(payload, editions())


@bp.post("/api/rulings/play")
def api_play():
    return json_ruling(rule)


def bundle() -> dict:
    def compute():
        data = rulings_data.load("play")
        eds = editions()
        texts = {}
        for e in eds:
            ids: set = set()
            _collect(data[e], ids)
            ids.add("58A")  # play.rule cites it itself for a simultaneous card, outside the trees
            texts[e] = provision_texts(e, ids)
        # findings: the address's parameters that are findings (static/rulings/record.js)
        return {"editions": {e: data[e] for e in eds}, "order": list(eds), "texts": texts, "findings": finding_names(),
                "starters": play_rulings.STARTERS}
    return cached("rulings_play_bundle", compute)


def _collect(value, out: set) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(v) if k == "cites" else _collect(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect(v, out)


@bp.get("/rulings/play.json")
def play_json():
    resp = Response(json.dumps(bundle(), separators=(",", ":"), ensure_ascii=False), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


# --- the page ------------------------------------------------------------------------

def parse_play_text(text: str) -> list[list[str]]:
    """'W:HK N:H2 E:S5:exposed' -> [['W','HK'], ['N','H2'], ['E','S5','exposed']]."""
    out = []
    for token in re.split(r"[\s,;+]+", text.strip()):
        if not token:
            continue
        parts = token.split(":")
        if len(parts) not in (2, 3) or parts[0].upper() not in NAMES:
            raise RulingError(f"{token!r}: write each card as SEAT:CARD (like W:HK), with :exposed, :facedown, "
                              ":simultaneous, :revoke, :penalty, :minor, :changed, :fifth or :retract after it if need be.", "play")
        out.append([parts[0].upper(), parts[1].upper()] + ([parts[2].lower()] if len(parts) == 3 else []))
    return out


def play_text(play: list) -> str:
    return " ".join(":".join(e) for e in play)


def finding_names() -> list[str]:
    names: set = {"defective", "dummy_act"}
    for data in rulings_data.load("play").values():
        names |= set(play_rulings.answerable(data))
    return sorted(names)


# the address's parameters of a play ruling that are not findings
FIELDS = ["edition", "contract", "declarer", "trick", "seat", "play"]


def payload_from_args(args) -> dict:
    findings = {}
    for name in finding_names():
        v = args.get(name)
        if v:
            findings[name] = True if v == "yes" else False if v == "no" else v
    payload = {"edition": args.get("edition") or (editions() or [None])[0],
               "contract": args.get("contract") or "", "declarer": (args.get("declarer") or "").upper(),
               "play": parse_play_text(args.get("play", "")), "findings": findings}
    trick = (args.get("trick") or "").strip()
    if trick:  # text that is not a number goes on as it is, for the ruling to refuse naming the field
        payload["trick"] = int(trick) if trick.isascii() and trick.isdigit() and len(trick) < 4 else trick
    if args.get("seat"):
        payload["seat"] = args["seat"].strip().upper()
    return payload


@bp.get("/rulings/play")
def play_page():
    args = request.args
    keys = [*FIELDS, *finding_names()]
    state = {k: args[k] for k in keys if args.get(k)}
    eds = editions()
    edition = state.get("edition") or (eds[0] if eds else "")
    ruling = error = None
    status = 200
    if args.get("contract"):
        try:
            ruling = rule(payload_from_args(args))
            edition = ruling["edition"]
        except RulingError as exc:
            error, status = str(exc), 400
    others = []
    for e in eds:
        if e == edition or not ruling:
            continue
        try:
            o = rule(payload_from_args({**state, "edition": e}))
        except RulingError:
            o = None
        # "differ" only where the outcome does: another number for the same
        # rule (2007 57C1 for 2017 57C2) is said as such
        both = bool(o and ruling["outcome"] and o["outcome"])
        others.append({"edition": e, "url": "/rulings/play?" + urlencode({**state, "edition": e}), "ruling": o,
                       "differs": both and o["outcome"] != ruling["outcome"],
                       "numbering": both and o["outcome"] == ruling["outcome"] and o["cites"] != ruling["cites"]})
    texts = bundle()["texts"].get(edition, {}) if ruling else {}
    cites = [dict(link, text=texts.get(link["id"])) for link in ruling_cite_links(edition, ruling["cites"])] \
        if ruling else []
    question = ruling["questions"][0] if ruling and ruling["questions"] else None
    hidden = {k: v for k, v in state.items() if not question or k != question["id"]}
    return render_template("rulings/play.html", ruling=ruling, error=error, state=state, edition=edition,
                           editions=eds, others=others, cites=cites, question=question, hidden=hidden, names=NAMES,
                           starters=play_rulings.STARTERS,
                           restart_url="/rulings/play?" + urlencode({"edition": edition})), status
