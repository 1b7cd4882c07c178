"""Parser for the 2007 Laws as extracted from a slide presentation (corpus 000).

The file is the text of a slide show of the complete 2007 Laws of Duplicate
Bridge, wrapped in the chrome of the Russian web page it was saved from.  What
the extraction did to it, and how each thing is undone here:

- web-page chrome at the top and bottom, and the title slide: dropped;
- slide numbers on lines of their own, often in the middle of a sentence or a
  footnote: removed (`_remove_slide_numbers`), keeping table cells that are
  bare numbers too;
- law titles broken over two lines, run into the body, or printed for two
  laws sharing a slide (3 & 4, 88 & 89): `_split_laws`;
- headings repeated after a slide break ("B. End of Round continued"): merged;
- footnotes repeated on every slide they belong to: kept once, attached to the
  provision carrying the mark;
- the preface's introduction paragraph printed twice: kept once;
- tables (Laws 2, 77, 78B) flattened one cell per line: rebuilt as `Table`s,
  each checked against the cells actually present;
- mojibake and lost quote marks: `laws.text.repair`; words damaged otherwise
  (hyphens lost at line ends, ...): curated entries in corrections.toml.

Every change is recorded as a `Correction` in the parsed source.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from laws.corrections import Corrections
from laws.model import (Correction, Definition, Footnote, Law, ParsedSource, Provision, Section,
                        SourceError, Table)
from laws.parsers.structure import LETTER, NUMBER, ROMAN, ROMAN_KIND, SMALL, Outline, label_kind
from laws.text import repair, squash, title_case

Line = tuple[int, str]  # (line number in the file, text without surrounding spaces)


class _TableMark:
    """Stands in the body of a law where a rebuilt table sat."""

    def __init__(self, tables: list[Table]):
        self.tables = tables


# --- the file's landmarks -------------------------------------------------------

PREFACE = "PREFACE TO THE 2007 LAWS OF DUPLICATE BRIDGE"
INTRODUCTION = "INTRODUCTION TO THE 2007 LAWS OF DUPLICATE BRIDGE"
DEFINITIONS = "DEFINITIONS"
CHROME_FOOTER = "Документ"  # first line of the web page's footer ("Document / Category ...")
BARE_NUMBER = re.compile(r"\d{1,3}")

LAW_HEADING = re.compile(r"^LAW (\d{1,2})\b\s*(?:[-–]\s*)?(.*)$")
LETTER_LABEL = re.compile(r"^([A-Z])\.(?:\s+(.*))?$")
NUMBER_LABEL = re.compile(r"^(\d{1,2})\.(?:\s+(.*))?$")
PAREN_LABEL = re.compile(r"^\(([a-z]{1,4})\)(?:\s+(.*))?$")
FOOTNOTE = re.compile(r"^(\*{1,3})\s*(\S.*)$")
# A slide title repeated after a slide break: "B. End of Round continued",
# "B. After Attention Is Drawn to an Irregularity Contd", "Doubles Redoubles continued".
CONTINUED = re.compile(r"^(?:([A-Z])\.\s+)?((?:[A-Z][\w’]*|of|to|an|a|the|and|or|after|is)"
                       r"(?:\s+(?:[A-Z][\w’]*|of|to|an|a|the|and|or|after|is))*)\s+(?:continued|Contd)$")
# A footnote run into the text it follows: "... non-offending side).* if commenced ..."
RUN_IN_FOOTNOTE = re.compile(r"(?<=\.)(?=\*+\s+[a-z])")

# The one heading that runs into its body on the same line.
RUN_IN_HEADINGS = {(27, "B"): "Insufficient Bid Not Accepted"}
# Titles the slides print damaged (Law 61 lost the dash between its two parts).
TITLE_FIXES = {61: ("FAILURE TO FOLLOW SUIT INQUIRIES CONCERNING A REVOKE",
                    "Failure to Follow Suit – Inquiries Concerning a Revoke")}
# Sentences that follow a list and belong to the provision above the list, not
# to its last item (the Laws print them flush left): law -> (first words, depth
# of the provision they belong to: 0 the law, 1 its lettered section).
TRAILING_PARAGRAPHS = {69: ("The board is rescored", 1), 71: ("The board is rescored", 0)}
# Where each rebuilt table must land.
TABLE_PROVISIONS = {2: "2", 77: "77", 78: "78B"}



@dataclass
class _Context:
    file: str
    corrections: Corrections
    out: ParsedSource
    owner: dict[int, str] = field(default_factory=dict)  # line number -> where its text went
    first_slide: int = 1  # number of the first slide kept (the title slide is dropped)
    slides: int = 0  # slide numbers found

    def finish(self, where: str, raw: str) -> tuple[str, str | None]:
        """Repair and correct one piece of text; returns (text, raw_text or None)."""
        return self.corrections.fix(self.file, where, raw, self.out.corrections)

    def own(self, lines: list[Line], where: str) -> None:
        for n, _ in lines:
            self.owner.setdefault(n, where)

    def layout(self, raw: str, corrected: str, reason: str, where: str = "", line: int | None = None,
               kind: str = "layout") -> None:
        self.out.corrections.append(Correction(raw, corrected, reason, kind, where, line))


def parse(text: str, source, corrections: Corrections, parsed: dict) -> ParsedSource:
    file = source.file
    ctx = _Context(file, corrections, ParsedSource(file=file, edition=source.edition))
    lines = [(n, s.strip()) for n, s in enumerate(text.splitlines(), 1)]
    lines = _drop_chrome(ctx, lines)
    lines, slide_breaks = _remove_slide_numbers(ctx, lines, source.laws)
    preface, intro, definitions, law_lines = _split_parts(ctx, lines)
    ctx.out.sections = [_preface(ctx, preface), _introduction(ctx, intro)]
    ctx.out.definitions = _definitions(ctx, definitions)
    ctx.out.laws = [_parse_law(ctx, number, title, body)
                    for number, title, body in _split_laws(ctx, law_lines, source.laws)]
    _record_slide_breaks(ctx, slide_breaks)
    return ctx.out


# --- chrome and slide numbers ---------------------------------------------------

def _drop_chrome(ctx: _Context, lines: list[Line]) -> list[Line]:
    """Keep the slides from the preface to the last slide: the web page's login
    links and title slide come before, its document footer after."""
    start = next((i for i, (_, s) in enumerate(lines) if s == PREFACE), None)
    if start is None:
        raise SourceError(ctx.file, f"no '{PREFACE}' line: this is not the slide text of the Laws")
    end = next((i for i, (_, s) in enumerate(lines) if s == CHROME_FOOTER and i > start), len(lines))
    # the title slide's number is the bare '1' just before the preface
    first_slide = 2 if start and lines[start - 1][1] == "1" else 1
    ctx.first_slide = first_slide
    return [(n, s) for n, s in lines[start:end] if s]


def _remove_slide_numbers(ctx: _Context, lines: list[Line], laws: tuple[int, ...]) -> tuple[list[Line], list[tuple]]:
    """Slide numbers run 2, 3, ... each on a line of its own.  A bare number is
    the next slide number only if the line after it is not a bare number too:
    that keeps the cells of the flattened tables (Law 2 has a '14' cell right
    where slide 14 is due).  Returns the lines left and, for each slide number
    removed, (its line, number, line before, line after)."""
    kept: list[Line] = []
    removed: list[tuple] = []
    expected = ctx.first_slide
    for i, (n, s) in enumerate(lines):
        after = lines[i + 1] if i + 1 < len(lines) else (None, "")
        if s == str(expected) and not BARE_NUMBER.fullmatch(after[1]):
            removed.append((n, expected, kept[-1] if kept else (None, ""), after))
            expected += 1
        else:
            kept.append((n, s))
    if len(removed) < 200:  # the show has 235 slides: far fewer means a gap or another layout
        raise SourceError(ctx.file, *_where_slides_stop(lines, removed, laws))
    ctx.slides = expected - 1
    return kept, removed


def _where_slides_stop(lines: list[Line], removed: list[tuple], laws: tuple[int, ...]) -> tuple[str, int | None]:
    """Why the slide numbers stop running in sequence, and the line to look at:
    a law whose heading is missing, a file that ends early, or else the place
    where the next slide number is not found."""
    headings: dict[int, int] = {}  # law number -> line of its heading
    for n, s in lines:
        m = LAW_HEADING.match(s)
        if m:
            headings.setdefault(int(m[1]), n)

    def law_at(line: int) -> int | None:
        before = [law for law, n in headings.items() if n <= line]
        return max(before, key=headings.get) if before else None

    last_line, last_slide = (removed[-1][0], removed[-1][1]) if removed else (lines[0][0], 0)
    in_law = law_at(last_line)
    where = f"line {last_line}" + (f", in Law {in_law}" if in_law else "")
    stop = (f"the slide numbers run in sequence only to slide {last_slide} ({where}), "
            f"then slide {last_slide + 1} is not found")
    missing = [law for law in laws if law not in headings]
    if missing and missing == list(laws[laws.index(missing[0]):]) and headings:
        end = lines[-1][0]
        span = f"Laws {missing[0]}–{missing[-1]} are" if len(missing) > 1 else f"Law {missing[0]} is"
        return (f"{span} missing: the file ends at line {end}, in Law {law_at(end)}; it may be truncated "
                f"({stop})", end)
    if missing:
        law = missing[0]
        before = max((x for x in headings if x < law), default=None)
        after = min((x for x in headings if x > law), default=None)
        between = " and ".join(f"Law {x}'s (line {headings[x]})" for x in (before, after) if x is not None)
        return (f"Law {law} is missing: there is no 'LAW {law}' heading between {between} ({stop})",
                headings.get(after) if after is not None else None)
    return f"{stop}: part of a law may be missing, or the slide layout is not the one this parser reads", last_line


def _record_slide_breaks(ctx: _Context, removed: list[tuple]) -> None:
    """Record the slide numbers that stood between two lines of one sentence."""
    for n, number, (_, before), (after_n, after) in removed:
        if before and after and after[0].islower() and not before.endswith((".", ":", ";")):
            ctx.layout(f"{before}\n{number}\n{after}", f"{before} {after}",
                       f"slide number {number} removed from the middle of a sentence",
                       ctx.owner.get(after_n, ""), n)


# --- parts of the file ----------------------------------------------------------

def _split_parts(ctx: _Context, lines: list[Line]):
    def find(pred, what: str, start: int = 0) -> int:
        for i in range(start, len(lines)):
            if pred(lines[i][1]):
                return i
        raise SourceError(ctx.file, f"no {what} found")

    intro = find(lambda s: s == INTRODUCTION, f"'{INTRODUCTION}' line")
    defs = find(lambda s: s == DEFINITIONS, "'DEFINITIONS' line", intro)
    law1 = find(lambda s: re.match(r"LAW 1\b", s) is not None, "'LAW 1' heading", defs)
    return lines[1:intro], lines[intro + 1:defs], lines[defs + 1:law1], lines[law1:]


def _paragraph_text(paragraphs: list[list[Line]]) -> str:
    return "\n\n".join(squash(" ".join(s for _, s in p)) for p in paragraphs if p)


def _front_paragraphs(lines: list[Line]) -> list[list[Line]]:
    """Preface and introduction run full width: a paragraph ends with a line
    ending a sentence when the next line starts a new one with a capital."""
    paragraphs: list[list[Line]] = [[]]
    for i, (n, s) in enumerate(lines):
        paragraphs[-1].append((n, s))
        nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
        if re.search(r"[.:][”’]?$", s) and nxt[:1].isupper():
            paragraphs.append([])
    return [p for p in paragraphs if p]


def _section(ctx: _Context, slug: str, title: str, paragraphs: list[list[Line]]) -> Section:
    for p in paragraphs:
        ctx.own(p, slug)
    text, raw = ctx.finish(slug, _paragraph_text(paragraphs))
    return Section(slug=slug, title=title, text=text, raw_text=raw)


def _preface(ctx: _Context, lines: list[Line]) -> Section:
    """The preface ends with the Drafting Committee's names, a two-column list
    whose bullets came out as ten lines of '•': one name per paragraph."""
    bullets = [(n, s) for n, s in lines if s == "•"]
    if bullets:
        ctx.layout("\n".join(s for _, s in bullets), "",
                   f"{len(bullets)} list bullets of the slide's two-column list of names dropped",
                   "preface", bullets[0][0])
    lines = [(n, s) for n, s in lines if s != "•"]
    cut = next((i for i, (_, s) in enumerate(lines) if s.endswith("consisted of:")), len(lines))
    paragraphs = _front_paragraphs(lines[:cut]) + [[line] for line in lines[cut:]]
    return _section(ctx, "preface", "Preface to the 2007 Laws of Duplicate Bridge", paragraphs)


def _drop_repeated_block(ctx: _Context, lines: list[Line], where: str) -> list[Line]:
    """Remove a run of lines printed twice in a row (the introduction's first
    slide repeats its paragraphs)."""
    texts = [s for _, s in lines]
    for size in range(len(texts) // 2, 2, -1):
        for i in range(len(texts) - 2 * size + 1):
            if texts[i:i + size] == texts[i + size:i + 2 * size]:
                block = "\n".join(texts[i:i + size])
                ctx.layout(f"{block}\n{block}", block, "paragraphs printed twice on the slide; kept once",
                           where, lines[i + size][0])
                return lines[:i + size] + lines[i + 2 * size:]
    return lines


def _introduction(ctx: _Context, lines: list[Line]) -> Section:
    lines = _drop_repeated_block(ctx, lines, "introduction")
    return _section(ctx, "introduction", "Introduction to the 2007 Laws of Duplicate Bridge",
                    _front_paragraphs(lines))


# --- definitions ----------------------------------------------------------------

# 'Term — text' or 'Term (aside) — text'; terms are one to three words, a
# parenthesised abbreviation allowed ('International Matchpoint (IMP)').
DEFINITION = re.compile(r"^(?P<term>[A-Z][A-Za-z]*(?: [A-Za-z]+){0,2}(?: \([A-Z]+\))?)"
                        r"\s+(?P<rest>(?:—|\(.*—).*)$")
# Inside a definition, a line opening with 'word — ' starts a sub-paragraph
# (Penalty: 'disciplinary — ...', 'procedural — ...').
SUB_DEFINITION = re.compile(r"^[a-z]+ — ")


def _definitions(ctx: _Context, lines: list[Line]) -> list[Definition]:
    entries: list[tuple[str, list[list[Line]]]] = []
    for n, s in lines:
        m = DEFINITION.match(s)
        if m:
            rest = m["rest"].removeprefix("—").strip()
            entries.append((m["term"], [[(n, rest)]]))
        elif not entries:
            raise SourceError(ctx.file, "text before the first definition", n)
        elif SUB_DEFINITION.match(s):
            entries[-1][1].append([(n, s)])
        else:
            entries[-1][1][-1].append((n, s))
    terms = [t for t, _ in entries]
    if terms != sorted(terms, key=str.lower):
        raise SourceError(ctx.file, "the definitions are not in alphabetical order: a term was misread",
                          lines[0][0] if lines else None)
    definitions = []
    for term, paragraphs in entries:
        where = f"def:{term}"
        for p in paragraphs:
            ctx.own(p, where)
        text, raw = ctx.finish(where, _paragraph_text(paragraphs))
        definitions.append(Definition(term=term, text=text, raw_text=raw))
    return definitions


# --- laws: headings and titles --------------------------------------------------

def _is_label(s: str) -> bool:
    return bool(LETTER_LABEL.match(s) or NUMBER_LABEL.match(s) or PAREN_LABEL.match(s))


@dataclass
class _LawBlock:
    line: int  # line of the 'LAW n' heading
    number: int
    title: str  # as printed, capitals
    heading: str  # the heading's lines as printed
    body: list[Line]


def _law_block(lines: list[Line], start: int, end: int) -> _LawBlock:
    """One 'LAW n - TITLE' heading and the lines up to the next one."""
    n, heading = lines[start]
    body = lines[start + 1:end]
    m = LAW_HEADING.match(heading)
    number, title = int(m[1]), m[2]
    words = title.split()
    caps = next((j for j, w in enumerate(words) if re.search(r"[a-z]", w)), len(words))
    if caps < len(words):  # the title runs into the body: 'LAW 4 – PARTNERSHIPS The four players ...'
        title, body = " ".join(words[:caps]), [(n, " ".join(words[caps:]))] + body
    elif body and not re.search(r"[a-z]", body[0][1]) and not _is_label(body[0][1]) \
            and not FOOTNOTE.match(body[0][1]):  # broken over two lines: '... BOARD AND' / 'CARDS'
        title, heading, body = f"{title} {body[0][1]}", f"{heading}\n{body[0][1]}", body[1:]
    return _LawBlock(n, number, title.rstrip(" &"), heading, body)


def _split_laws(ctx: _Context, lines: list[Line], expected: tuple[int, ...]):
    """Cut the laws' part at 'LAW n' headings; yields (number, title, body)."""
    starts = [i for i, (_, s) in enumerate(lines) if LAW_HEADING.match(s)] + [len(lines)]
    blocks = [_law_block(lines, a, b) for a, b in zip(starts, starts[1:])]

    # Laws sharing a slide (3 & 4, 88 & 89) first print both titles with no body
    counts = Counter(b.number for b in blocks)
    kept = []
    for b in blocks:
        if counts[b.number] > 1 and not b.body:
            ctx.layout(b.heading, "", f"title of a slide shared by two laws; Law {b.number}'s own heading follows",
                       str(b.number), b.line)
        else:
            kept.append(b)

    numbers = [b.number for b in kept]
    if numbers != list(expected):
        for b, want in zip(kept, expected):
            if b.number != want:
                raise SourceError(ctx.file, f"expected the heading of Law {want} here but found Law {b.number} "
                                            "(a law is missing, repeated or out of order)", b.line)
        raise SourceError(ctx.file, f"found {len(numbers)} laws; the manifest expects {len(expected)} "
                                    f"(Laws {expected[0]}–{expected[-1]})")
    for b in kept:
        if b.number in TITLE_FIXES and b.title == TITLE_FIXES[b.number][0]:
            title = TITLE_FIXES[b.number][1]
            ctx.layout(b.title, title, "the slide lost the dash between the two parts of the title",
                       str(b.number), b.line)
        else:
            title = title_case(b.title)
        yield b.number, title, b.body


