"""Curated corrections (`corpus/corrections.toml`).

The corpus files are never edited.  Where a source misreads the law (an OCR
slip, a transcription typo, a hyphen lost at a line break) the fix is an entry
in corrections.toml naming the file, where in it (a provision id, `def:<term>`
or `topic:<slug>`; empty for anywhere), the raw reading, the corrected reading
and the reason.  Parsers call `Corrections.apply` on each piece of text they
produce; the store keeps the raw reading next to the corrected one.

Every entry must match somewhere: a correction that no longer applies (because
a source or parser changed) stops the build, naming its line, rather than
silently doing nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from laws import tomlfiles
from laws.model import Correction, SourceError
from laws.text import repair

CORRECTIONS = "corrections.toml"
REQUIRED = ("file", "raw", "corrected", "reason")


@dataclass
class Entry:
    file: str
    where: str
    raw: str
    corrected: str
    reason: str
    kind: str
    line: int
    word: bool  # match whole words only (a raw reading made of word characters)
    uses: int = 0


def _check_not_empty(raw: str, data: dict) -> None:
    """An emptied corrections file would serve every repaired provision
    unrepaired, and nothing else would notice: a corpus with no corrections
    says so by having no file."""
    if data.get("correction"):
        return
    what = "is empty" if not raw.strip() else "is empty: it holds no [[correction]] entry"
    raise SourceError(CORRECTIONS, f"{what}, so the sources' curated repairs would be lost; put back its "
                                   f"entries (a corpus that needs no corrections has no {CORRECTIONS} at all)")


@dataclass
class Corrections:
    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def load(cls, corpus_dir: Path) -> "Corrections":
        path = Path(corpus_dir) / CORRECTIONS
        if not path.exists() and not path.is_symlink():  # a broken link is a file gone wrong, not no file
            return cls()
        raw, data = tomlfiles.read(path)
        _check_not_empty(raw, data)
        lines = tomlfiles.entry_lines(raw, "correction")
        entries = []
        for item, line in zip(data.get("correction", []), lines):
            for key in REQUIRED:
                if key not in item:
                    raise SourceError(CORRECTIONS, f"a correction has no '{key}'"
                                      + (" (corrected = \"\" deletes the raw reading)" if key == "corrected" else ""),
                                      line)
                value = tomlfiles.text(item, key, CORRECTIONS, line, default="")
                if not value.strip() and key != "corrected":
                    raise SourceError(CORRECTIONS, f"a correction has no '{key}'", line)
            for key in ("where", "kind"):
                tomlfiles.text(item, key, CORRECTIONS, line, default="")
            if item["raw"] == item["corrected"]:
                raise SourceError(CORRECTIONS, "a correction whose raw and corrected readings are the same", line)
            entries.append(Entry(
                file=item["file"], where=item.get("where", ""), raw=item["raw"],
                corrected=item["corrected"], reason=item["reason"], kind=item.get("kind", "typo"),
                line=line, word=bool(re.fullmatch(r"\w.*\w|\w", item["raw"])),
            ))
        return cls(entries)

    def for_file(self, file: str) -> "Corrections":
        """A view holding this file's entries (sharing their use counts)."""
        return Corrections([e for e in self.entries if e.file == file])

    def apply(self, file: str, where: str, text: str) -> tuple[str, list[Correction]]:
        """Apply every entry for this file (and this place) to `text`."""
        made: list[Correction] = []
        for e in self.entries:
            if e.file != file or (e.where and e.where != where):
                continue
            pattern = re.escape(e.raw)
            if e.word:
                pattern = rf"(?<!\w){pattern}(?!\w)"
            text, n = re.subn(pattern, lambda _m, c=e.corrected: c, text)
            if n:
                e.uses += n
                made.extend(Correction(e.raw, e.corrected, e.reason, e.kind, where, e.line) for _ in range(n))
        return text, made

    def fix(self, file: str, where: str, raw: str, record: list[Correction]) -> tuple[str, str | None]:
        """Everything a parser does to a piece of text it has cut out of a
        source: the character repairs (laws.text) then the curated corrections.
        Appends what it changed to `record`; returns (text, raw reading if it
        differs)."""
        if not raw:
            return raw, None
        text, made = repair(raw, where)
        text, curated = self.apply(file, where, text)
        record.extend(made + curated)
        return text, (raw if text != raw else None)

    def check_all_used(self, files: set[str]) -> None:
        for e in self.entries:
            if e.file not in files:
                raise SourceError(CORRECTIONS, f"a correction names '{e.file}', which is not in the manifest", e.line)
            if not e.uses:
                at = f" in {e.where}" if e.where else ""
                raise SourceError(CORRECTIONS, f"the correction of '{e.raw}'{at} in {e.file} matches nothing", e.line)
