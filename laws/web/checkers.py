"""The rule checkers on the web: /api/checkers and /checkers/<id>.

The JSON API takes the checker's input as JSON; the HTML form is built from
the checker's JSON Schema and posts ordinary form fields, which are turned
into the same input (lists are typed as words separated by spaces or commas).
Both answer with the same result, explanation and cited provisions, in the
edition asked for or else the code in force (read from the store being
served: its editions table is the manifest's).

Each result offers the next step (`next_steps`): board → score → IMPs or
matchpoints → into the ruling record, with the facts known carried over
(`fill=1` fills a checker's form without checking it).  The page embeds what
the JavaScript port (static/checkers/checkers.js, page.js) needs to compute
the same answer with no server: the checker's schema and its data in each
edition it implements.
"""
from __future__ import annotations

import json
import re
from urllib.parse import quote, urlencode

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.routing import BuildError

from laws import queries
from laws.checkers import codes as checker_codes
from laws.checkers import registry
from laws.rulings.data import older_label, split_cite
from laws.web.db import StoreMissing, get_db
from laws.web.errors import BadRequest
from laws.web.limits import MAX_NUMBER_CHARS

bp = Blueprint("checkers", __name__)


def _error(status: int, message: str, field: str | None = None):
    body = {"error": message}
    if status == 400:
        body["field"] = field
    return jsonify(body), status


def store_codes() -> checker_codes.Codes:
    """The codes of the store being served (the code in force first), with
    the checkers' data the build carried into a code without its own, or
    the manifest's codes when there is no store to read."""
    from laws.web.site import cached
    try:
        return cached("checker_codes", lambda: checker_codes.Codes.from_rows(
            [e for e in queries.editions(get_db()) if e["kind"] == "code"],
            carried=checker_codes.carried_data(get_db())))
    except (StoreMissing, OSError):
        return checker_codes.from_manifest()


# --- JSON --------------------------------------------------------------------

@bp.get("/api/checkers")
def api_list():
    codes = store_codes()
    return jsonify([c.describe(codes) for c in registry.all_checkers()])


@bp.get("/api/checkers/<checker_id>")
def api_describe(checker_id: str):
    try:
        c = registry.get(checker_id)
    except registry.UnknownChecker as exc:
        return _error(404, str(exc))
    return jsonify(c.describe(store_codes()) | {"doc": c.doc})


@bp.post("/api/checkers/<checker_id>")
def api_run(checker_id: str):
    try:
        registry.get(checker_id)
    except registry.UnknownChecker as exc:
        return _error(404, str(exc))
    if not request.is_json:
        return _error(400, "Send the input as a JSON object, with the header Content-Type: application/json.")
    payload = request.get_json(silent=True)
    if payload is None and request.get_data(cache=True).strip() not in (b"null",):
        return _error(400, "The request body is not valid JSON.")
    try:
        return jsonify(registry.run(checker_id, payload, store_codes()))
    except BadRequest as exc:
        return _error(400, str(exc), exc.field)


# --- HTML --------------------------------------------------------------------

def law_number(provision: str) -> int | None:
    m = re.match(r"\d+", provision)
    return int(m.group()) if m else None


def provision_url(edition: str, provision: str) -> str:
    """/<edition>/law/<number>#<provision id>, the anchor URL-encoded."""
    number = law_number(provision)
    anchor = quote(provision, safe="()'!$*+,;=:@")
    try:
        base = url_for("pages.law", edition=edition, number=number)
    except BuildError:  # the pages blueprint names its law route differently, or not yet
        base = f"{request.script_root}/{quote(edition)}/law/{number}"
    return f"{base}#{anchor}"


def _headings(edition: str, ids: list[str]) -> dict[str, str]:
    """Provision headings from the store, when one is there to read."""
    try:
        db = get_db()
    except (StoreMissing, OSError):
        return {}
    out = {}
    for pid in ids:
        row = db.execute("select p.heading, l.title from provisions p join laws l on l.edition = p.edition "
                         "and l.number = p.law where p.edition = ? and p.id = ?", [edition, pid]).fetchone()
        if row is not None:
            out[pid] = row["heading"] or (row["title"] if law_number(pid) and str(law_number(pid)) == pid else "")
    return out


