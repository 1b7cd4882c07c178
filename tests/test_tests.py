"""Tests that assert something real: every test function in tests/test_*.py
must check more than a status code or a truthiness.

A test passes this lint if it has at least one real assertion: an `assert`
that is not only a status code (`assert r.status_code == 200`,
`assert resp.status == ...`) or a truthiness (`assert x`,
`assert x is not None`, `assert len(x)`, `assert x != []`); a
`pytest.raises`; or a call to a helper that asserts (a function named
check*/assert*/_check*, or any function of the same file whose body asserts,
however deeply it calls on). A test whose every assertion is weak is
named file::function in the failure, unless it is one of the few
EXCEPTIONS below, each with its reason.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# At most ten, each with why it may stay as it is.
_FUZZ = ("a fuzz test of robustness: its claim is the status itself (a ruling or a refusal, never a 500), "
         "shown with the body when it fails; the values are the example-based tests' to check")
EXCEPTIONS: dict[str, str] = {
    "test_rulings_api.py::test_junk_gives_400_not_500": _FUZZ,
    "test_rulings_guided.py::test_any_answers_give_a_ruling_or_a_4xx": _FUZZ,
    "test_rulings_record.py::test_any_carried_result_gives_a_record_or_a_4xx": _FUZZ,
    "test_browser.py::test_jump_box_sends_words_to_search": "page.wait_for_url is the browser's assertion: it "
                                                            "fails (times out) unless Enter lands on /search?q=revoke",
}

HELPER_PREFIXES = ("check", "assert", "_check")
WEAK_EMPTY = ("[]", "{}", "()", "''", '""', "0", "None", "set()")


def _is_status(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ("status_code", "status")


def _is_truthy_operand(node: ast.AST) -> bool:
    """A bare value (or len of one) whose truth is all an assert on it says."""
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("len", "bool")
            and len(node.args) == 1)


def weak(test: ast.expr) -> bool:
    """Whether an assert's test is only a status code or a truthiness."""
    if isinstance(test, ast.BoolOp):
        return all(weak(v) for v in test.values)
    if _is_truthy_operand(test):
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if _is_status(left) or _is_status(right):
            return True
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
            return True
        if isinstance(op, ast.NotEq) and ast.unparse(right) in WEAK_EMPTY:
            return True
        if (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len"
                and isinstance(right, ast.Constant) and (isinstance(op, ast.Gt) and right.value == 0
                                                         or isinstance(op, ast.GtE) and right.value == 1)):
            return True
    return False


def _call_name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _is_raises(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and f.attr in ("raises", "warns") and \
        isinstance(f.value, ast.Name) and f.value.id == "pytest"


def _asserts_really(fn: ast.AST, helpers: set[str]) -> bool:
    """Whether the function has a real assertion (see the module's doc)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert) and not weak(node.test):
            return True
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if _is_raises(node) or (name and (name.startswith(HELPER_PREFIXES) or name in helpers)):
                return True
    return False


def _functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _asserting_helpers(tree: ast.Module) -> set[str]:
    """The file's non-test functions that assert, directly or through each other."""
    funcs = [f for f in _functions(tree) if not f.name.startswith("test")]
    helpers: set[str] = set()
    while True:
        more = {f.name for f in funcs if f.name not in helpers and _asserts_really(f, helpers)}
        if not more:
            return helpers
        helpers |= more


def _tests(tree: ast.Module):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and n.name.startswith("test"))


def flagged(source: str, filename: str) -> list[str]:
    """file::function of each test whose assertions are all weak."""
    tree = ast.parse(source, filename)
    helpers = _asserting_helpers(tree)
    return [f"{filename}::{t.name}" for t in _tests(tree) if not _asserts_really(t, helpers)]


def _all_flagged() -> list[str]:
    out = []
    for path in sorted(TESTS.glob("test_*.py")):
        out += flagged(path.read_text(encoding="utf-8"), path.name)
    return out


def test_every_test_asserts_something_real():
    assert [name for name in _all_flagged() if name not in EXCEPTIONS] == []


def test_the_exceptions_are_few_and_still_needed():
    # an exception that no longer applies (the test was strengthened or gone) must go
    assert len(EXCEPTIONS) <= 10
    assert sorted(set(EXCEPTIONS) - set(_all_flagged())) == []
    assert all(reason.strip() for reason in EXCEPTIONS.values())


# --- the lint itself can fail --------------------------------------------------------

@pytest.mark.parametrize("body", [
    "r = client.get('/')\nassert r.status_code == 200",
    "resp = get()\nassert resp.status == '200 OK'",
    "x = f()\nassert x",
    "x = f()\nassert x is not None",
    "x = f()\nassert len(x)",
    "x = f()\nassert x != []",
    "x = f()\nassert len(x) > 0",
    "r = get()\nassert r.status_code == 200 and r.data",
    "r = get()\nassert r.json['items']",
    "x = f()",  # no assertion at all
])
def test_the_lint_flags_a_weak_test(body):
    source = "def test_it(client):\n" + textwrap.indent(body, "    ") + "\n"
    assert flagged(source, "test_x.py") == ["test_x.py::test_it"]


@pytest.mark.parametrize("source", [
    "def test_it():\n    assert f() == {'a': 1}\n",
    "def test_it():\n    r = get()\n    assert r.status_code == 200\n    assert r.text == 'Law 27'\n",
    "import pytest\ndef test_it():\n    with pytest.raises(ValueError):\n        f()\n",
    "def check_page(r):\n    assert r.text == 'x'\ndef test_it():\n    check_page(get())\n",
    "def _inner(r):\n    assert r == 1\ndef _outer(r):\n    _inner(r)\ndef test_it():\n    _outer(get())\n",
    "class TestA:\n    def test_it(self):\n        assert f() == 2\n",
])
def test_the_lint_passes_a_real_test(source):
    assert flagged(source, "test_x.py") == []
