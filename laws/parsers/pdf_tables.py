"""Tables of a PDF-extracted code, rebuilt from cells the extractor flattened.

An extractor writes a table's cells in the order it meets them on the page:
row by row, column by column, or in blocks, with the page number in between.
No general rule puts them back, so each table's layout is declared here, per
edition and law, as data (or a small function), and every rebuilt table is
checked against the file: the rebuilt cells plus any running text inside the
table's region must hold exactly the words and numbers of the region —
nothing dropped, nothing invented.  A table that fails the check stops the
build, naming the file and line.

A new edition from a PDF (the 2027 Laws) gets its own entries in `LAYOUTS`;
where its table is the 2007 or 2017 one, the same cells are reused.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from laws.model import Correction, SourceError, Table

Line = tuple[int, str]
DASH = "\u00ad"


@dataclass
class Layout:
    provision: str  # where the tables go ('2', '77', '78B')
    start: str  # regex: the region starts where this matches (its start)
    end: str | None  # regex: the region ends where this matches (its start); None: the law's end
    build: Callable[[str], tuple[list[Table], list[str]]]  # region text -> (tables, running text inside)
    how: str  # recorded with the correction
    own_captions: bool = False  # captions are the parser's, not the book's: not checked against the file
    repeated: str | None = None  # regex: a header the book prints again over each block of columns


def _tokens(text: str) -> Counter:
    return Counter(re.findall(r"[0-9A-Za-z&+]+", text.replace(DASH, " ").replace("–", " ")))


def _table_tokens(tables: list[Table], captions: bool = True) -> Counter:
    out = Counter()
    for t in tables:
        for cell in [t.caption if captions else "", *t.header, *(c for r in t.rows for c in r)]:
            out += _tokens(cell)
    return out


# --- Law 2: the board table -----------------------------------------------------------

def _law2(region: str) -> tuple[list[Table], list[str]]:
    """Two blocks of four columns: 'North Dealer ...' / 'Boards' x4 / the numbers
    column by column; then 'Neither Side Vulnerable ...' / 'Boards' x4 / numbers."""
    dealers = re.findall(r"\b(?:North|East|South|West) Dealer\b", region)
    vul = re.findall(r"\b(?:Neither Side|North-South|East-West|Both Sides) Vulnerable\b", region)
    cut = region.find(vul[0]) if vul else -1
    nums1 = re.findall(r"\b\d{1,2}\b", region[:cut])
    nums2 = re.findall(r"\b\d{1,2}\b", region[cut:])
    if len(dealers) != 4 or len(vul) != 4 or len(nums1) != 16 or len(nums2) != 16:
        raise ValueError("Law 2's table is not 4 dealers and 4 vulnerabilities, each with 16 board numbers")
    rows = [[dealers[r], "Boards", *nums1[4 * r:4 * r + 4], vul[r], "Boards", *nums2[4 * r:4 * r + 4]]
            for r in range(4)]
    return [Table(caption="Dealer and vulnerability", header=[], rows=rows,
                  note="Rebuilt from the row of labels, the row of 'Boards' and the board numbers "
                       "column by column that the PDF text gives for each half.")], []


# --- Law 77: the scoring table (2017) -----------------------------------------------------

LAW77_2017_TEXT = [
    r"A trick score of 100 points or more, made on one board, is GAME\.",
    r"A trick score of less than 100 points is a PARTSCORE\.",
    r"If all four players pass \(see Law 22\) each side enters a zero score\.",
]
LAW77_2017 = [
    Table(caption="Trick Score. Scored by declarer’s side if the contract is fulfilled.",
          header=["If Trumps are:", "", "♣", "♦", "♥", "♠"],
          rows=[["For each odd trick bid and made", "Undoubled", "20", "20", "30", "30"],
                ["", "Doubled", "40", "40", "60", "60"],
                ["", "Redoubled", "80", "80", "120", "120"]]),
    # 2017 prints the notrump table with a column for each risk (2007: a row each)
    Table(caption="At a Notrump Contract",
          header=["", "Undoubled", "Doubled", "Redoubled"],
          rows=[["For first odd trick bid and made", "40", "80", "160"],
                ["For each additional odd trick", "30", "60", "120"]]),
    Table(caption="Premium Score. Scored by declarer’s side. Slams",
          header=["For making a slam", "Not Vulnerable", "Vulnerable"],
          rows=[["Small Slam (12 tricks) bid and made", "500", "750"],
                ["Grand Slam (all 13 tricks) bid and made", "1000", "1500"]]),
    Table(caption="Overtricks",
          header=["For each (Tricks made in excess of contract)", "Not Vulnerable", "Vulnerable"],
          rows=[["Undoubled", "Trick Value", "Trick Value"],
                ["Doubled", "100", "200"],
                ["Redoubled", "200", "400"]]),
    Table(caption="Premiums for Game, Partscore, Fulfilling Contract",
          header=[],
          rows=[["For making GAME vulnerable", "500"],
                ["For making GAME, not vulnerable", "300"],
                ["For making any PARTSCORE", "50"],
                ["For making any doubled, but not redoubled contract", "50"],
                ["For making any redoubled contract", "100"]]),
    Table(caption="Undertrick Penalties. Scored by declarer’s opponents if the contract is not fulfilled. "
                  "Undertricks: Tricks by which declarer falls short of the contract",
          header=["", "", "Not Vulnerable", "Vulnerable"],
          rows=[["For first undertrick", "Undoubled", "50", "100"],
                ["", "Doubled", "100", "200"],
                ["", "Redoubled", "200", "400"],
                ["For each additional undertrick", "Undoubled", "50", "100"],
                ["", "Doubled", "200", "300"],
                ["", "Redoubled", "400", "600"],
                ["Bonus for the fourth and each subsequent undertrick", "Undoubled", "0", "0"],
                ["", "Doubled", "100", "0"],
                ["", "Redoubled", "200", "0"]]),
]


def _law77_2017(region: str) -> tuple[list[Table], list[str]]:
    text = []
    for pattern in LAW77_2017_TEXT:
        m = re.search(pattern, region)
        if not m:
            raise ValueError(f"Law 77's note '{pattern}' not found in its table")
        text.append(m[0])
    # the suit symbols of the trick-score header were lost (blank cells): the
    # columns read clubs, diamonds, hearts, spades, as the scores (20 20 30 30) show
    tables = [Table(t.caption, list(t.header), [list(r) for r in t.rows],
                    note="Rebuilt from a layout declared in the parser, whose cells were checked to be exactly "
                         "the cells of the PDF text. The suit symbols of the trick-score header were lost in "
                         "extraction and are restored; rows marked * in the book carry the footnote.")
              for t in LAW77_2017]
    return tables, text


# --- Law 78B: the IMP scale ---------------------------------------------------------

def _imp_scale(region: str) -> tuple[list[Table], list[str]]:
    """Pairs 'from–to IMPs' in any order; the last range open ('4000+')."""
    flat = region.replace(DASH, "–")
    pairs = [(f"{m[1]}–{m[2]}", m[3]) for m in re.finditer(r"(\d+)\s*[–-]\s*(\d+)\s+(\d+)\b", flat)]
    top = re.search(r"(\d+)\s*(\+|& upward)\s+(\d+)\b", flat)
    if top:
        pairs.append((f"{top[1]}{top[2] if top[2] == '+' else ' & upward'}", top[3]))
    pairs.sort(key=lambda p: int(p[1]))
    imps = [int(i) for _, i in pairs]
    if imps != list(range(imps[0] if imps else 0, (imps[0] if imps else 0) + len(imps))) or len(imps) < 20:
        raise ValueError("the IMP scale is not a run of contiguous IMPs")
    return [Table(caption="IMP scale", header=["Difference in points", "IMPs"],
                  rows=[[r, i] for r, i in pairs],
                  note="Rebuilt from the ranges and IMPs the PDF text gives in three blocks of columns.")], []


# --- the declarations ------------------------------------------------------------------

LAYOUTS: dict[tuple[str, int], Layout] = {
    ("2017", 2): Layout("2", r"North Dealer", r"The same sequence", _law2,
                        "board table flattened row by row, rebuilt", own_captions=True),
    ("2017", 77): Layout("77", r"Trick Score", None, _law77_2017,
                         "scoring table flattened cell by cell (cells out of order), rebuilt from a declared "
                         "layout whose cells were checked against the PDF text"),
    ("2017", 78): Layout("78B", r"Di\s?.?erence\s+in points", r"C\. Total Point Scoring", _imp_scale,
                         "IMP scale flattened in three blocks of columns, rebuilt", own_captions=True,
                         repeated=r"Difference\s+in points\s+IMPs"),
}
# words of the region the rebuilt cells spell differently (lost ligatures):
# the region's reading -> the cells' reading
CELL_READINGS = {"Di erence": "Difference"}


def extract(ctx, edition: str, law: int, body: list[Line]) -> tuple[dict[str, list[Table]], list[Line]]:
    """Cut a declared table's region out of a law's lines; returns the tables
    by provision and the lines left (the running text inside the region comes
    after the text before it, as a paragraph of its own)."""
    layout = LAYOUTS.get((edition, law))
    if layout is None or not body:
        return {}, body
    joined = "\n".join(s for _, s in body)
    offsets, pos = [], 0
    for n, s in body:
        offsets.append((pos, n))
        pos += len(s) + 1
    m = re.search(layout.start, joined)
    if not m:
        raise SourceError(ctx.file, f"Law {law}'s table (starting '{layout.start}') not found", body[0][0])
    a = m.start()
    b = len(joined)
    if layout.end:
        e = re.search(layout.end, joined[a:])
        if not e:
            raise SourceError(ctx.file, f"the end of Law {law}'s table ('{layout.end}') not found", body[0][0])
        b = a + e.start()
    region = joined[a:b]
    line_at = max(n for off, n in offsets if off <= a)
    try:
        tables, text = layout.build(region)
    except ValueError as exc:
        raise SourceError(ctx.file, f"Law {law}'s table: {exc}", line_at) from None
    reading = region
    for raw, fixed in CELL_READINGS.items():
        reading = reading.replace(raw, fixed)
    if layout.repeated:  # count a header printed over each block of columns once
        first = re.search(layout.repeated, reading)
        if first:
            reading = reading[:first.end()] + re.sub(layout.repeated, " ", reading[first.end():])
    want = _tokens(reading.replace("*", " "))
    got = _table_tokens(tables, captions=not layout.own_captions) + _tokens(" ".join(text))
    if want != got:
        raise SourceError(ctx.file, f"Law {law}'s rebuilt table does not match the cells in the file (missing "
                                    f"{dict(want - got)}, not in the file {dict(got - want)})", line_at)
    shown = "\n\n".join("\n".join([t.caption, " | ".join(t.header)] + [" | ".join(r) for r in t.rows])
                        for t in tables)
    ctx.out.corrections.append(Correction(region, shown, layout.how, "table", layout.provision, line_at))
    for raw, fixed in CELL_READINGS.items():
        if raw in region:
            ctx.out.corrections.append(Correction(raw, fixed, "ligature lost in extraction, in a table cell",
                                                  "ligature", layout.provision, line_at))
    before = joined[:a].rstrip("\n ")
    after = joined[b:].lstrip("\n ")
    lines: list[Line] = []
    pos = 0
    for s in before.split("\n") if before else []:
        lines.append((max(n for off, n in offsets if off <= pos), s))
        pos += len(s) + 1
    end_line = max(n for off, n in offsets if off <= max(b - 1, 0))
    for piece in text:
        lines.append((end_line, piece))
    pos = b + (len(joined[b:]) - len(after))
    for s in after.split("\n") if after else []:
        lines.append((max(n for off, n in offsets if off <= pos), s))
        pos += len(s) + 1
    return {layout.provision: tables}, lines
