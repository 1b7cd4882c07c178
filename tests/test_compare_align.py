"""The trusted comparison (issue 22): statuses that mean one thing, successive
codes aligned whole so that a provision may move to another law, and such
moves shown on both laws' comparisons, pages and in the change matrix."""
from __future__ import annotations

import json
import re

from laws import compare
from laws.compare import changes, stored


def _p(pid: str, text: str) -> dict:
    return {"id": pid, "heading": "", "text": text, "raw_text": text}


OLD = [
    _p("1A", "The Director shall rule on the “claim” promptly*."),
    _p("1B", "Declarer may accept the irregular lead and dummy is spread at once."),
    _p("1C", "A board is fouled when a card has been transferred between its pockets."),
    _p("1D", "Partnership understandings must be disclosed to opponents before the session begins."),
    _p("1E", "Scoring tables shall be posted by the Tournament Organizer before the event."),
]
NEW = [
    _p("1A", "The director shall rule on the \"claim\" promptly."),  # case, quotes, footnote mark
    _p("1B", "Declarer may accept the irregular lead and dummy is then spread."),
    _p("1D", "Partnership understandings must be disclosed to opponents before the session begins."),
    _p("1F", "A board is fouled when a card has been transferred between its pockets."),  # 1C renumbered
    _p("1G", "Refreshments may be served at the tables during the rounds of a long session."),
]


def test_statuses_mean_one_thing_each():
    """same: the same id and words (after quotes, case and footnote marks);
    changed: the same id, other words; moved: another id, words the same or
    not (`text_changed` says which); removed and added.  1D, out of order
    with 1C -> 1F, keeps its id and is `same`, not moved."""
    found = {(c["from_provision"], c["to_provision"]): c for c in changes.compare_law(OLD, NEW)}
    assert {k: c["status"] for k, c in found.items()} == {
        ("1A", "1A"): "same", ("1B", "1B"): "changed", ("1C", "1F"): "moved", ("1D", "1D"): "same",
        ("1E", None): "removed", (None, "1G"): "added"}
    assert not found[("1C", "1F")]["text_changed"] and found[("1B", "1B")]["text_changed"]
    assert found[("1C", "1F")]["evidence"]  # each pair says why it was made


def test_across_families_another_id_is_not_moved():
    found = changes.compare_law(OLD, NEW, renumbered=False)
    assert {c["status"] for c in found if c["from_provision"] == "1C"} == {"same"}


def test_footnote_marks_attached_to_a_word_are_not_changes(db):
    """'restated*': the word diff dropped the mark, `normalise` did not, so
    these were stored 'changed' with no change in their ops."""
    for law, pid in ((6, "6D2"), (20, "20B"), (20, "20D"), (64, "64A1")):
        c = next(c for c in compare.diff(db, law, "2007", "2017")["changes"] if c["from_provision"] == pid)
        assert (c["to_provision"], c["status"]) == (pid, "same"), pid
    assert compare.normalise("restated* rule †") == "restated rule"
    # no provision is 'changed' with nothing changed in its words or heading
    for r in stored.unpack_rows(db, db.execute("select * from alignments where status = 'changed'")):
        assert any(op != "equal" for op, _t in r["ops"] + json.loads(r["heading_ops"]))


def _move(d: dict, f: str, t: str) -> dict:
    return next(c for c in d["changes"] if (c["from_provision"], c["to_provision"]) == (f, t))


def test_a_move_across_laws_is_in_both_laws_diff(client):
    """2007 17D1 (wrong cards discovered at the table) became 2017 15A1: both
    GET /api/diff/17 and /api/diff/15 list it, with `from_law` and `to_law`."""
    for n in (15, 17):
        d = client.get(f"/api/diff/{n}?from=2007&to=2017").get_json()
        c = _move(d, "17D1", "15A1")
        assert (c["status"], c["from_law"], c["to_law"]) == ("moved", 17, 15), n
        assert set(c) >= {"from_provision", "to_provision", "status", "ops"}
    back = _move(client.get("/api/diff/15?from=2017&to=2007").get_json(), "15A1", "17D1")
    assert (back["status"], back["from_law"], back["to_law"]) == ("moved", 15, 17)
    statuses = {c["status"] for n in range(1, 94)
                for c in client.get(f"/api/diff/{n}?from=2007&to=2017").get_json()["changes"]}
    assert statuses <= set(compare.STATUSES)


def test_a_move_across_laws_is_in_both_laws_history_and_pages(db, client):
    h = compare.history(db, "2007", 17)["17D1"]
    assert [(e["edition"], e["provision"], e["law"], e["status"]) for e in h] == [("2017", "15A1", 15, "moved")]
    h = compare.history(db, "2017", 15)["15A1"]
    assert [(e["edition"], e["provision"], e["law"], e["status"]) for e in h] == [("2007", "17D1", 17, "moved")]
    html = client.get("/2017/law/15").get_data(as_text=True)
    assert 'href="/2007/law/17#17D1"' in html
    html = client.get("/2007/law/17").get_data(as_text=True)
    assert 'href="/2017/law/15#15A1"' in html