# --- laws: tables ---------------------------------------------------------------

def _tokens(text: str) -> Counter:
    """Words, numbers and suit symbols: what a table's cells are made of."""
    return Counter(re.findall(r"[♣♦♥♠]|[0-9A-Za-z&]+", text))


def _table_words(tables: list[Table]) -> Counter:
    words = Counter()
    for t in tables:
        for cell in [t.caption, *t.header, *(c for row in t.rows for c in row)]:
            words += _tokens(cell)
    return words


def _check_cells(ctx: _Context, law: int, region: list[Line], text_lines: list[Line],
                 tables: list[Table]) -> None:
    """The rebuilt tables plus the region's running text must hold exactly the
    words of the flattened region: nothing dropped, nothing invented."""
    raw = _tokens(" ".join(s for _, s in region))
    got = _table_words(tables) + _tokens(" ".join(s for _, s in text_lines))
    if raw != got:
        missing, extra = raw - got, got - raw
        raise SourceError(ctx.file, f"Law {law}'s table does not match the cells in the file "
                                    f"(missing {dict(missing)}, not in the file {dict(extra)})", region[0][0])


def _repair_region(ctx: _Context, where: str, region: list[Line]) -> list[Line]:
    out = []
    for n, s in region:
        fixed, made = repair(s, where)
        ctx.out.corrections.extend(made)
        out.append((n, fixed))
    return out