def cite_links(edition: str, ids: list[str]) -> list[dict]:
    """Each cite's law-page link, label and heading; a carried cite awaiting
    review ("2017:77") links the older code's provision and says so."""
    out = []
    for cite in ids:
        other, pid = split_cite(cite)
        if other is None:
            out.append({"id": cite, "url": provision_url(edition, cite), "label": f"Law {cite}",
                        "heading": _headings(edition, [cite]).get(cite)})
        else:
            out.append({"id": cite, "url": provision_url(other, pid), "label": older_label(cite, edition),
                        "heading": _headings(other, [pid]).get(pid)})
    return out


def _split(text: str, prop: dict) -> list[str]:
    sep = prop.get("x-split")
    parts = text.split(sep) if sep else re.split(r"[\s,;]+", text)
    return [p.strip() for p in parts if p.strip()]


def _number(text: str, integer: bool):
    """A typed number as JSON would carry it; text that is no number is passed
    on as it is, for the schema to reject with a message naming the field."""
    t = text.strip().replace("−", "-")
    try:
        return int(t)
    except ValueError:
        pass
    if integer:
        return t
    try:
        f = float(t)
    except ValueError:
        return t
    return int(f) if f.is_integer() else f


def _short_number(name: str, prop: dict, text: str) -> str:
    """`text`, a number typed for the field `name`, when it is short enough to
    read: as in a JSON body (laws.web.limits), a longer one is refused unread."""
    if len(text.strip()) > MAX_NUMBER_CHARS:
        raise BadRequest(f"{prop.get('title', name).capitalize()} must be a number of at most "
                         f"{MAX_NUMBER_CHARS} characters (it has {len(text.strip())}).", name)
    return text


def form_to_input(c: registry.Checker, form, schema: dict | None = None) -> dict:
    """The checker's input from HTML form fields, guided by its schema
    (ported as formToInput in static/checkers/checkers.js).  Raises BadRequest
    for a number too long to read."""
    schema = schema or c.input_schema
    data: dict = {}
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        raw = form.get(name)
        if kind == "boolean":
            data[name] = raw in ("on", "true", "1", "yes")
            continue
        if raw is None:
            continue
        if kind == "array":
            items = prop.get("items", {})
            values = _split(raw, prop)
            if items.get("type") in ("integer", "number"):
                values = [_number(_short_number(name, prop, v), items["type"] == "integer") for v in values]
            elif "enum" in items:
                values = [v.upper() for v in values]
            if values or name in schema.get("required", []):
                data[name] = values
            continue
        if "enum" in prop:
            if raw == "" and "" not in prop["enum"]:
                continue
            data[name] = raw
            continue
        if raw.strip() == "":
            continue
        if kind in ("integer", "number"):
            data[name] = _number(_short_number(name, prop, raw), kind == "integer")
        else:
            data[name] = raw.strip()
    return data


