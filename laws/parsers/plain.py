"""A plain transcription of a code of Laws (the 2017 blog, 004; a future 2027 text).

The layout it reads, one paragraph per line:

    Law 35                      (or 'Law 35 - Inadmissible Calls' on one line)
    Inadmissible Calls          the title
    The following calls ...     text of the law itself
    A. A double or ...          a labelled item with its text
    A. Offender's LHO Calls     a labelled heading; its text on the next line(s)
    1. a). Partnership ...      several labels may open one line
    (i) ...  /  i). ...         lower-case letters and roman numerals, bracketed
                                either way ('(a)', 'a)', 'a).')
    * A footnote                attached to the provision that carries the mark

Anything before the first 'Law n' line is page chrome (breadcrumbs, the page
title) and is dropped, as are later repeats of those lines.  Nothing here knows
which laws a file holds: the labels' levels and ids come from `structure.Outline`.
"""
from __future__ import annotations

import re

from laws.corrections import Corrections
from laws.model import Correction, Footnote, Law, ParsedSource, SourceError
from laws.parsers.structure import LETTER, NUMBER, ROMAN_KIND, SMALL, Outline, footnote_carrier, label_kind
from laws.text import squash

# 'Law 33', 'LAW 33', 'Law 33 - Simultaneous Calls', 'Law 33: Simultaneous Calls',
# 'Law 33 Simultaneous Calls'.  A line of text such as 'Law 72C may apply.' or
# 'Law 16 may apply.' must not match: the number has to end the line, or be
# followed by a separator and the title, or by a title in title case.
LAW_LINE = re.compile(r"^law\s+(\d{1,3})(?:\s*$|\s*[-–—:.]\s*(\S.*)$|\s+(\S.*)$)", re.I)

# One label at the start of a line: 'A.', '1.', '(a)', 'a)', 'a).', '(iv)', 'iv).'
LABEL = re.compile(r"^(?:([A-Z])\.|(\d{1,2})\.|\(?([a-z]{1,4})\)\.?)(?:\s+|$)")

FOOTNOTE = re.compile(r"^(\*{1,3}|†)\s+(\S.*)$")

# Words a title leaves in lower case ('Bid of More Than Seven', 'Call After the Final Pass')
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of",
                "on", "or", "the", "to", "with", "vs", "v", "after", "before", "during",
                "does", "not"}  # 'Offender's LHO does not Call before Rectification' (2017)


def parse(text: str, source, corrections: Corrections, parsed) -> ParsedSource:
    out = ParsedSource(file=source.file, edition=source.edition)
    lines = text.splitlines()
    blocks = _split_laws(lines, source.file, out)
    for number, title, body in blocks:
        out.laws.append(_parse_law(number, title, body, source.file, corrections, out))
    return out


# --- splitting the file into laws ------------------------------------------------

def _split_laws(lines: list[str], file: str, out: ParsedSource):
    """[(number, title, [(line no, text), ...])] in file order."""
    starts = [i for i, line in enumerate(lines) if _law_line(line.strip())]
    if not starts:
        raise SourceError(file, "has no 'Law n' line: a plain transcription starts each law with one")
    chrome = {line.strip() for line in lines[:starts[0]] if line.strip()}
    for i, line in enumerate(lines[:starts[0]]):
        if line.strip():
            out.corrections.append(Correction(line.strip(), "", "page chrome before the first law, not part of the Laws",
                                              "layout", line=i + 1))
    blocks, seen = [], set()
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        number, title = _law_line(lines[start].strip())
        if number in seen:
            raise SourceError(file, f"Law {number} appears twice", start + 1)
        seen.add(number)
        body = []
        for i in range(start + 1, end):
            line = squash(lines[i])
            if not line:
                continue
            if line in chrome:  # a page header repeated further down
                out.corrections.append(Correction(line, "", "page chrome repeated inside the text", "layout", line=i + 1))
                continue
            body.append((i + 1, line))
        if title:  # title on the law line itself
            title = squash(title)
        elif body:
            title = body.pop(0)[1]
        else:
            raise SourceError(file, f"Law {number} has no title line after it", start + 1)
        blocks.append((number, title, body))
    return blocks


