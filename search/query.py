"""Answering a search: citations first, then ranked, grouped, highlighted results.

    Searcher.open(index_dir).search("partner hesitated", edition=None, kind=None, limit=10, page=1)

returns the dict /api/search serves (CONTRACT.md, with a few additions):

    {"query", "results": [{"edition", "law", "provision", "title", "heading", "kind",
                           "match", "snippet", "url", "more": [...]}],
     "suggestion", "message", "total", "page", "pages", "limit", "editions"}

`editions` says which editions were searched, in the order the site lists
them (search/index.py `listed`): the edition asked, else the default ones.

How a query is answered:

1. A citation in any common form (27B1, L27B1, law 27 b 1, 12C1b, Law 40B2(a)(v),
   64) puts that provision first: from the edition filtered on, else from the
   newest code edition that has it.  A provision an edition lacks falls back
   to its nearest ancestor (27B9 -> 27B).
2. The words are analysed as the index was (search/analysis.py).  A word the
   corpus lacks is replaced by the nearest word of the corpus's own vocabulary
   (fewest edits, then most frequent), which is searched and offered as
   `suggestion`.  The directors' vocabulary (search/synonyms.txt) adds its
   expansions.
3. What is searched: with no edition asked, the editions of
   search/index.py `default_editions` (the code in force, a published
   successor, the code before it, the rubber code, the guide), however many
   old codes the corpus holds;
   with an edition asked, that edition (and the guide, as evidence).  Each
   edition is a Whoosh index of its own (a shard), whose postings Whoosh
   scored at build time with the statistics of the default editions together
   (search/index.py `_write_postings`, so scores compare across shards); a shard
   is opened when first searched, and a term's postings read from it when
   first needed.
4. Ranking: Whoosh's BM25F score of each term in each field, weighted
   heading x3, the headings of the sections a provision is in x2, law title
   x1.5, text x1.  The official index's entries are documents of their own
   (search/index.py): an entry that matches gives the provisions it cites its
   score x2.5/3, as one more field of theirs.  Each word of the query (a
   "slot", with its expansions) scores its best field and alternative, plus
   a little of the others; a document scores the sum over the slots, scaled
   by the share of the slots it matches (squared: `coordination`), doubled
   when it matches them all,
   and raised again when the words stand together as a phrase.  So
   several-word questions favour the provisions that answer all of them,
   and a one-word query works as plain BM25F.  Guide topics and codes of
   another family (rubber bridge) weigh a little less, so the Laws of
   Duplicate Bridge come first on a tie.  The scores are combined here
   rather than by Whoosh's query objects; a term's postings (BM25F scores
   and positions) are kept once read, up to MAX_CACHED_POSTINGS, and so is
   what a slot scores (its fields and alternatives folded, the index
   entries' evidence given), up to MAX_CACHED_SLOT_SCORES: both depend on
   the word, never on the rest of the query.  So opening costs a few
   milliseconds, and a search adds up the slots' scores of the documents
   that match and ranks them: as arrays (search/candidates.py, issue 24),
   every matching document at once, the same sums in the same order, so
   the candidates taken for step 5 are exactly the best documents.
5. Results are grouped (in Python, on the best FIRST_CANDIDATES documents,
   more only when the page asked needs them; `Searcher._ranked` says why
   that changes no answer, tests/test_search_candidates.py proves it): one entry per law (the 2007 and 2017 texts of a law
   are one group, both being duplicate codes), per definition or per guide
   topic, headed by its best provision; the group's other matching provisions
   are listed under `more`.  A law may give a second entry: its best
   provision that is neither above nor below the head in the law's tree
   (16D1 beside 16B1, not 16B), when it scores at least `second_entry` of the
   head; the provisions under it go with it.  The entries are ordered by
   their heads' scores.  So a question that two rules of one law answer
   shows both, and one law never fills the page.
6. Snippets: the window of the text with the most matched words, the matches
   in <mark>, everything else escaped.
"""
from __future__ import annotations

import json
import os
import pickle
import re
import struct
import threading
import unicodedata
from bisect import bisect_right
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from math import log
from pathlib import Path
from urllib.parse import quote

import numpy as np
from markupsafe import Markup, escape
from rapidfuzz import process
from rapidfuzz.distance import OSA

from laws import citations
from laws.rulings.handoff import without_seats
from search import candidates
from search.analysis import NUMBER_WORDS, SUITS, WORD, remember_terms, spans, term
from search.index import KINDS, META, docs_file, listed, postings_file
from search.synonyms import Slot, synonyms

# the plain-words fields (laws/plain.py): `plain` weighs less than the Law's
# own words, so that where the text says what was asked the text wins;
# `situations`, the table's words for what a provision decides ("partner
# tanked then bid", "LOOT"), a little more than the text.  Tuned on bench/questions.tsv (law words) and
# bench/questions-words.tsv (players' words); never on the held-out set.
FIELDS = (("heading", 3.0), ("context", 2.0), ("title", 2.0), ("text", 1.0), ("plain", 0.3), ("situations", 1.2))


FIELD_TIEBREAK = 0.3  # a word in several fields: its best field, plus this share of the others
ALL_TERMS_BONUS = 1.0  # a document with every word of the query scores this much again
PHRASE_BONUS = 0.5  # ... and this much more when they stand together
KIND_WEIGHT = {"law": 1.0, "definition": 1.0, "guide": 0.85}
OTHER_FAMILY_WEIGHT = 0.85  # rubber bridge, when searching all editions
# the code in force first: of two editions' equally good provisions (a law
# 2017 kept word for word), the one a director rules by today leads the group
IN_FORCE_WEIGHT = 1.15
# an entry of the official index gives what it cites its score (its words are
# its heading: x3) times this, as if it were a field of the provision x2.5
INDEX_WEIGHT = 2.5 / 3.0
MAX_QUERY_CHARS = 300
MAX_TERMS = 24
# postings a Searcher keeps in memory (about 100 bytes each): the editions a
# search with no edition asked reads, whole, with room for a few more
MAX_CACHED_POSTINGS = 250_000
# documents' scores of slots a Searcher keeps (about 150 bytes each, so 7.5 MB
# at most): the question set's 180 words and phrases hold 20,000
MAX_CACHED_SLOT_SCORES = 50_000
# the sets of editions whose arrays a Searcher keeps (search/candidates.py
# View): a search with no edition asked, and a few editions asked alone
MAX_VIEWS = 8
# the texts whose words a Searcher keeps for highlighting (`_Words`, a few
# KB each): the documents that most searches show, not every one
MAX_CACHED_TEXTS = 2048
MORE_PER_GROUP = 3
SNIPPET_CHARS = 220
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_CITED = float("inf")
_NO_POSTINGS: tuple[np.ndarray, tuple[np.ndarray, list]] = (np.zeros(0, np.int64), (np.zeros(0), []))


@dataclass(frozen=True)
class Ranking:
    """How results are ordered.  `Ranking()` is the ranking served; the
    figures of bench/search.py compare it with `Ranking.words_only()`, the
    ranking before the evidence below was used (issue 13).

    * guide_evidence: a guide topic that matches the question is evidence for
      the laws it is tagged with (a sub-topic, for its group's laws): their
      provisions are raised by up to this share, in proportion to how well
      the topic matched.  The topics themselves weigh `guide_weight`, below the
      provisions they point to: the director rules by the Laws.
    * definition_weight: a definition is an answer, but after the provisions.
    * fillers: question words that say nothing of the Laws ("what", "then",
      "when") are dropped from questions of several words.
    * title_weight: the law's title says what the whole law is about, not
      which provision answers; it weighs less than a provision's heading.
    * intents: "what changed in Law 40" answers with the comparison first;
      a citation of a law no code has ("law 99") says so instead of
      searching the number.
    * coordination: a document's score is scaled by the share of the query's
      slots it matches, raised to this power: a long question in a player's
      words ("after the hand we found I had 14 cards") has words any
      provision may hold, and the provisions that hold most of them lead.
    * second_entry: a law's second result entry needs this share of its
      head's score (module docstring, 5); 0 gives one entry per law.
    * long_question, long_situations: a question of at least `long_question`
      slots is told in the player's own words ("partner took a long time
      before passing"), the words the `situations` field holds, so there that
      field weighs `long_situations`; a short one ("insufficient bid") names
      the Law's own words, which keep their lead.
    Both tuned on bench/questions.tsv and bench/questions-words.tsv (issue
    19), flat between 0.3 and 0.6 for second_entry; never on the held-out set."""
    # half what it was before the plain-words layer (issue 19): the topics'
    # words are the Laws' words, and a question in a player's own words now
    # finds its provision through the plain words (tuned on bench/questions.tsv
    # and bench/questions-words.tsv)
    guide_evidence: float = 0.5
    guide_weight: float = 0.45
    definition_weight: float = 0.8
    fillers: frozenset = field(default_factory=lambda: FILLERS)
    intents: bool = True
    title_weight: float = 1.5
    index_weight: float = INDEX_WEIGHT
    coordination: float = 2.0
    second_entry: float = 0.5
    long_question: int = 4
    long_situations: float = 3.0

    @classmethod
    def words_only(cls) -> "Ranking":
        return cls(guide_evidence=0.0, guide_weight=KIND_WEIGHT["guide"], definition_weight=1.0,
                   fillers=frozenset(), intents=False, title_weight=dict(FIELDS)["title"],
                   coordination=1.0, second_entry=0.0, long_situations=dict(FIELDS)["situations"])


