"""The blog's transcription of 2017 Laws 33-40 (seed 004) as a witness of the
ACBL text: compared word by word, each difference a classified variant reading."""
from __future__ import annotations

import re

import pytest

from laws.witness import classify, differences

BLOG = "004_00dffde58a6aed35.txt"


@pytest.mark.parametrize("main, witness, kind", [
    ("he", "he/she", "gender-neutral"),
    ("his", "their", "gender-neutral"),
    ("He", "He/she", "gender-neutral"),
    ("authorized.", "authorised.", "spelling"),
    ("judgment,", "judgement,", "spelling"),
    ("any", "Any", "punctuation"),
    ("73C.)", "73C).", "punctuation"),
    ("seven", "7", "wording"),
    ("whenever it is his turn to call.", "for the remainder of the auction.", "wording"),
])
def test_classify(main, witness, kind):
    assert classify(main, witness) == kind


def test_differences_take_whole_words():
    assert differences("he must still pass at subsequent turns.", "he/she must still pass at subsequent turns.") \
        == [("gender-neutral", "he", "he/she")]
    assert differences("Offender’s LHO", "Offender's LHO") == []  # quote marks are not a variant


def variants(db, **where):
    sql = "select law, provision, kind, main, witness from variants where source = ?"
    args = [BLOG]
    for k, v in where.items():
        sql += f" and {k} = ?"
        args.append(v)
    return [tuple(r) for r in db.execute(sql + " order by id", args)]


def test_the_blog_attests_laws_33_to_40_of_2017(db):
    rows = [tuple(r) for r in db.execute(
        "select law, how from attestations where source = ? order by law", [BLOG])]
    assert rows == [(n, "witness") for n in range(33, 41)]
    # it gives no text of its own: every 2017 provision is the ACBL text's
    assert db.execute("select count(*) from laws where source = ?", [BLOG]).fetchone()[0] == 0


def test_variant_readings_of_law_37(db):
    assert variants(db, law=37, kind="gender-neutral") == [(37, "37A", "gender-neutral", "he", "he/she"),
                                                           (37, "37B2", "gender-neutral", "his", "their")]


def test_spelling_variants(db):
    assert (40, "40A4", "spelling", "judgment,", "judgement,") in variants(db, kind="spelling")


def test_a_real_difference_of_wording_is_shown(db):
    # the blog prints 36B2's partner passing 'for the remainder of the auction',
    # the ACBL text 'whenever it is his turn to call'
    assert (36, "36B2", "wording", "whenever it is his turn to call.", "for the remainder of the auction.") \
        in variants(db, law=36)


def test_blog_typos_are_variants_with_their_correction(db):
    typos = variants(db, kind="typo")
    assert (35, "35D", "typo", "after the", "afte rthe") in typos
    assert all(w != m for _, _, _, m, w in typos)


def test_every_variant_is_on_a_provision_of_the_main_text(db):
    ids = {r[0] for r in db.execute("select id from provisions where edition = '2017'")}
    assert {p for _, p, *_ in variants(db)} <= ids


def test_law_page_shows_the_variants_and_the_agreement(client, db):
    html = client.get("/2017/law/37").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "Variant reading (1)" in text or "Variant readings" in text
    assert "reads “he/she” for “he” — gender-neutral edit" in text
    provisions = [r[0] for r in db.execute(
        "select id from provisions where edition = '2017' and law = 37 and trim(coalesce(text, '')) != ''")]
    differing = {r[0] for r in db.execute(
        "select distinct provision from variants where source = ? and law = 37 and kind != 'typo'", [BLOG])}
    agree = len([p for p in provisions if p not in differing])
    assert f"agrees word for word with the main text in {agree} of {len(provisions)} provisions" in text


def test_api_law_lists_variants(client):
    body = client.get("/api/laws/2017/37").get_json()
    assert {"provision": "37A", "kind": "gender-neutral", "main": "he", "witness": "he/she"}.items() \
        <= next(v for v in body["variants"] if v["kind"] == "gender-neutral").items()
    assert [s["how"] for s in body["sources"]] == ["text", "witness"]
