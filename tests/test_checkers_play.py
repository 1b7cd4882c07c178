"""The play checkers: trick (Law 44), dummy-designation (Law 46, 2007),
penalty-card (Law 50, 2007 and 1993 rubber), revoke (Law 64, both editions).
Expected values are read from the Law texts in corpus/ (000_… the 2007 Laws,
002_… the 1993 rubber Laws)."""
from __future__ import annotations

import pytest

from checker_calls import bad, run


# --- trick (Law 44) ------------------------------------------------------------

@pytest.mark.parametrize("cards, trumps, winner, rule", [
    (["HK", "H4", "S2", "HA"], "S", 2, "44E"),   # the only trump wins
    (["HK", "H4", "S2", "HA"], "NT", 3, "44F"),  # no trumps: highest of the suit led
    (["HK", "H4", "D2", "HA"], "S", 3, "44F"),   # no trump played
    (["C2", "SA", "SK", "C3"], "H", 3, "44F"),   # a discard never wins, however high
    (["S2", "SA", "H3", "H4"], "H", 3, "44E"),   # the higher of two trumps
    (["H10", "HJ", "H9", "H8"], "H", 1, "44E"),  # trump led: highest trump
    (["D5"], "C", 0, "44F"),                     # the lead alone wins so far
])
def test_trick_winner(cards, trumps, winner, rule):
    out = run("trick", cards=cards, trumps=trumps)
    assert out["result"]["winner"] == winner
    assert rule in out["cites"]


def test_trick_names_seats_and_next_leader():
    # West leads the HK, North H4, East ruffs with S2, South HA: East wins and
    # leads next (44G)
    out = run("trick", cards=["HK", "H4", "S2", "HA"], trumps="S", leader="W")
    assert out["result"]["winner_seat"] == "E"
    assert out["result"]["followed"] == [None, True, False, True]
    assert "44G" in out["cites"] and "East leads to the next trick" in out["explanation"]


def test_trick_revoke_detected_from_holdings():
    # Law 44C: follow suit if possible.  East held a heart and ruffed.
    out = run("trick", cards=["HK", "H4", "S2", "HA"], trumps="S",
              holdings=["HK HQ", "H4 C3", "S2 H7", "HA D9"])
    assert out["result"]["revokes"] == [2]
    assert "61A" in out["cites"] and "revoke" in out["explanation"]
    out = run("trick", cards=["HK", "H4", "S2", "HA"], trumps="S",
              holdings=["HK HQ", "H4 C3", "S2 D7", "HA D9"])
    assert out["result"]["revokes"] == []


@pytest.mark.parametrize("data, field", [
    ({"cards": [], "trumps": "S"}, "cards"),
    ({"cards": ["HK", "HK"], "trumps": "S"}, "cards"),
    ({"cards": ["HZ"], "trumps": "S"}, "cards"),
    ({"cards": ["HK", "H2", "H3", "H4", "H5"], "trumps": "S"}, "cards"),
    ({"cards": ["HK"], "trumps": "X"}, "trumps"),
    ({"cards": ["HK", "H2"], "trumps": "S", "holdings": ["HK"]}, "holdings"),
    ({"cards": ["HK", "H2"], "trumps": "S", "holdings": ["HK", "H3"]}, "holdings"),
])
def test_trick_bad_input(data, field):
    assert bad("trick", **data).field == field


def test_card_spellings():
    out = run("trick", cards=["10♥", "h9", "♥J", "8H"], trumps="NT")
    assert out["result"]["winning_card"] == "HJ"


# --- dummy-designation (Law 46, 2007) --------------------------------------------

DUMMY = ["SK", "S7", "S3", "HA", "H9", "D4"]


