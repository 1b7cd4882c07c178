"""Synthetic corpora for measuring Lawbook at scale: many full 93-law codes.

    python bench/synthetic.py N DEST      # write a corpus with N full codes to DEST

`make_corpus(n_codes, dest)` copies `corpus/` into `dest` and adds full
duplicate-family codes so that the corpus holds `n_codes` full 93-law codes.
The real corpus already has two (2007 and 2017), so `n_codes - 2` synthetic
codes are added; `n_codes <= 2` gives the real corpus unchanged (the size the
scale figures call "1": today's Lawbook).

Each synthetic code is a copy of the 2007 source (the slides text, parsed by
the same `slides` parser), or every PDF_EVERY-th one of the 2017 PDF text
(parsed by the `pdf` parser, with its ligature repair, tables and index: the
costliest parse, so the bench does not measure only copies of the cheapest),
with a few words changed in every law, so that
comparing it with its neighbours finds real, small word-level changes.  It is
its own edition in the manifest: id `<year>-syn`, years counting down from
2006 (so the duplicate family runs ..., 2005-syn, 2006-syn, 2007, 2017 and the
code in force stays 2017), family "duplicate", with its own copy of the 2007
source's curated corrections (they name their file).  The changes are
deterministic: the same `n_codes` gives the same bytes.

The corpus files themselves are never edited: the synthetic files are new
files in `dest`, which is a scratch folder (never `corpus/`).
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
from collections import Counter
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SOURCE_2007 = "000_f79d4105db5f19c6.txt"
SOURCE_PDF = "acbl-2017-laws.txt"  # the 2017 Laws as text extracted from a PDF (Latin-1)
PDF_EVERY = 4  # every fourth synthetic code is made from the PDF text (`pdf_style`)
REAL_FULL_CODES = 2  # 2007 and 2017
FIRST_YEAR = 2006
WORDS_PER_LAW = 3

# Word swaps a reviser might make: each a plain word of the Laws' prose that
# no parser treats as a landmark (law and section headings, references such as
# 'see Law 12C1' and the slides' 'continued' titles are never touched).
SWAPS = {
    "must": "shall", "shall": "must", "may": "can", "player": "contestant",
    "partner": "teammate", "opponents": "adversaries", "Director": "Tournament Director",
    "information": "knowledge", "cards": "pasteboards", "when": "whenever",
    "before": "prior to", "after": "following", "until": "till", "which": "that",
    "obtain": "get", "attention": "notice", "immediately": "at once", "subsequently": "later",
    "requires": "demands", "required": "obliged", "otherwise": "else", "unless": "except if",
    "offending": "erring", "contestants": "competitors", "score": "result",
}
_SWAP_WORD = re.compile(r"(?<![\w’'-])(" + "|".join(sorted(SWAPS, key=len, reverse=True)) + r")(?![\w’'-])")
_LAW_HEADING = re.compile(r"^LAW (\d{1,2})\b")
# Lines a parser reads as structure, not prose: headings (law, lettered,
# numbered), 'continued' slide titles, bare numbers, table cells.  Footnotes
# (repeated on every slide, with different line breaks, and kept once: all
# copies must stay equal) are skipped from their mark to the slide number.
# The laws whose tables the slides parser rebuilds cell by cell and checks
# against the text (2, 77, 78B) keep their words.
TABLE_LAWS = {2, 77, 78}
_PROTECTED = re.compile(r"^(LAW \d|[A-Z]\.|\d{1,2}\.|\*|\d+$)|\*|continued|Contd|rescored")


def synthetic_ids(n_codes: int) -> list[tuple[str, int]]:
    """(edition id, year) of the synthetic codes a corpus of `n_codes` gets."""
    return [(f"{FIRST_YEAR - k}-syn", FIRST_YEAR - k) for k in range(max(0, n_codes - REAL_FULL_CODES))]


def pdf_style(k: int) -> bool:
    """Whether the k-th synthetic code (from 0) is made from the PDF text:
    the costliest parse (ligature repair, tables found by their shape, the
    official index), not only copies of the cheapest."""
    return k % PDF_EVERY == PDF_EVERY - 1


def _protected_words(corpus: Path, source: str = SOURCE_2007) -> set[str]:
    """Words in the raw readings of the source's corrections: a changed word
    there would leave a correction matching nothing, which stops the build."""
    import tomllib
    data = tomllib.loads((corpus / "corrections.toml").read_text(encoding="utf-8"))
    return {w for c in data.get("correction", []) if c["file"] == source
            for w in re.findall(r"\w+", c["raw"])}


_PDF_LAW_HEADING = re.compile("^LAW (\\d{1,2}) [-\xad] ")  # the extract has a soft hyphen for some dashes
# the PDF text's structure: headings, numbered and lettered items, page
# numbers, footnote marks, the index's entries (after INDEX_START)
_PDF_PROTECTED = re.compile(r"^(LAW \d|[A-Z]\.|\d{1,2}\.|\(?[a-z]\)|\*|\f|\d+$)|\*|Law \d|Laws \d")


def mutate_pdf(text: str, seed: int, protected: set[str] = frozenset()) -> str:
    """The PDF text with WORDS_PER_LAW prose words swapped in each law's body
    (not its tables' laws, not the table of contents or the index), chosen by `seed`."""
    rng = random.Random(seed)
    lines = text.split("\n")
    counts = Counter(line.strip() for line in lines)
    index_at = max((i for i, line in enumerate(lines) if line.strip().upper().startswith("INDEX")), default=len(lines))
    law_lines: dict[int, list[int]] = {}
    law = None
    for i, line in enumerate(lines[:index_at]):
        m = _PDF_LAW_HEADING.match(line.strip())
        if m:
            law = int(m[1])
            continue
        if (law is not None and law not in TABLE_LAWS and counts[line.strip()] == 1
                and not _PDF_PROTECTED.search(line.strip())):
            law_lines.setdefault(law, []).append(i)
    return _swap_words(lines, law_lines, rng, protected)


def _swap_words(lines: list[str], law_lines: dict[int, list[int]], rng: random.Random,
                protected) -> str:
    """The text with WORDS_PER_LAW words of each law's `law_lines` (line
    numbers) swapped (SWAPS), chosen by `rng`, none of `protected`."""
    for law in sorted(law_lines):
        spots = [(i, m.start(), m[1]) for i in law_lines[law] for m in _SWAP_WORD.finditer(lines[i])
                 if m[1] not in protected]
        for i, start, word in sorted(rng.sample(spots, min(WORDS_PER_LAW, len(spots))), reverse=True):
            line = lines[i]
            lines[i] = line[:start] + SWAPS[word] + line[start + len(word):]
    return "\n".join(lines)


def mutate(text: str, seed: int, protected: set[str] = frozenset()) -> str:
    """The 2007 slides text with WORDS_PER_LAW prose words swapped in each law
    (but those of TABLE_LAWS), chosen by `seed`."""
    rng = random.Random(seed)
    lines = text.split("\n")
    # a line printed more than once (a footnote repeated on every slide of its
    # law, a heading repeated after a slide break) is read once by the parser,
    # so every copy must stay equal: leave them all alone
    counts = Counter(line.strip() for line in lines)
    law_lines: dict[int, list[int]] = {}
    law = None
    in_footnote = False  # footnotes run from their mark to the slide's number
    for i, line in enumerate(lines):
        m = _LAW_HEADING.match(line.strip())
        if m:
            law, in_footnote = int(m[1]), False
            continue
        if "*" in line:
            in_footnote = True
        elif re.fullmatch(r"\d+", line.strip()):
            in_footnote = False
        if (law is not None and not in_footnote and law not in TABLE_LAWS and counts[line.strip()] == 1
                and not _PROTECTED.search(line.strip())):
            law_lines.setdefault(law, []).append(i)
    return _swap_words(lines, law_lines, rng, protected)


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _corrections_for(corpus: Path, file: str, source: str = SOURCE_2007) -> str:
    """The source's corrections, again for a copy of it named `file`."""
    raw = (corpus / "corrections.toml").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[correction\]\])", raw)
    mine = [b for b in blocks if b.startswith("[[correction]]") and f'file = "{source}"' in b]
    return "".join(re.sub(r"(?m)^#.*\n", "", b).replace(f'file = "{source}"', f"file = {_toml_str(file)}")
                   .rstrip() + "\n\n" for b in mine)


