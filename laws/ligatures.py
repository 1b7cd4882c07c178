"""Letters lost with a PDF's ligatures, and hyphens lost at its line joins.

A PDF sets `ff`, `ffi`, `ffl` (and `fi`, `fl`) as single glyphs; an extractor
that cannot map a glyph back to letters drops it, leaving a space or nothing:
`o ender` (offender), `insu cient`, `shu e`, `E ective`, `Je Polisner` (Jeff),
`Appoint other sta` (staff).  The same extraction joins two halves of a
hyphenated word without the hyphen: `EastWest`, `higherranking`,
`nono ending` (non-offending: both at once).

The repair is a rule, not a list of words, so that the next edition extracted
the same way is repaired too.  It needs to know what a word is, and takes that
from a `Lexicon`: an English word list with frequencies (pyspellchecker's, from
the OpenSubtitles-based English dictionary it ships) plus the words of the
corpus's clean texts related to the edition repaired (for the 2017 Laws: the
blog's transcription of its Laws 33-40, the guide to it, the 2007 slides:
`edition_lexicon`), which also say which compounds the Laws write with a
hyphen (`East-West`, `higher-ranking`).

Lost ligatures.  A token that is not a word on its own (a *fragment*: `ender`,
`insu`, `sta`; a single letter other than `a` and `I`) is read again with a
ligature put back in every place one can have been lost: the gap (one space)
between it and the token before or after, its end, its start, inside it.  A
token that is a word is read again only joined to the next one.  A reading
counts when the word it makes is known: to the word list, to the corpus, or as
the closed spelling of a compound the corpus hyphenates.  The text as it is
competes with the readings, by the probability of the words over the token and
its neighbours (unigram frequencies of the word list, plus the corpus's
counts), and a reading is applied only when it is at least ten times as
probable as the text as it is and as every other reading.  So `o ending` is
`offending`, not `o` + `ending`; `sta and` is `staff and`, not `staffand`;
`ba ing` is `baffling` although `ba` and `ing` are in the list; but `A Rights`
stays (`affrights` is rare) and so does `Wales` (`Waffles` is only seven times
as frequent).  Two ligatures that make a word in the same place (`ri e`:
`riffle`, `rifle`) are never chosen between.  A fragment with a reading that
is not applied is reported as uncertain and left as it is.  Letters after
digits (`1st`, `80B2`) and an all-capital token alone (`NS`) are left alone.
Case is kept: `O ending` -> `Offending`; `OFFENDER` if both sides are capitals.

Lost hyphens.  A closed token that splits into two words (`east` + `west`) is
read as a hyphenated compound when:
  1. the text itself writes the hyphenated form more often than the closed one
     (the text is the best witness of its own spelling: `non-offending` over
     `nonoffending`); or
  2. the closed form is written once only in the text, is no known word, and
     the corpus writes the hyphenated form (`EastWest` -> `East-West`).
A closed form the text writes consistently (`notrump`, three times, never
`no-trump`) or that the word list knows is left alone.  A closed token that is
no known word and splits into words the corpus never writes hyphenated
(`noncomparable`) is reported as uncertain: it could be `non-comparable` or a
closed spelling the corpus does not have.

`restore` is pure: it reads the word list (and, by default, the corpus) once
per process and writes nothing.
"""
from __future__ import annotations

import copy
import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from laws.model import Correction

# In the order a typesetter uses them most; `ff` and its kin are the ones the
# 2017 PDF lost.  The order only matters for the order readings are reported.
LIGATURES = ("ff", "ffi", "ffl", "fi", "fl")

# A word of two letters or more stands on its own when the clean corpus has it
# or the English list has it at least once per million words: the list also
# holds rare strings that are fragments here ('sta' is in it 414 times in 1.6
# billion words; 'staff' 47,523).
COMMON_PER_MILLION = 1.0
# One reading is preferred over another only when it is this many times as probable.
MARGIN = 10.0
# One-letter words; every other single letter is a fragment (or a label like '(e)').
ONE_LETTER_WORDS = frozenset({"a", "i"})

_TOKEN = re.compile(r"[A-Za-z]+")
_LIGATURE = re.compile(r"(?=f[fil])")
_URL = re.compile(r"(?:https?://|www\.)\S+")
_COMPOUND = re.compile(r"(?<![A-Za-z-])([A-Za-z]+)-([A-Za-z]+)(?![A-Za-z]|-[A-Za-z])")
# A text whose own words show more lost ligatures than this (per word) is not
# used as vocabulary: its fragments would pass for words.
DAMAGED_RATE = 1 / 1000


