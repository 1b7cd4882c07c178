"""Duplicate Bridge Rules Simplified (2017): Markdown made by OCR (source 001).

The file is the booklet page by page: a title block printed twice (the second
copy followed by the copyright page), 142 headed topics from the Introduction
on, then the index (its page numbers scrambled) and the back cover.  Each
heading with the text under it is a `Topic`; titles keep their words and
capitals as printed.  What the OCR did, and what this parser does about it:

* Heading levels (`#`, `###`, `####`, bold or not) say nothing reliable about
  nesting, so nesting is decided from content (see `_nest`).
* Law tags in headings come in several spellings: `[LAW 27]`, `[LAWS 92]`,
  `[LAW 35 & 36]`, `[LAWS 20 & 41]`, `[LAWS 20, 21, 40 & 75]`,
  `[LAWS 28 TO 34]`, `[LAWS 35 to 39]` ('and' and '-' are read too).  A
  bracketed tag in a topic's body (the Introduction's '[Law 9]') tags the
  topic as well: the booklet brackets a law only to point the reader at it.
  Prose ('Law 9') does not tag.  Untagged sub-topics get no laws of their
  own; their parent's are a join away.
* Suit symbols came out as LaTeX (`$1 \\nabla$`) or as look-alike glyphs;
  each mapping is settled by the auctions around it (see `_LATEX_SUITS`).
  What cannot be settled stays readable, marked with '?' ('2♠(?)',
  '1? - (1? - 1?)-Dbl'), and is recorded in `ParsedSource.uncertain`.
* `<u>...</u>` marks a cross-reference to another topic ('<u>Lead
  Penalties</u>, see page 7'); it becomes a Markdown link when a topic of
  that title exists, else it is recorded as uncertain.  A bold phrase
  followed by a page ('**RESTORING EQUITY** on page 41') is linked too when
  it names a topic.  Page numbers are the booklet's and are kept as printed.
* A paragraph cut in two by a page break is joined again.

Curated fixes (OCR slips, a suit the context proves wrong) live in
corpus/corrections.toml and are applied to each topic's raw body first.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from laws.corrections import Corrections
from laws.model import Correction, ParsedSource, SourceError, Topic

# Where a topic is served; cross-references link here.
TOPIC_URL = "/guide/topic:{slug}"

# The index and the back cover that follows it are not topics.
BACK_MATTER = "INDEX"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# '[LAW 27]', '[LAWS 28 TO 34]', '[Law 9]' ... anywhere in a line
LAW_TAG = re.compile(r"\[\s*laws?\s+([^\]]*\d[^\]]*)\]", re.I)


@dataclass
class _Heading:
    line: int  # 1-based line of the heading in the file
    level: int  # number of '#'
    title: str  # clean: no '#', '**', tag or trailing colon
    laws: list[int]  # from the heading's tag
    body: str  # raw Markdown under the heading, up to the next one
    body_line: int  # line the body starts on
    parent: int | None = None  # index of the parent heading
    slug: str = ""

    @property
    def empty(self) -> bool:
        return not self.body.strip()


def parse(text: str, source, corrections: Corrections, parsed) -> ParsedSource:
    file = source.file
    headings = _topic_headings(_split(text.splitlines(), file), file)
    _nest(headings)
    _assign_slugs(headings)
    resolver = _TitleResolver(headings)
    result = ParsedSource(file=file, edition=source.edition)
    for h in headings:
        result.topics.append(_topic(h, headings, resolver, file, corrections, result))
    return result


# --- splitting the file into headings ------------------------------------------

def _split(lines: list[str], file: str) -> list[_Heading]:
    """Every heading with the raw text up to the next heading."""
    starts = [i for i, line in enumerate(lines) if HEADING.match(line)]
    headings = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        m = HEADING.match(lines[i])
        title, laws = _clean_title(m[2], file, i + 1)
        body = "\n".join(lines[i + 1:end]).strip("\n")
        first = next((j for j in range(i + 1, end) if lines[j].strip()), i + 1)
        headings.append(_Heading(i + 1, len(m[1]), title, laws, body, first + 1))
    return headings


def _topic_headings(headings: list[_Heading], file: str) -> list[_Heading]:
    """Drop the front matter (the title block, printed twice, whose second
    copy carries the copyright page) and the back matter (the index, whose page
    numbers are scrambled, and the back cover after it)."""
    if not headings:
        raise SourceError(file, "has no Markdown headings ('# ...'): is this the guide's OCR text?")
    book_title = headings[0].title
    start = 0
    while start < len(headings) and headings[start].title == book_title:
        start += 1
    end = next((i for i, h in enumerate(headings) if h.title.upper() == BACK_MATTER), len(headings))
    topics = headings[start:end]
    if not topics:
        raise SourceError(file, "has no topics between the title pages and the index", headings[0].line)
    return topics


def _clean_title(raw: str, file: str, line: int) -> tuple[str, list[int]]:
    """'**CALL OUT OF ROTATION [LAWS 28 TO 34]**' -> ('CALL OUT OF ROTATION', [28..34]).
    Titles keep the words and capitals as printed."""
    laws = [n for m in LAW_TAG.finditer(raw) for n in parse_law_tag(m[1], file, line)]
    title = LAW_TAG.sub("", raw.replace("**", "").replace("__", ""))
    title = re.sub(r"\s+", " ", title).strip().rstrip(":").strip()
    if not title:
        raise SourceError(file, "a heading has no title", line)
    return title, sorted(set(laws))


def parse_law_tag(inside: str, file: str = "", line: int | None = None) -> list[int]:
    """The laws a tag names: '28 TO 34' (a range: every law in it), '20, 21, 40 & 75',
    '35 and 36', '92'."""
    laws: list[int] = []
    for part in re.split(r"\s*(?:,|&|\band\b)\s*", inside.strip(), flags=re.I):
        m = re.fullmatch(r"(\d{1,2})(?:\s*(?:to|-|–)\s*(\d{1,2}))?", part.strip(), re.I)
        if not m:
            raise SourceError(file, f"cannot read the law tag '[LAW {inside}]'", line)
        lo, hi = int(m[1]), int(m[2] or m[1])
        if not 1 <= lo <= hi <= 93:
            raise SourceError(file, f"the law tag '[LAW {inside}]' names no law of 1 to 93", line)
        laws.extend(range(lo, hi + 1))
    return laws


# --- nesting -------------------------------------------------------------------

def _nest(headings: list[_Heading]) -> None:
    """Set each heading's parent, from what it says rather than its '#' level.

    Reading the whole booklet gives four kinds of heading:

    * a *chapter*: an untagged top-level heading with no text of its own, a
      divider for what follows ('DIRECTOR'S POWERS', 'MISCELLANEOUS',
      'ALERTING AND ANNOUNCING').  It has no parent and holds everything up
      to the next chapter.
    * a *topic*: a heading with a law tag ('LEAD PENALTIES [LAW 26]'), even one
      printed small ('#### SHUFFLE AND DEAL [LAW 6]').  Its parent is the
      chapter it is in, if any.
    * a *sub-topic*: an untagged heading that continues the subject of the
      topic above it ('OPENING TWO BIDS' under 'PERMITTED SYSTEMS AND
      AGREEMENTS'; 'OVERCALLS', whose text is about System Cards, under
      'SYSTEM CARDS').  An untagged heading on another subject
      ('SCORING USING BRIDGEMATES' after 'ASSIGNMENT OF SEATS') is a topic of
      its own in the chapter.
    * a *group*: a small untagged heading with no text ('TWO OR MORE PENALTY
      CARDS', 'BIDDING BOXES – INSTRUCTIONS FOR USE') holds the sub-headings
      after it, until the next group or topic.  Sub-headings are not nested
      further: 'How do you deal with a MINOR penalty card?' sits beside 'MINOR
      PENALTY CARDS' (a rule that nested it under the heading it names would
      also put 'DO NOT ALERT THESE CALLS' under 'ALERT THESE CALLS').

    The '#' level is used only to tell a chapter ('#') from a group ('###',
    '####'), both of which are empty untagged headings.
    """
    chapter = topic = group = None  # indexes of the open headings
    for i, h in enumerate(headings):
        if h.laws:  # a topic
            h.parent, topic, group = chapter, i, None
        elif h.empty and h.level == 1:  # a chapter
            h.parent, chapter, topic, group = None, i, None, None
        elif h.empty:  # a group
            h.parent, group = (topic if topic is not None else chapter), i
        elif group is not None:  # a sub-heading in a group
            h.parent = group
        else:
            holder = topic if topic is not None else chapter
            if holder is not None and _continues(h, headings[holder]):  # a sub-topic
                h.parent = holder
            else:  # an untagged topic
                h.parent, topic = chapter, i


_STOP = {"a", "an", "the", "of", "to", "and", "or", "in", "on", "for", "by", "is", "be",
         "with", "from", "that", "this", "when", "what", "who", "whom", "there", "their",
         "they", "have", "which", "other", "than", "then", "will", "been", "more", "some",
         "such", "these", "those", "after", "before", "may", "must", "not", "use", "how"}


def _stems(text: str) -> list[str]:
    """Crude stems of the significant words: 'Penalties' and 'penalty' -> 'penal',
    'claims', 'claiming', 'claimant' -> 'claim'."""
    words = re.findall(r"[a-z]+", unicodedata.normalize("NFKD", text).lower().replace("'", ""))
    return [w.rstrip("s")[:5] if len(w) > 4 else w.rstrip("s") or w for w in words if w not in _STOP]


def _continues(h: _Heading, holder: _Heading) -> bool:
    """Does an untagged heading carry on the subject of `holder`?  Yes when its
    title or text uses a significant word of the holder's title."""
    subject = {s for s in _stems(holder.title) if len(s) >= 4}
    return bool(subject & set(_stems(h.title + " " + h.body)))


