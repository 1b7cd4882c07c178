"""A club's "law of the month" pages (003): fragments of an edition's text.

The pages quote a definition or a law each month, mostly without law numbers or
titles, between date stamps ('September 2013'), with the club's own notes mixed
in and some pieces repeated.  So each fragment is identified by its *content*:
its paragraphs are matched (rapidfuzz) against the provisions, footnotes and
definitions of the edition's code, parsed before this file (`parsed[edition]`).

The page's lines are one paragraph each.  A fragment ends at a run of two or
more blank lines, a date stamp, a line shaped like a definition ('Term — text')
or a heading naming a law ('Law 2: The duplicate Boards.').

What a fragment becomes:
- a definition-shaped line whose term and text match a definition of the code
  (`DEFINITION_THRESHOLD`) -> kind 'definition', with the code's term;
- a run of paragraphs that reproduces a law: every paragraph of substance
  matches a provision, heading or footnote of one law (`PARAGRAPH_THRESHOLD`)
  and the length-weighted score reaches `LAW_THRESHOLD` -> kind 'law';
- anything else -> kind 'note' (the club's own words), never law text.  A note
  keeps the law it names in a heading of its own ('Law 2: ...'), or else the
  law it resembles most if the resemblance is close (`NOTE_LAW_THRESHOLD`), and
  its best score, so a reader can see why it was not taken as law text.
A paragraph that matches nothing at the start or end of a law fragment is split
off as a note of its own, so a club remark next to a quotation cannot spoil it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from laws.corrections import Corrections
from laws.model import Correction, Fragment, ParsedSource, SourceError
from laws.text import squash

# Scores are rapidfuzz's 0-100.
PARAGRAPH_THRESHOLD = 75  # a paragraph quotes a provision (punctuation or a word may differ)
LAW_THRESHOLD = 85  # a fragment's length-weighted score to count as the law's text
DEFINITION_THRESHOLD = 85  # a definition's text against the code's
NOTE_LAW_THRESHOLD = 60  # a note close enough to one law to say which it is about
REPEAT_THRESHOLD = 95  # a later fragment this close to an earlier one is a repeat
SUBSTANTIAL = 30  # characters: shorter paragraphs ('A. Doubles') do not vote

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE_STAMP = re.compile(rf"^(?:{MONTHS}) \d{{4}}$")
# The page's own capture time: '20th Jul 2017 22:09 BST'
TIMESTAMP = re.compile(r"^\d{1,2}(?:st|nd|rd|th)? \w{3,9} \d{4} \d{1,2}:\d{2}(?: [A-Z]{2,5})?$")
# 'Matchpoint — ...', 'Definition :- Partscore — ...', 'Definition - Game: ...'
DEFINITION = re.compile(r"^(?:Definition\s*[:\-–—]*\s*)?(?P<term>[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}?)"
                        r"\s*(?:—|–|-|:)\s*(?P<text>\S.*)$")
# 'Law 2: The duplicate Boards.', 'LAW 6 -THE SHUFFLE AND DEAL'
LAW_HEADING = re.compile(r"^law\s+(\d{1,3})\s*[:\-–—.]\s*\S.*$", re.I)
LABELS = re.compile(r"^(?:\(?[A-Za-z0-9]{1,4}[.)]\s*)+")
# A row of a table laid out with spaces ('North    1   5   9   13    Nil All ...')
TABLE_ROW = re.compile(r"\S {3,}\S.* {3,}\S")


@dataclass
class Piece:
    kind: str  # 'law' (body text, not yet matched), 'definition' (shaped like one), 'note'
    line: int
    date: str
    paragraphs: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # where each paragraph starts
    named_law: int | None = None  # law number given in a heading of the piece itself


@dataclass
class Entry:
    """One thing a paragraph can match: a provision's text or heading, a footnote."""

    law: int
    provision: str
    text: str  # normalised
    # Ancestors with no text of their own ('12C1' above '12C1(a)'), outermost
    # first: a fragment quoting the child covers them too.
    containers: tuple[str, ...] = ()


def parse(text: str, source, corrections: Corrections, parsed) -> ParsedSource:
    codes = parsed.get(source.edition) or []
    if not any(p.laws for p in codes):
        raise SourceError(source.file, f"holds fragments of edition '{source.edition}', whose code must be parsed "
                                       "first: the manifest needs a code source for that edition")
    out = ParsedSource(file=source.file, edition=source.edition)
    entries, definitions = _targets(codes)
    pieces = _pieces(text.splitlines(), out)
    fragments: list[Fragment] = []
    for piece in pieces:
        for frag in _identify(piece, entries, definitions):
            if _is_repeat(frag, fragments):
                out.corrections.append(Correction(frag.text, "", "fragment repeated on the page; dropped", "layout",
                                                  line=frag.line))
                continue
            frag.text, _raw = corrections.fix(source.file, "", frag.text, out.corrections)
            fragments.append(frag)
    out.fragments = fragments
    return out


