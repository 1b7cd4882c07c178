"""No edition is named in the code (issue 25): what a code is, what it rules
by, which is the default, comes from the manifest, the store and the data
files, so that the next code (2027) is added without editing Python,
JavaScript or a template.  A string literal in laws/, search/, templates/ or
static/ that names an edition of the corpus (or the tests' made-up 2027) is
an error here; comments and docstrings may cite an edition as an example,
and data files (JSON, TOML) are data.  A sentence that mentions an edition
(a message, a finding's description: "a comparable call (2017 23A)") is
words, not a value the code acts on, and is let through."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from laws import manifest

from conftest import CORPUS

ROOT = Path(__file__).resolve().parent.parent
IDS = sorted({e.id for e in manifest.load(CORPUS).editions} | {"2027"}, key=len, reverse=True)
NAMED = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in IDS) + r")(?![\w-])")
PROSE_WORDS = 3  # a message or a description naming an edition as an example: words, not a value
# a JavaScript or Jinja string literal (single or double quotes, on one line)
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)


def _python_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def _script_literals(path: Path, comment: re.Pattern) -> list[tuple[int, str]]:
    text = comment.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), path.read_text(encoding="utf-8"))
    return [(text.count("\n", 0, m.start()) + 1, m.group()[1:-1]) for m in JS_STRING.finditer(text)]


def names_an_edition(literal: str) -> bool:
    """A literal that is an edition or is made of one (a key, an address, a
    default: "2017", "/2007/", "2017:45F"), not a sentence that mentions one
    ("the replacement is a comparable call (2017 23A)")."""
    if not NAMED.search(literal):
        return False
    return len(re.findall(r"[A-Za-z]{2,}", NAMED.sub(" ", literal))) < PROSE_WORDS


def named_editions() -> list[str]:
    found = []
    for folder in ("laws", "search"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += [f"{path.relative_to(ROOT)}:{n}: {s!r}" for n, s in _python_literals(path) if names_an_edition(s)]
    for path in sorted((ROOT / "static").rglob("*.js")) + sorted((ROOT / "templates").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {s!r}" for n, s in _script_literals(path, JS_COMMENT)
                  if names_an_edition(s)]
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found += [f"{path.relative_to(ROOT)}:{n}: {s!r}" for n, s in _script_literals(path, JINJA_COMMENT)
                  if names_an_edition(s)]
    return found


def test_no_code_names_an_edition():
    assert named_editions() == []


def test_the_check_finds_an_edition_named_in_each_kind_of_file(tmp_path):
    py = tmp_path / "a.py"
    py.write_text('"""Docstring: 2017 is an example."""\n# 2007 in a comment\nEDITION = "2017"\n')
    assert [s for _, s in _python_literals(py) if NAMED.search(s)] == ["2017"]
    js = tmp_path / "a.js"
    js.write_text('/* 2017 */ var a = "x"; // "2007"\nvar edition = p.edition || "1993-rubber";\n')
    assert [(n, s) for n, s in _script_literals(js, JS_COMMENT) if NAMED.search(s)] == [(2, "1993-rubber")]
    html = tmp_path / "a.html"
    html.write_text('{# "2017" #}<a href="/2007/">{{ x }}</a>\n')
    assert [(n, s) for n, s in _script_literals(html, JINJA_COMMENT) if NAMED.search(s)] == [(1, "/2007/")]
    assert not NAMED.search("20170") and not NAMED.search("x2017") and NAMED.search("the 2027 Laws")
    assert [names_an_edition(x) for x in ("2017", "/2007/", "2017:45F", "law|2017|27B", "the 2027 Laws",
                                          "a comparable call (2017 23A) in this case")] == [
        True, True, True, True, True, False]