def _table_correction(ctx: _Context, where: str, region: list[Line], tables: list[Table], how: str) -> None:
    shown = "\n\n".join("\n".join([t.caption, " | ".join(t.header)] + [" | ".join(r) for r in t.rows])
                        for t in tables)
    ctx.layout("\n".join(s for _, s in region), shown, how, where, region[0][0], kind="table")


def _law2_table(ctx: _Context, body: list[Line]) -> list[Line | tuple]:
    """Law 2: eight row labels, eight 'Boards', then the board numbers column by
    column (first column of the dealer half, first column of the vulnerability
    half, second column ...)."""
    start = next((i + 1 for i, (_, s) in enumerate(body) if s.endswith("as follows:")), None)
    end = next((i for i, (_, s) in enumerate(body) if s.startswith("The same sequence")), None)
    if start is None or end is None:
        raise SourceError(ctx.file, "Law 2's table (between 'as follows:' and 'The same sequence') not found",
                          body[0][0] if body else None)
    region = body[start:end]
    cells = [s for _, s in region]
    labels, boards, numbers = cells[:8], cells[8:16], cells[16:]
    if (len(numbers) != 32 or boards != ["Boards"] * 8 or not all(BARE_NUMBER.fullmatch(c) for c in numbers)
            or not all(c.endswith(("Dealer", "Vulnerable")) for c in labels)):
        raise SourceError(ctx.file, "Law 2's table is not 8 labels, 8 'Boards' and 32 board numbers",
                          region[0][0] if region else None)
    columns = [numbers[k:k + 8] for k in range(0, 32, 8)]
    rows = [[labels[r], "Boards", *(col[r] for col in columns),
             labels[r + 4], "Boards", *(col[r + 4] for col in columns)] for r in range(4)]
    table = Table(caption="Dealer and vulnerability", header=[], rows=rows,
                  note="Rebuilt from cells the slide text lists one per line: the row labels, "
                       "then 'Boards', then the board numbers column by column.")
    _check_cells(ctx, 2, region, [], [Table("", [], rows)])  # the caption is ours
    _table_correction(ctx, "2", region, [table], "table flattened one cell per line, rebuilt")
    return body[:start] + [(region[0][0], _TableMark([table]))] + body[end:]


