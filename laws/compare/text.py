"""Text: what is compared of a provision, and word-level differences.

The first stage of the comparison, and the only one that knows about words:
normalising a text (`normalise`), cutting it into tokens, the word ops
between two texts (`word_ops`) and read the other way round (`reverse_ops`),
the cross-references changed in place (`citation_changes`), and a
provision's printed tables read as text (`tables_text`).  It imports
nothing from the rest of the package, so every later stage (align, changes,
summary, stored, ondemand, read) may use it.
"""
from __future__ import annotations

import functools
import re
from difflib import SequenceMatcher

# quote marks, dashes and no-break spaces unified: the sources differ in them
# where the Laws do not (also used by align to find a piece's words in a text)
QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})
_TOKEN = re.compile(r"(\s*)(\w+|[^\w\s])")
_FOOTNOTE_MARK = re.compile(r"^[*†‡]+$")
# footnote marks wherever they stand: alone ('*') or attached to a word
# ('restated*'); the word diff (`_tokens_of`) cuts them off as tokens of their
# own and drops them, so `normalise` must drop them the same way, or a
# provision differing only in a mark is 'changed' with no change in its ops
_FOOTNOTE_MARKS = str.maketrans("", "", "*†‡")
# a citation as the Laws write it, after 'Law': 17E2, 40B2(a)(v), 26, 72C
_CITATION = re.compile(r"^\d{1,3}(?:[A-H](?:\d{1,2}(?:\([a-z]{1,4}\))*)?)?$")
# ... or relative to where it stands: 'E following', 'C1 above', '3 below',
# '(b) following' (laws.citations reads them the same way)
_RELATIVE = re.compile(r"^(?:[A-H](?:\d{1,2})?(?:\([a-z]{1,4}\))*|\d{1,2}(?:\([a-z]{1,4}\))*|(?:\([a-z]{1,4}\))+)"
                       r"\s+(?:above|below|following)$")
_LAW_WORD = re.compile(r"^Laws?\s+")


@functools.lru_cache(maxsize=16384)
def normalise(text: str) -> str:
    """What is compared: whitespace collapsed, quote marks and dashes unified,
    footnote marks dropped.  Case is kept (it is the text's own).  Cached: a
    provision's text is compared with the codes either side of it, several
    times each."""
    return " ".join((text or "").translate(QUOTES).translate(_FOOTNOTE_MARKS).split())


@functools.lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(display, key) per word or punctuation mark; display keeps the
    whitespace before it, key is what is compared.  Cached: a provision's
    text is compared with every edition that has its law."""
    return tuple(_tokens_of(text))


def _tokens_of(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _TOKEN.finditer(text or ""):
        if _FOOTNOTE_MARK.match(m[2]):
            continue
        out.append((m[1] + m[2], m[2].translate(QUOTES)))
    if out:
        out[0] = (out[0][0].lstrip(), out[0][1])
    return out


def word_ops(old: str, new: str) -> list[list[str]]:
    """Word-level differences as [[op, text], ...], op one of equal, delete,
    insert.  Joining the equal and delete texts gives the old text, the equal
    and insert texts the new one (equal runs show the new text's spacing)."""
    a, b = _tokens(old), _tokens(new)
    if a == b:  # the same words: what SequenceMatcher would say, without it
        text = "".join(t[0] for t in b)
        return [["equal", text]] if text else []
    ops: list[list[str]] = []

    def add(op: str, toks) -> None:
        text = "".join(t[0] for t in toks)
        if not text:
            return
        if ops and ops[-1][0] == op:
            ops[-1][1] += text
        else:
            ops.append([op, text])

    sm = SequenceMatcher(None, [k for _, k in a], [k for _, k in b], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            add("equal", b[j1:j2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return _tidy_spaces(ops)


def _tidy_spaces(ops: list[list[str]]) -> list[list[str]]:
    """Move the space in front of a changed run to the equal text before it,
    so that 'Law 17E2' -> 'Law 17D3' reads equal 'Law ', delete '17E2',
    insert '17D3' rather than marking the space as changed."""
    i = 0
    while i < len(ops):
        if ops[i][0] == "equal":
            i += 1
            continue
        j = i
        while j < len(ops) and ops[j][0] != "equal":
            j += 1
        run = ops[i:j]
        lead = re.match(r"\s*", run[0][1])[0]
        if i > 0 and lead and all(o[1].startswith(lead) for o in run):
            ops[i - 1][1] += lead
            for o in run:
                o[1] = o[1][len(lead):]
        i = j
    return [o for o in ops if o[1]]


def reverse_ops(ops: list[list[str]]) -> list[list[str]]:
    """The ops read the other way round.  Equal runs keep the spacing of the
    text they were taken from, which does not matter for reading."""
    swap = {"insert": "delete", "delete": "insert", "equal": "equal"}
    out: list[list[str]] = []
    i = 0
    while i < len(ops):
        # a delete followed by an insert stays in that order when reversed
        if ops[i][0] == "delete" and i + 1 < len(ops) and ops[i + 1][0] == "insert":
            out += [["delete", ops[i + 1][1]], ["insert", ops[i][1]]]
            i += 2
            continue
        out.append([swap[ops[i][0]], ops[i][1]])
        i += 1
    return out


def citation_changes(ops: list[list[str]]) -> list[tuple[str, str]]:
    """Cross-references changed in place: a deleted citation followed by an
    inserted one ('17E2' -> '17D3', '26' -> '26B'), either of them possibly
    relative ('45E' -> 'E following': the rule cited is now read from where
    the citation stands, which a reader of the new code must know)."""
    out = []
    for (op1, old), (op2, new) in zip(ops, ops[1:]):
        if op1 == "delete" and op2 == "insert":
            old, new = _cited(old), _cited(new)
            if old and new and old != new:
                out.append((old, new))
    return out


def _cited(words: str) -> str | None:
    """The citation `words` are ('Law 45E' -> '45E', 'E following'), or None."""
    words = _LAW_WORD.sub("", words.strip())
    return words if _CITATION.match(words) or _RELATIVE.match(words) else None


def unique(items):
    """The items without repeats, in their first order (provision ids,
    citations): a list, as the stored JSON has it."""
    seen = []
    for x in items:
        if x not in seen:
            seen.append(x)
    return seen


def tables_text(tables: list[tuple[str, list[str], list[list[str]]]]) -> str:
    """A provision's printed tables as the comparison reads them, in reading
    order: each table a paragraph of lines (its caption, its header, its
    rows), a line its non-empty cells joined by spaces ('750–890 13').  A
    changed IMP value or score is a change of rule, so it must count as one
    like a changed word (`changes.attach_tables`).  `tables`: (caption,
    header cells, rows of cells) each."""
    paras = []
    for caption, header, rows in tables:
        lines = [caption or "", *(" ".join(c for c in cells if c) for cells in [header, *rows])]
        paras.append("\n".join(line for line in lines if line.strip()))
    return "\n\n".join(p for p in paras if p)
