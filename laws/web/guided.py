"""Guided rulings and ruling records on the web.

- `POST /api/rulings/guided` {"edition", "procedure", "answers"}: the next
  question or the ending (laws.rulings.guided.rule); `GET /api/rulings/guided`
  lists the procedures of each edition.
- `/rulings/guided`, `/rulings/guided/<procedure>?edition=&<question>=<answer>…`:
  one question at a time as a plain form; the address holds the answers.
- `/rulings/record?procedure=…&edition=…&<answers>&calc=…#date=…&event=…&board=…&facts=…&north=…`:
  the ruling record, reopened from its own address (nothing is stored on the
  server); `/rulings/record.txt` the same as plain text.  The query carries
  ONLY the procedure, the edition, the answers (or the auction's or play's
  own facts) and `calc`; the record's own fields (date, event, board, table
  result, facts, appeal period, typed adjustment) and the people's names and
  the hands are in the fragment (#…), which never reaches the server: the
  server ignores them in a query (an old address), never writes them into a
  page, and prints blank lines where they go; static/rulings/record.js fills
  them in on the phone and moves an old address's into the fragment. `procedure=auction`
  or `procedure=play` makes the record of an auction or play ruling from that
  page's parameters. Each `calc` parameter carries one result of a score
  checker (`score;level=4;strain=S;tricks=10;declarer=S;weight=30`), run
  again here; `/checkers/<id>?record=<the record's query>` opens a checker
  for the record and carries its result back.
- `/rulings/guided.json`: the procedures, the text of every provision they cite
  and the definitions of their terms, for static/rulings/guided.js offline.
"""
from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, redirect, render_template, request

from laws.rulings import RulingError
from laws.rulings import data as rulings_data
from laws.rulings import guided, record
from laws.web.checkers import provision_url
from laws.web.db import get_db
from laws.web.render import definition_url
from laws.web.rulings import json_ruling, ruling_cite_links
from laws.web.site import cached

bp = Blueprint("guided", __name__)


def available() -> list[str]:
    """Editions with guided procedures whose text is in the store, newest first."""
    def compute():
        have = {r[0] for r in get_db().execute("select distinct edition from provisions")}
        return [e for e in guided.editions() if e in have]
    return cached("guided_editions", compute)


@bp.get("/api/rulings/guided")
def api_list():
    return jsonify([{"edition": e, "procedures": guided.procedures(e)} for e in available()])


@bp.post("/api/rulings/guided")
def api_rule():
    return json_ruling(lambda payload: guided.rule(payload, available()))


# --- the data for the offline pages ---------------------------------------------

def _definitions(edition: str, data: dict) -> dict:
    terms = {t for _, n in rulings_data.all_nodes(data) for t in (n.get("ask") or {}).get("terms", [])}
    rows = get_db().execute("select id, term, text from definitions where edition = ?", [edition])
    return {r["term"]: {"text": r["text"], "url": definition_url(edition, r["id"])} for r in rows if r["term"] in terms}


def _cited(data: dict) -> set[str]:
    out = rulings_data.cites(data)
    for _, node in rulings_data.all_nodes(data):
        out.update(((node.get("outcome") or {}).get("penalty") or {}).get("cites", []))
    return out


def _texts(edition: str, data: dict) -> dict:
    out = {}
    for p in record.provision_texts(get_db(), edition, sorted(_cited(data))):
        # a carried cite awaiting review ("2017:45F") is the older code's provision, labelled as such
        other, pid = rulings_data.split_cite(p["id"])
        out[p["id"]] = {"heading": p["heading"], "text": p["text"], "url": provision_url(other or edition, pid)}
        if other:
            out[p["id"]]["label"] = rulings_data.older_label(p["id"], edition)
    return out


def bundle() -> dict:
    def compute():
        data = guided.load()
        return {"editions": {e: data[e] for e in available()}, "order": available(),
                "texts": {e: _texts(e, data[e]) for e in available()},
                "definitions": {e: _definitions(e, data[e]) for e in available()},
                # the record's words and the board checker's table, for static/rulings/record.js
                "record": record_words()}
    return cached("guided_bundle", compute)