# Law 77's flattening scrambles the order of cells (one column of trick scores
# comes out before its row labels, the vulnerable undertrick column after the
# next block), so its layout is declared here and checked against the cells.
LAW77_TEXT = [("A trick score of 100 points", "PARTSCORE."), ("If all four players pass", "zero score")]
LAW77_TABLES = [
    Table(caption="TRICK SCORE. Scored by declarer’s side if the contract is fulfilled.",
          header=["IF TRUMPS ARE:", "", "♣", "♦", "♥", "♠"],
          rows=[["For each odd trick bid and made", "Undoubled", "20", "20", "30", "30"],
                ["", "Doubled", "40", "40", "60", "60"],
                ["", "Redoubled", "80", "80", "120", "120"]]),
    Table(caption="AT A NO TRUMP CONTRACT",
          header=[],
          rows=[["For first odd trick bid and made", "Undoubled", "40"],
                ["", "Doubled", "80"],
                ["", "Redoubled", "160"],
                ["For each additional odd trick", "Undoubled", "30"],
                ["", "Doubled", "60"],
                ["", "Redoubled", "120"]]),
    Table(caption="PREMIUM SCORE. Scored by declarer’s side. SLAMS",
          header=["For making a slam", "Not Vulnerable", "Vulnerable"],
          rows=[["Small Slam (12 tricks) bid and made", "500", "750"],
                ["Grand Slam (all 13 tricks) bid and made", "1000", "1500"]]),
    Table(caption="OVERTRICKS",
          header=["For each OVERTRICK (tricks made in excess of contract)", "Not Vulnerable", "Vulnerable"],
          rows=[["Undoubled", "Trick Value", "Trick Value"],
                ["Doubled", "100", "200"],
                ["Redoubled", "200", "400"]]),
    Table(caption="PREMIUMS FOR GAME, PARTSCORE, FULFILLING CONTRACT",
          header=[],
          rows=[["For making GAME vulnerable", "500"],
                ["For making GAME, not vulnerable", "300"],
                ["For making any PARTSCORE", "50"],
                ["For making any doubled, but not redoubled contract", "50"],
                ["For making any redoubled contract", "100"]]),
    Table(caption="UNDERTRICK PENALTIES. Scored by declarer’s opponents if the contract is not fulfilled. "
                  "UNDERTRICKS: Tricks by which declarer falls short of the contract",
          header=["", "", "Not Vulnerable", "Vulnerable"],
          rows=[["For first undertrick", "Undoubled", "50", "100"],
                ["", "Doubled", "100", "200"],
                ["", "Redoubled", "200", "400"],
                ["For each additional undertrick", "Undoubled", "50", "100"],
                ["", "Doubled", "200", "300"],
                ["", "Redoubled", "400", "600"],
                ["Bonus for the fourth and each subsequent undertrick", "Undoubled", "0", "0"],
                ["", "Doubled", "100", "0"],
                ["", "Redoubled", "200", "0"]]),
]