# --- ids -----------------------------------------------------------------------

def slugify(title: str) -> str:
    """'DIRECTOR'S POWERS' -> 'directors-powers'; 'BIDDING BOXES – INSTRUCTIONS FOR USE'
    -> 'bidding-boxes-instructions-for-use'."""
    ascii_ = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    ascii_ = re.sub(r"['’]", "", ascii_.lower())
    return re.sub(r"[^a-z0-9]+", "-", ascii_).strip("-") or "topic"


def _assign_slugs(headings: list[_Heading]) -> None:
    """Slugs from titles.  A title printed more than once ('Examples', 'Making a
    Call') is qualified by its parent's slug in every place, so neither copy
    claims the bare slug; a number is the last resort."""
    base = [slugify(h.title) for h in headings]
    taken: set[str] = set()
    for h, slug in zip(headings, base):
        if base.count(slug) > 1 and h.parent is not None:
            slug = f"{headings[h.parent].slug}-{slug}"
        unique, n = slug, 2
        while unique in taken:
            unique, n = f"{slug}-{n}", n + 1
        h.slug = unique
        taken.add(unique)


# --- one topic -----------------------------------------------------------------

def _topic(h: _Heading, headings: list[_Heading], resolver: "_TitleResolver", file: str,
           corrections: Corrections, result: ParsedSource) -> Topic:
    where = f"topic:{h.slug}"
    markdown, made = corrections.apply(file, where, h.body)
    result.corrections.extend(made)
    markdown = _repair_symbols(markdown, where, h.body_line, result)
    markdown = _join_page_breaks(markdown, where, result)
    markdown = resolver.link(markdown, where, result)
    laws = sorted(set(h.laws) | set(_body_tags(markdown, file, h.body_line)))
    parent = headings[h.parent].slug if h.parent is not None else None
    return Topic(slug=h.slug, title=h.title, laws=laws, markdown=markdown,
                 text=plain_text(markdown), parent=parent,
                 raw_markdown=h.body if markdown != h.body else None)


