"""Every checker is documented, tested, and cites provisions that exist in the
built store; the build links the checkers to the laws they implement."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from laws.checkers import registry

CHECKERS = registry.all_checkers()
IDS = [c.id for c in CHECKERS]
TESTS = Path(__file__).parent
REQUIRED = {"board", "score", "imps", "matchpoints", "auction", "artificial-score", "weighted-score",
            "team-average", "trick", "dummy-designation", "penalty-card", "revoke"}


def test_the_required_checkers_exist():
    assert REQUIRED <= set(IDS)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_id_is_lowercase_words_with_hyphens(c):
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", c.id)


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_is_documented(c):
    assert len(c.doc) > 80, f"{c.id} needs a docstring saying what it does, its inputs and its result"
    assert c.title and c.summary
    for name, prop in c.input_schema["properties"].items():
        assert prop.get("title"), f"{c.id}: field {name} needs a title, used in messages and forms"
        assert name in c.doc, f"{c.id}: the docstring does not mention its input {name!r}"
    readme = (Path(registry.__file__).parent / "README.md").read_text(encoding="utf-8")
    assert f"`{c.id}`" in readme, f"{c.id} is not described in laws/checkers/README.md"


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_checker_has_its_own_tests(c):
    """Each checker's id appears, quoted, in a test file of its own part of the
    Laws (not only in the generic registry and web tests)."""
    files = [p for p in TESTS.glob("test_checkers_*.py")
             if p.name not in ("test_checkers_registry.py", "test_checkers_web.py")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    uses = len(re.findall(rf"[\"']{re.escape(c.id)}[\"']", text))
    assert uses >= 2 or c.id == "auction" and "def auction(" in text, f"no tests for checker {c.id}"


@pytest.mark.parametrize("c", CHECKERS, ids=IDS)
def test_example_runs_and_cites_what_the_checker_declares(c):
    out = registry.run(c.id, c.example)
    assert set(out) == {"result", "explanation", "cites", "edition"}
    assert out["explanation"].endswith(".") and len(out["explanation"]) > 20
    assert out["cites"] and set(out["cites"]) <= set(c.cites[out["edition"]])


def test_every_cited_provision_exists_in_the_built_store(db):
    assert registry.missing_cites(db) == []


def _data_folder(tmp_path, editions: dict) -> Path:
    """A data folder like laws/checkers/data with the given editions' files."""
    (tmp_path / "schemas.json").write_text("{}", encoding="utf-8")
    for ed, checkers in editions.items():
        (tmp_path / f"{ed}.json").write_text(json.dumps({"edition": ed, "title": f"Laws {ed}", "checkers": checkers}),
                                             encoding="utf-8")
    return tmp_path


def test_missing_cites_catches_a_provision_that_does_not_exist(db, tmp_path):
    folder = _data_folder(tmp_path, {"2007": {"fake": {"cites": ["77", "77Z"]}},
                                     "1993-rubber": {"fake": {"cites": ["64(e)"]}}})
    fake = registry.Checker("fake", "Fake", {}, [], lambda d, ed: None, folder=folder)
    assert sorted(registry.missing_cites(db, [fake])) == [("fake", "1993-rubber", "64(e)"), ("fake", "2007", "77Z")]


def test_the_build_writes_every_link(db):
    rows = {(r["checker"], r["edition"], r["provision"]) for r in
            db.execute("select checker, edition, provision from checker_cites")}
    assert rows == {(r["checker"], r["edition"], r["provision"]) for r in registry.links()}


@pytest.mark.parametrize("edition, number, checker", [
    ("2007", 2, "board"), ("2007", 77, "score"), ("2007", 78, "imps"), ("2007", 78, "matchpoints"),
    ("2007", 12, "artificial-score"), ("2007", 12, "weighted-score"), ("2007", 86, "team-average"),
    ("2007", 27, "auction"), ("2007", 22, "auction"), ("2007", 44, "trick"), ("2007", 46, "dummy-designation"),
    ("2007", 50, "penalty-card"), ("1993-rubber", 50, "penalty-card"), ("2007", 64, "revoke"),
    ("1993-rubber", 64, "revoke"),
])
def test_law_api_lists_the_checkers_that_cite_it(client, edition, number, checker):
    r = client.get(f"/api/laws/{edition}/{number}")
    assert r.status_code == 200
    assert checker in r.get_json()["checkers"]


def test_law_api_does_not_list_unrelated_checkers(client):
    assert "revoke" not in client.get("/api/laws/2007/77").get_json()["checkers"]
    assert client.get("/api/laws/2007/1").get_json()["checkers"] == []