@bp.get("/rulings/guided.json")
def bundle_json():
    resp = Response(json.dumps(bundle(), separators=(",", ":"), ensure_ascii=False), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


# --- pages ------------------------------------------------------------------------

def _edition(args) -> str:
    eds = available()
    e = args.get("edition") or (eds[0] if eds else "")
    if e not in eds:
        raise RulingError(f"Unknown edition {e!r}: guided rulings exist for {', '.join(eds)}.", "edition")
    return e


def _answers(args, edition: str, procedure: str) -> dict:
    questions = guided.asks(guided.load()[edition], procedure)
    return {k: args[k] for k in questions if args.get(k)}


def _state_url(path: str, edition: str, answers: dict, **extra) -> str:
    return f"{path}?" + urlencode({"edition": edition, **answers, **{k: v for k, v in extra.items() if v}})


def step_view(procedure: str, args) -> dict:
    """Everything the step page shows (also the record form's state)."""
    edition = _edition(args)
    if procedure not in guided.load()[edition]["kinds"]:
        raise RulingError(f"There is no guided procedure {procedure!r}.", "procedure")
    answers = _answers(args, edition, procedure)
    ruling = guided.rule({"edition": edition, "procedure": procedure, "answers": answers}, available())
    path = f"/rulings/guided/{procedure}"
    steps, so_far = [], {}
    for a in ruling["answered"]:
        steps.append({**a, "change": _state_url(path, edition, so_far),
                      "cites": ruling_cite_links(edition, a["cites"])})
        so_far[a["id"]] = a["value"]
    kept = {a["id"]: a["value"] for a in ruling["answered"]}
    question = ruling["questions"][0] if ruling["questions"] else None
    if question:
        question = {**question, "cites": ruling_cite_links(edition, question["cites"]),
                    "terms": [{**t, "url": definition_url(edition, t["id"])} for t in question["terms"]]}
    texts = bundle()["texts"].get(edition, {})
    others = []
    for e in available():
        # an edition with a subset of the procedures (the rubber code's) gets no tab for one it lacks
        if e != edition and procedure in guided.load()[e]["kinds"]:
            valid = guided.asks(guided.load()[e], procedure)
            others.append({"edition": e, "url": _state_url(path, e, {k: v for k, v in kept.items() if k in valid
                                                                    and v in valid[k]["answers"]})})
    return {"ruling": ruling, "edition": edition, "procedure": procedure, "steps": steps, "question": question,
            "answers": kept, "others": others,
            "cites": [dict(c, text=texts.get(c["id"])) for c in ruling_cite_links(edition, ruling["cites"])],
            "restart": _state_url(path, edition, {}),
            "record_url": _state_url("/rulings/record", edition, kept, procedure=procedure)}


@bp.get("/rulings/guided")
def index():
    eds = available()
    procedures = guided.procedures(eds[0]) if eds else []
    # an edition with only some of the procedures (the rubber code: those of its Laws 41 to 71) lists its own
    ids = [p["id"] for p in procedures]
    full = [e for e in eds if list(guided.load()[e]["kinds"]) == ids]
    partial = [{"edition": e, "procedures": guided.procedures(e)} for e in eds if e not in full]
    return render_template("rulings/guided_index.html", editions=full, partial=partial, procedures=procedures)


@bp.get("/rulings/guided/<procedure>")
def step(procedure: str):
    try:
        view = step_view(procedure, request.args)
    except RulingError as exc:
        return render_template("error.html", status=400 if exc.field != "procedure" else 404,
                               message=str(exc)), 400 if exc.field != "procedure" else 404
    return render_template("rulings/guided.html", state=request.query_string.decode(), **view)


def in_code(checker, edition: str | None, codes):
    """The store's codes (laws.web.checkers.store_codes) with `edition` the
    one `checker` answers in by default, where it offers that code: a
    record's checker result is worked out by the record's code, as
    /api/checkers/<id> works it out when that code is in force (its cites
    carried, its note), whichever code is in force today."""
    if edition is not None and edition in checker.editions_for(codes):
        return replace(codes, in_force=edition)
    return codes


def _carried_note(out: dict) -> dict:
    """The checker reply's note in a code its data was carried into
    (registry._carried_reply): whose rules, reviewed or not, what changed."""
    return {k: out[k] for k in ("carried_from", "reviewed", "review") if k in out}


def _by(checker_id: str, edition: str, note: dict) -> str:
    """Who computed a carried result, in the record's words; in a carried
    code, by whose rules and whether they are reviewed."""
    by = f"the {checker_id.replace('-', ' ')} checker"
    if not note:
        return by
    how = f"the {note['carried_from']} rules carried into the {edition} Laws"
    return f"{by} ({how}, " + ("each provision cited the same or reviewed)" if note["reviewed"]
                               else f"{note['review']})")


def carried(args, edition: str | None = None) -> dict | None:
    """The adjusted score carried from the score checkers (`calc` parameters),
    each checker run again on its input, in the record's `edition`: the
    record shows what the checker gives, never a number typed in."""
    from laws.checkers import registry
    from laws.errors import BadInput
    from laws.web.checkers import form_to_input, store_codes
    items = []
    for c in record.parse_carried(args.getlist("calc") if hasattr(args, "getlist") else args.get("calc", [])):
        checker = registry.get(c["checker"])
        codes = in_code(checker, edition, store_codes())
        try:
            inp = form_to_input(checker, c["fields"], checker.schema(codes))
            out = registry.run(checker.id, inp, codes)
        except BadInput as exc:
            raise RulingError(f"The {checker.title.lower()} carried into this record: {exc}", "calc") from None
        item, note = record.adjusted_line(checker.id, inp, out, c["extra"]), _carried_note(out)
        items.append({**item, **note, "by": _by(checker.id, out["edition"], note)})
    return record.adjusted(items)


MECHANICAL = ("auction", "play")


def _mechanical(procedure: str):
    """The web module of a mechanical ruling: its payload_from_args and rule."""
    if procedure == "auction":
        from laws.web import rulings as module
    else:
        from laws.web import rulings_play as module
    return module


def board_info(ctx: dict, edition: str | None = None) -> dict | None:
    """The board's dealer and vulnerability, computed by the board checker
    (Law 2) in `edition` (else the code it answers in by default), as the
    phone computes them from the same table (record.js boardInfo).  The
    server never has a board number (the record's fields stay on the phone):
    this is the phone's rule in Python, which the tests hold the phone to."""
    tables = record_words()["board"]
    table = tables["editions"].get(edition) or tables["editions"][tables["default"]]
    n = record.board_number(ctx)
    if n is None:
        return None
    dealer, vulnerable = table["cycle"][(n - 1) % len(table["cycle"])]
    return {**record.board_line(dealer, vulnerable, table["cites"], table["law"]), **table.get("carried", {})}


def record_words() -> dict:
    """The record's words and the board checker's tables, for
    static/rulings/record.js (the record page, and the offline bundle)."""
    return cached("record_words", lambda: {**record.WORDS, "board": board_tables()})


def board_tables() -> dict:
    """The board checker's dealer and vulnerability for each place in Law 2's
    cycle (boards repeat every 16), in each code it offers, for
    static/rulings/record.js offline: a record's board line is worked out
    by its own code's board checker, carried into it or not."""
    from laws.checkers import registry
    from laws.web.checkers import store_codes
    codes = store_codes()
    board = registry.get("board")
    eds = board.editions_for(codes)
    return {"default": eds[0], "editions": {ed: _board_table(ed, in_code(board, ed, codes)) for ed in eds}}


def _board_table(edition: str, codes) -> dict:
    from laws.checkers import registry
    rows = [registry.run("board", {"board": n}, codes) for n in range(1, 17)]
    cites = rows[0]["cites"]
    table = {"cycle": [[r["result"]["dealer"], r["result"]["vulnerable"]] for r in rows], "cites": cites,
             "law": _law_words(cites, edition)}
    note = _carried_note(rows[0])
    if note:
        table["carried"] = note
    return table


def _law_words(cites: list[str], edition: str) -> str:
    """The provisions a board line names: "Law 2"; an older code's awaiting
    review as such ("Law 2 of the 2017 Laws, not yet reviewed for 2027")."""
    own = [c for c in cites if rulings_data.split_cite(c)[0] is None]
    older = [f"Law {pid} of the {other} Laws, not yet reviewed for {edition}"
             for other, pid in (rulings_data.split_cite(c) for c in cites if c not in own)]
    return "; ".join(([f"Law {', '.join(own)}"] if own else []) + older)


def make_record(args) -> dict:
    """The record of the ruling in `args` (a query): the procedure, edition,
    answers and `calc` only — a record field in a query (an old address) is
    not read: those are the phone's (record.FRAGMENT_FIELDS)."""
    ctx, board = {}, None
    procedure = args.get("procedure") or ""
    if procedure in MECHANICAL:
        web = _mechanical(procedure)
        payload = web.payload_from_args(args)
        ruling = web.rule(payload)
        data = rulings_data.load(procedure)[ruling["edition"]]
        steps, also = record.answered(web.rule, payload, record.asked(data))
        adj = carried(args, ruling["edition"])
        texts = record.provision_texts(get_db(), ruling["edition"],
                                       record.cited({"answered": steps, "cites": ruling["cites"]}, adj))
        facts = record.entered(procedure, args, also, ruling.get("irregularity"))
        return record.from_mechanical(procedure, ruling, steps, facts, ctx, texts, adj, board)
    edition = _edition(args)
    if procedure not in guided.load()[edition]["kinds"]:
        raise RulingError(f"There is no ruling procedure {procedure!r}.", "procedure")
    ruling = guided.rule({"edition": edition, "procedure": procedure,
                          "answers": _answers(args, edition, procedure)}, available())
    adj = carried(args, edition)
    texts = record.provision_texts(get_db(), edition, record.cited(ruling, adj))
    return record.from_guided(ruling, ctx, texts, adj, board)


def _canonical(args) -> str | None:
    """A checker's result carried in by a plain form comes with its record's
    fields apart (`calc_declarer`, `calc_weight`, `calc_side`): they belong
    to the last `calc`.  The record's own address, or None if it is one."""
    extra = {k[5:]: args.get(k) for k in ("calc_declarer", "calc_weight", "calc_side") if k in args}
    if not extra:
        return None
    pairs = [(k, v) for k, v in args.items(multi=True) if not k.startswith("calc_")]
    last = max((i for i, (k, _) in enumerate(pairs) if k == "calc"), default=None)
    if last is not None:
        add = ";".join(f"{k}={v.strip()}" for k, v in extra.items() if v and v.strip() and ";" not in v)
        if add:
            pairs[last] = ("calc", f"{pairs[last][1]};{add}")
    return "/rulings/record?" + urlencode(pairs)


def _calc_links(rec: dict, args) -> dict:
    """The checkers that compute the adjusted score, opened for this record,
    and each carried result's way out of it."""
    state = urlencode(list(args.items(multi=True)))
    scores = [i for i in (rec.get("adjusted") or {}).get("results", []) if i["checker"] == "score"]
    links = [{"id": "score", "title": "Score a result (Law 77)",
              "url": "/checkers/score?" + urlencode({"record": state})}]
    if scores:
        weights = [i["weight"] for i in scores]
        prefill = {"outcomes": " ".join(str(i["ns_score"]) for i in scores)}
        if all(w is not None for w in weights):
            prefill["weights"] = " ".join(str(w) for w in weights)
        links.append({"id": "weighted-score", "title": "Weight the results (Law 12C1(c))",
                      "url": "/checkers/weighted-score?" + urlencode({"record": state, **prefill})})
    links.append({"id": "artificial-score", "title": "Artificial score (Law 12C2)",
                  "url": "/checkers/artificial-score?" + urlencode({"record": state})})
    calcs = [i for i, (k, _) in enumerate(args.items(multi=True)) if k == "calc"]
    pairs = list(args.items(multi=True))
    remove = ["/rulings/record?" + urlencode([p for j, p in enumerate(pairs) if j != i]) for i in calcs]
    return {"links": links, "remove": remove}


def _query_args():
    """The request's query without the record's own fields (an old address
    carried them there): nothing of them is read, linked or echoed."""
    from werkzeug.datastructures import ImmutableMultiDict
    state = record.query_state(request.query_string.decode("utf-8", "replace"))
    return state, ImmutableMultiDict([(k, v) for k, v in request.args.items(multi=True)
                                      if k not in record.FRAGMENT_FIELDS])


@bp.get("/rulings/record")
def record_page():
    state, args = _query_args()
    if not args.get("procedure"):
        # the shell kept for offline use: the page's script makes the record from its address
        return render_template("rulings/record.html", rec=None, text="", state="",
                               fragment_fields=sorted(record.FRAGMENT_FIELDS))
    canonical = _canonical(args)
    if canonical:
        return redirect(canonical, 303)
    try:
        rec = make_record(args)
    except RulingError as exc:
        return render_template("error.html", status=400, message=str(exc)), 400
    return render_template("rulings/record.html", rec=rec, text=record.as_text(rec), query=args,
                           state=state, context_fields=record.CONTEXT_FIELDS,
                           fragment_fields=sorted(record.FRAGMENT_FIELDS),
                           private_fields=record.PRIVATE_FIELDS, head=record.HEAD,
                           words=record_words(),
                           calc=_calc_links(rec, args))


@bp.get("/rulings/record.txt")
def record_text():
    try:
        rec = make_record(_query_args()[1])
    except RulingError as exc:
        return Response(f"{exc}\n", status=400, mimetype="text/plain")
    return Response(record.as_text(rec), mimetype="text/plain")


@bp.get("/rulings/saved")
def saved():
    return render_template("rulings/saved.html")


def law_links(edition: str, number: int) -> list[dict]:
    """The guided procedures that apply a law (for its page): those naming it
    and those citing a provision of it (laws.rulings.guided.laws_applied)."""
    if edition not in guided.editions():
        return []
    applied = guided.laws_applied(edition)
    return [{"title": f"Guided ruling: {p['title']}", "url": _state_url(f"/rulings/guided/{p['id']}", edition, {})}
            for p in guided.procedures(edition) if number in applied.get(p["id"], ())]