@dataclass(frozen=True)
class Lexicon:
    """What counts as a word.  `english` maps lower-case words to their counts
    in the English list; `corpus` and `hyphenated` count the lower-case words
    and the two-part hyphenated compounds ('east-west') of clean texts."""

    english: Mapping[str, int] = field(repr=False)
    english_total: int
    corpus: Mapping[str, int] = field(default_factory=dict, repr=False)
    hyphenated: Mapping[str, int] = field(default_factory=dict, repr=False)
    # How the text being repaired spells its words and compounds, counted over
    # the whole of it after the ligature repair (see `for_document`); None:
    # count over the text given to `restore`.
    document: Mapping[str, int] | None = field(default=None, repr=False)
    # derived: closed spelling -> its hyphenated splits ('eastwest' -> [('east', 'west')])
    _closed: Mapping[str, list[tuple[str, str]]] = field(init=False, repr=False, compare=False)
    _document_closed: Mapping[str, list[tuple[str, str]]] = field(init=False, repr=False, compare=False)
    _any: frozenset[str] = field(init=False, repr=False, compare=False)  # known() or hyphen_known()
    _before: frozenset[str] = field(init=False, repr=False, compare=False)
    _after: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        closed = _closed_spellings(self.hyphenated)
        object.__setattr__(self, "_closed", closed)  # (frozen: set once, here)
        object.__setattr__(self, "_document_closed", _closed_spellings(self.document or {}))
        known = frozenset(self.english).union(self.corpus, closed)
        object.__setattr__(self, "_any", known)
        # what comes before and after a ligature in a known word ('o' | 'ender'),
        # so that most tokens are passed over with two look-ups
        before, after = set(), set()
        for word in known:
            for m in _LIGATURE.finditer(word):
                before.add(word[:m.start()])
                after.add(word[m.start() + 2:])  # after 'ff', 'fi' or 'fl': 'ffi', 'ffl' start with 'ff'
                after.add(word[m.start() + 3:])
        object.__setattr__(self, "_before", frozenset(before))
        object.__setattr__(self, "_after", frozenset(after))

    @property
    def _common(self) -> float:
        return COMMON_PER_MILLION * self.english_total / 1e6

    def known(self, word: str) -> bool:
        """In the word list or the corpus, however rare."""
        w = word.lower()
        return w in self.english or w in self.corpus

    def is_word(self, token: str) -> bool:
        """Stands on its own as a word (so is not a fragment)."""
        w = token.lower()
        if len(w) == 1:
            return w in ONE_LETTER_WORDS
        return w in self.corpus or self.english.get(w, 0) >= self._common

    def hyphen_known(self, word: str) -> bool:
        """A closed spelling of a compound the corpus writes with a hyphen."""
        return word.lower() in self._closed

    def log_p(self, word: str) -> float:
        """Log10 of the word's frequency; an unknown word gets half a count."""
        w = word.lower()
        count = self.english.get(w, 0) + self.corpus.get(w, 0)
        if not count and w in self._closed:
            count = sum(self.hyphenated[f"{a}-{b}"] for a, b in self._closed[w])
        return math.log10(max(count, 0.5) / self.english_total)

    def with_texts(self, texts: Iterable[str]) -> "Lexicon":
        """This lexicon plus the words of `texts` (clean texts only)."""
        corpus, hyphenated = Counter(self.corpus), Counter(self.hyphenated)
        for text in texts:
            # counted as written, then folded: each distinct spelling lowered once
            for w, n in Counter(_TOKEN.findall(text)).items():
                corpus[w.lower()] += n
            hyphenated.update(f"{a}-{b}".lower() for a, b in _COMPOUND.findall(text))
        return Lexicon(self.english, self.english_total, dict(corpus), dict(hyphenated))

    def for_document(self, text: str) -> "Lexicon":
        """This lexicon, knowing how the whole of `text` spells its words: for
        a parser that repairs a document piece by piece (`restore(piece,
        where, lexicon)`), so that the lost-hyphen rule still weighs the whole
        document's usage ('notrump' three times is the text's spelling)."""
        edits, _ = _ligatures(text, self, "")
        repaired = _splice(text, edits)
        counts = Counter(w.lower() for w in _TOKEN.findall(repaired))
        counts.update(f"{a}-{b}".lower() for a, b in _COMPOUND.findall(repaired))
        # this lexicon with a document: its word sets (__post_init__) depend
        # on the word lists only, which are the same, so they are shared
        # rather than made again from the whole English list (0.4 s a parse)
        lexicon = copy.copy(self)
        object.__setattr__(lexicon, "document", dict(counts))
        object.__setattr__(lexicon, "_document_closed", _closed_spellings(lexicon.document))
        return lexicon


