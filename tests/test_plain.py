"""The plain-words layer (laws/plain.py, corpus/plain/): every provision with
text in 2017 and 2007 has a reviewed entry, each entry passes the reviewer's
checklist, `same_as` joins only provisions of the same words, the build
reports what it lacks and refuses what it cannot place, the law pages and
the API carry the words, and no gloss repeats a held-out question."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from rapidfuzz import fuzz, process, utils
from whoosh.analysis import STOP_WORDS

from laws import plain
from laws.build import BuildError, build
from laws.model import SourceError
from search.evaluate import HELDOUT, load_heldout

from conftest import shared_lines

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
EDITIONS = ("2017", "2007")


def entries(edition: str) -> dict[str, plain.Gloss]:
    return plain.load(CORPUS, edition)


def resolved(edition: str) -> dict[str, plain.Gloss]:
    by_edition = {e: entries(e) for e in EDITIONS}
    return {pid: plain.resolve(g, by_edition) for pid, g in by_edition[edition].items()}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_provision_with_text_has_an_entry_and_none_is_stale(db, edition):
    with_text = {r[0]: r[1] for r in db.execute(
        "select id, text from provisions where edition = ? and trim(text) != ''", [edition])}
    have = entries(edition)
    assert sorted(set(with_text) - set(have)) == []
    assert sorted(set(have) - set(with_text)) == []
    stale = sorted(pid for pid, g in have.items() if g.text_hash != plain.text_hash(with_text[pid]))
    assert stale == []
    assert tuple(db.execute("select count(*), sum(stale) from glosses where edition = ?", [edition]).fetchone()) == (
        len(with_text), 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_entry_passes_the_checklist(db, edition):
    texts = {r[0]: (r[1], r[2]) for r in db.execute("select id, text, law from provisions where edition = ?",
                                                     [edition])}
    cited: dict[str, set[int]] = {}
    for f, law in db.execute("select from_id, to_law from refs where edition = ? and to_law is not null", [edition]):
        cited.setdefault(f, set()).add(law)
    problems = {pid: plain.problems(g, texts[pid][0], texts[pid][1], cited.get(pid, set()))
                for pid, g in resolved(edition).items()}
    assert {pid: p for pid, p in problems.items() if p} == {}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_entry_is_reviewed(edition):
    pending = sorted(pid for pid, g in entries(edition).items()
                     if g.reviewed_by.strip().lower() in ("", "pending", "reviewer"))
    assert pending == []


def test_same_as_joins_only_the_same_words(db):
    """Checked here from the store's texts, independently of the build's own
    check and of the comparison's aligner."""
    def words(text: str) -> list[str]:
        text = re.sub(r"[*†‡§]|\[\d+\]", "", text).lower().replace("’", "'").replace("‘", "'")
        return re.findall(r"[a-z0-9']+", text)

    joined = [(pid, g.same_as) for pid, g in entries("2007").items() if g.same_as]
    assert len(joined) > 300
    differ = []
    for pid, target in joined:
        edition, other = target.split(":")
        a = db.execute("select text from provisions where edition = '2007' and id = ?", [pid]).fetchone()[0]
        b = db.execute("select text from provisions where edition = ? and id = ?", [edition, other]).fetchone()[0]
        if words(a) != words(b):
            differ.append((pid, target))
    assert differ == []


def test_judgement_provisions_are_flagged_and_say_so(db):
    """A provision whose text poses a test the Director judges is flagged, and
    its plain words name the Director's judgement (checked for every entry by
    the checklist; here, the known ones by name)."""
    got = {pid: (g.judgement, bool(plain.NAMES_JUDGEMENT.search(g.plain))) for pid, g in resolved("2017").items()
           if pid in ("16B1(a)", "16B1(b)", "12C1(b)", "73E2", "70A")}
    assert got == {"16B1(a)": (True, True), "16B1(b)": (True, True), "12C1(b)": (True, True),
                   "73E2": (True, True), "70A": (True, True)}
    posing = [r[0] for r in db.execute("select id, text from provisions where edition = '2017' order by ord")
              if plain.poses_judgement(r[1] or "")]
    assert posing == ["12A1", "13B1", "16B1(a)", "16B1(b)", "16B3", "16C2", "16D2(c)", "20F6", "21B1(a)", "21B3",
                      "23C", "27D", "40C1", "45E1", "45E2", "50E4", "64C1", "64C2(b)", "84D"]
    assert [pid for pid in posing if not resolved("2017")[pid].judgement] == []