# what each synthetic code is copied from: (the text it describes, its source's
# title, its parser's lines, the source file, the code's year)
_BASES = {
    SOURCE_2007: ("the 2007 Laws", "the 2007 slides text", 'parser = "slides"', 2007),
    SOURCE_PDF: ("the 2017 Laws' PDF text", "the 2017 PDF text", 'parser = "pdf"\nencoding = "latin-1"', 2017),
}


def _entries(eid: str, year: int, file: str, source: str) -> str:
    """The manifest's edition and source entries of a synthetic copy of `source`."""
    laws, text, parser, base_year = _BASES[source]
    return f"""
[[edition]]
id = "{eid}"
title = "Synthetic Laws of Duplicate Bridge {year}"
year = {year}
kind = "code"
family = "duplicate"
publisher = "Lawbook benchmarks"
laws = "1-93"
description = "A synthetic code for measuring Lawbook at scale: {laws} with {WORDS_PER_LAW} words changed in each law."

[[source]]
file = "{file}"
edition = "{eid}"
title = "Synthetic copy of {text} ({year})"
kind = "code"
{parser}
laws = "1-93"
provenance = "Generated by bench/synthetic.py from {source}: {WORDS_PER_LAW} prose words swapped per law (seed {year})."
attribution = "Laws of Duplicate Bridge {base_year} © World Bridge Federation."
"""


