"""The plain-words layer (`corpus/plain/<edition>/*.toml`): for each provision
with text, one reviewed entry saying in plain English what it does (`plain`)
and the table words for the situations it decides (`situations`).

Directors do not type the Laws' words ("partner tanked then bid game" for
16B1), so search indexes these fields beside the text, and the law pages show
`plain` under each provision as "In plain words", marked as not part of the
Laws.  The entries are data written from each provision's own text and
reviewed by a person, one file per edition and group of laws, so that a diff
shows exactly what a reviewer approved.

An entry:

    ["16B1(a)"]
    plain = "After unauthorized information from partner, a player may not ..."
    situations = ["partner hesitated then I bid", "BIT", ...]
    judgement = true           # the text poses a test the Director judges
    text_hash = "1a2b3c4d5e6f" # sha256 of the provision text it was written from
    reviewed_by = "..."

A 2007 entry whose provision reads word for word as a 2017 one (after
normalising quotes, case and footnote marks) may say `same_as = "2017:16D"`
instead of `plain` and `situations`; it shares that entry's words.

Build time only: `build` loads the files, checks their shape (an entry for a
provision that does not exist stops the build, naming the file and line) and
writes the `glosses` table; `problems` is the reviewer's checklist, which the
tests run over every entry (`python -m laws.plain check` prints it).
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from laws import tomlfiles
from laws.model import SourceError

FOLDER = "plain"
PLAIN_WORDS = (8, 60)  # plain: one or two sentences
NEAR_COPY = 70  # rapidfuzz ratio at or over which plain is a copy of the text, not a gloss

# A provision whose text poses a test the Director judges.  Its gloss is
# flagged `judgement = true` and names the Director's judgement.  "deems"
# and "judges" as the Director's verbs: "is deemed to have revoked" is a rule
# that applies by itself, and "in its discretion the Regulating Authority"
# is not the Director's.  An entry may be flagged where the text leaves the
# Director another assessment ("if he considers", "likely").  The
# judgement is the Director's ("in his judgement"), not the players' "style
# and judgement" that regulation must not restrict.
POSES_JUDGEMENT = re.compile(
    r"director['’]?s? opinion|opinion of the director|could (?:well )?have known|logical alternative"
    r"|\bdeems\b|\bjudges\b|\b(?:his|director['’]s) judge?ment\b", re.I)
NAMES_JUDGEMENT = re.compile(r"\bDirector(?:['’]s)?\s+(?:judges?|judge?ment|decides|opinion)", re.I)
# "Law 16", "Laws 16 and 73", "Law 12C1(b)", "Laws 80-91": every number after "Law(s)"
LAW_MENTION = re.compile(r"\bLaws?\s+(\d+[A-Za-z0-9()]*(?:\s*(?:,|and|or|to|[-–])\s*\d+[A-Za-z0-9()]*)*)")
FOOTNOTE_MARKS = re.compile(r"[*†‡§]|\[\d+\]")


@dataclass(frozen=True)
class Gloss:
    edition: str
    provision: str
    plain: str
    situations: tuple[str, ...]
    judgement: bool
    text_hash: str
    reviewed_by: str
    same_as: str | None  # "2017:16D": this entry shares that one's words
    file: str
    line: int


def text_hash(text: str) -> str:
    """What an entry records of the text it was written from."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def normalise(text: str) -> str:
    """The words of a text, for "the same words": quotes, case and footnote marks aside."""
    text = FOOTNOTE_MARKS.sub("", text).lower().replace("’", "'").replace("‘", "'")
    return " ".join(re.findall(r"[a-z0-9']+", text.replace("“", '"').replace("”", '"')))


def poses_judgement(text: str) -> bool:
    return bool(POSES_JUDGEMENT.search(text))


