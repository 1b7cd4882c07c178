"""Overrides: the corpus's curated alignments, read and checked.

`corpus/alignment-overrides.toml` names provisions that the aligner would
pair wrongly, with the reason.  `load_overrides` reads them (as `align`
takes them), `check_overrides` stops the build when one no longer fits the
store.  The build keeps them in the store (`stored`), so that the web app
compares any other pair the same way without the corpus folder.  It imports
nothing from the rest of the package.
"""
from __future__ import annotations

import re
from pathlib import Path

from laws import tomlfiles
from laws.model import SourceError

OVERRIDES = "alignment-overrides.toml"


def load_overrides(corpus_dir: Path | None) -> list[dict]:
    """Curated alignments (`corpus/alignment-overrides.toml`), each with its
    reason.  Checked against the store in the build (`check_overrides`)."""
    if corpus_dir is None:
        return []
    path = Path(corpus_dir) / OVERRIDES
    if not path.exists():
        return []
    raw, data = tomlfiles.read(path)
    lines = tomlfiles.entry_lines(raw, "override")
    out = []
    for entry, line in zip(data.get("override", []), lines):
        for key in ("from", "to", "reason"):
            if not str(entry.get(key, "")).strip():
                raise SourceError(OVERRIDES, f"an override has no '{key}'", line)
        # `law` for an alignment within one law; `from_law` and `to_law` for a
        # move to another law (either defaults to `law`)
        laws = {k: entry.get(k, entry.get("law")) for k in ("from_law", "to_law")}
        for key, value in laws.items():
            if value is None:
                raise SourceError(OVERRIDES, f"an override has no 'law' (or '{key}')", line)
            if not isinstance(value, int) or isinstance(value, bool):
                named = key if key in entry else "law"  # the key the file has, not the default's name
                raise SourceError(OVERRIDES, f"'{named}' must be a law number, not {value!r}", line)
        fp, tp = list(entry.get("from_provisions", [])), list(entry.get("to_provisions", []))
        if not fp and not tp:
            raise SourceError(OVERRIDES, "an override names no provisions", line)
        out.append({"from": str(entry["from"]), "to": str(entry["to"]), **laws,
                    "from_provisions": fp, "to_provisions": tp, "reason": entry["reason"], "line": line})
    return out


def check_overrides(overrides: list[dict], laws: dict, provisions: dict) -> None:
    """An override that no longer fits the store stops the build, as a stale
    correction does: silently ignoring it would bring the wrong alignment back.
    `laws` and `provisions` as `stored.read_store` gives them."""
    for o in overrides:
        for side, ids in (("from", o["from_provisions"]), ("to", o["to_provisions"])):
            ed, law = o[side], o[f"{side}_law"]
            if law not in laws.get(ed, {}):
                raise SourceError(OVERRIDES, f"an override names Law {law} of edition '{ed}', "
                                  "which the store does not have", o["line"])
            have = {p["id"] for p in provisions.get((ed, law), [])}
            for name in ids:
                pid, _, para = name.partition("#")
                paras = _paragraphs(provisions.get((ed, law), []), pid)
                if pid not in have or (para and not (para.isdigit() and 1 <= int(para) <= paras)):
                    raise SourceError(OVERRIDES, f"an override names provision {pid} of edition '{ed}', "
                                      "which the store does not have", o["line"])


def _paragraphs(law_provisions: list[dict], pid: str) -> int:
    """How many paragraphs provision `pid`'s text has (cut as `align.units`
    cuts it), 0 when the law has no such provision: '44#3' needs three."""
    text = next((p["text"] or "" for p in law_provisions if p["id"] == pid), "")
    return len([x for x in re.split(r"\n\s*\n", text) if x.strip()])
