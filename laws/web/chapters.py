"""The traditional chapters and parts of the Laws of Duplicate Bridge, for the
contents pages.

The sources in the corpus do not print the chapter headings (the 2007 slides
and the 2017 blog give the laws only), so the grouping is kept here, as data,
from the WBF's printed Laws (2007 and 2017 share it: the 2017 revision kept
the chapter and part structure).  It is presentation, not text of the Laws,
so it lives with the pages rather than in the store.  It is kept by family
(`CHAPTERS`), so a new duplicate code (2027) is grouped the day it is added;
a family with no entry (the rubber code) is grouped by the `section` each law
carries in the store.

Each chapter is (title, first law, last law, parts); each part is
(title, first law, last law).  Chapter I, the definitions, has no laws: the
contents page links it to the edition's definitions.
"""
from __future__ import annotations

Part = tuple[str, int, int]
Chapter = tuple[str, int, int, tuple[Part, ...]]

DUPLICATE: tuple[Chapter, ...] = (
    ("Chapter I — Definitions", 0, 0, ()),
    ("Chapter II — Preliminaries", 1, 5, ()),
    ("Chapter III — Preparation and Progression", 6, 8, ()),
    ("Chapter IV — General Laws Governing Irregularities", 9, 16, ()),
    ("Chapter V — The Auction", 17, 40, (
        ("Part I — Correct Procedure", 17, 22),
        ("Part II — Irregularities in Procedure", 23, 27),
        ("Part III — Auction out of Rotation", 28, 34),
        ("Part IV — Inadmissible Calls", 35, 39),
        ("Part V — Partnership Understandings", 40, 40),
    )),
    ("Chapter VI — The Play", 41, 71, (
        ("Part I — Correct Procedure", 41, 47),
        ("Part II — Penalty Card", 48, 52),
        ("Part III — Irregular Leads and Plays", 53, 60),
        ("Part IV — The Revoke", 61, 64),
        ("Part V — Tricks", 65, 67),
        ("Part VI — Claims and Concessions", 68, 71),
    )),
    ("Chapter VII — Proprieties", 72, 76, ()),
    ("Chapter VIII — The Score", 77, 79, ()),
    ("Chapter IX — Tournament Sessions", 80, 93, (
        ("Part I — Responsibilities of the Tournament Organizer", 80, 80),
        ("Part II — The Tournament Director", 81, 91),
        ("Part III — Appeals", 92, 93),
    )),
)

# by family: the codes of duplicate bridge since 1997 print the same chapters
# and parts (a law a later code adds outside them is listed under "Other
# laws"); a family without an entry is grouped by its sections
CHAPTERS: dict[str, tuple[Chapter, ...]] = {"duplicate": DUPLICATE}


def group(family: str | None, laws: list[dict], has_definitions: bool) -> list[dict]:
    """The contents of an edition as groups: [{"title", "parts": [{"title", "laws"}], "definitions"}].

    Only chapters and parts holding a law the edition has are shown, so the
    2017 edition (Laws 33–40 in the corpus) shows Chapter V and its Parts III–V.
    """
    chapters = CHAPTERS.get(family or "")
    if chapters is None:
        return _by_section(laws)
    out = []
    for title, lo, hi, parts in chapters:
        if lo == 0:
            if has_definitions:
                out.append({"title": title, "parts": [], "definitions": True})
            continue
        in_chapter = [law for law in laws if lo <= law["number"] <= hi]
        if not in_chapter:
            continue
        if parts:
            groups = [{"title": p, "laws": [law for law in in_chapter if plo <= law["number"] <= phi]}
                      for p, plo, phi in parts]
            groups = [g for g in groups if g["laws"]]
        else:
            groups = [{"title": "", "laws": in_chapter}]
        out.append({"title": title, "parts": groups, "definitions": False})
    grouped = {law["number"] for c in out for p in c["parts"] for law in p["laws"]}
    rest = [law for law in laws if law["number"] not in grouped]
    if rest:
        out.append({"title": "Other laws", "parts": [{"title": "", "laws": rest}], "definitions": False})
    return out


def _by_section(laws: list[dict]) -> list[dict]:
    out: list[dict] = []
    for law in laws:
        section = (law.get("section") or "").strip()
        title = section.title() if section.isupper() else section
        if not out or out[-1]["title"] != title:
            out.append({"title": title, "parts": [{"title": "", "laws": []}], "definitions": False})
        out[-1]["parts"][0]["laws"].append(law)
    return out
