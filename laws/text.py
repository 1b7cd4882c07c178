"""Repairs shared by every parser: mojibake, lost quote marks, whitespace.

Each repair returns the repaired text *and* the `Correction`s it made, so the
store always knows what the source really said.
"""
from __future__ import annotations

import re

import ftfy
import ftfy.bad_codecs  # noqa: F401  registers the 'sloppy-windows-1251' codec

from laws.model import Correction

# UTF-8 bytes of a suit symbol read as Windows-1251: 'в™' then one letter.
# ftfy's own codec undoes it; ftfy.fix_text does not try Cyrillic code pages on
# text this short, so we find the runs ourselves and let the codec decode them.
_CP1251_SUIT = re.compile("в™[ЈҐ¦\u00a0 ]")
# Symbol-font private-use characters (Word's "insert symbol"): in the Symbol
# font U+F0A7..U+F0AA are the four suits.  Also seen read as Windows-1251
# ('п‚Є' is U+F0AA's UTF-8 bytes).
_SYMBOL_FONT = {"\uf0a7": "♣", "\uf0a8": "♦", "\uf0a9": "♥", "\uf0aa": "♠"}
_CP1251_PUA = re.compile("п‚[§Ё©Є]")


# Text ftfy.fix_text leaves as it is: printable ASCII without '&' (which its
# HTML unescaping could touch), line breaks and tabs, curly quotes, dashes,
# bullet, ellipsis and the suit symbols.  Mojibake always brings characters
# outside this set ('â', 'Ã', 'в', C1 controls ...), NFC changes none of them.
_NOTHING_FOR_FTFY = re.compile("[\x20-\x25\x27-\x7e\n\t\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u2660\u2663\u2665\u2666]*")


def _decode_cp1251(run: str) -> str:
    """'в™Ј' -> '♣'.  A run whose last byte was lost ('в™' + space: the NBSP
    of '♠' became a plain space) is decoded with that byte restored."""
    data = run.replace(" ", "\u00a0").encode("sloppy-windows-1251")
    return data.decode("utf-8")


def repair_mojibake(text: str, where: str = "") -> tuple[str, list[Correction]]:
    corrections: list[Correction] = []

    def fix(pattern: re.Pattern, decode, reason: str, text: str) -> str:
        def sub(m: re.Match) -> str:
            fixed = decode(m[0])
            fixed = _SYMBOL_FONT.get(fixed, fixed)
            corrections.append(Correction(m[0], fixed, reason, "mojibake", where))
            return fixed
        return pattern.sub(sub, text)

    text = fix(_CP1251_SUIT, _decode_cp1251,
               "suit symbol's UTF-8 bytes read as Windows-1251", text)
    text = fix(_CP1251_PUA, lambda r: r.encode("sloppy-windows-1251").decode("utf-8"),
               "Symbol-font suit character's UTF-8 bytes read as Windows-1251", text)
    text = fix(re.compile("[\uf0a7-\uf0aa]"), lambda r: r,
               "Symbol-font private-use character for a suit", text)
    # Whatever else ftfy recognises (curly quotes as 'â€™' and the like).
    # Most pieces hold nothing ftfy could change (plain ASCII and the Laws'
    # own typography); it is the parsers' costliest step, so it is skipped
    # for them.
    fixed = text if _NOTHING_FOR_FTFY.fullmatch(text) else ftfy.fix_text(
        text, normalization="NFC", uncurl_quotes=False, fix_line_breaks=False)
    if fixed != text:
        corrections.append(Correction(text, fixed, "mojibake repaired by ftfy", "mojibake", where))
        text = fixed
    return text, corrections


# U+FFFD where the extraction lost a quote mark.  The closing mark usually
# survived, so the lost one is its partner; otherwise a double quote.
_LOST_QUOTE = re.compile("\ufffd")


def repair_lost_quotes(text: str, where: str = "") -> tuple[str, list[Correction]]:
    corrections: list[Correction] = []
    if "\ufffd" not in text:
        return text, corrections
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch != "\ufffd":
            out.append(ch)
            continue
        before = text[i - 1] if i else " "
        opening = not before.isalnum() and before not in ".,;:!?)]"
        # find the mark that closes (or opened) this quotation
        if opening:
            single = "’" in text[i + 1:i + 60]
        else:  # partner of the nearest opening mark already written
            before_text = "".join(out[-60:])
            single = before_text.rfind("‘") > before_text.rfind("“")
        if opening:
            mark = "‘" if single else "“"
        else:
            mark = "’" if single else "”"
        out.append(mark)
        corrections.append(Correction("\ufffd", mark, "quote mark lost in extraction (U+FFFD); restored to match its partner",
                                      "mojibake", where))
    return "".join(out), corrections


# A PDF extractor's typewriter quotes: `sorted deck' for ‘sorted deck’.
_TYPEWRITER_QUOTE = re.compile(r"`([^`'\n]{1,200}?)'")


def repair_typewriter_quotes(text: str, where: str = "") -> tuple[str, list[Correction]]:
    corrections: list[Correction] = []

    def sub(m: re.Match) -> str:
        fixed = f"‘{m[1]}’"
        corrections.append(Correction(m[0], fixed, "quotation printed with typewriter marks (` ') in the "
                                      "extracted text; the printed code uses ‘ ’", "layout", where))
        return fixed
    return _TYPEWRITER_QUOTE.sub(sub, text), corrections


def repair(text: str, where: str = "") -> tuple[str, list[Correction]]:
    """All the character-level repairs, in order."""
    text, a = repair_mojibake(text, where)
    text, b = repair_lost_quotes(text, where)
    text, c = repair_typewriter_quotes(text, where)
    return text, a + b + c


def squash(text: str) -> str:
    """Lines of one paragraph joined into one line; runs of spaces made one."""
    return re.sub(r"[ \t\u00a0]+", " ", re.sub(r"\s*\n\s*", " ", text)).strip()


# Words a title keeps in lower case ('Control of Board and Cards').
SMALL_WORDS = {"a", "an", "and", "as", "at", "after", "before", "by", "during", "for", "from",
               "in", "of", "on", "or", "the", "to", "with"}


def title_case(title: str) -> str:
    """'CONTROL OF BOARD AND CARDS' -> 'Control of Board and Cards'; the first
    word and the word after a dash keep their capital."""
    words = re.sub(r"\s+[-–]\s+", " – ", title).split()
    out = []
    for i, word in enumerate(words):
        lower = word.lower()
        if i and lower in SMALL_WORDS and out[-1] != "–":
            out.append(lower)
        else:
            out.append("-".join(part[:1].upper() + part[1:] for part in lower.split("-")))
    return " ".join(out)