# words of a question that say nothing about the Laws (query side only)
FILLERS = frozenset("""
what whats when how why where who whom does do did can could should would may might must
then after about my our we us i me happens happened rule ruling
""".split())
_CHANGED = re.compile(r"^\s*(?:what\s+(?:has\s+|was\s+|is\s+)?)?(?:changed?|changes|differences?|new|compare|comparison)"
                      r"\s+(?:(?:in|to|of|for)\s+)?(?:the\s+)?laws?\s*(\d{1,2})\s*\??\s*$"
                      r"|^\s*laws?\s*(\d{1,2})\s+(?:changes|changed|differences|compared?|comparison)\s*\??\s*$", re.I)


def cleaned(q: str) -> tuple[str, str | None]:
    """A query as searched: control characters out, Unicode folded (NFKC),
    at most MAX_QUERY_CHARS; and the message saying it was shortened."""
    text = unicodedata.normalize("NFKC", _CONTROL.sub(" ", q or "")).strip()
    if len(text) <= MAX_QUERY_CHARS:
        return text, None
    text = text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] or text[:MAX_QUERY_CHARS]
    return text, f"Your query was long: only its first {len(text)} characters were searched."


class IndexMissing(Exception):
    """There is no search index where one was expected."""


@dataclass
class Prepared:
    text: str  # the query as searched (cleaned, maybe shortened)
    slots: list[Slot]
    corrections: dict[str, str]  # typed word -> corrected word(s)
    suggestion: str | None
    message: str | None


