"""The ruling record: what the Director keeps of a ruling, and hands an
appeals committee (Laws 92, 93): event, board, table, the facts entered,
the questions and answers, the ruling, the provisions applied with their
text in that edition, and the score adjustment if any — typed, or carried
from the score checkers with the provisions they applied.

A record is made from a ruling (guided, or mechanical: auction or play) and
the context the Director typed; nothing is stored on the server — the
record's address holds all of it.  static/rulings/record.js makes the same
record (the same data, field for field) offline from the same rulings data
and the words in record.json beside this file.
"""
from __future__ import annotations

import json
from pathlib import Path

from laws.rulings import RulingError

WORDS = json.loads((Path(__file__).resolve().parent / "record.json").read_text(encoding="utf-8"))
# what the Director types, and how long each may be
CONTEXT_FIELDS = {name: (label, limit) for name, label, limit in WORDS["context"]}
SEAT_NAMES = WORDS["seats"]


def context(values) -> dict:
    """The Director's entries, checked (RulingError for one too long)."""
    out = {}
    for name, (label, limit) in CONTEXT_FIELDS.items():
        v = values.get(name)
        if v is None or v == "":
            continue
        if not isinstance(v, str):
            raise RulingError(f"{label} must be text.", name)
        v = v.strip()
        if len(v) > limit:
            raise RulingError(f"{label} is too long (at most {limit} characters).", name)
        if v:
            out[name] = v
    return out


def provision_texts(conn, edition: str, ids) -> list[dict]:
    """Each provision with its text and its children's, in the order given
    (`conn`: a connection to the store)."""
    out = []
    for pid in ids:
        row = conn.execute("select id, heading, text from provisions where edition = ? and id = ?",
                           [edition, pid]).fetchone()
        if row is None:
            continue
        parts = [row["text"] or ""] + [r["text"] for r in conn.execute(
            "select text from provisions where edition = ? and parent = ? order by ord", [edition, pid])
            if r["text"]]
        out.append({"id": pid, "heading": row["heading"] or "", "text": " ".join(p for p in parts if p)})
    return out


def _once(ids) -> list[str]:
    out: list[str] = []
    for pid in ids:
        if pid not in out:
            out.append(pid)
    return out


def cited(ruling: dict, adjusted: dict | None = None) -> list[str]:
    """The provisions a ruling applied: those that posed each question
    answered, then those of the ruling, then those the score checkers
    applied, each once."""
    steps = ruling.get("answered") or ruling.get("steps") or []
    return _once([c for a in steps for c in a["cites"]] + ruling["cites"]
                 + (adjusted["cites"] if adjusted else []))


def from_guided(ruling: dict, ctx: dict, texts: list[dict], adjusted: dict | None = None) -> dict:
    """The record of a guided ruling (laws.rulings.guided.rule's reply)."""
    o = ruling["outcome"] or {}
    adj = o.get("score_adjustment")
    return {"kind": "guided", "procedure": ruling["procedure"], "title": ruling["title"],
            "edition": ruling["edition"], **ctx,
            "steps": [{"question": a["text"], "answer": a["label"], "cites": a["cites"]} for a in ruling["answered"]],
            "ruling": o.get("ruling") or "(not reached: questions remain)",
            "notes": [x["text"] for x in (o.get("information"), o.get("penalty")) if x],
            "score_adjustment": adj and adj.get("when"), "checker": adj and adj.get("checker"),
            "adjusted": adjusted, "keep": o.get("record") or [],
            "provisions": texts, "complete": ruling["outcome"] is not None}


# --- mechanical rulings: the auction and the play ----------------------------------------

def asked(data: dict) -> set[str]:
    """The findings an edition's trees ask the Director (the rest of a
    request's findings are facts entered with the calls or cards)."""
    from laws.rulings.data import all_nodes
    return {n["ask"].get("finding", n["on"]) for _, n in all_nodes(data) if "ask" in n}


def answered(rule, payload: dict, questions: set[str]) -> tuple[list[dict], list[str]]:
    """The questions a mechanical ruling asked, in the order it asked them,
    with the findings that answered them: the ruling walked again from the
    entered facts alone, adding one answer at a time (`rule`: the period's
    rule function; `questions`: asked(data)).  Also the findings given that
    no question took in that order (a fact the facts module works out from
    them, or one this edition does not ask): the record lists them with
    what was entered, so nothing the Director found is left out."""
    findings = payload.get("findings") or {}
    so_far = {k: v for k, v in findings.items() if k not in questions}
    steps = []
    for _ in range(len(findings) + 1):
        r = rule({**payload, "findings": so_far})
        q = r["questions"][0] if r["questions"] else None
        if q is None or q["id"] not in findings or q["id"] in so_far:
            break
        v = findings[q["id"]]
        value = "yes" if v is True else "no" if v is False else str(v)
        label = next((a["label"] for a in q["answers"] or [] if a["value"] == value), value)
        steps.append({"question": q["text"], "answer": label, "cites": list(q["cites"])})
        so_far[q["id"]] = v
    return steps, [k for k in findings if k not in so_far]