@pytest.mark.parametrize("data, deemed, rule", [
    # 46B1(a) 'high' -> the highest card (of the suit led)
    ({"trick": ["S5"], "designation": "high"}, "SK", "46B1(a)"),
    # 46B1(c) 'low' -> the lowest card
    ({"trick": ["S5"], "designation": "low"}, "S3", "46B1(c)"),
    # 46B2 a suit but not a rank -> the lowest card of that suit
    ({"designation": "suit", "suit": "H"}, "H9", "46B2"),
    # 46B3(a) leading, a rank only: continue the suit dummy won the last trick in
    ({"designation": "rank", "rank": "K", "previous_suit": "S"}, "SK", "46B3(a)"),
    # 46B3(b) following: the one legal card of that rank
    ({"trick": ["HQ"], "designation": "rank", "rank": "A"}, "HA", "46B3(b)"),
    # 46A a full designation
    ({"designation": "card", "card": "D4"}, "D4", "46A"),
])
def test_dummy_designation_deemed_card(data, deemed, rule):
    out = run("dummy-designation", dummy=DUMMY, trumps="C", **data)
    assert out["result"]["deemed"] == deemed
    assert out["result"]["rule"] == rule and rule in out["cites"]


@pytest.mark.parametrize("dummy, designation, suit, deemed", [
    # the highest and lowest by rank, not by the letters' order (A, K, Q, J, T)
    (["SA", "SK", "S2"], "high", None, "SA"),
    (["ST", "SJ", "SK"], "low", None, "ST"),
    (["HQ", "HT", "HA"], "suit", "H", "HT"),
    (["D9", "DT", "DJ"], "high", None, "DJ"),
])
def test_high_low_and_suit_go_by_rank(dummy, designation, suit, deemed):
    data = {"dummy": dummy, "trumps": "C", "designation": designation}
    if suit:
        data["suit"] = suit
    else:
        data["trick"] = [dummy[0][0] + "5"]
    assert run("dummy-designation", **data)["result"]["deemed"] == deemed


def test_win_is_the_lowest_card_known_to_win():
    # 46B1(b): dummy plays last to S5, SQ, S2 -> the SK is the lowest winner
    out = run("dummy-designation", dummy=DUMMY, trumps="C", trick=["S5", "SQ", "S2"], designation="win")
    assert out["result"]["deemed"] == "SK"
    # last to play, void in the suit led: the lowest trump that wins
    out = run("dummy-designation", dummy=["C2", "C9", "HA"], trumps="C", trick=["D5", "D7", "C3"],
              designation="win")
    assert out["result"]["deemed"] == "C9"
    # second to play: the SK is not known to win while the SA is out
    out = run("dummy-designation", dummy=DUMMY, trumps="NT", trick=["S5"], designation="win")
    assert out["result"]["deemed"] is None and out["result"]["chooser"] == "declarer"
    # ... but it is once the SA has been seen (played earlier), at no trump
    out = run("dummy-designation", dummy=DUMMY, trumps="NT", trick=["S5"], designation="win", seen=["SA"])
    assert out["result"]["deemed"] == "SK"
    # with trumps out, a ruff is possible: not known to win
    out = run("dummy-designation", dummy=DUMMY, trumps="C", trick=["S5"], designation="win", seen=["SA"])
    assert out["result"]["deemed"] is None


def test_rank_only_two_legal_cards_declarer_must_say_which():
    # 46B3(b): 'if there are two or more such cards that can be legally played
    # declarer must designate which is intended'
    out = run("dummy-designation", dummy=["S9", "H9", "D2"], trumps="C", trick=["C5"], designation="rank", rank="9")
    assert out["result"]["deemed"] is None and out["result"]["chooser"] == "declarer"
    assert out["result"]["rule"] == "46B3(b)"


def test_card_not_in_dummy_is_void():
    # 46B4: 'the call is void and declarer may designate any legal card'
    out = run("dummy-designation", dummy=DUMMY, trumps="C", designation="card", card="SQ")
    assert out["result"]["deemed"] is None and out["result"]["rule"] == "46B4"


def test_nothing_specified_either_defender_designates():
    out = run("dummy-designation", dummy=DUMMY, trumps="C", designation="nothing")
    assert out["result"]["chooser"] == "either defender" and out["result"]["rule"] == "46B5"


