"""Tables of a PDF-extracted code, found by their shape and rebuilt from the
cells the extractor flattened.

An extractor writes a table's cells in the order it meets them on the page:
row by row, column by column, a first column beside its labels and the rest
after, with a page number in between.  Nothing here is declared per edition
or per law: a law's lines (as the extractor broke them, before sentences are
rejoined) are searched for the three tables the Laws print, each known by
what its cells are, and each rebuilt by a rule that holds whatever the order:

- the board table (`_boards`): four "<Seat> Dealer" and four "<Side>
  Vulnerable" labels, a "Boards" cell each and thirty-two board numbers.  Of
  the six orders a grid of two halves x four rows x four columns can be read
  in, exactly one must make each half hold boards 1 to 16 once, each row
  rising;
- the IMP scale (`_imp_scale`): ranges of points each followed by its IMPs
  ("370-420 9", the last open: "4000+ 24", "4000 & upward 24"), under a header
  printed once or over each block of columns.  Put in order of the ranges,
  which must run on without a gap (every score is a multiple of ten), the
  IMPs never falling;
- the scoring table (`_scoring`): cells "Undoubled", "Doubled",
  "Redoubled", "Not Vulnerable", "Vulnerable", numbers and "Trick Value",
  read by `_ScoringReader`: a caption, its header, rows each led by a label,
  a label's own values after it, and any values left over (a column printed
  after its rows) filling the cells still empty, row by row.

Every rebuilt table is checked against the file: its cells plus any running
text inside the region hold exactly the words and numbers of the region,
nothing dropped, nothing invented.  A table-shaped block that cannot be
rebuilt stops the build with a message naming the edition, the law and the
table.  Where the tables sat, `extract` leaves a marker line, so that the
parser gives them to the provision they were printed in.
"""
from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from laws.model import Correction, SourceError, Table

Line = tuple[int, str]
DASHES = r"\-\u00ad\u2013"  # (in a class) hyphen, the soft hyphen an extractor writes for a dash, en dash
MARK = re.compile("\x02table(\\d+)\x03")  # a marker line: where table group <n> sat (no word or number in it)


class Unbuilt(ValueError):
    """A block shaped like a table whose cells cannot be put back (why)."""


@dataclass
class Found:
    kind: str  # 'board', 'IMP', 'scoring': named in messages
    start: int  # the region: lines[start:end] of the law
    end: int
    tables: list[Table]
    region: list[Line]  # the lines cut out (the last may be a line's head: `_run`)
    after: list[Line] = field(default_factory=list)  # the rest of a line the region ends inside
    text: list[Line] = field(default_factory=list)  # running text inside the region
    how: str = ""  # recorded with the correction
    own_captions: bool = False  # captions are the parser's, not the book's
    header_copies: int = 1  # a header the book prints over each block of columns


def _tokens(text: str) -> Counter:
    return Counter(re.findall(r"[0-9A-Za-z&+]+", re.sub(f"[{DASHES}*]", " ", text)))


def _table_tokens(found: Found) -> Counter:
    out = Counter()
    for t in found.tables:
        cells = [*(c for r in t.rows for c in r)]
        cells += [c for c in t.header for _ in range(found.header_copies)]
        if not found.own_captions:
            cells.append(t.caption)
        for cell in cells:
            out += _tokens(cell)
    return out


# --- the board table -------------------------------------------------------------------

DEALER = r"(?:North|East|South|West) Dealer"
VULNERABLE = rf"(?:Neither Side|North[{DASHES}]South|East[{DASHES}]West|Both Sides) Vulnerable"
BOARD_CELL = re.compile(rf"\s*(?:{DEALER}|{VULNERABLE}|Boards|\d{{1,2}})\b")
# the ways a grid of halves x rows x columns can be written out, outermost first
NESTINGS = list(itertools.permutations(("half", "row", "column")))


def _head(cell: re.Pattern, s: str) -> int:
    """Where the run of cells `s` starts with ends (0: none), one cell at a
    time (a single pattern repeating cells backtracks without end on a long
    line that is not all cells)."""
    end = 0
    while (m := cell.match(s, end)) and m.end() > end:
        end = m.end()
    return end


def _all_cells(cell: re.Pattern, s: str) -> bool:
    return bool(s.strip()) and _head(cell, s) == len(s.rstrip())


