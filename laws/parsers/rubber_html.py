"""The 1993 Laws of Contract Bridge (rubber), Part VI, as text of an HTML page (002).

What the page's text looks like:

    PENALTY CARD                    section heading (capitals, between laws)
    LAW 48                          the law's number ...
    EXPOSURE OF DECLARER'S CARDS    ... and its title, in capitals
    (Club Law 47)                   a pointer to the Club Law variant, under some titles
    Declarer is not subject to      a paragraph: its first line is cut short
    penalty for exposing a card ... (the HTML broke the line right after <p>),
    (a) ask declarer (but not a     lettered and roman items, '(a)', '(i)'
    * After the final pass, ...     footnotes at the end of a law
    (i) |                           residue of HTML tables ('|' cells)

Paragraphs carry no labels, so where one begins has to be inferred; see
`_starts_paragraph`.  Lines are also broken around every link ('(see Law' /
'43) he may also'), which is why a short line alone does not start a paragraph.
"""
from __future__ import annotations

import re

from laws.corrections import Corrections
from laws.model import Correction, Footnote, Law, ParsedSource, SourceError
from laws.parsers.structure import Outline, footnote_carrier
from laws.text import squash, title_case

LAW_LINE = re.compile(r"^LAW\s+(\d{1,3})$")
# '(a) text', '(iv)', and the OCR's '( d) to'
ITEM = re.compile(r"^\(\s*([a-z]|[ivx]{1,4})\s*\)\s*(.*)$")
CLUB_LAW = re.compile(r"^\(Club Law \d+\)$")
# '* After the final pass, ...' begins a footnote; '*, or' is a mark in running text
FOOTNOTE = re.compile(r"^(\*{1,3})\s+(?=[A-Z(])(.*)$")
TABLE_RESIDUE = re.compile(r"\s*\|\s*$")

# A paragraph's first line holds only the few words that followed the <p> tag:
# 20-32 characters here, against about 70 for a full line.  Lines that begin a
# new sentence but run longer than this continue the paragraph before them.
SHORT_FIRST_LINE = 45
SENTENCE_END = (".", ":", ";", ")")


def parse(text: str, source, corrections: Corrections, parsed) -> ParsedSource:
    out = ParsedSource(file=source.file, edition=source.edition)
    lines = _clean_lines(text.splitlines(), out)
    section = ""
    starts = [k for k, (_n, line) in enumerate(lines) if LAW_LINE.match(line)]
    if not starts:
        raise SourceError(source.file, "has no 'LAW n' line: is this the text of the rubber code's HTML page?")
    for n, line in lines[:starts[0]]:  # headings above the first law
        section = _section(line, source.file, n)
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        body = lines[start + 1:end]
        # Capitals after a law's text head the laws that follow.  Of two in a row
        # ('THE PLAY' / 'CORRECT PROCEDURE') the one nearer the law is the narrower.
        next_section = ""
        while len(body) > 1 and _is_heading(body[-1][1]):
            next_section = next_section or body[-1][1]
            body.pop()
        law = _parse_law(lines[start], body, source.file, corrections, out)
        law.section = title_case(section)  # printed in capitals
        out.laws.append(law)
        section = next_section or section
    return out


def _clean_lines(raw_lines: list[str], out: ParsedSource) -> list[tuple[int, str]]:
    """(line number, text) of the lines that carry text, with table residue removed."""
    lines = []
    for n, raw in enumerate(raw_lines, 1):
        line = TABLE_RESIDUE.sub("", raw).strip()
        if line != raw.strip():
            out.corrections.append(Correction(raw.strip(), line, "residue of an HTML table cell ('|')", "table", line=n))
        if line:
            lines.append((n, line))
    return lines


def _is_heading(line: str) -> bool:
    return bool(re.search("[A-Z]", line)) and line == line.upper() and not LAW_LINE.match(line) \
        and not FOOTNOTE.match(line) and not ITEM.match(line)


def _section(line: str, file: str, n: int) -> str:
    if not _is_heading(line):
        raise SourceError(file, f"text before the first law that is not a section heading: '{line}'", n)
    return line


# --- one law -------------------------------------------------------------------------

def _parse_law(law_line, body, file: str, corrections: Corrections, out: ParsedSource) -> Law:
    n, line = law_line
    number = int(LAW_LINE.match(line)[1])
    if not body or not _is_heading(body[0][1]):
        raise SourceError(file, f"Law {number} has no title line in capitals after it", n)
    title = title_case(body[0][1])  # printed in capitals, like the section headings
    outline = Outline(number)
    footnotes: list[list] = []  # [mark, text, line]
    prev = None
    for n, line in body[1:]:
        if footnotes or FOOTNOTE.match(line):
            _footnote_line(footnotes, line, n)
        elif CLUB_LAW.match(line):
            # A margin pointer to the Club Law variant: kept as the first paragraph
            # of the law's text, where readers see it and references find it.
            outline.add_text(line)
        elif m := ITEM.match(line):
            if m[0].startswith("( "):
                out.corrections.append(Correction(line, f"({m[1]}) {m[2]}", "OCR space inside an item's label", "ocr",
                                                  line=n))
            outline.open(m[1], text=m[2])
        elif prev is None or _starts_paragraph(prev, line):
            outline.close_to(0)  # an unlabelled paragraph after items belongs to the law itself
            outline.add_text(line)
        else:
            _continue(outline, line)
        prev = line

    law = Law(number=number, title=title, provisions=outline.provisions)
    for prov in law.provisions:
        prov.text, prov.raw_text = corrections.fix(file, prov.id, prov.text, out.corrections)
    for mark, text, n in footnotes:
        carrier = footnote_carrier(law, mark)
        corrected, raw = corrections.fix(file, carrier, text, out.corrections)
        law.footnotes.append(Footnote(provision=carrier, mark=mark, text=corrected, raw_text=raw))
    return law


def _starts_paragraph(prev: str, line: str) -> bool:
    """Does `line` begin a new paragraph?  Only if the line before it ended a
    sentence (footnote marks aside), it begins with a capital, and it is cut
    short the way the first line after a <p> tag is."""
    ended = prev.rstrip(" *").endswith(SENTENCE_END)
    return ended and line[:1].isupper() and len(line) < SHORT_FIRST_LINE


def _continue(outline: Outline, line: str) -> None:
    """Join a line to the paragraph it continues (the last paragraph of the
    last provision written, which is where the running text is)."""
    last = outline.provisions[-1]
    if not last.text:
        last.text = line
    else:
        head, _sep, tail = last.text.rpartition("\n\n")
        last.text = f"{head}\n\n{squash(tail + ' ' + line)}" if head else squash(f"{tail} {line}")


def _footnote_line(footnotes: list[list], line: str, n: int) -> None:
    m = FOOTNOTE.match(line)
    if m:
        footnotes.append([m[1], m[2], n])
    else:
        footnotes[-1][1] = squash(f"{footnotes[-1][1]} {line}")
