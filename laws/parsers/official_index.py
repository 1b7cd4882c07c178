"""The official *Index to Duplicate Laws* printed at the back of a code.

    parse(text, defined_terms, record, uncertain) -> list[IndexEntry]

`text` is the whole decoded source (the parser finds the index itself: the
line `Index to Duplicate Laws` up to the back cover).  The ACBL's 2017 book
prints about a hundred headings, each with its own citations and indented
sub-entries; the PDF extraction flattened them: a heading and all its
sub-entries run on one line, wrapping across lines and pages, with page
numbers in between and the `ff`/`ffi`/`ffl` ligatures lost:

    Bid Definitions See also Call After auction has ended 39 Before a pass out
    of rotation 30B Di erent methods 18F Insu cient bid 27 ...

How it is read back:

* Lines are grouped into headings.  A line that starts with a capital starts
  a heading, unless it is a wrapped part of the one before.  One page (the
  "Appeal" heading) printed each sub-entry on a line of its own: those lines
  follow a heading printed with no sub-entry of its own and go back in the
  alphabet from it, and they end when the alphabet starts again
  ("Without merit" is followed by the heading "Arrangement Of Tables").
* Each heading's text is cut at its citations (`12C1(d), 12C2, 86B2`,
  `Definitions`, `Introduction`, `93 footnote`) and cross-references
  (`See X`, `See also X`, where X is another heading): the text before each
  group of citations is one entry.  The first entry's text holds the heading
  and, run into it, the first sub-entry: the heading is its Title-Case words
  ("Card Cannot be found" -> "Card" / "Cannot be found").  Where the first
  sub-entry is a capitalised word too ("Explanation Calls 20F"), nothing in
  the text shows where the heading ends: those headings are listed in
  `HEADINGS_BEFORE_A_CAPITALISED_ENTRY`.
* `Definitions` cites the definition of the entry's term (or its heading's)
  where the code defines it (`def:<term>`), else the definitions page
  (`definitions`); `Introduction` cites the code's introduction.

The lost ligatures are restored by `laws.ligatures.restore`, line by line;
what it changed is recorded like every other repair, and each heading keeps
the source's reading (`raw`) when it differs.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from laws import citations
from laws.model import Correction, IndexCite, IndexEntry

TITLE = "Index to Duplicate Laws"
_START = re.compile(rf"^\f*{TITLE}\s*$", re.M)
_END = re.compile(r"^\f*\$\d")  # the back cover's price: '$9.95'
_PAGE = re.compile(r"^\f*\s*(?:\d{1,3}|[ivxlc]{1,6})?\s*$")  # page numbers and blank lines
_CONTINUED_ON = re.compile(r"\(continued on\)\s*$")
_CONTINUED = re.compile(r"^(?P<head>.+?)\s+\(continued\)\s*(?P<rest>.*)$")

# A provision as the index cites it: 12C1(d), 40B2(a)(iii), 80A1(C), 93.
_PROVISION = r"\d{1,2}(?:[A-H]\d{0,2})?(?:\([a-zA-Z]{1,4}\))*"
_ITEM = rf"(?:Definitions|Introduction|{_PROVISION}(?:\s+(?:second\s+)?footnote)?)"
_TOKEN = re.compile(
    rf"""(?<![\w'(])(?P<cites>{_ITEM}(?![\w(])(?:\s*,\s*{_ITEM}(?![\w(]))*)
        |(?<!\w)(?P<see>See(?P<also>\s+also)?)\s+(?=\S)
        |(?<!\w)(?P<note>Note:)\s*""", re.X)
_ONE = re.compile(rf"(?P<item>Definitions|Introduction|(?P<prov>{_PROVISION}))(?:\s+(?:second\s+)?footnote)?")

# Lower-case words that may stand inside a heading ('Call for Card',
# 'Forfeiture of the Right to Rectification'); any other lower-case word
# belongs to a sub-entry.
_SMALL = {"a", "an", "and", "for", "of", "or", "the", "to", "in", "on", "by", "with", "at"}

# Headings whose first sub-entry begins with a capital, run into the heading
# ("Explanation Calls 20F Correcting errors 20F4"): the flattened text cannot
# show where the heading ends, the printed index did (bold, on a line of its own).
HEADINGS_BEFORE_A_CAPITALISED_ENTRY = (
    "Disclosure",  # Alert See Alert
    "Explanation",  # Calls 20F
    "Facts",  # Agreed 84
    "Logical Alternative",  # Definition 16B1(b)
    "Options",  # Advantageous 10C3
    "Procedure",  # Auction Period See Auction Period
    "Review",  # Auction 20C2
    "Rights",  # Dummy's 42
    "Substitute",  # Board 6D3
)

REASON = "index heading's sub-entries run into it by the PDF extraction"


@dataclass
class _Block:
    """The lines of one heading, as read and as repaired."""

    line: int
    lines: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    made: list[Correction] = field(default_factory=list)  # repairs of its lines (certain or not)
    list_mode: bool = False  # its sub-entries come one per line (the 'Appeal' page)
    last_sub: str = ""

    @property
    def text(self) -> str:
        return " ".join(self.lines)


def region(text: str) -> list[tuple[int, str]]:
    """The index's lines with their line numbers (1-based), page numbers, blank
    lines and the compiler's credit left out; [] when the text has no index."""
    found = list(_START.finditer(text))  # the table of contents names it too: the last is the index
    if not found:
        return []
    m = found[-1]
    first = text.count("\n", 0, m.start()) + 2
    out = []
    for n, line in enumerate(text[m.end():].lstrip("\n").split("\n"), first):
        if _END.match(line):
            break
        if _PAGE.fullmatch(line) or line.startswith("Compiled by"):
            continue
        out.append((n, line.replace("\f", "").strip()))
    return out


def _key(s: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", s.lower()).strip()


def _first_text(line: str) -> str:
    m = _TOKEN.search(line)
    return (line[:m.start()] if m else line).strip()


def split_heading(text: str) -> tuple[str, str]:
    """The heading and the first sub-entry run into it: 'Card Cannot be found'
    -> ('Card', 'Cannot be found'); 'Call for Card' -> ('Call for Card', '')."""
    for head in HEADINGS_BEFORE_A_CAPITALISED_ENTRY:
        if text.startswith(head + " ") and text[len(head) + 1:][:1].isupper():
            return head, text[len(head) + 1:].strip()
    words = text.split()
    depth, first_lower = 0, None
    for i, w in enumerate(words):
        opening = depth == 0 and w.startswith("(")
        depth += w.count("(") - w.count(")")
        if opening or depth > 0 or w.endswith(")"):
            continue  # '(Left Hand Opponent)', 'RHO (Right hand opponent)'
        bare = w.strip(",.;:'\"")
        if bare[:1].islower() and bare.lower() not in _SMALL:
            first_lower = i
            break
    if first_lower is None and words and words[-1] in _SMALL:
        first_lower = len(words) - 1  # 'Time of 92B': a heading never ends on 'of'
    if first_lower is None:
        return text.strip(), ""
    start = max((j for j in range(first_lower) if words[j][:1].isupper()), default=0)
    return " ".join(words[:start]), " ".join(words[start:])


def _heading_of(line: str) -> str:
    return split_heading(_first_text(line))[0]


def _restore(lines: list[tuple[int, str]], restore, record: list, uncertain: list
             ) -> tuple[list[str], dict[int, list[Correction]]]:
    """The lines with their ligatures restored, and each line's repairs.  The
    whole index is repaired at once (the repair reads a text's own spellings),
    so each repair is put back on its line by where its reading now stands."""
    if restore is None:
        return [raw for _, raw in lines], {}
    fixed, made, unsure = restore("\n".join(raw for _, raw in lines), "index")
    out = fixed.split("\n")
    if len(out) != len(lines):  # a repair across a line break: repair line by line instead
        out, made, unsure = [], [], []
        for _, raw in lines:
            t, m, u = restore(raw, "index")
            out.append(t)
            made += m
            unsure += u
    by_line: dict[int, list[Correction]] = {}
    used: Counter = Counter()  # (line index, reading) -> repairs put there so far
    start = 0
    for c in made + unsure:  # in the order of the text
        target = c.corrected if c in made else c.raw
        j = next((k for k in range(start, len(out)) if out[k].count(target) > used[(k, target)]), None)
        if j is None:
            continue
        used[(j, target)] += 1
        start = j
        c.line = c.line or lines[j][0]
        by_line.setdefault(lines[j][0], []).append(c)
    record.extend(made)
    uncertain.extend(unsure)
    return out, by_line


def _blocks(lines: list[tuple[int, str]], restore, record: list, uncertain: list) -> list[_Block]:
    blocks: list[_Block] = []
    fixed, repairs = _restore(lines, restore, record, uncertain)
    for (n, raw), line in zip(lines, fixed):
        if _CONTINUED_ON.search(raw):
            continue  # 'Partnership Understanding (continued on)': the foot of a page
        cur = blocks[-1] if blocks else None
        m = _CONTINUED.match(line)
        if cur and m and _key(m["head"]) == _key(_heading_of(cur.lines[0])):
            line = m["rest"]  # 'Partnership Understanding (continued) Special 40B ...'
        elif cur is None or _starts_heading(line, cur):
            blocks.append(cur := _Block(n))
        cur.lines.append(line)
        cur.raw.append(raw)
        cur.made.extend(repairs.get(n, []))
    return blocks


def _starts_heading(line: str, cur: _Block) -> bool:
    """Whether `line` begins a new heading rather than continuing `cur`."""
    if not line[:1].isupper():
        return False  # a wrapped line: 'infraction) 12C1(e)', '93B3', 'from dummy ...'
    first = _first_text(line)
    head = split_heading(first)[0]
    if not head:
        return False  # 'All others 93B2': a sub-entry
    after = line[len(first):].lstrip()
    see = re.match(r"See(?:\s+also)?\s+(.*)", after)
    if see and _key(see[1]).startswith(_key(head)):
        return False  # 'Revoke See Revoke': a heading never refers to itself
    cur_head = _heading_of(cur.lines[0])
    if cur.list_mode:
        if _key(first) >= cur.last_sub and _key(first) > _key(cur_head):
            cur.last_sub = _key(first)
            return False
        return True
    if _key(head) < _key(cur_head) and _single_entry(cur.lines[0]):
        cur.list_mode, cur.last_sub = True, _key(first)
        return False
    return True


def _single_entry(line: str) -> bool:
    """A heading line with no sub-entry: its text, then citations only."""
    segments = _segments(line, set())
    return sum(1 for s in segments if s[0] == "text") == 1


def _segments(text: str, headings: set[str]) -> list[tuple]:
    """('text', s) / ('cites', [IndexCite]) / ('see', term, also) / ('note', s)."""
    out: list[tuple] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.search(text, pos)
        if not m:
            break
        if text[pos:m.start()].strip():
            out.append(("text", text[pos:m.start()].strip()))
        if m["cites"]:
            out.append(("cites", [_cite(c) for c in _ONE.finditer(m["cites"])]))
            pos = m.end()
        elif m["note"]:
            out.append(("note", text[m.end():].strip()))
            pos = len(text)
        else:
            term = _see_target(text[m.end():], headings)
            out.append(("see", term, bool(m["also"])))
            pos = m.end() + len(term)
    if text[pos:].strip():
        out.append(("text", text[pos:].strip()))
    return out


def _see_target(rest: str, headings: set[str]) -> str:
    """The heading a cross-reference names: the longest heading that `rest`
    starts with, else its first word ('See also Score' -> 'Score')."""
    low = rest.lower()
    best = ""
    for h in headings:
        if low.startswith(h) and len(h) > len(best) and (len(low) == len(h) or not low[len(h)].isalnum()):
            best = h
    if best:
        return rest[:len(best)]
    return rest.split(" ", 1)[0]


def _cite(m: re.Match) -> IndexCite:
    """The citation as an id, read by the Laws' citation grammar (which also
    puts a bracketed level printed in capitals, '80A1(C)', in lower case)."""
    if m["prov"]:
        parsed = citations.parse(m["prov"])
        return IndexCite(m[0], parsed[1] if parsed else m["prov"])
    return IndexCite(m[0], m["item"].lower())


def _entries(segments: list[tuple], line: int) -> list[IndexEntry]:
    entries: list[IndexEntry] = []
    for seg in segments:
        if seg[0] == "text":
            entries.append(IndexEntry(seg[1], line=line))
            continue
        if not entries:
            continue  # a citation before any text: nothing to attach it to
        e = entries[-1]
        if seg[0] == "cites":
            e.cites.extend(seg[1])
        elif seg[0] == "see":
            (e.see_also if seg[2] else e.see).append(seg[1])
        elif seg[0] == "note":
            entries[0].note = seg[1]
    return entries


def _norm_term(term: str) -> str:
    term = re.sub(r"\s*\(.*?\)", "", term)
    return re.sub(r"\s+", " ", term).strip().lower()


def _definition_id(terms: list[str], defined: dict[str, str]) -> str:
    for t in terms:
        k = _norm_term(t)
        for cand in (k, k.rstrip("s"), k + "s"):
            if cand in defined:
                return f"def:{defined[cand]}"
    return "definitions"


def parse(text: str, defined_terms=(), record: list[Correction] | None = None,
          uncertain: list[Correction] | None = None, restore="default") -> list[IndexEntry]:
    """The index's headings, in the order printed, each with its sub-entries.

    `defined_terms`: the terms the code defines, so that `Definitions` can cite
    the definition itself.  `record`, `uncertain`: lists the repairs made (and
    those the repair could not settle) are appended to."""
    if restore == "default":
        from laws.ligatures import restore as ligatures
        restore = ligatures
    record = record if record is not None else []
    uncertain = uncertain if uncertain is not None else []
    lines = region(text)
    if not lines:
        return []
    blocks = _blocks(lines, restore, record, uncertain)
    headings = {_heading_of(b.lines[0]).lower() for b in blocks}
    defined = {_norm_term(t): t for t in defined_terms}
    out: list[IndexEntry] = []
    for b in blocks:
        entries = _entries(_segments(b.text, headings), b.line)
        if not entries:
            continue
        head_text, first_sub = split_heading(entries[0].term)
        heading = IndexEntry(head_text, line=b.line)
        if first_sub:
            entries[0].term = first_sub
            heading.note, entries[0].note = entries[0].note, ""
            heading.subterms = entries
        else:
            heading.cites, heading.see, heading.see_also = entries[0].cites, entries[0].see, entries[0].see_also
            heading.note = entries[0].note
            heading.subterms = entries[1:]
        raw = " ".join(b.raw)
        heading.raw = raw if raw != b.text else None
        for c in b.made:
            c.where = f"index:{heading.term}"
        for e in [heading] + heading.subterms:
            for c in e.cites:
                if c.id == "definitions":
                    c.id = _definition_id([e.term, heading.term] if e is not heading else [e.term], defined)
                elif c.id[:1].isdigit() and c.raw.split()[0] != c.id:
                    record.append(Correction(c.raw.split()[0], c.id, "a bracketed level printed in capitals",
                                             "typo", f"index:{heading.term}", b.line))
        out.append(heading)
    return out
