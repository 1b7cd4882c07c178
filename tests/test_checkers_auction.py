"""The auction checker: Laws 17-22 (procedure), and the inadmissible calls of
Laws 27 and 35-39 (expected values read from the 2007 text in corpus/)."""
from __future__ import annotations

import pytest

from laws.checkers import registry
from laws.web.errors import BadRequest


def auction(calls, dealer="N", **extra):
    if isinstance(calls, str):
        calls = calls.split()
    return registry.run("auction", {"dealer": dealer, "calls": calls, **extra})


@pytest.mark.parametrize("edition, ends", [("2017", "22A"), ("2007", "22A2")])
def test_contract_example(edition, ends):
    # CONTRACT.md: 1H P 1S X XX P P P from North.  The auction ends with three
    # passes after the last bid: 2007 22A2, 2017 22A ('The last bid becomes the
    # contract (but see Law 19D)' in both)
    out = auction("1H P 1S X XX P P P", edition=edition)
    r = out["result"]
    assert {k: r[k] for k in ("complete", "legal", "contract", "declarer", "next")} == {
        "complete": True, "legal": True, "contract": "1SXX", "declarer": "S", "next": None}
    assert r["irregularity"] is None
    assert out["edition"] == edition
    assert out["cites"] == ["17B", "17C", "19A1", "19B1", "18B", ends, "19D"]


def test_the_code_in_force_by_default():
    """No edition asked for: the code in force (the manifest's in_force, 2017)."""
    assert auction("1H P P P")["edition"] == "2017"


def test_declarer_is_first_of_the_side_to_name_the_strain():
    # Definitions ('Declarer'): the player who, for the side that makes the
    # final bid, first bid the denomination named in it.  N opens 1H, S raises
    # to 4H: North declares (a standard textbook case).
    r = auction("1H P 4H P P P")["result"]
    assert (r["contract"], r["declarer"]) == ("4H", "N")
    # E bids spades first for EW, W bids them last: East declares
    r = auction("1C 1S 2C 2D P 2S P P P")["result"]
    assert (r["contract"], r["declarer"]) == ("2S", "E")
    # the other side's earlier spade bid does not count
    r = auction("1S 2S P 3S P P P", dealer="E")["result"]  # E 1S, S 2S, W P, N 3S
    assert (r["contract"], r["declarer"]) == ("3S", "S")


@pytest.mark.parametrize("edition, law", [("2017", "22B"), ("2007", "22A1")])
def test_passed_out(edition, law):
    # all four players pass (2007 22A1, 2017 22B); Law 77: each side scores zero
    out = auction("P P P P", dealer="W", edition=edition)
    r = out["result"]
    assert r["complete"] and r["legal"] and r["passed_out"]
    assert r["contract"] is None and r["declarer"] is None and r["next"] is None
    assert out["cites"] == ["17B", "17C", law]


@pytest.mark.parametrize("calls, dealer, nxt", [
    ("", "N", "N"),              # Law 17B: the dealer calls first
    ("P P P", "E", "N"),         # three passes from the start do not end it (22A1 needs four)
    ("1NT P P", "S", "E"),       # 17C: clockwise
    ("1NT P P X", "S", "S"),
])
def test_incomplete_auction_and_who_calls_next(calls, dealer, nxt):
    r = auction(calls, dealer=dealer)["result"]
    assert r["complete"] is False and r["legal"] is True and r["next"] == nxt


@pytest.mark.parametrize("calls, index, law, problem_word", [
    ("1S 1H", 1, "27", "insufficient"),          # 18D, 27: fails to supersede
    ("1S 1S", 1, "27", "insufficient"),          # same level and strain
    ("2NT P 2S", 2, "27", "insufficient"),
    ("X", 0, "36", "no bid"),                   # 19A1: nothing to double
    ("1H P X", 2, "36", "partner"),             # doubling partner's bid
    ("1H X P X", 3, "36", "already doubled"),
    ("1H XX", 1, "36", "no double"),            # 19B1: nothing to redouble
    ("1H X P XX", 3, "36", "partner"),          # redoubling partner's double
    ("1H X XX XX", 3, "36", "already redoubled"),
    ("8C", 0, "38", "more than seven"),         # 38
    ("7NT P P P P", 4, "39", "after the final pass"),  # 39
    ("P P P P 1C", 4, "39", "after the final pass"),
])
def test_each_irregularity_names_the_law(calls, index, law, problem_word):
    out = auction(calls)
    irr = out["result"]["irregularity"]
    assert out["result"]["legal"] is False
    assert irr["index"] == index and irr["law"] == law
    assert problem_word in irr["problem"]
    assert law in out["cites"] and f"Law {law}" in out["explanation"]