@functools.cache
def english() -> Lexicon:
    """The English word list alone (pyspellchecker's English dictionary)."""
    from spellchecker import SpellChecker

    frequency = SpellChecker(language="en", distance=1).word_frequency
    return Lexicon(dict(frequency.dictionary), frequency.total_words)


def damage_rate(text: str, lexicon: Lexicon | None = None) -> float:
    """Lost ligatures per word: how many fragments `restore` would repair or
    report, over the number of words."""
    lexicon = lexicon or english()
    words = len(_TOKEN.findall(text)) or 1
    edits, uncertain = _ligatures(text, lexicon, "")
    return (len(edits) + len(uncertain)) / words


# How much of a text `lexicon_from_texts` reads to tell a damaged text from a
# clean one: SAMPLE_PIECES pieces of SAMPLE_CHARS, spread evenly through it.
# Damage from an extractor runs through the whole text (the 2017 PDF text
# shows 9.4 per thousand words, each tenth of it 5 to 17, a sample of 4 x
# 8,000 characters 7.4, of 4 x 3,000 6.6; the clean texts at most 0.2 and 0),
# so a sample tells them apart as well as the whole, and the check stays
# cheap however many editions the corpus holds (at thirty codes it was a
# second of every build's parse with 8,000).
SAMPLE_CHARS, SAMPLE_PIECES = 3_000, 4


def _sample(text: str) -> str:
    if len(text) <= SAMPLE_CHARS * SAMPLE_PIECES:
        return text
    step = len(text) // SAMPLE_PIECES
    pieces = []
    for k in range(SAMPLE_PIECES):
        start = text.find("\n", k * step) + 1  # whole lines, so no word is cut in two
        end = text.find("\n", start + SAMPLE_CHARS)
        pieces.append(text[start:end if end > 0 else len(text)])
    return "\n".join(pieces)


def lexicon_from_texts(texts: Iterable[str]) -> Lexicon:
    """The English list plus those of `texts` that do not show lost ligatures
    (more than DAMAGED_RATE per word in a sample of the text, by the English
    list alone)."""
    base = english()
    return base.with_texts(t for t in texts if damage_rate(_sample(t), base) <= DAMAGED_RATE)


@functools.cache
def corpus_lexicon(corpus_dir: Path | str) -> Lexicon:
    """The English list plus the clean texts among all the sources the
    corpus's manifest lists (the repository's corpus: `default_lexicon`).  A
    text with lost ligatures of its own (a PDF extraction, such as the one
    being repaired) is left out by `lexicon_from_texts`.  A parser uses
    `edition_lexicon`, which does not grow with the corpus."""
    from laws import manifest

    sources = manifest.load(Path(corpus_dir)).sources
    return lexicon_from_texts(_read(s) for s in sources)


def _read(source) -> str:
    return source.path.read_bytes().decode("utf-8", errors="replace")


def _is_clean(text: str) -> bool:
    return damage_rate(_sample(text), english()) <= DAMAGED_RATE


# How many codes of its family, newest first, an edition's vocabulary goes
# back through to find a clean text of a code (the 2017 Laws find the 2007
# slides text one code back; a 2027 code from a PDF, two).
FAMILY_DEPTH = 3


def related_sources(corpus, edition_id: str) -> list:
    """The sources whose text may repair an edition's text, clean or not: its
    own and those of the guides to it, then those of the codes of its family
    before it (and their guides), newest first, up to the first that has a
    clean text of the code itself, at most FAMILY_DEPTH codes back
    (`corpus`: a loaded manifest).  The build keys a parse by them
    (laws.build.parse_keys): an older code added below that one changes
    nothing."""
    edition = corpus.edition(edition_id)

    def sources_of(eid: str) -> list:
        ids = {eid} | {e.id for e in corpus.editions if e.guide_to == eid}
        return [s for s in corpus.sources if s.edition in ids]

    out = sources_of(edition_id)
    earlier = sorted((e for e in corpus.editions if e.kind == "code" and e.family == edition.family
                      and e.year < edition.year), key=lambda e: -e.year)
    for code in earlier[:FAMILY_DEPTH]:
        found = sources_of(code.id)
        out += found
        if any(s.kind == "code" and s.path.is_file() and _is_clean(_read(s)) for s in found):
            break
    return out


