"""PBN 2.1 for the ruling record (laws/rulings/pbn.py): files written to the
standard with tags the record does not use are read, not refused; a
malformed Deal is refused naming the tag; what the record writes reads back
as the same facts.  static/rulings/pbn.js reads the same files the same way
(tests/test_rulings_record_appeal_browser.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from laws.rulings import pbn

PBN_DIR = Path(__file__).resolve().parent / "fixtures" / "pbn"
CLUB = {"event": "Tuesday Club Pairs", "site": "Riverside Bridge Club", "board": "5", "round": "2",
        "date": "2025-03-11", "north": "Bob North", "east": "Cy East", "south": "Di South", "west": "Ann West",
        "dealer": "N", "vulnerable": "NS",
        "deal": "N:AKQ2.J54.K83.Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT84",
        "auction": "N 1C Pass 1H Pass 2H Pass 4H Pass Pass Pass", "cardplay": "W ST S2 S9 S8 HT H4 H9 H2",
        "result_contract": "4H", "result_declarer": "S", "result_tricks": "10"}
# each fixture's games, as the record's fields (whole values)
EXPECTED = {
    "club-pairs.pbn": [CLUB],
    "teams-two-boards.pbn": [
        {"event": "County Teams League", "site": "Town Hall", "board": "12", "round": "1", "date": "2024-11-02",
         "north": "Fay", "east": "Gus", "south": "Hal", "west": "Eve", "dealer": "W", "vulnerable": "Both",
         "deal": "N:A87.KJT93.86.A92 T92.Q875.JT9.KQ5 643.64.A432.T874 KQJ5.A2.KQ75.J63",
         "auction": "W 1D 1H Pass 2H X 3H Pass 3NT AP", "cardplay": "E D6 D8 D5 DJ",
         "result_contract": "3NT", "result_declarer": "N", "result_tricks": "9"},
        # `#` repeats the previous game's Event, Site and Date; "?" is not known
        {"event": "County Teams League", "site": "Town Hall", "board": "13", "date": "2024-11-02",
         "north": "Fay", "east": "Gus", "south": "Hal", "west": "Eve", "dealer": "N", "vulnerable": "Both",
         "deal": "N:- - - -"}],
    "dealer-only.pbn": [
        {"event": "Practice", "board": "21", "dealer": "N", "vulnerable": "None",
         "deal": "N:765.Q8.QJT98.KQ5 - AT98.KJ5.AK2.JT9 -"}],
}
# malformed deals, each refused with a message naming the tag
MALFORMED = {
    "13 cards missing": ('N:AKQ2.J54.K83.Q7 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT84',
                         "Deal: North's hand has 12 cards, not 13."),
    "a card twice": ('N:AKQ2.J54.K83.Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT8Q',
                     "Deal: the CQ is dealt twice (North and West)."),
    "wrong suit count": ('N:AKQ2.J54.K83Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT84',
                         "Deal: North's hand 'AKQ2.J54.K83Q72' has 3 suits, not 4 (spades.hearts.diamonds.clubs)."),
    "three hands": ('N:AKQ2.J54.K83.Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95',
                    "Deal: it gives 3 hands, not 4 (a hand not known is -)."),
    "no first seat": ('AKQ2.J54.K83.Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT84',
                      "Deal: 'AKQ2.J54.K83.Q72 J96.AQ9.Q762.' does not start with the first seat and a colon (like N:)."),
    "not a rank": ('N:AKQ1.J54.K83.Q72 J96.AQ9.Q762.K63 T8.K7632.AJ4.A95 7543.T8.T95.JT84',
                   "Deal: '1' in North's hand is not a rank (AKQJT98765432)."),
}


def malformed_file(deal: str) -> str:
    return f'[Event "Club"]\n[Board "1"]\n[Deal "{deal}"]\n'


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files_written_to_the_standard_are_read_with_the_tags_lawbook_does_not_use_ignored(name):
    assert pbn.read((PBN_DIR / name).read_text(encoding="utf-8")) == EXPECTED[name]


def test_every_fixture_is_checked():
    assert sorted(p.name for p in PBN_DIR.glob("*.pbn")) == sorted(EXPECTED)


def test_tags_sections_and_commentary_are_kept_in_the_parse():
    game = pbn.parse((PBN_DIR / "club-pairs.pbn").read_text(encoding="utf-8"))[0]
    assert game["tags"]["OptimumScore"] == "NS 420" and game["tags"]["HomeTeam"] == "none"
    assert game["tags"]["Note"] == "1:three-card support"
    assert game["commentary"] == ["the play after trick two is not recorded",
                                  "Ruling called at trick one: no irregularity found."]


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_deal_is_refused_naming_the_tag(case):
    deal, message = MALFORMED[case]
    with pytest.raises(pbn.PBNError) as exc:
        pbn.read(malformed_file(deal))
    assert str(exc.value) == message and exc.value.tag == "Deal"


def test_what_the_record_writes_reads_back_as_the_same_facts():
    text = pbn.write(CLUB, "Ruling: no irregularity {none}.")
    assert pbn.read(text) == [CLUB]
    game = pbn.parse(text)[0]
    assert game["commentary"] == ["Ruling: no irregularity (none)."]
    assert [game["tags"][t] for t in ("Event", "Site", "Date", "Board", "Dealer", "Vulnerable", "Result")] == \
        ["Tuesday Club Pairs", "Riverside Bridge Club", "2025.03.11", "5", "N", "NS", "10"]
    assert text.startswith("% PBN 2.1\n% EXPORT\n")


def test_unknown_values_are_written_as_the_standard_says():
    game = pbn.parse(pbn.write({"board": "3"}))[0]
    assert game["tags"]["Date"] == "????.??.??" and game["tags"]["Deal"] == "?" and game["tags"]["Event"] == "?"
    assert pbn.read(pbn.write({"board": "3"})) == [{"board": "3"}]


def test_a_bad_call_in_the_auction_is_refused_naming_the_tag():
    with pytest.raises(pbn.PBNError) as exc:
        pbn.read('[Board "1"]\n[Auction "N"]\n1H 8S\n')
    assert exc.value.tag == "Auction" and str(exc.value) == "Auction: '8S' is not a call."


def test_a_long_bad_call_is_quoted_to_twenty_characters():
    with pytest.raises(pbn.PBNError) as exc:
        pbn.read('[Board "1"]\n[Auction "N"]\n1H ' + "Z" * 30 + "\n")
    assert str(exc.value) == f"Auction: {'Z' * 20!r} is not a call."


def test_calls_and_cards_in_lower_case_are_read_in_capitals_and_an_unknown_card_kept():
    got = pbn.read('[Board "1"]\n[Auction "N"]\n1h pass 2nt AP\n[Play "W"]\nsa - h2 d3\n')
    assert (got[0]["auction"], got[0]["cardplay"]) == ("N 1H Pass 2NT AP", "W SA - H2 D3")


def test_a_tag_that_is_not_a_tag_pair_is_refused_quoting_forty_characters():
    tag = "[Event " + "x" * 60 + "]"
    with pytest.raises(pbn.PBNError) as exc:
        pbn.parse(tag + "\n")
    assert str(exc.value) == f"{tag[:40]!r} is not a tag pair like [Event \"…\"]."


def test_a_file_of_exactly_the_largest_size_is_read_and_one_more_character_refused():
    game = '[Event "Club"]\n[Board "1"]\n'
    padded = game + ";" + "x" * (200_000 - len(game) - 1)  # the documented limit, 200,000 characters
    assert pbn.read(padded) == [{"event": "Club", "board": "1"}]
    with pytest.raises(pbn.PBNError) as exc:
        pbn.parse(padded + "x")
    assert str(exc.value) == "A PBN file for a record is at most 200000 characters."
