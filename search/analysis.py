"""How text becomes search terms, the same way in the index and in the query.

    words -> lower case -> apostrophes -> suit symbols -> numbers
          -> one spelling (British = American) -> stop words -> stem

* Apostrophes: curly or straight, a possessive `'s` / `s'` is dropped
  (partner's -> partner, opponents' -> opponents); any other apostrophe is
  removed (don't -> dont), so typing it or not makes no difference.
* Suit symbols are words: ♠ -> spade (and spades stems to spade), ♥ -> heart ...
* Numbers: a number in words or an ordinal is its digits (twelve, twelfth,
  12th -> 12), so "revoke on trick twelve" and "revoke 12th trick" meet.
* Word forms: a few derived nouns the stemmer keeps apart from their verb
  (exposure -> expose, explanation -> explain, concession -> concede).
* Spelling: search/spelling.txt, folded to the American form.
* Stop words: a short list of words that carry no meaning in the Laws; "not"
  is kept ("insufficient bid not accepted").
* Stemming: Porter2, the Snowball English stemmer (revoked, revokes,
  revoking -> revok; hesitated, hesitation -> hesit).

`analyzer()` is the analyzer of every text field of the index; `words()` and
`terms()` are what the query side and the did-you-mean vocabulary use.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.lang.porter2 import stem as porter2

HERE = Path(__file__).resolve().parent
SPELLING_FILE = HERE / "spelling.txt"

SUITS = {"♠": "spade", "♤": "spade", "♥": "heart", "♡": "heart",
         "♦": "diamond", "♢": "diamond", "♣": "club", "♧": "club"}
# a word: letters and digits, with inner apostrophes; or one suit symbol
WORD = re.compile(r"[^\W_]+(?:['’‘`][^\W_]+)*['’]?|[♠♤♥♡♦♢♣♧]")
_APOSTROPHES = re.compile(r"['’‘`]")

STOP_WORDS = frozenset("""
a an and are as at be by for from has have he her his i if in into is it its of on or
she that the their them they this to was were which who will with you your
""".split())

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
_ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
             "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
             "nineteenth twentieth").split()
NUMBER_WORDS = {w: str(i) for i, w in enumerate(_UNITS)} | {w: str(i) for i, w in enumerate(_ORDINALS)}
NUMBER_WORDS.pop("zeroth")
# Derived words the stemmer leaves apart from their verb, joined by hand:
# "cards exposed" must find "Exposure of a Defender's Cards".
WORD_FORMS = {
    "exposure": "expose", "exposures": "expose", "disclosure": "disclose", "disclosures": "disclose",
    "failure": "fail", "failures": "fail", "departure": "depart",
    "withdrawal": "withdraw", "withdrawals": "withdraw",
    "explanation": "explain", "explanations": "explain", "correction": "correct", "corrections": "correct",
    "agreement": "agree", "agreements": "agree", "concession": "concede", "concessions": "concede",
    "adjustment": "adjust", "adjustments": "adjust", "acceptance": "accept", "substitution": "substitute",
    "inspection": "inspect", "hesitation": "hesitate", "hesitations": "hesitate",
}
_DIGIT_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")

# the general spelling rules (see spelling.txt)
_RULES = [
    (re.compile(r"^(.{2,})is(e|ed|es|ing|ation|ations|er|ers)$"), r"\1iz\2"),
    (re.compile(r"^(.{2,})ys(e|ed|es|ing)$"), r"\1yz\2"),
    (re.compile(r"^(.{2,}[ea])ll(ed|ing|er|ers)$"), r"\1l\2"),
]


class Spelling:
    """The folding of search/spelling.txt (see its header for the format)."""

    def __init__(self, words: dict[str, str], roots: dict[str, str], keep: set[str]):
        self.words, self.roots, self.keep = words, roots, keep
        self._roots = re.compile("|".join(map(re.escape, sorted(roots, key=len, reverse=True)))) if roots else None

    @classmethod
    def load(cls, path: Path = SPELLING_FILE) -> "Spelling":
        words, roots, keep = {}, {}, set()
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(":")
            kind = kind.strip()
            if kind == "keep":
                keep.update(w.lower() for w in rest.split())
                continue
            british, eq, american = rest.partition("=")
            if kind not in ("word", "root") or not eq or not british.strip() or not american.strip():
                raise ValueError(f"{path}, line {n}: expected 'word: british = american', "
                                 f"'root: british = american' or 'keep: words'")
            (words if kind == "word" else roots)[british.strip().lower()] = american.strip().lower()
        return cls(words, roots, keep)

    def fold(self, word: str) -> str:
        if word in self.words:
            return self.words[word]
        if word in self.keep or len(word) < 5:
            return word
        if self._roots is not None:
            word = self._roots.sub(lambda m: self.roots[m[0]], word)
        for pattern, repl in _RULES:
            word, n = pattern.subn(repl, word)
            if n:
                break
        return word


class NormalizeFilter(Filter):
    """Apostrophes, suit symbols, numbers and spelling (see the module docstring)."""

    def __init__(self, spelling: Spelling | None = None):
        self.spelling = spelling or Spelling.load()

    def __eq__(self, other):
        return type(other) is type(self)

    def __call__(self, tokens):
        for t in tokens:
            t.text = normalize(t.text, self.spelling)
            if t.text:
                yield t


def normalize(word: str, spelling: Spelling) -> str:
    """One lower-case word as the index knows it, before stop words and stemming."""
    if word in SUITS:
        return SUITS[word]
    if "'" in word or "’" in word or "‘" in word or "`" in word:
        word = _APOSTROPHES.sub("'", word)
        if word.endswith("'s"):
            word = word[:-2]
        word = word.replace("'", "")
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    if word in WORD_FORMS:
        return WORD_FORMS[word]
    m = _DIGIT_ORDINAL.match(word)
    if m:
        return m[1]
    return spelling.fold(word)


class _Stemmer(StemFilter):
    # equality by type, so that schemas compare equal across processes
    def __eq__(self, other):
        return type(other) is type(self)


TERM_CACHE_SIZE = 20_000  # words outside the vocabulary (queries): recent ones only, so memory stays flat


@lru_cache(maxsize=1)
def spelling() -> Spelling:
    return Spelling.load()


def word_analyzer():
    """Words as they are written, lower case, apostrophes sorted: the vocabulary
    for did-you-mean."""
    return RegexTokenizer(WORD) | LowercaseFilter()


@lru_cache(maxsize=1)
def analyzer():
    """The analyzer of every text field, and of the query."""
    return (RegexTokenizer(WORD) | LowercaseFilter() | NormalizeFilter(spelling())
            | StopFilter(stoplist=STOP_WORDS, minsize=1) | _Stemmer(stemfn=_stem, cachesize=0))


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _stem(word: str) -> str:
    """porter2, remembered.  functools' cache is bounded and thread-safe;
    Whoosh's own (StemFilter's cachesize) is neither under threads: past its
    size it overshoots, then fails on new words."""
    return porter2(word)


def stem_cache_size() -> int:
    return _stem.cache_info().currsize


def index_term(word: str) -> str | None:
    """The term `analyzer()` makes of one lower-case word as `WORD` finds it,
    or None when its filters drop it (a stop word): the filters after the
    tokenizer, applied to one token, for the index's build
    (search/index.py `Analyser`), which meets each distinct word once."""
    word = normalize(word, spelling())
    if not word or word in STOP_WORDS:
        return None
    return _stem(word)


def words(text: str) -> list[str]:
    """The lower-case words of `text` as typed (did-you-mean works on these)."""
    return [t.text for t in word_analyzer()(text)]


def terms(text: str) -> list[str]:
    """The index terms of `text`, in order (stop words dropped)."""
    return [t.text for t in analyzer()(text)]


_TERMS: dict[str, str | None] = {}  # the index's vocabulary, analysed at build time


def term(word: str) -> str | None:
    """The index term of one lower-case word as `WORD` finds it, or None for a
    stop word.  Every filter works on one token at a time, so this is the same
    term the analyzer gives the word in running text; remembered, it is cheap
    enough for highlighting."""
    try:
        return _TERMS[word]
    except KeyError:
        return _analysed(word)


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _analysed(word: str) -> str | None:
    out = terms(word)
    return out[0] if out else None


def term_cache_size() -> int:
    """Words outside the vocabulary remembered now (at most TERM_CACHE_SIZE)."""
    return _analysed.cache_info().currsize


def remember_terms(mapping: dict[str, str | None]) -> None:
    """Seed `term` with words already analysed (the index's vocabulary)."""
    _TERMS.update(mapping)


def spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, term) of every word of `text` that has a term."""
    out = []
    for m in WORD.finditer(text):
        t = term(m[0].lower())
        if t is not None:
            out.append((m.start(), m.end(), t))
    return out