def _body_tags(markdown: str, file: str, line: int) -> list[int]:
    return [n for m in LAW_TAG.finditer(markdown) for n in parse_law_tag(m[1], file, line)]


# --- suit symbols --------------------------------------------------------------

# OCR read the printed suit glyphs as the LaTeX symbol they looked like.  Each
# mapping, with the evidence that settles it:
_LATEX_SUITS = {
    # ∇ is the heart: 'opens 1∇ ... if this hand bids 1△' (Comparable Calls)
    # needs △ above ∇; '4∇ is doubled ... removes it to 4△, which makes for
    # N/S +620' is a major-suit game, and the Note that follows prints the same
    # example with real glyphs: '4♥ doubled ... 620 for 4♠'.
    "nabla": "♥",
    # △ is the spade: the same two examples.
    "triangle": "♠",
    # ▼ is the heart's outline like ∇, and it ends the list '2♣, 2?, 2▼
    # responses to a natural 1NT' (Stayman 2♣ and the transfers 2♦ and 2♥
    # are the responses announced in England and Wales).
    "blacktriangledown": "♥",
    # The named suit macros read as themselves where the context agrees:
    # '4\heartsuit doubled' repeats the 4♥ doubled of the example above,
    # '2\clubsuit' leads the 1NT responses (Stayman) and 'doubles of
    # 4\clubsuit or higher' names the lowest bid of the four level.
    "heartsuit": "♥",
    "clubsuit": "♣",
}
# Readings the context does not settle: (what the glyph shows, why in doubt).
_LATEX_DOUBTFUL = {
    "spadesuit": ("♠", "the glyph is a spade, but its one use lists the 1NT responses "
                       "'2♣, 2♠ and 2♥' that are announced or alerted: in suit order, and with "
                       "Stayman 2♣ and the transfers 2♦ and 2♥, it reads as 2♦ (the OCR confuses "
                       "♦ and ♠ elsewhere)"),
    "diamondsuit": ("♦", "the OCR confuses ♦ and ♠; no auction here shows which"),
}
# Look-alike glyphs for a suit: '2NT-P-2◆ intended as a transfer ... if 2♦ is
# not condoned' (Insufficient Bid examples) prints the same bid both ways.
_GLYPHS = {"◆": "♦"}