@pytest.mark.parametrize("edition, items", [
    # 2007 Law 35: 1. doubles not permitted by 19 (Law 36); 2. a player required
    # to pass (37); 3. more than seven (38); 4. after the final pass (39)
    ("2007", ["35.1", "35.2", "35.3", "35.4"]),
    # 2017 Law 35: A. 'A double or redouble not permitted by Law 19. Law 36
    # applies.' B. '... by a player required to pass. Law 37 applies.'
    # C. 'A bid of more than seven. Law 38 applies.' D. 'A call after the final
    # pass of the auction. Law 39 applies.'
    ("2017", ["35A", "35B", "35C", "35D"]),
])
def test_law_35_item_is_cited_with_the_law(edition, items):
    double, required, seven, after = items
    assert auction("X", edition=edition)["cites"] == ["17B", "17C", double, "19A1", "36"]
    assert auction("1C X", required_to_pass=["E"], edition=edition)["cites"] == ["17B", "17C", "18C", required, "37"]
    assert auction("8NT", edition=edition)["cites"] == ["17B", "17C", seven, "18A", "38"]
    assert auction("P P P P P", edition=edition)["cites"][-2:] == [after, "39"]
    assert auction("1C 1S P 1D", edition=edition)["cites"] == ["17B", "17C", "18C", "18D", "27"]


def test_player_required_to_pass():
    # Law 37: a bid, double or redouble by a player required to pass
    out = auction("1C 1H", required_to_pass=["E"])
    irr = out["result"]["irregularity"]
    assert (irr["index"], irr["law"], irr["player"]) == (1, "37", "E")
    assert auction("1C P 1H", required_to_pass=["E"])["result"]["legal"] is True
    # a double contrary to Law 19A1 is Law 36's, not 37's (Law 37A)
    assert auction("1C 1D P X", required_to_pass=["W"])["result"]["irregularity"]["law"] == "36"
    # a legal double by a player required to pass is Law 37
    assert auction("1C X", required_to_pass=["E"])["result"]["irregularity"]["law"] == "37"


def test_first_irregularity_only_and_state_before_it():
    r = auction("1H 1C 8S")["result"]
    assert r["irregularity"]["index"] == 1
    assert r["complete"] is False and r["last_bid"] == "1H"


def test_call_after_final_pass_keeps_the_contract():
    r = auction("1NT P P P 2C")["result"]
    assert r["complete"] is True and r["contract"] == "1NT" and r["declarer"] == "N"
    assert r["irregularity"]["law"] == "39"


def test_double_superseded_by_a_later_bid():
    # Law 19C: a double is superseded by a subsequent legal bid
    r = auction("1H X 2H P P P")["result"]
    assert r["contract"] == "2H"


@pytest.mark.parametrize("spelling, normal", [
    ("pass", "P"), ("Pass", "P"), ("dbl", "X"), ("D", "X"), ("rdbl", "XX"), ("R", "XX"),
    ("1n", "1NT"), ("3♠", "3S"), ("2 nt", "2NT"),
    ("no  bid", "P"), ("NB", "P"), ("-", "P"), ("double", "X"), ("redouble", "XX"), (" 1 ♣ ", "1C"),
])
def test_call_spellings(spelling, normal):
    """Each spelling reads as the call it names (a bid must be that bid)."""
    calls = ["1H", "X", spelling] if normal == "XX" else ["1C", spelling] if normal == "X" else [spelling]
    r = auction(calls)["result"]
    assert r["legal"] is True
    if normal[0].isdigit():
        assert r["last_bid"] == normal


