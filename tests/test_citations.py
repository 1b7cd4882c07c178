"""The citation grammar: every form the texts use, and every form people type."""
from __future__ import annotations

import pytest

from laws import citations


def found(text: str) -> list[tuple]:
    return [(c.raw, c.law, c.path, c.outside) for c in citations.find(text)]


@pytest.mark.parametrize("text, expected", [
    ("Law 12C1(b) applies", [("Law 12C1(b)", 12, "C1(b)", "")]),
    ("see Laws 47E and 41.", [("Laws 47E", 47, "E", ""), ("41", 41, "", "")]),
    ("Laws 61 to 64 apply", [("Laws 61", 61, "", ""), ("61 to 64", 62, "", ""), ("61 to 64", 63, "", ""),
                             ("64", 64, "", "")]),
    ("but see C1(b).", [("C1(b)", None, "C1(b)", "")]),
    ("[and see C1(d)] the Director", [("C1(d)", None, "C1(d)", "")]),
    ("see B2(a)(v) above", [("B2(a)(v)", None, "B2(a)(v)", "")]),
    ("(Law 16 — Unauthorized Information — may apply.)", [("Law 16", 16, "", "")]),
    ("the rights provided in (a), (b) and (c) of Law 42 if",
     [("(a)", 42, "(a)", ""), ("(b)", 42, "(b)", ""), ("(c)", 42, "(c)", ""), ("Law 42", 42, "", "")]),
    ("(see Proprieties 4),", [("Proprieties 4", None, "4", "Proprieties")]),
    ("(Club Law 64)", [("Club Law 64", None, "64", "Club Law")]),
    ("Laws 4, 12C2 and 91.", [("Laws 4", 4, "", ""), ("12C2", 12, "C2", ""), ("91", 91, "", "")]),
    ("unless Law 64(d) applies", [("Law 64(d)", 64, "(d)", "")]),
    ("Law 40B2(a)(v)", [("Law 40B2(a)(v)", 40, "B2(a)(v)", "")]),
    ("(see C2 below)", [("C2", None, "C2", "")]),
    ("from A and B above", [("A", None, "A", ""), ("B", None, "B", "")]),
    ("penalties may apply (see 4 following).", [("4", None, "4", "")]),
    ("(but see B1 following); or", [("B1", None, "B1", "")]),
    ("Law 16D does not apply but see D following.", [("Law 16D", 16, "D", ""), ("D", None, "D", "")]),
    ("90 or fewer trick points; 13 cards", []),
])
def test_find(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize("query, expected", [
    ("27B1", (27, "27B1")),
    ("L27B1", (27, "27B1")),
    ("law 27 b 1", (27, "27B1")),
    ("Law 27B1", (27, "27B1")),
    ("12C1b", (12, "12C1(b)")),
    ("12 c 1 (b)", (12, "12C1(b)")),
    ("Law 40B2(a)(v)", (40, "40B2(a)(v)")),
    ("law 40 b 2", (40, "40B2")),
    ("64", (64, "64")),
    ("64(a)", (64, "64(a)")),
    ("35.1", (35, "35.1")),
    ("80B2(i)", (80, "80B2(i)")),
    ("lead out of turn", None),
    ("", None),
    ("123", None),
    ("27 insufficient", None),
])
def test_parse(query, expected):
    assert citations.parse(query) == expected


@pytest.mark.parametrize("pid, expected", [
    ("12C1(b)", ["12C1(b)", "12C1", "12C", "12"]),
    ("35.1", ["35.1", "35"]),
    ("64(c)(ii)", ["64(c)(ii)", "64(c)", "64"]),
    ("7", ["7"]),
])
def test_candidates(pid, expected):
    assert citations.candidates(pid) == expected


@pytest.mark.parametrize("text, target", [
    ("see Law 45C4(b)", ("45C4(b)", 45, "")),
    ("see Law 45", ("45", 45, "")),  # a citation naming only a law resolves to the law
    ("see Law 45F", (None, 45, "45F is not in this edition (the nearest is 45)")),
    ("see Law 45C9", (None, 45, "45C9 is not in this edition (the nearest is 45C)")),
    ("see Law 99A", (None, 99, "Law 99 of this edition is not in the corpus (it has Laws 1–93 only)")),
])
def test_a_citation_resolves_only_to_the_provision_it_names(text, target):
    """Issue 25: a new code that moves a provision away leaves the citations
    of it dead; they are unresolved, and say which provision is nearest,
    rather than linked to an ancestor and counted resolved."""
    from laws.references import resolve

    ids = {"45", "45A", "45B", "45C", "45C4", "45C4(a)", "45C4(b)", "45D", "45E"}
    [cite] = citations.find(text)
    assert resolve(cite, "12A", 12, ids, set(range(1, 94))) == target