def _run(lines: list[Line], first: int, is_cells, head: re.Pattern | None = None):
    """The run of lines of cells around lines[first]: (start, end, region,
    after).  A page number the parser removed may have joined the text after
    a table to its last line ('... 10 13 The same sequence is ...'): the
    cells at the head of the next line (`head`) end the region, the rest of
    that line goes after it."""
    start, end = first, first
    while start > 0 and is_cells(lines[start - 1][1]):
        start -= 1
    while end < len(lines) and is_cells(lines[end][1]):
        end += 1
    region, after = lines[start:end], []
    if head is not None and end < len(lines):
        n, s = lines[end]
        cut = _head(head, s)
        if cut and s[cut:].strip():
            region, after, end = region + [(n, s[:cut].rstrip())], [(n, s[cut:].strip())], end + 1
    return start, end, region, after


def _boards(lines: list[Line]) -> Found | None:
    text = " ".join(s for _, s in lines)
    if len(re.findall(DEALER, text)) < 4 or len(re.findall(VULNERABLE, text)) < 4:
        return None
    first = next((i for i, (_, s) in enumerate(lines)
                  if _all_cells(BOARD_CELL, s) and re.search(f"{DEALER}|{VULNERABLE}", s)), None)
    if first is None:
        raise Unbuilt("its dealer and vulnerability labels are not in lines of table cells")
    start, end, cut, after = _run(lines, first, lambda s: _all_cells(BOARD_CELL, s), BOARD_CELL)
    region = " ".join(s for _, s in cut)
    dealers, vul = re.findall(DEALER, region), re.findall(VULNERABLE, region)
    numbers = re.findall(r"\b\d{1,2}\b", re.sub(f"{DEALER}|{VULNERABLE}", " ", region))
    if len(dealers) != 4 or len(vul) != 4 or region.count("Boards") != 8 or len(numbers) != 32:
        raise Unbuilt(f"it has {len(dealers)} dealer and {len(vul)} vulnerability labels, {region.count('Boards')} "
                      f"'Boards' and {len(numbers)} board numbers (4, 4, 8 and 32 expected)")
    grids = {_board_grid(numbers, nesting) for nesting in NESTINGS}
    grids.discard(None)
    if len(grids) != 1:
        raise Unbuilt("its board numbers can be read " + ("no way" if not grids else "more than one way")
                      + " that gives each half boards 1 to 16 once, every row rising")
    grid = grids.pop()
    labels = [dealers, vul]
    rows = [[labels[h][r], "Boards", *grid[h][r]] for r in range(4) for h in range(2)]
    rows = [rows[2 * r] + rows[2 * r + 1] for r in range(4)]
    return Found("board", start, end, region=cut, after=after, tables=[Table(
        caption="Dealer and vulnerability", header=[], rows=rows,
        note="Rebuilt from the labels and board numbers the PDF text gives, read in the one order "
             "that gives each half boards 1 to 16, every row rising.")],
        how="board table flattened, rebuilt from the order its numbers can be read in", own_captions=True)


def _board_grid(numbers: list[str], nesting: tuple[str, ...]) -> tuple | None:
    """The numbers as [half][row] -> 4 numbers, written out in `nesting`
    order; None unless each half holds 1-16 once and every row rises."""
    grid = [[[None] * 4 for _ in range(4)] for _ in range(2)]
    sizes = {"half": 2, "row": 4, "column": 4}
    for value, index in zip(numbers, itertools.product(*(range(sizes[k]) for k in nesting))):
        at = dict(zip(nesting, index))
        grid[at["half"]][at["row"]][at["column"]] = int(value)
    for half in grid:
        if sorted(n for row in half for n in row) != list(range(1, 17)):
            return None
        if any(row != sorted(row) for row in half):
            return None
    return tuple(tuple(tuple(str(n) for n in row) for row in half) for half in grid)


# --- the IMP scale ----------------------------------------------------------------------

RANGE = rf"(\d+)\s*[{DASHES}]\s*(\d+)"
PAIR = re.compile(rf"{RANGE}\s+(\d+)\b(?!\s*[{DASHES}]\s*\d)")
TOP = re.compile(r"(\d+)\s*(\+|&)\s*(?:upward\s+)?(\d+)\b(?:\s+upward\b)?")
IMP_WORDS = re.compile(r"[A-Za-z]+")
IMP_CELL = re.compile(rf"\s*(?:\d+\s*[{DASHES}]\s*\d+|\d+\s*\+|\d+|&\s*upward|&)(?![\w{DASHES}])")