def entered(period: str, args, also: list[str] = ()) -> str:
    """What the Director entered for a mechanical ruling (the calls or the
    cards, and facts that are not answers), in words, from its address;
    `also`: findings no question took (answered(…)[1])."""
    out = "; ".join(f"{label}: {args[k].strip()}" for k, label in WORDS["periods"][period]["entered"]
                    if isinstance(args.get(k), str) and args[k].strip())
    rest = [f"{k.replace('_', ' ')} {args[k].strip()}" for k in also
            if k not in dict(WORDS["periods"][period]["entered"]) and isinstance(args.get(k), str) and args[k].strip()]
    return out + (f"; {WORDS['also']}: " + ", ".join(rest) if rest else "")


def _notes(period: str, o: dict) -> list[str]:
    if not o:
        return []
    names = SEAT_NAMES
    notes = [f"{label}: {o[key].replace('_', ' ')}." for key, label in WORDS["must_pass"]
             if o.get(key) and o[key] != "none"]
    if o.get("penalty_cards"):
        notes.append("Penalty cards: " + "; ".join(f"{names.get(p['seat'], p['seat'])}: {p['card']} ({p['kind']})"
                                                   for p in o["penalty_cards"]) + ".")
    notes += [o[key]["text"] for key in WORDS["texts"] if o.get(key)]
    if o.get("tricks_transferred") is not None:
        notes.append(f"Tricks transferred: {o['tricks_transferred']}.")
    if o.get("declarer"):
        notes.append(f"Declarer now: {names[o['declarer']]}.")
    words = WORDS["periods"][period]
    notes.append(f"{words['next']}: {names[o['next']] if o.get('next') else words['over']}.")
    return notes


def from_mechanical(period: str, ruling: dict, steps: list[dict], facts: str, ctx: dict, texts: list[dict],
                    adjusted: dict | None = None) -> dict:
    """The record of an auction or play ruling (POST /api/rulings/<period>'s
    reply); `steps`: answered(…); `facts`: entered(…)."""
    o = ruling.get("outcome") or {}
    adj = o.get("score_adjustment")
    title = WORDS["periods"][period]["title"]
    irr = ruling.get("irregularity")
    if irr:
        title = f"{title}: {irr['kind'].replace('-', ' ')} (Law {irr['law']})"
    said = ruling.get("say") or ("No irregularity." if not irr else "")
    complete = ruling.get("outcome") is not None or irr is None
    steps = steps + [{"question": q["text"], "answer": "(not answered)", "cites": q["cites"]}
                     for q in ruling.get("questions", [])]
    if not complete:
        said = (said + " " if said else "") + "(Not complete: questions remain.)"
    return {"kind": period, "procedure": period, "title": title, "edition": ruling["edition"], **ctx,
            "entered": facts, "steps": steps, "ruling": said, "notes": _notes(period, o),
            "score_adjustment": adj and adj.get("when"), "checker": None, "adjusted": adjusted, "keep": [],
            "provisions": texts, "complete": complete}


# --- the adjusted score, carried from the score checkers -----------------------------------

# the checkers whose result a record carries, and the record's own fields
# beside each one's input: who declared (score), its weight, and for which
# side (artificial-score)
CARRIED = {"score": ("declarer", "weight"), "weighted-score": (), "artificial-score": ("side",)}
SIDES = {"NS": "North-South", "EW": "East-West"}
MAX_CARRIED = 12


def parse_carried(values: list[str]) -> list[dict]:
    """`calc` parameters (`score;level=4;strain=S;tricks=10;declarer=S;weight=30`)
    as [{checker, fields: {name: text}, extra: {name: text}}]; the checker
    itself checks its fields."""
    if len(values) > MAX_CARRIED:
        raise RulingError(f"A record carries at most {MAX_CARRIED} checker results.", "calc")
    out = []
    for raw in values:
        checker, *pairs = raw.split(";")
        if checker not in CARRIED:
            raise RulingError(f"A record carries the results of the checkers {', '.join(CARRIED)}, "
                              f"not {checker[:40]!r}.", "calc")
        fields, extra = {}, {}
        for pair in pairs:
            name, eq, value = pair.partition("=")
            if not eq:
                raise RulingError(f"{pair[:40]!r}: each field of a carried result is name=value.", "calc")
            (extra if name in CARRIED[checker] else fields)[name] = value.strip()
        out.append({"checker": checker, "fields": fields, "extra": extra})
    return out


