"""Citations of the Laws: reading the forms the texts use, and the forms people type.

Two jobs, one grammar:

* `find(text)` finds every citation in a law's text — `Law 12C1(b)`,
  `Laws 47E and 41`, `Laws 61 to 64`, `see C1(d)` (relative to the law it sits
  in), `see B2(a)(v) above`, `Law 16 — Unauthorized Information —`,
  `(a), (b) and (c) of Law 42`, `Proprieties 4`, `Club Law 64`.
* `parse(query)` reads what a director types in the jump box — `27B1`,
  `L27B1`, `law 27 b 1`, `12C1b`, `Law 40B2(a)(v)`, `64` — as a provision id.

Provision ids are built as in CONTRACT.md: `12C1(b)`, `20F5(b)(ii)`, `35.1`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A provision path after the law number: letter, number, (small letter), (roman)...
# Brackets are optional in what people type ('12C1b') and in some sources ('B2a)v)').
_PATH = r"""
    (?P<letter>[A-H])?
    (?P<number>\d{1,2}(?![\d]))?
    (?P<subs>(?:\s?\(?\s?(?:[a-z]|[ivx]{1,4})\s?\))*)
"""
_CITE_ID = re.compile(rf"(?P<law>\d{{1,2}})(?![\d.,]\d){_PATH}", re.X)
_SUB = re.compile(r"\(?\s?([a-z]|[ivx]{1,4})\s?\)")


@dataclass(frozen=True)
class Cite:
    raw: str  # the citation as it stands in the text
    start: int
    end: int
    law: int | None  # None for a relative citation ('see C1(d)') or an outside text
    path: str  # the provision below the law: 'C1(b)', '' for the whole law
    outside: str = ""  # 'Proprieties', 'Club Law': texts that are not in the corpus

    @property
    def id(self) -> str | None:
        return None if self.law is None else provision_id(self.law, self.path)


def provision_id(law: int, path: str) -> str:
    return f"{law}{path}"


def _normalise_subs(subs: str) -> str:
    return "".join(f"({s})" for s in _SUB.findall(subs or ""))


def _path(m: re.Match) -> str:
    return (m["letter"] or "") + (m["number"] or "") + _normalise_subs(m["subs"])


# --- finding citations in law text -------------------------------------------

# 'Law 12C1(b)', 'Laws 47E and 41', 'Laws 61 to 64', 'Laws 4, 12C2 and 91'
_ONE = r"\d{1,2}(?:[A-H])?(?:\d{1,2})?(?:\s?\(\s?(?:[a-z]|[ivx]{1,4})\s?\))*(?![A-Za-z])"
_LAWS = re.compile(
    rf"""(?:\b(?P<outside>Club)\s+)?
        \b(?P<word>Laws?|Proprieties)\s*(?P<list>{_ONE}(?:\s*(?:,|and|or|to|&|–|-)\s*(?:Law\s+)?{_ONE})*)""",
    re.X)
_ITEM = re.compile(rf"{_ONE}")
# '(a), (b) and (c) of Law 42'
_OF_LAW = re.compile(r"(?P<items>\((?:[a-z])\)(?:\s*(?:,|and|or)\s*\([a-z]\))*)\s+of\s+Law\s+(?P<law>\d{1,2})\b")
# relative: 'see C1(d)', 'see B2(a)(v) above', 'C2 below', 'A and B above', 'see D following'
_RELATIVE = re.compile(
    r"""(?:\b(?:see|under|in|of|with|per|and|from)\s+|\[\s*and\s+see\s+)
        (?P<path>[A-H](?:\d{1,2})?(?:\s?\((?:[a-z]|[ivx]{1,4})\))*)(?![A-Za-z0-9])
        (?=\s*(?:above|below|following|\)|\]|,|;|\.|$|(?:and|or)\s+[A-H]\b))""", re.X)
# relative to the current lettered section: 'see 4 following', 'see 3 above'
_RELATIVE_NUMBER = re.compile(
    r"""\bsee\s+(?P<path>\d{1,2}(?:\s?\((?:[a-z]|[ivx]{1,4})\))*)\s+(?=above|below|following)""", re.X)


def find(text: str) -> list[Cite]:
    """Every citation in `text`, in order of position."""
    cites: list[Cite] = []
    taken: list[range] = []

    def add(c: Cite) -> None:
        cites.append(c)
        taken.append(range(c.start, c.end))

    for m in _OF_LAW.finditer(text):
        law = int(m["law"])
        for item in re.finditer(r"\(([a-z])\)", m["items"]):
            add(Cite(item[0], m.start("items") + item.start(), m.start("items") + item.end(), law, f"({item[1]})"))
        add(Cite(f"Law {law}", m.start("law") - 4, m.end("law"), law, ""))
    for m in _LAWS.finditer(text):
        if any(m.start("list") in r for r in taken):
            continue
        outside = "Proprieties" if m["word"] == "Proprieties" else ("Club Law" if m["outside"] else "")
        items = list(_ITEM.finditer(m["list"]))
        base = m.start("list")
        for i, item in enumerate(items):
            raw_start = m.start() if i == 0 else base + item.start()
            im = _CITE_ID.fullmatch(item[0].strip())
            if not im:
                continue
            law, path = int(im["law"]), _path(im)
            if outside:
                add(Cite(text[raw_start:base + item.end()], raw_start, base + item.end(), None,
                         f"{law}{path}", outside))
                continue
            add(Cite(text[raw_start:base + item.end()], raw_start, base + item.end(), law, path))
            # 'Laws 61 to 64': every law in the range is cited
            sep = m["list"][item.end():items[i + 1].start()] if i + 1 < len(items) else ""
            if re.fullmatch(r"\s*(?:to|–|-)\s*", sep) and not path:
                nxt = _CITE_ID.fullmatch(items[i + 1][0].strip())
                if nxt and not _path(nxt):
                    for between in range(law + 1, int(nxt["law"])):
                        add(Cite(m["list"][item.start():items[i + 1].end()], base + item.start(),
                                 base + items[i + 1].end(), between, ""))
    for pattern in (_RELATIVE, _RELATIVE_NUMBER):
        for m in pattern.finditer(text):
            if any(m.start("path") in r for r in taken):
                continue
            pm = re.fullmatch(rf"{_PATH}", m["path"], re.X)
            path = _path(pm) if pm else m["path"]
            add(Cite(m["path"], m.start("path"), m.end("path"), None, path))
    cites.sort(key=lambda c: (c.start, c.end))
    return cites


# --- reading what people type -------------------------------------------------

_QUERY = re.compile(
    r"""^\s*(?:laws?|l)?\s*\.?\s*(?P<law>\d{1,2})\s*
        (?P<letter>[a-h])?\s*\.?\s*(?P<number>\d{1,2})?\s*
        (?P<subs>(?:\(?\s*(?:[a-z]|[ivx]{1,4})\s*\)?\s*)*)$""", re.X | re.I)


def parse(query: str) -> tuple[int, str] | None:
    """'27B1' -> (27, '27B1'); 'law 40 b 2 a v' -> (40, '40B2(a)(v)'); None if
    the query is not a citation.  The id may name a provision the edition lacks:
    callers fall back to the longest existing prefix (`candidates`)."""
    if not query or len(query) > 40 or re.search(r"\d{3}", query):
        return None  # no law is numbered above 99: '123' is not a citation
    m = _QUERY.match(query.strip())
    if not m:
        return None
    law = int(m["law"])
    if not 1 <= law <= 99:
        return None
    letter = (m["letter"] or "").upper()
    number = m["number"] or ""
    subs = re.findall(r"[a-z]+", (m["subs"] or "").lower())
    if any(len(s) > 1 and not re.fullmatch(r"[ivx]+", s) for s in subs):
        return None
    # a number with no letter above it is numbered directly under the law: 35.1
    number = f".{number}" if number and not letter else number
    return law, f"{law}{letter}{number}" + "".join(f"({s})" for s in subs)


def split_edition(query: str, editions) -> tuple[str | None, str]:
    """A citation may name its edition first: '2007 45C4', '2007:45C4',
    '1993-rubber law 64' -> ('2007', '45C4')...; the edition is one of
    `editions` (ids, matched ignoring case), else (None, query) unchanged."""
    m = re.match(r"\s*([\w-]+)\s*(?::|\s)\s*(.+)$", query or "")
    if m:
        named = next((e for e in editions if e.lower() == m[1].lower()), None)
        if named is not None:
            return named, m[2]
    return None, query


def candidates(pid: str) -> list[str]:
    """The id and its ancestors, most specific first:
    '12C1(b)' -> ['12C1(b)', '12C1', '12C', '12']."""
    m = re.match(r"\d{1,2}", pid)
    if not m:
        return []
    parts = re.findall(r"\([^()]+\)|[A-H]|\.\d{1,2}|\d{1,2}", pid[m.end():])
    return [m[0] + "".join(parts[:i]) for i in range(len(parts), -1, -1)]


def law_ranges(laws: list[int]) -> str:
    """[1, 2, 3, 5] -> 'Laws 1–3, 5'."""
    if not laws:
        return "no laws"
    laws = sorted(laws)
    spans, start, prev = [], laws[0], laws[0]
    for n in laws[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        spans.append(f"{start}–{prev}" if prev != start else f"{start}")
        if n is not None:
            start = prev = n
    return ("Laws " if len(laws) > 1 else "Law ") + ", ".join(spans)
