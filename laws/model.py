"""What a parser hands to the store.

Every parser, whatever its source looks like, returns one `ParsedSource`.  The
store (`laws.store`) writes these values as they are; references are found and
resolved afterwards, over the whole store (`laws.references`), so parsers never
need to know about other sources.

Provision ids follow the Laws' own citation style (see CONTRACT.md): the law
number first, then the labels of each level with no separators, lower-case
letters and roman numerals in brackets: `12`, `12C`, `12C1`, `12C1(b)`,
`20F5(b)(ii)`.  Items numbered directly under the law get a dot: `35.1`.

Unlabelled paragraphs that cannot belong to their parent's own text because
they come *after* the parent's children (e.g. the "N.B." closing rubber Law 64)
become children of their own, labelled '' and with id `<parent>.p<n>` (n counts
the parent's unlabelled paragraphs from 1), so reading order is never lost.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Table:
    """A table rebuilt from cells that the source flattened one per line."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""  # how it was rebuilt, shown to readers who ask for the raw reading


@dataclass
class Provision:
    id: str
    parent: str | None  # None only for the law-level provision (id == str(law))
    label: str  # as printed: 'C', '1', '(b)', '(ii)', '' for the law itself
    heading: str = ""  # e.g. 'Awarding an Adjusted Score'
    text: str = ""  # own text only (not the children's), corrected; paragraphs split by '\n\n'
    raw_text: str | None = None  # the source's reading, when `text` differs from it
    tables: list[Table] = field(default_factory=list)


@dataclass
class Footnote:
    provision: str  # id of the provision that carries the mark
    mark: str  # '*', '**', '†', '1'
    text: str
    raw_text: str | None = None


@dataclass
class Law:
    number: int
    title: str
    provisions: list[Provision]  # document order; provisions[0] is the law itself
    footnotes: list[Footnote] = field(default_factory=list)
    section: str = ""  # heading of the part it sits under, where the source has one ('THE PLAY')


@dataclass
class Definition:
    term: str  # as printed, e.g. 'Psychic call'; id is 'def:' + term
    text: str
    raw_text: str | None = None

    @property
    def id(self) -> str:
        return f"def:{self.term}"


@dataclass
class Section:
    """Front matter that is part of a code but not a law (preface, introduction)."""

    slug: str
    title: str
    text: str
    raw_text: str | None = None


@dataclass
class Topic:
    """A topic of the simplified guide."""

    slug: str  # id is 'topic:' + slug
    title: str
    laws: list[int]  # every law it is tagged with (ranges expanded)
    markdown: str  # the topic's body, symbols repaired, for rendering
    text: str  # plain text of the body, for search
    parent: str | None = None  # slug of the enclosing topic, if nested
    raw_markdown: str | None = None

    @property
    def id(self) -> str:
        return f"topic:{self.slug}"


@dataclass
class Fragment:
    """A piece of a source that reproduces (part of) a law or definition of
    another source's edition, or is the source's own note."""

    text: str
    kind: str  # 'law' | 'definition' | 'note'
    law: int | None = None  # law reproduced (kind == 'law')
    term: str | None = None  # definition reproduced (kind == 'definition')
    provisions: list[str] = field(default_factory=list)  # provision ids it covers
    score: float | None = None  # how well it matched (0-100), None for notes
    date: str = ""  # date stamp the source gives it, if any
    line: int | None = None  # first line in the source file


@dataclass
class Correction:
    """A change between the source's reading and the text in the store."""

    raw: str
    corrected: str
    reason: str
    kind: str  # 'mojibake' | 'symbol' | 'ocr' | 'typo' | 'layout' | 'table' | ...
    where: str = ""  # provision id, 'def:<term>', 'topic:<slug>' ... it applies in
    line: int | None = None  # line in the source file, where known


@dataclass
class IndexCite:
    """One citation of an index entry: what the index prints and what it names."""

    raw: str  # as printed: '12C1(d)', 'Definitions', '93 footnote', 'Introduction'
    id: str  # provision id ('12C1(d)', '93'), 'def:<term>', 'definitions' or 'introduction'


@dataclass
class IndexEntry:
    """A heading of an edition's official index, or one of its sub-entries."""

    term: str  # 'Insufficient Bid', 'Comparable call' (ligatures restored)
    cites: list[IndexCite] = field(default_factory=list)
    see: list[str] = field(default_factory=list)  # 'See X': the heading to look under instead
    see_also: list[str] = field(default_factory=list)  # 'See also X'
    subterms: list["IndexEntry"] = field(default_factory=list)
    note: str = ""  # 'Note: An "Average score" is not identical to a "Zero score".'
    raw: str | None = None  # the source's reading of the whole heading, when repaired
    line: int | None = None  # first line in the source file


@dataclass
class ParsedSource:
    file: str
    edition: str
    laws: list[Law] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    topics: list[Topic] = field(default_factory=list)
    fragments: list[Fragment] = field(default_factory=list)
    index: list[IndexEntry] = field(default_factory=list)  # the official index, headings A-Z
    corrections: list[Correction] = field(default_factory=list)
    # Things the parser could not settle (an OCR symbol it cannot read for
    # certain, say): kept and shown, never guessed away.
    uncertain: list[Correction] = field(default_factory=list)


class SourceError(Exception):
    """A corpus file or manifest entry the build cannot use.

    The message names the file (and line, where there is one) and says what is
    wrong in words an organiser adding an edition understands."""

    def __init__(self, file: str, message: str, line: int | None = None):
        self.file, self.line, self.message = file, line, message
        where = f"{file}, line {line}" if line else file
        super().__init__(f"{where}: {message}")

    def __reduce__(self):  # raised in a build worker, re-raised in the build (laws.workers)
        return type(self), (self.file, self.message, self.line)