def _imp_line(s: str) -> bool:
    """A line of IMP-scale cells: ranges, numbers, an open range, and at most
    a few words of a header ('Di erence', 'in points IMPs' once or twice, 'upward')."""
    if MARK.search(s):
        return False
    rest = re.sub(rf"{RANGE}|\d+\s*\+|\d+|&", " ", s)
    return not re.search(r"[.,;:()]", rest) and len(IMP_WORDS.findall(rest)) <= 6


def _imp_scale(lines: list[Line]) -> Found | None:
    text = " ".join(s for _, s in lines)
    if len(PAIR.findall(text)) < 10:
        return None
    first = next(i for i, (_, s) in enumerate(lines) if PAIR.search(s) or re.fullmatch(RANGE, s.strip()))
    start, end, cut, after = _run(lines, first, _imp_line, IMP_CELL)
    region = " ".join(s for _, s in cut)
    pairs = [(int(m[1]), int(m[2]), f"{m[1]}–{m[2]}", m[3]) for m in PAIR.finditer(region)]
    rest = PAIR.sub(" ", region)
    top = TOP.search(rest)
    if top:
        pairs.append((int(top[1]), None, f"{top[1]}+" if top[2] == "+" else f"{top[1]} & upward", top[3]))
        rest = rest[:top.start()] + " " + rest[top.end():]
    pairs.sort(key=lambda p: p[0])
    _check_scale(pairs)
    header = list(dict.fromkeys(IMP_WORDS.findall(rest)))
    counts = {w: IMP_WORDS.findall(rest).count(w) for w in header}
    if re.search(r"\d", rest) or len(set(counts.values())) > 1 or len(header) < 2:
        raise Unbuilt(f"besides its ranges and IMPs it holds '{' '.join(rest.split())}', "
                      "which is not a header printed once or over each block of columns")
    return Found("IMP", start, end, region=cut, after=after, tables=[Table(
        caption="IMP scale", header=[" ".join(header[:-1]), header[-1]],
        rows=[[label, imps] for _, _, label, imps in pairs],
        note="Rebuilt from the ranges and IMPs the PDF text gives, each range followed by its IMPs, "
             "put in order of the ranges.")],
        how="IMP scale flattened, rebuilt in order of its ranges", own_captions=True,
        header_copies=next(iter(counts.values())))


def _check_scale(pairs: list[tuple]) -> None:
    if len(pairs) < 10:
        raise Unbuilt(f"only {len(pairs)} ranges with their IMPs")
    for (lo, hi, label, imps), (lo2, _, label2, imps2) in zip(pairs, pairs[1:]):
        if hi is None:
            raise Unbuilt(f"the open range '{label}' is not the last")
        if lo2 != hi + 10:  # scores are multiples of ten: a range ends ten below the next
            raise Unbuilt(f"the range '{label2}' does not follow '{label}'")
        if int(imps2) < int(imps):
            raise Unbuilt(f"the IMPs fall from {imps} ({label}) to {imps2} ({label2})")


# --- the scoring table -------------------------------------------------------------------

RISKS = ("Undoubled", "Doubled", "Redoubled")
ITEM = re.compile(r"(?P<value>Trick Value|(?<![\w(])\d+(?![\w)])(?!\s+[a-z]))"
                  r"|(?P<risk>\b(?:Undoubled|Doubled|Redoubled)\b)"
                  r"|(?P<vul>\b(?:Not Vulnerable|Vulnerable)\b)")
SMALL_WORDS = {"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"}
SUITS = ["♣", "♦", "♥", "♠"]  # the trump suits in the order the Laws print their scores, lowest first


@dataclass
class Item:
    kind: str  # 'value', 'risk', 'vul', 'prose'
    text: str
    line: int
    role: str = ""  # prose: 'row', 'group', 'more' (of the row before), 'head'; risk: 'row', 'column'


def _items(lines: list[Line]) -> list[Item]:
    """A region's cells in the order of the file; prose is what lies between
    the recognised cells (numbers in brackets or before a word are prose)."""
    out: list[Item] = []
    for n, s in lines:
        brackets = [m.span() for m in re.finditer(r"\([^)]*\)", s)]
        at = 0
        for m in ITEM.finditer(s):
            if any(a <= m.start() < b for a, b in brackets):
                continue
            _prose(out, s[at:m.start()], n)
            out.append(Item(m.lastgroup, m[0], n))
            at = m.end()
        _prose(out, s[at:], n)
    return out


