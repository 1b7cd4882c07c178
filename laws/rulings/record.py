"""The ruling record: what the Director keeps of a ruling, and hands an
appeals committee (Laws 92, 93): event, board, table, the facts entered,
the questions and answers, the ruling, the provisions applied with their
text in that edition, and the score adjustment if any.

A record is made from a ruling (guided, or mechanical: auction or play) and
the context the Director typed; nothing is stored on the server — the
record's address holds all of it.  static/rulings/guided.js makes the same
record offline from the same data.
"""
from __future__ import annotations

from laws.rulings import RulingError

# what the Director types, and how long each may be
CONTEXT_FIELDS = {"event": ("Event", 200), "board": ("Board", 20), "table": ("Table", 40),
                  "director": ("Director", 100), "facts": ("Facts", 3000), "adjustment": ("Score adjustment", 500)}


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


def cited(ruling: dict) -> list[str]:
    """The provisions a guided ruling applied: those that posed each question
    answered, then those of the ruling, each once."""
    out: list[str] = []
    for pid in [c for a in ruling["answered"] for c in a["cites"]] + ruling["cites"]:
        if pid not in out:
            out.append(pid)
    return out


def from_guided(ruling: dict, ctx: dict, texts: list[dict]) -> dict:
    """The record of a guided ruling (laws.rulings.guided.rule's reply)."""
    o = ruling["outcome"] or {}
    adj = o.get("score_adjustment")
    return {"kind": "guided", "procedure": ruling["procedure"], "title": ruling["title"],
            "edition": ruling["edition"], **ctx,
            "steps": [{"question": a["text"], "answer": a["label"], "cites": a["cites"]} for a in ruling["answered"]],
            "ruling": o.get("ruling") or "(not reached: questions remain)",
            "notes": [x["text"] for x in (o.get("information"), o.get("penalty")) if x],
            "score_adjustment": adj and adj.get("when"), "keep": o.get("record") or [],
            "provisions": texts, "complete": ruling["outcome"] is not None}


def from_mechanical(ruling: dict, facts: str, ctx: dict, texts: list[dict], title: str) -> dict:
    """The record of an auction or play ruling (POST /api/rulings/<period>'s reply);
    `facts` is what was entered (the calls, the findings) in words."""
    o = ruling.get("outcome") or {}
    notes = []
    for key, label in (("offender_partner_must_pass", "Offender's partner must pass"),
                       ("offender_must_pass", "Offender must pass")):
        if o.get(key) and o[key] != "none":
            notes.append(f"{label}: {o[key].replace('_', ' ')}.")
    for key in ("lead_restrictions", "information"):
        if o.get(key):
            notes.append(o[key]["text"])
    adj = o.get("score_adjustment")
    steps = [{"question": q["text"], "answer": "(not answered)", "cites": q["cites"]}
             for q in ruling.get("questions", [])]
    irr = ruling.get("irregularity")
    if irr:
        title = f"{title}: {irr['kind'].replace('-', ' ')} (Law {irr['law']})"
    said = ruling.get("say") or ("No irregularity." if not irr else "")
    if ruling.get("outcome") is None and irr:
        said = (said + " " if said else "") + "(Not complete: questions remain.)"
    return {"kind": "mechanical", "procedure": title, "title": title, "edition": ruling["edition"], **ctx,
            "entered": facts, "steps": steps, "ruling": said, "notes": notes,
            "score_adjustment": adj and adj.get("when"), "keep": [], "provisions": texts,
            "complete": ruling.get("outcome") is not None or ruling.get("irregularity") is None}


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
    if record.get("score_adjustment") or record.get("adjustment"):
        lines += ["", "Score adjustment:"]
        if record.get("score_adjustment"):
            lines.append(record["score_adjustment"])
        if record.get("adjustment"):
            lines.append(record["adjustment"])
    if record["keep"]:
        lines += ["", "To record: " + "; ".join(record["keep"]) + "."]
    lines += ["", f"Provisions applied ({record['edition']} Laws):"]
    for p in record["provisions"]:
        lines.append(f"Law {p['id']}{' — ' + p['heading'] if p['heading'] else ''}: {p['text']}")
    return "\n".join(lines) + "\n"