def laws_named(text: str) -> set[int]:
    """The law numbers a gloss names ("Law 12C1", "Laws 16 and 73")."""
    out = set()
    for m in LAW_MENTION.finditer(text):
        out.update(int(n) for n in re.findall(r"(?:^|[\s,–-])(\d+)", " " + m[1]))
    return out


def words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9’'-]+", text))


# ---------------------------------------------------------------------------
# Loading

def files(corpus_dir: Path, edition: str) -> list[Path]:
    folder = Path(corpus_dir) / FOLDER / edition
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def load(corpus_dir: Path, edition: str) -> dict[str, Gloss]:
    """Every entry of an edition, by provision id; SourceError (file, line)
    for an entry of the wrong shape or given twice."""
    out: dict[str, Gloss] = {}
    for path in files(corpus_dir, edition):
        name = f"{FOLDER}/{edition}/{path.name}"
        raw, data = tomlfiles.read(path)
        lines = _header_lines(raw)
        for pid, entry in data.items():
            line = lines.get(pid)
            if not isinstance(entry, dict):
                raise SourceError(name, f"'{pid}' must be a table of fields ([\"{pid}\"] then plain = …)", line)
            if pid in out:
                raise SourceError(name, f"provision {pid} has an entry already, in {out[pid].file}", line)
            out[pid] = _entry(edition, pid, entry, name, line)
    return out


def _header_lines(raw: str) -> dict[str, int]:
    out = {}
    for i, l in enumerate(raw.splitlines(), 1):
        m = re.match(r"""\s*\[\s*["']?([^"'\]]+)["']?\s*\]\s*(?:#.*)?$""", l)
        if m:
            out.setdefault(m[1], i)
    return out


def _entry(edition: str, pid: str, entry: dict, file: str, line: int | None) -> Gloss:
    known = {"plain", "situations", "judgement", "text_hash", "reviewed_by", "same_as"}
    unknown = sorted(set(entry) - known)
    if unknown:
        raise SourceError(file, f"entry {pid} has an unknown field '{unknown[0]}' "
                          f"(fields: {', '.join(sorted(known))})", line)
    text = lambda key: tomlfiles.text(entry, key, file, line, default="").strip()  # noqa: E731
    same_as = text("same_as") or None
    plain, hashed, reviewer = text("plain"), text("text_hash"), text("reviewed_by")
    situations = entry.get("situations", [])
    if not isinstance(situations, list) or not all(isinstance(s, str) and s.strip() for s in situations):
        raise SourceError(file, f"entry {pid}: 'situations' must be a list of phrases in quotes", line)
    judgement = entry.get("judgement", False)
    if not isinstance(judgement, bool):
        raise SourceError(file, f"entry {pid}: 'judgement' must be true or false", line)
    if same_as:
        if plain or situations:
            raise SourceError(file, f"entry {pid} has same_as and its own words: give one or the other", line)
        if not re.fullmatch(r"[\w-]+:\S+", same_as):
            raise SourceError(file, f"entry {pid}: same_as must name an edition and a provision, "
                              f"like \"2017:16D\" (not {same_as!r})", line)
    elif not plain:
        raise SourceError(file, f"entry {pid} has no 'plain' (or same_as)", line)
    for key, value in (("text_hash", hashed), ("reviewed_by", reviewer)):
        if not value:
            raise SourceError(file, f"entry {pid} has no '{key}'", line)
    return Gloss(edition, pid, plain, tuple(s.strip() for s in situations), judgement, hashed, reviewer,
                 same_as, file, line or 0)


# ---------------------------------------------------------------------------
# The reviewer's checklist