def _prose(out: list[Item], text: str, line: int) -> None:
    text = text.strip()
    if not text:
        return
    if out and out[-1].kind == "prose" and text[:1].islower():  # a label the extractor wrapped
        out[-1].text += " " + text
    else:
        out.append(Item("prose", text, line))


def _is_title(s: str) -> bool:
    words = s.rstrip(":.").split()
    return bool(words) and words[0][:1].isupper() and all(w[:1].isupper() or w in SMALL_WORDS for w in words)


def _is_sentence(s: str) -> bool:
    """Running text: a sentence, not a heading ('A trick score of ... is GAME.')."""
    words = s.split()
    return s.endswith(".") and len(words) >= 6 and not (words[0][:1].isupper() and words[1][:1].isupper())


def _roles(items: list[Item]) -> None:
    for i, it in enumerate(items):
        nxt = items[i + 1] if i + 1 < len(items) else None
        after = items[i + 2] if i + 2 < len(items) else None
        if it.kind == "risk":
            prev = items[i - 1] if i else None
            in_run = (nxt and nxt.kind == "risk") or (prev and prev.kind == "risk" and prev.role == "column")
            it.role = "column" if in_run else "row"
        if it.kind != "prose":
            continue
        if i and items[i - 1].kind == "value" and it.text[:1].islower():
            it.role = "more"  # the rest of a label the extractor broke around its first value
        elif nxt and nxt.kind == "value":
            it.role = "row"
        elif nxt and nxt.kind == "risk" and not (after and after.kind == "risk"):
            it.role = "group"
        else:
            it.role = "head"


@dataclass
class _Row:
    label: str  # a prose label, or the group label of a run of risk rows
    risk: str = ""
    values: list[str] = field(default_factory=list)


@dataclass
class _Part:
    """One table of the scoring table, as read."""
    heads: list[str] = field(default_factory=list)  # prose before its first column or row
    columns: list[str] = field(default_factory=list)
    group_after_columns: bool = False  # the first group's label came after the column labels
    rows: list[_Row] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # values given apart from their rows