class Searcher:
    """The index of one build, opened read-only.  `Searcher.open(path)` caches by
    path: a rebuild lives in a new build directory, hence a new Searcher, and
    the old one keeps answering the requests that began before the switch."""

    _cache: "OrderedDict[str, Searcher]" = OrderedDict()
    _cache_lock = threading.Lock()
    CACHE_SIZE = 3

    def __init__(self, index_dir: Path, ranking: Ranking | None = None):
        self.ranking = ranking or Ranking()
        self.path = Path(index_dir)
        if not (self.path / META).exists():
            raise IndexMissing(f"no search index at {self.path}: run `flask --app app build`")
        meta = json.loads((self.path / META).read_text(encoding="utf-8"))
        self.editions: list[dict] = meta["editions"]
        if not all("shard" in e for e in self.editions) or not all(
                (self.path / postings_file(e["shard"])).exists() for e in self.editions):
            raise IndexMissing(f"no search index at {self.path} (or one of an older format): "
                               "run `flask --app app build`")
        self.edition_by_id = {e["id"]: e for e in self.editions}
        # what a search with no edition asked searches (search/index.py `default_editions`)
        self.default_editions: tuple[str, ...] = tuple(meta.get("default_editions") or
                                                       [e["id"] for e in self.editions])
        # ... as a reply says it searched them (in the site's order; the
        # scoring keeps the store's, so sums add up in the same order)
        self.searched_by_default: list[str] = listed(self.editions, self.default_editions)
        self.vocabulary: dict[str, int] = meta["vocabulary"]
        self._terms: dict[str, str | None] = meta.get("terms", {})
        remember_terms(self._terms)
        self._surface: dict[str, set[str]] | None = None  # term -> the corpus's words with it
        self._patterns: dict[frozenset, re.Pattern] = {}
        # terms -> the words that may have them (`forms`), when `_Words` can use them
        self._plain_forms: dict[frozenset, frozenset | None] = {}
        # a text shown -> its words (`_Words`), so highlighting it again costs no scan
        self._words = _Kept(MAX_CACHED_TEXTS, lambda _: 1)
        self._vocab_by_len: dict[int, list[str]] = {}
        for w in self.vocabulary:
            self._vocab_by_len.setdefault(len(w), []).append(w)
        self._local = threading.local()
        self._lock = threading.Lock()
        # (edition, field, term) -> its postings (scores, positions), as read
        self._post_cache = _Kept(MAX_CACHED_POSTINGS, lambda posts: len(posts[0]))
        # (editions, slot) -> what the slot scores there (`_slot_scores`)
        self._slot_cache = _Kept(MAX_CACHED_SLOT_SCORES, len)
        # the code in force, then newest first: where a citation with no edition goes
        self.code_editions = sorted((e for e in self.editions if e["kind"] == "code"),
                                    key=lambda e: (not e.get("in_force"), -e["year"]))
        self.in_force = next((e["id"] for e in self.code_editions if e.get("in_force")), None)
        self.main_family = self.code_editions[0]["family"] if self.code_editions else None
        # the family whose laws the guide's topics are tagged with
        self.guide_family = next((e["family"] for e in self.editions if e["kind"] == "guide"), self.main_family)
        # the guide's topics are evidence for the laws, whatever edition is searched
        self.evidence_editions = tuple(e["id"] for e in self.editions if e["kind"] == "guide")
        # documents are numbered across the shards: shard n's start at offset[n]
        self.offset: dict[str, int] = {}
        total = 0
        for e in self.editions:
            self.offset[e["id"]] = total
            total += e.get("documents", 0)
        # what ranking and grouping need of a document, by number: filled as
        # each shard is opened (a search opens the editions it searches)
        self.docs: list[dict | None] = [None] * total
        # ... as arrays by document number, for scoring every matching
        # document (search/candidates.py: the candidate stage)
        self._cols = candidates.Columns(total)
        self._views: OrderedDict[tuple[str, ...], candidates.View] = OrderedDict()
        # ... and as lists, for grouping the candidates (a list index is
        # cheaper than a dict's key)
        self._group: list[str | None] = [None] * total
        # a provision and its ancestors' ids ('16B1', '16B', '16'): which
        # provisions of a law are above or below which (second entries)
        self._lineage: list[tuple[str, ...] | None] = [None] * total
        self._edition_of: list[str | None] = [None] * total
        self._guide_law: list[int | None] = [None] * total  # its law, when a law of the guide's family
        self._topic_laws: dict[int, tuple] = {}  # a guide topic tagged with laws -> the laws
        self.by_key: dict[str, int] = {}
        # index entries (search/index.py): entry document -> [(cited document, share)]
        self.cites: dict[int, list[tuple[int, float]]] = {}
        self._shards: dict[str, tuple[int, dict]] = {}  # edition -> (postings file, its table)
        for ed in self.default_editions:
            self._shard(ed)
        synonyms()  # read once per process: now, rather than in the first search
        term("opening")  # ... and the analyzer's spelling table

    def _shard(self, edition: str) -> tuple[Path, dict]:
        """The postings file of `edition`'s shard and its table of terms
        (search/index.py `_write_postings`), opened, and the shard's documents
        read, on first use."""
        found = self._shards.get(edition)
        if found is not None:
            return found
        with self._lock:
            found = self._shards.get(edition)
            if found is not None:
                return found
            e = self.edition_by_id[edition]
            docs = pickle.loads((self.path / docs_file(e["shard"])).read_bytes())
            base = self.offset[edition]
            fam = e.get("family")
            topics = {}
            for i, f in enumerate(docs):
                f["family"], f["laws"] = fam, tuple(f.get("laws") or ())
                f["weight_one"], f["weight_any"], f["evidence"] = self._weights(f)
                self.docs[base + i] = f
                self.by_key[f["key"]] = base + i
                self._columns(base + i, f)
                if f["kind"] == "guide" and f["laws"]:
                    topics[base + i] = f["laws"]
            cites = {}
            for i, f in enumerate(docs):
                found = [(self.by_key[k], share) for k, share in f.pop("cites", None) or () if k in self.by_key]
                if found:
                    cites[base + i] = found
            # new dicts rather than added keys: searches in other threads
            # iterate the ones they hold while this shard opens
            if topics:
                self._topic_laws = {**self._topic_laws, **topics}
            if cites:
                self.cites = {**self.cites, **cites}
            postings = self.path / postings_file(e["shard"])
            fd = os.open(postings, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                (at,) = struct.unpack("<Q", os.pread(fd, 8, size - 8))
                table = pickle.loads(os.pread(fd, size - 8 - at, at))
            finally:
                os.close(fd)
            self._shards[edition] = found = (postings, table)
            return found

    def _columns(self, d: int, doc: dict) -> None:
        """Document `d`'s entries in the columns the ranking loops read."""
        self._group[d], self._edition_of[d] = doc["group"], doc["edition"]
        if doc["kind"] == "law":
            self._lineage[d] = tuple(citations.candidates(doc["provision"]))
            self._cols.set_lineage(d, self._lineage[d])
        # the guide is evidence for exactly the laws of its family (`_weights`)
        if doc["evidence"]:
            self._guide_law[d] = doc["law"]
        self._cols.set(d, doc, self._guide_law[d])

    def _weights(self, doc: dict) -> tuple[float, float, bool]:
        """A document's weight in the ranking when an edition is asked and when
        none is (0: never a result), and whether the guide's topics are evidence
        for it (see `search`)."""
        rk = self.ranking
        if doc["kind"] == "entry":
            return 0.0, 0.0, False
        one = {"guide": rk.guide_weight, "definition": rk.definition_weight}.get(doc["kind"], 1.0)
        any_ = one
        if doc["kind"] == "law" and doc["family"] != self.main_family:
            any_ *= OTHER_FAMILY_WEIGHT
        if doc["edition"] == self.in_force:
            any_ *= IN_FORCE_WEIGHT
        return one, any_, doc["kind"] == "law" and doc["family"] == self.guide_family

    def words_of(self, terms_set: frozenset) -> re.Pattern | None:
        """A pattern finding the words of a text that may have one of `terms_set`
        (every word of the corpus with that term, the term itself, numbers in
        words, suit symbols); `snippet` checks each word's term."""
        found = self._patterns.get(terms_set)
        if found is not None:
            return found
        # the words as a trie (`_alternation`): `re` tries each alternative in
        # turn at every word, and a common word has dozens of forms
        pattern = re.compile(r"(?<![^\W_])" + _alternation(self.forms(terms_set))
                             + r"(?:['’‘`][^\W_]+)*['’]?(?![^\W_])|[♠♤♥♡♦♢♣♧]", re.IGNORECASE)
        if len(self._patterns) > 256:
            self._patterns.clear()
        self._patterns[terms_set] = pattern
        return pattern

    def snippet(self, text: str, terms_set: frozenset) -> Markup:
        """`snippet` of `text`, its words found through the text's `_Words`
        (kept, MAX_CACHED_TEXTS: a text is shown again and again) when it and
        the words of `terms_set` are of the kind `_Words` reads exactly as
        `words_of`'s pattern does, else through that pattern."""
        forms = self._forms_plain(terms_set)
        if forms is not None:
            stripped = text.strip()
            words = self._words.recent(stripped)
            if words is None:
                words = _Words(stripped)
                self._words.keep(stripped, words, self._lock)
            if words.plain is not None:
                return snippet(stripped, terms_set, hits=words.hits(forms, terms_set))
        return snippet(text, terms_set, words=self.words_of(terms_set))

    def _forms_plain(self, terms_set: frozenset) -> frozenset | None:
        """`forms(terms_set)` when each is lower-case ASCII (curly apostrophes
        and suit symbols aside), where a lower-case comparison is what
        `words_of`'s pattern (IGNORECASE) does; else None."""
        try:
            return self._plain_forms[terms_set]
        except KeyError:
            pass
        forms = frozenset(self.forms(terms_set))
        found = forms if all(_plain_word(f) and f == f.lower() for f in forms if f not in _SUIT_SYMBOLS) else None
        if len(self._plain_forms) > 256:
            self._plain_forms.clear()
        self._plain_forms[terms_set] = found
        return found

    def forms(self, terms_set: frozenset) -> set[str]:
        """The words that may have one of `terms_set`: every word of the
        corpus with that term, the term itself, numbers in words and
        ordinals, suit symbols."""
        if self._surface is None:
            surface: dict[str, set[str]] = {}
            for w, t in self._terms.items():
                if t:
                    surface.setdefault(t, set()).add(w)
            for w, n in NUMBER_WORDS.items():
                surface.setdefault(n, set()).add(w)
            for sym, name in SUITS.items():
                t = term(name)
                if t:
                    surface.setdefault(t, set()).add(sym)
            self._surface = surface
        alts = set()
        for t in terms_set:
            alts |= self._surface.get(t, set()) | {t}
            if t.isdigit():
                alts |= {t + x for x in ("st", "nd", "rd", "th")}
        return alts

    def has_term(self, edition: str, field: str, t: str) -> bool:
        return (field, t) in self._shard(edition)[1]

    def stored(self, d: int) -> dict:
        """What a result shows of document `d`."""
        return self.docs[d]

    @classmethod
    def open(cls, index_dir: Path) -> "Searcher":
        key = str(Path(index_dir).resolve())
        with cls._cache_lock:
            found = cls._cache.get(key)
            if found is not None:
                cls._cache.move_to_end(key)
                return found
        searcher = cls(Path(key))
        with cls._cache_lock:
            cls._cache[key] = searcher
            while len(cls._cache) > cls.CACHE_SIZE:
                cls._cache.popitem(last=False)
        return searcher

    # --- the query --------------------------------------------------------------

    def prepare(self, q: str) -> Prepared:
        text, message = cleaned(q)
        corrections: dict[str, str] = {}
        query_terms: list[str] = []
        typed = [m[0].lower() for m in WORD.finditer(text)]
        fillers = self.ranking.fillers
        if fillers and sum(w not in fillers for w in typed) >= 1 and len(typed) > 1:
            typed = [w for w in typed if w not in fillers]
        for word in typed:
            t = term(word)
            if t is None:
                continue
            if not self._known(word, t):
                fix = self._correct(word)
                if fix:
                    corrections[word] = fix
                    # a word is corrected only when the index lacks it, so
                    # searching the typed form as well would add nothing
                    fixed = [x for x in (term(w) for w in fix.split()) if x]
                    if fixed:
                        query_terms.extend(fixed)
                        continue
            query_terms.append(t)
            if len(query_terms) >= MAX_TERMS:
                message = message or f"Only the first {MAX_TERMS} words of your query were searched."
                break
        slots = synonyms().expand(query_terms[:MAX_TERMS])
        suggestion = None
        if corrections:
            suggestion = WORD.sub(lambda m: corrections.get(m[0].lower(), m[0]), text)
        return Prepared(text, slots, corrections, suggestion, message)

    def _known(self, word: str, t: str) -> bool:
        if word in self.vocabulary or len(word) <= 2 or not word.isalpha() or word in NUMBER_WORDS:
            return True
        if synonyms().known(t):
            return True
        return any(self.has_term(ed, f, t) for ed in self.default_editions for f, _ in FIELDS)

    def _correct(self, word: str) -> str | None:
        """The corpus word nearest `word`: fewest edits (a swap of two letters is
        one edit; at most one edit for words of up to six letters, two for
        longer ones), then the most frequent; or two corpus words run together
        ('nonoffending'); None when nothing is near enough."""
        if not word.isalpha() or len(word) < 3:
            return None
        most = 1 if len(word) <= 6 else 2
        pool = [w for n in range(len(word) - most, len(word) + most + 1) for w in self._vocab_by_len.get(n, ())]
        best = None
        for cand, dist, _ in process.extract(word, pool, scorer=OSA.distance, score_cutoff=most, limit=None):
            rank = (dist, -self.vocabulary[cand], cand)
            if best is None or rank < best[0]:
                best = (rank, cand)
        if best:
            return best[1]
        for i in range(2, len(word) - 2):
            a, b = word[:i], word[i:]
            if a in self.vocabulary and b in self.vocabulary:
                return f"{a} {b}"
        return None

    # --- scoring -------------------------------------------------------------------

    @property
    def _post_cached(self) -> int:
        """Postings held in memory (at most MAX_CACHED_POSTINGS)."""
        return self._post_cache.size

    def _shard_postings(self, edition: str, field: str, t: str) -> tuple[np.ndarray, tuple[np.ndarray, list]]:
        """A term's postings in one shard: (document numbers, ascending, as an
        array; (their BM25F scores as an array, their positions as stored)),
        read on first use and kept while they are used: the shard never
        changes under a Searcher.  What is kept is bounded
        (MAX_CACHED_POSTINGS, least recently used first out), so a worker's
        memory does not grow with the editions searched, and a term no
        document has is never kept (a robot types endless new words)."""
        key = (edition, field, t)
        found = self._post_cache.recent(key)
        if found is not None:
            return found
        if (field, t) not in self._shard(edition)[1]:
            return _NO_POSTINGS
        # a search scores a word in every field: all of them read at once
        base = self.offset[edition]
        for f, (ids, sc, pos) in self._read_postings(edition, t).items():
            got = (np.asarray(ids, np.int64) + base, (np.asarray(sc, float), pos))
            if f == field:
                found = got
            elif (edition, f, t) in self._post_cache:
                continue
            self._post_cache.keep((edition, f, t), got, self._lock)
        return found

    def _read_postings(self, edition: str, t: str) -> dict[str, tuple[list, list, list]]:
        """Field -> (document numbers in the shard, scores, positions) of a
        term in each field that has it, as stored (search/index.py
        `_write_postings`: a term's fields one after the other, so one read)."""
        postings, table = self._shard(edition)
        where = {f: table[(f, t)] for f, _ in FIELDS if (f, t) in table}
        if not where:
            return {}
        start = min(at for at, _ in where.values())
        end = max(at + n for at, n in where.values())
        # opened for each read, not kept open: a worker then holds no file
        # of a build between reads, so a rebuild's deleted builds free their
        # disk space at once (an open and a close cost microseconds; read
        # postings are kept in memory, _post_cache)
        fd = os.open(postings, os.O_RDONLY)
        try:
            if end - start == sum(n for _, n in where.values()):
                blob = memoryview(os.pread(fd, end - start, start))
                return {f: pickle.loads(blob[at - start: at - start + n]) for f, (at, n) in where.items()}
            # an index written field after field (before the terms were kept together)
            return {f: pickle.loads(os.pread(fd, n, at)) for f, (at, n) in where.items()}
        finally:
            os.close(fd)

    def _phrase(self, field: str, phrase: tuple[str, ...], slop: int, edition: str) -> tuple[np.ndarray, np.ndarray]:
        """Documents of `edition`'s shard with every term of `phrase` in
        `field`, and for each the sum of the terms' scores, halved unless
        they stand in order at most `slop` apart."""
        posts = [self._shard_postings(edition, field, t) for t in phrase]
        docs, at = _having_all(posts)
        out = []
        for i in range(len(docs)):
            total = sum(float(sc[a[i]]) for (_, (sc, _)), a in zip(posts, at))
            together = _in_order([pos[a[i]] for (_, (_, pos)), a in zip(posts, at)], slop)
            out.append(total if together else 0.5 * total)
        return docs, np.asarray(out, float)

    def _together(self, field: str, phrase: tuple[str, ...], slop: int, eds: tuple[str, ...]) -> set[int]:
        """Documents with the terms of `phrase` in order in `field`, at most
        `slop` apart, in the shards of `eds` (a document is in one shard, so
        each shard is intersected on its own)."""
        out: set[int] = set()
        for ed in eds:
            posts = [self._shard_postings(ed, field, t) for t in phrase]
            docs, at = _having_all(posts)
            out.update(d for i, d in enumerate(docs.tolist())
                       if _in_order([pos[a[i]] for (_, (_, pos)), a in zip(posts, at)], slop))
        return out

    def _slot_scores(self, slot: Slot, eds: tuple[str, ...], long: bool) -> candidates.SlotScores:
        """What one slot of a query (a word with its expansions, or a phrase of
        the directors' vocabulary) scores in the shards of `eds`, by document:
        (its best field and alternative, FIELD_TIEBREAK x what the others
        add), the index entries' evidence included (`_cited_by_entries`).  It
        depends on the slot alone, not on the rest of the query, so it is
        kept like the postings it is made of (MAX_CACHED_SLOT_SCORES, least
        recently used first out): a common word's hundreds of documents are
        folded over the fields and alternatives once, not at every search
        that has the word.  `long`: the slot is one of a long question's
        (Ranking.long_question), whose fields weigh differently."""
        key = (eds, slot, long)
        kept = self._slot_cache.recent(key)
        if kept is not None:
            return kept
        view = self._view(eds)
        best, summed, seen = self._fold(view, eds, slot, long)
        self._cited_by_entries(view, best, summed, seen)
        at = np.flatnonzero(seen)
        kept = candidates.SlotScores(at, best[at], FIELD_TIEBREAK * (summed[at] - best[at]))
        if len(kept):  # a slot no document has is never kept (see _shard_postings)
            self._slot_cache.keep(key, kept, self._lock)
        return kept

    def _view(self, eds: tuple[str, ...]) -> candidates.View:
        """The arrays of the documents of `eds`' shards (opened first), made
        once and kept for the few sets of editions searched (MAX_VIEWS: each
        holds a position for every document)."""
        found = self._views.get(eds)
        if found is not None:
            return found
        for ed in eds:
            self._shard(ed)
        docs = np.concatenate([np.arange(self.offset[ed], self.offset[ed] + self.edition_by_id[ed].get("documents", 0))
                               for ed in eds] or [np.zeros(0, np.int64)])
        view = candidates.View(self._cols, docs, list(self._topic_laws), list(self.cites))
        with self._lock:
            self._views[eds] = view
            while len(self._views) > MAX_VIEWS:
                self._views.popitem(last=False)
        return view

    def _fold(self, view: candidates.View, eds: tuple[str, ...], slot: Slot, long: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`slot`'s scores in the shards of `eds`, at every position of their
        view: its best field and alternative, the sum over all of them (added
        in the order of the alternatives and fields, as the dictionaries this
        replaced added them, so the same floats), and whether it matched."""
        best, summed, seen = np.zeros(len(view)), np.zeros(len(view)), np.zeros(len(view), bool)
        # every field's and alternative's postings gathered, then added in
        # one pass: ufunc.at adds in the order gathered, one element after
        # another, so each document's sum is the same floats in the same order
        # as a pass per field was (and costs a few numpy calls, not a few per field)
        ids_of, scores_of, factors, sizes = [], [], [], []
        for ed in eds:  # each document is in one shard: the shards' scores do not overlap
            for phrase, weight in slot.all():
                for field, boost in self.fields(long):
                    if len(phrase) == 1:
                        ids, (scores, _) = self._shard_postings(ed, field, phrase[0])
                    else:
                        ids, scores = self._phrase(field, phrase, 1, ed)
                    if not len(ids):
                        continue
                    ids_of.append(ids)
                    scores_of.append(scores)
                    factors.append(boost * weight)
                    sizes.append(len(ids))
        if not ids_of:
            return best, summed, seen
        at = view.local[np.concatenate(ids_of)]
        v = np.concatenate(scores_of) * np.repeat(np.asarray(factors), sizes)
        np.add.at(summed, at, v)
        np.maximum.at(best, at, v)
        seen[at] = True
        return best, summed, seen

    def score(self, slots: list[Slot], editions: tuple[str, ...] | None = None) -> dict[int, float]:
        """Document number -> score of the query in the shards of `editions`
        (default: the editions a search with no edition asked searches; see
        the module docstring)."""
        view, t, matched = self._scores(slots, tuple(editions or self.default_editions))
        at = np.flatnonzero(matched)
        return dict(zip(view.docs[at].tolist(), t[at].tolist()))

    def _scores(self, slots: list[Slot], eds: tuple[str, ...]) -> tuple[candidates.View, np.ndarray, np.ndarray]:
        """The query's score at every position of the view of `eds`, and how
        many of its slots each matches (0: not a match)."""
        view = self._view(eds)
        n = len(slots)
        long = n >= self.ranking.long_question
        t, matched = candidates.totals(len(view), [self._slot_scores(slot, eds, long) for slot in slots])
        if n > 1:
            # the share of the slots matched, doubled when it is all of them:
            # one factor per count, computed as it would be per document
            power = self.ranking.coordination
            factor = np.zeros(n + 1)
            for m in range(1, n + 1):
                factor[m] = (m / n) ** power * (1 + ALL_TERMS_BONUS if m == n else 1.0)
            t = t * factor[matched]
            together = self._phrase_docs(tuple(w for s in slots for w in s.typed), eds).ids
            t[together] *= 1 + PHRASE_BONUS
        return view, t, matched

    def _phrase_docs(self, flat: tuple[str, ...], eds: tuple[str, ...]) -> candidates.Together:
        """The positions (in the view of `eds`) where the words `flat` stand
        together in one field, with what the index entries among them cite:
        kept like a slot's scores, since a question's words stand together
        or not whatever else is asked."""
        key = (eds, "together", flat)
        kept = self._slot_cache.recent(key)
        if kept is not None:
            return kept
        together: set[int] = set()
        for field, _ in self.fields():
            together |= self._together(field, flat, 2, eds)
        if self.ranking.index_weight:
            together |= {t for d in together & self.cites.keys() for t, _ in self.cites[d]}
        ids = self._view(eds).positions(together)
        kept = candidates.Together(ids[ids >= 0])
        if len(kept.ids):  # as for a slot: words never together are not kept (a robot's are endless)
            self._slot_cache.keep(key, kept, self._lock)
        return kept

    def _cited_by_entries(self, view: candidates.View, best: np.ndarray, summed: np.ndarray,
                          seen: np.ndarray) -> None:
        """The index entries that match one slot of the query give what they
        cite their score, as one more field of it.  Only the best entry
        counts: the index lists one idea under each of its words ('Artificial
        psychic call' under Artificial Call, Psychic Call and Partnership
        Understanding), which is one piece of evidence, not three.  And an
        entry scores its best field: its heading entry's words (its title)
        place it, but repeat what its own words say.  `best`, `summed` and
        `seen` are the slot's scores (`_fold`), changed in place."""
        weight = self.ranking.index_weight
        if not weight or not self.cites:
            return
        top: dict[int, float] = {}
        cites = self.cites
        matched = view.entries[seen[view.entries]]  # the entries (a few hundred) that matched
        for v, d in zip((best[matched] * weight).tolist(), view.docs[matched].tolist()):
            for t, share in cites[d]:
                given = v * share
                if given > top.get(t, 0.0):
                    top[t] = given
        if not top:
            return
        # what they cite, at once: each is cited once (a key of `top`)
        at = view.local[np.fromiter(top, np.int64, len(top))]
        if (at >= 0).all():
            v = np.fromiter(top.values(), float, len(top))
            b = best[at]
            higher = v > b
            kept = higher | seen[at]  # no score of its own and none given: not matched
            at, v, b, higher = at[kept], v[kept], b[kept], higher[kept]
            summed[at] = summed[at] + v
            best[at] = np.where(higher, v, b)
            seen[at] = True
            return
        for t, v in top.items():  # one outside the view: as the loop always did
            at = view.local[t]
            b, s = float(best[at]), float(summed[at])
            s += v
            if v > b:
                b = v
            elif not seen[at]:  # no score of its own and none given: not matched
                continue
            best[at], summed[at], seen[at] = b, s, True

    def fields(self, long: bool = False) -> tuple[tuple[str, float], ...]:
        """The fields searched and their boosts, the law title's as the ranking
        says, the situations' as it says for a long question."""
        rk = self.ranking
        return tuple((f, rk.title_weight if f == "title" else rk.long_situations if long and f == "situations" else b)
                     for f, b in FIELDS)

    def _guide_evidence(self, view: candidates.View, t: np.ndarray, matched: np.ndarray) -> dict[int, float]:
        """Law number -> how much the matching guide topics point to it (0 to
        `guide_evidence`): the best matching topic tagged with the law, as a
        share of the best topic score of the query."""
        share = self.ranking.guide_evidence
        if not share:
            return {}
        # the topics (a hundred or two) looked up in the scores, not the other way round
        at = view.topics[matched[view.topics] > 0]
        topics = list(zip(t[at].tolist(), view.docs[at].tolist()))
        if not topics:
            return {}
        top = max(sc for sc, _ in topics)
        out: dict[int, float] = {}
        for sc, d in topics:
            for law in self._topic_laws[d]:
                out[law] = max(out.get(law, 0.0), share * sc / top)
        return out

    def _second_entries(self, ordered: list[list[tuple[float, int, int]]]) -> list:
        """Each law's group, and its second entry where it has one (module
        docstring, 5), ordered by their heads as ranked."""
        share = self.ranking.second_entry
        lineage, edition_of = self._lineage, self._edition_of
        out = []
        split = False
        for members in ordered:
            head = members[0]
            line = lineage[head[2]]
            if line is None or head[0] == _CITED or len(members) == 1:
                out.append(members)
                continue
            edition = edition_of[head[2]]  # not the same rule in another code under another number
            bar = share * head[0]
            second = None
            for m in members[1:]:  # as ranked: past the bar, none can be the second
                if m[0] < bar:
                    break
                if edition_of[m[2]] == edition and not _related(lineage[m[2]], line):
                    second = m
                    break
            if second is None:
                out.append(members)
                continue
            other = lineage[second[2]]
            below = [m for m in members if edition_of[m[2]] == edition and _related(lineage[m[2]], other)
                     and not _related(lineage[m[2]], line)]
            taken = {m[2] for m in below}
            out.append([m for m in members if m[2] not in taken])
            out.append(below)
            split = True
        if split:
            out.sort(reverse=True)  # by head: (score, -order, document), as the scores were ranked
        return out

    def _topics_after_their_laws(self, ordered: list[list[tuple[float, int, int]]],
                                 later: frozenset = frozenset()) -> tuple[list, int]:
        """A guide topic explains laws: when one of the laws it is tagged with
        is found too, the topic comes right after that law's best provision
        rather than before it.  `later`: laws found after every entry of
        `ordered` (`_ranked`'s candidates); a topic waiting for one of them
        goes to the end.  Returns the entries and how many come before the
        first of those (the rest are in their final order only when `later`
        is empty)."""
        heads = [members[0][2] for members in ordered]
        guide_law, topic_laws = self._guide_law, self._topic_laws
        law_at: dict[int, int] = {}
        for i, d in enumerate(heads):
            if guide_law[d] is not None:
                law_at.setdefault(guide_law[d], i)
        out: list = []
        waiting: list[tuple[set, list]] = []  # (laws, group) of topics held back
        for i, (d, members) in enumerate(zip(heads, ordered)):
            laws = topic_laws.get(d)
            after = laws and {n for n in laws if law_at.get(n, -1) > i or (n in later and n not in law_at)}
            if after:
                waiting.append((after, members))
                continue
            out.append(members)
            law = guide_law[d]
            if waiting and law is not None:
                keep = []
                for laws, g in waiting:
                    if law in laws:
                        out.append(g)
                    else:
                        keep.append((laws, g))
                waiting = keep
        placed = len(out) if later else len(out) + len(waiting)
        return out + [g for _, g in waiting], placed

    # --- questions that are not searches --------------------------------------------

    def _intent(self, text: str, edition: str | None, out: dict) -> dict | None:
        """'what changed in Law 40' -> the comparison first; 'law 99' -> there
        is no such law.  None when the question is neither."""
        m = _CHANGED.match(text)
        if m:
            law = int(m[1] or m[2])
            pair = self._comparison_pair(law)
            if pair:
                older, newer = pair
                out["results"] = [{
                    "edition": newer["id"], "law": law, "provision": str(law), "kind": "compare",
                    "title": f"What changed in Law {law}", "heading": f"{older['title']} → {newer['title']}",
                    "match": "intent", "snippet": "", "more": [], "more_count": 0,
                    "url": f"/compare/{law}?from={quote(older['id'])}&to={quote(newer['id'])}"}]
                out["total"], out["pages"] = 1, 1
                return out
        parsed = citations.parse(text)
        if parsed:
            law = parsed[0]
            codes = [e for e in self.code_editions if not edition or e["id"] == edition]
            if codes and not any(law in e.get("laws", ()) or law in e.get("declared", ()) for e in codes):
                declared = sorted({n for e in codes for n in (e.get("declared") or e.get("laws") or ())})
                out["message"] = (f"There is no Law {law}; the Laws run {citations.law_ranges(declared)[5:]}."
                                  if declared else f"There is no Law {law}.")
                return out
        return None

    def _comparison_pair(self, law: int) -> tuple[dict, dict] | None:
        """The older code of the main family that has `law`, and the code in
        force (else the newest) that has it."""
        fam = [e for e in self.code_editions if e["family"] == self.main_family and law in e.get("laws", ())]
        if len(fam) < 2:
            return None
        newer = fam[0]
        older = max((e for e in fam[1:] if e["year"] < newer["year"]), key=lambda e: e["year"], default=None)
        return (older, newer) if older else None

    # --- citations ----------------------------------------------------------------

    def cited(self, q: str, edition: str | None) -> int | None:
        """The document number of the provision `q` cites, or None."""
        parsed = citations.parse(q)
        if not parsed:
            return None
        _law, pid = parsed
        if edition:
            tiers = [[e["id"] for e in self.code_editions if e["id"] == edition]]
        else:  # the editions searched first; an older code only for what they lack
            first = [e["id"] for e in self.code_editions if e["id"] in self.default_editions]
            tiers = [first, [e["id"] for e in self.code_editions if e["id"] not in first]]
        for eds in tiers:
            for cand in citations.candidates(pid):
                for ed in eds:
                    self._shard(ed)
                    d = self.by_key.get(f"law|{ed}|{cand}")
                    if d is not None:
                        return d
        return None

    # --- the search -------------------------------------------------------------------

    def search(self, q: str, edition: str | None = None, kind: str | None = None,
               limit: int = 10, page: int = 1) -> dict:
        if edition is not None and edition not in self.edition_by_id:
            raise ValueError(f"there is no edition '{edition}'")
        if kind is not None and kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}")
        # who dealt and who is declarer say where the players sit, not which
        # law applies: the rest of the question is ranked (the ruling's
        # hand-off reads them: laws/rulings/handoff.py)
        ranked = without_seats(q or "")
        prepared = self.prepare(ranked or q)
        out = {"query": cleaned(q)[0], "results": [], "suggestion": prepared.suggestion,
               "message": prepared.message, "total": 0, "page": page, "pages": 0, "limit": limit,
               # the guide is read as evidence when an edition is asked, but
               # only that edition's documents can be results
               "editions": [edition] if edition else list(self.searched_by_default)}

        if self.ranking.intents and kind in (None, "law"):
            answered = self._intent(prepared.text, edition, out)
            if answered:
                return answered
        cited = self.cited(prepared.text, edition) if kind in (None, "law") else None
        if not prepared.slots and cited is None:
            out["message"] = out["message"] or ("Type a citation such as 27B1, or some words "
                                                "such as: lead out of turn.")
            return out

        if prepared.slots:
            eds = ((edition,) + tuple(e for e in self.evidence_editions if e != edition) if edition
                   else self.default_editions)
            shown, total = self._ranked(_Asked(prepared.slots, eds, edition, kind, cited), page, limit)
        else:  # a citation alone
            shown, total = ([([(_CITED, 0, cited)], 1)] if page == 1 else []), 1
        terms_set = {t for s in prepared.slots for alt, _ in s.all() for t in alt}
        out["total"] = total
        out["pages"] = (total + limit - 1) // limit
        for members, size in shown:
            out["results"].append(self._result(members, terms_set, size))
        if not out["results"] and not out["message"]:
            out["message"] = ("There are no more results: this page is past the last one." if total else
                              "Nothing found. Try other words, or a citation such as 27B1.")
        return out

    # --- ranking the candidates (search/candidates.py) --------------------------------

    def _ranked(self, asked: "_Asked", page: int, limit: int) -> tuple[list[tuple[list, int]], int]:
        """The result entries of page `page`, each as (its first members, head
        first, and how many members it has), and how many entries there are
        in all.

        The score of every matching document is computed over arrays; the
        best FIRST_CANDIDATES of them (x MORE_CANDIDATES while the page needs
        more) are grouped in Python.  Grouping the best documents gives the
        first entries exactly: a group's best document among them is its
        best of all, and any entry they miss is headed by a document scoring
        less than every one of them.  What they cannot tell is said apart:
        where a guide topic goes when its law comes later (`_laws_left`),
        and each shown entry's members and the count of entries, which are
        taken from every matching document (`_whole_entries`, `_entry_count`)."""
        view, final, eligible = self._final(asked)
        k = candidates.FIRST_CANDIDATES
        while True:
            taken, whole = candidates.best(final, eligible, k)
            if whole:
                ordered, _ = self._grouped(view, final, asked.cited, taken, frozenset())
                return [(members, len(members)) for members in ordered[(page - 1) * limit: page * limit]], len(ordered)
            left = eligible.copy()
            left[taken] = False
            ordered, exact = self._grouped(view, final, asked.cited, taken, self._laws_left(view, left))
            total = self._entry_count(view, final, eligible, asked.cited)
            if exact >= min(page * limit, total):
                shown = ordered[(page - 1) * limit: page * limit]
                return self._whole_entries(view, final, eligible, left, asked.cited, shown, ordered), total
            k *= candidates.MORE_CANDIDATES

    def _final(self, asked: "_Asked") -> tuple[candidates.View, np.ndarray, np.ndarray]:
        """(view, every position's score x weight, the positions that may be
        results): of the edition and kind asked, not the one cited, not an
        index entry (weight 0); a law the guide's matching topics point to
        weighs 1 + their evidence more (`_guide_evidence`)."""
        view, t, matched = self._scores(asked.slots, asked.eds)
        weights = view.weight_any if asked.edition is None else view.weight_one
        final = candidates.weighed(view, weights, t, self._guide_evidence(view, t, matched))
        eligible = (matched > 0) & (weights != 0)
        cols = self._cols
        if asked.edition:
            eligible &= view.edition == cols.editions.get(asked.edition, -2)
        if asked.kind:
            eligible &= view.kind == cols.kinds.get(asked.kind, -2)
        if asked.cited is not None and view.local[asked.cited] >= 0:
            eligible[view.local[asked.cited]] = False
        return view, final, eligible

    def _grouped(self, view: candidates.View, final: np.ndarray, cited: int | None, taken: np.ndarray,
                 later: frozenset) -> tuple[list, int]:
        """The entries the documents at `taken` make, in order (the cited
        provision's group first), and how many of them are in their final
        places (all but guide topics waiting for a law of `later`)."""
        groups: dict[str, list[tuple[float, int, int]]] = {}  # group -> its members, best first
        if cited is not None:
            groups[self._group[cited]] = [(_CITED, 0, cited)]
        group_of = self._group
        for member in candidates.ranked(view, final, taken):
            groups.setdefault(group_of[member[2]], []).append(member)
        ordered = list(groups.values())
        if self.ranking.second_entry:
            ordered = self._second_entries(ordered)
        if self.ranking.guide_evidence:
            return self._topics_after_their_laws(ordered, later)
        return ordered, len(ordered)

    def _laws_left(self, view: candidates.View, left: np.ndarray) -> frozenset:
        """The laws of the guide's family with a matching document `left` out
        of the candidates: each heads an entry somewhere after theirs."""
        laws = view.law[left]
        return frozenset(np.unique(laws[laws >= 0]).tolist())

    def _entry_count(self, view: candidates.View, final: np.ndarray, eligible: np.ndarray,
                     cited: int | None) -> int:
        """How many entries every matching document makes: one per group (the
        cited provision's included), and one more for each group with a
        second entry (`_second_entries`: a member of the head's edition, not
        above or below it, scoring at least `second_entry` of it)."""
        at = np.flatnonzero(eligible)
        cited_code = int(self._cols.group[cited]) if cited is not None else -1
        sizes = np.bincount(view.group[at], minlength=cited_code + 1)
        count = int(np.count_nonzero(sizes)) + (cited is not None and not sizes[cited_code])
        share = self.ranking.second_entry
        if not share or not len(at):
            return count
        # a group splits only with two members at or over its bar (share x its best score)
        codes, sc = view.group[at], final[at]
        top = np.zeros(len(sizes))
        np.maximum.at(top, codes, sc)
        over = at[sc >= share * top[codes]]
        twice = np.bincount(view.group[over], minlength=len(sizes)) > 1
        if cited is not None:
            twice[cited_code] = False  # the cited provision heads its group: never split
        return count + candidates.split_groups(view, final, over[twice[view.group[over]]])

    def _whole_entries(self, view: candidates.View, final: np.ndarray, eligible: np.ndarray, left: np.ndarray,
                       cited: int | None, shown: list, ordered: list) -> list[tuple[list, int]]:
        """`shown` (entries made from the candidates, of `ordered`) with what
        `_result` shows of their members, (members, how many), as every
        matching document makes them.  An entry whose group has no member
        `left` out of the candidates is whole already.  One whose group the
        candidates did not split and that cannot split further down (every
        member left scores under its bar) keeps its first members (those
        left score less: the best of them follow when it has too few to
        show) and counts the others.  Any other is made again from every matching
        document of its group, and split as `_second_entries` splits it."""
        group = self._cols.group
        at = np.flatnonzero(left)
        codes = view.group[at]
        n = max(int(codes.max(initial=-1)), max((int(group[m[0][2]]) for m in shown), default=-1)) + 1
        left_count = np.bincount(codes, minlength=n)
        left_top = np.zeros(n)
        np.maximum.at(left_top, codes, final[at])
        split = Counter(int(group[m[0][2]]) for m in ordered)
        share = self.ranking.second_entry
        out, again = [], set()
        for members in shown:
            g = int(group[members[0][2]])
            if not left_count[g]:
                out.append((members, len(members)))
            elif split[g] == 1 and (not share or share * members[0][0] > left_top[g]):
                size = len(members) + int(left_count[g])
                if len(members) <= MORE_PER_GROUP:  # the best of those left follow
                    members = members + candidates.ranked(view, final, at[codes == g])[:1 + MORE_PER_GROUP - len(members)]
                out.append((members, size))
            else:
                out.append(None)
                again.add(g)
        if not again:
            return out
        codes = np.fromiter(again, np.int64, len(again))
        groups: dict[str, list[tuple[float, int, int]]] = {}
        if cited is not None and self._cols.group[cited] in codes:
            groups[self._group[cited]] = [(_CITED, 0, cited)]
        for member in candidates.ranked(view, final, np.flatnonzero(eligible & np.isin(view.group, codes))):
            groups.setdefault(self._group[member[2]], []).append(member)
        whole = list(groups.values())
        if self.ranking.second_entry:
            whole = self._second_entries(whole)
        by_head = {members[0][2]: members for members in whole}
        return [found or (by_head[members[0][2]], len(by_head[members[0][2]]))
                for found, members in zip(out, shown)]

    def _result(self, members: list[tuple[float, int, int]], terms_set: set[str], size: int) -> dict:
        """What a result entry shows: its head, and the next MORE_PER_GROUP of
        its `size` members (`members` holds the first ones at least)."""
        score, _, d = members[0]
        doc = self.stored(d)
        text = doc.get("text") or ""
        if not text.strip() and doc["kind"] == "law":
            # a provision with no text of its own (27B1): show its first children's
            nxt = d + 1
            while (nxt < len(self.docs) and len(text) < SNIPPET_CHARS and self.docs[nxt] is not None
                   and self.docs[nxt]["edition"] == doc["edition"]):
                o = self.stored(nxt)
                if o["kind"] != "law" or o["edition"] != doc["edition"] or o.get("law") != doc.get("law"):
                    break
                text += f" {o['provision']} {o.get('heading') or ''} {o.get('text') or ''}"
                nxt += 1
        result = {"edition": doc["edition"], "law": doc.get("law"), "provision": doc["provision"],
                  "title": tidy_title(doc.get("title") or ""), "heading": doc.get("heading") or "",
                  "kind": doc["kind"], "match": "citation" if score == _CITED else "words",
                  "snippet": str(self.snippet(text, frozenset(terms_set))),
                  "url": doc["url"]}
        if doc["kind"] == "guide":
            result["laws"] = list(doc.get("laws") or [])
        if doc.get("plain"):  # the plain-words layer (laws/plain.py): not text of the Laws
            result["plain"] = doc["plain"]
        more = []
        for _, _, other in members[1:1 + MORE_PER_GROUP]:
            o = self.stored(other)
            more.append({"edition": o["edition"], "provision": o["provision"],
                         "heading": o.get("heading") or "", "url": o["url"]})
        result["more"] = more
        result["more_count"] = max(0, size - 1 - MORE_PER_GROUP)
        return result


_SMALL = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}


