"""An edition's life as data: `published` and `in_force_from` in the manifest,
the code in force resolved when the store is built (LAWS_TODAY, LAWS_IN_FORCE),
and the site following it on the day a new code is published and on the day
it takes effect.

The site tests add a made-up 2027 code to a copy of the corpus (2017 Laws
33-40 transcribed, as tests/test_compare_new_edition.py makes it), published
1 June 2027 and in force from 1 September 2027, and build it twice: as of
15 June 2027 (published, not yet in force) and as of 1 September 2027 (the
day it takes effect).  2017 keeps its `in_force = true` alias throughout.
"""
from __future__ import annotations

import html
import re
import shutil
from datetime import date

import pytest

from laws import manifest, queries, store
from laws.build import build, current_store, failure, is_stale
from laws.checkers import codes as checker_codes
from laws.model import SourceError
from tests.conftest import CORPUS, shared_build, shared_lines

BEFORE, ON_THE_DAY = "2027-06-15", "2027-09-01"


# --- the manifest's fields ---------------------------------------------------------

SMALL = """
[[edition]]
id = "2007"
title = "Laws 2007"
year = 2007
kind = "code"
family = "duplicate"
laws = "1-2"
{e2007}
[[edition]]
id = "2017"
title = "Laws 2017"
year = 2017
kind = "code"
family = "duplicate"
laws = "1-2"
{e2017}
[[edition]]
id = "2027"
title = "Laws 2027"
year = 2027
kind = "code"
family = "duplicate"
laws = "1-2"
{e2027}
[[edition]]
id = "1993-rubber"
title = "Rubber 1993"
year = 1993
kind = "code"
family = "rubber"
laws = "1-2"

[[edition]]
id = "dbrs-2017"
title = "A guide"
year = 2017
kind = "guide"
laws = "1-2"
guide_to = "2017"
{eguide}
"""