class _ScoringReader:
    """Reads items into tables: a 'head' after rows starts the next table."""

    def __init__(self, items: list[Item]):
        self.parts: list[_Part] = []
        self.text: list[Item] = []
        self.items = items
        self.prev: Item | None = None  # the item before the one being read

    def read(self) -> list[Table]:
        part: _Part | None = None
        group = ""
        for i, it in enumerate(self.items):
            self.prev = self.items[i - 1] if i else None
            if it.kind == "prose" and it.role == "head" and (part is None or part.rows):
                if part is not None and _is_sentence(it.text):
                    self.text.append(it)
                    continue
                part = _Part()
                self.parts.append(part)
                group = ""
            if part is None:
                raise Unbuilt(f"'{it.text}' comes before any caption")
            group = self._item(part, it, group)
        tables = []
        for part in self.parts:
            try:
                tables.append(self._table(part))
            except Unbuilt as exc:  # name the part by its first caption: 'Undertrick Penalties'
                raise Unbuilt(f"its part '{_split_title(part.heads[0])[0]}': {exc}") from None
        return tables

    def _item(self, part: _Part, it: Item, group: str) -> str:
        if it.kind == "prose":
            if it.role == "head":
                part.heads.append(it.text)
            elif it.role == "group":
                if not part.rows and part.columns and part.heads:
                    part.group_after_columns = True
                return it.text
            elif it.role == "row":
                part.rows.append(_Row(it.text))
            elif it.role == "more":
                row = part.rows[-1]
                if row.risk:
                    raise Unbuilt(f"'{it.text}' follows the values of a row with no label of its own")
                row.label += " " + it.text
        elif it.kind in ("vul", "risk") and (it.kind == "vul" or it.role == "column"):
            part.columns.append(it.text)
        elif it.kind == "risk":
            part.rows.append(_Row(group, it.text))
            return ""  # a group's label is printed on its first row only
        elif it.kind == "value":
            prev = self.prev
            if prev is not None and (prev.kind == "value" and not part.left and part.rows
                                     or prev.kind == "risk" and prev.role == "row"
                                     or prev.kind == "prose" and prev.role == "row"):
                part.rows[-1].values.append(it.text)
            elif part.rows:
                part.left.append(it.text)
            else:
                raise Unbuilt(f"the value '{it.text}' comes before any row")
        return group

    def _table(self, part: _Part) -> Table:
        rows = part.rows
        if not rows:
            raise Unbuilt(f"the part '{' '.join(part.heads)}' has no rows")
        _fill(part)
        groups = [r for r in rows if r.risk and r.label]
        captions, corner = _captions(part)
        labels_in_rows = any(r.risk for r in rows) and bool(groups)
        if any(r.risk for r in rows):
            first = rows[0]
            if len(groups) + (0 if first.label else 1) >= 2 and (corner or first.label):
                # parallel groups each have a label: of the corner and the
                # first group's label, the one like the other labels leads it
                others = set(re.findall(r"[a-z]+", " ".join(g.label for g in groups if g is not first).lower()))
                pick = [c for c in (corner, first.label) if c]
                best = max(pick, key=lambda c: len(set(re.findall(r"[a-z]+", c.lower())) & others - SMALL_WORDS))
                rest = [c for c in pick if c is not best]
                captions += rest
                first.label, corner, labels_in_rows = best, "", True
            elif first.label and part.group_after_columns and corner:
                corner, labels_in_rows = f"{corner} ({first.label})", False
        body = [([r.label] if labels_in_rows or not r.risk else []) + ([r.risk] if r.risk else []) + r.values
                for r in rows]
        if len({len(r) for r in body}) > 1:
            raise Unbuilt("its rows are not all of one shape (a label, a doubling, values)")
        width = len(body[0]) - len(rows[0].values)
        columns = part.columns
        if not columns and len(rows[0].values) == 4 and "trump" in corner.lower():
            columns = SUITS  # the suit symbols, lost in extraction, head a trick score's four columns
        header = [corner] + [""] * (width - 1) + (columns or [""] * len(rows[0].values)) \
            if corner or columns else []
        return Table(caption=_join(captions), header=header, rows=[[c.rstrip("*").strip() for c in r] for r in body],
                     note="Rebuilt from the cells the PDF text gives, read by their shape: each row's label, "
                          "its values after it, values printed apart from their rows filling the cells left "
                          "empty, row by row." + (" The suit symbols of the header were lost in extraction "
                                                  "and are restored." if columns is SUITS else ""))


def _fill(part: _Part) -> None:
    """Values printed apart from their rows (a column after its rows) fill
    the cells left empty, row by row.  The last row's run of values may
    carry on into them: it keeps as many as the other short rows have."""
    rows = part.rows
    total = sum(len(r.values) for r in rows) + len(part.left)
    if total % len(rows):
        raise Unbuilt(f"{total} values do not fill its {len(rows)} rows evenly")
    width = total // len(rows)
    short = [len(r.values) for r in rows[:-1] if len(r.values) < width]
    last = rows[-1]
    if len(last.values) > width or (short and len(last.values) > min(short)):
        keep = min(short) if short else width
        part.left[:0] = last.values[keep:]
        del last.values[keep:]
    left = list(part.left)
    for r in rows:
        while len(r.values) < width and left:
            r.values.append(left.pop(0))
        if len(r.values) != width:
            raise Unbuilt(f"the row '{r.label or r.risk}' has {len(r.values)} values where the others have {width}")


def _captions(part: _Part) -> tuple[list[str], str]:
    """The part's caption pieces and the label of its first column (the
    corner): the last prose before the column labels or rows, unless a title."""
    heads = list(part.heads)
    corner = ""
    if heads and not _is_title(heads[-1]) and (part.columns or heads[-1].endswith(":") or len(heads) > 1):
        corner = heads.pop()
    pieces = []
    for h in heads:
        pieces += _split_title(h)
    return pieces, corner


def _split_title(s: str) -> list[str]:
    """'Trick Score Scored by declarer's side ...' -> a title and its
    subtitle: a capitalised word after a capitalised word, before a small one."""
    words = s.split()
    for k in range(1, len(words) - 1):
        if words[k - 1][:1].isupper() and words[k][:1].isupper() and words[k + 1][:1].islower() \
                and _is_title(" ".join(words[:k])) and len(words[:k]) >= 2:
            return [" ".join(words[:k]), " ".join(words[k:])]
    return [s]