def test_laws_named_reads_every_form():
    assert plain.laws_named("see Law 12C1(b) and Laws 16 and 73; Laws 80-91, Law 9") == {12, 16, 73, 80, 91, 9}
    assert plain.laws_named("partner bid 2H at trick 5 of 13") == set()


def test_the_checklist_finds_each_fault():
    text = "A player may not choose a call demonstrably suggested over another by unauthorized information."
    good = plain.Gloss("2017", "x", "After partner's hesitation a player must not pick the action it suggests.",
                       ("partner tanked",), False, plain.text_hash(text), "r", None, "f", 1)
    assert plain.problems(good, text, 16, set()) == []
    short = plain.Gloss(**{**good.__dict__, "plain": "Do not use UI."})
    assert plain.problems(short, text, 16, set()) == ["plain has 4 words (it takes 8 to 60)"]
    copy = plain.Gloss(**{**good.__dict__, "plain": text})
    assert [p.split(" (")[0] for p in plain.problems(copy, text, 16, set())] == ["plain is a near copy of the text"]
    stray = plain.Gloss(**{**good.__dict__, "situations": ("see Law 40 for this",)})
    assert plain.problems(stray, text, 16, {73}) == ["names Law 40, which the provision does not cite"]
    judged = "The Director deems the call to have been made."
    unflagged = plain.Gloss(**{**good.__dict__, "text_hash": plain.text_hash(judged)})
    assert plain.problems(unflagged, judged, 16, set()) == [
        "the text poses a judgement (e.g. 'deems') but the entry is not flagged judgement = true"]
    flagged_silent = plain.Gloss(**{**good.__dict__, "judgement": True})
    assert plain.problems(flagged_silent, judged, 16, set()) == [
        "flagged judgement but plain does not name the Director's judgement "
        "(say \"the Director's judgement\" or \"the Director judges\")"]


# --- the build ------------------------------------------------------------------

@pytest.fixture()
def corpus_copy(tmp_path) -> Path:
    dst = tmp_path / "corpus"
    shutil.copytree(CORPUS, dst)
    return dst


def test_the_build_reports_coverage_per_edition(built):
    lines = shared_lines(built)  # what the session's build of the corpus printed
    got = {line.split(":")[0]: re.search(r"glosses: \d+ of \d+, \d+ stale", line) for line in lines if ":" in line}
    assert got["2017"][0] == "glosses: 663 of 663, 0 stale"
    assert got["2007"][0] == "glosses: 608 of 608, 0 stale"
    assert got["1993-rubber"] is None  # out of scope: no folder, no line


def test_a_source_changed_under_a_same_as_entry_makes_it_stale_not_an_error(tmp_path, corpus_copy, built):
    """A new reading of a source (a correction, a new printing) must not stop
    the build because a gloss was written for the old one."""
    assert entries("2007")["76A1"].same_as == "2017:76A1"
    lines = shared_lines(built)  # the session's build of the corpus as it is
    assert "glosses: 608 of 608, 0 stale" in lines[0]
    source = next(corpus_copy.glob("000_*.txt"))
    raw = source.read_text(encoding="utf-8")
    assert raw.count("playing area") > 0
    source.write_text(raw.replace("playing area", "playing room", 1), encoding="utf-8")
    lines.clear()
    build(corpus_copy, tmp_path / "data2", echo=lines.append)
    assert re.search(r"glosses: 608 of 608, [1-9]\d* stale", lines[0]), lines[0]


def test_a_changed_text_counts_its_entry_stale(tmp_path, corpus_copy):
    path = next((corpus_copy / "plain" / "2017").glob("03-*.toml"))
    raw = path.read_text(encoding="utf-8")
    h = entries("2017")["16B1(a)"].text_hash
    assert raw.count(f'text_hash = "{h}"') == 1
    path.write_text(raw.replace(f'text_hash = "{h}"', 'text_hash = "000000000000"'), encoding="utf-8")
    lines: list[str] = []
    build(corpus_copy, tmp_path / "data", echo=lines.append)
    assert "glosses: 663 of 663, 1 stale" in next(line for line in lines if line.startswith("2017:"))