def problems(gloss: Gloss, text: str, law: int, cited: set[int]) -> list[str]:
    """What is wrong with an entry for a provision (its text, its law, the laws
    its text cites).  An entry with same_as is checked through the entry it
    shares (the caller resolves it)."""
    out = []
    if not text.strip():
        out.append("the provision has no text of its own")
        return out
    n = words(gloss.plain)
    if not PLAIN_WORDS[0] <= n <= PLAIN_WORDS[1]:
        out.append(f"plain has {n} words (it takes {PLAIN_WORDS[0]} to {PLAIN_WORDS[1]})")
    from rapidfuzz import fuzz  # build and test time only
    copy = fuzz.ratio(gloss.plain.lower(), text.lower())
    if copy >= NEAR_COPY:
        out.append(f"plain is a near copy of the text (ratio {copy:.0f}, under {NEAR_COPY} wanted)")
    if not gloss.situations:
        out.append("no situations")
    named = set()
    for field in (gloss.plain, *gloss.situations):
        named |= laws_named(field)
    stray = sorted(named - cited - {law})
    if stray:
        out.append(f"names Law {', '.join(map(str, stray))}, which the provision does not cite")
    if poses_judgement(text) and not gloss.judgement:
        out.append("the text poses a judgement (e.g. '" + POSES_JUDGEMENT.search(text)[0]
                   + "') but the entry is not flagged judgement = true")
    if gloss.judgement and not NAMES_JUDGEMENT.search(gloss.plain):
        out.append("flagged judgement but plain does not name the Director's judgement "
                   "(say \"the Director's judgement\" or \"the Director judges\")")
    return out


def resolve(gloss: Gloss, by_edition: dict[str, dict[str, Gloss]]) -> Gloss:
    """An entry with its words: a same_as entry takes the words of the one it names."""
    if not gloss.same_as:
        return gloss
    edition, pid = gloss.same_as.split(":", 1)
    target = by_edition.get(edition, {}).get(pid)
    if target is None or target.same_as:
        raise SourceError(gloss.file, f"entry {gloss.provision}: same_as names {gloss.same_as}, "
                          "which has no entry of its own words", gloss.line)
    return replace(target, edition=gloss.edition, provision=gloss.provision, same_as=gloss.same_as,
                   text_hash=gloss.text_hash, reviewed_by=gloss.reviewed_by, file=gloss.file, line=gloss.line)


# ---------------------------------------------------------------------------
# The build step

@dataclass
class Coverage:
    glossed: int = 0  # provisions with text that have an entry
    with_text: int = 0  # provisions with text
    stale: int = 0  # entries written from words that have changed since

    def line(self) -> str:
        return f"glosses: {self.glossed} of {self.with_text}, {self.stale} stale"


