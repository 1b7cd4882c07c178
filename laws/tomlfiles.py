"""Reading the corpus's TOML files (manifest.toml, corrections.toml,
alignment-overrides.toml): a file that cannot be read, is not UTF-8 or not
TOML stops the build with a message naming the file and the line, never a
traceback."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from laws.model import SourceError


def read(path: Path) -> tuple[str, dict]:
    """(the file's text, its TOML data)."""
    try:
        data = path.read_bytes()
    except OSError as exc:  # a folder in its place, no permission, a broken link
        raise SourceError(path.name, f"is unreadable ({exc.strerror or exc})") from None
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(path.name, f"is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
                          line) from None
    try:
        return raw, tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise SourceError(path.name, f"is not valid TOML ({exc})", int(m[1]) if m else None) from None


def entry_lines(raw: str, table: str) -> list[int]:
    """Line numbers of each [[table]] header, so errors can point at them."""
    return [i for i, l in enumerate(raw.splitlines(), 1) if l.strip() == f"[[{table}]]"]


def text(entry: dict, key: str, file: str, line: int | None, default: str | None = None) -> str:
    """entry[key] when it is text; SourceError naming the line when it is not."""
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise SourceError(file, f"'{key}' must be text in quotes, not {value!r}", line)
    return value