def carried_param(checker: str, fields: dict, extra: dict) -> str:
    """One `calc` parameter (the inverse of parse_carried)."""
    pairs = [f"{k}={v}" for k, v in {**fields, **extra}.items() if v not in (None, "")]
    return ";".join([checker] + pairs)


def _weight(text: str | None) -> float | int | None:
    if not text:
        return None
    try:
        w = float(text)
    except ValueError:
        w = -1
    if not 0 < w <= 100:
        raise RulingError(f"A weight is a percentage above 0 and at most 100, not {text[:20]!r}.", "calc")
    return int(w) if w.is_integer() else w


def adjusted_line(checker: str, inp: dict, out: dict, extra: dict) -> dict:
    """One carried result in the record's words: `line` says what it gives."""
    r = out["result"]
    item = {"checker": checker, "input": inp, "result": r, "explanation": out["explanation"],
            "cites": list(out["cites"])}
    if checker == "score":
        declarer = extra.get("declarer", "").upper()
        if declarer not in SEAT_NAMES:
            raise RulingError("Say who declared the contract (N, E, S or W) to carry its score.", "calc")
        pair = "NS" if declarer in "NS" else "EW"
        how = (f"made with {r['overtricks']} overtrick{'s' if r['overtricks'] != 1 else ''}" if r["overtricks"]
               else "made" if r["made"] else f"down {r['undertricks']}")
        weight = _weight(extra.get("weight"))
        item.update(declarer=declarer, weight=weight, ns_score=r["score"] if pair == "NS" else -r["score"],
                    line=f"{r['contract']} by {SEAT_NAMES[declarer]}{' (vulnerable)' if inp.get('vulnerable') else ''}, "
                         f"{inp['tricks']} tricks, {how}: {pair} {r['score']:+d}"
                         + (f" — weight {weight} %" if weight is not None else ""))
    elif checker == "artificial-score":
        side = extra.get("side", "").upper()
        if side not in SIDES:
            raise RulingError("Say which side (NS or EW) the artificial score is for.", "calc")
        item.update(side=side, line=f"{SIDES[side]}: {out['explanation']}")
    else:
        item["line"] = out["explanation"]
    return item


def adjusted(items: list[dict]) -> dict | None:
    """The adjusted score of a record from its carried results (adjusted_line each)."""
    if not items:
        return None
    return {"results": items, "cites": _once(c for i in items for c in i["cites"])}


# --- plain text ---------------------------------------------------------------------------

def as_text(record: dict) -> str:
    """The record as plain text (copied, mailed, pasted into a report)."""
    lines = [f"RULING RECORD — {record['title']} ({record['edition']} Laws)"]
    for name, (label, _) in CONTEXT_FIELDS.items():
        if name in ("facts", "adjustment"):
            continue
        if record.get(name):
            lines.append(f"{label}: {record[name]}")
    if record.get("entered"):
        lines.append(f"Entered: {record['entered']}")
    if record.get("facts"):
        lines += ["", "Facts:", record["facts"]]
    if record["steps"]:
        lines += ["", "Questions and answers:"]
        for i, s in enumerate(record["steps"], 1):
            lines.append(f"{i}. {s['question']} [{', '.join(s['cites'])}]")
            lines.append(f"   — {s['answer']}")
    lines += ["", "Ruling:", record["ruling"]]
    lines += record["notes"]
    if record.get("score_adjustment") or record.get("adjustment") or record.get("adjusted"):
        lines += ["", "Score adjustment:"]
        if record.get("score_adjustment"):
            lines.append(record["score_adjustment"])
        for item in (record.get("adjusted") or {}).get("results", []):
            lines.append(f"- {item['line']} [{', '.join(item['cites'])}]")
        if record.get("adjustment"):
            lines.append(record["adjustment"])
    if record["keep"]:
        lines += ["", "To record: " + "; ".join(record["keep"]) + "."]
    lines += ["", f"Provisions applied ({record['edition']} Laws):"]
    for p in record["provisions"]:
        lines.append(f"Law {p['id']}{' — ' + p['heading'] if p['heading'] else ''}: {p['text']}")
    return "\n".join(lines) + "\n"