def _related(a: tuple[str, ...] | None, b: tuple[str, ...]) -> bool:
    """Two provisions' lineages: one provision is the other or above it
    (a provision's lineage lists it first, then its ancestors)."""
    return a is not None and (a[0] in b or b[0] in a)


def tidy_title(title: str) -> str:
    """Titles some sources print in capitals ('LEAD OUT OF TURN'), in title case."""
    if not title.isupper():
        return title
    words = title.lower().split(" ")
    return " ".join(w if (i and w in _SMALL) else w[:1].upper() + w[1:] for i, w in enumerate(words))


class _Kept(OrderedDict):
    """A bounded store of what a Searcher reads or derives from its index,
    least recently used first out, bounded by the documents its values hold
    (`size`): postings, or a slot's scores."""

    def __init__(self, bound: int, size_of):
        super().__init__()
        self.bound, self.size_of = bound, size_of
        self.size = 0

    def recent(self, key):
        found = self.get(key)
        if found is not None:
            try:
                self.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile
                pass
        return found

    def keep(self, key, value, lock: threading.Lock) -> None:
        with lock:
            if key not in self:
                self[key] = value
                self.size += self.size_of(value)
                while self.size > self.bound and len(self) > 1:
                    _, old = self.popitem(last=False)
                    self.size -= self.size_of(old)


