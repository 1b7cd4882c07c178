"""One parser per kind of source.  The manifest names the parser a source needs.

A parser is a function

    parse(text: str, source: Source, corrections: Corrections,
          parsed: dict[str, list[ParsedSource]]) -> ParsedSource

`text` is the file's content; `corrections` holds the curated corrections
(call `corrections.apply(source.file, where, text)` on each piece of text);
`parsed` maps edition id -> the sources of that edition already parsed (the
build parses `code` sources before `fragments`, which are matched against
them).  A parser raises `SourceError` naming the file and line for input it
cannot read.
"""
from __future__ import annotations

from importlib import import_module

# parser name (as the manifest writes it) -> module in this package
_MODULES = {
    "slides": "slides",  # the 2007 slide presentation (000)
    "guide": "guide",  # Duplicate Bridge Rules Simplified, Markdown from OCR (001)
    "rubber-html": "rubber_html",  # the 1993 rubber code, text of an HTML page (002)
    "club-pages": "club_pages",  # a club's dated "law of the month" pages (003)
    "plain": "plain",  # a plain transcription: 'Law n' / title / 'A. Heading' (004)
    "pdf": "pdf_text",  # a code as text extracted from its PDF (the ACBL 2017 Laws; the 2027 Laws)
}
PARSERS = set(_MODULES)


def get(name: str):
    return import_module(f"laws.parsers.{_MODULES[name]}").parse