def test_change_matrix_counts_a_move_across_laws_in_both_laws_and_once_in_all(db, client):
    o = compare.overview(db, "2007", "2017")
    by_law = {l["law"]: l for l in o["laws"]}
    assert by_law[15]["counts"]["moved"] >= 4 and by_law[17]["counts"]["moved"] >= 4
    # each change once: a move across laws under the law it left
    rows = [r["status"] for r in db.execute(
        "select * from alignments where from_edition = '2007' and to_edition = '2017' "
        "and law = coalesce(from_law, to_law)")]
    for status in compare.STATUSES:
        assert o["totals"][status] == rows.count(status), status
    assert client.get("/compare?from=2007&to=2017").status_code == 200


def test_renumbered_provisions_are_moved_and_keeping_an_id_never_is(db):
    for n in range(1, 94):
        for c in compare.diff(db, n, "2007", "2017")["changes"]:
            if c["status"] in ("same", "changed"):
                assert c["from_provision"] == c["to_provision"], c
            if c["status"] == "moved":
                assert (c["from_provision"], c["from_law"]) != (c["to_provision"], c["to_law"]), c


def test_rubber_to_duplicate_never_uses_moved(db):
    for n in (44, 59, 64):
        assert "moved" not in {c["status"] for c in compare.diff(db, n, "1993-rubber", "2007")["changes"]}


def _pairs(db, law: int) -> list[tuple[list, list, str]]:
    return [(c["from_provisions"], c["to_provisions"], c["status"])
            for c in compare.diff(db, law, "2007", "2017")["changes"]]


def test_an_opening_repeated_in_two_provisions_faces_both(db):
    """2007 26's opening ('When an offending player's call is withdrawn ...
    then if he becomes a defender:') opens both 2017 26A and 26B: it is
    shown against each, not as paired with 26A only (and so, read from
    26B's side, as having no predecessor)."""
    assert _pairs(db, 26) == [
        (["26"], ["26A"], "moved"), (["26A"], [], "removed"), (["26A1"], [], "removed"),
        (["26"], ["26B"], "merged"), (["26A2"], ["26B"], "merged"), (["26A2(b)"], ["26B"], "merged"),
        (["26B"], ["26B"], "merged"), (["26A2(a)"], [], "removed")]


def test_the_numbering_pairs_what_the_words_cannot_where_the_structure_is_kept(db):
    """2007 31A2(a) and 2017 31A2(a), the lenient case of one rule under
    31A2 (kept, with (a) and (b) in both), share no words beyond
    boilerplate; 2007 56 ('See Law 54D') and 2017 56 are each their law's
    own text under one title.  Both pairs are `changed`, not a removal and
    an addition."""
    assert ([(f, t, s) for f, t, s in _pairs(db, 31) if "31A2(a)" in f + t]
            == [(["31A2(a)"], ["31A2(a)"], "changed"), (["31A2(a)"], ["31A2(b)"], "merged")])
    assert _pairs(db, 56) == [(["56"], ["56"], "changed"), ([], ["56A"], "added"), ([], ["56B"], "added")]


def test_the_numbering_says_nothing_where_the_labels_differ():
    """A law rewritten with other sections (1A, 1B against 1A, 1B, 1C under
    the same opening): 1B's words match nothing, and its id alone does not
    pair it.  With the same labels on both sides, it does."""
    old = [_p("1", "The following provisions apply to every session of the tournament:"),
           _p("1A", "The Director shall rule on the claim promptly."),
           _p("1B", "Refreshments may be served at the tables during the rounds of a long session.")]
    new = [old[0], old[1],
           _p("1B", "Scoring tables shall be posted by the Tournament Organizer before the event."),
           _p("1C", "Partnership understandings must be disclosed before the session begins.")]
    assert [(c["from_provision"], c["to_provision"], c["status"]) for c in changes.compare_law(old, new)] == [
        ("1", "1", "same"), ("1A", "1A", "same"), ("1B", None, "removed"), (None, "1B", "added"),
        (None, "1C", "added")]
    found = changes.compare_law(old, new[:3])
    assert [(c["from_provision"], c["to_provision"], c["status"]) for c in found] == [
        ("1", "1", "same"), ("1A", "1A", "same"), ("1B", "1B", "changed")]
    assert found[2]["evidence"] == "the same id under 1, whose provisions keep their labels"