def _law77_tables(ctx: _Context, body: list[Line]) -> list[Line | tuple]:
    """Law 77 is all table, save two notes set in it as running text."""
    start = next((i for i, (_, s) in enumerate(body) if s == "TRICK SCORE"), None)
    if start is None:
        raise SourceError(ctx.file, "Law 77's scoring table (TRICK SCORE ...) not found", body[0][0])
    region = _repair_region(ctx, "77", body[start:])
    text_lines: list[list[Line]] = []
    for first, last in LAW77_TEXT:
        i = next((i for i, (_, s) in enumerate(region) if s.startswith(first)), None)
        j = next((j for j in range(i or 0, len(region)) if region[j][1].endswith(last)), None)
        if i is None or j is None:
            raise SourceError(ctx.file, f"Law 77's note '{first} ... {last}' not found", region[0][0])
        text_lines.append(region[i:j + 1])
    tables = [Table(t.caption, list(t.header), [list(r) for r in t.rows],
                    note="Rebuilt from a layout declared in the parser; its cells were checked "
                         "to be exactly the cells of the slide text.") for t in LAW77_TABLES]
    _check_cells(ctx, 77, region, [line for part in text_lines for line in part], tables)
    table_only = [line for line in region if not any(line in part for part in text_lines)]
    _table_correction(ctx, "77", table_only, tables,
                      "scoring table flattened one cell per line (cells out of order), rebuilt from a declared "
                      "layout whose cells were checked against the slide text")
    out: list = body[:start] + [(region[0][0], _TableMark(tables))]
    for part in text_lines:
        out += [(part[0][0], None)] + part  # None: a paragraph break
    return out