def build(db, corpus_dir: Path) -> dict[str, Coverage]:
    """Load every edition's entries, check them against the store and write
    the `glosses` table; the coverage of each edition that has a folder."""
    editions = [r[0] for r in db.execute("select id from editions order by ord")]
    loaded = {e: load(corpus_dir, e) for e in editions}
    rows, coverage = [], {}
    for edition in editions:
        if not loaded[edition] and not (Path(corpus_dir) / FOLDER / edition).is_dir():
            continue
        texts = dict(db.execute("select id, text from provisions where edition = ?", [edition]).fetchall())
        cov = coverage[edition] = Coverage(with_text=sum(1 for t in texts.values() if t.strip()))
        for pid, gloss in loaded[edition].items():
            if pid not in texts:
                raise SourceError(gloss.file, f"entry {pid}: the {edition} Laws have no provision {pid}", gloss.line)
            if not texts[pid].strip():
                raise SourceError(gloss.file, f"entry {pid}: provision {pid} has no text of its own "
                                  "(only provisions with text are glossed)", gloss.line)
            stale = gloss.text_hash != text_hash(texts[pid])
            # a text changed since the entry (or the entry it shares) was
            # written makes it stale, not wrong: the build goes on and says so
            if gloss.same_as and not stale and not _target_stale(db, gloss, loaded):
                _check_same_words(db, gloss, texts[pid])
            words_of = resolve(gloss, loaded)
            cov.glossed += 1
            cov.stale += stale
            rows.append((edition, pid, words_of.plain, json.dumps(list(words_of.situations), ensure_ascii=False),
                         int(words_of.judgement), gloss.text_hash, int(stale), gloss.reviewed_by,
                         gloss.same_as, gloss.file, gloss.line))
    db.conn.executemany("insert into glosses values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return coverage


def _target_stale(db, gloss: Gloss, loaded: dict[str, dict[str, Gloss]]) -> bool:
    edition, pid = gloss.same_as.split(":", 1)
    target = loaded.get(edition, {}).get(pid)
    row = db.execute("select text from provisions where edition = ? and id = ?", [edition, pid]).fetchone()
    return target is not None and row is not None and target.text_hash != text_hash(row[0])


def _check_same_words(db, gloss: Gloss, text: str) -> None:
    edition, pid = gloss.same_as.split(":", 1)
    row = db.execute("select text from provisions where edition = ? and id = ?", [edition, pid]).fetchone()
    if row is None:
        raise SourceError(gloss.file, f"entry {gloss.provision}: same_as names {gloss.same_as}, "
                          "which is not a provision", gloss.line)
    if normalise(row[0]) != normalise(text):
        raise SourceError(gloss.file, f"entry {gloss.provision}: same_as {gloss.same_as}, but the words "
                          "differ (same_as is for provisions that read word for word alike)", gloss.line)


# ---------------------------------------------------------------------------
# `python -m laws.plain check [edition ...]`: the checklist over the built store

def check(db_path: Path, corpus_dir: Path, editions: list[str]) -> list[str]:
    import sqlite3
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    all_editions = [r[0] for r in db.execute("select id from editions")]
    loaded = {e: load(corpus_dir, e) for e in all_editions}
    out = []
    for edition in editions:
        texts = {r[0]: (r[1], r[2]) for r in
                 db.execute("select id, text, law from provisions where edition = ?", [edition])}
        cites = {}
        for f, law in db.execute("select from_id, to_law from refs where edition = ? and to_law is not null",
                                 [edition]):
            cites.setdefault(f, set()).add(law)
        for pid, gloss in loaded[edition].items():
            if pid not in texts:
                out.append(f"{gloss.file}:{gloss.line}: {pid}: no such provision")
                continue
            try:
                words_of = resolve(gloss, loaded)
            except SourceError as exc:
                out.append(str(exc))
                continue
            text, law = texts[pid]
            for p in problems(words_of, text, law, cites.get(pid, set())):
                out.append(f"{gloss.file}:{gloss.line}: {pid}: {p}")
            if gloss.text_hash != text_hash(text):
                out.append(f"{gloss.file}:{gloss.line}: {pid}: stale (text_hash {gloss.text_hash}, "
                           f"the text's is {text_hash(text)})")
        missing = [pid for pid, (t, _) in texts.items() if t.strip() and pid not in loaded[edition]]
        if missing:
            out.append(f"{edition}: {len(missing)} provisions with text have no entry: "
                       + ", ".join(missing[:40]) + (" …" if len(missing) > 40 else ""))
    return out


def main(argv: list[str]) -> int:
    from laws.build import current_store
    import os
    data = Path(os.environ.get("LAWS_DATA_DIR", "data"))
    corpus = Path(os.environ.get("LAWS_CORPUS_DIR", "corpus"))
    only = [Path(a).name for a in argv if a.endswith(".toml")]  # the problems of these files alone
    # by default every edition that has a plain-words folder (corpus/plain/<edition>/)
    editions = [a for a in argv if not a.startswith("-") and not a.endswith(".toml")] or sorted(
        (d.name for d in (corpus / "plain").iterdir() if d.is_dir()), reverse=True)
    found = check(current_store(data), corpus, editions)
    if only:
        found = [f for f in found if any(f"/{name}:" in f for name in only)]
    print("\n".join(found) if found else "no problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[2:] if sys.argv[1:2] == ["check"] else sys.argv[1:]))