# --- what the fragments are matched against -----------------------------------------

def normalise(text: str) -> str:
    """Text compared without labels, footnote marks, quote styles or spacing."""
    text = LABELS.sub("", text.strip())
    text = text.replace("*", " ").translate(str.maketrans("‘’“”–—", "''\"\"--"))
    return squash(text).lower()


def _targets(codes: list[ParsedSource]) -> tuple[list[Entry], dict[str, str]]:
    entries: list[Entry] = []
    definitions: dict[str, str] = {}
    for code in codes:
        for law in code.laws:
            containers = _containers(law)
            for prov in law.provisions:
                paras = [p for p in prov.text.split("\n\n") if p.strip()]
                if len(paras) > 1:  # a fragment may quote one paragraph or run them together
                    paras.append(prov.text)
                if prov.heading:
                    paras.append(prov.heading)
                for para in paras:
                    entries.append(Entry(law.number, prov.id, normalise(para), containers[prov.id]))
            for note in law.footnotes:
                entries.append(Entry(law.number, note.provision, normalise(note.text), containers.get(note.provision, ())))
        for d in code.definitions:
            definitions[d.term] = normalise(d.text)
    return entries, definitions


def _containers(law) -> dict[str, tuple[str, ...]]:
    """provision id -> its ancestors below the law that have neither text nor heading."""
    by_id = {p.id: p for p in law.provisions}
    chains: dict[str, tuple[str, ...]] = {}
    for prov in law.provisions:  # document order: a parent comes before its children
        parent = by_id.get(prov.parent) if prov.parent else None
        if parent is None or parent.parent is None:
            chains[prov.id] = ()
        else:
            empty = not parent.text.strip() and not parent.heading
            chains[prov.id] = chains.get(parent.id, ()) + ((parent.id,) if empty else ())
    return chains


# --- splitting the page -------------------------------------------------------------

def _pieces(lines: list[str], out: ParsedSource) -> list[Piece]:
    pieces: list[Piece] = []
    date, blanks, current = "", 0, None
    for n, raw in enumerate(lines, 1):
        line = raw.replace("\u00a0", " ").strip()
        if not TABLE_ROW.search(line):  # keep a table's columns; elsewhere spacing is noise
            line = squash(line)
        if not line:
            blanks += 1
            continue
        gap, blanks = blanks, 0
        if TIMESTAMP.match(line):
            out.corrections.append(Correction(line, "", "time the page was captured, not part of it", "layout", line=n))
            current = None
            continue
        if DATE_STAMP.match(line):
            date, current = line, None
            continue
        if current is not None and current.kind == "definition" and line[:1].islower() and gap <= 1:
            current.paragraphs.append(line)  # a definition running on ('disciplinary those applied ...')
            current.lines.append(n)
            continue
        if DEFINITION.match(line) and not LAW_HEADING.match(line):
            current = Piece("definition", n, date, [line], [n])
            pieces.append(current)
            continue
        heading = LAW_HEADING.match(line)
        if current is None or current.kind != "law" or gap >= 2 or heading:
            current = Piece("law", n, date, named_law=int(heading[1]) if heading else None)
            pieces.append(current)
        current.paragraphs.append(line)
        current.lines.append(n)
    return pieces


# --- identifying a piece ------------------------------------------------------------

def _identify(piece: Piece, entries: list[Entry], definitions: dict[str, str]) -> list[Fragment]:
    if piece.kind == "definition":
        return [_definition(piece, definitions)]
    return _law(piece, entries)


def _definition(piece: Piece, definitions: dict[str, str]) -> Fragment:
    """A definition of the code if both the term and the text match; otherwise a
    note (the club's own 'Passed out Hand - ...'), scored against the closest text."""
    text = "\n\n".join(piece.paragraphs)
    m = DEFINITION.match(piece.paragraphs[0])
    body = normalise(" ".join([m["text"], *piece.paragraphs[1:]]))
    scores = {term: fuzz.ratio(body, definition) for term, definition in definitions.items()}
    same_term = [t for t in scores if fuzz.ratio(t.lower(), m["term"].lower()) >= 90]
    best_term = max(same_term, key=scores.get, default=None)
    if best_term and scores[best_term] >= DEFINITION_THRESHOLD:
        return Fragment(text=text, kind="definition", term=best_term, provisions=[f"def:{best_term}"],
                        score=round(scores[best_term], 1), date=piece.date, line=piece.line)
    closest = max(scores.values(), default=0.0)
    return Fragment(text=text, kind="note", score=round(closest, 1), date=piece.date, line=piece.line)