def _alternation(words: set[str]) -> str:
    """A regular expression matching any of `words`, as a trie: 'bid',
    'bids' and 'bidding' are b(?:id(?:ding|s)?)?.  It matches what the plain
    alternation matches: a word ends where the pattern around it lets it
    (`Searcher.words_of`: at the end of a word and its apostrophes), so which
    alternative matched never changes where a match ends."""
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here

    def branch(node: dict) -> str:
        alts = [re.escape(ch) + branch(node[ch]) for ch in sorted(node) if ch]
        if not alts:
            return ""
        return "(?:" + "|".join(alts) + (")?" if "" in node else ")")

    return branch(root)


def _having_all(posts: list[tuple[np.ndarray, tuple]]) -> tuple[np.ndarray, list[list[int]]]:
    """The documents in every one of `posts` (one shard's postings of
    several terms), ascending, and where each is in each of the postings."""
    if not posts or not all(len(ids) for ids, _ in posts):  # most fields lack one of the words
        return _NO_POSTINGS[0], [[] for _ in posts]
    docs = posts[0][0]
    for ids, _ in posts[1:]:
        # both ascending and unique: each of `docs` looked up in `ids`
        # (what np.intersect1d gives, without sorting them together)
        at = np.searchsorted(ids, docs)
        at[at == len(ids)] = 0
        docs = docs[ids[at] == docs]
    return docs, [np.searchsorted(ids, docs).tolist() for ids, _ in posts]