def test_high_when_dummy_leads_needs_a_suit():
    out = run("dummy-designation", dummy=DUMMY, trumps="C", designation="high")
    assert out["result"]["deemed"] is None
    out = run("dummy-designation", dummy=DUMMY, trumps="C", designation="high", suit="H")
    assert out["result"]["deemed"] == "HA"


def test_designation_that_would_revoke_is_flagged():
    out = run("dummy-designation", dummy=DUMMY, trumps="C", trick=["S5"], designation="suit", suit="H")
    assert out["result"]["deemed"] == "H9" and out["result"]["legal"] is False
    assert "44C" in out["cites"]


@pytest.mark.parametrize("data, field", [
    ({"dummy": [], "trumps": "C", "designation": "low"}, "dummy"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "suit"}, "suit"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "rank"}, "rank"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "card"}, "card"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "card", "card": "ZZ"}, "card"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "shout"}, "designation"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "low", "trick": ["SK"]}, "trick"),
    ({"dummy": DUMMY, "trumps": "C", "designation": "low", "trick": ["S2", "S4", "S5", "S6"]}, "trick"),
])
def test_dummy_designation_bad_input(data, field):
    assert bad("dummy-designation", **data).field == field


# --- penalty-card (Law 50) -------------------------------------------------------

@pytest.mark.parametrize("edition", ["2007", "2017", "1993-rubber"])
@pytest.mark.parametrize("cards, exposure, kind", [
    (["S5"], "inadvertent", "minor"),    # a single card below honour rank, unintentionally
    (["SQ"], "inadvertent", "major"),    # any card of honour rank
    (["S10"], "inadvertent", "major"),   # the ten is an honour
    (["S5"], "deliberate", "major"),     # exposed through deliberate play
    (["S5", "H3"], "inadvertent", "major"),  # two or more: all major
])
def test_penalty_card_major_or_minor(edition, cards, exposure, kind):
    out = run("penalty-card", edition=edition, cards=cards, exposure=exposure)
    assert out["result"]["kind"] == kind
    assert all(c["kind"] == kind for c in out["result"]["penalty_cards"])
    assert out["edition"] == edition


def test_penalty_card_cites_each_editions_provisions():
    minor = run("penalty-card", edition="2007", cards=["S5"])
    assert {"50B", "50C"} <= set(minor["cites"])
    major = run("penalty-card", edition="2007", cards=["SK", "S5"])
    assert {"50B", "50D1(a)", "50D2", "51"} <= set(major["cites"])
    rubber = run("penalty-card", edition="1993-rubber", cards=["SK"])
    assert rubber["cites"] == ["50"]


def test_declarer_has_no_penalty_cards():
    # 2007 Law 48A: 'no card of declarer's or dummy's hand ever becomes a penalty card'
    out = run("penalty-card", cards=["SK"], player="declarer")
    assert out["result"]["kind"] == "none" and out["cites"] == ["48A"]
    assert run("penalty-card", edition="1993-rubber", cards=["SK"], player="declarer")["cites"] == ["48"]


def test_penalty_card_bad_input():
    assert bad("penalty-card", cards=[]).field == "cards"
    assert bad("penalty-card", cards=["S5"], edition="1997").field == "edition"
    assert bad("penalty-card", cards=["S5"], exposure="careless").field == "exposure"


# --- revoke (Law 64) -------------------------------------------------------------