@pytest.mark.parametrize("entry, message", [
    ('["99Z9"]\nplain = "x"\ntext_hash = "a"\nreviewed_by = "r"\n', "the 2017 Laws have no provision 99Z9"),
    ('["16B"]\nplain = "x"\ntext_hash = "a"\nreviewed_by = "r"\n', "provision 16B has no text of its own"),
    ('["16B1"]\nplain = "x"\ntext_hash = "a"\nreviewed_by = "r"\n', "provision 16B1 has an entry already"),
    ('["99A"]\ntext_hash = "a"\nreviewed_by = "r"\n', "entry 99A has no 'plain' (or same_as)"),
    ('["99A"]\nplain = "x"\ncolour = "red"\ntext_hash = "a"\nreviewed_by = "r"\n', "unknown field 'colour'"),
])
def test_a_bad_entry_stops_the_build_naming_file_and_line(tmp_path, corpus_copy, entry, message):
    extra = corpus_copy / "plain" / "2017" / "99-extra.toml"
    extra.write_text("# a reviewer's slip\n\n" + entry, encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        build(corpus_copy, tmp_path / "data", echo=lambda *_: None)
    assert message in str(exc.value)
    assert str(exc.value).startswith("plain/2017/99-extra.toml, line 3:")


def test_same_as_with_other_words_stops_the_build(tmp_path, corpus_copy):
    extra = corpus_copy / "plain" / "2007" / "99-extra.toml"
    path = next((corpus_copy / "plain" / "2007").glob("03-*.toml"))
    raw = path.read_text(encoding="utf-8")
    block = re.search(r'\["16A1\(a\)"\]\n(?:[^\[\n][^\n]*\n|\n)*', raw)[0]
    path.write_text(raw.replace(block, ""), encoding="utf-8")
    h = entries("2007")["16A1(a)"].text_hash  # written from the text as it is: an error, not a stale entry
    extra.write_text(f'["16A1(a)"]\nsame_as = "2017:16B1(a)"\ntext_hash = "{h}"\nreviewed_by = "r"\n',
                     encoding="utf-8")
    with pytest.raises((SourceError, BuildError)) as exc:
        build(corpus_copy, tmp_path / "data", echo=lambda *_: None)
    assert "but the words differ" in str(exc.value)


# --- what readers see -------------------------------------------------------------

def test_the_law_page_shows_the_plain_words_apart_from_the_law(client):
    html = client.get("/2017/law/16").get_data(as_text=True)
    section = html[html.index('id="16B1(a)"'):]
    section = section[:section.index("</section>")]
    gloss = resolved("2017")["16B1(a)"].plain
    assert 'class="plain-words" aria-label="In plain words, not part of the Laws"' in section
    assert "· not part of the Laws" in section
    from markupsafe import escape
    assert str(escape(gloss)) in section
    assert 'class="plain-toggle"' in html


def test_the_api_gives_each_provision_its_plain_words(client):
    provisions = {p["id"]: p for p in client.get("/api/laws/2007/16").get_json()["provisions"]}
    same = entries("2007")["16D1"]
    assert same.same_as == "2017:16C1"  # 2007 16D1 reads as 2017 16C1: it shares that entry's words
    want = entries("2017")["16C1"]
    assert provisions["16D1"]["plain"] == {"plain": want.plain, "situations": list(want.situations),
                                           "judgement": want.judgement, "stale": False}
    assert provisions["16B"]["plain"] is None  # a heading has no text of its own


# --- the held-out questions stay held out -----------------------------------------

# function words: the rest are content words (a question's nouns, verbs, adjectives)
FUNCTION_WORDS = set(STOP_WORDS) | set("""
i me my mine he him his she her they them their our ours its what whats when how why where who whom which
do does did done was were has had be been being there then so but than also just own
""".split())


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in FUNCTION_WORDS]


