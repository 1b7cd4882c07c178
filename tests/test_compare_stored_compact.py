"""Comparisons stored compactly (issue 24): a law's changes in one row of
`law_changes` (laws/compare/stored.py `encode_law`), read back for every page
and `GET /api/diff` reply exactly as before.

Proved two ways over the real corpus: every law's diff reply, both ways,
corrected and raw, has the bytes recorded before the change of storage
(tests/data/compare-diff-replies.sha256); and every law's comparison page
and diff reply served from the store is byte for byte the one served from
the rows as the comparison made them, never stored (the word ops in full)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from conftest import CORPUS
from laws.compare import changes, overrides, read, stored

DIGESTS = Path(__file__).parent / "data" / "compare-diff-replies.sha256"
LAWS = range(1, 94)
WAYS = (("2007", "2017"), ("2017", "2007"))


@pytest.fixture(scope="module")
def client(built):
    from app import create_app

    # no page cache: each request renders what the store (or the stand-in below) holds
    app = create_app({"TESTING": True, "DATA_DIR": str(built), "CORPUS_DIR": str(CORPUS), "PAGE_CACHE_MB": 0})
    return app.test_client()


def _recorded() -> dict[str, str]:
    lines = DIGESTS.read_text(encoding="utf-8").splitlines()
    return {url: digest for digest, url in (line.split("  ") for line in lines if not line.startswith("#"))}


def test_every_diff_reply_has_the_bytes_recorded_before(client):
    recorded = _recorded()
    assert len(recorded) == 93 * 2 * 2
    served = {}
    for url in recorded:
        r = client.get(url)
        assert r.status_code == 200, url
        served[url] = hashlib.sha256(r.data).hexdigest()
    assert served == recorded


def _fresh_rows(db) -> dict[int, tuple[dict, list[dict]]]:
    """2007 -> 2017 compared again, kept as the comparison makes its rows for
    the web app (`stored._rows` without texts: the word ops in full)."""
    _eds, laws, provisions = stored.read_store(db)
    mine = [o for o in overrides.load_overrides(CORPUS) if (o["from"], o["to"]) == ("2007", "2017")]
    by_law = changes.compare_code({n: provisions.get(("2007", n), []) for n in laws["2007"]},
                                  {n: provisions.get(("2017", n), []) for n in laws["2017"]}, mine)
    return {n: stored._rows("2007", "2017", n, by_law[n], laws["2007"][n], laws["2017"][n]) for n in LAWS}


def _urls(n: int) -> list[str]:
    return [u for a, b in WAYS for u in (f"/compare/{n}?from={a}&to={b}", f"/compare/{n}?from={a}&to={b}&raw=1&view=sides",
                                         f"/api/diff/{n}?from={a}&to={b}", f"/api/diff/{n}?from={a}&to={b}&raw=1")]


def test_every_comparison_page_and_reply_is_the_one_of_the_rows_compared(db, client, monkeypatch):
    urls = [u for n in LAWS for u in _urls(n)]
    from_store = {}
    for u in urls:
        r = client.get(u)
        assert r.status_code == 200, u
        from_store[u] = r.data
    fresh = _fresh_rows(db)
    real = read.law_data

    def compared(conn, old, new, number):
        return fresh[number] if (old, new) == ("2007", "2017") else real(conn, old, new, number)
    monkeypatch.setattr(read, "law_data", compared)
    for u in urls:
        assert client.get(u).data == from_store[u], u


def test_a_law_is_one_row_and_alignments_a_view_with_the_rows_columns(db):
    """93 rows for 93 laws; the `alignments` view (which other readers query:
    laws.rulings.carry, search.evaluate) gives each change's columns as the
    stored rows hold them."""
    kinds = dict(db.execute("select name, type from sqlite_master where name in ('alignments', 'law_changes')"))
    assert kinds == {"alignments": "view", "law_changes": "table"}
    assert db.execute("select count(*) from law_changes where from_edition = '2007' and to_edition = '2017'"
                      ).fetchone()[0] == 93
    cols = ("from_edition", "to_edition", "law", "ord", "from_law", "to_law", "from_provision", "to_provision",
            "from_provisions", "to_provisions", "status", "text_changed")
    viewed = [tuple(r) for r in db.execute(f"select {', '.join(cols)} from alignments where from_edition = '2007' "
                                           "and to_edition = '2017' order by law, ord")]
    rows = [tuple(r[c] for c in cols) for n in LAWS for r in stored.stored_rows(db, "2007", "2017", n)]
    assert viewed == rows
    # a move across laws is under both laws, with the laws it left and joined
    assert [r for r in viewed if r[6] == "17D1"] == [
        ("2007", "2017", 15, 1, 17, 15, "17D1", "15A1", None, None, "moved", 1),
        ("2007", "2017", 17, 4, 17, 15, "17D1", "15A1", None, None, "moved", 1)]


def test_a_law_of_a_pair_not_stored_has_no_rows_and_a_stored_law_reads_back_whole(db):
    assert stored.stored_rows(db, "1993-rubber", "2007", 64) is None
    rows = stored.stored_rows(db, "2007", "2017", 34)
    slim, detail = db.execute("select rows, detail from law_changes where from_edition = '2007' "
                              "and to_edition = '2017' and law = 34").fetchone()
    assert slim == '[["34","34",1,1]]'
    assert stored.encode_law([dict(r, evidence=None) for r in rows])[0] == slim
