"""Which laws the rulings cover (laws/rulings/coverage.py, issue 21): the
README's table is the data's, every law of 2017 and 2007, and of the rubber
code's Laws 41 to 71, has a ruling, a checker or its one-line reason, and each law's page links to the guided
procedures that apply it."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from laws.rulings import coverage, guided

ROOT = Path(__file__).resolve().parents[1]
# the laws issue 21 allows to carry a reason instead of a ruling
MAY_GO_UNRULED = {1, 3, 4, 5, 76, 80, 81, 88, 89}


# store-free checks of the table's parts first (the store is built once, for the tests after them)
LAW_1_WHY = "— the pack and the rank of cards and suits: nothing to rectify"
REVOKE_2017 = "play ruling, guided: The end of the round and late play, guided: Dummy's rights and limits, checker: revoke"


def test_the_table_of_a_few_laws():
    laws = {64: "Procedure after Establishment of a Revoke", 1: "The Cards", 99: "Nothing"}
    present = {"2017": {1, 64, 99}, "2007": {1, 64}, "1993-rubber": {64}}
    absent = coverage.ABSENT
    assert coverage.table(laws, present).splitlines() == [
        "| law | 2017 | 2007 | 1993-rubber |",
        "|---|---|---|---|",
        f"| 1 The Cards | {LAW_1_WHY} | {LAW_1_WHY} | {absent} |",
        f"| 64 Procedure after Establishment of a Revoke | {REVOKE_2017} | {REVOKE_2017} | play ruling, guided: "
        "Dummy's rights and limits, checker: revoke |",
        f"| 99 Nothing | **none** | {absent} | {absent} |"]
    # without the store's law sets every edition is taken to have every law
    assert coverage.table({1: "The Cards"}).splitlines()[2] == f"| 1 The Cards | {LAW_1_WHY} | {LAW_1_WHY} | {LAW_1_WHY} |"


def test_what_covers_the_rubber_codes_laws():
    cover = coverage.covered("1993-rubber")
    assert sorted(cover) == list(range(41, 72))  # its Laws 41 to 71, each covered
    assert cover[48] == ["play ruling", "checker: penalty-card"]
    assert cover[64] == ["play ruling", "guided: Dummy's rights and limits", "checker: revoke"]
    assert cover[68] == ["guided: Claims and concessions"]
    assert coverage.covered("1066") == {}


def test_the_laws_missing_a_ruling_a_checker_or_a_reason():
    assert coverage.missing({"2017": {1, 16, 99}, "2007": {16}}) == {"2017": [99], "2007": [], "1993-rubber": []}
    assert coverage.reasons()[1] == LAW_1_WHY.removeprefix("— ")


def test_the_readme_section_between_the_markers():
    text = f"before\n{coverage.START}\n| law |\n{coverage.END}\nafter"
    assert coverage.readme_section(text) == "| law |"
    assert coverage.readme_section("no markers") is None
    assert coverage.readme_section(f"{coverage.START} only the start") is None


def test_the_readme_table_is_generated_from_the_data(db):
    assert coverage.readme_section((ROOT / "README.md").read_text(encoding="utf-8")) == coverage.table(
        coverage.law_titles(db), coverage.law_sets(db))


def test_the_rubber_column_covers_its_laws_41_to_71_and_marks_the_others_absent(db):
    assert coverage.EDITIONS == ("2017", "2007", "1993-rubber")
    assert coverage.law_sets(db)["1993-rubber"] == set(range(41, 72))
    rows = {int(line.split()[1]): line for line in coverage.table(coverage.law_titles(db), coverage.law_sets(db))
            .splitlines()[2:]}
    assert rows[40].endswith(f"| {coverage.ABSENT} |") and rows[72].endswith(f"| {coverage.ABSENT} |")
    # the guided procedures written from the rubber code's own text (68-71, 42-43, 65-66)
    cover = coverage.covered("1993-rubber")
    for n, title in ((42, "Dummy's rights and limits"), (43, "Dummy's rights and limits"),
                     (65, "Quitted tricks and a disputed count"), (66, "Quitted tricks and a disputed count"),
                     (68, "Claims and concessions"), (69, "Claims and concessions"),
                     (70, "Claims and concessions"), (71, "Claims and concessions")):
        assert f"guided: {title}" in cover[n], n
        assert coverage.ABSENT not in rows[n], n


def test_only_the_laws_allowed_carry_a_reason():
    assert set(coverage.reasons()) <= MAY_GO_UNRULED
    assert all(0 < len(r.split()) <= 30 for r in coverage.reasons().values())


def test_every_law_has_a_ruling_a_checker_or_a_reason(db):
    laws = {ed: {n for (n,) in db.execute("select number from laws where edition = ?", [ed])}
            for ed in coverage.EDITIONS}
    assert coverage.missing(laws) == {ed: [] for ed in coverage.EDITIONS}


@pytest.mark.parametrize("edition", coverage.EDITIONS)
def test_each_law_page_links_to_the_guided_procedures_applying_it(client, edition):
    for procedure, laws in guided.laws_applied(edition).items():
        for n in sorted(laws):
            page = client.get(f"/{edition}/law/{n}")
            assert page.status_code == 200
            assert f'href="/rulings/guided/{procedure}?edition={edition}"' in page.get_data(as_text=True), (procedure, n)


# --- the command: `python -m laws.rulings.coverage [--write]`, on a copy of the repository's layout

# the README's words after the table may quote the markers (as the coverage section's own text could)
AFTER = f"\nThe table between `{coverage.START}` and `{coverage.END}` is written by the command.\n"


@pytest.fixture
def repo(tmp_path, monkeypatch, built):
    """A repository root with the tests' store as its data/ and a README of its own."""
    (tmp_path / "laws" / "rulings").mkdir(parents=True)
    (tmp_path / "data").symlink_to(built, target_is_directory=True)
    monkeypatch.setattr(coverage, "__file__", str(tmp_path / "laws" / "rulings" / "coverage.py"))
    return tmp_path