def related_texts(corpus, edition_id: str) -> list[str]:
    """The clean texts of `related_sources`: the words that repair an
    edition's text, its own and its nearest predecessor's, however many
    other codes the corpus holds."""
    return [t for s in related_sources(corpus, edition_id) for t in [_read(s)] if _is_clean(t)]


@functools.cache
def edition_lexicon(corpus_dir: Path | str, edition_id: str) -> Lexicon:
    """The English list plus the texts related to the edition being repaired
    (`related_texts`): what a parser of that edition's text uses.  Unrelated
    sources (other families, older codes of its own) do not enter it, so
    neither its words nor the time to make it grow with the corpus."""
    from laws import manifest

    return english().with_texts(related_texts(manifest.load(Path(corpus_dir)), edition_id))


_CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def default_lexicon() -> Lexicon:
    """The English list plus the clean texts of the repository's corpus."""
    return corpus_lexicon(_CORPUS)


# --- lost ligatures ----------------------------------------------------------------


@dataclass
class _Edit:
    start: int  # span of the source text it replaces
    end: int
    text: str
    correction: Correction


@dataclass(frozen=True)
class _Reading:
    place: str  # 'join-left', 'join-right' (the gap between two tokens), 'end', 'start', 'inside:<k>'
    ligature: str
    first: int  # tokens it rewrites, first..last
    last: int
    word: str


def _ligature_case(ligature: str, before: str, after: str) -> str:
    """Capitals when the letters either side are capitals (or the only side is)."""
    sides = [c for c in (before, after) if c]
    return ligature.upper() if sides and all(c.isupper() for c in sides) else ligature


def _insert(left: str, ligature: str, right: str) -> str:
    return left + _ligature_case(ligature, left[-1:], right[:1]) + right


def _readings(i: int, tokens: list[re.Match], linked: list[bool], done: set[int],
              lexicon: Lexicon) -> list[_Reading]:
    token = tokens[i][0]
    found: list[_Reading] = []
    whole = lexicon.is_word(token)  # a word: only a join with the next token can be in doubt

    def add(place: str, lig: str, first: int, last: int, left: str, right: str) -> None:
        if (left + lig + right).lower() in lexicon._any:  # known(word) or hyphen_known(word)
            found.append(_Reading(place, lig, first, last, _insert(left, lig, right)))

    # an all-capital token alone is an abbreviation (NS, AK), not a word cut short
    fills = len(token) >= 2 and not token.isupper() and not whole
    for lig in LIGATURES:
        if i > 0 and linked[i - 1] and i - 1 not in done and not whole:
            add("join-left", lig, i - 1, i, tokens[i - 1][0], token)
        if i + 1 < len(tokens) and linked[i] and i + 1 not in done:
            add("join-right", lig, i, i + 1, token, tokens[i + 1][0])
        if fills:  # (a lone letter is a label or a fragment of its neighbour, never a word cut short)
            add("end", lig, i, i, token, "")
            add("start", lig, i, i, "", token)
            for k in range(1, len(token)):
                add(f"inside:{k}", lig, i, i, token[:k], token[k:])
    return found


def _score(reading: _Reading, i: int, tokens: list[re.Match], lexicon: Lexicon) -> float:
    """Log-probability of the fragment and its neighbours as this reading leaves them."""
    first, last = max(i - 1, 0), min(i + 1, len(tokens) - 1)
    words = [t[0] for t in tokens[first:reading.first]] + [reading.word] + \
            [t[0] for t in tokens[reading.last + 1:last + 1]]
    return sum(lexicon.log_p(w) for w in words)


def _choose(readings: list[_Reading], i: int, tokens: list[re.Match],
            lexicon: Lexicon) -> tuple[_Reading | None, str]:
    """The one reading to apply, or None and why not.  The text as it is
    competes too: a repair must be ten times as probable as leaving it (so a
    rare word the list has, 'Wales', does not become 'Waffles')."""
    as_is = _Reading("as-is", "", i, i, tokens[i][0])
    ranked = sorted(readings + [as_is], key=lambda r: -_score(r, i, tokens, lexicon))
    best = ranked[0]
    if best is as_is:
        return None, ""
    if any(r.place == best.place and r is not best for r in readings):
        return None, "more than one ligature makes a word here"
    gap = _score(best, i, tokens, lexicon) - _score(ranked[1], i, tokens, lexicon)
    if gap < math.log10(MARGIN):
        rival = "the text as it is" if ranked[1] is as_is else "another reading"
        return None, f"'{best.word}' is not ten times as likely as {rival}"
    return best, ""


