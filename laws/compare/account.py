"""Account: what changed in a law, in words a director reads in ten seconds.

A stage after `summary`: from one law's finished changes (as `read.diff`
gives them, in the direction asked for) to a short account that opens the
comparison page (issue 22, "What changed, in words"):

  - every provision that is not `same` is named, five at most ('and N more'
    past five, or sooner when the names would not fit four lines of a phone:
    `LEAD_CHARS`), the ones whose place changed first (moved, split, merged,
    removed, added; a moved one as '86A → 12C2(b)': the page and the reply
    say which editions, and an id carries its law), then the ones whose
    words changed;
  - for up to three changed provisions, the phrase that changed, taken from
    the word ops: the largest hunk of deleted and inserted words (hunks
    joined across a gap of a few equal words, so a phrase reads as one), cut
    to at most `PHRASE_MAX` words a side;
  - a curated note (`notes.toml`, reviewed notes only) where the change is
    one of substance the words cannot show;
  - at most `WORDS_MAX` words in all, counted as a reader sees them (`words`).

Laid out in two parts: the `lead`, the names, which the page shows as its
first sentence, and the `detail`, the phrases and the note, which the page
folds below it (a <details> the reader opens): a director reads what
changed in ten seconds, and how, if he wants it, with one tap.

Every item that names a change links to its row of the redline: `#c-<n>`,
n its 1-based place in the changes as given (the page numbers its rows the
same way).  Nothing here knows a law: it reads statuses, ids and ops, so it
says the right thing as the aligner improves.  It imports only `text`.
"""
from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

from laws.compare.text import normalise

WORDS_MAX = 60     # the issue: four lines at 360 px
# The names, shown before the redline, fit four lines at 360 px: the body
# font (17 px) sets 28-32 characters a line in 328 px, ids breaking only at
# spaces (measured in Chromium: Law 12's names at 142 characters took five
# lines; at most 105 take four over every law of 2007 -> 2017).
LEAD_CHARS = 105
NAMES_MAX = 5      # provisions named before 'and N more'
PHRASES_MAX = 3    # changed provisions whose phrase is quoted
PHRASE_MAX = 12    # words a side of a quoted phrase
PHRASE_MIN = 3     # words a side below which a cut phrase says nothing
PHRASE_GOOD = 6    # fewer phrases rather than any cut shorter than this
GAP_MAX = 1        # equal words a hunk may span: 'and in the Director’s' is one phrase, not two
NOTES = Path(__file__).with_name("notes.toml")

# statuses whose provision changed place, named before those whose words changed
# (`renumbered`: a row the aligner calls `same` whose id changed, named as the
# change line names it, so the account never says "the same" of a new number)
PLACE = ("moved", "renumbered", "split", "merged", "removed", "added")
ORDER = PLACE + ("changed",)
LABELS = {"moved": "Moved", "renumbered": "Renumbered", "split": "Split", "merged": "Merged", "removed": "Removed",
          "added": "Added", "changed": "Changed"}
# a word to a reader: anything with a letter or a digit ('→', '…', '—' are not words)
_WORD = re.compile(r"\w")
# a word of prose, not a citation ('26B', 'A1'): a phrase of citations only is
# a cross-reference, which the summary line already names
_PROSE = re.compile(r"[^\W\d_]{2,}")


def words(text: str) -> int:
    """Words as a reader sees them: space-separated tokens with a letter or digit."""
    return sum(1 for t in text.split() if _WORD.search(t))


def account(changes: list[dict], from_ed: str, to_ed: str, law: int | None = None,
            title_changed: bool = False, notes: list[dict] | None = None) -> dict:
    """The account of one law's changes, read from `from_ed` to `to_ed`:

        {"text": plain text, "parts": [{"text", "href"}...] (href None for
         plain words), "lead": the parts of the names, "detail": the parts
         of the phrases and the note (parts = lead + detail), "words": n,
         "named": [[status, [change indexes]]...], "more": n not named,
         "phrases": [change index...], "note": note or None}

    `notes` defaults to the reviewed notes of `notes.toml`."""
    items = _items(changes)
    note = _note(law, from_ed, to_ed, notes)
    if not items:
        text = ("The title changed; every provision reads the same." if title_changed
                else "Every provision reads the same.")
        return _finish([{"text": text, "href": None}], _note_parts(note), [], 0, [], note)
    budget = WORDS_MAX - (words(note["sentence"]) + 1 if note else 0)
    # fewer names if the names overrun the words or the lead's four lines (long ids of a big split)
    for n_names in range(min(NAMES_MAX, len(items)), 0, -1):
        names = _names(items, n_names)
        if _count(names) <= budget and _chars(names) <= LEAD_CHARS:
            break
    phrases = _phrases(changes, budget - _count(names))
    named = [[it["status"], it["rows"]] for it in items[:n_names]]
    detail = [p for ph in phrases for p in ph["parts"]] + _note_parts(note)
    return _finish(names, detail, named, len(items) - n_names, sorted(ph["row"] for ph in phrases), note)