def _field_value(prop: dict, value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return (", " if prop.get("x-split") == "," else " ").join(map(str, value))
    return str(value)


def _fields(schema: dict, values: dict, error_field: str | None) -> list[dict]:
    required = set(schema.get("required", []))
    out = []
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        value = values.get(name, prop.get("default"))
        field = {"name": name, "label": prop.get("title", name).capitalize(), "help": prop.get("description"),
                 "hint": prop.get("x-format-hint"), "required": name in required, "error": name == error_field,
                 "optional": name not in required and "default" not in prop,
                 "value": _field_value(prop, value)}
        if "enum" in prop:
            labels = prop.get("x-labels", {})
            field["widget"] = "select"
            field["options"] = [{"value": v, "label": labels.get(v, v) if labels.get(v, v) == v or v == ""
                                 else f"{v} — {labels[v]}", "selected": str(v) == field["value"]}
                                for v in prop["enum"]]
            field["blank"] = "" not in prop["enum"] and "default" not in prop
        elif kind == "boolean":
            field["widget"] = "checkbox"
            field["checked"] = bool(value)
        elif kind in ("integer", "number"):
            field["widget"] = "number"
            field["step"] = "1" if kind == "integer" else "any"
            field["min"] = prop.get("minimum")
            field["max"] = prop.get("maximum")
        else:
            field["widget"] = "text"
        out.append(field)
    return out


@bp.get("/checkers")
def index():
    codes = store_codes()
    checkers = [{"id": c.id, "title": c.title, "summary": c.summary,
                 "cites": [(ed, cite_links(ed, ids)) for ed, ids in c.cites_for(codes).items()]}
                for c in registry.all_checkers()]
    return render_template("checkers/index.html", checkers=checkers)


# the checker page's button: a submitted form, even one whose fields are all
# empty or unchecked, or that carries a ruling record's address
CHECK = "check"


# opened with `fill=1`, the address only fills the form in (a next step
# carrying the facts known so far), as an address from a ruling record does
FILL = "fill"


@bp.route("/checkers/<checker_id>", methods=["GET", "POST"])
def page(checker_id: str):
    try:
        c = registry.get(checker_id)
    except registry.UnknownChecker as exc:
        return render_template("error.html", status=404, message=str(exc)), 404
    if request.method == "POST":
        # the form is sent with GET, so that its result has an address (to
        # share, to come back to; Back never sends it again); a POST from an
        # older page goes there
        fields = [(k, v) for k, v in request.form.items(multi=True) if k != CHECK and v != ""]
        return redirect(url_for("checkers.page", checker_id=c.id) + "?" + urlencode(fields + [(CHECK, "1")]), 303)
    codes = store_codes()
    schema = c.schema(codes)
    form = request.args
    # a ruling record's address (`record`) rides along without being input;
    # opened from a record, the address only fills the form in (the results
    # carried so far), and the director completes it before it is checked
    filling = (bool(form.get("record")) or bool(form.get(FILL))) and CHECK not in form
    submitted = CHECK in form or (not filling and any(k in schema["properties"] for k in form))
    values: dict = {}
    outcome = error = None
    error_field = None
    status = 200
    try:
        if filling or submitted:
            values = form_to_input(c, form, schema)
        if submitted:
            outcome = registry.run(c.id, values, codes)
    except BadRequest as exc:
        error, error_field, status = str(exc), exc.field, 400
    example_url = url_for("checkers.page", checker_id=c.id, **{
        k: _field_value(schema["properties"][k], v) if not isinstance(v, bool) else ("on" if v else "")
        for k, v in c.example.items() if not (isinstance(v, bool) and not v)})
    record_carry = _record_carry(c, form.get("record") or "", values if outcome else None)
    if record_carry:  # the example fills the form in, for the same record
        example_url += "&" + urlencode({"record": record_carry["state"]})
    context = {
        "checker": c, "fields": _fields(schema, values, error_field), "error": error, "error_field": error_field,
        "outcome": outcome, "example_url": example_url,
        "cites": cite_links(outcome["edition"], outcome["cites"]) if outcome else [],
        "implements": [(ed, cite_links(ed, ids)) for ed, ids in c.cites_for(codes).items()],
        "notes": c.notes(codes),
        # a code the checker's data was carried into: whose rules, and what awaits review
        "carried": [(ed, c.carried_note(ed, codes)) for ed in c.editions_for(codes) if c.carried_note(ed, codes)],
        "rows": _rows(outcome["result"]) if outcome else [],
        "record": record_carry,
        "next": next_steps(c.id, values, outcome, _guided_editions()) if outcome and not record_carry else [],
        "page_data": _json_for_html(page_data(c, schema, codes)),
        # the address this page was made for: a kept page answering another
        # address offline is told apart by its script (static/checkers/page.js)
        "rendered_query": request.query_string.decode("utf-8", "replace"),
    }
    return render_template("checkers/checker.html", **context), status


def page_data(c: registry.Checker, schema: dict, codes) -> dict:
    """What the page's script needs to answer with no server: the schema, the
    checker's data in each edition it implements (with the edition's tables),
    the default edition, the guided editions (for the record's step), and
    the law-page address of each provision cited (with its heading)."""
    eds = c.editions_for(codes)
    return {"id": c.id, "title": c.title, "schema": schema, "default": eds[0], "guided": _guided_editions(),
            "editions": {ed: _edition_data(c, ed, codes) for ed in eds}}


def _edition_data(c: registry.Checker, ed: str, codes) -> dict:
    """One edition's data for the page's script; in a code the checker's data
    was carried into, also `carried` (the notes and whose rules) and each
    older code's provision's label."""
    data = c.edition_file(ed, codes)
    entry = data["checkers"][c.id]
    out = {"title": data.get("title", ed), "tables": data.get("tables", {}), "entry": entry,
           "cites": {l["id"]: {"url": l["url"], "heading": l["heading"]} | (
               {"label": l["label"]} if l["label"] != f"Law {l['id']}" else {})
               for l in cite_links(ed, entry["cites"])}}
    if c.carried_note(ed, codes):
        out["carried"] = {"from": data["carried"]["from"], "notes": data["carried"]["checkers"][c.id]["notes"]}
    return out


def _json_for_html(value) -> Markup:
    """JSON to embed in a <script type="application/json">, keeping the order
    of keys (the schema's order is the form's, and the error named first;
    Flask's tojson sorts them) and escaping what could end the element."""
    text = json.dumps(value, ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027")):
        text = text.replace(ch, esc)
    return Markup(text)


def _guided_editions() -> list[str]:
    """Editions with guided procedures (a record of an adjusted score), newest first."""
    from laws.rulings import guided
    return sorted(guided.load(), reverse=True)


# --- the next step ---------------------------------------------------------------
# The same rules are in static/checkers/page.js (nextSteps), for a result
# computed on the phone.

RECORD_PROCEDURE = "adjusted-score"  # the guided procedure a checker's result is recorded under


def _query(values: dict) -> str:
    return urlencode([(k, v) for k, v in values.items() if v not in (None, "")])


def cite_words(cite: str) -> str:
    """A cite in a sentence: a carried cite awaiting review ("2017:78B") as
    "78B (2017 Laws)" (as laws.checkers.codes.carried_words writes it)."""
    other, pid = split_cite(cite)
    return cite if other is None else f"{pid} ({other} Laws)"


def _signed(n) -> str:
    return f"{'+' if n > 0 else ''}{n}"


def next_steps(checker_id: str, values: dict, outcome: dict, guided_editions: list[str]) -> list[dict]:
    """The next step from a result, with the facts known carried over: each
    {kind: 'link', label, href}, or {kind: 'record', ...} for the form that
    carries a score into a ruling record (it asks who declared, or for whom)."""
    r, edition = outcome["result"], outcome["edition"]
    record_edition = edition if edition in guided_editions else None
    steps: list[dict] = []

    def record_link(adjustment: str):
        if record_edition:
            steps.append({"kind": "link", "label": "Into a ruling record (adjusted score)",
                          # the adjustment is a record field: in the fragment, never sent to the server
                          "href": "/rulings/record?" + _query({"procedure": RECORD_PROCEDURE, "edition": record_edition})
                                  + "#" + _query({"adjustment": adjustment[:500]})})

    if checker_id == "board":
        for side, words in (("NS", "North-South"), ("EW", "East-West")):
            vulnerable = r["vulnerable"] in (side, "Both")
            steps.append({"kind": "link", "label": f"Score a contract by {words} ({'vulnerable' if vulnerable else 'not vulnerable'})",
                          "href": "/checkers/score?" + _query({"vulnerable": "on" if vulnerable else "", FILL: "1"})})
    elif checker_id == "score":
        s = r["score"]
        steps.append({"kind": "link", "label": f"IMPs: the difference from {_signed(s)}, less the other table's score",
                      "href": "/checkers/imps?" + _query({"difference": s, FILL: "1"})})
        steps.append({"kind": "link", "label": f"Matchpoints: {_signed(s)} with the other scores on the board",
                      "href": "/checkers/matchpoints?" + _query({"scores": s, FILL: "1"})})
    elif checker_id == "imps":
        record_link(f"{_signed(r['imps'])} IMPs (a difference of {r['difference']}, Law {cite_words(outcome['cites'][0])})")
    elif checker_id == "matchpoints":
        scores = values.get("scores") or []
        if scores:
            record_link(f"{scores[0]}: {r['matchpoints'][0]} matchpoints on a top of {r['top']} "
                        f"({r['percentages'][0]} %, Law {cite_words(outcome['cites'][0])})")
    elif checker_id in ("cross-imps", "butler"):
        # the first score's IMPs, as matchpoints carries its first score
        scores = values.get("scores") or []
        if scores:
            how = (f"cross-IMPs, {r['imps'][0]} over {r['comparisons']} comparisons" if checker_id == "cross-imps"
                   else f"Butler, datum {r['datum']}")
            first = r["average"][0] if checker_id == "cross-imps" else r["imps"][0]
            record_link(f"{scores[0]}: {_signed(first)} IMPs ({how}, Laws {' and '.join(map(cite_words, outcome['cites']))})")
    if checker_id in ("score", "weighted-score", "artificial-score") and record_edition:
        from laws.rulings import record
        props = registry.get(checker_id).input_schema["properties"]
        fields = {k: ("yes" if v else "") if isinstance(v, bool) else _field_value(props[k], v)
                  for k, v in values.items() if k in props}
        steps.append({"kind": "record", "label": "Into a ruling record (adjusted score)",
                      "hidden": [("procedure", RECORD_PROCEDURE), ("edition", record_edition),
                                 ("calc", record.carried_param(checker_id, fields, {}))],
                      "extra": list(record.CARRIED.get(checker_id, ()))})
    return steps


def _record_carry(c: registry.Checker, state: str, values: dict | None) -> dict | None:
    """Opened from a ruling record (`record`: the record's query): the way
    back, and the result carried into the record as a `calc` parameter."""
    from urllib.parse import parse_qsl

    from laws.rulings import record
    if not state:
        return None
    pairs = parse_qsl(state[:8000], keep_blank_values=False)
    if not any(k == "procedure" for k, _ in pairs):
        return None
    out = {"state": state[:8000], "back": "/rulings/record?" + urlencode(pairs), "hidden": pairs, "calc": None,
           "extra": record.CARRIED.get(c.id, ())}
    if values is not None and c.id in record.CARRIED:
        props = c.input_schema.get("properties", {})
        fields = {k: ("yes" if v else "") if isinstance(v, bool) else _field_value(props[k], v)
                  for k, v in values.items()}
        out["calc"] = record.carried_param(c.id, fields, {})
    return out


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _rows(result: dict) -> list[dict]:
    """The result as label/value rows for a definition list."""
    rows = []
    for key, value in result.items():
        rows.append({"label": _label(key), "value": _display(value)})
    return rows


def _display(value):
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, dict):
        return [{"label": _label(k), "value": _display(v)} for k, v in value.items()]
    if isinstance(value, list):
        if value and all(isinstance(v, dict) and set(v) == {"name", "points"} for v in value):
            return [{"label": v["name"].capitalize(), "value": str(v["points"])} for v in value]
        if value and all(isinstance(v, dict) for v in value):
            return ", ".join(" ".join(str(x) for x in v.values()) for v in value)
        return ", ".join("—" if v is None else "yes" if v is True else "no" if v is False else str(v)
                         for v in value) or "none"
    return str(value)
