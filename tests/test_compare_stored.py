"""The comparisons stored compactly (laws/compare/stored.py, `pack_ops`):
word ops kept as lengths into the provisions' own texts read back to the very
ops the comparison made, for every stored pair."""
from __future__ import annotations

import json

from conftest import CORPUS
from laws.compare import changes, overrides, stored
from laws.compare.stored import pack_ops, side_text, unpack_ops
from laws.compare.text import word_ops


def _stored(db, law: int) -> list[dict]:
    return stored.unpack_rows(db, db.execute(
        "select * from alignments where from_edition = '2007' and to_edition = '2017' and law = ? order by ord",
        [law]))


def test_every_stored_row_reads_back_to_the_word_ops_compared(db):
    """The whole 2007 -> 2017 comparison made again (`compare_code`, whose ops
    are `text.word_ops'`, with the curated overrides the build applies): each
    law's rows, unpacked from the store, hold exactly its changes' ops, on
    the corrected text and on the raw readings."""
    _eds, laws, provisions = stored.read_store(db)
    mine = [o for o in overrides.load_overrides(CORPUS) if (o["from"], o["to"]) == ("2007", "2017")]
    by_law = changes.compare_code({n: provisions.get(("2007", n), []) for n in laws["2007"]},
                                  {n: provisions.get(("2017", n), []) for n in laws["2017"]}, mine)
    for number in range(1, 94):
        assert [(r["ops"], r["raw_ops"]) for r in _stored(db, number)] == [
            (c["ops"], c["raw_ops"]) for c in by_law[number]], number


def test_raw_ops_are_stored_only_where_they_differ(db):
    packed = [r["raw_ops"] for n in range(1, 94) for r in stored.stored_rows(db, "2007", "2017", n)]
    rows = [r for n in range(1, 94) for r in _stored(db, n)]
    assert [p is None for p in packed] == [r["raw_ops"] == r["ops"] for r in rows]


def test_no_stored_row_keeps_the_words_its_provisions_hold(db):
    """Every equal and insert run of the real corpus is found in its
    provisions' texts (pieces of splits and merges too): none is stored as
    text, and what is stored is a small part of the ops in full."""
    literal, packed_bytes, full_bytes = 0, 0, 0
    for number in range(1, 94):
        stored_rows = stored.stored_rows(db, "2007", "2017", number)
        for s, r in zip(stored_rows, _stored(db, number)):
            for col in ("ops", "raw_ops"):
                if s[col] is not None:
                    literal += sum(isinstance(x, list) and isinstance(x[0], str) for x in json.loads(s[col]))
                    packed_bytes += len(s[col].encode())
                full_bytes += len(json.dumps(r[col], ensure_ascii=False).encode())
    assert literal == 0
    assert packed_bytes < full_bytes / 10, (packed_bytes, full_bytes)


def _round_trip(old: str, new: str, new_text: str | None = None) -> tuple[list, int]:
    ops = word_ops(old, new)
    n, o = side_text((new if new_text is None else new_text,)), side_text((old,))
    packed, at = pack_ops(ops, n, o)
    assert unpack_ops(packed, at, n, o) == ops
    return packed, at


def test_packed_ops_by_case():
    # a deleted run: the word diff moves its space onto the equal run before
    # it, which the newer text does not have there; a long delete is an
    # offset into the older text
    assert _round_trip("The Director may require a new shuffle and a redeal for any reason.",
                       "The Director may require a redeal for any reason.") == ([[24, " "], [25, 17], 25], 0)
    # a footnote mark is not in the shown text; a short delete is its text
    assert _round_trip("Law 17E2 applies.", "Law 17D3 applies*.") == ([4, "17E2", -4, 9], 0)
    # a piece of a provision starts inside the provision's text
    assert _round_trip("The second sentence was old here.", "The second sentence is new here.",
                       "The first sentence stays.\n\nThe second sentence is new here.") == (
        [20, "was old", -6, 6], 27)
    # words not in the newer side's text keep their text, and still read back
    assert _round_trip("old words", "new words", "something else") == (["old", ["+", "new"], ["=", " words"]], 0)


def test_the_side_text_is_the_text_as_the_word_diff_shows_it():
    """Paragraphs as the aligner cuts them, joined as a change joins them;
    footnote marks gone with the space before them."""
    assert side_text(("A rule*  restated.\n \nSecond para.", "Third.")) == \
        "A rule  restated.\n\nSecond para.\n\nThird."
    assert "".join(t for op, t in word_ops("x", "A rule*  restated.\n\nSecond para.") if op != "delete") == \
        side_text(("A rule*  restated.\n \nSecond para.",))