def _finish(lead: list[dict], detail: list[dict], named: list, more: int, phrases: list[int],
            note: dict | None) -> dict:
    parts = lead + detail
    text = "".join(p["text"] for p in parts)
    return {"text": text, "parts": parts, "lead": lead, "detail": detail, "words": words(text),
            "named": named, "more": more, "phrases": phrases, "note": note}


def _chars(parts: list[dict]) -> int:
    return len("".join(p["text"] for p in parts))


def _count(parts: list[dict]) -> int:
    return words("".join(p["text"] for p in parts))


def _href(row: int) -> str:
    return f"#c-{row + 1}"


# ---------------------------------------------------------------- naming

def _items(changes: list[dict]) -> list[dict]:
    """The non-same changes as the account names them: the rows of one split
    or merge are one item (they share `part_of`), each with its words."""
    items, seen = [], {}
    for i, c in enumerate(changes):
        if c["status"] == "same" and c.get("from_provision") == c.get("to_provision"):
            continue
        status = _status(c)
        key = None
        if c.get("part_of") and c.get("how") in ("split", "merged"):
            key = (c["how"], tuple(c["part_of"]["from_provisions"]), tuple(c["part_of"]["to_provisions"]))
        if key in seen:
            seen[key]["rows"].append(i)
            continue
        item = {"status": status, "rows": [i], "text": _item_text(c, status)}
        if key:
            seen[key] = item
        items.append(item)
    # the place changes first, each status in reading order (sort is stable)
    return sorted(items, key=lambda it: ORDER.index(it["status"]))


def _status(c: dict) -> str:
    """A row's status for naming: a split or merge row the aligner still calls
    `changed` or `moved` is named as the split or merge it is part of."""
    if c["status"] == "same":  # with another id (`_items` skips the rest)
        return "renumbered"
    if c["status"] in ("changed", "moved") and c.get("part_of") and c.get("how") in ("split", "merged"):
        return c["how"]
    return c["status"] if c["status"] in ORDER else "changed"


def _item_text(c: dict, status: str) -> str:
    f, t = c.get("from_provision"), c.get("to_provision")
    if status == "removed":
        return f
    if status == "added":
        return t
    if status in ("split", "merged") and c.get("part_of"):
        fp, tp = c["part_of"]["from_provisions"], c["part_of"]["to_provisions"]
        return f"{', '.join(fp)} → {', '.join(tp)}"
    if f != t:  # another id, in this law or another (an id carries its law's number): where it went
        return f"{f} → {t}"
    return t


def _names(items: list[dict], n: int) -> list[dict]:
    """'Moved: 86A → 12C2(b). Removed: 12C1(f). Changed: 12A, 12A1 and 9 more.'"""
    parts: list[dict] = []
    shown = items[:n]
    for k, it in enumerate(shown):
        first = k == 0 or shown[k - 1]["status"] != it["status"]
        if first:
            parts.append({"text": ("" if k == 0 else ". ") + LABELS[it["status"]] + ": ", "href": None})
        else:
            parts.append({"text": ", ", "href": None})
        parts.append({"text": it["text"], "href": _href(it["rows"][0])})
    rest = len(items) - n
    if rest:
        # the rest open at the first row not named
        parts.append({"text": " and ", "href": None})
        parts.append({"text": f"{rest} more", "href": _href(items[n]["rows"][0])})
    parts.append({"text": ".", "href": None})
    return parts


# ---------------------------------------------------------------- phrases

def _phrases(changes: list[dict], budget: int) -> list[dict]:
    """Up to three changed provisions' phrases, the most substantial first
    chosen, shown in reading order, as many and as long as fit `budget`."""
    found = []
    for i, c in enumerate(changes):
        if c["status"] in ("same", "added", "removed") or c.get("minor"):
            continue
        hunk = _best_hunk(c.get("ops") or [])
        if hunk:
            found.append((-hunk["score"], i, c, hunk))
    found.sort(key=lambda x: (x[0], x[1]))
    for k in range(min(PHRASES_MAX, len(found)), 0, -1):
        chosen = sorted(found[:k], key=lambda x: x[1])
        # a one-phrase account may cut to PHRASE_MIN; more phrases only if none is cut below PHRASE_GOOD
        for cap in range(PHRASE_MAX, (PHRASE_MIN if k == 1 else PHRASE_GOOD) - 1, -1):
            out = [_phrase(i, c, hunk, cap) for _s, i, c, hunk in chosen]
            if sum(_count(p["parts"]) for p in out) <= budget:
                return out
    return []