def make_corpus(n_codes: int, dest: Path) -> Path:
    """Copy corpus/ into `dest` (created; must not already hold files) and add
    synthetic full codes until the corpus has `n_codes` full 93-law codes.
    Returns the corpus folder (`dest`)."""
    dest = Path(dest)
    if dest.resolve() == CORPUS.resolve():
        raise ValueError("make_corpus writes a new folder, never corpus/ itself")
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    for p in CORPUS.iterdir():
        if p.is_file():
            shutil.copy2(p, dest / p.name)
        elif p.is_dir():  # the plain-words layer (plain/<edition>/)
            shutil.copytree(p, dest / p.name)
    source = (CORPUS / SOURCE_2007).read_text(encoding="utf-8")
    pdf = (CORPUS / SOURCE_PDF).read_bytes().decode("latin-1")
    protected = {SOURCE_2007: _protected_words(CORPUS), SOURCE_PDF: _protected_words(CORPUS, SOURCE_PDF)}
    manifest, corrections = [], []
    for k, (eid, year) in enumerate(synthetic_ids(n_codes)):
        file = f"syn-{year}.txt"
        if pdf_style(k):
            (dest / file).write_bytes(mutate_pdf(pdf, seed=year, protected=protected[SOURCE_PDF]).encode("latin-1"))
            manifest.append(_entries(eid, year, file, SOURCE_PDF))
            corrections.append(f"# --- {file}: synthetic copy of {SOURCE_PDF} ---\n"
                               + _corrections_for(CORPUS, file, SOURCE_PDF))
            continue
        (dest / file).write_text(mutate(source, seed=year, protected=protected[SOURCE_2007]), encoding="utf-8")
        manifest.append(_entries(eid, year, file, SOURCE_2007))
        corrections.append(f"# --- {file}: synthetic copy of {SOURCE_2007} ---\n" + _corrections_for(CORPUS, file))
    if manifest:
        with open(dest / "manifest.toml", "a", encoding="utf-8") as f:
            f.write("\n# --- synthetic codes (bench/synthetic.py) ---\n" + "".join(manifest))
        with open(dest / "corrections.toml", "a", encoding="utf-8") as f:
            f.write("\n" + "\n".join(corrections))
    return dest


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n_codes", type=int, help="full 93-law codes in the corpus (the real corpus has 2)")
    ap.add_argument("dest", type=Path, help="an empty or new folder to write the corpus into")
    args = ap.parse_args(argv)
    if args.n_codes < 1:
        ap.error("n_codes must be at least 1")
    try:
        out = make_corpus(args.n_codes, args.dest)
    except ValueError as exc:
        ap.error(str(exc))
    added = len(synthetic_ids(args.n_codes))
    print(f"{out}: {REAL_FULL_CODES + added if added else 'the real corpus,'} full codes"
          f" ({added} synthetic: {', '.join(e for e, _ in synthetic_ids(args.n_codes)) or 'none'})")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
