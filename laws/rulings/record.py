"""The ruling record: what the Director keeps of a ruling, and hands an
appeals committee (Laws 92, 93): event, board, table, the facts entered,
the questions and answers, the ruling, the provisions applied with their
text in that edition, and the score adjustment if any — typed, or carried
from the score checkers with the provisions they applied.

A record is made from a ruling (guided, or mechanical: auction or play);
nothing is stored on the server — the record's address holds all of it.
Its query (what the server sees) holds ONLY the procedure, the edition, the
answers (or an auction or play ruling's own facts) and the checker inputs
(`calc`).  Everything else the Director writes — date, event, board, the
table result, the facts, the people's names and the hands (FRAGMENT_FIELDS)
— lives in the address's fragment (#…), which browsers never send, and in
records saved on the phone: the server ignores those fields in a query and
prints blank lines for them; static/rulings/record.js fills them in on the
phone (with_context below is the same step, the reference the browser tests
hold the phone to).  record.js makes the same record (the same data, field
for field) offline from the same rulings data and the words in record.json
beside this file.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from laws.rulings import RulingError, pbn
from laws.rulings.auction import SEATS, parse_calls_text

WORDS = json.loads((Path(__file__).resolve().parent / "record.json").read_text(encoding="utf-8"))
# what the Director types, and how long each may be
CONTEXT_FIELDS = {name: (label, limit) for name, label, limit in WORDS["context"]}
SEAT_NAMES = WORDS["seats"]


PRIVATE_FIELDS = {name: (label, limit) for name, label, limit in WORDS["private"]}
# every field of a record that only the fragment carries: never read from a
# query, never written into a page or an address by the server
FRAGMENT_FIELDS = frozenset(CONTEXT_FIELDS) | frozenset(PRIVATE_FIELDS)
HEAD = WORDS["head"]
# the shape of the fields that are not free text: what a wrong value is refused for
_SHAPES = {"date": (re.compile(r"^\d{4}-\d{2}-\d{2}$"), "a date like 2025-03-14"),
           "time": (re.compile(r"^([01]\d|2[0-3]):[0-5]\d$"), "a time like 19:45"),
           "result_contract": (re.compile(r"^[1-7](C|D|H|S|NT)(X|XX)?$", re.I), "a contract like 4S, 3NT or 2HX"),
           "result_declarer": (re.compile(r"^[NESW]$", re.I), "N, E, S or W"),
           "result_tricks": (re.compile(r"^(1[0-3]|\d)$"), "a number of tricks from 0 to 13"),
           "appeal_minutes": (re.compile(r"^[1-9]\d{0,3}$"), "a number of minutes")}


def query_state(raw: str) -> str:
    """A record's query string without the record's own fields (an old
    address carried them in the query): the pieces kept byte for byte, so
    the page's state is the address the phone leaves after moving those
    fields into the fragment (record.js's settle does the same)."""
    from urllib.parse import unquote_plus
    return "&".join(p for p in raw.split("&")
                    if p and unquote_plus(p.partition("=")[0]) not in FRAGMENT_FIELDS)


def context(values) -> dict:
    """The record's own fields as the Director wrote them (in the fragment,
    read on the phone: record.js's context does the same), checked
    (RulingError for one too long or of the wrong shape)."""
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
        if v and name in _SHAPES and not _SHAPES[name][0].match(v):
            raise RulingError(f"{label}: give {_SHAPES[name][1]}, not {v[:20]!r}.", name)
        if v:
            out[name] = v.upper() if name in ("result_contract", "result_declarer") else v
    return out


def board_number(ctx: dict) -> int | None:
    """The board as a number for the board checker (Law 2), if it is one."""
    b = ctx.get("board", "")
    return int(b) if b.isascii() and b.isdigit() and 0 < int(b) < 10000 else None  # ascii: int("²") fails


def board_line(dealer: str, vulnerable: str, cites: list[str], law: str | None = None) -> dict:
    """The dealer and vulnerability of the board (the board checker's result)
    in words; `law`: the words naming its cites (by default "Law 2")."""
    law = law or f"Law {', '.join(cites)}"
    return {"dealer": dealer, "vulnerable": vulnerable, "cites": list(cites),
            "line": f"Dealer {SEAT_NAMES[dealer]}; {WORDS['vulnerable'][vulnerable]} (board checker, {law})"}


def table_result(ctx: dict) -> str | None:
    """The result at the table: '4♠ doubled by South, 10 tricks'."""
    c, d, t = (ctx.get(k) for k in ("result_contract", "result_declarer", "result_tricks"))
    if not (c or d or t):
        return None
    return ", ".join(p for p in [(call_words(c) if c else "Contract not given") + (f" by {SEAT_NAMES[d]}" if d else ""),
                                 f"{t} trick{'s' if t != '1' else ''}" if t else ""] if p)


def appeal(ctx: dict, edition: str | None = None, cites: list[str] | None = None) -> dict:
    """The statement of the right to appeal, its period cited (Law 92B, or
    `cites`: what the build carried it to in a code ruled by carried trees,
    the older code's "2017:92B" while it awaits review); a code with no appeal
    procedure (record.json's `codes_without`) says so."""
    a = WORDS["appeal"]
    if edition in a.get("codes_without", ()):
        return {"text": a["without"], "cites": []}
    minutes = ctx.get("appeal_minutes") or a["minutes"]
    source = ctx.get("appeal_source")
    text = (a["set"] if source else a["default"]).format(minutes=minutes, source=source)
    return {"text": text, "cites": list(a["cites"] if cites is None else cites)}


def carried_appeal(data: dict | None) -> list[str] | None:
    """The appeal's cites carried into the code of a carried tree (`data`:
    the edition's rulings data), or None for a code with rulings of its own."""
    return ((data or {}).get("carried") or {}).get("appeal")


def finish(rec: dict, ctx: dict, board: dict | None, appeal_cites: list[str] | None = None) -> dict:
    """The parts an appeals committee needs beside the ruling: the board's
    dealer and vulnerability, the table result, the right to appeal (its
    cites as the record already has them, or `appeal_cites`), the signatures
    (the people's names and the hands stay on the phone: PRIVATE_FIELDS)."""
    if appeal_cites is None and isinstance(rec.get("appeal"), dict):
        appeal_cites = rec["appeal"].get("cites")
    rec.update(board_info=board, table_result=table_result(ctx),
               appeal=appeal(ctx, rec.get("edition"), appeal_cites), signatures=list(WORDS["signatures"]))
    return rec


def with_context(rec: dict, ctx: dict, board: dict | None) -> dict:
    """A record (made from the query alone) with the record's own fields
    (context(…) of the fragment's) and what follows from them: the board's
    dealer and vulnerability, the table result, the appeal period.  The
    phone does this (record.js's withContext); the server never has them."""
    return finish({**rec, **ctx}, ctx, board)


def provision_texts(conn, edition: str, ids) -> list[dict]:
    """Each provision with its text and its children's, in the order given
    (`conn`: a connection to the store)."""
    from laws.rulings.data import split_cite

    out = []
    for cite in ids:
        other, pid = split_cite(cite)  # a carried cite awaiting review ("2017:45F"): the older code's text
        ed = other or edition
        row = conn.execute("select id, heading, text from provisions where edition = ? and id = ?",
                           [ed, pid]).fetchone()
        if row is None:
            continue
        parts = [row["text"] or ""] + [r["text"] for r in conn.execute(
            "select text from provisions where edition = ? and parent = ? order by ord", [ed, pid])
            if r["text"]]
        out.append({"id": cite, "heading": row["heading"] or "", "text": " ".join(p for p in parts if p)})
    return out


def review_notes(ruling: dict) -> list[str]:
    """A ruling by trees carried from an older code says so on its record, as
    on its page: whose rulings, and what is not yet reviewed."""
    if not ruling.get("carried_from"):
        return []
    head = f"Ruled by the {ruling['carried_from']} rulings carried into the {ruling['edition']} Laws"
    return [f"{head}, each provision cited the same or reviewed." if ruling["reviewed"]
            else f"{head}; {ruling['review']}."]


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


def from_guided(ruling: dict, ctx: dict, texts: list[dict], adjusted: dict | None = None,
                board: dict | None = None) -> dict:
    """The record of a guided ruling (laws.rulings.guided.rule's reply)."""
    o = ruling["outcome"] or {}
    adj = o.get("score_adjustment")
    return finish({"kind": "guided", "procedure": ruling["procedure"], "title": ruling["title"],
            "edition": ruling["edition"], **ctx,
            "steps": [{"question": a["text"], "answer": a["label"], "cites": a["cites"]} for a in ruling["answered"]],
            "ruling": o.get("ruling") or "(not reached: questions remain)",
            "notes": review_notes(ruling) + [x["text"] for x in (o.get("information"), o.get("penalty")) if x],
            "score_adjustment": adj and adj.get("when"), "checker": adj and adj.get("checker"),
            "adjusted": adjusted, "keep": o.get("record") or [],
            "provisions": texts, "complete": ruling["outcome"] is not None}, ctx, board,
            carried_appeal(_data("guided", ruling["edition"])))


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


# --- readable words for every code ----------------------------------------------------------

_CALL = re.compile(r"^([1-7])(C|D|H|S|NT?)(X{0,2})$", re.I)
_CARD = re.compile(r"^([SHDC])(10|[2-9TJQKA])$", re.I)


def call_words(call: str) -> str:
    """'1H' -> '1♥', 'P' -> 'Pass', 'XX' -> 'Redouble', '4SX' -> '4♠ doubled'."""
    c = call.strip().upper()
    if c in WORDS["calls"]:
        return WORDS["calls"][c]
    m = _CALL.match(c)
    if not m:
        return call.strip()
    strain = "NT" if m[2] in ("N", "NT") else m[2]
    return f"{m[1]}{WORDS['suits'][strain]}" + {"": "", "X": " doubled", "XX": " redoubled"}[m[3]]


def card_words(card: str) -> str:
    """'HK' -> '♥K', 'DT' -> '♦10'."""
    m = _CARD.match(card.strip())
    if not m:
        return card.strip()
    return WORDS["suits"][m[1].upper()] + ("10" if m[2].upper() in ("T", "10") else m[2].upper())


def seat_words(seat: str) -> str:
    return SEAT_NAMES.get(seat.strip().upper(), seat.strip())


def value_words(value: str) -> str:
    """A finding's value (an answer code, a call, a seat, a card) in words."""
    v = value.strip()
    if v.lower() in WORDS["values"]:
        return WORDS["values"][v.lower()]
    if _CALL.match(v) or v.upper() in WORDS["calls"]:
        return call_words(v)
    if _CARD.match(v):
        return card_words(v)
    return v.replace("-", " ").replace("_", " ")


def calls_words(text: str, dealer: str) -> str:
    """The calls as typed ('1H E:1D P', a call without a seat by the next
    player) in words: 'North 1♥, East 1♦, South Pass'; text that is not an
    auction stays as typed (the ruling has refused it already)."""
    try:
        calls = parse_calls_text(text, dealer if dealer in SEATS else "N")
    except RulingError:
        return text
    return ", ".join(f"{seat_words(seat)} {call_words(call)}" for seat, call in calls)


def play_words(text: str, irregularity: dict | None = None) -> str:
    """The cards as typed ('E:HK W:S4:facedown') in words, the irregular one
    saying what happened: 'East led the ♥K out of turn; West ♠4 (face down)'."""
    out = []
    for i, token in enumerate(t for t in re.split(r"[\s,;+]+", text.strip()) if t):
        seat, _, rest = token.partition(":")
        card, _, how = rest.partition(":")
        seat, card = seat_words(seat), card_words(card)
        if irregularity and irregularity.get("index") == i:
            kind = irregularity["kind"]
            key = next((k for k in WORDS["irregular"] if k != "other" and k in kind), "other")
            # what the card was said once: by the kind of irregularity, or by how it was played (W:C3:revoke)
            said = (f"{seat} played the {card}" if how and key == "other" else
                    WORDS["irregular"][key].format(seat=seat, card=card, kind=kind.replace("-", " ")))
        else:
            said = f"{seat} {card}"
        out.append(said + (f" ({value_words(how)})" if how else ""))
    return "; ".join(out)


def _entered_value(key: str, value: str, args, irregularity: dict | None) -> str:
    if key == "calls":
        return calls_words(value, (args.get("dealer") or "N").strip().upper())
    if key == "play":
        return play_words(value, irregularity)
    if key == "card":
        seat, _, cards = value.partition(":")
        return f"{seat_words(seat)}: " + ", ".join(card_words(c) for c in re.split(r"[\s,]+", cards) if c)
    if key in ("dealer", "declarer", "seat"):
        return seat_words(value)
    if key == "required_to_pass":
        return ", ".join(seat_words(s) for s in re.split(r"[\s,]+", value) if s)
    if key == "contract":
        return call_words(value)
    return value_words(value)


def entered(period: str, args, also: list[str] = (), irregularity: dict | None = None) -> str:
    """What the Director entered for a mechanical ruling (the calls or the
    cards, and facts that are not answers), in words, from its address;
    `also`: findings no question took (answered(…)[1]); `irregularity`: the
    ruling's, to say what the irregular card was."""
    out = "; ".join(f"{label}: {_entered_value(k, args[k].strip(), args, irregularity)}"
                    for k, label in WORDS["periods"][period]["entered"]
                    if isinstance(args.get(k), str) and args[k].strip())
    rest = [f"{k.replace('_', ' ')}: {value_words(args[k])}" for k in also
            if k not in dict(WORDS["periods"][period]["entered"]) and isinstance(args.get(k), str) and args[k].strip()]
    return out + (f"; {WORDS['also']}: " + ", ".join(rest) if rest else "")


def _notes(period: str, o: dict) -> list[str]:
    if not o:
        return []
    names = SEAT_NAMES
    notes = [f"{label}: {o[key].replace('_', ' ')}." for key, label in WORDS["must_pass"]
             if o.get(key) and o[key] != "none"]
    if o.get("penalty_cards"):
        notes.append("Penalty cards: " + "; ".join(f"{names.get(p['seat'], p['seat'])}: {card_words(p['card'])} "
                                                   f"({value_words(p['kind'])})"
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
                    adjusted: dict | None = None, board: dict | None = None) -> dict:
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
    return finish({"kind": period, "procedure": period, "title": title, "edition": ruling["edition"], **ctx,
            "entered": facts, "steps": steps, "ruling": said, "notes": review_notes(ruling) + _notes(period, o),
            "score_adjustment": adj and adj.get("when"), "checker": None, "adjusted": adjusted, "keep": [],
            "provisions": texts, "complete": complete}, ctx, board, carried_appeal(_data(period, ruling["edition"])))


def _data(period: str, edition: str) -> dict | None:
    """The rulings data a record's ruling was made by (a file, or a carried tree of the store served)."""
    from laws.rulings import data
    return data.load(period).get(edition)


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
    item = {"checker": checker, "by": f"the {checker.replace('-', ' ')} checker", "input": inp, "result": r, "explanation": out["explanation"],
            "cites": list(out["cites"])}
    if checker == "score":
        declarer = extra.get("declarer", "").upper()
        if declarer not in SEAT_NAMES:
            raise RulingError("Say who declared the contract (N, E, S or W) to carry its score.", "calc")
        pair = "NS" if declarer in "NS" else "EW"
        how = (f"made with {r['overtricks']} overtrick{'s' if r['overtricks'] != 1 else ''}" if r["overtricks"]
               else "made" if r["made"] else f"down {r['undertricks']}")
        weight = _weight(extra.get("weight"))
        ns = r["score"] if pair == "NS" else -r["score"]
        item.update(declarer=declarer, weight=weight, ns_score=ns, sides=f"North-South {ns:+d}, East-West {-ns:+d}",
                    line=f"{r['contract']} by {SEAT_NAMES[declarer]}{' (vulnerable)' if inp.get('vulnerable') else ''}, "
                         f"{inp['tricks']} tricks, {how}: {pair} {r['score']:+d}"
                         + (f" — weight {weight} %" if weight is not None else ""))
    elif checker == "artificial-score":
        side = extra.get("side", "").upper()
        if side not in SIDES:
            raise RulingError("Say which side (NS or EW) the artificial score is for.", "calc")
        item.update(side=side, sides=SIDES[side], line=f"{SIDES[side]}: {out['explanation']}")
    else:
        item["line"] = out["explanation"]
    return item


def adjusted(items: list[dict]) -> dict | None:
    """The adjusted score of a record from its carried results (adjusted_line each)."""
    if not items:
        return None
    return {"results": items, "cites": _once(c for i in items for c in i["cites"])}


# --- plain text ---------------------------------------------------------------------------

BLANK = "________________"


def hands_lines(deal: str | None) -> list[str]:
    """The hands (a PBN Deal) in words, a line a seat: 'North: ♠AKQ ♥… '."""
    if not deal:
        return []
    hands = pbn.deal(deal)
    return [f"{SEAT_NAMES[seat]}: " + ("(not known)" if hand is None else " ".join(
        WORDS["suits"][suit] + (cards or "—") for suit, cards in zip("SHDC", hand))) for seat, hand in hands.items()]


def sequence_words(text: str | None, calls: bool) -> str:
    """An auction or a play kept as 'first seat, then the tokens' in words."""
    if not text or not text.split():
        return ""
    first, *tokens = text.split()
    seats, i, out = "NESW", "NESW".index(first) if first in "NESW" else 0, []
    for t in tokens:
        out.append(f"{SEAT_NAMES[seats[i % 4]]} {call_words(t) if calls else card_words(t)}")
        i += 1
    return ", ".join(out)


def people_lines(record: dict) -> list[str]:
    """The director, the players and the hands: on paper a line to write on
    when the phone has not filled them (they never reach the server)."""
    lines = [f"Director: {record.get('director') or BLANK}",
             "Players: " + "; ".join(f"{SEAT_NAMES[s]} {record.get(n) or BLANK}"
                                     for s, n in zip("NESW", ("north", "east", "south", "west")))]
    hands = hands_lines(record.get("deal"))
    if hands:
        lines += ["Hands:"] + [f"  {h}" for h in hands]
    if record.get("auction"):
        lines.append(f"Auction: {sequence_words(record['auction'], True)}")
    if record.get("cardplay"):
        lines.append(f"Play: {sequence_words(record['cardplay'], False)}")
    return lines


def as_text(record: dict) -> str:
    """The record as plain text (copied, mailed, pasted into a report)."""
    lines = [f"RULING RECORD — {record['title']} ({record['edition']} Laws)"]
    # each of the record's fields, a line to write on when the phone has not filled it
    for name in HEAD:
        lines.append(f"{CONTEXT_FIELDS[name][0]}: {record.get(name) or BLANK}"
                     + (f" — {record['board_info']['line']}" if name == "board" and record.get("board_info") else ""))
    lines += people_lines(record)
    if record.get("entered"):
        lines.append(f"Entered: {record['entered']}")
    lines += ["", "Facts:", record.get("facts") or BLANK]
    if record["steps"]:
        lines += ["", "Questions and answers:"]
        for i, s in enumerate(record["steps"], 1):
            lines.append(f"{i}. {s['question']} [{', '.join(s['cites'])}]")
            lines.append(f"   — {s['answer']}")
    lines += ["", "Ruling:", record["ruling"]]
    lines += record["notes"]
    lines += ["", f"Table result: {record.get('table_result') or BLANK}"]
    if record.get("score_adjustment") or record.get("adjustment") or record.get("adjusted"):
        lines += ["", "Score adjustment:"]
        if record.get("score_adjustment"):
            lines.append(record["score_adjustment"])
        for item in (record.get("adjusted") or {}).get("results", []):
            lines.append(f"- {item['line']} [{', '.join(item['cites'])}]")
            lines.append(f"  {item['sides'] + ' — ' if item.get('sides') else ''}computed by {item['by']}")
        if record.get("adjustment"):
            lines.append(record["adjustment"])
    if record["keep"]:
        lines += ["", "To record: " + "; ".join(record["keep"]) + "."]
    cites = record["appeal"]["cites"]
    lines += ["", f"Right to appeal: {record['appeal']['text']}" + (f" [{', '.join(cites)}]" if cites else "")]
    lines += ["", f"Provisions applied ({record['edition']} Laws):"]
    for p in record["provisions"]:
        lines.append(f"Law {p['id']}{' — ' + p['heading'] if p['heading'] else ''}: {p['text']}")
    lines += ["", "Signatures:"] + [f"{who}: {BLANK}" for who in record["signatures"]]
    return "\n".join(lines) + "\n"