def test_the_command_writes_the_table_between_the_markers(repo, db):
    readme = repo / "README.md"
    readme.write_text(f"# Lawbook\n{coverage.START}\n| an old table |\n{coverage.END}{AFTER}", encoding="utf-8")
    assert coverage.main(["--write"]) == 0
    table = coverage.table(coverage.law_titles(db), coverage.law_sets(db))
    assert readme.read_text(encoding="utf-8") == f"# Lawbook\n{coverage.START}\n{table}\n{coverage.END}{AFTER}"


def test_the_command_reads_its_arguments_from_the_command_line(repo, db, monkeypatch):
    readme = repo / "README.md"
    readme.write_text(f"{coverage.START}\n{coverage.END}\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["coverage.py", "--write"])
    assert coverage.main() == 0
    table = coverage.table(coverage.law_titles(db), coverage.law_sets(db))
    assert readme.read_text(encoding="utf-8") == f"{coverage.START}\n{table}\n{coverage.END}\n"


def test_the_command_prints_the_table_and_leaves_the_readme_alone(repo, db, capsys):
    readme = repo / "README.md"
    readme.write_text(f"{coverage.START}\n| an old table |\n{coverage.END}\n", encoding="utf-8")
    assert coverage.main([]) == 0
    assert capsys.readouterr() == (coverage.table(coverage.law_titles(db), coverage.law_sets(db)) + "\n", "")
    assert readme.read_text(encoding="utf-8") == f"{coverage.START}\n| an old table |\n{coverage.END}\n"


def test_the_command_refuses_a_readme_without_the_markers(repo, capsys):
    readme = repo / "README.md"
    readme.write_text("# Lawbook\nno table here\n", encoding="utf-8")
    assert coverage.main(["--write"]) == 1
    assert capsys.readouterr() == ("", f"README.md has no markers {coverage.START} … {coverage.END}\n")
    assert readme.read_text(encoding="utf-8") == "# Lawbook\nno table here\n"