def _hunks(ops: list[list[str]]) -> list[dict]:
    """Runs of deleted and inserted words, joined across equal runs of at
    most GAP_MAX words: {"old", "new"} the phrase on either side."""
    hunks, cur, gap = [], None, None
    for op, text in ops:
        if op == "equal":
            if cur is not None and words(text) <= GAP_MAX and "\n" not in text:
                gap = text if gap is None else gap + text
                continue
            if cur is not None:
                hunks.append(cur)
            cur, gap = None, None
            continue
        if cur is None:
            cur = {"old": "", "new": "", "changed_old": "", "changed_new": ""}
        elif gap is not None:
            cur["old"] += gap
            cur["new"] += gap
            gap = None
        side = "old" if op == "delete" else "new"
        cur[side] += text
        cur["changed_" + side] += " " + text
    if cur is not None:
        hunks.append(cur)
    return hunks


def _best_hunk(ops: list[list[str]]) -> dict | None:
    """The hunk with the most changed words of prose (a change of citations
    only scores nothing: the summary line names cross-references)."""
    best = None
    for h in _hunks(ops):
        if normalise(h["old"]).lower() == normalise(h["new"]).lower():
            continue  # case only ('PREMIUMS FOR GAME' in 2007's table captions): not a change of rule
        score = len(_PROSE.findall(h["changed_old"])) + len(_PROSE.findall(h["changed_new"]))
        if score and (best is None or score > best["score"]):
            best = {**h, "score": score}
    return best


def _cut(text: str, cap: int) -> str:
    """At most `cap` words: its beginning and its end, '…' between."""
    # punctuation at either end is the sentence's, not the phrase's ('call,' -> 'call')
    toks = normalise(text).strip(" ,;:.").split()
    if words(" ".join(toks)) <= cap:
        return " ".join(toks)
    head = (cap + 1) // 2
    tail = cap - head
    return " ".join(toks[:head]) + " … " + " ".join(toks[len(toks) - tail:])


def _phrase(row: int, c: dict, hunk: dict, cap: int) -> dict:
    """' 12A1: "provide indemnity to" → "prescribe".'"""
    label = c.get("to_provision") or c.get("from_provision")
    old, new = _cut(hunk["old"], cap), _cut(hunk["new"], cap)
    if old and new:
        said = f": “{old}” → “{new}”."
    elif new:
        said = f": “{new}” added."
    else:
        said = f": “{old}” deleted."
    return {"row": row, "parts": [{"text": " ", "href": None}, {"text": label, "href": _href(row)},
                                  {"text": said, "href": None}]}


# ---------------------------------------------------------------- notes

def _note_parts(note: dict | None) -> list[dict]:
    return [{"text": " " + note["sentence"], "href": None}] if note else []


def _note(law: int | None, from_ed: str, to_ed: str, notes: list[dict] | None) -> dict | None:
    if law is None:
        return None
    for n in (reviewed_notes() if notes is None else notes):
        if (n["law"], n["from"], n["to"]) == (law, from_ed, to_ed):
            return n
    return None


NOTE_KEYS = {"law", "from", "to", "sentence", "cites", "written_by", "reviewed_by"}


@functools.lru_cache(maxsize=4)
def load_notes(path: Path = NOTES) -> tuple[dict, ...]:
    """Every note of the file, checked for shape (tests check the cites
    against the store).  Raises ValueError naming the note."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for k, n in enumerate(data.get("note", [])):
        where = f"{Path(path).name}: note {k + 1}"
        if set(n) - NOTE_KEYS or not {"law", "from", "to", "sentence", "cites"} <= set(n):
            raise ValueError(f"{where}: keys must be {sorted(NOTE_KEYS)}, not {sorted(n)}")
        if not (isinstance(n["cites"], list) and n["cites"] and all(
                isinstance(x, list) and len(x) == 2 for x in n["cites"])):
            raise ValueError(f"{where}: cites must be [[edition, provision], ...]")
        if not str(n["sentence"]).strip().endswith("."):
            raise ValueError(f"{where}: the sentence must be one whole sentence")
        out.append({**n, "law": int(n["law"]), "reviewed_by": str(n.get("reviewed_by", "")).strip()})
    return tuple(out)


def reviewed_notes(path: Path = NOTES) -> list[dict]:
    """The notes a reader sees: a note nobody has reviewed is not shown."""
    return [n for n in load_notes(path) if n["reviewed_by"]]
