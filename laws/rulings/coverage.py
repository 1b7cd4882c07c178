"""Which laws the rulings and checkers cover, by law and edition (issue 21).

A law is covered in an edition when a ruling of that edition applies one of
its provisions (the auction and play rulings, a guided procedure) or a
checker cites it.  The few laws that call for no ruling (what the Laws are
for, the arrangement of tables, the Director's duties…) carry a one-line
reason in `not-ruled.json` instead.  The README's table is this module's
output, and a test holds them equal:

    python -m laws.rulings.coverage            print the table (from ./data's store)
    python -m laws.rulings.coverage --write    write it into README.md between its markers
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from laws.checkers import codes as checker_codes
from laws.rulings import data as rulings_data
from laws.rulings import guided

HERE = Path(__file__).resolve().parent
REASONS = HERE / "not-ruled.json"
# the codes that have rulings files or checker data, newest first (the
# README's columns): the data says which, so a new code's files add a column;
# the rubber code's column covers the laws the corpus holds of it (41 to 71)
EDITIONS = tuple(sorted({e for p in rulings_data.PERIODS for e in rulings_data.files(p)}
                        | set(rulings_data.files(guided.PERIOD)) | set(checker_codes.editions()), reverse=True))
# a law an edition does not have in the corpus (the rubber code outside 41 to 71)
ABSENT = "— not in this code's text in Lawbook"
START, END = "<!-- coverage: start (python -m laws.rulings.coverage --write) -->", "<!-- coverage: end -->"


def reasons() -> dict[int, str]:
    return {int(k): v for k, v in json.loads(REASONS.read_text(encoding="utf-8")).items() if k.isdigit()}


def _law(pid: str) -> int | None:
    m = re.match(r"\d+", pid)
    return int(m.group()) if m else None


def covered(edition: str) -> dict[int, list[str]]:
    """law -> what applies it in `edition`: 'auction', 'play', a guided
    procedure's title, 'checker: <id>'."""
    out: dict[int, list[str]] = {}

    def add(law, what):
        if law is not None and what not in out.setdefault(law, []):
            out[law].append(what)

    for period in rulings_data.PERIODS:
        for law in sorted(rulings_data.laws_cited(period).get(edition, ())):
            add(law, f"{period} ruling")
    if edition in guided.editions():
        titles = {p["id"]: p["title"] for p in guided.procedures(edition)}
        for pid, laws in guided.laws_applied(edition).items():
            for law in sorted(laws):
                add(law, f"guided: {titles[pid]}")
    for cid, spec in (checker_codes.editions().get(edition) or {}).get("checkers", {}).items():
        for pid in spec.get("cites", []):
            add(_law(pid), f"checker: {cid}")
    return out


def table(laws: dict[int, str], present: dict[str, set[int]] | None = None) -> str:
    """The README's table: every law of the editions (`laws`: number -> title
    of the code in force), what covers it in each edition, or why nothing does.
    `present`: edition -> the laws the store holds of it (law_sets); a law an
    edition lacks says so rather than "none"."""
    cover = {ed: covered(ed) for ed in EDITIONS}
    why = reasons()
    rows = ["| law | " + " | ".join(EDITIONS) + " |", "|---|" + "---|" * len(EDITIONS)]
    for n in sorted(laws):
        cells = []
        for ed in EDITIONS:
            got = cover[ed].get(n)
            if present is not None and n not in present.get(ed, ()):
                cells.append(ABSENT)
                continue
            cells.append(", ".join(got) if got else f"— {why[n]}" if n in why else "**none**")
        rows.append(f"| {n} {laws[n]} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def missing(laws: dict[int, set[int]]) -> dict[str, list[int]]:
    """edition -> the laws of that edition (`laws`: edition -> law numbers)
    with neither a ruling nor a checker nor a reason."""
    why = reasons()
    return {ed: sorted(n for n in laws.get(ed, ()) if n not in covered(ed) and n not in why) for ed in EDITIONS}


def law_titles(db) -> dict[int, str]:
    """The law numbers of the editions, titled as the newest has them."""
    out: dict[int, str] = {}
    for ed in reversed(EDITIONS):  # the older first, so the newer's title wins
        for n, title in db.execute("select number, title from laws where edition = ?", [ed]):
            out[int(n)] = " ".join(str(title or "").split())
    return out


def law_sets(db) -> dict[str, set[int]]:
    """edition -> the law numbers the store holds of it."""
    return {ed: {int(n) for (n,) in db.execute("select number from laws where edition = ?", [ed])} for ed in EDITIONS}


def readme_section(readme: str) -> str | None:
    if START not in readme or END not in readme:
        return None
    return readme.split(START, 1)[1].split(END, 1)[0].strip()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from laws import store
    from laws.build import current_store

    root = Path(__file__).resolve().parents[2]
    db = store.connect(current_store(root / "data"))
    out = table(law_titles(db), law_sets(db))
    if "--write" in argv:
        path = root / "README.md"
        text = path.read_text(encoding="utf-8")
        if readme_section(text) is None:
            print(f"README.md has no markers {START} … {END}", file=sys.stderr)
            return 1
        before, rest = text.split(START, 1)
        after = rest.split(END, 1)[1]
        path.write_text(f"{before}{START}\n{out}\n{END}{after}", encoding="utf-8")
    else:
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
