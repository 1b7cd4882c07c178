"""From a question to the ruling: which ruling procedure applies a provision
that search found, and what of the question it may carry in.

    procedures(edition)          # {provision id: [procedure, ...]} best first
    for_provision(edition, pid)  # the procedures for a search result's provision
    facts(question)              # what the question states: seats with roles, calls, a trick
    offer(edition, pid, question)  # {"title", "url", "procedure", "prefilled"} or None

The map is derived from the cites in the rulings data (laws/rulings/<period>/
<edition>.json), never from a list of phrases: a procedure applies a
provision when its own tree (or its kind's cites) cites it.  Shared subtrees
(Law 26's lead restrictions, which follow many auction rulings) do not make
every procedure that uses them an answer to "lead restrictions".

A field is prefilled only from a fact the question states in words:
"North dealt" gives the auction's dealer, "South is declarer" the play's
declarer.  A call or a trick number alone says nothing of where it stands
in the auction or the play, so it fills nothing (the play procedure takes a
trick number with the table-kit issue).  static/search.js carries the same
rules for the phone offline; tests/test_search_handoff.py holds both to the
same questions.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, urlencode

from laws import citations
from laws.rulings import data

PERIODS = ("auction", "play", "guided")
# the kinds that say no irregularity happened: nothing to rule on
NO_IRREGULARITY = ("legal", "none")
SEATS = {"north": "N", "east": "E", "south": "S", "west": "W"}
_SEAT = r"(north|east|south|west)"
# "North dealt", "dealer was South", "East is the dealer"
DEALER = re.compile(rf"\b{_SEAT}\s+(?:dealt|deals|(?:is|was)\s+(?:the\s+)?dealer)\b|\bdealer\s+(?:is\s+|was\s+)?{_SEAT}\b",
                    re.I)
# "South is declarer", "declarer (West)", "declarer was East", "North declaring"
DECLARER = re.compile(rf"\b{_SEAT}\s+(?:is|was)\s+(?:the\s+)?declarer\b|\bdeclarer\s*\(?\s*(?:is\s+|was\s+)?{_SEAT}\b\)?"
                      rf"|\b{_SEAT}\s+(?:is\s+|was\s+)?declaring\b", re.I)
STRAINS = {"c": "C", "club": "C", "clubs": "C", "d": "D", "diamond": "D", "diamonds": "D", "h": "H", "heart": "H",
           "hearts": "H", "s": "S", "spade": "S", "spades": "S"}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "first": 1, "second": 2, "third": 3,
           "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
           "eleventh": 11, "twelfth": 12, "thirteenth": 13}
CALL = re.compile(r"\b([1-7]|one|two|three|four|five|six|seven)\s*(no[\s-]?trumps?|notrumps?|nt|clubs?|diamonds?|"
                  r"hearts?|spades?|[cdhsn])\b", re.I)
TRICK = re.compile(r"\btrick\s+(?:no\.?\s*|number\s+)?(\d{1,2})\b|\b(\d{1,2})(?:st|nd|rd|th)\s+trick\b"
                   r"|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
                   r"|thirteenth)\s+trick\b", re.I)


# --- the map ------------------------------------------------------------------

def _own_cites(tree: dict) -> set[str]:
    """What a tree cites itself, its shared subtrees left out."""
    out: set[str] = set()
    for _, node in data.nodes(tree):
        out.update(node.get("cites", []))
        out.update((node.get("ask") or {}).get("cites", []))
        o = node.get("outcome") or {}
        out.update(o.get("cites", []) if isinstance(o.get("cites"), list) else [])
        for key in ("lead_restrictions", "score_adjustment", "information"):
            if isinstance(o.get(key), dict):
                out.update(o[key].get("cites", []))
    return out


def _law(pid: str) -> int | None:
    return data.law_of(pid)  # None for an older code's provision a carried tree still cites


def _subtrees_used(tree: dict, subtrees: dict, seen: set | None = None) -> set[str]:
    """The shared subtrees a tree continues into (`use`, `then`), and theirs."""
    seen = set() if seen is None else seen
    for _, node in data.nodes(tree):
        for key in ("use", "then"):
            name = node.get(key)
            if name in subtrees and name not in seen:
                seen.add(name)
                _subtrees_used(subtrees[name], subtrees, seen)
    return seen


def procedures(edition: str) -> dict[str, list[dict]]:
    """`_procedures`, for the trees served now (a store's carried trees are its own)."""
    return _procedures(edition, data.served_store())


@lru_cache(maxsize=64)
def _procedures(edition: str, _store: str | None) -> dict[str, list[dict]]:
    """provision id -> the procedures that cite it, best first:

    1. the procedure named for that very provision (a kind's `law`: "54");
    2. procedures whose first law is the provision's (a kind's `law`, a
       guided procedure's first of its `laws`), then those that list its law
       among theirs, citing it in their own tree or in a shared subtree they
       continue into (the revoke's transfer of tricks);
    3. other procedures citing it in their own tree (an auction ruling
       that cites Law 16 for the information from a withdrawn call);
    then the procedures citing fewest provisions (the most specific), then
    the data's order.  A shared subtree's cites count only for procedures
    that apply the provision's law themselves: Law 26's lead restrictions
    follow many auction rulings, which are not answers to "lead
    restrictions"; the revoke's tree cites Law 62, and its shared subtree
    the correction of a revoke (62A)."""
    found: dict[str, list[tuple[tuple, dict]]] = {}
    order = 0
    for period in PERIODS:
        spec = data.load(period).get(edition)
        if not spec:
            continue
        subtrees = spec.get("subtrees", {})
        for kind, k in spec["kinds"].items():
            if kind in NO_IRREGULARITY:
                continue
            own = set(k.get("cites", [])) | _own_cites(k["tree"])
            shared = set().union(*(_own_cites(subtrees[n]) for n in _subtrees_used(k["tree"], subtrees))) - own
            declared = [int(x) for x in k["laws"]] if k.get("laws") else ([_law(k["law"])] if k.get("law") else [])
            laws = set(declared)
            proc = {"period": period, "kind": kind, "title": k["title"], "url": _url(period, kind, edition)}
            order += 1
            touched = laws | {_law(c) for c in own}  # the laws the procedure itself applies
            # sorted: the map's order (which for_provision's children follow, and the phone's
            # copy of it) must not depend on the order of a set of strings, which varies by process
            for pid in sorted(own | shared):
                mine = _law(pid) in laws
                if pid in shared and _law(pid) not in touched:
                    continue
                tier = 0 if k.get("law") == pid else 1 if declared[:1] == [_law(pid)] else 2 if mine else 3
                found.setdefault(pid, []).append(((tier, pid in shared, len(own), order), proc))
    return {pid: [p for _, p in sorted(ps, key=lambda x: x[0])] for pid, ps in found.items()}


def by_law(edition: str) -> list[tuple[str, dict]]:
    """`_by_law`, for the trees served now (a store's carried trees are its own)."""
    return _by_law(edition, data.served_store())


@lru_cache(maxsize=64)
def _by_law(edition: str, _store: str | None) -> list[tuple[str, dict]]:
    """(the provision a mechanical procedure is named for, the procedure):
    an auction or play kind's `law` ("54", "45C4"), for the provisions of
    that law its tree does not cite by name (54A for the faced opening lead
    out of turn).  Guided procedures list whole laws they touch (12 for the
    adjusted score after unauthorized information), too broad to name one."""
    out = []
    for period in ("auction", "play"):
        spec = data.load(period).get(edition)
        for kind, k in (spec or {}).get("kinds", {}).items():
            if k.get("law") and kind not in NO_IRREGULARITY:
                out.append((k["law"], {"period": period, "kind": kind, "title": k["title"],
                                       "url": _url(period, kind, edition)}))
    return out


def _inside(pid: str, law: str) -> bool:
    """`pid` is the provision `law` names or one below it (54A in 54; 45C4(b) in 45C4, not 45C40)."""
    if pid == law:
        return True
    rest = pid[len(law):] if pid.startswith(law) else None
    return bool(rest) and (rest[0] in "(." or rest[0].isalpha() != law[-1].isalpha())


def _url(period: str, kind: str, edition: str) -> str:
    if period == "guided":
        return f"/rulings/guided/{quote(kind)}?" + urlencode({"edition": edition})
    return f"/rulings/{period}?" + urlencode({"edition": edition})


def _parent(pid: str) -> str | None:
    above = citations.candidates(pid)[1:2]
    return above[0] if above else None


def for_provision(edition: str, pid: str) -> list[dict]:
    """The procedures that apply a provision: those citing it, else its
    children or its parent (a result 45C4 answered by the tree citing
    45C4(b) is one level away), else the mechanical procedure named for the
    provision or a provision above it (the most specific first)."""
    table = procedures(edition)
    if pid in table:
        return table[pid]
    children = [p for q, ps in table.items() if _parent(q) == pid for p in ps]
    if children:
        return children
    parent = _parent(pid)
    if parent and parent in table:
        return table[parent]
    named = sorted(((law, p) for law, p in by_law(edition) if _inside(pid, law)), key=lambda lp: -len(lp[0]))
    return [p for _, p in named]


# --- the question's facts ---------------------------------------------------------

def facts(question: str) -> dict:
    """What the question states: {"dealer", "declarer"} (seat letters),
    "calls" (["2H", ...]) and "trick" (a number), each only when said."""
    out: dict = {}
    m = DEALER.search(question)
    if m:
        out["dealer"] = SEATS[(m[1] or m[2]).lower()]
    m = DECLARER.search(question)
    if m:
        out["declarer"] = SEATS[(m[1] or m[2] or m[3]).lower()]
    calls = []
    for level, strain in CALL.findall(question):
        level = NUMBERS.get(level.lower(), level)
        s = re.sub(r"[\s-]+", "", strain.lower())
        calls.append(f"{level}{'NT' if s.startswith('no') or s in ('nt', 'n') else STRAINS[s]}")
    if calls:
        out["calls"] = calls
    m = TRICK.search(question)
    if m:
        n = int(m[1] or m[2]) if (m[1] or m[2]) else NUMBERS[m[3].lower()]
        if 1 <= n <= 13:
            out["trick"] = n
    return out


def without_seats(question: str) -> str:
    """The question less its statements of who dealt and who is declarer:
    they say where the players sit, not which law applies, so search ranks
    the rest ("North dealt, then East passed out of turn" is searched as
    "then East passed out of turn")."""
    question = DEALER.sub(" ", question)
    # "declarer (West) led": declarer stays, as the one who led
    question = DECLARER.sub(lambda m: " declarer " if m[0].lower().startswith("declarer") else " ", question)
    return re.sub(r"\s+", " ", question).strip(" ,;")


# which stated facts each procedure's address takes
PREFILL = {"auction": {"dealer": "dealer"}, "play": {"declarer": "declarer"}, "guided": {}}


def offer(edition: str, pid: str, question: str) -> dict | None:
    """What the first result offers: the best procedure for its provision,
    its address with what the question states filled in, and those fields."""
    found = for_provision(edition, pid)
    if not found:
        return None
    proc = found[0]
    stated = facts(question)
    prefilled = {field: stated[fact] for fact, field in PREFILL[proc["period"]].items() if fact in stated}
    url = proc["url"] + ("&" + urlencode(prefilled) if prefilled else "")
    return {"procedure": f"{proc['period']}:{proc['kind']}", "title": f"Rule on: {proc['title']}",
            "url": url, "prefilled": prefilled}
