"""Comparison of editions: the /compare pages and GET /api/diff.

Successive codes of a family are compared at build time; any other pair
when first asked for (laws.compare.law_data).  These views only read.

    GET /api/diff/<number>?from=&to=   one law, as CONTRACT.md (raw=1: source readings)
    GET /compare                       the pairs compared at build time, pairs across
                                       families, and a form to pick any two codes
    GET /compare?from=&to=             every law two editions share: status and counts
    GET /compare/<number>?from=&to=    one law, provision by provision, word by word;
                                       without from/to: the two newest editions that
                                       have the law; raw=1 shows the sources' own
                                       readings; view=inline or view=sides forces
                                       a layout (default: inline redline on narrow
                                       screens, side by side on wide ones)
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup, escape

from laws import compare
from laws.queries import NotFound
from laws.web.db import get_db
from laws.web.errors import BadRequest
from laws.web.limits import law_number
from laws.web.pagecache import page

bp = Blueprint("compare", __name__)


def _pair(required: bool = True) -> tuple[str | None, str | None]:
    a, b = request.args.get("from", "").strip(), request.args.get("to", "").strip()
    if required and (not a or not b):
        missing = "from" if not a else "to"
        raise BadRequest(f"Say which two editions to compare: ?from=<edition>&to=<edition> "
                         f"('{missing}' is missing).", field=missing)
    if a and b and a == b:
        raise BadRequest(f"'from' and 'to' are both '{a}': choose two different editions.", field="to")
    return a or None, b or None


def _flag(name: str) -> bool:
    return request.args.get(name, "") not in ("", "0", "false", "no")


@bp.get("/api/diff/<number>")
def api_diff(number: str):
    n = law_number(number)
    a, b = _pair()
    d = compare.diff(get_db(), n, a, b, raw=_flag("raw"))
    return jsonify({
        "law": d["law"], "from": d["from"], "to": d["to"],
        "changes": [{k: c[k] for k in ("from_provision", "to_provision", "status", "ops",
                                        "from_provisions", "to_provisions", "heading_ops", "how", "part_of",
                                        "minor", "score", "text_changed", "from_law", "to_law", "evidence")}
                    for c in d["changes"]],
        "summary": d["summary"], "status": d["status"], "counts": d["counts"],
        "title": {"from": d["title_from"], "to": d["title_to"], "ops": d["title_ops"]},
        "references": d["references"], "raw": d["raw"],
        # what changed, in words (laws/compare/account.py): an addition to CONTRACT v3's reply
        "account": d["account"]["text"],
    })


def _editions_with_law(db, number: int) -> list[dict]:
    return [dict(r) for r in db.execute(
        "select e.id, e.title, e.year from editions e join laws l on l.edition = e.id "
        "where l.number = ? and e.kind = 'code' order by e.year, e.ord", [number])]


def _defaults(db, number: int, a: str | None, b: str | None) -> tuple[str, str]:
    """The editions to compare when the address does not say: the two newest
    codes that have the law (or the newest other one, when one is given)."""
    have = [e["id"] for e in _editions_with_law(db, number)]
    if a and b:
        return a, b
    if b:
        others = [e for e in have if e != b]
        if not others:
            raise NotFound(f"No other edition has Law {number} to compare with {b}.")
        older = others[:have.index(b)] if b in have else others
        return (older or others)[-1], b
    if a:
        others = [e for e in have if e != a]
        if not others:
            raise NotFound(f"No other edition has Law {number} to compare with {a}.")
        return a, others[-1]
    if len(have) < 2:
        only = f" (only {have[0]} has it)" if have else ""
        raise NotFound(f"Law {number} is not in two editions of the corpus{only}, so there is nothing to compare.")
    return have[-2], have[-1]


def _ops_html(ops, side: str = "inline") -> Markup:
    """Ops as HTML: <ins> underlined, <del> struck through.  side 'from' keeps
    what the older text had (equal + delete), 'to' what the newer has."""
    out = []
    for op, text in ops:
        t = escape(text)
        if op == "equal":
            out.append(str(t))
        elif op == "delete" and side in ("inline", "from"):
            out.append(f'<del><span class="visually-hidden">[deleted: </span>{t}'
                       f'<span class="visually-hidden">]</span></del>')
        elif op == "insert" and side in ("inline", "to"):
            out.append(f'<ins><span class="visually-hidden">[inserted: </span>{t}'
                       f'<span class="visually-hidden">]</span></ins>')
    return Markup("".join(out))


def _paragraphs(html: Markup) -> list[Markup]:
    return [Markup(p) for p in str(html).split("\n\n")]


STATUS_WORDS = {"same": "unchanged", "changed": "changed", "moved": "moved", "split": "split", "merged": "merged",
                "added": "added", "removed": "removed"}


def _ids(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "—"


@bp.get("/compare/<number>")
@page(query=True)
def law_page(number: str):
    n = law_number(number)
    db = get_db()
    a, b = _pair(required=False)
    a, b = _defaults(db, n, a, b)
    raw, view = _flag("raw"), request.args.get("view", "")
    d = compare.diff(db, n, a, b, raw=raw)
    rows = []
    for c in d["changes"]:
        rows.append({
            **c,
            "status_word": STATUS_WORDS[c["status"]],
            "inline": _paragraphs(_ops_html(c["ops"], "inline")),
            "old": _paragraphs(_ops_html(c["ops"], "from")) if c["from_provision"] else [],
            "new": _paragraphs(_ops_html(c["ops"], "to")) if c["to_provision"] else [],
            "heading_inline": _ops_html(c["heading_ops"]) if c["heading_ops"] else None,
            "line": _change_line(c),
        })
    editions = _editions_with_law(db, n)
    eds = {e["id"]: e for e in compare._editions(db).values()}
    return render_template(
        "compare.html", d=d, rows=rows, raw=raw, view=view if view in ("inline", "sides") else "",
        from_ed=eds[a], to_ed=eds[b], editions=editions,
        title_inline=_ops_html(d["title_ops"]) if d["title_ops"] else None,
        law_url=lambda ed, pid=None: url_for("pages.law", edition=ed, number=n) + (f"#{pid}" if pid else ""),
        args=lambda **kw: url_for("compare.law_page", number=n, **{
            k: v for k, v in ({"from": a, "to": b, "raw": "1" if raw else None, "view": view or None} | kw).items()
            if v}),
    )


def _change_line(c: dict) -> str:
    """One line per provision: '35.1 → 35A: renumbered', '36C: added'."""
    f, t = c["from_provision"], c["to_provision"]
    if c["status"] == "added":
        return f"{t}: added"
    if c["status"] == "removed":
        return f"{f}: removed"
    where = f if f == t else f"{f} → {t}"
    bits = []
    if f != t:
        bits.append("renumbered")
    if c["how"] == "split" and c["part_of"]:
        bits.append(f"part of {_ids(c['part_of']['from_provisions'])}, split into "
                    f"{_ids(c['part_of']['to_provisions'])}")
    elif c["how"] == "merged" and c["part_of"]:
        bits.append(f"{_ids(c['part_of']['from_provisions'])} merged into {_ids(c['part_of']['to_provisions'])}")
    if c["status"] == "moved":
        bits.append("moved")
    if c["text_changed"]:
        bits.append("wording changed (capitalisation or punctuation only)" if c["minor"] else "wording changed")
    if c["heading_ops"]:
        bits.append("heading changed")
    if c["status"] == "same":
        bits.append("unchanged")
    return f"{where}: {', '.join(bits)}"


@bp.get("/compare")
@page(query=True)
def index():
    db = get_db()
    a, b = _pair(required=False)
    if a or b:
        if not (a and b):
            raise BadRequest("Say which two editions to compare: ?from=<edition>&to=<edition>.",
                             field="to" if a else "from")
        o = compare.overview(db, a, b)
        if not o["laws"]:
            raise NotFound(f"{o['from_title']} and {o['to_title']} have no law in common in the corpus, "
                           "so there is nothing to compare.")
        return render_template("compare_overview.html", o=o, spans=_spans)
    codes = sorted((e for e in compare._editions(db).values() if e["kind"] == "code"),
                   key=lambda e: (e["year"], e["ord"]))
    return render_template("compare_index.html", pairs=compare.pairs(db), other_pairs=compare.other_pairs(db),
                           codes=codes)


def _spans(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> 'Laws 1–3, 5'."""
    if not numbers:
        return ""
    runs, start, prev = [], numbers[0], numbers[0]
    for x in numbers[1:] + [None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        runs.append(f"{start}–{prev}" if prev != start else f"{start}")
        if x is not None:
            start = prev = x
    return ("Law " if len(numbers) == 1 else "Laws ") + ", ".join(runs)


@bp.get("/compare/")
def index_slash():
    # the editions as a query string, never as url_for's arguments: those
    # would let ?_external=1&… pick the host, scheme or endpoint
    kept = {k: request.args[k] for k in ("from", "to") if request.args.get(k)}
    return redirect(url_for("compare.index") + (f"?{urlencode(kept)}" if kept else ""), code=301)