def _in_order(positions: list[tuple], slop: int) -> bool:
    """True when some occurrence of each term follows the previous one by at
    most 1 + slop positions."""
    rest = positions[1:]
    for start in positions[0]:
        prev = start
        for pos in rest:
            # the first position after `prev` (positions ascend), if near enough
            i = bisect_right(pos, prev)
            if i == len(pos) or pos[i] > prev + 1 + slop:
                break
            prev = pos[i]
        else:
            return True
    return False


@dataclass(frozen=True)
class _Asked:
    """What a search ranks: the query's slots, in the shards of `eds`, for
    results of `edition` and `kind` (None: any), the cited provision apart."""
    slots: list[Slot]
    eds: tuple[str, ...]
    edition: str | None
    kind: str | None
    cited: int | None


# --- snippets -----------------------------------------------------------------

def snippet(text: str, terms_set: set[str], size: int = SNIPPET_CHARS, words: re.Pattern | None = None,
            hits: list[tuple[int, int, str]] | None = None) -> Markup:
    """The window of `text` with the most different query terms, the matches
    in <mark>, everything else escaped.  `words`, a pattern of the words that
    have those terms (`Searcher.words_of`), spares analysing every word of a
    long text; `hits`, the words found already ((start, end, term) in the
    stripped text: `_Words.hits`), spares even that."""
    text = text.strip()
    if not text:
        return Markup("")
    if hits is not None:
        pass
    elif not terms_set:
        hits = []
    elif words is not None:
        hits = [(m.start(), m.end(), t) for m in words.finditer(text) if (t := term(m[0].lower())) in terms_set]
    else:
        hits = [(a, b, t) for a, b, t in spans(text) if t in terms_set]
    start = 0
    if hits:
        start = max(0, _richest_window(hits, size) - 40)
        if start:
            space = text.rfind(" ", 0, start)
            start = space + 1 if space >= 0 and start - space < 20 else start
    end = min(len(text), start + size)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + size // 2 else end
    # plain strings, each piece of the text escaped, and one Markup at the
    # end: a Markup per piece (and Markup.join escaping them again) cost more
    # than finding the window
    parts = ["…" if start else ""]
    pos = start
    for a, b, _ in hits:
        if a < pos or b > end:
            continue
        parts += (escape(text[pos:a]), "<mark>", escape(text[a:b]), "</mark>")
        pos = b
    parts.append(escape(text[pos:end]))
    if end < len(text):
        parts.append("…")
    return Markup("".join(parts))


