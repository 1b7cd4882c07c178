"""The whole store, scanned: coverage, damage, footnotes, attestations, references."""
from __future__ import annotations

import re

import pytest

from conftest import CORPUS

MOJIBAKE = re.compile("в™|п‚|[\uf0a7-\uf0aa]|\ufffd|[\u0400-\u04ff]|â€|Ã.")


def all_texts(db):
    """(where, text) for every piece of text a reader can see."""
    queries = {
        "provision": "select edition || ' ' || id, coalesce(heading, '') || ' ' || coalesce(text, '') from provisions",
        "law title": "select edition || ' ' || number, title from laws",
        "footnote": "select edition || ' ' || provision, text from footnotes",
        "definition": "select edition || ' ' || id, term || ' ' || text from definitions",
        "section": "select edition || ' ' || slug, title || ' ' || text from sections",
        "topic": "select id, title || ' ' || markdown from topics",
        "table": "select edition || ' ' || provision, caption || header || rows from tables",
    }
    for kind, sql in queries.items():
        for where, text in db.execute(sql):
            yield f"{kind} {where}", text or ""


def test_every_edition_has_what_its_sources_cover(db):
    laws = {ed: [n for (n,) in db.execute("select number from laws where edition = ? order by number", [ed])]
            for ed in ("2007", "2017", "1993-rubber")}
    assert laws == {"2007": list(range(1, 94)), "2017": list(range(1, 94)), "1993-rubber": list(range(41, 72))}
    assert db.execute("select count(*) from definitions where edition = '2007'").fetchone()[0] == 62
    assert db.execute("select count(*) from definitions where edition = '2017'").fetchone()[0] == 66
    assert db.execute("select count(*) from topics").fetchone()[0] == 142


def test_titles(db):
    titles = dict(((ed, n), t) for ed, n, t in db.execute("select edition, number, title from laws"))
    assert {k: titles[k] for k in [("2007", 1), ("2007", 16), ("2007", 61), ("2017", 35), ("2017", 40)]} == {
        ("2007", 1): "The Pack – Rank of Cards and Suits",
        ("2007", 16): "Authorized and Unauthorized Information",
        ("2007", 61): "Failure to Follow Suit – Inquiries Concerning a Revoke",
        ("2017", 35): "Inadmissible Calls",
        ("2017", 40): "Partnership Understandings",
    }


def test_no_mojibake_anywhere(db):
    bad = [(where, MOJIBAKE.search(text)[0]) for where, text in all_texts(db) if MOJIBAKE.search(text)]
    assert bad == []


def _slide_breaks() -> list[str]:
    """'word N word' for every slide number that stood between two lines of text
    in the 2007 source: none of them may survive in the store."""
    lines = (CORPUS / "000_f79d4105db5f19c6.txt").read_text(encoding="utf-8").splitlines()
    out = []
    for i in range(1, len(lines) - 1):
        before, line, after = lines[i - 1].strip(), lines[i].strip(), lines[i + 1].strip()
        if re.fullmatch(r"\d{1,3}", line) and re.search(r"[a-z,]$", before) and re.match(r"[a-z(]", after):
            out.append(f"{before.split()[-1]} {line} {after.split()[0]}")
    return out


def test_no_slide_number_survives(db):
    breaks = _slide_breaks()
    assert len(breaks) >= 5  # the source really has numbers mid-sentence
    texts = [text for where, text in all_texts(db) if where.split()[1] == "2007"]
    assert [b for b in breaks if any(b in t for t in texts)] == []


def test_no_footnote_repeated(db):
    rows = db.execute("select edition, law, text, count(*) from footnotes group by edition, law, text "
                      "having count(*) > 1").fetchall()
    assert rows == []
    # nor left in the text of a provision as well
    doubled = [(ed, pid) for ed, pid, text, note in db.execute(
        "select p.edition, p.id, p.text, f.text from footnotes f join provisions p "
        "on p.edition = f.edition and p.law = f.law") if len(note) > 30 and note[:40] in (text or "")]
    assert doubled == []


def test_footnote_attached_to_its_mark(db):
    rows = db.execute("select provision, mark, text from footnotes where edition = '2007' and law = 6").fetchall()
    assert [tuple(r) for r in rows] == [("6D2", "*", "A ‘sorted deck’ is a pack of cards not randomized from its prior condition.")]


def test_introduction_paragraph_kept_once(db):
    intro = db.execute("select text from sections where edition = '2007' and slug = 'introduction'").fetchone()[0]
    assert intro.count("Directors have been given considerably more discretionary powers.") == 1


