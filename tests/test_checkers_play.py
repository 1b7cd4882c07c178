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


# --- every checker's words and cites, whole ------------------------------------------

_DUTCH = "The Director still assigns an adjusted score if this does not compensate the non-offending side"
_RUBBER_EQUITY = ("If the transfer leaves the non-offending side damaged, the offending side should give up "
                  "further tricks to restore equity.")


def _see(edition: str) -> str:
    return f" The whole ruling, with declarer's options, is at /rulings/play?edition={edition}."


# (checker, its input) -> (explanation, cites)
EXPLAINED = [
    ("trick", dict(cards=["HK", "H4", "S2", "HA"], trumps="S", leader="W"),
     "The 2 of spades by East wins the trick: it is the highest trump (spades), and East leads to the next trick.",
     ["44A", "44B", "44D", "44C", "44E", "44G"]),
    ("trick", dict(cards=["HK", "H4", "D2", "HA"], trumps="S"),
     "The ace of hearts wins the trick: it is the highest card of the suit led (hearts) as no trump was played, "
     "and the winner leads to the next trick.", ["44A", "44B", "44D", "44C", "44F", "44G"]),
    ("trick", dict(cards=["HK", "H4", "D2"], trumps="NT", leader="N"),
     "The king of hearts by North is winning the trick so far: it is the highest card of the suit led (hearts).",
     ["44A", "44B", "44D", "44C", "44F"]),
    ("trick", dict(cards=["S2", "SA", "H3", "H4"], trumps="H"),
     "The 4 of hearts wins the trick: it is the highest trump (hearts), and the winner leads to the next trick.",
     ["44A", "44B", "44D", "44C", "44E", "44G"]),
    ("trick", dict(cards=["D5"], trumps="C"),
     "The 5 of diamonds is winning the trick so far: it is the highest card of the suit led (diamonds) as no "
     "trump was played.", ["44A", "44B", "44C", "44F"]),
    ("penalty-card", dict(edition="2007", cards=["S5"]),
     "Under Law 50B of the Laws of Duplicate Bridge 2007, the 5 of spades is a single card below the rank of an "
     "honour exposed inadvertently, so it is a minor penalty card." + _see("2007"), ["50A", "50B", "50C", "50E"]),
    ("penalty-card", dict(edition="2017", cards=["SQ"]),
     "Under Law 50B of the Laws of Duplicate Bridge 2017, the queen of spades is of honour rank, so it is a major "
     "penalty card." + _see("2017"), ["50A", "50B", "50D1(a)", "50D1(b)", "50D2", "50E1", "50E2", "50E3"]),
    ("penalty-card", dict(edition="2017", cards=["S5"], exposure="deliberate"),
     "Under Law 50B of the Laws of Duplicate Bridge 2017, the 5 of spades was exposed through deliberate play, "
     "so it is major." + _see("2017"), ["50A", "50B", "50D1(a)", "50D1(b)", "50D2", "50E1", "50E2", "50E3"]),
    ("penalty-card", dict(edition="2007", cards=["SK", "S5"]),
     "Under Law 50B of the Laws of Duplicate Bridge 2007, one defender has two or more penalty cards, so all of "
     "them are major." + _see("2007"), ["50A", "50B", "50D1(a)", "50D1(b)", "50D2", "50E", "51"]),
    ("penalty-card", dict(edition="1993-rubber", cards=["SK"], player="declarer"),
     "No card of declarer's or dummy's hand ever becomes a penalty card; declarer is not restricted for exposing "
     "a card." + _see("1993-rubber"), ["48"]),
    ("revoke", dict(edition="2007", won_by="offending player", later_tricks=2),
     "Under Law 64 of the Laws of Duplicate Bridge 2007, the offending player won the revoke trick, so it is "
     f"transferred together with one of the later tricks the offending side won: 2 tricks. {_DUTCH} (64C)."
     + _see("2007"), ["64A1", "64C"]),
    ("revoke", dict(edition="2017", won_by="offending player", later_tricks=0),
     "Under Law 64 of the Laws of Duplicate Bridge 2017, the offending player won the revoke trick, so it is "
     f"transferred; the offending side won no later trick to add to it: 1 trick. {_DUTCH} (64C1)." + _see("2017"),
     ["64A1", "64C1"]),
    ("revoke", dict(edition="2007", won_by="offender's partner", later_tricks=0),
     "Under Law 64 of the Laws of Duplicate Bridge 2007, the offender's partner won the revoke trick, so one trick "
     f"is transferred. {_DUTCH} (64C)." + _see("2007"), ["64A2", "64C"]),
    ("revoke", dict(edition="2007", won_by="non-offending side", later_tricks=1),
     "Under Law 64 of the Laws of Duplicate Bridge 2007, the non-offending side won the revoke trick but the "
     f"offending side won a later trick, so one trick is transferred. {_DUTCH} (64C)." + _see("2007"),
     ["64A2", "64C"]),
    ("revoke", dict(edition="2007", won_by="non-offending side", later_tricks=0),
     "Under Law 64 of the Laws of Duplicate Bridge 2007, the offending side won neither the revoke trick nor any "
     f"later trick, so no trick is transferred. {_DUTCH} (64C)." + _see("2007"), ["64B1", "64C"]),
    ("revoke", dict(edition="1993-rubber", won_by="offender's partner", later_tricks=3, eligible_card=True),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the offender's partner won the revoke trick, so "
     "it is transferred, and one more because the offender won a later trick with a card he could legally have "
     f"played to the revoke trick: 2 tricks. {_RUBBER_EQUITY}" + _see("1993-rubber"), ["64(b)"]),
    ("revoke", dict(edition="1993-rubber", won_by="offender's partner", later_tricks=3),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the offender's partner won the revoke trick, so "
     f"it is transferred: 1 trick. {_RUBBER_EQUITY}" + _see("1993-rubber"), ["64(b)"]),
    ("revoke", dict(edition="1993-rubber", won_by="non-offending side", later_tricks=2, eligible_card=True),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the non-offending side won the revoke trick, so "
     "the first later trick the offending side won is transferred, and one more because it won two or more later "
     "tricks, one of them by the offender with a card he could legally have played to the revoke trick: 2 tricks. "
     + _RUBBER_EQUITY + _see("1993-rubber"), ["64(c)(i)", "64(c)(ii)"]),
    ("revoke", dict(edition="1993-rubber", won_by="non-offending side", later_tricks=1),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the non-offending side won the revoke trick, so "
     f"the first later trick the offending side won is transferred: 1 trick. {_RUBBER_EQUITY}" + _see("1993-rubber"),
     ["64(c)(i)"]),
    ("revoke", dict(edition="1993-rubber", won_by="non-offending side", later_tricks=0),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the offending side won neither the revoke trick "
     f"nor any later trick, so there is no trick penalty. {_RUBBER_EQUITY}" + _see("1993-rubber"), ["64(d)(i)"]),
    ("revoke", dict(edition="1993-rubber", won_by="offending player", later_tricks=1, exception="both sides"),
     "Under Law 64 of the Laws of Contract Bridge 1993 (rubber), the offending player won the revoke trick, so it "
     "is transferred together with one of the later tricks the offending side won: 2 tricks. (Both sides revoked "
     "on the same board (2017: and both revokes became established) is not an exception in this edition.) "
     + _RUBBER_EQUITY + _see("1993-rubber"), ["64(a)"]),
    ("revoke", dict(edition="2017", won_by="offending player", later_tricks=3, exception="subsequent"),
     "Under Law 64 of the Laws of Duplicate Bridge 2017, no trick is transferred: a subsequent revoke in the same "
     f"suit by the same player. {_DUTCH} (64C1)." + _see("2017"), ["64B2", "64C2(a)", "64C1"]),
    ("revoke", dict(edition="2007", won_by="offending player", later_tricks=1, revoke_trick=12),
     "Under Law 64 of the Laws of Duplicate Bridge 2007, no trick is transferred for a revoke on the twelfth "
     f"trick. {_DUTCH} (64C)." + _see("2007"), ["64B6", "64C"]),
]


