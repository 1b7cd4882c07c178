"""Rulings at the table on the web: POST /api/rulings/auction, the phone
flow at /rulings (each step a plain form; static/rulings/ runs the same
walker over the same data offline), and /rulings/auction.json (the data and
the text of every cited provision, for the offline walker).

Addresses: a ruling is a GET address, `/rulings/auction?edition=2017&dealer=N
&calls=1H+E:1D&accepted=no&replacement=2D` — the calls typed as words, each
`SEAT:CALL` or just `CALL` for the next seat after the previous call; each
finding as a parameter (`yes`/`no`, or a call).
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from flask import Blueprint, Response, has_app_context, jsonify, render_template, request

from laws.rulings import RulingError
from laws.rulings import auction as auction_rulings
from laws.rulings.auction import parse_calls_text
from laws.rulings import data as rulings_data
from laws.web.checkers import cite_links, provision_url
from laws import store
from laws.web.db import build_dir, get_db
from laws.web.site import cached

bp = Blueprint("rulings", __name__)
SEATS = "NESW"


def _served_store():
    """The store of the build served in this request (None outside one): a
    code without rulings files of its own is ruled by the trees the build
    carried into it (laws.rulings.data.store_from)."""
    return build_dir() / store.DB_NAME if has_app_context() else None


@bp.record_once
def _carried_trees(_state):
    rulings_data.store_from(_served_store)


def ruling_cite_links(edition: str, ids) -> list[dict]:
    """`cite_links`, where a carried cite awaiting review ("2017:45F") links
    and is labelled as the older code's provision, never as this code's."""
    out = []
    for cite in ids:
        other, pid = rulings_data.split_cite(cite)
        if other is None:
            out += cite_links(edition, [cite])
        else:
            link = cite_links(other, [pid])[0]
            out.append({**link, "id": cite, "label": rulings_data.older_label(cite, edition)})
    return out


def _error(message: str, field: str | None, status: int = 400):
    return jsonify({"error": message, "field": field}), status


def _store_editions() -> list[str]:
    """Editions that have rulings data and are in the store, newest first."""
    def compute():
        have = {r[0] for r in get_db().execute("select id from editions")}
        return [e for e in rulings_data.editions("auction") if e in have]
    return cached("rulings_editions", compute)


def _laws_in_store(edition: str) -> set[int]:
    return cached(f"rulings_laws:{edition}", lambda: {r[0] for r in get_db().execute(
        "select distinct law from provisions where edition = ?", [edition])})


def rule(payload) -> dict:
    """The ruling, or RulingError (also when the store lacks the edition's law)."""
    editions = _store_editions()
    if isinstance(payload, dict) and isinstance(payload.get("edition"), str) \
            and payload["edition"] in rulings_data.editions("auction") and payload["edition"] not in editions:
        raise RulingError(f"The {payload['edition']} Laws are not in the store.", "edition")
    out = auction_rulings.rule(payload, editions)
    law = out["irregularity"] and out["irregularity"]["law"]
    # a carried code's tree names the older code's law where the new code lacks it ("27 (2017 Laws)")
    if law and "carried_from" not in out and int(law) not in _laws_in_store(out["edition"]):
        raise RulingError(f"Law {law} of the {out['edition']} edition is not in the store yet, so this ruling "
                          "cannot cite it; ask for another edition.", "edition")
    return out


def json_ruling(rule_fn):
    """A POST /api/rulings/<period> reply: the JSON body given to `rule_fn`,
    its ruling as JSON, or 400 {error, field} for a body that is not a JSON
    object or input the ruling refuses (RulingError)."""
    if not request.is_json:
        return _error("Send the request as a JSON object, with the header Content-Type: application/json.", None)
    payload = request.get_json(silent=True)
    if payload is None:
        return _error("The request body is not valid JSON.", None)
    try:
        return jsonify(rule_fn(payload))
    except RulingError as exc:
        return _error(str(exc), exc.field)


@bp.post("/api/rulings/auction")
def api_auction():
    return json_ruling(rule)


# --- the data for the offline walker --------------------------------------------

def provision_texts(edition: str, ids) -> dict:
    db = get_db()
    out = {}
    for cite in sorted(ids):
        other, pid = rulings_data.split_cite(cite)  # a carried cite awaiting review: the older code's
        ed = other or edition
        row = db.execute("select id, law, heading, text from provisions where edition = ? and id = ?",
                         [ed, pid]).fetchone()
        if row is not None:
            kids = [r["text"] for r in db.execute(
                "select text from provisions where edition = ? and parent = ? order by ord", [ed, pid])
                if r["text"]]
            out[cite] = {"heading": row["heading"] or "", "text": row["text"] or "", "children": kids,
                         "url": provision_url(ed, pid)}
            if other:
                out[cite]["label"] = rulings_data.older_label(cite, edition)
    return out


def bundle() -> dict:
    def compute():
        data = rulings_data.load("auction")
        editions = _store_editions()
        return {"editions": {e: data[e] for e in editions},
                # the order the site lists them (the code in force first, the default): a JSON
                # object's keys do not keep it on the phone ("2017" sorts as a number there)
                "order": list(editions),
                "texts": {e: provision_texts(e, rulings_data.cites(data[e])) for e in editions},
                # how the address's parameters become findings (static/rulings/record.js)
                "findings": {"boolean": list(auction_rulings.BOOLEAN_FINDINGS),
                             "call": list(auction_rulings.CALL_FINDINGS)}}
    return cached("rulings_bundle", compute)


@bp.get("/rulings/auction.json")
def auction_json():
    resp = Response(json.dumps(bundle(), separators=(",", ":"), ensure_ascii=False), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


# --- pages --------------------------------------------------------------------------

BOOLEAN = [k for k in auction_rulings.BOOLEAN_FINDINGS]
CALL_FINDINGS = list(auction_rulings.CALL_FINDINGS)


def calls_text(calls: list[list[str]], dealer: str) -> str:
    """The calls as typed: a seat only where it is not the next in turn."""
    words, prev = [], None
    for seat, call in calls:
        expected = dealer if prev is None else SEATS[(SEATS.index(prev) + 1) % 4]
        words.append(call if seat == expected else f"{seat}:{call}")
        prev = seat
    return " ".join(words)


def payload_from_args(args) -> dict:
    dealer = (args.get("dealer") or "N").upper()
    payload = {"edition": args.get("edition") or (_store_editions() or [None])[0], "dealer": dealer,
               "calls": parse_calls_text(args.get("calls", ""), dealer if dealer in SEATS else "N")}
    findings: dict = {}
    for name in BOOLEAN:
        v = args.get(name)
        if v in ("yes", "no"):
            findings[name] = v == "yes"
    for name in CALL_FINDINGS:
        if args.get(name):
            findings[name] = args[name]
    if args.get("required_to_pass"):
        findings["required_to_pass"] = [s for s in re.split(r"[\s,]+", args["required_to_pass"].upper()) if s]
    if args.get("card"):
        seat, _, cards = args["card"].partition(":")
        findings["card"] = {"seat": seat.upper(), "cards": [c for c in re.split(r"[\s,]+", cards) if c],
                            "led": args.get("card_led") == "yes"}
    if args.get("change"):
        change: dict = {"call": args["change"]}
        if (args.get("change_index") or "").isdigit():
            change["index"] = int(args["change_index"])
        findings["change"] = change
    payload["findings"] = findings
    return payload


STATE_KEYS = ["edition", "dealer", "calls", *BOOLEAN, *CALL_FINDINGS, "required_to_pass", "card", "card_led",
              "change", "change_index"]


def _state(args) -> dict:
    return {k: args[k] for k in STATE_KEYS if args.get(k)}


def _differences(a: dict | None, b: dict | None) -> list[str]:
    """Fields of two editions' outcomes that differ, in words."""
    if not a or not b:
        return []
    out = []
    labels = {"offender_partner_must_pass": "offender's partner must pass", "offender_must_pass": "offender must pass",
              "next": "who calls next"}
    for key, label in labels.items():
        if a[key] != b[key]:
            out.append(f"{label}: {a[key] or '—'} / {b[key] or '—'}")
    la = (a["lead_restrictions"] or {}).get("declarer_may")
    lb = (b["lead_restrictions"] or {}).get("declarer_may")
    if la != lb:
        out.append(f"lead restrictions: declarer may {' or '.join(la) if la else 'do nothing'} / "
                   f"{' or '.join(lb) if lb else 'do nothing'}")
    return out


@bp.get("/rulings")
def index():
    return render_template("rulings/index.html")


@bp.get("/rulings/auction")
def auction_page():
    args = request.args
    state = _state(args)
    editions = _store_editions()
    ruling = other = error = None
    status = 200
    edition = state.get("edition") or (editions[0] if editions else "")
    if args.get("calls") or args.get("card"):
        try:
            ruling = rule(payload_from_args(args))
            edition = ruling["edition"]
        except RulingError as exc:
            error, status = f"{exc}", 400
    others = []
    for e in editions:
        if e == edition:
            continue
        try:
            o = rule(payload_from_args({**state, "edition": e})) if ruling else None
        except RulingError:
            o = None
        others.append({"edition": e, "url": "/rulings/auction?" + urlencode({**state, "edition": e}), "ruling": o,
                       "differences": _differences(ruling["outcome"] if ruling else None,
                                                   o["outcome"] if o else None)})
        other = other or o
    texts = bundle()["texts"].get(edition, {}) if ruling else {}
    cites = [dict(link, text=texts.get(link["id"])) for link in ruling_cite_links(edition, ruling["cites"])] \
        if ruling else []
    question = ruling["questions"][0] if ruling and ruling["questions"] else None
    hidden = {k: v for k, v in state.items() if not question or k != question["id"]}
    return render_template("rulings/auction.html", ruling=ruling, error=error, state=state, edition=edition,
                           editions=editions, others=others, cites=cites, question=question, hidden=hidden,
                           names=auction_rulings.NAMES, restart_url="/rulings/auction?" + urlencode(
                               {"edition": edition, "dealer": state.get("dealer", "N")})), status


@bp.app_template_filter("provision_url")
def _provision_url_filter(pid: str, edition: str) -> str:
    other, own = rulings_data.split_cite(pid)  # a carried cite awaiting review: the older code's provision
    return provision_url(other or edition, own)


@bp.app_context_processor
def _rulings_for_law():
    def rulings_for(edition: str, number) -> list[dict]:
        """The rulings that apply a provision of this law in this edition (law pages link to them)."""
        try:
            n = int(number)
        except (TypeError, ValueError):
            return []
        titles = {"auction": "Ruling at the table: irregularities in the auction",
                  "play": "Ruling at the table: irregularities in the play"}
        return [{"url": f"/rulings/{period}?" + urlencode({"edition": edition}), "title": title}
                for period, title in titles.items()
                if n in rulings_data.laws_cited(period).get(edition, set())]
    return {"rulings_for": rulings_for}