def _law_line(line: str) -> tuple[int, str | None] | None:
    """(number, title or None) if the line begins a law."""
    m = LAW_LINE.match(line)
    if not m:
        return None
    if m[3] is not None and not _title_case(m[3]):
        return None  # 'Law 16 may apply.': text that happens to start a line
    return int(m[1]), m[2] or m[3]


# --- one law -----------------------------------------------------------------------

def _parse_law(number: int, title: str, body, file: str,
               corrections: Corrections, out: ParsedSource) -> Law:
    outline = Outline(number)
    footnotes: list[tuple[str, str, int]] = []  # (mark, raw text, line)
    for k, (line_no, line) in enumerate(body):
        m = FOOTNOTE.match(line)
        if m:
            footnotes.append((m[1], m[2], line_no))
            continue
        if footnotes:  # a footnote running on to a second line
            mark, note, at = footnotes[-1]
            footnotes[-1] = (mark, f"{note} {line}", at)
            continue
        next_line = body[k + 1][1] if k + 1 < len(body) else ""
        _read_line(outline, line, next_line, line_no, out)

    # A title is corrected like the law's own text: an entry's `where` is the law's id.
    law = Law(number=number, title=corrections.fix(file, str(number), title, out.corrections)[0],
              provisions=outline.provisions)
    for prov in law.provisions:
        prov.heading = corrections.fix(file, prov.id, prov.heading, out.corrections)[0]
        prov.text, prov.raw_text = corrections.fix(file, prov.id, prov.text, out.corrections)
    for mark, note, line_no in footnotes:
        carrier = footnote_carrier(law, mark)
        text, raw = corrections.fix(file, carrier, note, out.corrections)
        law.footnotes.append(Footnote(provision=carrier, mark=mark, text=text, raw_text=raw))
    return law


def _read_line(outline: Outline, line: str, next_line: str, line_no: int, out: ParsedSource) -> None:
    """One line: zero or more labels, then a heading or text."""
    labels, rest = _leading_labels(line, outline)
    if not labels:
        outline.add_text(rest)
        return
    for label in labels[:-1]:  # '1. a). text': the outer labels carry no text of their own
        outline.open(label)
    last = labels[-1]
    kind = label_kind(last, outline.last_small)
    if rest and _is_heading(rest, kind, next_line, outline):
        heading = rest[:-1].rstrip() if rest.endswith(".") else rest  # headings carry no full stop
        prov = outline.open(last, heading=heading)
        if heading != rest:
            out.corrections.append(Correction(rest, heading, "full stop after a heading", "layout", prov.id, line_no))
    else:
        outline.open(last, text=rest)


def _leading_labels(line: str, outline: Outline) -> tuple[list[str], str]:
    """('1. a). Partnership ...') -> (['1', 'a'], 'Partnership ...')."""
    labels: list[str] = []
    rest = line
    last_small = outline.last_small
    while True:
        m = LABEL.match(rest)
        if not m:
            break
        label = m[1] or m[2] or m[3]
        kind = label_kind(label, last_small)
        if kind is None:
            break
        if m[3] and kind not in (SMALL, ROMAN_KIND):
            break  # 'x)' where x is not a lower-case letter or numeral
        if kind == SMALL:
            last_small = label
        elif kind in (LETTER, NUMBER):
            last_small = None  # as Outline does: a new number starts its letters afresh
        labels.append(label)
        rest = rest[m.end():]
    return labels, rest.strip()


def _is_heading(text: str, kind: str | None, next_line: str, outline: Outline) -> bool:
    """Does the text after a label read as a heading ('Offender's LHO Calls Before
    Rectification') rather than a provision's text ('A bid of more than 7.')?
    A heading is in title case; under a number it must also be followed by
    unlabelled text (its body), since short numbered sentences can look like titles."""
    if kind not in (LETTER, NUMBER) or not _title_case(text):
        return False
    if kind == NUMBER:
        return bool(next_line) and not _leading_labels(next_line, outline)[0] and not FOOTNOTE.match(next_line)
    return True


def _title_case(text: str) -> bool:
    text = text.rstrip(".")
    if re.search(r"[.;:!?]\s", text) or len(text) > 100:
        return False  # more than one sentence, or too long for a heading
    words = re.findall(r"[A-Za-z][\w’'-]*", text)
    if not words:
        return False
    return words[0][0].isupper() and all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words)


# --- corrections ---------------------------------------------------------------------