def small_corpus(tmp_path, e2007="", e2017="in_force = true\n", e2027="", eguide=""):
    """A manifest of five editions, each with a one-line source file (the
    manifest is read, never parsed further, by these tests)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = SMALL.format(e2007=e2007, e2017=e2017, e2027=e2027, eguide=eguide)
    for eid in ("2007", "2017", "2027", "1993-rubber", "dbrs-2017"):
        (corpus / f"{eid}.txt").write_text("Law 1\n", encoding="utf-8")
        text += f'\n[[source]]\nfile = "{eid}.txt"\nedition = "{eid}"\ntitle = "t"\nkind = "code"\n' \
                f'parser = "plain"\nlaws = "1-2"\n'
    (corpus / "manifest.toml").write_text(text, encoding="utf-8")
    return corpus


def line_of(corpus, needle: str) -> int:
    """The line of the manifest holding `needle` (the last such line)."""
    lines = (corpus / "manifest.toml").read_text(encoding="utf-8").splitlines()
    return max(i for i, line in enumerate(lines, 1) if needle in line)


@pytest.fixture(autouse=True)
def no_settings(monkeypatch):
    """Each test says the date and the override it means (a deployment's
    environment must not leak into them)."""
    monkeypatch.delenv("LAWS_TODAY", raising=False)
    monkeypatch.delenv("LAWS_IN_FORCE", raising=False)


def test_the_dates_are_read_as_dates(tmp_path):
    corpus = small_corpus(tmp_path, e2027='published = 2027-06-01\nin_force_from = "2027-09-01"\n')
    m = manifest.load(corpus, as_of=date(2027, 6, 15))
    e = m.edition("2027")
    assert (e.published, e.in_force_from, e.declared_in_force) == (date(2027, 6, 1), date(2027, 9, 1), False)
    assert m.edition("2017").declared_in_force is True
    assert (m.edition("2017").published, m.edition("2017").in_force_from) == (None, None)


def test_the_alias_alone_puts_its_code_in_force(tmp_path):
    m = manifest.load(small_corpus(tmp_path), as_of=date(2030, 1, 1))
    assert [(e.id, e.in_force, e.status, e.superseded_by) for e in m.editions] == [
        ("2007", False, "superseded", "2017"),
        ("2017", True, "in force", None),
        ("2027", False, "published", None),  # in the manifest, no date yet: published, not in force
        ("1993-rubber", False, None, None),
        ("dbrs-2017", False, None, None),
    ]


@pytest.mark.parametrize("where, edit, needle, message", [
    ("e2027", 'in_force_from = "soon"\n', "in_force_from",
     "edition '2027': in_force_from must be a date like 2027-09-01, not 'soon'"),
    ("e2027", "published = 2027\n", "published",
     "edition '2027': published must be a date like 2027-09-01, not 2027"),
    ("e2027", 'published = "2027-02-30"\n', "published",
     "edition '2027': published must be a date like 2027-09-01, not '2027-02-30'"),
    ("e2027", "in_force_from = 2027-09-01T10:00:00\n", "in_force_from",
     "edition '2027': in_force_from must be a date like 2027-09-01, without a time of day"),
    ("e2027", "published = 2027-06-01\nin_force_from = 2027-05-31\n", "in_force_from",
     "edition '2027': in_force_from (2027-05-31) is before published (2027-06-01); "
     "a code takes effect on or after the day it is published"),
    ("e2027", "in_force = true\n", "in_force = true",
     "editions 2017 and 2027 are both marked in_force; only one code is in force "
     "(give the newer one its in_force_from date instead)"),
    ("e2007", "in_force = true\nin_force_from = 2008-01-01\n", "in_force = true",
     "edition '2007': give in_force_from (the day it takes effect) or in_force = true "
     "(in force, date not recorded), not both"),
    ("eguide", "in_force_from = 2017-09-01\n", "in_force_from",
     "edition 'dbrs-2017': only a code can be in force"),
])
def test_a_bad_value_is_named_with_its_line(tmp_path, where, edit, needle, message):
    corpus = small_corpus(tmp_path, **{where: edit})
    line = line_of(corpus, needle) if where != "e2007" else next(
        i for i, l in enumerate((corpus / "manifest.toml").read_text().splitlines(), 1) if l == "in_force = true")
    with pytest.raises(SourceError) as err:
        manifest.load(corpus, as_of=date(2027, 1, 1))
    assert str(err.value) == f"manifest.toml, line {line}: {message}"


# --- the resolution ----------------------------------------------------------------

DATED = "published = 2027-06-01\nin_force_from = 2027-09-01\n"


@pytest.mark.parametrize("today, statuses", [
    ("2027-05-01", "2007 superseded by 2017; 2017 in force; 2027 published"),  # in the corpus before its day
    ("2027-08-31", "2007 superseded by 2017; 2017 in force; 2027 published"),
    ("2027-09-01", "2007 superseded by 2017; 2017 superseded by 2027; 2027 in force"),
    ("2031-01-01", "2007 superseded by 2017; 2017 superseded by 2027; 2027 in force"),
])
def test_the_code_in_force_as_of_laws_today(tmp_path, monkeypatch, today, statuses):
    corpus = small_corpus(tmp_path, e2027=DATED)
    monkeypatch.setenv("LAWS_TODAY", today)
    m = manifest.load(corpus)
    assert (m.as_of, m.statuses()) == (date.fromisoformat(today), statuses)
    # the checkers, without a store, follow the same resolution
    assert checker_codes.from_manifest(corpus).in_force == m.code_in_force().id


def test_a_dated_older_code_does_not_outrank_a_newer_alias(tmp_path):
    corpus = small_corpus(tmp_path, e2007="in_force_from = 2008-01-01\n")
    assert manifest.load(corpus, as_of=date(2020, 1, 1)).statuses() == (
        "2007 superseded by 2017; 2017 in force; 2027 published")


def test_laws_in_force_overrides_the_dates(tmp_path, monkeypatch):
    corpus = small_corpus(tmp_path, e2027=DATED)
    monkeypatch.setenv("LAWS_TODAY", ON_THE_DAY)
    monkeypatch.setenv("LAWS_IN_FORCE", "2017")  # a deployment holding back the switch
    m = manifest.load(corpus)
    assert (m.resolved_how(), m.statuses()) == (
        "LAWS_IN_FORCE=2017", "2007 superseded by 2017; 2017 in force; 2027 published")
    monkeypatch.setenv("LAWS_TODAY", BEFORE)
    monkeypatch.setenv("LAWS_IN_FORCE", "2027")  # ... or making it early
    assert manifest.load(corpus).statuses() == "2007 superseded by 2017; 2017 superseded by 2027; 2027 in force"


@pytest.mark.parametrize("variable, value, message", [
    ("LAWS_IN_FORCE", "2099", "the environment: LAWS_IN_FORCE is '2099', which names no code of manifest.toml "
                              "(its codes: 2007, 2017, 2027, 1993-rubber); name one of them, or unset it to go by the dates"),
    ("LAWS_IN_FORCE", "dbrs-2017", "the environment: LAWS_IN_FORCE names the guide 'dbrs-2017', not a code of "
                                   "manifest.toml (its codes: 2007, 2017, 2027, 1993-rubber); name one of them, "
                                   "or unset it to go by the dates"),
    ("LAWS_TODAY", "1 September 2027", "the environment: LAWS_TODAY is '1 September 2027', which is not a date: "
                                       "write it YYYY-MM-DD (2027-09-01), or unset it for today"),
])
def test_a_bad_setting_fails_the_build_naming_the_variable(tmp_path, monkeypatch, variable, value, message):
    corpus = small_corpus(tmp_path, e2027=DATED)
    monkeypatch.setenv(variable, value)
    with pytest.raises(SourceError) as err:
        build(corpus, tmp_path / "data", echo=lambda *_: None)
    assert failure(err.value) == message
    assert not current_store(tmp_path / "data").exists()


# --- the site, before and on the day 2027 takes effect -------------------------------

@pytest.fixture(scope="module")
def corpus_2027(tmp_path_factory):
    from laws.corrections import Corrections
    from laws.parsers import get
    from test_compare_new_edition import NEW_FILE, SOURCE_2017, manifest_2027, plain_transcription

    corpus = tmp_path_factory.mktemp("corpus-life") / "corpus"
    shutil.copytree(CORPUS, corpus)
    source = next(s for s in manifest.load(corpus).sources if s.file == SOURCE_2017)
    parsed = get(source.parser)(source.path.read_bytes().decode(source.encoding), source, Corrections.load(corpus), {})
    text = "\n".join(plain_transcription(law) for law in parsed.laws if 33 <= law.number <= 40)
    (corpus / NEW_FILE).write_text(text.replace("is deemed to be", "is considered to be"), encoding="utf-8")
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as f:
        f.write(manifest_2027("33-40", "2017 Laws 33-40 transcribed, one word changed", DATED))
    return corpus


def _site(corpus, tmp_path_factory, today):
    """(an app serving the corpus built as of `today`, the build's last
    line): the session's one build of it, shared with the other modules that
    import these fixtures."""
    from app import create_app

    data = shared_build(tmp_path_factory, corpus, today=today)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAWS_TODAY", today)
        mp.delenv("LAWS_IN_FORCE", raising=False)
        app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})
    return app, shared_lines(data)[-1]


@pytest.fixture(scope="module")
def before(corpus_2027, tmp_path_factory):
    return _site(corpus_2027, tmp_path_factory, BEFORE)


@pytest.fixture(scope="module")
def on_the_day(corpus_2027, tmp_path_factory):
    return _site(corpus_2027, tmp_path_factory, ON_THE_DAY)


def home_cards(client) -> list[tuple[str, str | None]]:
    """(edition id, the label beside its title) of each code on the home page, in order."""
    page = client.get("/").get_data(as_text=True)
    return [(eid, html.unescape(label) if label else None) for eid, label in re.findall(
        r'<h3><a href="/([^/"]+)/">[^<]*</a>(?: <span class="badge[^"]*">([^<]*)</span>)?</h3>', page)]


def banner(page: str, aside_id: str) -> tuple[str, list[str]] | None:
    """The words of the note `aside_id` and the links in it, or None."""
    m = re.search(rf'<aside class="[^"]*" id="{aside_id}" role="note">(.*?)</aside>', page, re.S)
    if not m:
        return None
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m[1])).split())
    return re.sub(r" ([.;,)])", r"\1", words), [html.unescape(h) for h in re.findall(r'href="([^"]+)"', m[1])]


def test_the_build_says_how_it_resolved(before, on_the_day):
    assert before[1].endswith("; as of 2027-06-15: 2007 superseded by 2017; 2017 in force; 2027 published")
    assert on_the_day[1].endswith("; as of 2027-09-01: 2007 superseded by 2017; 2017 superseded by 2027; "
                                  "2027 in force")


def test_the_store_keeps_each_editions_life(before):
    app, _ = before
    with app.app_context():
        from laws.web.db import get_db
        eds = {e["id"]: e for e in queries.editions(get_db())}
    life = {eid: (e["in_force"],) + tuple(e[k] for k in queries.STATUS_FIELDS) for eid, e in eds.items()}
    assert life == {
        "2017": (True, "in force", None, None, None),
        "2007": (False, "superseded", None, None, "2017"),
        "2027": (False, "published", "2027-06-01", "2027-09-01", None),
        "1993-rubber": (False, None, None, None, None),
        "dbrs-2017": (False, None, None, None, None),
    }
    assert [e["id"] for e in queries.editions(store.connect(current_store(app.config["DATA_DIR"])))][0] == "2017"


def test_api_editions_give_the_status_fields(before):
    eds = {e["id"]: e for e in before[0].test_client().get("/api/editions").get_json()}
    assert {k: eds["2027"].get(k) for k in ("in_force",) + queries.STATUS_FIELDS} == {
        "in_force": False, "status": "published", "published": "2027-06-01", "in_force_from": "2027-09-01",
        "superseded_by": None}


def test_home_before_the_day(before):
    assert home_cards(before[0].test_client()) == [
        ("2017", "in force"), ("2027", "in force from 1 September 2027"), ("2007", "superseded by 2017"),
        ("1993-rubber", None)]


def test_a_published_codes_pages_say_it_is_not_yet_in_force(before):
    client = before[0].test_client()
    note = ("Not yet in force. Published 1 June 2027; in force from 1 September 2027. "
            "The code in force is the 2017 Laws.")
    law = client.get("/2027/law/33").get_data(as_text=True)
    assert banner(law, "not-yet-in-force") == (note, ["/2017/law/33"])
    assert banner(law, "in-force") is None
    contents = client.get("/2027/").get_data(as_text=True)
    assert banner(contents, "not-yet-in-force") == (note, ["/2017/"])


def test_the_code_in_force_and_the_older_code_do_not_point_to_the_published_one(before):
    client = before[0].test_client()
    law_2017 = client.get("/2017/law/33").get_data(as_text=True)
    assert (banner(law_2017, "in-force"), banner(law_2017, "not-yet-in-force")) == (None, None)
    assert banner(client.get("/2007/law/33").get_data(as_text=True), "in-force") == (
        "Not the code in force. This is the Laws of Duplicate Bridge 2007; tables today rule by the Laws of "
        "Duplicate Bridge 2017. Law 33 there: the same text. Law 33 in the 2017 Laws",
        ["/2017/law/33", "/2017/law/33"])


def test_on_the_day_2027_is_in_force_and_2017_superseded(on_the_day):
    client = on_the_day[0].test_client()
    assert home_cards(client) == [
        ("2027", "in force"), ("2017", "superseded by 2027"), ("2007", "superseded by 2017"), ("1993-rubber", None)]
    assert banner(client.get("/2027/law/33").get_data(as_text=True), "not-yet-in-force") is None
    assert banner(client.get("/2017/law/33").get_data(as_text=True), "in-force") == (
        "Not the code in force. This is the Laws of Duplicate Bridge 2017; tables today rule by the Laws of "
        "Duplicate Bridge 2027 (test). Law 33 there: changed (1 provision changed). Law 33 in the 2027 Laws "
        "What changed", ["/2027/law/33", "/2027/law/33", "/compare/33?from=2017&to=2027"])
    assert client.get("/go?q=35").headers["Location"] == "/2027/law/35"


def test_a_store_built_before_the_day_is_stale_on_it(before, monkeypatch):
    app, _ = before
    corpus, data = app.config["CORPUS_DIR"], app.config["DATA_DIR"]
    monkeypatch.setenv("LAWS_TODAY", "2027-08-31")
    assert is_stale(corpus, data) is False
    monkeypatch.setenv("LAWS_TODAY", ON_THE_DAY)
    assert is_stale(corpus, data) is True  # `python app.py` started that day rebuilds