# '$1 \nabla$', '$2\clubsuit$', a bare '\heartsuit'.  (`_tidy_spaces` then removes
# the spaces the OCR set around them.)
_LATEX = re.compile(r"(?P<open>\$\s*)?(?P<level>[1-7])?\s*\\(?P<name>[A-Za-z]+)\s*(?(open)\$)")
# A bid whose suit symbol the OCR dropped: the '1 - (1 - 1)-Dbl' auctions.
# Bare levels between dashes with spaces or brackets; '3-4-3-3' (a hand
# pattern) and '12-14' (a range) have neither.
_LOST_SUITS = re.compile(r"\b[1-7]\s*[-–]\s*\(\s*[1-7]\s*[-–]\s*[1-7]\s*\)(?:\s*[-–]\s*(?:Dbl|Rdbl|Pass|P)\b)?"
                         r"|\b[1-7] [-–] [1-7]\b")


def _repair_symbols(markdown: str, where: str, first_line: int, result: ParsedSource) -> str:
    lines = markdown.split("\n")
    for n, line in enumerate(lines):
        at = first_line + n
        line = _repair_latex(line, where, at, result)
        for glyph, suit in _GLYPHS.items():
            if glyph in line:
                result.corrections.append(Correction(glyph, suit, "look-alike glyph for the suit symbol (OCR)",
                                                     "symbol", where, at))
                line = line.replace(glyph, suit)
        line = _LOST_SUITS.sub(lambda m: _mark_lost_suits(m[0], where, at, result), line)
        lines[n] = _tidy_spaces(line)
    return "\n".join(lines)


def _tidy_spaces(line: str) -> str:
    """The OCR set its LaTeX apart with spaces ('instead of  $4 \\diamondsuit$ , he'),
    and a curated fix may leave them: make them single, and none before a stop."""
    indent = len(line) - len(line.lstrip(" "))
    body = re.sub(r" {2,}(?=\S)", " ", line[indent:])
    body = re.sub(r"(?<=[♣♦♥♠)]) (?=[,.;:!?])", "", body)
    return line[:indent] + body


def _mark_lost_suits(auction: str, where: str, at: int, result: ParsedSource) -> str:
    """'1 - (1 - 1)-Dbl' -> '1? - (1? - 1?)-Dbl': the bids stay, marked as missing their suits."""
    marked = re.sub(r"[1-7]", lambda d: d[0] + "?", auction)
    result.uncertain.append(Correction(
        auction, marked, "an example auction whose suit symbols the OCR lost; the text does not "
        "say which suits they were (the example's two auctions differ only in them)", "symbol", where, at))
    return marked


def _repair_latex(line: str, where: str, at: int, result: ParsedSource) -> str:
    def sub(m: re.Match) -> str:
        level, name = m["level"] or "", m["name"]
        raw = m[0]
        if name in _LATEX_SUITS:
            fixed = level + _LATEX_SUITS[name]
            result.corrections.append(Correction(raw, fixed, f"suit symbol read by OCR as LaTeX \\{name}",
                                                 "symbol", where, at))
        else:
            shown, why = _LATEX_DOUBTFUL.get(name, ("", "not a suit symbol this parser knows"))
            fixed = f"{level}{shown}(?)"
            result.uncertain.append(Correction(raw, fixed, f"suit symbol read by OCR as LaTeX \\{name}: {why}",
                                               "symbol", where, at))
        return fixed

    return _LATEX.sub(sub, line)


# --- layout --------------------------------------------------------------------

# Words a sentence cannot end on.
_DANGLING = re.compile(r"\b(?:the|a|an|and|or|of|to|in|if|his|her|with|for|by)$", re.I)