@pytest.mark.parametrize("edition, won_by, later, eligible, tricks, rule", [
    # 2007 64A1: offender won the revoke trick: it and one later trick
    ("2007", "offending player", 2, False, 2, "64A1"),
    ("2007", "offending player", 0, False, 1, "64A1"),
    # 2007 64A2: revoke trick not won by the offender: one trick if the side
    # won that or any later trick
    ("2007", "offender's partner", 0, False, 1, "64A2"),
    ("2007", "offender's partner", 3, False, 1, "64A2"),
    ("2007", "non-offending side", 1, False, 1, "64A2"),
    # 2007 64B1: the offending side won neither
    ("2007", "non-offending side", 0, False, 0, "64B1"),
    # 1993 rubber 64(a): the same as 64A1
    ("1993-rubber", "offending player", 2, False, 2, "64(a)"),
    ("1993-rubber", "offending player", 0, False, 1, "64(a)"),
    # 64(b): partner won: that trick, and one more only for a later trick won
    # by the offender with a card he could have played to the revoke trick
    ("1993-rubber", "offender's partner", 3, False, 1, "64(b)"),
    ("1993-rubber", "offender's partner", 3, True, 2, "64(b)"),
    # 64(c): the first later trick, and another for two or more with an eligible card
    ("1993-rubber", "non-offending side", 1, False, 1, "64(c)(i)"),
    ("1993-rubber", "non-offending side", 1, True, 1, "64(c)(i)"),
    ("1993-rubber", "non-offending side", 2, True, 2, "64(c)(i)"),
    # 64(d)(i): no trick won
    ("1993-rubber", "non-offending side", 0, False, 0, "64(d)(i)"),
])
def test_revoke_transfers(edition, won_by, later, eligible, tricks, rule):
    out = run("revoke", edition=edition, won_by=won_by, later_tricks=later, eligible_card=eligible)
    assert out["result"]["tricks_transferred"] == tricks
    assert out["result"]["rule"] == rule and rule in out["cites"]
    assert out["edition"] == edition


def test_the_editions_differ():
    # partner wins the revoke trick, the offender later wins with an eligible
    # card: 2007 transfers one trick (64A2), 1993 rubber two (64(b))
    d = {"won_by": "offender's partner", "later_tricks": 2, "eligible_card": True}
    assert run("revoke", edition="2007", **d)["result"]["tricks_transferred"] == 1
    assert run("revoke", edition="1993-rubber", **d)["result"]["tricks_transferred"] == 2


@pytest.mark.parametrize("edition, exception, rule", [
    ("2007", "subsequent", "64B2"), ("2007", "faced card", "64B3"), ("2007", "next deal", "64B4"),
    ("2007", "round ended", "64B5"), ("2007", "both sides", "64B7"),
    ("1993-rubber", "subsequent", "64(d)(ii)"), ("1993-rubber", "faced card", "64(d)(iii)"),
    ("1993-rubber", "hands mixed", "64(d)(iv)"),
])
def test_revoke_exceptions(edition, exception, rule):
    out = run("revoke", edition=edition, won_by="offending player", later_tricks=3, exception=exception)
    assert out["result"]["tricks_transferred"] == 0 and out["cites"][0] == rule


@pytest.mark.parametrize("edition, rule", [("2007", "64B6"), ("1993-rubber", "64(d)(v)")])
def test_revoke_on_the_twelfth_trick(edition, rule):
    out = run("revoke", edition=edition, won_by="offending player", later_tricks=1, revoke_trick=12)
    assert out["result"]["tricks_transferred"] == 0 and out["result"]["rule"] == rule


def test_exception_of_the_other_edition_is_noted_not_applied():
    out = run("revoke", edition="1993-rubber", won_by="offending player", later_tricks=1, exception="both sides")
    assert out["result"]["tricks_transferred"] == 2 and "not an exception in this edition" in out["explanation"]


def test_2007_revoke_always_mentions_64c():
    assert "64C" in run("revoke", edition="2007", won_by="offending player", later_tricks=0)["cites"]


def test_revoke_and_penalty_card_default_to_the_code_in_force():
    """No edition given: the code in force (2017), whose 64C1 is the redress."""
    out = run("revoke", won_by="offending player", later_tricks=0)
    assert (out["edition"], out["cites"]) == ("2017", ["64A1", "64C1"])
    assert run("penalty-card", cards=["S5"])["edition"] == "2017"