@pytest.mark.parametrize("checker, data, explanation, cites", EXPLAINED,
                         ids=[f"{c}-{i}" for i, (c, *_) in enumerate(EXPLAINED)])
def test_the_explanation_and_cites_of_each_case(checker, data, explanation, cites):
    out = run(checker, **data)
    assert (out["explanation"], out["cites"]) == (explanation, cites)


def test_a_revoke_found_from_the_holdings_is_named_with_its_seat():
    out = run("trick", cards=["HK", "C4", "S2", "HA"], trumps="S", leader="N",
              holdings=["HK HQ", "C4 H3", "S2 H7", "HA D9"])
    assert out["result"] == {"winner": 2, "winning_card": "S2", "complete": True,
                             "followed": [None, False, False, True], "trumped": True, "winner_seat": "S",
                             "revokes": [1, 2]}
    assert out["cites"] == ["44A", "44B", "44D", "61A", "44C", "44E", "44G"]
    assert out["explanation"] == (
        "The 2 of spades by South wins the trick: it is the highest trump (spades), and South leads to the next trick. "
        "The 4 of clubs (East) did not follow suit although that player held hearts, a revoke (Law 44C requires "
        "following suit); the 2 of spades (South) did not follow suit although that player held hearts, a revoke "
        "(Law 44C requires following suit).")


