"""Lost ligatures and hyphens (laws.ligatures) on the real 2017 PDF extraction.

`corpus/acbl-2017-laws.txt` is the ACBL's 2017 Laws as extracted from its
PDF (Latin-1 bytes), byte for byte as the project received it.  The damage
detector here is written apart from the repair (it reads the word list and the
corpus itself) so that it can catch what the repair misses.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from spellchecker import SpellChecker

from laws import ligatures
from laws.model import Correction

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
PDF_TEXT = CORPUS / "acbl-2017-laws.txt"


@pytest.fixture(scope="module")
def raw() -> str:
    return PDF_TEXT.read_bytes().decode("latin-1")


@pytest.fixture(scope="module")
def restored(raw):
    return ligatures.restore(raw, "acbl")


def line(text: str, number: int) -> str:
    return text.split("\n")[number - 1]


def readings(corrections: list[Correction]) -> list[tuple[str, str, str]]:
    return [(c.raw, c.corrected, c.kind) for c in corrections]


# --- whole lines of the 2017 file, before and after ----------------------------------

@pytest.mark.parametrize("number, before, after", [
    (10, "E ective September 25, 2017", "Effective September 25, 2017"),
    (148, "A. Action by Non-O ending Side", "A. Action by Non-Offending Side"),
    (280, "D. Insu cient Bid", "D. Insufficient Bid"),
    (288, "F. Di erent Methods", "F. Different Methods"),
    (516, "B. O ender's Partner's Turn to Call", "B. Offender's Partner's Turn to Call"),
    (1188, "A. O cial Status", "A. Official Status"),
    (1296, "B. O enses Subject to Procedural Penalty", "B. Offenses Subject to Procedural Penalty"),
    (1446, "A. The Shu e Before play starts, each pack is thoroughly shu ed. There is a cut if either "
           "opponent so requests.",
     "A. The Shuffle Before play starts, each pack is thoroughly shuffled. There is a cut if either "
     "opponent so requests."),
    (1547, "3 A substituted call di ers if its meaning is much di erent or if it is psychic.",
     "3 A substituted call differs if its meaning is much different or if it is psychic."),
    (1580, "C. Su cient Bid A bid that supersedes the last preceding bid is a su cient bid.",
     "C. Sufficient Bid A bid that supersedes the last preceding bid is a sufficient bid."),
    (2334, "Di erence", "Difference"),
    (2408, "(ii) to appoint other sta and prescribe their duties and responsibilities.",
     "(ii) to appoint other staff and prescribe their duties and responsibilities."),
    (2426, "5. to waive rectification for cause, in his discretion, upon the request of the nono ending side.",
     "5. to waive rectification for cause, in his discretion, upon the request of the non-offending side."),
    (2506, "28 The Regulating Authority is responsible for compliance with any national law that may a ect "
           "its action.",
     "28 The Regulating Authority is responsible for compliance with any national law that may affect "
     "its action."),
])
def test_lines_of_the_2017_file_are_repaired(raw, restored, number, before, after):
    assert line(raw, number) == before
    assert line(restored[0], number) == after


def test_lost_hyphens_in_the_2017_file(raw, restored):
    text = restored[0]
    assert "North-South against EastWest." in raw
    assert "North-South against East-West." in text
    assert "in a higherranking denomination" in raw
    assert "in a higher-ranking denomination" in text
    assert "computing the agreedupon score, whether made by a player or an o cial," in raw
    assert "computing the agreed-upon score, whether made by a player or an official," in text
    assert "former member, Je Polisner, who" in raw
    assert "former member, Jeff Polisner, who" in text


def test_every_repair_of_the_2017_file(restored):
    """The whole list: every reading the rule changed, with how often."""
    assert Counter(readings(restored[1])) == {
        ("o ender", "offender", "ligature"): 67, ("o ending", "offending", "ligature"): 57,
        ("O ender", "Offender", "ligature"): 24, ("insu cient", "insufficient", "ligature"): 17,
        ("di erent", "different", "ligature"): 14, ("Insu cient", "Insufficient", "ligature"): 13,
        ("shu e", "shuffle", "ligature"): 11, ("O ending", "Offending", "ligature"): 9,
        ("o cial", "official", "ligature"): 7, ("Shu e", "Shuffle", "ligature"): 7,
        ("Di erent", "Different", "ligature"): 5, ("e ect", "effect", "ligature"): 5,
        ("nono ending", "non-offending", "ligature"): 5, ("a ect", "affect", "ligature"): 4,
        ("su cient", "sufficient", "ligature"): 4, ("Su cient", "Sufficient", "ligature"): 3,
        ("O enses", "Offenses", "ligature"): 3, ("di erently", "differently", "ligature"): 3,
        ("o ense", "offense", "ligature"): 3, ("Di erence", "Difference", "ligature"): 3,
        ("o enders", "offenders", "ligature"): 2, ("Shu ing", "Shuffling", "ligature"): 2,
        ("O cial", "Official", "ligature"): 2, ("a ected", "affected", "ligature"): 2,
        ("di ers", "differs", "ligature"): 2, ("sta", "staff", "ligature"): 2,
        ("o enses", "offenses", "ligature"): 2, ("E ective", "Effective", "ligature"): 1,
        ("Je", "Jeff", "ligature"): 1, ("shu ed", "shuffled", "ligature"): 1,
        ("una ected", "unaffected", "ligature"): 1, ("insu ciently", "insufficiently", "ligature"): 1,
        ("e ected", "effected", "ligature"): 1, ("di erence", "difference", "ligature"): 1,
        ("di ered", "differed", "ligature"): 1,
        ("EastWest", "East-West", "hyphen"): 1, ("higherranking", "higher-ranking", "hyphen"): 1,
        ("agreedupon", "agreed-upon", "hyphen"): 1,
        # Law 24C: the text writes non-offending far more often than nonoffending
        ("nonoffending", "non-offending", "hyphen"): 1,
    }
    assert {c.where for c in restored[1]} == {"acbl"}


def test_the_2017_file_leaves_one_reading_uncertain(raw, restored):
    """'noncomparable' (Law 86B) splits into 'non' + 'comparable', is no known
    word, and no text writes 'non-comparable': not guessed."""
    assert readings(restored[2]) == [("noncomparable", "non-comparable", "hyphen")]
    assert "two or more noncomparable results" in restored[0]


def test_survivors_are_untouched(raw, restored):
    """Law 24 kept its ligatures in extraction: its words stay as they are."""
    for number in (1642, 1644, 1645, 1663):
        assert "offender" in line(raw, number)
        assert line(restored[0], number) == line(raw, number)


# --- nothing left: a scan of the whole file ---------------------------------------

class Detector:
    """Finds what looks like a lost ligature or hyphen, by its own reading of
    the word list and the corpus (not by laws.ligatures)."""

    LIGATURES = ("ff", "ffi", "ffl", "fi", "fl")
    # The fragments the 2017 extraction is known to leave.
    FRAGMENTS = re.compile(
        r"\b(?:[OoEeAa]|[Dd]i|[Ss]u|[Ii]nsu|[Ss]hu|[Nn]ono|una) "
        r"(?:ender|enders|ending|ense|enses|cient|ciently|ect|ected|ective|erent|erently|erence|ers|ered"
        r"|e|ed|ing|cial)\b|\bJe Polisner|\bsta\b")

    def __init__(self):
        frequency = SpellChecker(language="en", distance=1).word_frequency
        self.english, self.common = frequency.dictionary, frequency.total_words / 1e6
        clean = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.txt")) if p != PDF_TEXT]
        self.corpus = {w.lower() for t in clean for w in re.findall(r"[A-Za-z]+", t)}
        self.compounds = {m.lower().replace("-", ""): m.lower() for t in clean
                          for m in re.findall(r"\b[A-Za-z]+-[A-Za-z]+\b", t)}

    def exists(self, w: str) -> bool:
        return w.lower() in self.english or w.lower() in self.corpus

    def word(self, w: str) -> bool:
        w = w.lower()
        if len(w) == 1:
            return w in "ai"
        return w in self.corpus or self.english.get(w, 0) >= self.common

    def find(self, text: str) -> list[str]:
        """What looks damaged, in text order (each place once)."""
        hits = {m.start(): m[0] for m in self.FRAGMENTS.finditer(text)}
        tokens = list(re.finditer(r"(?<![0-9])[A-Za-z]+", text))
        for a, b in zip(tokens, tokens[1:]):
            if text[a.end():b.start()] == " " and not (self.word(a[0]) and self.word(b[0])):
                if any(self.exists(a[0] + lig + b[0]) for lig in self.LIGATURES):
                    hits.setdefault(a.start(), f"{a[0]} {b[0]}")
        closed = Counter(t[0].lower() for t in tokens)
        for t in tokens:
            w = t[0]
            if len(w) < 2 or w.isupper() or self.exists(w) or any(a <= t.start() < b for a, b in hits_spans(hits)):
                continue
            filled = [w + lig for lig in self.LIGATURES] + [lig + w for lig in self.LIGATURES] + \
                     [w[:k] + lig + w[k:] for lig in self.LIGATURES for k in range(1, len(w))]
            # a compound the corpus hyphenates, unless the text writes it closed throughout ('notrump')
            compound = self.compounds.get(w.lower())
            lost_hyphen = compound and (closed[w.lower()] < 2 or compound in text.lower())
            if any(self.exists(f) for f in filled) or lost_hyphen:
                hits[t.start()] = w
        return [hits[k] for k in sorted(hits)]


def hits_spans(hits: dict[int, str]) -> list[tuple[int, int]]:
    return [(start, start + len(found)) for start, found in hits.items()]


def test_no_damage_is_left_in_the_2017_file(raw, restored, capsys):
    detector = Detector()
    before, after = detector.find(raw), detector.find(restored[0])
    with capsys.disabled():
        print(f"\nlost ligatures/hyphens found by the detector: before {len(before)}, after {len(after)}")
    assert len(before) >= 270
    assert after == []


def test_the_detector_finds_damage():
    detector = Detector()
    assert detector.find("the o ender and a nono ending side; EastWest; Appoint other sta and") == [
        "o ender", "nono ending", "EastWest", "sta"]
    assert detector.find("the offender and a non-offending side; East-West; Appoint other staff and") == []


# --- no false change of real text ------------------------------------------------

def corpus_text(name: str) -> str:
    return next(CORPUS.glob(f"{name}_*.txt")).read_text(encoding="utf-8")


@pytest.mark.parametrize("name, changes", [
    # the 2007 slides write 'non-offending' 25 times and 'nonoffending' 7: the
    # text's own majority spelling wins (the rule for lost hyphens)
    ("000", [("nonoffending", "non-offending", "hyphen")] * 7),
    # the guide writes 'Average-plus' on page 3 and 'Averageplus' (an OCR line join) later
    ("001", [("Averageplus", "Average-plus", "hyphen")]),
    ("002", []), ("003", []), ("004", []),
])
def test_clean_texts_are_left_alone(name, changes):
    text = corpus_text(name)
    fixed, made, uncertain = ligatures.restore(text)
    assert readings(made) == changes
    assert uncertain == []
    for c in made:
        text = text.replace(c.raw, c.corrected, 1)
    assert fixed == text


@pytest.mark.parametrize("text", [
    "A Rights", "(e) If the player", "the 1st and 2nd", "NS and EW; AK of spades", "a fer",
    "off the table", "North-South against East-West", "the Director's staff", "clarification",
    "Laws 80B2(f) and 81C5", "www.worldbridge.org/governance", "he/she", "",
])
def test_real_text_stays(text):
    assert ligatures.restore(text, "x") == (text, [], [])


def test_a_rare_word_is_not_made_a_commoner_one():
    """'Wales' is in the English list (258 times), 'Waffles' 1,893 times: not
    ten times as likely, so not changed -- reported when the corpus does not
    know Wales, silently kept when it does."""
    english = ligatures.english()
    text, made, uncertain = ligatures.restore("England and Wales", "x", english)
    assert (text, made) == ("England and Wales", [])
    assert readings(uncertain) == [("Wales", "Waffles", "ligature")]
    assert ligatures.restore("England and Wales", "x") == ("England and Wales", [], [])


# --- the rule on small texts -------------------------------------------------------

def test_a_repair_says_what_and_why():
    assert ligatures.restore("the o ender's partner", "24A") == ("the offender's partner", [Correction(
        "o ender", "offender", "'ff' ligature lost in extraction inside a word, leaving a space: 'offender' "
        "is a known word and no other ligature makes one", "ligature", "24A")], [])


@pytest.mark.parametrize("text, fixed", [
    ("O ending Side", "Offending Side"),
    ("NON-O ENDING SIDE", "NON-OFFENDING SIDE"),
    ("E ective", "Effective"),
    ("a su x", "a suffix"),
    ("it is di icult", "it is difficult"),
    ("the o ce", "the office"),
    ("tra ic", "traffic"),
    ("a ba ing case", "a baffling case"),  # 'ba' and 'ing' are in the list, but 'baffling' far likelier
    ("the o set", "the offset"),
    ("Je Polisner", "Jeff Polisner"),
])
def test_ligature_placement_and_case(text, fixed):
    assert ligatures.restore(text)[0] == fixed


def test_two_ligatures_making_words_is_not_guessed():
    """'ri e' is 'riffle' or 'rifle' (or 'riff e'): left as it is, reported."""
    text, made, uncertain = ligatures.restore("to ri e the deck", "x")
    assert (text, made) == ("to ri e the deck", [])
    assert readings(uncertain) == [("ri e", "riff e | riffle | rifle", "ligature")]
    assert "more than one ligature" in uncertain[0].reason


def test_hyphen_follows_the_texts_own_spelling(raw):
    # alone, a closed form no list knows, written hyphenated in the corpus
    assert ligatures.restore("the EastWest pair")[0] == "the East-West pair"
    # written closed consistently: the text's spelling (ACBL's 'notrump')
    consistent = "one notrump; two notrump; three notrump"
    assert ligatures.restore(consistent) == (consistent, [], [])
    # the whole document decides, also when it is repaired piece by piece
    lexicon = ligatures.default_lexicon().for_document(raw)
    assert ligatures.restore("bid one notrump", "x", lexicon) == ("bid one notrump", [], [])
    # a closed word the corpus knows stays closed when the text does not say otherwise
    assert ligatures.restore("the nonoffending side", "x") == ("the nonoffending side", [], [])


def test_piece_by_piece_equals_whole_file(raw, restored):
    lexicon = ligatures.default_lexicon().for_document(raw)
    pieces = [ligatures.restore(p, "acbl", lexicon) for p in raw.split("\n")]
    assert "\n".join(p[0] for p in pieces) == restored[0]
    assert [c for p in pieces for c in p[1]] == restored[1]
    assert [c for p in pieces for c in p[2]] == restored[2]


def test_the_pdf_extraction_is_not_taken_as_vocabulary(raw):
    """Its fragments ('ender', 'cient') would pass for words: a text showing
    lost ligatures is left out of the vocabulary."""
    assert ligatures.damage_rate(raw) > ligatures.DAMAGED_RATE
    lexicon = ligatures.lexicon_from_texts([raw, corpus_text("000")])
    assert "cient" not in lexicon.corpus and "offending" in lexicon.corpus
    assert ligatures.restore("an insu cient bid", "x", lexicon)[0] == "an insufficient bid"


def test_domain_code_only():
    """Imports nothing from the web layer, even after loading the corpus."""
    code = ("import sys; from laws import ligatures; ligatures.restore('o ender'); "
            "print(sorted(m for m in sys.modules if m.startswith('laws.web') or m == 'flask'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the vocabulary a parse uses does not grow with unrelated sources ----------------------

RELATED_2017 = ["001_c10fccc6a02ee89d.txt", "004_00dffde58a6aed35.txt",  # the guide to 2017, its witness
                "000_f79d4105db5f19c6.txt", "003_9d8ca0f08b130dce.txt"]  # 2007, the code before it


def test_the_2017_vocabulary_is_its_own_and_its_predecessors():
    """The 2017 repair reads the clean texts of 2017 and of the guide to it,
    then of 2007, the code before it in its family (whose slides text is a
    clean text of a code, so it goes no further back); not the rubber code,
    nor the PDF extraction itself (damaged)."""
    from laws import manifest

    texts = ligatures.related_texts(manifest.load(CORPUS), "2017")
    assert texts == [(CORPUS / f).read_bytes().decode("utf-8", errors="replace") for f in RELATED_2017]


def test_unrelated_codes_leave_the_vocabulary_as_it_is(tmp_path):
    """Two more codes in the corpus (an older duplicate code, a code of
    another family), copies of the 2007 slides text: the 2017 parse's lexicon
    is the same, word for word and count for count; every source's (as the
    parse used before) is not."""
    import shutil

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        for eid, family in (("1997", "duplicate"), ("2000-other", "other")):
            shutil.copy(CORPUS / RELATED_2017[2], corpus / f"copy-{eid}.txt")
            f.write(f'\n[[edition]]\nid = "{eid}"\ntitle = "Copy {eid}"\nyear = {eid[:4]}\nkind = "code"\n'
                    f'family = "{family}"\npublisher = "Nobody"\nlaws = "1-93"\ndescription = "A copy."\n'
                    f'\n[[source]]\nfile = "copy-{eid}.txt"\nedition = "{eid}"\ntitle = "A copy"\nkind = "code"\n'
                    f'parser = "slides"\nlaws = "1-93"\nprovenance = "Copied."\nattribution = "Nobody"\n')
    grown, real = ligatures.edition_lexicon(corpus, "2017"), ligatures.edition_lexicon(CORPUS, "2017")
    assert (grown.corpus, grown.hyphenated) == (real.corpus, real.hyphenated)
    assert ligatures.corpus_lexicon(corpus).corpus != ligatures.corpus_lexicon(CORPUS).corpus


def test_the_2017_parse_repairs_as_well_with_its_own_vocabulary(monkeypatch):
    """The whole 2017 PDF parse (texts, footnotes, definitions, every
    correction and uncertain reading) is the same with the lexicon of the
    related texts as with that of every source in the corpus."""
    from laws import manifest
    from laws.corrections import Corrections
    from laws.parsers import get

    source = next(s for s in manifest.load(CORPUS).sources if s.file == PDF_TEXT.name)

    def parse():
        p = get(source.parser)(PDF_TEXT.read_bytes().decode(source.encoding), source, Corrections.load(CORPUS), {})
        return ([(c.raw, c.corrected, c.reason, c.kind, c.where) for c in p.corrections + p.uncertain],
                [(pr.id, pr.heading, pr.text) for law in p.laws for pr in law.provisions],
                [(f.provision, f.text) for law in p.laws for f in law.footnotes],
                [(d.term, d.text) for d in p.definitions], p.index)

    related = parse()
    monkeypatch.setattr(ligatures, "edition_lexicon", lambda corpus_dir, _: ligatures.corpus_lexicon(corpus_dir))
    assert related == parse()