def _join(pieces: list[str]) -> str:
    """Caption pieces as one caption: 'Undertricks: Tricks by which ...' (a
    one-word heading and what it means), otherwise each piece a sentence."""
    out = ""
    for k, p in enumerate(pieces):
        if k:
            prev = pieces[k - 1]
            out += " " if prev.endswith((".", ":")) else (": " if len(prev.split()) == 1 and p[:1].isupper()
                                                         and not _is_title(p) else ". ")
        out += p
    return out


def _scoring(lines: list[Line]) -> Found | None:
    text = " ".join(s for _, s in lines)
    if not all(re.search(rf"\b{r}\b", text) for r in RISKS) or "Vulnerable" not in text:
        return None
    if sum(m.lastgroup == "value" for _, s in lines for m in ITEM.finditer(s)) < 10:
        return None  # the words alone, in a law's text: no table
    # lines of cells: a line led by a cell may end in the sentence a page join ran into it
    cells = [i for i, (_, s) in enumerate(lines) if ITEM.search(s) and not _is_sentence(s) or ITEM.match(s)]
    if not cells:
        return None
    start, end = cells[0], cells[-1] + 1
    # the captions above the first cells: short lines, not a provision's text
    while start > 0 and len(lines[start - 1][1]) < 80 and not re.match(r"(?:[A-Z]|\d{1,2})\.\s", lines[start - 1][1]):
        start -= 1
    items = _items(lines[start:end])
    _roles(items)
    reader = _ScoringReader(items)
    tables = reader.read()
    text_lines = [(it.line, it.text) for it in reader.text]
    return Found("scoring", start, end, tables, lines[start:end], text=text_lines,
                 how="scoring table flattened cell by cell (cells out of order), rebuilt by the shape of its cells")


# --- finding and cutting out -------------------------------------------------------------

FINDERS = (_boards, _imp_scale, _scoring)


@dataclass
class Group:
    """The tables of one region, and the correction recording their rebuild
    (its `where` set to the provision that gets them, by `finish`)."""
    tables: list[Table]
    correction: Correction


def extract(ctx, edition: str, law: int, body: list[Line]) -> tuple[dict[int, Group], list[Line]]:
    """Find the tables in a law's lines (as the extractor broke them) and cut
    them out.  Returns the tables by group number and the lines left, with a
    marker line (`MARK`) where each group sat and the running text inside a
    region after it, each sentence a line of its own."""
    groups: dict[int, Group] = {}
    lines = list(body)
    for finder in FINDERS:
        try:
            found = finder(lines)
        except Unbuilt as exc:
            raise SourceError(ctx.file, f"{edition} Law {law}: the {_KIND[finder]} table cannot be rebuilt: {exc}",
                              body[0][0] if body else None) from None
        if found is None:
            continue
        region = found.region
        _check(ctx, edition, law, found, region)
        key = len(ctx.out.corrections)  # unique within the file
        shown = "\n\n".join("\n".join([t.caption, " | ".join(t.header)] + [" | ".join(r) for r in t.rows])
                            for t in found.tables)
        groups[key] = Group(found.tables, Correction("\n".join(s for _, s in region), shown, found.how, "table",
                                                     str(law), region[0][0]))
        ctx.out.corrections.append(groups[key].correction)
        lines = lines[:found.start] + [(region[0][0], f"\x02table{key}\x03")] + found.text + found.after \
            + lines[found.end:]
    return groups, lines


_KIND = {_boards: "board", _imp_scale: "IMP", _scoring: "scoring"}


def _check(ctx, edition: str, law: int, found: Found, region: list[Line]) -> None:
    want = _tokens(" ".join(s for _, s in region))
    got = _table_tokens(found) + _tokens(" ".join(s for _, s in found.text))
    if want != got:
        raise SourceError(ctx.file, f"{edition} Law {law}: the rebuilt {found.kind} table does not match the cells "
                                    f"in the file (missing {dict(want - got)}, not in the file {dict(got - want)})",
                          region[0][0])


def finish(ctx, where: str, groups: list[Group]) -> list[Table]:
    """The tables of the provision `where`, with the character repairs of the
    rest of the text (dashes, lost ligatures: 'Di erence') on every caption
    and cell, recorded against it."""
    def fix(s: str) -> str:
        return ctx.finish(where, s)[0] if s else s
    out = []
    for group in groups:
        group.correction.where = where
        out += [Table(fix(t.caption), [fix(c) for c in t.header], [[fix(c) for c in r] for r in t.rows], t.note)
                for t in group.tables]
    return out