def _describe(reading: _Reading) -> str:
    where = {"join-left": "inside a word, leaving a space", "join-right": "inside a word, leaving a space",
             "end": "at the end of a word", "start": "at the start of a word"}.get(reading.place, "inside a word")
    return f"'{reading.ligature}' ligature lost in extraction {where}"


def _ligatures(text: str, lexicon: Lexicon, where: str) -> tuple[list[_Edit], list[Correction]]:
    tokens = list(_TOKEN.finditer(text))
    linked = [text[a.end():b.start()] == " " for a, b in zip(tokens, tokens[1:])] + [False]
    done: set[int] = set()
    edits: list[_Edit] = []
    uncertain: list[Correction] = []
    lows = [t[0].lower() for t in tokens] + [""]
    is_word = functools.lru_cache(maxsize=None)(lexicon.is_word)
    known, before, after = lexicon._any, lexicon._before, lexicon._after
    for i, tok in enumerate(tokens):
        if i in done or text[tok.start() - 1:tok.start()].isdigit():
            continue  # letters after digits ('1st', '80B2')
        if is_word(lows[i]) and not (linked[i] and i + 1 not in done and lows[i] in before
                                     and lows[i + 1] in after
                                     and any(lows[i] + lig + lows[i + 1] in known for lig in LIGATURES)):
            continue  # a word, and no ligature joins it to the next: the common case, kept fast
        readings = _readings(i, tokens, linked, done, lexicon)
        if not readings:
            continue
        chosen, why = _choose(readings, i, tokens, lexicon)
        if chosen is None and not why:
            continue  # the text as it is reads best
        span = (min(r.first for r in readings), max(r.last for r in readings))
        start, end = tokens[span[0]].start(), tokens[span[1]].end()
        if chosen is None:
            options = sorted({_apply_reading(r, tokens, text, start, end) for r in readings})
            uncertain.append(Correction(
                text[start:end], " | ".join(options),
                f"lost ligature? {why} (readings: {', '.join(repr(o) for o in options)}); left as it is",
                "ligature", where))
            done.update(range(span[0], span[1] + 1))
            continue
        start, end = tokens[chosen.first].start(), tokens[chosen.last].end()
        others = "" if len(readings) == 1 else " (other readings far less likely)"
        edits.append(_Edit(start, end, chosen.word, Correction(
            text[start:end], chosen.word,
            f"{_describe(chosen)}: '{chosen.word}' is a known word and no other ligature makes one{others}",
            "ligature", where)))
        done.update(range(chosen.first, chosen.last + 1))
    return edits, uncertain


def _apply_reading(r: _Reading, tokens: list[re.Match], text: str, start: int, end: int) -> str:
    """The text of span start..end as the reading would leave it."""
    a, b = tokens[r.first].start(), tokens[r.last].end()
    return text[start:a] + r.word + text[b:end]


# --- lost hyphens ------------------------------------------------------------------


def _splits(word: str, lexicon: Lexicon) -> list[tuple[str, str]]:
    """Ways to cut `word` into two words of two letters or more."""
    return [(word[:k], word[k:]) for k in range(2, len(word) - 1)
            if lexicon.is_word(word[:k]) and lexicon.is_word(word[k:])]


def _closed_spellings(counts: Mapping[str, int]) -> dict[str, list[tuple[str, str]]]:
    """'eastwest' -> [('east', 'west')] for every 'east-west' among `counts`' keys."""
    out: dict[str, list[tuple[str, str]]] = {}
    for key in counts:
        if "-" in key:
            a, b = key.split("-")
            out.setdefault(a + b, []).append((a, b))
    return out