def test_a_trick_of_no_trump_led_in_trumps_is_not_trumped():
    out = run("trick", cards=["S2", "SA", "S3"], trumps="S")
    assert out["result"] == {"winner": 1, "winning_card": "SA", "complete": False, "followed": [None, True, True],
                             "trumped": False}
    assert out["explanation"] == "The ace of spades is winning the trick so far: it is the highest trump (spades)."


_D = ["SK", "S7", "S3", "HA", "H9", "D4"]
_HIGH, _LOW, _WIN = ("Declarer named 'high' (or words of like meaning): ", "Declarer named 'low' (or words of like "
                     "meaning): ", "Declarer named 'win' (or words of like meaning): ")
_SUIT, _RANK = "Declarer named a suit but not a rank: ", "Declarer named a rank but not a suit: "
_VOID = "as with a call of a card not in dummy, the call is invalid and declarer may designate any legal card."

# dummy-designation (the code in force) -> (deemed, chooser, legal cards, legal, explanation, cites)
DESIGNATED = [
    (dict(dummy=_D, trick=["S5"], designation="high"), "SK", None, ["SK", "S7", "S3"], True,
     _HIGH + "he is deemed to have called the highest card, the king of spades.", ["46B", "46B1(a)"]),
    (dict(dummy=_D, trick=["S5"], designation="low"), "S3", None, ["SK", "S7", "S3"], True,
     _LOW + "he is deemed to have called the lowest card, the 3 of spades.", ["46B", "46B1(c)"]),
    (dict(dummy=_D, designation="high"), None, "declarer", _D, None,
     _HIGH + "the Law deems the highest card called, but dummy is on lead and holds more than one suit, so the "
     "words do not say which card; declarer must name the suit.", ["46B", "46B1(a)"]),
    (dict(dummy=["H2", "H5", "S3"], trick=["C5"], designation="low"), None, "declarer", ["H2", "H5", "S3"], None,
     _LOW + "the Law deems the lowest card called, but dummy cannot follow suit and holds more than one suit, so "
     "the words do not say which card; declarer must name the suit.", ["46B", "46B1(c)"]),
    (dict(dummy=["H2", "H5"], designation="high"), "H5", None, ["H2", "H5"], True,
     _HIGH + "he is deemed to have called the highest card, the 5 of hearts.", ["46B", "46B1(a)"]),
    (dict(dummy=_D, designation="low", suit="C"), None, "declarer", _D, None,
     _LOW + "dummy holds no clubs; " + _VOID, ["46B", "46B1(c)", "46B4"]),
    (dict(dummy=_D, trick=["S5", "SQ", "S2"], designation="win"), "SK", None, ["SK", "S7", "S3"], True,
     _WIN + "he is deemed to have called the lowest card that it is known will win the trick, the king of spades.",
     ["46B", "46B1(b)"]),
    (dict(dummy=_D, trick=["S5"], designation="win"), None, "declarer", ["SK", "S7", "S3"], None,
     _WIN + "he is deemed to have called the lowest card that it is known will win the trick, but no card in dummy "
     "is known to win it, so the words do not designate a card; declarer must designate one.", ["46B", "46B1(b)"]),
    (dict(dummy=["SA", "HA", "D2"], trumps="NT", designation="win"), None, "declarer", ["SA", "HA", "D2"], None,
     _WIN + "dummy has cards known to win in more than one suit (ace of spades, ace of hearts), so the words do "
     "not say which; declarer must name the suit.", ["46B", "46B1(b)"]),
    (dict(dummy=["SA", "HA", "D2"], trumps="NT", designation="win", suit="H"), "HA", None, ["SA", "HA", "D2"], True,
     _WIN + "he is deemed to have called the lowest card that it is known will win the trick, the ace of hearts.",
     ["46B", "46B1(b)"]),
    (dict(dummy=["C2", "C9", "HA"], trick=["D5", "D7", "C3"], designation="win"), "C9", None, ["C2", "C9", "HA"],
     True, _WIN + "he is deemed to have called the lowest card that it is known will win the trick, the 9 of "
     "clubs.", ["46B", "46B1(b)"]),
    (dict(dummy=_D, designation="suit", suit="C"), None, "declarer", _D, None,
     _SUIT + "dummy holds no clubs; " + _VOID, ["46B", "46B2", "46B4"]),
    (dict(dummy=_D, trick=["S5"], designation="suit", suit="H"), "H9", None, ["SK", "S7", "S3"], False,
     _SUIT + "he is deemed to have called the lowest card of the suit, the 9 of hearts. But the 9 of hearts would "
     "not follow suit: dummy must follow suit when it can (Law 44C), so that card cannot be played.",
     ["46B", "46B2", "44C"]),
    (dict(dummy=_D, designation="rank", rank="K", previous_suit="S"), "SK", None, _D, True,
     _RANK + "in leading he is deemed to have continued the suit in which dummy won the preceding trick: the king "
     "of spades.", ["46B", "46B3(a)"]),
    (dict(dummy=_D, trick=["HQ"], designation="rank", rank="A"), "HA", None, ["HA", "H9"], True,
     _RANK + "dummy must play its one card of that rank that can legally be played, the ace of hearts.",
     ["46B", "46B3(b)"]),
    (dict(dummy=["S9", "H9", "D2"], trick=["C5"], designation="rank", rank="9"), None, "declarer",
     ["S9", "H9", "D2"], None, _RANK + "dummy can legally play more than one card of that rank (9 of spades, 9 of "
     "hearts): declarer must designate which is intended.", ["46B", "46B3(b)"]),
    (dict(dummy=["S9", "H9", "D2"], trick=["S5"], designation="rank", rank="2"), None, "declarer", ["S9"], None,
     _RANK + "dummy holds that rank only in a suit it may not play now (it must follow suit), so declarer must "
     "designate a legal card.", ["46B", "46B3(b)"]),
    (dict(dummy=["S9", "HT", "D2"], trick=["S5"], designation="rank", rank="10"), None, "declarer", ["S9"], None,
     _RANK + "dummy holds that rank only in a suit it may not play now (it must follow suit), so declarer must "
     "designate a legal card.", ["46B", "46B3(b)"]),
    (dict(dummy=["S9", "H9", "D2"], trick=["S5"], designation="rank", rank="10"), None, "declarer", ["S9"], None,
     _RANK + "dummy holds no card of that rank; " + _VOID, ["46B", "46B3(b)", "46B4"]),
    (dict(dummy=_D, designation="nothing"), None, "either defender", _D, None,
     "Declarer named neither suit nor rank ('play anything'): without a suit or a rank, either defender may "
     "designate the play from dummy.", ["46B", "46B5"]),
    (dict(dummy=_D, designation="card", card="SQ"), None, "declarer", _D, None,
     "Declarer named a particular card: dummy does not hold the queen of spades: the call is invalid and declarer "
     "may designate any legal card.", ["46B", "46B4"]),
    (dict(dummy=_D, designation="card", card="D4"), "D4", None, _D, True,
     "Declarer named a particular card: the 4 of diamonds is in dummy, a complete designation of suit and rank.",
     ["46A"]),
]