def _join_page_breaks(markdown: str, where: str, result: ParsedSource) -> str:
    """Join a paragraph that a page break cut in two ('... in addition' /
    'to being take-out ...').  A cut is a paragraph that ends without a stop
    and whose next paragraph is plain text starting in lower case, or which
    ends on a word no sentence ends on ('... However, if the' / 'Offender's')."""
    paras = markdown.split("\n\n")
    out = [paras[0]] if paras else []
    for para in paras[1:]:
        prev = out[-1].rstrip()
        nxt = para.lstrip()
        if _is_cut(prev, nxt):
            out[-1] = prev + " " + nxt
            result.corrections.append(Correction(prev[-30:] + "\n\n" + nxt[:30], prev[-30:] + " " + nxt[:30],
                                                 "paragraph cut in two by a page break", "layout", where))
        else:
            out.append(para)
    return "\n\n".join(out)


def _is_cut(prev: str, nxt: str) -> bool:
    if not prev or not nxt or "\t" in prev or prev.endswith(tuple(".:;!?)*'’\"")):
        return False
    if re.match(r"[-*#>|]|\(?[A-Za-z0-9]\)|\*\*", nxt):  # a list item, heading, label or bold lead
        return False
    return nxt[0].islower() or bool(_DANGLING.search(prev))


# --- cross-references ----------------------------------------------------------

_UNDERLINE = re.compile(r"<u>(.*?)</u>(?:\s*<u>(.*?)</u>)*")
# A bold phrase followed by a page reference: '**RESTORING EQUITY** on page 41'.
_BOLD_REF = re.compile(r"\*\*([^*]+)\*\*(?=[\s,;]*\(?(?:see\s+)?(?:on\s+)?page\s+\d+)", re.I)


class _TitleResolver:
    """Finds the topic a cross-reference names, by its title's significant words
    ('Comparable Call' names 'COMPARABLE CALLS', 'adjusted score' names
    'ADJUSTING THE SCORE'), or by a title the reference contains ('DEFECTIVE
    TRICK containing a fifth card')."""

    def __init__(self, headings: list[_Heading]):
        self.by_key: dict[tuple, list[str]] = {}
        for h in headings:
            self.by_key.setdefault(tuple(_stems(h.title)), []).append(h.slug)

    def find(self, ref: str) -> tuple[str | None, str]:
        """(slug, '') or (None, why not)."""
        key = tuple(_stems(ref))
        slugs = self.by_key.get(key, [])
        if len(slugs) == 1:
            return slugs[0], ""
        if len(slugs) > 1:
            return None, f"several topics have this title ({', '.join(slugs)})"
        if re.search(r"\b(?:or|and)\b", ref, re.I):
            return None, "it names more than one thing, so no one topic is meant"
        inside = [(len(k), s[0]) for k, s in self.by_key.items()
                  if len(s) == 1 and 0 < len(k) < len(key)
                  and any(key[i:i + len(k)] == k for i in range(len(key) - len(k) + 1))]
        longest = max((n for n, _ in inside), default=0)
        best = [s for n, s in inside if n == longest]
        if len(best) == 1:
            return best[0], ""
        return None, "no topic has this title"

    def link(self, markdown: str, where: str, result: ParsedSource) -> str:
        def underlined(m: re.Match) -> str:
            words = " ".join(re.findall(r"<u>(.*?)</u>", m[0]))
            slug, why = self.find(words)
            if slug:
                return f"[{words}]({TOPIC_URL.format(slug=slug)})"
            result.uncertain.append(Correction(m[0], words, f"cross-reference to '{words}' left unlinked: {why}",
                                               "link", where))
            return words

        def bold(m: re.Match) -> str:
            # Bold is emphasis as often as a reference: link it only when found.
            slug, _ = self.find(m[1])
            return f"[{m[0]}]({TOPIC_URL.format(slug=slug)})" if slug else m[0]

        return _BOLD_REF.sub(bold, _UNDERLINE.sub(underlined, markdown))


# --- plain text ----------------------------------------------------------------

def plain_text(markdown: str) -> str:
    """The words of a topic, for search: no Markdown or HTML; one line per
    paragraph or list item."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text).replace("**", "").replace("__", "")
    blocks: list[list[str]] = []
    new_block = True
    for line in text.split("\n"):
        if not line.strip():
            new_block = True
            continue
        item = re.match(r"\s*(?:[-*+]|#{1,6})\s+", line)  # a list item or heading starts a block
        words = line[item.end():] if item else line
        if new_block or item:
            blocks.append([])
        blocks[-1].append(words.strip())
        new_block = False
    return "\n".join(re.sub(r"\s+", " ", " ".join(b)).strip() for b in blocks)
