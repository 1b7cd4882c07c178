"""Witnesses: a second transcription of laws whose main text is another source.

The blog's transcription of 2017 Laws 33-40 (seed 004) and the ACBL text of
the whole code say the same laws.  Where they differ the reader should see
it: a variant reading is a place where the witness, word for word, reads
otherwise than the main text.  Each is classified so a reader can weigh it:

    typo            the witness's own slip, corrected in Lawbook by an entry of
                    corrections.toml ("Inadmissable"); its raw reading is kept
    spelling        British against American spelling ("penalised"/"penalized")
    gender-neutral  "he/she", "their" where the main text says "he", "his"
    punctuation     the same words, other punctuation or capitals
    wording         anything else: a real difference of text
    missing         a provision one of the two does not have

Build time only: `variants` is a pure function over the witness as parsed and
the main text as stored; the build writes its rows to the `variants` table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from breame.spelling import get_american_spelling

from laws.compare import normalise
from laws.model import ParsedSource

TYPO_KINDS = {"transcription", "typo", "ocr"}

# words a gender-neutral edit puts in or takes out
_GENDERED = {"he", "she", "his", "her", "hers", "him", "himself", "herself", "they", "their", "theirs",
             "them", "themselves", "themself", "s/he", "he/she", "his/her", "him/her", "he/her",
             "himself/herself", "or"}
_WORD = re.compile(r"[A-Za-z]+(?:/[A-Za-z]+)*")


@dataclass
class Variant:
    law: int
    provision: str
    kind: str
    main: str  # the main text's reading ('' where it has none)
    witness: str  # the witness's reading ('' where it has none)
    reason: str = ""


def variants(main: dict[str, str], witness: ParsedSource) -> list[Variant]:
    """Every variant reading of `witness` against the main text (`main`:
    provision id -> corrected text, for the same edition), in document order."""
    out: list[Variant] = []
    typos: dict[str, list] = {}
    for c in witness.corrections:
        if c.kind in TYPO_KINDS and c.where:
            typos.setdefault(c.where, []).append(c)
    for law in witness.laws:
        for p in law.provisions:
            for c in typos.get(p.id, []):
                out.append(Variant(law.number, p.id, "typo", c.corrected, c.raw, c.reason))
            if p.id not in main:
                if (p.text or p.heading).strip():
                    out.append(Variant(law.number, p.id, "missing", "", p.text or p.heading,
                                       "the witness has this provision; the main text does not"))
                continue
            out.extend(Variant(law.number, p.id, kind, m, w) for kind, m, w in differences(main[p.id], p.text))
        ids = {p.id for p in law.provisions}
        prefix = re.compile(rf"{law.number}(?![0-9])")
        for pid, text in main.items():
            if prefix.match(pid) and pid not in ids and text.strip():
                out.append(Variant(law.number, pid, "missing", text, "",
                                   "the main text has this provision; the witness does not"))
    return out


def differences(main: str, witness: str) -> list[tuple[str, str, str]]:
    """(kind, main reading, witness reading) for each run of words that differ.
    Words are whitespace-separated, punctuation kept on them, so 'he' against
    'he/she' is one reading, not a stray '/she'."""
    a, b = normalise(main).split(), normalise(witness).split()
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            m, w = " ".join(a[i1:i2]), " ".join(b[j1:j2])
            out.append((classify(m, w), m, w))
    return out


def classify(main: str, witness: str) -> str:
    mw, ww = _words(main), _words(witness)
    if mw == ww:
        return "punctuation"
    if len(mw) == len(ww) and all(_american(a) == _american(b) for a, b in zip(mw, ww)):
        return "spelling"
    if (set(mw) | set(ww)) & (_GENDERED - {"or"}) and \
            [w for w in mw if w not in _GENDERED] == [w for w in ww if w not in _GENDERED]:
        return "gender-neutral"
    return "wording"


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text or "")]


def _american(word: str) -> str:
    return (get_american_spelling(word) or word) if word.isalpha() else word