def test_a_piece_of_a_merge_is_not_paired_with_a_worse_partner(db):
    """2007 13D2 (its opening 'When the Director determines that one or more
    pockets ... if the Director deems:') and its case 13D2(a) together became
    2017 13A2; 13D2(a) takes 13A2 first, and 13D2, whose clauses 13A2 holds,
    joins it as a merge rather than taking 2017 13B.  2007 13D2(b), sharing
    only the remedy's words with 2017 13B2 and whose parent went to 13A2, is
    removed; 2017 13B, the opening of B1 and B2, goes with 2007 13A, where
    B1 came from and where its words about the call are."""
    assert _pairs(db, 13) == [
        (["13D"], ["13A"], "moved"), (["13D1"], ["13A1"], "moved"),
        (["13D2"], ["13A2"], "merged"), (["13D2(a)"], ["13A2"], "merged"),
        (["13A"], ["13B"], "split"), (["13A"], ["13B1"], "split"), (["13B"], ["13B2"], "moved"),
        (["13F"], ["13C"], "moved"), (["13C"], ["13D"], "moved"),
        (["13D2(b)"], [], "removed"), (["13E"], [], "removed")]


def test_an_opening_goes_with_the_list_it_opens(db):
    """2017 40B2(a) 'The Regulating Authority:' is found word for word in
    several 2007 provisions; three of its five items come from 2007 40B2(a),
    so it does too (not from 2007 40B2(d), now its item (v))."""
    found = {c["to_provision"]: c for c in compare.diff(db, 40, "2007", "2017")["changes"]}
    assert (found["40B2(a)"]["from_provisions"], found["40B2(a)"]["status"]) == (["40B2(a)"], "split")
    assert found["40B2(a)"]["part_of"] == {
        "from_provisions": ["40B2(a)"],
        "to_provisions": ["40A4", "40B2(a)", "40B2(a)(i)", "40B2(a)(ii)", "40B2(a)(iii)"]}
    assert "opens 3 of 5 sub-provisions that come from 40B2(a)" in found["40B2(a)"]["evidence"]
    assert (found["40B2(a)(v)"]["from_provisions"], found["40B2(a)(v)"]["status"]) == (["40B2(d)"], "moved")


def test_a_sub_provision_stays_with_its_parents_partner_and_clauses_outweigh_the_copy_test(db):
    """2017 32A2(b) ('offender's partner must pass') is found in 2007 32A and
    in 2007 32B2 alike: its parent 32A2 is 2007 32B2, so it is too.  2017
    68D1 ('If the claim or concession is agreed, Law 69 applies') is a
    clause of 2007 68D found in none of 68D's other successors: a piece of
    the split, not added.  2007 32A's rule for partner (must pass) became
    2017 32B1's opposite: the override says so."""
    assert _pairs(db, 32) == [
        (["32"], ["32"], "changed"), (["32B"], ["32A"], "moved"), (["32B1"], ["32A1"], "moved"),
        (["32B2"], ["32A2"], "split"), ([], ["32A2(a)"], "added"), (["32B2"], ["32A2(b)"], "split"),
        (["32A"], ["32B"], "split"), (["32A"], ["32B1"], "split"), ([], ["32B2"], "added"), ([], ["32C"], "added")]
    assert [(f, t, s) for f, t, s in _pairs(db, 68) if "68D" in f] == [
        (["68D"], ["68D"], "split"), (["68D"], ["68D1"], "split"), (["68D"], ["68D2"], "split"),
        (["68D"], ["68D2(a)"], "split")]
    assert {c["to_provision"]: c["override"].startswith("As 2007 31B for a bid: 2007 32A's rule")
            for c in compare.diff(db, 32, "2007", "2017")["changes"] if c["from_provision"] == "32A"} \
        == {"32B": True, "32B1": True}


def test_the_build_says_which_2007_2017_overrides_the_aligner_no_longer_needs(db):
    """The curated 31B and 32A overrides are needed (the words cannot show
    them); one restating what the aligner finds itself (2007 32B1 -> 2017
    32A1, word for word) is reported unnecessary."""
    from conftest import CORPUS
    from laws.compare import align, overrides

    _eds, laws, provisions = stored.read_store(db)
    a = [u for n in laws["2007"] for u in align.units(provisions.get(("2007", n), []), n)]
    b = [u for n in laws["2017"] for u in align.units(provisions.get(("2017", n), []), n)]
    curated = [o for o in overrides.load_overrides(CORPUS) if (o["from"], o["to"]) == ("2007", "2017")]
    restated = {"from": "2007", "to": "2017", "from_law": 32, "to_law": 32, "from_provisions": ["32B1"],
                "to_provisions": ["32A1"], "reason": "found from the text"}
    assert [o["from_provisions"] for o in curated] == [["31B"], ["32A"]]
    assert align.unnecessary_overrides(a, b, curated + [restated]) == [restated]
