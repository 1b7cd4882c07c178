"""The outline of a law: labels, levels and provision ids.

Shared by the parsers of every source that prints the Laws' own labels
(A., 1., (a), (i)).  A parser recognises labels in its own way, then feeds
them here in document order; `Outline` decides each label's level and id.

Levels: capital letter (A) > arabic number (1) > lower-case letter ((a)) >
lower-case roman numeral ((i)).  An arabic number directly under the law (no
letter above it: 2007 Law 35) gets a dot: `35.1`.  '(i)' is a roman numeral
unless the letters before it at the same level run up to '(h)' (2007 Law 80B2
runs (a)...(l)).
"""
from __future__ import annotations

import re

from laws.model import Law, Provision

ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]

# Kinds of label, outermost first
LETTER, NUMBER, SMALL, ROMAN_KIND = "letter", "number", "small", "roman"
DEPTH = {LETTER: 1, NUMBER: 2, SMALL: 3, ROMAN_KIND: 4}


def label_kind(label: str, previous_small: str | None = None) -> str | None:
    """The kind of a bare label ('C', '3', 'b', 'iv').  `previous_small` is the
    last lower-case letter seen at the (a) level, to tell '(i)' apart."""
    if re.fullmatch(r"[A-Z]", label):
        return LETTER
    if re.fullmatch(r"\d{1,2}", label):
        return NUMBER
    if label in ROMAN and not (label in ("i", "v", "x") and previous_small
                               and ord(label) == ord(previous_small) + 1):
        return ROMAN_KIND
    if re.fullmatch(r"[a-z]", label):
        return SMALL
    return None


def format_label(kind: str, label: str) -> str:
    """How the label reads in an id: 'C', '1', '(b)', '(ii)'."""
    return f"({label})" if kind in (SMALL, ROMAN_KIND) else label


class Outline:
    """Builds a law's provisions from labelled pieces in document order."""

    def __init__(self, law: int):
        self.law = law
        self.root = Provision(id=str(law), parent=None, label="")
        self.provisions: list[Provision] = [self.root]
        # open provisions by depth (0 is the law)
        self.stack: list[tuple[int, str, Provision]] = [(0, "", self.root)]
        self.last_small: str | None = None
        self.paragraphs: dict[str, int] = {}

    @property
    def current(self) -> Provision:
        return self.stack[-1][2]

    def open(self, label: str, heading: str = "", text: str = "") -> Provision:
        """Start the provision labelled `label` (bare: 'C', '1', 'b', 'iv')."""
        kind = label_kind(label, self.last_small)
        if kind is None:
            raise ValueError(f"'{label}' is not a label of the Laws")
        if kind == SMALL:
            self.last_small = label
        depth = DEPTH[kind]
        while self.stack[-1][0] >= depth:
            self.stack.pop()
        parent = self.stack[-1][2]
        if kind == NUMBER and parent is self.root:
            pid = f"{self.law}.{label}"  # numbered directly under the law (2007 Law 35)
        else:
            pid = parent.id + format_label(kind, label)
        if kind in (LETTER, NUMBER):
            self.last_small = None
        prov = Provision(id=pid, parent=parent.id, label=format_label(kind, label) if kind in (SMALL, ROMAN_KIND)
                         else label, heading=heading, text=text)
        self.provisions.append(prov)
        self.stack.append((depth, kind, prov))
        return prov

    def add_text(self, text: str) -> None:
        """Text that continues the current provision.  If the current provision
        already has children, the text follows them and gets its own unlabelled
        provision `<parent>.p<n>` so that reading order is kept."""
        text = text.strip()
        if not text:
            return
        cur = self.current
        last = self.provisions[-1]
        if last.parent == cur.id and not last.label:  # already a trailing paragraph: continue it
            last.text = f"{last.text}\n\n{text}"
            return
        if last is cur:
            cur.text = f"{cur.text}\n\n{text}" if cur.text else text
            return
        n = self.paragraphs.get(cur.id, 0) + 1
        self.paragraphs[cur.id] = n
        para = Provision(id=f"{cur.id}.p{n}", parent=cur.id, label="", text=text)
        self.provisions.append(para)

    def close_to(self, depth: int) -> None:
        """Close open provisions deeper than `depth` (0 = back to the law)."""
        while self.stack[-1][0] > depth:
            self.stack.pop()


def footnote_carrier(law: Law, mark: str) -> str:
    """The first provision whose text carries a footnote's mark ('*' but not
    part of '**').  A mark used twice points at one footnote, attached once,
    to the first; a mark found nowhere leaves the footnote on the law."""
    pattern = re.compile(rf"(?<!\*){re.escape(mark)}(?!\*)")
    for prov in law.provisions:
        if pattern.search(prov.text):
            return prov.id
    return law.provisions[0].id