def _law78b_table(ctx: _Context, body: list[Line]) -> list[Line | tuple]:
    """Law 78B: the IMP scale, three pairs of columns read row by row; each
    'from–to' range is followed by its IMPs."""
    start = next((i for i, (_, s) in enumerate(body) if s == "Difference"), None)
    end = next((i for i, (_, s) in enumerate(body) if s == "upward"), None)
    if start is None or end is None:
        raise SourceError(ctx.file, "Law 78B's IMP scale (Difference ... upward) not found", body[0][0])
    region = body[start:end + 1]
    joined = " ".join(s for _, s in region)
    pairs = [(f"{m[1]}–{m[2]}", int(m[3])) for m in re.finditer(r"(\d+)–(\d+)\s+(\d+)", joined)]
    top = re.search(r"(\d+)\s*&\s+(\d+)\s+upward", joined)
    if top:
        pairs.append((f"{top[1]} & upward", int(top[2])))
    pairs.sort(key=lambda p: p[1])
    lows = [int(re.match(r"\d+", r)[0]) for r, _ in pairs]
    highs = [int(r.split("–")[1]) for r, _ in pairs[:-1]]
    if [imps for _, imps in pairs] != list(range(1, 25)) or any(lo != hi + 10 for lo, hi in zip(lows[1:], highs)):
        raise SourceError(ctx.file, "Law 78B's IMP scale is not 24 contiguous ranges", region[0][0])
    table = Table(caption="IMP scale", header=["Difference in points", "IMPs"],
                  rows=[[r, str(imps)] for r, imps in pairs],
                  note="The Laws print three pairs of columns; rebuilt as one, in order of IMPs.")
    # the slide prints the header over each of its three pairs of columns
    _check_cells(ctx, 78, region, [], [Table("", table.header * 3, table.rows)])
    _table_correction(ctx, "78B", region, [table], "IMP scale flattened one cell per line, rebuilt")
    return body[:start] + [(region[0][0], _TableMark([table]))] + body[end + 1:]