def _fives(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + 5]) for i in range(len(words) - 4)}


def copies(gloss: str, question: str) -> tuple[list, int] | None:
    """(the runs of five content words they share, token_set_ratio) when
    `gloss` repeats `question`; None when it does not.  token_set_ratio gives
    any subset 100 (a three-word question inside a sixty-word gloss), which
    is not a copy: it counts when the shorter text has at least two thirds
    of the longer's words."""
    shared = sorted(_fives(_content(gloss)) & _fives(_content(question)))
    a, b = utils.default_process(gloss).split(), utils.default_process(question).split()
    score = round(fuzz.token_set_ratio(gloss, question, processor=utils.default_process))
    comparable = min(len(a), len(b)) * 3 >= max(len(a), len(b)) * 2
    return (shared, score) if shared or (score >= 90 and comparable) else None


def may_copy(text: str, questions: list[str], fives: dict[tuple[str, ...], set[int]]) -> list[int]:
    """The indexes of the `questions` that `copies` could find `text`
    repeats, in order: those sharing a run of five content words with it
    (`fives`: each run's questions) and those its token_set_ratio puts at 89
    or more (rapidfuzz scoring them all in one call, in C, rather than a
    call from Python per pair; 89, not 90, as `copies` rounds).  `copies`
    still judges each one; this only spares it the pairs it cannot count."""
    near = process.extract(utils.default_process(text), questions, scorer=fuzz.token_set_ratio,
                           processor=utils.default_process, score_cutoff=89, limit=None)
    shared = {j for run in _fives(_content(text)) for j in fives.get(run, ())}
    return sorted(shared | {j for _, _, j in near})


def test_no_gloss_repeats_a_held_out_question():
    """No gloss shares five consecutive content words with a held-out
    question, nor scores 90 or more on token_set_ratio against one (see
    `copies`).  Each text of an entry is compared: its plain sentence and each
    of its situations."""
    questions = [q.text for q in load_heldout(HELDOUT)]
    fives: dict[tuple[str, ...], set[int]] = {}
    for j, q in enumerate(questions):
        for run in _fives(_content(q)):
            fives.setdefault(run, set()).add(j)
    found = []
    for edition in EDITIONS:
        for pid, g in entries(edition).items():
            for text in (g.plain, *g.situations):
                for q in (questions[j] for j in may_copy(text, questions, fives)):
                    hit = copies(text, q)
                    if hit:
                        found.append((edition, pid, text, q, *hit))
    assert found == []


def test_may_copy_keeps_every_question_copies_finds():
    """The held-out check asks `copies` only about what `may_copy` keeps: on
    texts that do repeat questions (each question cut, padded or given
    another word), it keeps every one `copies` finds."""
    questions = [q.text for q in load_heldout(HELDOUT)]
    fives: dict[tuple[str, ...], set[int]] = {}
    for j, q in enumerate(questions):
        for run in _fives(_content(q)):
            fives.setdefault(run, set()).add(j)
    texts = [f(q) for q in questions[:40] for f in (
        lambda q: q, lambda q: q.rsplit(" ", 1)[0], lambda q: f"{q} and what then", lambda q: q.replace(" ", " the ", 1))]
    found = [(t, j) for t in texts for j, q in enumerate(questions) if copies(t, q)]
    kept = [(t, j) for t in texts for j in may_copy(t, questions, fives) if copies(t, questions[j])]
    assert [(q, j) for j, q in enumerate(questions[:40]) if (q, j) not in found] == []  # each copies itself
    assert kept == found


def test_copies_finds_a_copy_and_passes_a_subset():
    assert copies("what is the clarification period", "what is the clarification period") == ([], 100)
    assert copies("does NT outrank spades", "does notrump outrank spades") == ([], 93)  # one word spelt otherwise
    assert copies("revoke", "revoke at trick 5 established") is None
    assert copies("after the final pass a defender may ask about the auction",
                  "can a defender ask about the auction after the final pass")[1] >= 90
    assert copies("partner hesitated then bid game quickly today", "partner hesitated then bid game quickly")[0] == [
        ("partner", "hesitated", "bid", "game", "quickly")]