_APOSTROPHES = "'’‘`"
_HAS_APOSTROPHE = re.compile(f"[{_APOSTROPHES}]")
_SUIT_SYMBOLS = frozenset("♠♤♥♡♦♢♣♧")


def _plain_word(w: str) -> bool:
    """ASCII but for curly apostrophes: a word whose lower case is what
    IGNORECASE matches (no 'K' sign, long s or dotted I)."""
    return w.isascii() or w.replace("’", "").replace("‘", "").isascii()


class _Words:
    """A text's words (search/analysis.py WORD), for highlighting it for any
    query: `hits` finds exactly what `Searcher.words_of`'s pattern finds and
    `snippet` keeps, without scanning the text with that pattern.  Only for a
    text in ASCII but for curly apostrophes (else `plain` is None and the
    pattern scans it), where the pattern's case-blind matching is a
    lower-case comparison.  It keeps the text in lower case, its runs of
    letters and digits (`plain`: `hits` finds where they stand as words), and
    its words with an apostrophe (`odd`: the pattern may read them from after
    an apostrophe, `_odd_hit`).  That costs less to make than a scan of every
    word, so a text shown once costs no more than the pattern's scan."""

    __slots__ = ("lower", "plain", "odd")

    def __init__(self, text: str):
        self.lower = low = text.lower()
        self.plain, self.odd = None, []
        if not _plain_word(text):
            return
        # every run of letters and digits: a word without an apostrophe is
        # one, and `hits` checks where it stands (`_whole_word`)
        ascii_ = low if low.isascii() else low.replace("’", " ").replace("‘", " ")
        self.plain = frozenset(ascii_.encode("ascii").translate(_RUNS).decode("ascii").split())
        if _HAS_APOSTROPHE.search(low) is not None:
            self.odd = _odd_words(low)

    def hits(self, forms: frozenset, terms_set: frozenset) -> list[tuple[int, int, str]]:
        """(start, end, term) of each word that is one of `forms` and whose
        term is one of `terms_set`, in order: what the pattern of `forms`
        matches (a form standing as a whole word, `_odd_hit` for the words
        with apostrophes) and `snippet` keeps."""
        out = []
        low = self.lower
        for w in self.plain & forms:
            t = term(w)
            if t not in terms_set:
                continue
            n = len(w)
            i = low.find(w)
            while i >= 0:
                if _whole_word(low, i, i + n):
                    out.append((i, i + n, t))
                i = low.find(w, i + 1)
        for a, b, w, reads in self.odd:
            found = _odd_hit(a, b, w, reads, forms, terms_set)
            if found is not None:
                out.append(found)
        out.sort()
        return out