def test_club_fragments_attest_the_laws_they_reproduce(db):
    attested = [n for (n,) in db.execute(
        "select law from attestations where source = '003_9d8ca0f08b130dce.txt' order by law")]
    assert attested == [5, 6, 7, 12, 18, 19, 20]
    notes = db.execute("select law, kind from fragments where source = '003_9d8ca0f08b130dce.txt' "
                       "and kind = 'note' order by line").fetchall()
    assert [tuple(n) for n in notes] == [(None, "note"), (2, "note")] or len(notes) == 2
    # the club's paraphrase of Law 2 is never law text
    assert db.execute("select count(*) from attestations where law = 2 and source like '003%'").fetchone()[0] == 0


def test_guide_topics_link_to_laws(db):
    # every topic whose heading carries a [LAW n] tag (sub-topics carry none)
    tagged = db.execute("select count(distinct topic) from topic_laws").fetchone()[0]
    assert tagged == 52
    assert db.execute("select count(*) from topic_laws where law not between 1 and 93").fetchone()[0] == 0
    laws_of = [n for (n,) in db.execute(
        "select law from topic_laws tl join topics t on t.id = tl.topic where t.title like 'LEAD PENALTIES%'")]
    assert laws_of == [26]


def test_raw_reading_kept_where_corrected(db):
    text, raw = db.execute("select text, raw_text from provisions where edition = '2007' and id = '12C1(b)'").fetchone()
    assert "self-inflicted" in text and "selfinflicted" in raw
    text, raw = db.execute("select text, raw_text from provisions where edition = '2017' and id = '18D'").fetchone()
    assert (text, raw) == ("A bid that fails to supersede the last preceding bid is an insufficient bid. It is an "
                           "infraction to make an insufficient bid (see Law 27 for rectification).",
                           "A bid that fails to supersede the last preceding bid is an insu cient bid. It is an "
                           "infraction to make an insu cient bid (see Law 27 for rectification).")
    # the witness's corrections are kept too, though its text is not stored
    corr = db.execute("select raw, corrected, reason from corrections where source = '004_00dffde58a6aed35.txt' "
                      "and location = '35D'").fetchall()
    assert ("afte rthe", "after the") in [(r, c) for r, c, _ in corr]


# --- references ---------------------------------------------------------------

def refs(db, edition, from_id):
    return [tuple(r) for r in db.execute(
        "select raw, to_id, resolved, reason from refs where edition = ? and from_id = ? order by field, start",
        [edition, from_id])]


@pytest.mark.parametrize("edition, from_id, expected", [
    # 'Law 12C1(b)' form, and 'see C1(b)' relative to the law it stands in
    ("2007", "12B1", [("C1(b)", "12C1(b)", 1, "")]),
    # '[and see C1(d)]'
    ("2007", "12C2(a)", [("C1(d)", "12C1(d)", 1, "")]),
    # 'see 4 following': relative to the current section
    ("2007", "14B2", [("4", "14B4", 1, "")]),
    # 'Laws 47E and 41' style lists
    ("2007", "def:Session", [("Laws 4", "4", 1, ""), ("12C2", "12C2", 1, ""), ("91", "91", 1, "")]),
    # 'see B2(a)(v) above' in 2017
    ("2017", "40C1", [("B2(a)(v)", "40B2(a)(v)", 1, "")]),
    # a law the blog lacked, now in the corpus
    ("2017", "34", [("Law 17D3", "17D3", 1, "")]),
    # texts outside the corpus
    ("1993-rubber", "41", [("Proprieties 4", None, 0, "cites the Proprieties of this code, which are not in the corpus")]),
    # '(a), (b) and (c) of Law 42'
    # a law this edition's corpus lacks: the reference keeps what it cites
    ("1993-rubber", "43", [("Law 16", "16", 0, "Law 16 of this edition is not in the corpus (it has Laws 41–71 only)"),
                           ("(a)", "42(a)", 1, ""), ("(b)", "42(b)", 1, ""), ("(c)", "42(c)", 1, ""),
                           ("Law 42", "42", 1, "")]),
])
def test_references(db, edition, from_id, expected):
    assert refs(db, edition, from_id) == expected


def test_law_16_with_its_title_is_one_reference(db):
    rows = refs(db, "2007", "19A3")
    assert rows == [("Law 16", "16", 1, "")]


def test_every_2007_reference_resolves(db):
    assert db.execute("select count(*) from refs where edition = '2007' and resolved = 0").fetchone()[0] == 0
    assert db.execute("select count(*) from refs where edition = '2007'").fetchone()[0] > 250