@pytest.mark.parametrize("data, deemed, chooser, legal_cards, legal, explanation, cites", DESIGNATED,
                         ids=[f"{d['designation']}-{i}" for i, (d, *_) in enumerate(DESIGNATED)])
def test_each_designation_whole(data, deemed, chooser, legal_cards, legal, explanation, cites):
    out = run("dummy-designation", **{"trumps": "C", **data})
    # the rule is the provision applied: after 46B (an incomplete designation), or 46A alone
    expected = {"deemed": deemed, "chooser": chooser, "legal_cards": legal_cards,
                "rule": cites[1] if cites[0] == "46B" else cites[0]}
    if legal is not None:
        expected["legal"] = legal
    assert out["result"] == expected
    assert (out["explanation"], out["cites"]) == (explanation, cites)


def test_win_in_trumps_led_the_highest_trump_out_is_known_to_win():
    # trumps led: no one can ruff, so the ace of trumps (or the queen once the ace and king are seen) wins
    out = run("dummy-designation", dummy=["SA", "S2", "H3"], trumps="S", trick=["S5"], designation="win")
    assert (out["result"]["deemed"], out["result"]["legal_cards"]) == ("SA", ["SA", "S2"])
    out = run("dummy-designation", dummy=["SQ", "S2", "H3"], trumps="S", trick=["S5"], designation="win",
              seen=["SA", "SK"])
    assert out["result"]["deemed"] == "SQ"