@pytest.mark.parametrize("data, field", [
    ({"won_by": "offending player", "later_tricks": 5, "revoke_trick": 10}, "later_tricks"),
    ({"won_by": "offending player", "later_tricks": 13}, "later_tricks"),
    ({"won_by": "offending player", "later_tricks": 0, "eligible_card": True}, "eligible_card"),
    ({"won_by": "dummy", "later_tricks": 0}, "won_by"),
    ({"won_by": "offending player", "later_tricks": 0, "revoke_trick": 13}, "revoke_trick"),
    ({"won_by": "offending player"}, "later_tricks"),
])
def test_revoke_bad_input(data, field):
    assert bad("revoke", **data).field == field


# --- 2017 (the ACBL text of the 2017 Laws) ------------------------------------------

def test_penalty_card_2017_information_is_authorized_while_on_the_table():
    # 2017 50E1: 'Information derived from a penalty card and the requirements
    # for playing that penalty card are authorized for all players for as long
    # as the penalty card remains on the table.'  2007 50E2 made it unauthorized.
    minor = run("penalty-card", edition="2017", cards=["S5"])
    assert minor["cites"] == ["50A", "50B", "50C", "50E1"]
    assert "authorized for all" in minor["result"]["follows"][-1]
    assert "unauthorized" in run("penalty-card", edition="2007", cards=["S5"])["result"]["follows"][-1]
    major = run("penalty-card", edition="2017", cards=["SK", "S5"])
    assert {"50D2", "50E1", "50E2", "50E3", "51"} <= set(major["cites"])


def test_checkers_point_to_the_ruling():
    assert run("penalty-card", edition="2017", cards=["S5"])["result"]["ruling"] == "/rulings/play?edition=2017"
    assert run("revoke", edition="2007", won_by="offending player", later_tricks=0)["result"]["ruling"] == \
        "/rulings/play?edition=2007"
    assert run("revoke", edition="1993-rubber", won_by="offending player", later_tricks=0)["result"]["ruling"] == \
        "/rulings/play?edition=1993-rubber"


@pytest.mark.parametrize("won_by, later, tricks, rule", [
    ("offending player", 2, 2, "64A1"), ("offending player", 0, 1, "64A1"),
    ("offender's partner", 0, 1, "64A2"), ("non-offending side", 1, 1, "64A2"),
    ("non-offending side", 0, 0, "64B1"),
])
def test_revoke_2017_transfers_as_2007(won_by, later, tricks, rule):
    # 2017 64A1/64A2 read as 2007's; the redress of damage is 64C1
    out = run("revoke", edition="2017", won_by=won_by, later_tricks=later)
    assert out["result"]["tricks_transferred"] == tricks and out["result"]["rule"] == rule
    assert out["cites"][-1] == "64C1" and out["edition"] == "2017"


@pytest.mark.parametrize("exception, rule, extra", [
    ("subsequent", "64B2", "64C2(a)"),   # 2017 64C2(a): adjust after repeated revokes
    ("faced card", "64B3", None), ("next deal", "64B4", None), ("round ended", "64B5", None),
    ("both sides", "64B7", "64C2(b)"),   # 2017 64C2(b): adjust to the result without the revokes
    ("corrected", "64B8", None),         # 2017 64B8, after 62C3
])
def test_revoke_2017_exceptions(exception, rule, extra):
    out = run("revoke", edition="2017", won_by="offending player", later_tricks=3, exception=exception)
    assert out["result"]["tricks_transferred"] == 0 and out["cites"][0] == rule
    assert (extra in out["cites"]) if extra else len(out["cites"]) == 2


def test_revoke_64b8_is_2017_only():
    out = run("revoke", edition="2007", won_by="offending player", later_tricks=1, exception="corrected")
    assert out["result"]["tricks_transferred"] == 2 and "not an exception in this edition" in out["explanation"]


def test_revoke_on_trick_12_2017():
    out = run("revoke", edition="2017", won_by="offending player", later_tricks=1, revoke_trick=12)
    assert out["result"]["rule"] == "64B6" and out["result"]["tricks_transferred"] == 0
