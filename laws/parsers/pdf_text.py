"""A code of Laws as text extracted from its PDF (the ACBL's 2017 Laws; the
2027 Laws will come the same way).

A text extractor (pdftotext, pdfminer) gives one line per paragraph of the
printed page, and the same damage whatever the book.  This parser undoes each
kind of damage, never one file's lines, and records every change as a
`Correction` (the provision keeps the source's reading in `raw_text`):

- the file is read in the manifest's `encoding` (Latin-1 for the 2017 text);
  U+00AD, which the extractor wrote for a dash, becomes a dash (`_dashes`);
- page numbers, arabic and roman, on lines of their own and often in the
  middle of a sentence: removed, the sentence rejoined (`_pages`).  A page
  number is a bare number (or numeral) that continues the running sequence of
  page numbers, so a table cell that happens to be a bare number stays;
- numbered footnotes: the note sits at the foot of its page (just above the
  page number), its mark glued to the word or stop before it (`deck1`,
  `ends.5 The`).  The note is pulled out, the mark unglued from the word and
  the note attached once, to the provision that carries the mark (`_footnotes`);
- the table of contents lists every law's title and section headings: it is
  the authority for where a run-in heading ends (`A. Placement of Board When
  a board ...`) (`_toc`);
- numbered items run on one line (`1. ... 2.(a) ... (b) ... (i.) ...`): a label
  is taken only where the outline expects it next (after `(a)` comes `(b)` or
  a deeper `(i)`), never a number that is part of the text (`Law 12`,
  `13 cards`, `in (a) and (b) above`) (`_items`);
- suit symbols lost (`spades ()`): restored from the suit named (`_suits`);
- lost ligatures (`o ender`, `insu cient`) and hyphens (`nono ending`):
  `laws.ligatures.restore`, through `_ligatures`;
- tables flattened cell by cell: found by the shape of their cells in each
  law's lines as the extractor broke them (before sentences are rejoined),
  rebuilt and checked against the cells actually present, and given to the
  provision they were printed in (`laws.parsers.pdf_tables`, `_cut_tables`);
- front matter (title page, preface, introduction, promulgating bodies),
  definitions (`Term: text`), and the official index at the back, which is not
  law text: it is read by `laws.parsers.official_index` (`parse_index`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from laws import ligatures
from laws.corrections import Corrections
from laws.model import Correction, Definition, Footnote, Law, ParsedSource, Provision, Section, SourceError
from laws.parsers import official_index, pdf_tables
from laws.parsers.structure import LETTER, NUMBER, ROMAN, ROMAN_KIND, SMALL, Outline, label_kind
from laws.text import squash, title_case

Line = tuple[int, str]  # (line number in the file, text)

# --- the lines of the book -------------------------------------------------------

ROMAN_PAGE = re.compile(r"[ivxlc]{1,7}")
ARABIC_PAGE = re.compile(r"\d{1,3}")
LAW_LINE = re.compile(r"^LAW\s+(\d{1,3})\s*$")
TOC_HEADING = re.compile(r"^(?:table of )?contents$", re.I)
DASH_CHAR = "\u00ad"  # soft hyphen: what the extractor made of the book's dashes
# A sentinel standing for a footnote mark once unglued from its word, until the
# provision it belongs to is known: '\x00' + number + '\x01'.
MARK = re.compile("\x00(\\d+)\x01")


def roman_value(s: str) -> int | None:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    if not ROMAN_PAGE.fullmatch(s):
        return None
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = values[a]
        total += -v if b != " " and values[b] > v else v
    return total


def to_roman(n: int) -> str:
    out = ""
    for v, s in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out, n = out + s, n - v
    return out


@dataclass
class _Context:
    file: str
    corrections: Corrections
    out: ParsedSource
    notes: dict[int, tuple[int, str]] = field(default_factory=dict)  # footnote number -> (line, raw text)
    carriers: dict[int, str] = field(default_factory=dict)  # footnote number -> provision id
    star_notes: list[tuple[int, str, str]] = field(default_factory=list)  # (line, mark, text)
    page_breaks: set[int] = field(default_factory=set)  # lines that followed a form feed
    pages: int = 0  # pages of the body read so far
    law_starts: dict[int, int] = field(default_factory=dict)  # law number -> line of its title
    lexicon: ligatures.Lexicon | None = None  # what a word is, for the ligature repair
    tables: dict[int, pdf_tables.Group] = field(default_factory=dict)  # by the number in their marker line
    note_pages: dict[int, int] = field(default_factory=dict)  # footnote number -> page it is printed on

    def layout(self, raw: str, corrected: str, reason: str, where: str = "", line: int | None = None,
               kind: str = "layout") -> None:
        self.out.corrections.append(Correction(raw, corrected, reason, kind, where, line))

    def finish(self, where: str, raw: str) -> tuple[str, str | None]:
        """Every character-level repair of one piece of text: dashes, footnote
        marks, suit symbols, ligatures, then the shared repairs and curated
        corrections.  Returns (text, the source's reading if different)."""
        if not raw:
            return raw, None
        source_reading = MARK.sub(lambda m: m[1], raw)
        text = _dashes(self, where, raw)
        text = self._marks(where, text)
        text = _suits(self, where, text)
        text = _ligatures(self, where, text)
        text, _ = self.corrections.fix(self.file, where, text, self.out.corrections)
        return text, (source_reading if text != source_reading else None)

    def _marks(self, where: str, text: str) -> str:
        def sub(m: re.Match) -> str:
            n = int(m[1])
            self.carriers.setdefault(n, where)
            start = max(0, m.start() - 12)
            self.layout(MARK.sub(lambda k: k[1], text[start:m.end() + 6]),
                        MARK.sub("", text[start:m.end() + 6]),
                        f"footnote mark {n} glued to the text before it; the note is attached to {where}",
                        where)
            return ""
        return MARK.sub(sub, text)


def parse(text: str, source, corrections: Corrections, parsed) -> ParsedSource:
    ctx = _Context(source.file, corrections.for_file(source.file) if False else corrections,
                   ParsedSource(file=source.file, edition=source.edition))
    lines = _lines(ctx, text)
    parts = _split_parts(ctx, lines)
    toc = _toc(ctx, parts.toc)
    front = _pages(ctx, parts.front, roman=True)
    body = _pages(ctx, parts.body, roman=False, notes=True)
    # the ligature repair knows the clean texts related to this edition (not
    # every source of the corpus: `edition_lexicon`) and how the whole of
    # this text spells its words
    ctx.lexicon = ligatures.edition_lexicon(source.path.parent, source.edition).for_document(
        "\n".join(s for _, s in front + body))
    ctx.out.sections = _front_matter(ctx, front)
    defs, law_lines = _split_definitions(ctx, body)
    law_lines = _cut_tables(ctx, law_lines)
    law_lines = _unwrap(ctx, law_lines)
    ctx.out.definitions = _definitions(ctx, defs)
    ctx.out.laws = [_parse_law(ctx, number, title_lines, lines_, toc.get(number))
                    for number, title_lines, lines_ in _split_laws(ctx, law_lines, source.laws)]
    _attach_footnotes(ctx)
    parse_index(text, ctx)
    return ctx.out


def parse_index(text: str, ctx: _Context) -> None:
    """The official index at the back of the book (not law text), read by
    `laws.parsers.official_index` from the raw lines (where its headings start
    a line: the page-cleaned lines run a page's last heading into the next),
    its ligatures repaired with the same view of this document's spelling."""
    ctx.out.index = official_index.parse(
        text, [d.term for d in ctx.out.definitions], ctx.out.corrections, ctx.out.uncertain,
        restore=lambda t, where: ligatures.restore(t, where, ctx.lexicon) if ctx.lexicon else (t, [], []))


# --- parts of the book -------------------------------------------------------------

def _lines(ctx: _Context, text: str) -> list[Line]:
    """Lines numbered as an editor numbers them.  A form feed (the extractor's
    page break) is noted and dropped: the line after it is where a page
    number stands."""
    out = []
    for n, s in enumerate(text.split("\n"), 1):
        if "\x0c" in s:
            ctx.page_breaks.add(n)
            s = s.replace("\x0c", "")
        out.append((n, s.rstrip()))
    return out


@dataclass
class _Parts:
    front: list[Line]
    toc: list[Line]
    body: list[Line]  # definitions and laws
    back: list[Line]  # the index


def _split_parts(ctx: _Context, lines: list[Line]) -> _Parts:
    toc_at = next((i for i, (_, s) in enumerate(lines) if TOC_HEADING.match(s.strip())), None)
    if toc_at is None:
        raise SourceError(ctx.file, "no 'Table of Contents' line: the pdf parser needs the book's table of "
                                    "contents to tell headings from text")
    laws_at = [i for i, (_, s) in enumerate(lines) if LAW_LINE.match(s.strip())]
    if not laws_at:
        raise SourceError(ctx.file, "no 'LAW 1' line on a line of its own after the table of contents")
    first_law = laws_at[0]
    # the TOC's entries before the first law ('Definitions') and after the
    # last ('Index to Duplicate Laws') name the body's first and back parts
    toc_lines = lines[toc_at + 1:first_law]
    entries = [s.strip() for _, s in toc_lines if s.strip() and not re.fullmatch(r"[\d\s]+|[ivxlc]+", s.strip())]
    law_entries = [i for i, s in enumerate(entries) if re.match(r"LAW \d+", s)]
    if not law_entries:
        raise SourceError(ctx.file, "the table of contents lists no 'LAW n - TITLE'", lines[toc_at][0])
    opening = entries[:law_entries[0]]
    closing = [s for s in entries[law_entries[-1] + 1:] if not re.match(r"[A-Z]\. ", s)]
    # the last TOC entry that is not a section heading of the last law: the back matter
    back_title = closing[0] if closing else None
    # the body starts at the first opening entry printed again after the TOC
    toc_end = next((i for i in range(toc_at + 1, first_law)
                    if back_title and lines[i][1].strip() == back_title), None)
    body_start = first_law
    if opening:
        body_start = next((i for i in range((toc_end or toc_at) + 1, first_law + 1)
                           if lines[i][1].strip() == opening[0]), first_law)
    toc_stop = body_start
    back_at = len(lines)
    if back_title:
        back_at = next((i for i in range(laws_at[-1], len(lines)) if lines[i][1].strip() == back_title), len(lines))
    ctx.layout("\n".join(s for _, s in lines[toc_at:toc_stop] if s.strip())[:200] + " …", "",
               "the table of contents is not law text (read for the laws' titles and headings)", "",
               lines[toc_at][0])
    return _Parts(front=lines[:toc_at], toc=lines[toc_at + 1:toc_stop], body=lines[toc_stop:back_at],
                  back=lines[back_at + 1:])


# --- page numbers --------------------------------------------------------------------

def _pages(ctx: _Context, lines: list[Line], roman: bool, start: int | None = 1,
           notes: bool = False) -> list[Line]:
    """Drop blank lines and page numbers; rejoin a sentence a page number cut.

    A page number is a line holding only a number (a roman numeral in the
    front matter) that continues the sequence: the first one found starts it
    (or `start`), each next one is one or two more (a blank page prints none).
    With `notes`, the footnotes printed at the foot of each page (just above
    its number) are pulled out first (`_foot`)."""
    out: list[Line] = []
    last: int | None = None if start is None else start - 1
    pending: tuple[int, str] | None = None  # the page number just removed
    page_start = 0  # index in `out` of the page's first line
    for n, s in lines:
        s = s.strip()
        if not s:
            continue
        value = roman_value(s) if roman else (int(s) if ARABIC_PAGE.fullmatch(s) else None)
        if ctx.page_breaks:  # the extractor marked its pages: a number opening one is its number
            is_page = value is not None and n in ctx.page_breaks
        else:
            is_page = value is not None and (last is None or value in (last + 1, last + 2))
        if is_page:
            last = value
            pending = (n, s)
            if notes:
                _foot(ctx, out, max(page_start - 1, 0))
            continue
        if pending and out and _continues(out[-1][1], s):
            pn, ps = pending
            ctx.layout(f"{out[-1][1][-30:]}\n{ps}\n{s[:30]}", f"{out[-1][1][-30:]} {s[:30]}",
                       f"page number {ps} removed from the middle of a sentence", "", pn)
            out[-1] = (out[-1][0], f"{out[-1][1]} {s}")
            page_start = len(out) - 1
        else:
            if pending:
                ctx.layout(pending[1], "", f"page number {pending[1]}", "", pending[0])
                page_start = len(out)
            out.append((n, s))
        pending = None
    if pending:
        ctx.layout(pending[1], "", f"page number {pending[1]}", "", pending[0])
    if notes:
        _foot(ctx, out, max(page_start - 1, 0))
        _check_notes(ctx, out)
    return out


def _check_notes(ctx: _Context, lines: list[Line]) -> None:
    """A line left in the text that opens with the next note's number is a
    note whose mark was not found: say so rather than keep it as law text."""
    expected = max(ctx.notes, default=0) + 1
    for n, s in lines:
        m = NOTE.match(s)
        if m and int(m[1]) == expected:
            raise SourceError(ctx.file, f"footnote {expected} has no mark on its page (a number glued to the "
                                        "word or stop before it)", n)


def _continues(before: str, after: str) -> bool:
    """Does `after` continue the sentence `before` left open?"""
    if after[:1].islower():
        return True
    return not re.search(r"[.:;!?][\"”’')\]]*$|\x01$", before) and not LAW_LINE.match(after) \
        and not FRONT_HEADING.match(after)


NOTE = re.compile(r"^(\d{1,2})\s+([A-Za-z`'\"‘“].*)$")
STAR_NOTE = re.compile(r"^(\*{1,3})\s*([A-Z].*)$")


def _foot(ctx: _Context, out: list[Line], page_start: int) -> None:
    """Pull the notes off the foot of the page that ends `out` and unglue
    their marks.  Notes are numbered through the book; the foot starts at the
    first line of the page that opens with the next note's number (or a '*'
    whose mark is on the page) and runs to the page's end: notes, several to a
    line or wrapped over two.  A mark may be printed again on a later page
    ('requires13' two pages after note 13): those are unglued too."""
    ctx.pages += 1
    expected = max(ctx.notes, default=0) + 1
    page = range(page_start, len(out))
    foot = None
    for i in page:
        m = NOTE.match(out[i][1])
        if m and int(m[1]) == expected and _has_mark(out, range(page_start, i), expected):
            foot = i
            break
        m = STAR_NOTE.match(out[i][1])
        if m and any(m[1] in out[j][1] for j in range(page_start, i)):
            foot = i
            break
    if foot is not None:
        text = " ".join(s for _, s in out[foot:])
        first_line = out[foot][0]
        # split at each next number: '13 If ... see Law 59. 14 If the partner ...'
        pieces, number = [], expected
        star = STAR_NOTE.match(text)
        if star:
            ctx.star_notes.append((first_line, star[1], star[2]))
            ctx.layout(text, "", "footnote printed at the foot of the page", "", first_line)
        else:
            while True:
                nxt = re.search(rf"(?:^|\s){number + 1}\s+(?=[A-Za-z`'\"‘“])", text)
                if nxt and _has_mark(out, range(page_start, foot), number + 1):
                    pieces.append((number, text[:nxt.start()]))
                    text, number = text[nxt.end():], number + 1
                    text = f"{number} {text}"
                else:
                    pieces.append((number, text))
                    break
            taken = {number for number, _ in pieces}
            for n, line in out[foot:]:
                m = NOTE.match(line)
                if m and int(m[1]) not in taken and int(m[1]) > expected:
                    raise SourceError(ctx.file, f"footnote {m[1]} has no mark on its page (a number glued to "
                                                "the word or stop before it)", n)
            for number, piece in pieces:
                note = re.sub(rf"^{number}\s+", "", piece).strip()
                _mark_before(out, range(page_start, foot), number)
                ctx.notes[number] = (first_line, note)
                ctx.note_pages[number] = ctx.pages
                ctx.layout(piece, "", f"footnote {number} printed at the foot of the page; attached to the "
                                      "provision carrying its mark", "", first_line)
        del out[foot:]
    # marks of earlier notes printed again on this page
    for number, at in ctx.note_pages.items():
        if 0 < ctx.pages - at <= 3:
            _mark_before(out, range(page_start, len(out)), number)


def _has_mark(out: list[Line], page: range, number: int) -> bool:
    pattern = _mark_pattern(number)
    return any(not _is_citation_digit(out[k][1], m.start()) for k in page for m in pattern.finditer(out[k][1]))


def _mark_pattern(number: int) -> re.Pattern:
    """A footnote mark glued to a lower-case word, a stop or a word in capitals."""
    return re.compile(rf"(?<=[a-z.,;:)\]’'])(?<!\d\.){number}(?!\d)|(?<=[A-Z]{{2}}){number}(?!\d)")


def _mark_before(out: list[Line], page: range, number: int) -> bool:
    """Replace footnote `number`'s marks on the page by the sentinel; every
    occurrence on the page refers to this note (Law 41: 'own11' twice).
    False if there is none."""
    pattern = _mark_pattern(number)
    found = False
    for k in page:
        n, s = out[k]
        hits = [m for m in pattern.finditer(s) if not _is_citation_digit(s, m.start())]
        for m in reversed(hits):
            s = s[:m.start()] + f"\x00{number}\x01" + s[m.end():]
        if hits:
            out[k] = (n, s)
            found = True
    return found


def _is_citation_digit(s: str, at: int) -> bool:
    """'B1', '12C1', '40B2': a digit after a single capital is a citation."""
    return at >= 1 and s[at - 1].isupper() and (at < 2 or not s[at - 2].isupper())


# --- the table of contents -------------------------------------------------------------

@dataclass
class _TocLaw:
    number: int
    title: str
    headings: dict[str, str]  # letter -> heading as the TOC prints it


def _toc(ctx: _Context, lines: list[Line]) -> dict[int, _TocLaw]:
    """Titles and section headings by law.  The TOC wraps its lines and puts
    page numbers anywhere (after a title, on lines of their own, in rows)."""
    words = []
    for _, s in lines:
        s = s.strip()
        if not s or re.fullmatch(r"[\d\s]+|[ivxlc]+", s):
            continue
        words.append(re.sub(r"\s+\d{1,3}$", "", s))
    joined = " ".join(words).replace(DASH_CHAR, "-")
    out: dict[int, _TocLaw] = {}
    chunks = re.split(r"\bLAW (\d{1,3}) - ", joined)
    for number, chunk in zip(chunks[1::2], chunks[2::2]):
        number = int(number)
        headings: dict[str, str] = {}
        # headings 'A. ...', 'B. ...' in order: split only at the next letter
        letter, pos, starts = "A", 0, []
        while True:
            m = re.search(rf"(?:^|\s){letter}\. ", chunk[pos:])
            if not m:
                break
            starts.append((letter, pos + m.start() + (1 if chunk[pos + m.start()] == " " else 0)))
            pos += m.end()
            letter = chr(ord(letter) + 1)
        title = chunk[:starts[0][1]] if starts else chunk
        for (l, a), (_, b) in zip(starts, starts[1:] + [("", len(chunk))]):
            headings[l] = chunk[a + 3:b].strip()
        # a trailing entry after the last law's headings ('Index to Duplicate Laws')
        title = title.strip()
        if headings:
            last = max(headings)
            headings[last] = re.sub(r"\s+Index to .*$", "", headings[last])
        else:
            title = re.sub(r"\s+Index to .*$", "", title)
        out[number] = _TocLaw(number, title, headings)
    return out


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _heading_prefix(text: str, heading: str) -> int | None:
    """Where `heading` (as the TOC prints it) ends at the start of `text`,
    comparing letters and digits only (the TOC and the body differ in case,
    hyphens and lost ligatures)."""
    want = _norm(heading)
    got, i = "", 0
    while i < len(text) and len(got) < len(want):
        got += _norm(text[i])
        i += 1
    if got != want:
        return None
    # the heading ends at a word boundary (a glued footnote mark may follow)
    while i < len(text) and (text[i].isalnum() and not text[i].isdigit()):
        return None
    return i


# --- front matter ----------------------------------------------------------------------

FRONT_HEADING = re.compile(r"^(Preface|Introduction|Foreword|Promulgating Bodies)\b")


def _front_matter(ctx: _Context, lines: list[Line]) -> list:
    starts = [i for i, (_, s) in enumerate(lines) if FRONT_HEADING.match(s)]
    if starts:
        ctx.layout("\n".join(s for _, s in lines[:starts[0]]), "", "title page and copyright notice",
                   "", lines[0][0])
    sections = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        n, title = lines[a]
        body = lines[a + 1:b]
        while body and body[0][1].isupper():  # a subtitle in capitals: 'NORTH AMERICAN EDITION'
            title = f"{title} – {title_case(body[0][1])}"
            body = body[1:]
        slug = re.sub(r"[^a-z]+", "-", FRONT_HEADING.match(title)[1].lower()).strip("-")
        raw = "\n\n".join(s for _, s in body)
        text, raw_text = ctx.finish(slug, raw)
        sections.append(Section(slug=slug, title=title, text=text, raw_text=raw_text))
    return sections


# --- definitions ---------------------------------------------------------------------------

DEFINITION = re.compile(r"^(?P<term>[A-Z][\w’'-]*(?: [\w’'-]+){0,3}?)(?P<aside> \([^)]*\))?:\s+(?P<text>.*)$")


def _split_definitions(ctx: _Context, lines: list[Line]) -> tuple[list[Line], list[Line]]:
    first_law = next((i for i, (_, s) in enumerate(lines) if LAW_LINE.match(s)), None)
    if first_law is None:
        raise SourceError(ctx.file, "no 'LAW 1' line")
    head = lines[:first_law]
    at = next((i for i, (_, s) in enumerate(head) if s.lower() == "definitions"), None)
    return (head[at + 1:] if at is not None else []), lines[first_law:]


def _definitions(ctx: _Context, lines: list[Line]) -> list[Definition]:
    entries: list[tuple[str, list[str], int]] = []
    for n, s in lines:
        m = DEFINITION.match(s)
        if m:
            term = m["term"]
            aside = m["aside"] or ""
            if re.fullmatch(r" \([A-Z]{2,}\)", aside):  # '(IMP)': part of the term
                term += aside
                aside = ""
            text = m["text"]
            if aside:  # '(see also "Rectification")' is part of the definition's text
                text = f"{aside.strip()}: {text}" if False else f"{aside.strip()} {text}"
            entries.append((term, [text], n))
        elif entries:
            entries[-1][1].append(s)
        else:
            raise SourceError(ctx.file, "text before the first definition ('Term: text')", n)
    out = []
    for term, paras, n in entries:
        text, raw = ctx.finish(f"def:{term}", "\n\n".join(paras))
        out.append(Definition(term=term, text=text, raw_text=raw))
    return out


# --- laws --------------------------------------------------------------------------------

WRAP_TAIL = 40  # characters: a line this short after a wrapped block is its tail, not a paragraph


def _unwrap(ctx: _Context, lines: list[Line]) -> list[Line]:
    """Join a line the extractor broke in the middle of a sentence ('... by Law'
    / '19. Law 36 applies.'): the line before ends with no stop, or this one
    starts in lower case.  A law's number and title lines are never joined."""
    out: list[Line] = []
    wrapped = False  # the last line was joined from lines the extractor broke
    for k, (n, s) in enumerate(lines):
        prev = out[-1][1] if out else ""
        heading_line = LAW_LINE.match(s) or LAW_LINE.match(prev) or (
            len(out) > 1 and LAW_LINE.match(out[-2][1])) or pdf_tables.MARK.fullmatch(s) \
            or pdf_tables.MARK.fullmatch(prev)  # a table's place is a line of its own
        # a short last line of a block the extractor wrapped goes on with the
        # block even after a stop ('... of the auction.' / 'Law 39 applies.')
        joined = _continues(prev, s) or (wrapped and len(s) < WRAP_TAIL
                                         and not re.match(r"(?:[A-Z]|\d{1,2})\.\s|\(", s))
        if out and not heading_line and joined:
            ctx.layout(f"{prev[-30:]}\n{s[:30]}", f"{prev[-30:]} {s[:30]}",
                       "line broken in the middle of a sentence; rejoined", "", n)
            out[-1] = (out[-1][0], f"{prev} {s}")
            wrapped = True
        else:
            out.append((n, s))
            wrapped = False
    return out


def _cut_tables(ctx: _Context, lines: list[Line]) -> list[Line]:
    """Each law's tables cut out of its lines while they are still as the
    extractor broke them (one cell or a few to a line), a marker line left in
    their place (`pdf_tables.extract`)."""
    starts = [i for i, (_, s) in enumerate(lines) if LAW_LINE.match(s)] + [len(lines)]
    out = lines[:starts[0]]
    for i, end in zip(starts, starts[1:]):
        head, body = lines[i:min(i + 2, end)], lines[i + 2:end]
        groups, body = pdf_tables.extract(ctx, ctx.out.edition, int(LAW_LINE.match(lines[i][1])[1]), body)
        ctx.tables.update(groups)
        out += head + body
    return out


def _split_laws(ctx: _Context, lines: list[Line], expected: tuple[int, ...]):
    starts = [i for i, (_, s) in enumerate(lines) if LAW_LINE.match(s)]
    numbers = [int(LAW_LINE.match(lines[i][1])[1]) for i in starts]
    for k, (i, number) in enumerate(zip(starts, numbers)):
        if k < len(expected) and number != expected[k]:
            raise SourceError(ctx.file, f"expected 'LAW {expected[k]}' here but found 'LAW {number}' "
                                        "(a law is missing, repeated or out of order)", lines[i][0])
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        block = lines[i + 1:end]
        if not block:
            raise SourceError(ctx.file, f"LAW {numbers[k]} has no title line", lines[i][0])
        yield numbers[k], block[0], block[1:]


@dataclass
class _Piece:
    """A run of a law's text: labels opened before it, then its text."""
    labels: list[str]
    text: str
    heading: str = ""
    new_paragraph: bool = False  # an unlabelled line of its own


def _parse_law(ctx: _Context, number: int, title_line: Line, body: list[Line], toc: _TocLaw | None) -> Law:
    where = str(number)
    n, raw_title = title_line
    ctx.law_starts[number] = n
    title_text, _ = ctx.finish(where, raw_title)
    title = title_case(title_text)
    outline = Outline(number)
    headings = toc.headings if toc else {}
    tables: dict[str, list[pdf_tables.Group]] = {}
    for line_no, s in body:
        mark = pdf_tables.MARK.fullmatch(s)
        if mark:  # a table belongs to the provision it was printed in
            tables.setdefault(outline.current.id, []).append(ctx.tables[int(mark[1])])
            continue
        _read_line(ctx, outline, s, line_no, headings)
    _split_list_tails(outline.provisions)
    law = Law(number=number, title=title, provisions=outline.provisions)
    for prov in law.provisions:
        if prov.heading:
            prov.heading, _ = ctx.finish(prov.id, prov.heading)
        prov.text, prov.raw_text = ctx.finish(prov.id, prov.text)
        prov.tables = pdf_tables.finish(ctx, prov.id, tables.get(prov.id, []))
    return law


LIST_JOIN = re.compile(r"[;,]\s*(or|and)$")
TAIL_SENTENCE = re.compile(r"(?<=[.])\s+(?=[A-Z])")


def _split_list_tails(provisions: list[Provision]) -> None:
    """The extractor runs a list's closing sentence into its last item ('2. if
    ... had the play continued. The board is rescored ...' in Law 69B): the
    printed page sets it below the list, as the parent's own paragraph.  A
    last item that continues its parent's sentence (lower case, after an item
    ending '; or' / '; and') ends at its full stop; what follows becomes the
    parent's paragraph `<parent>.p1`, where the other editions keep it."""
    ids = {p.id for p in provisions}
    for prov in list(provisions):
        siblings = [p for p in provisions if p.parent == prov.parent and prov.parent is not None]
        if not prov.label or prov is not siblings[-1] or len(siblings) < 2 or f"{prov.parent}.p1" in ids:
            continue
        if any(p.parent == prov.id for p in provisions) or not prov.text[:1].islower():
            continue
        if not LIST_JOIN.search(siblings[-2].text.rstrip()):
            continue
        parts = TAIL_SENTENCE.split(prov.text, maxsplit=1)
        if len(parts) == 2:
            prov.text = parts[0]
            provisions.insert(provisions.index(prov) + 1,
                              Provision(id=f"{prov.parent}.p1", parent=prov.parent, label="", text=parts[1]))


LABEL_AT = re.compile(r"([A-Z])\.(?=\s)|(\d{1,2})\.(?=\s*[A-Za-z(\[\"“‘`])|\(([a-z]{1,4})\.?\)")
REFERS_BACK = re.compile(r"\s*(above|below|hereunder|following|preceding|foregoing)\b(?!\s+[a-z])")


def _expected(outline: Outline, kind: str) -> str:
    """The label of `kind` that may come next in the outline."""
    if kind == LETTER:
        letters = [p.label for p in outline.provisions if p.parent == outline.root.id
                   and re.fullmatch(r"[A-Z]", p.label)]
        return chr(ord(letters[-1]) + 1) if letters else "A"
    last = next((p.label.strip("()") for _, k, p in reversed(outline.stack) if k == kind), None)
    if last is None:
        return {NUMBER: "1", SMALL: "a", ROMAN_KIND: "i"}[kind]
    if kind == NUMBER:
        return str(int(last) + 1)
    if kind == SMALL:
        return chr(ord(last) + 1)
    return ROMAN[ROMAN.index(last) + 1] if last in ROMAN[:-1] else ""


def _next_label(outline: Outline, s: str, at_start: bool) -> tuple[int, int, str, str] | None:
    """The first label in `s` the outline expects next, as (start, end, label,
    kind): a label is taken only where it continues the outline (after `(a)`
    comes `(b)`, or a deeper `(i)`) and stands where a label can (at the start,
    after a stop or a colon; an item in a run-on list after ', or'), never a
    number or letter that is part of the text ('Law 12', 'in (a) and (b) above')."""
    for m in LABEL_AT.finditer(s):
        start = m.start()
        if start > 0 and s[start - 1] not in " \t":
            continue
        before = s[:start].rstrip()
        first = start == 0 and at_start
        if m[1]:
            label, kind = m[1], LETTER
            # after a stop, or a stop closing a bracket or quotation ('... such a ruling.) C. Further ...')
            if not first and not re.search(r"([.:;][)\]'’\"”]?|[,;] or)$", before):
                continue
        elif m[2]:
            label, kind = m[2], NUMBER
            if not first and not re.search(r"([.:;)\]]|\b(and|or))$", before):
                continue
        else:
            label = m[3]
            kind = label_kind(label, outline.last_small)
            if kind not in (SMALL, ROMAN_KIND):
                continue
            if REFERS_BACK.match(s, m.end()):
                continue  # 'in (a) and (b) above'
            if not first and not re.search(r"([.:;,]|\b(and|or|then|either|if))$", before):  # '...; if (a) the offender
                continue
        if _expected(outline, kind) == label:
            return start, m.end(), label, kind
    return None


def _read_line(ctx: _Context, outline: Outline, s: str, line_no: int, headings: dict[str, str]) -> None:
    """One line of a law: text, and the labels that open provisions in it."""
    rest, at_start = s, True
    found = _next_label(outline, rest, at_start)
    if (found is None or found[0]) and _ends_list(outline):
        # a paragraph after a list of clauses ('...; or' / 'if ...') is the
        # list parent's own: 'The board is rescored ...' after Law 71B
        outline.close_to(outline.stack[-2][0])
    while rest:
        found = _next_label(outline, rest, at_start)
        if found is None:
            outline.add_text(rest)
            return
        start, end, label, kind = found
        if start:
            outline.add_text(rest[:start].strip())
        text = rest[end:].strip()
        heading = ""
        if kind == LETTER and label in headings:
            cut = _heading_prefix(text, headings[label])
            if cut is None:
                ctx.out.uncertain.append(Correction(
                    text[:80], text[:80], f"section {label} of Law {outline.law}: the heading the table of "
                    f"contents gives ('{headings[label]}') does not open the text", "layout",
                    f"{outline.law}{label}", line_no))
            else:
                heading, text = text[:cut].strip(), text[cut:].strip()
                mm = re.match("(\x00\\d+\x01)", text)  # a footnote mark glued to the heading
                if mm:
                    heading, text = heading + mm[1], text[mm.end():].strip()
        if kind == NUMBER and not heading:
            heading, text = _numbered_heading(text)
        outline.open(label, heading=heading)
        rest, at_start = text, True


def _ends_list(outline: Outline) -> bool:
    """Is the open provision the last of a list of clauses that continue the
    parent's sentence (lower-case items)?"""
    cur = outline.current
    return len(outline.stack) > 1 and bool(cur.label) and cur.text[:1].islower()


# Words that open a provision's first sentence after a run-in heading of a
# numbered item ('1. Single Result Obtained In team play ...'); the table of
# contents lists only the lettered sections' headings.
SENTENCE_OPENERS = {"In", "When", "If", "The", "A", "An", "After", "Before", "Unless", "Where", "Subject",
                    "Once", "Each", "Any", "No", "Following", "Except", "Although"}
HEADING_WORD = re.compile(r"(?:[A-Z][\w’'-]*|a|an|and|as|at|by|for|from|in|into|of|on|or|the|to|with)(?:\x00\d+\x01)?")


def _numbered_heading(text: str) -> tuple[str, str]:
    """('Single Result Obtained In team play ...') -> ('Single Result Obtained',
    'In team play ...'): a run of capitalised words that ends just before a
    sentence opens with one of SENTENCE_OPENERS followed by a lower-case word."""
    words = text.split(" ")
    for k in range(2, min(len(words) - 1, 12)):
        run = words[:k]
        if not all(HEADING_WORD.fullmatch(w) for w in run) or not run[0][:1].isupper() \
                or run[0] in SENTENCE_OPENERS:
            return "", text
        if words[k] in SENTENCE_OPENERS and words[k + 1][:1].islower() and run[-1][:1].isupper() \
                or words[k] in SENTENCE_OPENERS and run[-1].endswith("\x01"):
            return " ".join(run), " ".join(words[k:])
    return "", text



# --- symbols, dashes, ligatures -----------------------------------------------------------

SUITS = {"spade": "♠", "heart": "♥", "diamond": "♦", "club": "♣"}
EMPTY_SUIT = re.compile(r"\b(spade|heart|diamond|club)(s?) \(\)", re.I)


def _suits(ctx: _Context, where: str, text: str) -> str:
    def sub(m: re.Match) -> str:
        fixed = f"{m[1]}{m[2]} ({SUITS[m[1].lower()]})"
        ctx.layout(m[0], fixed, "suit symbol lost in extraction; restored from the suit named", where,
                   kind="symbol")
        return fixed
    return EMPTY_SUIT.sub(sub, text)


def _dashes(ctx: _Context, where: str, text: str) -> str:
    def sub(m: re.Match) -> str:
        fixed = " – " if m[1] or m[2] else "–"
        fixed = f"{m[1] and ''}{fixed}"
        ctx.layout(m[0], fixed.strip() if not (m[1] or m[2]) else fixed,
                   "U+00AD (soft hyphen) where the book prints a dash", where, kind="encoding")
        return fixed
    return re.sub(rf"(\s?){DASH_CHAR}(\s?)", sub, text)


def _ligatures(ctx: _Context, where: str, text: str) -> str:
    """Lost ligatures (`o ender`, `insu cient`) and hyphens (`nono ending`,
    `EastWest`): the shared repair in laws.ligatures, weighing how the whole
    document spells its words; what it cannot settle is kept and recorded."""
    if ctx.lexicon is None:
        return text
    fixed, made, unsure = ligatures.restore(text, where, ctx.lexicon)
    ctx.out.corrections.extend(made)
    ctx.out.uncertain.extend(unsure)
    return fixed


def _attach_footnotes(ctx: _Context) -> None:
    by_id = {p.id: (law, p) for law in ctx.out.laws for p in law.provisions}
    for number, (line, raw) in sorted(ctx.notes.items()):
        carrier = ctx.carriers.get(number)
        if carrier is None:
            raise SourceError(ctx.file, f"footnote {number} has no mark in the text before it", line)
        if carrier.startswith("def:") or carrier not in by_id:
            law = None
            for lw in ctx.out.laws:
                if carrier == str(lw.number):
                    law = lw
            if law is None:
                ctx.out.uncertain.append(Correction(raw, raw, f"footnote {number}'s mark is in {carrier}, "
                                                             "which is not a provision of a law", "layout",
                                                    carrier, line))
                continue
        else:
            law = by_id[carrier][0]
        text, raw_text = ctx.finish(carrier, raw)
        law.footnotes.append(Footnote(provision=carrier, mark=str(number), text=text, raw_text=raw_text))
    for line, mark, raw in ctx.star_notes:
        # a '*' note belongs to the law printed on its page: the last to start before it
        law = max((lw for lw in ctx.out.laws if ctx.law_starts.get(lw.number, 10**9) < line),
                  key=lambda lw: ctx.law_starts[lw.number], default=None)
        if law is None:
            raise SourceError(ctx.file, f"a footnote marked '{mark}' before the first law", line)
        pid = next((p.id for p in law.provisions if mark in (p.raw_text or p.text)), law.provisions[0].id)
        text, raw_text = ctx.finish(pid, raw)
        law.footnotes.append(Footnote(provision=pid, mark=mark, text=text, raw_text=raw_text))