# ASCII text split into its runs of letters and digits (bytes.translate)
_RUNS = bytes(c if chr(c).isalnum() else 32 for c in range(256))


def _odd_words(low: str) -> list[tuple[int, int, str, list]]:
    """(start, end, word, `_odd_reads`) of each word of WORD with an apostrophe in `low`
    (lower case, ASCII but for curly apostrophes): an apostrophe between
    letters joins them, and a trailing ' or ’ after letters is the word's;
    found from each apostrophe, as there are few."""
    out: list[tuple[int, int, str, list]] = []
    n, end = len(low), -1
    for m in _HAS_APOSTROPHE.finditer(low):
        k = m.start()
        if k < end or not (k and low[k - 1].isalnum()):
            continue
        e = k
        while e + 1 < n and low[e] in _APOSTROPHES and low[e + 1].isalnum():  # inner apostrophes
            e += 1
            while e < n and low[e].isalnum():
                e += 1
        if e < n and low[e] in "'’":  # a trailing one
            e += 1
        if e == k:  # a ‘ or ` after a word, not in it
            continue
        s = k - 1
        while s and (low[s - 1].isalnum() or (low[s - 1] in _APOSTROPHES and s > 1 and low[s - 2].isalnum())):
            s -= 1
        out.append((s, e, low[s:e], _odd_reads(low[s:e])))
        end = e
    return out


def _whole_word(low: str, a: int, b: int) -> bool:
    """Whether low[a:b], letters and digits, is a word of WORD by itself
    (ASCII text): no letter or digit either side, no apostrophe joining it
    to the letters before it, none after it that WORD takes (a trailing
    ' or ’, or any before more letters)."""
    if a and (low[a - 1].isalnum() or (low[a - 1] in _APOSTROPHES and a > 1 and low[a - 2].isalnum())):
        return False
    nxt = low[b:b + 1]
    if not nxt:
        return True
    if nxt.isalnum() or nxt in "'’":
        return False
    return not (nxt in _APOSTROPHES and low[b + 1:b + 2].isalnum())


def _odd_reads(w: str) -> list[tuple[int, tuple[str, ...]]]:
    """Where `words_of`'s pattern may read the word `w` (lower case, with an
    apostrophe) from, and the forms that let it: from its start, or else
    from just after one of its inner apostrophes (the pattern wants no
    letter before a match, and an apostrophe is none), when a form ends
    there at the end of a run of letters (what follows is the pattern's
    apostrophes and letters); the match then runs to the end of the word."""
    starts = [0] + [i + 1 for i, ch in enumerate(w[:-1]) if ch in _APOSTROPHES and w[i + 1].isalnum()]
    reads = []
    for j in starts:
        sub = w[j:]
        ends = [i for i in range(1, len(sub)) if sub[i] in _APOSTROPHES and sub[i - 1].isalnum()] + [len(sub)]
        reads.append((j, tuple(sub[:k] for k in ends)))
    return reads


def _odd_hit(a: int, b: int, w: str, reads, forms: frozenset, terms_set: frozenset) -> tuple[int, int, str] | None:
    """The hit the pattern of `forms` makes of the word `w` at a..b (read as
    `_odd_reads` says): the first place it matches from, a hit when the
    term of what it matched is one of `terms_set`."""
    for j, prefixes in reads:
        if not forms.isdisjoint(prefixes):
            t = term(w[j:])
            return (a + j, b, t) if t in terms_set else None
    return None


def _richest_window(hits: list[tuple[int, int, str]], size: int) -> int:
    """Where the first window of `size` characters with the most different
    terms begins: at a hit, the window running to the last hit that ends
    within `size` of it.  The window slides over the hits, counting each
    term's hits in it, so a long text with many hits costs one pass."""
    best, best_n = hits[0][0], 0
    counts: dict[str, int] = {}  # term -> its hits in the window hits[i..j]
    j = -1
    for i, (a, _, t) in enumerate(hits):
        if j < i:
            j = i
            counts[t] = counts.get(t, 0) + 1
        while j + 1 < len(hits) and hits[j + 1][1] - a <= size:
            j += 1
            counts[hits[j][2]] = counts.get(hits[j][2], 0) + 1
        if len(counts) > best_n:
            best, best_n = a, len(counts)
        counts[t] -= 1
        if not counts[t]:
            del counts[t]
    return best