@pytest.mark.parametrize("symbol, suit", [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")])
def test_each_suit_symbol_is_its_own_suit(symbol, suit):
    assert auction([f"1{symbol}", "P", "P", "P"])["result"]["contract"] == f"1{suit}"


def test_hearts_then_spades_by_symbol_is_a_legal_auction():
    r = auction(["1♥", "1♠", "P", "P", "P"])["result"]
    assert (r["legal"], r["contract"], r["declarer"], r["irregularity"]) == (True, "1S", "E", None)


@pytest.mark.parametrize("data, field", [
    ({"dealer": "Q", "calls": []}, "dealer"),
    ({"dealer": "N", "calls": ["1H", "bogus"]}, "calls"),
    ({"dealer": "N", "calls": ["0C"]}, "calls"),
    ({"dealer": "N", "calls": "1H P"}, "calls"),
    ({"dealer": "N", "calls": [1]}, "calls"),
    ({"dealer": "N"}, "calls"),
    ({"dealer": "N", "calls": [], "required_to_pass": ["X"]}, "required_to_pass"),
])
def test_auction_bad_input(data, field):
    with pytest.raises(BadRequest) as info:
        registry.run("auction", data)
    assert info.value.field == field


# (calls, dealer, extra) -> the explanation and the cites, whole: each state
# the auction can be in, and each inadmissible call, in its own words
EXPLAINED = [
    ("1H P 1S X XX P P P", "N", {},
     "The auction is complete: the contract is 1SXX by South, the first of North-South to name spades; "
     "every call so far is legal.", ["17B", "17C", "19A1", "19B1", "18B", "22A", "19D"]),
    ("1H X P P P", "E", {"edition": "2007"},
     "The auction is complete: the contract is 1HX by East, the first of East-West to name hearts; "
     "every call so far is legal.", ["17B", "17C", "19A1", "18B", "22A2", "19D"]),
    ("1NT P P P", "N", {"edition": "2007"},
     "The auction is complete: the contract is 1NT by North, the first of North-South to name no trump; "
     "every call so far is legal.", ["17B", "17C", "18B", "22A2"]),
    ("P P P P", "W", {},
     "All four players passed: the board is passed out and each side scores zero; every call so far is legal.",
     ["17B", "17C", "22B"]),
    ("", "E", {}, "The auction is not complete; no one has bid yet and East calls next; every call so far is legal.",
     ["17B", "17C"]),
    ("1H X", "S", {},
     "The auction is not complete: the last bid is 1HX by South and North calls next; every call so far is legal.",
     ["17B", "17C", "19A1", "18C"]),
    ("1D P P X XX", "N", {},
     "The auction is not complete: the last bid is 1DXX by North and East calls next; every call so far is legal.",
     ["17B", "17C", "19A1", "19B1", "18C"]),
    ("1S 1H", "N", {},
     "Call 2 (1H by East) is inadmissible, an insufficient bid: 1H does not supersede 1S, and Law 27 applies. "
     "Before it: the auction is not complete: the last bid is 1S by North and East was to call.",
     ["17B", "17C", "18C", "18D", "27"]),
    ("X", "N", {},
     "Call 1 (X by North) is inadmissible, a double when there is no bid to double (Law 19A1), and Law 36 applies. "
     "Before it: the auction is not complete; no one has bid yet and North was to call.",
     ["17B", "17C", "35A", "19A1", "36"]),
    ("1H X XX P X", "N", {},
     "Call 5 (X by North) is inadmissible, a double of his own bid (Law 19A1), and Law 36 applies. "
     "Before it: the auction is not complete: the last bid is 1HXX by North and North was to call.",
     ["17B", "17C", "19A1", "19B1", "18C", "35A", "36"]),
    ("1C 1D P X", "N", {"required_to_pass": ["W"]},
     "Call 4 (X by West) is inadmissible, a double of his partner’s bid (Law 19A1), and Law 36 applies. "
     "Before it: the auction is not complete: the last bid is 1D by East and West was to call.",
     ["17B", "17C", "18C", "35A", "19A1", "36"]),
    ("1H X XX X", "N", {},
     "Call 4 (X by West) is inadmissible, a double of a bid already redoubled (Law 19A1), and Law 36 applies. "
     "Before it: the auction is not complete: the last bid is 1HXX by North and West was to call.",
     ["17B", "17C", "19A1", "19B1", "18C", "35A", "36"]),
    ("1H XX", "N", {},
     "Call 2 (XX by East) is inadmissible, a redouble when there is no double to redouble (Law 19B1), and Law 36 "
     "applies. Before it: the auction is not complete: the last bid is 1H by North and East was to call.",
     ["17B", "17C", "18C", "35A", "19B1", "36"]),
    ("1H X P XX", "N", {},
     "Call 4 (XX by West) is inadmissible, a redouble of his partner’s double (Law 19B1), and Law 36 applies. "
     "Before it: the auction is not complete: the last bid is 1HX by North and West was to call.",
     ["17B", "17C", "19A1", "18C", "35A", "19B1", "36"]),
    ("1H X XX XX", "N", {},
     "Call 4 (XX by West) is inadmissible, a redouble of a bid already redoubled (Law 19B1), and Law 36 applies. "
     "Before it: the auction is not complete: the last bid is 1HXX by North and West was to call.",
     ["17B", "17C", "19A1", "19B1", "18C", "35A", "36"]),
    ("1C 1H", "N", {"required_to_pass": ["E"]},
     "Call 2 (1H by East) is inadmissible, East is required to pass but made a bid, and Law 37 applies. "
     "Before it: the auction is not complete: the last bid is 1C by North and East was to call.",
     ["17B", "17C", "18C", "35B", "37"]),
    ("1C P 1H X P", "N", {"required_to_pass": ["E", "W"]},
     "Call 4 (X by West) is inadmissible, West is required to pass but made a double, and Law 37 applies. "
     "Before it: the auction is not complete: the last bid is 1H by South and West was to call.",
     ["17B", "17C", "18C", "35B", "37"]),
    ("1C X XX", "N", {"required_to_pass": ["S"]},
     "Call 3 (XX by South) is inadmissible, South is required to pass but made a redouble, and Law 37 applies. "
     "Before it: the auction is not complete: the last bid is 1CX by North and South was to call.",
     ["17B", "17C", "19A1", "18C", "35B", "37"]),
    ("7NT P P P P", "N", {},
     "Call 5 (P by North) is inadmissible, a call after the final pass of the auction, and Law 39 applies. "
     "Before it: the auction is complete: the contract is 7NT by North, the first of North-South to name no trump.",
     ["17B", "17C", "18B", "22A", "35D", "39"]),
]


@pytest.mark.parametrize("calls, dealer, extra, explanation, cites", EXPLAINED, ids=[e[0] or "-" for e in EXPLAINED])
def test_the_explanation_and_cites_of_each_state(calls, dealer, extra, explanation, cites):
    out = auction(calls, dealer=dealer, **extra)
    assert (out["explanation"], out["cites"]) == (explanation, cites)


@pytest.mark.parametrize("calls, extra, index", [
    ("1H 8C P P P", {}, 1),                              # more than seven (38)
    ("1C 1H P P P", {"required_to_pass": ["E"]}, 1),     # a bid by a player required to pass (37)
    ("1C X XX P P P", {"required_to_pass": ["S"]}, 2),   # a redouble by one (37)
    ("1C X P P P", {"required_to_pass": ["E"]}, 1),      # a double by one (37)
    ("X P P P P", {}, 0),                                # a double of no bid (36)
    ("1C XX P P P", {}, 1),                              # a redouble of no double (36)
])
def test_checking_stops_at_the_first_inadmissible_call(calls, extra, index):
    """The passes after it do not complete the auction: the state is the one before it."""
    r = auction(calls, **extra)["result"]
    assert (r["complete"], r["next"], r["contract"], r["irregularity"]["index"]) == (
        False, "NESW"[index], None, index)


def test_checking_stops_at_the_first_call_after_the_final_pass():
    r = auction("1NT P P P P X")["result"]
    assert (r["complete"], r["contract"], r["irregularity"]["index"], r["irregularity"]["call"]) == (
        True, "1NT", 4, "P")
    assert r["ruling"] == "/rulings/auction?edition=2017&dealer=N&calls=1NT+P+P+P+P"


def test_a_level_of_up_to_three_digits_is_a_bid_of_more_than_seven():
    irr = auction("1H 100C")["result"]["irregularity"]
    assert (irr["call"], irr["law"], irr["problem"]) == ("100C", "38", "a bid of more than seven (100C)")
    with pytest.raises(BadRequest) as info:
        auction("1H 1000C")
    assert (str(info.value), info.value.field) == (
        "Call 2, '1000C', is not a call: write P for pass, X for double, XX for redouble, or a bid such as 1C, "
        "3NT, 7S.", "calls")


def test_the_whole_result_of_a_complete_and_of_a_broken_auction():
    assert auction("P P 1S P 2S X P P P")["result"] == {
        "complete": True, "legal": True, "next": None, "passed_out": False, "contract": "2SX", "level": 2,
        "strain": "S", "risk": "X", "declarer": "S", "last_bid": "2S", "irregularity": None, "ruling": None}
    assert auction("1H X XX P X")["result"] == {
        "complete": False, "legal": False, "next": "N", "passed_out": False, "contract": None, "level": None,
        "strain": None, "risk": None, "declarer": None, "last_bid": "1H",
        "irregularity": {"index": 4, "call": "X", "player": "N", "problem": "a double of his own bid (Law 19A1)",
                         "law": "36", "cites": ["35A", "19A1", "36"]},
        "ruling": "/rulings/auction?edition=2017&dealer=N&calls=1H+X+XX+P+X"}
    assert auction("P P P P", dealer="S")["result"] == {
        "complete": True, "legal": True, "next": None, "passed_out": True, "contract": None, "level": None,
        "strain": None, "risk": None, "declarer": None, "last_bid": None, "irregularity": None, "ruling": None}


@pytest.mark.parametrize("edition", ["2017", "2007"])
def test_an_irregularity_points_to_the_ruling(client, edition):
    """The ruling in the checker's own edition."""
    r = auction("1S 1H", edition=edition)["result"]
    assert r["ruling"] == f"/rulings/auction?edition={edition}&dealer=N&calls=1S+1H"
    page = client.get(r["ruling"])
    assert page.status_code == 200 and b"insufficient bid by East" in page.data
    assert auction("1H P P P")["result"]["ruling"] is None
    assert "required_to_pass=E" in auction("1C 1H", required_to_pass=["E"])["result"]["ruling"]