def _hyphens(text: str, words: list[tuple[int, int, str, _Edit | None]], urls: list[tuple[int, int]],
             lexicon: Lexicon, where: str) -> tuple[dict[str, tuple[str, str]], list[Correction]]:
    """Which closed words (lower case) get a hyphen, and where: word ->
    (hyphenated form, in lower case; why); and the uncertain ones.  `text` is
    the text after the ligature repair; `words` and `urls` have spans in the
    source text."""
    if lexicon.document is not None:
        usage, in_usage = lexicon.document, lexicon._document_closed
    else:
        usage = Counter(w.lower() for _, _, w, _ in words)
        usage.update(f"{a}-{b}".lower() for a, b in _COMPOUND.findall(text))
        in_usage = _closed_spellings(usage)
    decided: dict[str, tuple[str, str]] = {}
    uncertain: list[Correction] = []
    seen: set[str] = set()
    for start, _, word, _ in words:
        w = word.lower()
        if w in seen or len(w) < 4 or any(a <= start < b for a, b in urls):
            continue
        seen.add(w)
        attested = [(a, b) for a, b in dict.fromkeys(lexicon._closed.get(w, []) + in_usage.get(w, []))
                    if lexicon.is_word(a) and lexicon.is_word(b)]
        if len(attested) > 1:
            options = [f"{a}-{b}" for a, b in attested]
            uncertain.append(Correction(word, " | ".join(options),
                                        f"lost hyphen? the corpus writes {' and '.join(options)}; left as it is",
                                        "hyphen", where))
            continue
        if not attested:
            # (a capitalised unknown compound is most likely a name: Rodwell, Windchase)
            splits = _splits(w, lexicon) if word.islower() and not lexicon.known(w) else []
            if splits:
                options = [f"{a}-{b}" for a, b in splits]
                uncertain.append(Correction(
                    word, " | ".join(options),
                    f"lost hyphen? '{word}' is no known word but splits into words; the corpus never "
                    f"writes {' or '.join(repr(o) for o in options)}; left as it is", "hyphen", where))
            continue
        a, b = attested[0]
        compound, hyphenated, closed = f"{a}-{b}", usage.get(f"{a}-{b}", 0), usage.get(w, 0)
        if hyphenated > closed:
            decided[w] = (compound, f"the text writes '{compound}' {hyphenated} times, '{w}' {closed}")
        elif closed >= 2 or lexicon.known(w):
            continue  # the text's own consistent spelling, or a closed word the list knows
        else:
            decided[w] = (compound, f"'{w}' is no known word and the corpus writes '{compound}'")
    return decided, uncertain


def _hyphenate(word: str, compound: str) -> str:
    k = compound.index("-")
    return word[:k] + "-" + word[k:]


# --- the whole repair --------------------------------------------------------------


def restore(text: str, where: str = "", lexicon: Lexicon | None = None
            ) -> tuple[str, list[Correction], list[Correction]]:
    """(repaired text, corrections made, uncertain readings left unchanged)

    `where` is put on every Correction.  `lexicon` defaults to the English
    list plus the clean texts of the repository's corpus.  Call it on a whole
    text where possible: the lost-hyphen rule counts how the text itself
    spells a compound."""
    lexicon = lexicon or default_lexicon()
    edits, uncertain = _ligatures(text, lexicon, where)

    # the words as the ligature repair leaves them, each with its source span
    words: list[tuple[int, int, str, _Edit | None]] = []
    pending = iter(edits)
    edit = next(pending, None)
    for tok in _TOKEN.finditer(text):
        while edit and edit.end <= tok.start():
            edit = next(pending, None)
        if edit and edit.start <= tok.start() < edit.end:
            if not words or words[-1][3] is not edit:
                words.append((edit.start, edit.end, edit.text, edit))
            continue
        words.append((tok.start(), tok.end(), tok[0], None))
    repaired = _splice(text, edits)

    urls = [m.span() for m in _URL.finditer(text)]  # no hyphens put into addresses
    decided, unsure = _hyphens(repaired, words, urls, lexicon, where)
    uncertain += unsure
    for start, end, word, edit in words:
        if word.lower() not in decided:
            continue
        compound, why = decided[word.lower()]
        fixed = _hyphenate(word, compound)
        if edit:
            edit.text = fixed
            c = edit.correction
            c.corrected, c.reason = fixed, f"{c.reason}; and a hyphen lost: {why}"
        else:
            edits.append(_Edit(start, end, fixed, Correction(
                word, fixed, f"hyphen lost at a line join: {why}", "hyphen", where)))
    edits.sort(key=lambda e: e.start)
    return _splice(text, edits), [e.correction for e in edits], uncertain


def _splice(text: str, edits: list[_Edit]) -> str:
    out, at = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        out.append(text[at:e.start])
        out.append(e.text)
        at = e.end
    out.append(text[at:])
    return "".join(out)