def _best(paragraph: str, entries: list[Entry]) -> tuple[Entry | None, float]:
    """The entry a paragraph matches best, and how well.  A paragraph may be a
    whole provision or a part of a longer one (or hold a short one), hence the
    partial ratio when the lengths differ."""
    query = normalise(paragraph)
    if not query:
        return None, 0.0
    # A fast first pass, then a closer look at the best few.  Entries much shorter
    # than the paragraph are left out of the first pass: token_set_ratio rates
    # any entry whose words all occur in the paragraph (a heading) at 100.
    candidates = [i for i, e in enumerate(entries) if len(e.text) >= 0.3 * len(query)]
    texts = [entries[i].text for i in candidates]
    shortlist = {candidates[k] for _t, _s, k in process.extract(query, texts, scorer=fuzz.token_set_ratio, limit=10)}
    shortlist |= {candidates[k] for _t, _s, k in process.extract(query, texts, scorer=fuzz.ratio, limit=5)}
    best, best_score = None, 0.0
    for i in sorted(shortlist):
        score = _similarity(query, entries[i].text)
        if score > best_score:
            best, best_score = entries[i], score
    return best, best_score


def _similarity(a: str, b: str) -> float:
    score = fuzz.ratio(a, b)
    short, long = sorted((a, b), key=len)
    if len(short) >= SUBSTANTIAL and len(long) > 1.3 * len(short):
        score = max(score, 0.95 * fuzz.partial_ratio(short, long))
    return score


def _law(piece: Piece, entries: list[Entry]) -> list[Fragment]:
    paragraphs = piece.paragraphs
    body = [p for p in paragraphs if not LAW_HEADING.match(p)]
    votes: dict[int, float] = {}
    for p in body:
        if len(normalise(p)) < SUBSTANTIAL:  # headings ('A. Doubles') fit too many laws to vote
            continue
        entry, score = _best(p, entries)
        if entry and score >= PARAGRAPH_THRESHOLD:
            votes[entry.law] = votes.get(entry.law, 0.0) + score * len(p)
    law = max(votes, key=votes.get) if votes else None
    in_law = [e for e in entries if e.law == law]
    matches = [(p, *_best(p, in_law if law is not None else entries)) for p in paragraphs]

    # A paragraph of prose that fits nothing, at either end of the piece, is a
    # note of its own (a club remark next to a quotation).
    fragments: list[Fragment] = []
    start, end = 0, len(matches)
    while start < end and _stray(matches[start]):
        fragments.append(_note(piece, [matches[start][0]], piece.lines[start], matches[start][2]))
        start += 1
    trailing = []
    while end > start and _stray(matches[end - 1]):
        trailing.insert(0, _note(piece, [matches[end - 1][0]], piece.lines[end - 1], matches[end - 1][2]))
        end -= 1
    if start < end:
        fragments.append(_judge(piece, matches[start:end], piece.lines[start], law))
    return fragments + trailing


def _stray(match) -> bool:
    paragraph, _entry, score = match
    return len(normalise(paragraph)) >= SUBSTANTIAL and score < PARAGRAPH_THRESHOLD \
        and not LAW_HEADING.match(paragraph) and not TABLE_ROW.search(paragraph)


def _judge(piece: Piece, matches, line: int, law: int | None) -> Fragment:
    """Law text, or a note?  Law text only if every paragraph of substance
    quotes the law and the whole scores LAW_THRESHOLD."""
    weighted = [(len(p), score) for p, _e, score in matches
                if len(normalise(p)) >= SUBSTANTIAL and not LAW_HEADING.match(p)]
    total = sum(w for w, _s in weighted)
    score = round(sum(w * s for w, s in weighted) / total, 1) if total else 0.0
    faithful = all(s >= PARAGRAPH_THRESHOLD for _w, s in weighted)
    paragraphs = [p for p, _e, _s in matches]
    if law is not None and faithful and score >= LAW_THRESHOLD:
        covered: list[str] = []
        for _p, entry, s in matches:
            if entry and s >= PARAGRAPH_THRESHOLD:
                covered.extend(pid for pid in (*entry.containers, entry.provision) if pid not in covered)
        return Fragment(text="\n\n".join(paragraphs), kind="law", law=law, provisions=covered, score=score,
                        date=piece.date, line=line)
    about = piece.named_law or (law if score >= NOTE_LAW_THRESHOLD else None)
    frag = _note(piece, paragraphs, line, score)
    frag.law = about
    return frag


def _note(piece: Piece, paragraphs: list[str], line: int, score: float) -> Fragment:
    return Fragment(text="\n\n".join(paragraphs), kind="note", score=round(score, 1), date=piece.date, line=line)


# --- repeats and corrections --------------------------------------------------------

def _is_repeat(frag: Fragment, earlier: list[Fragment]) -> bool:
    """A fragment the page already gave: same law or term, same text (a prefix
    such as 'Definition :-' aside)."""
    for other in earlier:
        if (other.kind, other.law, other.term) != (frag.kind, frag.law, frag.term):
            continue
        if fuzz.partial_ratio(normalise(frag.text), normalise(other.text)) >= REPEAT_THRESHOLD:
            return True
    return False