TABLE_BUILDERS = {2: _law2_table, 77: _law77_tables, 78: _law78b_table}


# --- laws: provisions -----------------------------------------------------------

@dataclass
class _Footnote:
    mark: str
    lines: list[Line]


class _LawParser:
    """Feeds one law's lines to an Outline, keeping each provision's lines."""

    def __init__(self, ctx: _Context, number: int, body: list):
        self.ctx, self.number, self.body = ctx, number, body
        self.outline = Outline(number)
        self.paragraphs: dict[str, list[list[Line]]] = {str(number): [[]]}
        self.target = str(number)  # provision receiving text lines
        self.footnotes: list[_Footnote] = []
        self.in_footnote = False
        self.tables: dict[str, list[Table]] = {}
        # last label seen at each level, to accept only the next one in sequence
        self.seen: dict[str, str | None] = {LETTER: None, NUMBER: None, SMALL: None, ROMAN_KIND: None}

    # labels ------------------------------------------------------------------
    def _expected(self, kind: str) -> str:
        last = self.seen[kind]
        if kind == NUMBER:
            return str(int(last) + 1) if last else "1"
        if kind == ROMAN_KIND:
            return ROMAN[ROMAN.index(last) + 1] if last else "i"
        return chr(ord(last) + 1) if last else ("A" if kind == LETTER else "a")

    def _kind(self, label: str) -> str | None:
        kind = label_kind(label, self.outline.last_small)
        return kind if kind and label == self._expected(kind) else None

    def _open(self, label: str, heading: str = "") -> None:
        kind = label_kind(label, self.outline.last_small)
        prov = self.outline.open(label, heading=heading)
        self.seen[kind] = label
        for deeper in (LETTER, NUMBER, SMALL, ROMAN_KIND)[(LETTER, NUMBER, SMALL, ROMAN_KIND).index(kind) + 1:]:
            self.seen[deeper] = None
        self.paragraphs[prov.id] = [[]]
        self.target = prov.id
        self.in_footnote = False

    def _open_run(self, s: str) -> str | None:
        """Open every label at the start of `s` ('1. (a) text'); returns the rest,
        or None if `s` does not start with the next label in sequence."""
        opened = False
        while s:
            m = NUMBER_LABEL.match(s) or PAREN_LABEL.match(s)
            if not m or not self._kind(m[1]):
                break
            self._open(m[1])
            opened, s = True, (m[2] or "")
        return s if opened else None

    # text --------------------------------------------------------------------
    def _text(self, n: int, s: str) -> None:
        if self.in_footnote:
            self.footnotes[-1].lines.append((n, s))
            return
        paragraphs = self.paragraphs[self.target]
        last = paragraphs[-1]
        # a line ending with a colon, then a new sentence: a new paragraph (Law 75)
        if last and last[-1][1].endswith(":") and s[:1].isupper():
            paragraphs.append(last := [])
        last.append((n, s))

    def _break(self) -> None:
        if self.paragraphs[self.target][-1]:
            self.paragraphs[self.target].append([])

    def _trailing(self, n: int, s: str) -> bool:
        rule = TRAILING_PARAGRAPHS.get(self.number)
        if not rule or not s.startswith(rule[0]) or self.in_footnote:
            return False
        self.outline.close_to(rule[1])
        self.outline.add_text(s)
        para = self.outline.provisions[-1]
        self.paragraphs[para.id] = [[]]
        self.target = para.id
        self._text(n, s)
        return True

    # the loop ----------------------------------------------------------------
    def run(self) -> Law:
        lines = self._split_run_in_footnotes(self.body)
        i = 0
        while i < len(lines):
            n, s = lines[i]
            i += 1
            if s is None:
                self._break()
            elif isinstance(s, _TableMark):
                self.tables.setdefault(self.outline.current.id, []).extend(s.tables)
                self._break()
            elif m := FOOTNOTE.match(s):
                self.footnotes.append(_Footnote(m[1], [(n, m[2])]))
                self.in_footnote = True
            elif m := CONTINUED.match(s):
                self._continued(n, s, m)
            elif (m := LETTER_LABEL.match(s)) and self._kind(m[1]) == LETTER:
                i = self._letter(m[1], m[2] or "", n, lines, i)
            elif (rest := self._open_run(s)) is not None:
                if rest:
                    self._text(n, rest)
            elif not self._trailing(n, s):
                self._text(n, s)
        return self._finish()

    def _split_run_in_footnotes(self, body: list) -> list:
        out = []
        for n, s in body:
            if isinstance(s, str) and RUN_IN_FOOTNOTE.search(s) and not FOOTNOTE.match(s):
                before, after = RUN_IN_FOOTNOTE.split(s, maxsplit=1)
                self.ctx.layout(s, f"{before}\n{after}", "footnote run into the text it follows; separated",
                                str(self.number), n)
                out += [(n, before), (n, after)]
            else:
                out.append((n, s))
        return out

    def _continued(self, n: int, s: str, m: re.Match) -> None:
        """'B. End of Round continued': the slide repeats the open section's
        heading; nothing new opens."""
        open_letter = self.seen[LETTER]
        if m[1] and m[1] != open_letter:
            raise SourceError(self.ctx.file, f"'{s}' continues section {m[1]} of Law {self.number}, "
                                             f"but section {open_letter} is open", n)
        section = next((p.id for depth, _, p in self.outline.stack if depth == 1), str(self.number))
        self.ctx.layout(s, "", "heading repeated on the next slide; merged with the section it continues",
                        section if m[1] else str(self.number), n)
        self.in_footnote = False

    def _letter(self, letter: str, heading: str, n: int, lines: list, i: int) -> int:
        """'A. Heading' (or 'B.' with the heading on the next line, or a heading
        broken over two lines, or one that runs into its text)."""
        if not heading and i < len(lines):
            heading, i = lines[i][1], i + 1
        elif i < len(lines) and self._is_heading_tail(lines[i][1]):
            heading, i = f"{heading} {lines[i][1]}", i + 1
        rest = ""
        run_in = RUN_IN_HEADINGS.get((self.number, letter))
        if run_in and heading.startswith(run_in + " "):
            heading, rest = run_in, heading[len(run_in):].strip()
        fixed, made = repair(heading, f"{self.number}{letter}")
        self.ctx.out.corrections.extend(made)
        self._open(letter, fixed)
        self.ctx.owner.setdefault(n, self.target)
        if rest:
            self._text(n, rest)
        return i

    @staticmethod
    def _is_heading_tail(s: str) -> bool:
        """A line of one or two capitalised words and no stop: the end of a
        heading broken over two lines ('C. Play by ... before Assessment of' /
        'Rectification')."""
        return bool(re.fullmatch(r"[A-Z][a-z’]+(?: [A-Z][a-z’]+)?", s)) and not _is_label(s)

    # results -----------------------------------------------------------------
    def _finish(self) -> Law:
        ctx = self.ctx
        provisions = self.outline.provisions
        for prov in provisions:
            paragraphs = self.paragraphs.get(prov.id, [])
            for p in paragraphs:
                ctx.own(p, prov.id)
            prov.text, prov.raw_text = ctx.finish(prov.id, _paragraph_text(paragraphs))
            prov.tables = self.tables.get(prov.id, [])
        for pid in self.tables:
            if pid != TABLE_PROVISIONS.get(self.number):
                raise SourceError(ctx.file, f"a table of Law {self.number} landed in {pid}, "
                                            f"not in {TABLE_PROVISIONS.get(self.number)}")
        return Law(number=self.number, title="", provisions=provisions, footnotes=self._footnotes(provisions))

    def _footnotes(self, provisions: list[Provision]) -> list[Footnote]:
        """Each footnote once (the slides repeat it on every slide of its
        provisions), attached to the first provision whose text carries its mark."""
        seen: dict[tuple[str, str], Footnote] = {}
        for fn in self.footnotes:
            raw = squash(" ".join(s for _, s in fn.lines))
            if (fn.mark, raw) in seen:
                self.ctx.layout(f"{fn.mark} {raw}", "", "footnote repeated on a later slide; kept once",
                                seen[fn.mark, raw].provision, fn.lines[0][0])
                continue
            if any(mark == fn.mark for mark, _ in seen):
                raise SourceError(self.ctx.file, f"two different footnotes marked '{fn.mark}' in Law {self.number}",
                                  fn.lines[0][0])
            mark = re.compile(rf"(?<!\*){re.escape(fn.mark)}(?!\*)")
            carrier = next((p for p in provisions if mark.search(p.raw_text or p.text)), None)
            if carrier is None:  # no provision carries the mark: keep it on the law, and say so
                carrier = provisions[0]
                self.ctx.out.uncertain.append(Correction(
                    raw, raw, f"no provision of Law {self.number} carries the footnote mark '{fn.mark}'",
                    "layout", carrier.id, fn.lines[0][0]))
            self.ctx.own(fn.lines, carrier.id)
            text, raw_text = self.ctx.finish(carrier.id, raw)
            seen[fn.mark, raw] = Footnote(provision=carrier.id, mark=fn.mark, text=text, raw_text=raw_text)
        return list(seen.values())


def _parse_law(ctx: _Context, number: int, title: str, body: list[Line]) -> Law:
    if number in TABLE_BUILDERS:
        body = TABLE_BUILDERS[number](ctx, body)
    law = _LawParser(ctx, number, body).run()
    law.title = title
    return law