def test_later_tricks_are_counted_from_the_revoke_trick():
    # after a revoke on trick 10, tricks 11, 12 and 13 are left: three later tricks, not four
    assert run("revoke", won_by="offending player", later_tricks=3, revoke_trick=10)["result"][
        "tricks_transferred"] == 2
    err = bad("revoke", won_by="offending player", later_tricks=4, revoke_trick=10)
    assert (str(err), err.field) == ("After a revoke on trick 10 there are only 3 tricks left.", "later_tricks")


def test_win_when_dummy_leads_with_winners_in_one_suit_names_the_card():
    out = run("dummy-designation", dummy=["SA", "S2", "H3"], trumps="NT", designation="win")
    assert (out["result"]["deemed"], out["result"]["chooser"]) == ("SA", None)


def test_a_rank_named_when_dummy_leads_with_no_previous_suit_is_its_one_card_of_that_rank():
    out = run("dummy-designation", dummy=["SK", "S2", "H3"], trumps="C", designation="rank", rank="K")
    assert out["result"] == {"deemed": "SK", "chooser": None, "legal_cards": ["SK", "S2", "H3"], "rule": "46B3(b)",
                             "legal": True}


def test_a_trick_with_no_trump_played_is_not_trumped():
    assert run("trick", cards=["HK", "H4", "D2", "HA"], trumps="S")["result"] == {
        "winner": 3, "winning_card": "HA", "complete": True, "followed": [None, True, False, True], "trumped": False}


def test_a_trick_where_all_followed_does_not_cite_the_player_unable_to():
    assert run("trick", cards=["S2", "SA", "S3"], trumps="S")["cites"] == ["44A", "44B", "44C", "44E"]


def test_a_hand_that_lacks_the_card_it_played_is_named():
    err = bad("trick", cards=["HK", "H2"], trumps="S", holdings=["HK", "H3"])
    assert (str(err), err.field) == ("Hand 2 does not hold the 2 of hearts, which it played.", "holdings")


def test_win_when_every_trump_is_seen_the_highest_of_the_suit_led_wins():
    # no trump is left with the defenders: the SA cannot be ruffed; with trumps unseen it could be
    clubs = ["C" + r for r in "23456789TJQKA"]
    out = run("dummy-designation", dummy=["SA", "H3"], trumps="C", trick=["S5"], designation="win", seen=clubs)
    assert (out["result"]["deemed"], out["result"]["legal_cards"]) == ("SA", ["SA"])
    assert run("dummy-designation", dummy=["SA", "H3"], trumps="C", trick=["S5"], designation="win")["result"][
        "deemed"] is None


def test_win_is_the_lowest_of_two_winners():
    out = run("dummy-designation", dummy=["SA", "SK", "S3"], trumps="C", trick=["S5", "SQ", "S2"], designation="win")
    assert out["result"]["deemed"] == "SK"
    assert out["explanation"].endswith("known will win the trick, the king of spades.")


def test_low_is_taken_in_the_suit_led_not_the_suit_of_the_last_card():
    out = run("dummy-designation", dummy=["SK", "S3", "H4", "H9"], trumps="C", trick=["S5", "H2"], designation="low")
    assert (out["result"]["deemed"], out["result"]["legal_cards"]) == ("S3", ["SK", "S3"])


def test_a_complete_designation_that_would_revoke_cites_46a_and_the_duty_to_follow():
    out = run("dummy-designation", dummy=["SK", "S7", "S3", "HA", "H9", "D4"], trumps="C", trick=["S5"],
              designation="card", card="D4")
    assert (out["result"]["deemed"], out["result"]["legal"], out["cites"]) == ("D4", False, ["46A", "44C"])
