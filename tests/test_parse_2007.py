"""The 2007 slide presentation (corpus 000) parsed by laws.parsers.slides.

Parsed once, from the real corpus file.  Expected values were written out from
the source text, with its damage repaired (see corpus/corrections.toml)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from laws.corrections import Corrections
from laws.manifest import load
from laws.model import SourceError
from laws.parsers import get

CORPUS = Path(__file__).parents[1] / "corpus"
FILE = "000_f79d4105db5f19c6.txt"


def _parse(text: str | None = None):
    source = next(s for s in load(CORPUS).sources if s.file == FILE)
    corrections = Corrections.load(CORPUS).for_file(FILE)
    if text is None:
        text = source.path.read_text(encoding="utf-8")
    return get(source.parser)(text, source, corrections, {}), corrections


@pytest.fixture(scope="module")
def parsed():
    return _parse()[0]


@pytest.fixture(scope="module")
def laws(parsed):
    return {law.number: law for law in parsed.laws}


def provisions(law):
    return [(p.id, p.heading, p.text) for p in law.provisions]


def all_texts(parsed):
    """Every piece of text the parser hands on, with where it is."""
    for s in parsed.sections:
        yield s.slug, s.title + "\n" + s.text
    for d in parsed.definitions:
        yield d.id, d.term + "\n" + d.text
    for law in parsed.laws:
        yield str(law.number), law.title
        for p in law.provisions:
            yield p.id, p.heading + "\n" + p.text
            for t in p.tables:
                yield p.id, "\n".join([t.caption, *t.header, *(c for row in t.rows for c in row)])
        for f in law.footnotes:
            yield f.provision, f.text


# --- laws and titles ------------------------------------------------------------

def test_all_93_laws_in_order(parsed):
    assert [law.number for law in parsed.laws] == list(range(1, 94))
    assert all(law.title for law in parsed.laws)
    assert all(law.provisions[0].id == str(law.number) for law in parsed.laws)


@pytest.mark.parametrize("number, title", [
    (1, "The Pack – Rank of Cards and Suits"),
    (3, "Arrangement of Tables"),
    (4, "Partnerships"),
    (6, "The Shuffle and Deal"),
    (7, "Control of Board and Cards"),
    (12, "Director’s Discretionary Powers"),
    (16, "Authorized and Unauthorized Information"),
    (22, "Procedure after the Bidding Has Ended"),
    (40, "Partnership Understandings"),
    (46, "Incomplete or Erroneous Call of a Card from Dummy"),
    (61, "Failure to Follow Suit – Inquiries Concerning a Revoke"),
    (77, "Duplicate Bridge Scoring Table"),
    (88, "Award of Indemnity Points"),
    (89, "Rectification in Individual Events"),
    (93, "Procedures of Appeal"),
])
def test_titles(laws, number, title):
    assert laws[number].title == title


def test_laws_sharing_a_slide_are_separated(laws):
    assert provisions(laws[3]) == [("3", "", "Four players play at each table, and tables are numbered in a sequence "
                                    "established by the Director. He designates one direction as North; other compass "
                                    "directions assume the normal relationship to North.")]
    assert laws[4].provisions[0].text.startswith("The four players at each table constitute two partnerships")
    assert provisions(laws[88]) == [("88", "", "See Law 12C2.")]
    assert provisions(laws[89]) == [("89", "", "See Law 12C3.")]


# --- provisions, whole laws -----------------------------------------------------

LAW_12 = [
    ('12', '', ''),
    ('12A', 'Power to Award an Adjusted Score', 'On the application of a player within the period established under Law 92B or on his own initiative the Director may award an adjusted score when these Laws empower him to do so (in team play see Law 86). This includes:'),
    ('12A1', '', 'The Director may award an adjusted score when he judges that these Laws do not provide indemnity to a non-offending contestant for the particular type of violation committed by an opponent.'),
    ('12A2', '', 'The Director awards an artificial adjusted score if no rectification can be made that will permit normal play of the board (see C2 below).'),
    ('12A3', '', 'The Director may award an adjusted score if there has been an incorrect rectification of an irregularity.'),
    ('12B', 'Objectives of Score Adjustment', ''),
    ('12B1', '', 'The objective of score adjustment is to redress damage to a non-offending side and to take away any advantage gained by an offending side through its infraction. Damage exists when, because of an infraction, an innocent side obtains a table result less favourable than would have been the expectation had the infraction not occurred – but see C1(b).'),
    ('12B2', '', 'The Director may not award an adjusted score on the ground that the rectification provided in these Laws is either unduly severe or advantageous to either side.'),
    ('12C', 'Awarding an Adjusted Score', ''),
    ('12C1', '', ''),
    ('12C1(a)', '', 'When after an irregularity the Director is empowered by these laws to adjust a score and is able to award an assigned adjusted score, he does so. Such a score replaces the score obtained in play.'),
    ('12C1(b)', '', 'If, subsequent to the irregularity, the non-offending side has contributed to its own damage by a serious error (unrelated to the infraction) or by wild or gambling action it does not receive relief in the adjustment for such part of the damage as is self-inflicted. The offending side should be awarded the score that it would have been allotted as the consequence of its infraction only.'),
    ('12C1(c)', '', 'In order to do equity, and unless the Regulating Authority forbids it, an assigned adjusted score may be weighted to reflect the probabilities of a number of potential results.'),
    ('12C1(d)', '', 'If the possibilities are numerous or not obvious, the Director may award an artificial adjusted score.'),
    ('12C1(e)', '', 'In its discretion the Regulating Authority may apply all or part of the following procedure in place of (c):'),
    ('12C1(e)(i)', '', 'The score assigned in place of the actual score for a non-offending side is the most favourable result that was likely had the irregularity not occurred.'),
    ('12C1(e)(ii)', '', 'For an offending side the score assigned is the most unfavourable result that was at all probable.'),
    ('12C1(f)', '', 'The scores awarded to the two sides need not balance.'),
    ('12C2', '', ''),
    ('12C2(a)', '', 'When owing to an irregularity no result can be obtained [and see C1(d)] the Director awards an artificial adjusted score according to responsibility for the irregularity: average minus (at most 40% of the available matchpoints in pairs) to a contestant directly at fault, average (50% in pairs) to a contestant only partly at fault, and average plus (at least 60% in pairs) to a contestant in no way at fault.'),
    ('12C2(b)', '', 'When the Director awards an artificial adjusted score of average plus or minus at international match points that score is normally plus or minus 3 imps, but this may be varied as Law 86A allows.'),
    ('12C2(c)', '', 'The foregoing is modified for a non-offending contestant that obtains a session score exceeding 60% of the available matchpoints or for an offending contestant that obtains a session score that is less than 40% of the available matchpoints (or the equivalent in imps). Such contestants are awarded the percentage obtained (or the equivalent in imps) on the other boards of that session.'),
    ('12C3', '', 'In individual events the Director enforces the rectifications in these Laws, and the provisions requiring the award of adjusted scores, equally against both members of the offending side even though only one of them may be responsible for the irregularity. But the Director shall not award a procedural penalty against the offender’s partner if of the opinion that he is in no way to blame.'),
    ('12C4', '', 'When the Director awards non-balancing adjusted scores in knockout play, each contestant’s score on the board is calculated separately and the average of them is assigned to each.'),
]

LAW_20 = [
    ('20', '', ''),
    ('20A', 'Call Not Clearly Recognized', 'A player may require clarification forthwith if he is in doubt what call has been made.'),
    ('20B', 'Review of Auction during Auction Period', 'During the auction period, a player is entitled to have all previous calls restated* when it is his turn to call, unless he is required by law to pass. Alerts should be included when responding to the request. A player may not ask for a partial review of previous calls and may not halt the review before it is completed.'),
    ('20C', 'Review after Final Pass', ''),
    ('20C1', '', 'After the final pass either defender has the right to ask if it is his opening lead (see Laws 47E and 41).'),
    ('20C2', '', 'Declarer** or either defender may, at his first turn to play, require all previous calls to be restated*. (See Laws 41B and 41C). As in B the player may not ask for only a partial restatement or halt the review.'),
    ('20D', 'Who May Review the Auction', 'A request to have calls restated* shall be responded to only by an opponent.'),
    ('20E', 'Correction of Error in Review', 'All players, including dummy or a player required by law to pass, are responsible for prompt correction of errors in restatement* (see Law 12C1 when an uncorrected review causes damage).'),
    ('20F', 'Explanation of Calls', ''),
    ('20F1', '', 'During the auction and before the final pass, any player may request, but only at his own turn to call, an explanation of the opponents’ prior auction. He is entitled to know about calls actually made, about relevant alternative calls available that were not made, and about relevant inferences from the choice of action where these are matters of partnership understanding. Except on the instruction of the Director replies should be given by the partner of the player who made the call in question. The partner of a player who asks a question may not ask a supplementary question until his turn to call or play. Law 16 may apply and the Regulating Authority may establish regulations for written explanations.'),
    ('20F2', '', 'After the final pass and throughout the play period, either defender at his own turn to play may request an explanation of the opposing auction. At his turn to play from his hand or from dummy declarer may request an explanation of a defender’s call or card play understandings. Explanations should be given on a like basis to 1 and by the partner of the player whose action is explained.'),
    ('20F3', '', 'Under 1 and 2 above a player may ask concerning a single call but Law 16B1 may apply.'),
    ('20F4', '', 'If a player subsequently realizes that his own explanation was erroneous or incomplete he must call the Director immediately. The Director applies Law 21B or Law 40B4.'),
    ('20F5', '', ''),
    ('20F5(a)', '', 'A player whose partner has given a mistaken explanation may not correct the error during the auction, nor may he indicate in any manner that a mistake has been made. ‘Mistaken explanation’ here includes failure to alert or announce as regulations require or an alert (or an announcement) that regulations do not require.'),
    ('20F5(b)', '', 'The player must call the Director and inform his opponents that, in his opinion, his partner’s explanation was erroneous (see Law 75) but only at his first legal opportunity, which is'),
    ('20F5(b)(i)', '', 'for a defender, at the end of the play.'),
    ('20F5(b)(ii)', '', 'for declarer or dummy, after the final pass of the auction.'),
    ('20F6', '', 'If the Director judges that a player has based an action on misinformation given to him by an opponent see, as appropriate, Law 21 or Law 47E.'),
    ('20G', 'Incorrect Procedure', ''),
    ('20G1', '', 'It is improper to ask a question solely for partner’s benefit.'),
    ('20G2', '', 'Except as the Regulating Authority allows a player may not consult his own system card and notes during the auction and play periods, but see Law 40B2(b).'),
]

LAW_27 = [
    ('27', '', ''),
    ('27A', 'Acceptance of Insufficient Bid', ''),
    ('27A1', '', 'Any insufficient bid may be accepted (treated as legal) at the option of offender’s LHO. It is accepted if that player calls.'),
    ('27A2', '', 'If a player makes an insufficient bid out of rotation, Law 31 applies.'),
    ('27B', 'Insufficient Bid Not Accepted', 'If an insufficient bid in rotation is not accepted (see A) it must be corrected by the substitution of a legal call (but see 3 following). Then:'),
    ('27B1', '', ''),
    ('27B1(a)', '', 'if the insufficient bid is corrected by the lowest sufficient bid in the same denomination and in the Director’s opinion both the insufficient bid and the substituted bid are incontrovertibly not artificial the auction proceeds without further rectification. Law 16D does not apply but see D following.'),
    ('27B1(b)', '', 'if, except as in (a), the insufficient bid is corrected with a legal call that in the Director’s opinion has the same meaning* as, or a more precise meaning* than, the insufficient bid (such meaning being fully contained within the possible meanings of the insufficient bid) the auction proceeds without further rectification, but see D following.'),
    ('27B2', '', 'except as provided in B1 above, if the insufficient bid is corrected by a sufficient bid or by a pass, the offender’s partner must pass whenever it is his turn to call. The lead restrictions in Law 26 may apply, and see Law 23.'),
    ('27B3', '', 'except as provided in B1(b) above, if the offender attempts to substitute a double or a redouble for his insufficient bid the attempted call is cancelled. The offender must replace it as the foregoing allows and his partner must then pass whenever it is his turn to call. The lead restrictions in Law 26 may apply, and see Law 23.'),
    ('27B4', '', 'if the offender attempts to replace the one insufficient bid with another insufficient bid the Director rules as in 3 if the LHO does not accept the substituted insufficient bid as A allows.'),
    ('27C', 'Premature Replacement', 'If the offender replaces his insufficient bid before the Director has ruled on rectification, unless the insufficient bid is accepted as A allows the substitution stands. The Director applies the relevant foregoing section to the substitution.'),
    ('27D', 'Non-offending Side Damaged', 'If following the application of B1 the Director judges at the end of the play that without assistance gained through the infraction the outcome of the board could well have been different** and in consequence the non-offending side is damaged (see Law 12B1), he shall award an adjusted score. In his adjustment he should seek to recover as nearly as possible the probable outcome of the board had the insufficient bid not occurred.'),
]

LAW_40 = [
    ('40', '', ''),
    ('40A', 'Players’ Systemic Agreements', ''),
    ('40A1', '', ''),
    ('40A1(a)', '', 'Partnership understandings as to the methods adopted by a partnership may be reached explicitly in discussion or implicitly through mutual experience or awareness of the players.'),
    ('40A1(b)', '', 'Each partnership has a duty to make available its partnership understandings to opponents before commencing play against them. The Regulating Authority specifies the manner in which this shall be done.'),
    ('40A2', '', 'Information conveyed to partner through such understandings must arise from the calls, plays and conditions of the current deal. Each player is entitled to take into account the legal auction and, subject to any exclusions in these laws, the cards he has seen. He is entitled to use information specified elsewhere in these laws to be authorized. (See Law 73C.)'),
    ('40A3', '', 'A player may make any call or play without prior announcement provided that such call or play is not based on an undisclosed partnership understanding (see Law 40C1).'),
    ('40B', 'Special Partnership Understandings', ''),
    ('40B1', '', ''),
    ('40B1(a)', '', 'In its discretion the Regulating Authority may designate certain partnership understandings as “special partnership understandings”. A special partnership understanding is one whose meaning, in the opinion of the Regulating Authority, may not be readily understood and anticipated by a significant number of players in the tournament.'),
    ('40B1(b)', '', 'Whether explicit or implicit an agreement between partners is a partnership understanding. A convention is included, unless the Regulating Authority decides otherwise, among the agreements and treatments that constitute special partnership understandings as is the case with any call that has an artificial meaning.'),
    ('40B2', '', ''),
    ('40B2(a)', '', 'The Regulating Authority is empowered without restriction to allow, disallow, or allow conditionally, any special partnership understanding. It may prescribe a System Card with or without supplementary sheets, for the prior listing of a partnership’s understandings, and regulate its use. The Regulating Authority may prescribe alerting procedures and/or other methods of disclosure of a partnership’s methods. It may vary the general requirement that the meaning of a call or play shall not alter by reference to the member of the partnership by whom it is made (such a regulation must not restrict style and judgement, only method).'),
    ('40B2(b)', '', 'Unless the Regulating Authority provides otherwise a player may not consult his own system card after the auction period commences until the end of play, except that players of the declaring side (only) may consult their own system card during the Clarification Period.'),
    ('40B2(c)', '', 'Unless the Regulating Authority provides otherwise a player may consult his opponent’s system card'),
    ('40B2(c)(i)', '', 'prior to the commencement of the auction,'),
    ('40B2(c)(ii)', '', 'during the Clarification Period, and'),
    ('40B2(c)(iii)', '', 'during the auction and during the play but only at his turn to call or play.'),
    ('40B2(d)', '', 'The Regulating Authority may restrict the use of psychic artificial calls.'),
    ('40B3', '', 'The Regulating Authority may disallow prior agreement by a partnership to vary its understandings during the auction or play following a question asked, a response to a question, or any irregularity.'),
    ('40B4', '', 'A side that is damaged as a consequence of its opponents’ failure to provide disclosure of the meaning of a call or play as these laws require, is entitled to rectification through the award of an adjusted score.'),
    ('40B5', '', 'When a side is damaged by an opponent’s use of a special partnership understanding that does not comply with the regulations governing the tournament the score shall be adjusted. A side in breach of those regulations may be subject to a procedural penalty.'),
    ('40B6', '', ''),
    ('40B6(a)', '', 'When explaining the significance of partner’s call or play in reply to opponent’s enquiry (see Law 20) a player shall disclose all special information conveyed to him through partnership agreement or partnership experience but he need not disclose inferences drawn from his knowledge and experience of matters generally known to bridge players.'),
    ('40B6(b)', '', 'The Director adjusts the scores if information not given in an explanation is crucial for opponent’s choice of action and opponent is thereby damaged.'),
    ('40C', 'Deviation from System and Psychic Action', ''),
    ('40C1', '', 'A player may deviate from his side’s announced understandings always provided that his partner has no more reason to be aware of the deviation than have the opponents. Repeated deviations lead to implicit understandings which then form part of the partnership’s methods and must be disclosed in accordance with the regulations governing disclosure of system. If the Director judges there is undisclosed knowledge that has damaged the opponents he shall adjust the score and may award a procedural penalty.'),
    ('40C2', '', 'Other than the above no player has any obligation to disclose to opponents that he has deviated from his announced methods.'),
    ('40C3', '', ''),
    ('40C3(a)', '', 'Unless permitted by the Regulating Authority a player is not entitled during the auction and play periods to any aids to his memory, calculation or technique.'),
    ('40C3(b)', '', 'Repeated violations of requirements to disclose partnership understandings may be penalized.'),
]

LAW_80 = [
    ('80', '', ''),
    ('80A', 'The Regulating Authority', ''),
    ('80A1', '', 'The Regulating Authority under these laws is'),
    ('80A1(a)', '', 'for its own world tournaments and events the World Bridge Federation.'),
    ('80A1(b)', '', 'the respective Zonal Authority for tournaments and events held under its auspices.'),
    ('80A1(c)', '', 'for any other tournament or event the National Bridge Organization in whose territory the tournament takes place.'),
    ('80A2', '', 'The Regulating Authority has the responsibilities and powers specified in these laws.'),
    ('80A3', '', 'The Regulating Authority may delegate its powers (retaining ultimate responsibility for their exercise) or it may assign them (in which case it has no further responsibility for their exercise).'),
    ('80B', 'Tournament Organizer', ''),
    ('80B1', '', 'The Regulating Authority may recognize an entity, designated the ‘Tournament Organizer’, which subject to the requirements of the Regulating Authority and these laws is responsible for arranging and preparing a tournament or event. The Tournament Organizer’s powers and duties may be delegated but the responsibility for their performance is retained. The Regulating Authority and the Tournament Organizer may be the same body.'),
    ('80B2', '', 'The Tournament Organizer’s powers and duties include:'),
    ('80B2(a)', '', 'appointment of the Director. If there is no appointed Director the players should designate a person to perform his functions.'),
    ('80B2(b)', '', 'to make advance arrangements for the tournament, including playing quarters, equipment and all other logistical requirements.'),
    ('80B2(c)', '', 'to establish the date and time of each session.'),
    ('80B2(d)', '', 'to establish the conditions of entry.'),
    ('80B2(e)', '', 'to establish the conditions for bidding and play in accordance with these laws, together with any special conditions (as, for example, play with screens – provisions for rectification of actions not transmitted across the screen may be varied).'),
    ('80B2(f)', '', 'to announce regulations supplementary to, but not in conflict with, these Laws.'),
    ('80B2(g)', '', ''),
    ('80B2(g)(i)', '', 'to arrange* for the appointment of any assistants required for the Director.'),
    ('80B2(g)(ii)', '', 'to appoint other staff and prescribe their duties and responsibilities.'),
    ('80B2(h)', '', 'to arrange* for entries to be accepted and listed.'),
    ('80B2(i)', '', 'to establish suitable conditions of play and announce them to the contestants.'),
    ('80B2(j)', '', 'to arrange* for scores to be collected, results tabulated, and an official record made of them.'),
    ('80B2(k)', '', 'to make suitable arrangements for the conduct of appeals under Law 93.'),
    ('80B2(l)', '', 'any other powers and duties conferred in these laws.'),
]


@pytest.mark.parametrize("number, expected", [(12, LAW_12), (20, LAW_20), (27, LAW_27), (40, LAW_40), (80, LAW_80)])
def test_whole_law(laws, number, expected):
    assert provisions(laws[number]) == expected


def test_law_35_numbers_items_directly_under_the_law(laws):
    assert [p.id for p in laws[35].provisions] == ["35", "35.1", "35.2", "35.3", "35.4"]
    assert [p.parent for p in laws[35].provisions] == [None, "35", "35", "35", "35"]


def test_heading_alone_on_its_line_and_heading_broken_over_two_lines(laws):
    b = next(p for p in laws[13].provisions if p.id == "13B")
    assert (b.heading, b.text) == ("Adjusted Score and Possible Penalty", "Otherwise when a call has been made the "
                                   "Director shall award an adjusted score and may penalize an offender.")
    c = next(p for p in laws[60].provisions if p.id == "60C")
    assert c.heading == "Play by Offending Side before Assessment of Rectification"
    assert c.text.startswith("A play by a member of the offending side")


def test_continued_headings_merge_into_their_section(laws):
    assert [p.id for p in laws[8].provisions] == ["8", "8A", "8A1", "8A2", "8B", "8B1", "8B2", "8C"]
    assert [p.id for p in laws[13].provisions].count("13D") == 1
    assert [p.id for p in laws[19].provisions] == ["19", "19A", "19A1", "19A2", "19A3", "19B", "19B1", "19B2",
                                                   "19B3", "19C", "19D"]
    for law in laws.values():
        for p in law.provisions:
            assert not re.search(r"\b(?:continued|Contd)$", p.heading), p.id
            assert not re.search(r"\b(?:End of Round|No Call Made|Irregularity|Redoubles) (?:continued|Contd)\b",
                                 p.text), p.id


def test_sentences_after_a_list_belong_to_the_provision_above_it(laws):
    trailing = [(p.id, p.parent, p.text) for n in (69, 71) for p in laws[n].provisions if ".p" in p.id]
    assert trailing == [("69B.p1", "69B", "The board is rescored with such trick awarded to his side."),
                        ("71.p1", "71", "The board is rescored with such trick awarded to his side.")]


def test_paragraphs_within_a_provision(laws):
    paragraphs = laws[75].provisions[0].text.split("\n\n")
    assert paragraphs[0].endswith("as illustrated by the consequences of this following example:")
    assert paragraphs[1].startswith("North has opened 1NT and South, who holds a weak hand with long diamonds, "
                                    "has bid 2♦, intending to sign off;")
    assert len(paragraphs) == 2
    assert all("\n" not in p.text for p in laws[12].provisions)  # one paragraph each, lines joined


# Sentences the Laws themselves print in more than one provision of a law.
REPEATED_IN_THE_LAWS = {
    14: {"Rectification and/or penalties may apply (see 4 following)."},
    19: {"calls other than pass must not have intervened.", "(Law 16 — Unauthorized Information — may apply.)"},
    27: {"The lead restrictions in Law 26 may apply, and see Law 23."},
    36: {"The lead restrictions in Law 26 may apply."},
    51: {"The prohibition continues until the player loses the lead."},
    67: {"He is deemed to have revoked on the defective trick and is subject to the loss of one trick "
         "transferred in accordance with Law 64A2."},
}


def test_no_sentence_lands_in_two_provisions(laws):
    for number, law in laws.items():
        counts = Counter(s for p in law.provisions for s in set(re.split(r"(?<=[.;:])\s+", p.text))
                         if len(s.split()) >= 5)
        assert {s for s, k in counts.items() if k > 1} == REPEATED_IN_THE_LAWS.get(number, set()), number


# --- footnotes ------------------------------------------------------------------

def test_footnote_of_law_6_once_on_6D2(laws):
    assert [(f.provision, f.mark, f.text) for f in laws[6].footnotes] == [
        ("6D2", "*", "A ‘sorted deck’ is a pack of cards not randomized from its prior condition.")]
    assert "sorted deck*" in next(p.text for p in laws[6].provisions if p.id == "6D2")


def test_footnotes_repeated_on_several_slides_are_kept_once(laws):
    assert [(f.provision, f.mark, f.text) for f in laws[20].footnotes] == [
        ("20B", "*", "When the calls are not spoken responders must ensure that it is clear to an enquiring "
                     "opponent what calls have been made."),
        ("20C2", "**", "Declarer’s first turn to play is from dummy unless accepting an opening lead out of turn."),
    ]
    assert [(f.provision, f.mark) for f in laws[41].footnotes] == [("41A", "*"), ("41B", "**"), ("41B", "***")]


def test_footnote_run_into_the_text_is_separated(laws):
    d = next(p for p in laws[86].provisions if p.id == "86D")
    assert d.text.endswith("(and should do so when that result appears favourable to the non-offending side).")
    assert [(f.provision, f.text) for f in laws[86].footnotes] == [
        ("86D", "if commenced between the same two contestants at another table the board may be completed.")]


def test_every_footnote_sits_on_a_provision_carrying_its_mark(laws):
    for law in laws.values():
        for f in law.footnotes:
            text = next(p.text for p in law.provisions if p.id == f.provision)
            assert re.search(rf"(?<!\*){re.escape(f.mark)}(?!\*)", text), (f.provision, f.mark)
    assert sum(len(law.footnotes) for law in laws.values()) == 32


# --- tables ---------------------------------------------------------------------

def test_law_2_table(laws):
    law2 = laws[2].provisions[0]
    assert [(t.caption, t.header, t.rows) for t in law2.tables] == [("Dealer and vulnerability", [], [
        ["North Dealer", "Boards", "1", "5", "9", "13", "Neither Side Vulnerable", "Boards", "1", "8", "11", "14"],
        ["East Dealer", "Boards", "2", "6", "10", "14", "North-South Vulnerable", "Boards", "2", "5", "12", "15"],
        ["South Dealer", "Boards", "3", "7", "11", "15", "East-West Vulnerable", "Boards", "3", "6", "9", "16"],
        ["West Dealer", "Boards", "4", "8", "12", "16", "Both Sides Vulnerable", "Boards", "4", "7", "10", "13"],
    ])]
    assert law2.text == (
        "A duplicate board containing a pack is provided for each deal to be played during a session. Each board "
        "is numbered and has four pockets to hold the four hands, designated North, East, South and West. The dealer "
        "and vulnerability are designated as follows:\n\nThe same sequence is repeated for Boards 17-32 and for each "
        "subsequent group of 16 boards. No board that fails to conform to these conditions should be used. If such "
        "board is used, however, the conditions marked on it apply for that session.")


def test_law_78B_imp_scale(laws):
    b = next(p for p in laws[78].provisions if p.id == "78B")
    ranges = ["20–40", "50–80", "90–120", "130–160", "170–210", "220–260", "270–310", "320–360", "370–420",
              "430–490", "500–590", "600–740", "750–890", "900–1090", "1100–1290", "1300–1490", "1500–1740",
              "1750–1990", "2000–2240", "2250–2490", "2500–2990", "3000–3490", "3500–3990", "4000 & upward"]
    assert [(t.caption, t.header, t.rows) for t in b.tables] == [
        ("IMP scale", ["Difference in points", "IMPs"], [[r, str(i)] for i, r in enumerate(ranges, 1)])]
    assert b.text == ("In international matchpoint scoring, on each board the total point difference between the "
                      "two scores compared is converted into IMPs according to the following scale.")
    assert [p.id for p in laws[78].provisions if p.tables] == ["78B"]


def test_law_77_tables(laws):
    law77 = laws[77].provisions
    assert [p.id for p in law77] == ["77"]
    tables = law77[0].tables
    assert [t.caption.split(".")[0] for t in tables] == [
        "TRICK SCORE", "AT A NO TRUMP CONTRACT", "PREMIUM SCORE", "OVERTRICKS",
        "PREMIUMS FOR GAME, PARTSCORE, FULFILLING CONTRACT", "UNDERTRICK PENALTIES"]
    assert tables[0].header == ["IF TRUMPS ARE:", "", "♣", "♦", "♥", "♠"]
    assert tables[0].rows[0] == ["For each odd trick bid and made", "Undoubled", "20", "20", "30", "30"]
    assert tables[5].rows[3:6] == [["For each additional undertrick", "Undoubled", "50", "100"],
                                   ["", "Doubled", "200", "300"], ["", "Redoubled", "400", "600"]]
    assert law77[0].text == ("A trick score of 100 points or more, made on one board, is GAME. A trick score of "
                             "less than 100 points is a PARTSCORE.\n\nIf all four players pass (see Law 22) each "
                             "side enters a zero score")


def test_law_77_layout_is_checked_against_the_file(monkeypatch):
    from laws.parsers import slides
    tampered = [replace(t, rows=[list(r) for r in t.rows]) for t in slides.LAW77_TABLES]
    tampered[3].rows[1][2] = "300"  # overtricks doubled vulnerable: 200 in the file
    monkeypatch.setattr(slides, "LAW77_TABLES", tampered)
    with pytest.raises(SourceError, match="Law 77's table does not match"):
        _parse()


def test_table_cells_do_not_remain_in_text(laws):
    for number in (2, 77, 78):
        for p in laws[number].provisions:
            assert "Boards Boards" not in p.text and "Undoubled" not in p.text and "IMPs in points" not in p.text
            assert not re.search(r"\b\d+–\d+\b", p.text)


def test_rebuilt_tables_are_recorded(parsed):
    assert sorted(c.where for c in parsed.corrections if c.kind == "table") == ["2", "77", "78B"]


# --- definitions and front matter -----------------------------------------------

def test_definitions(parsed):
    defs = {d.term: d for d in parsed.definitions}
    assert len(parsed.definitions) == 62
    assert parsed.definitions[0].term == "Adjusted Score" and parsed.definitions[-1].term == "Withdrawn"
    assert defs["Suit"].text == ("One of four groups of cards in the pack, each group comprising thirteen cards and "
                                 "having a characteristic symbol: spades (♠), hearts (♥), diamonds (♦), clubs (♣).")
    assert defs["Psychic call"].text == ("(commonly ‘psych[e]’ or ‘psychic’) — a deliberate and gross misstatement "
                                         "of honour strength and/or of suit length.")
    assert defs["Psychic call"].id == "def:Psychic call"
    assert defs["International Matchpoint (IMP)"].text == ("a unit of scoring awarded according to a schedule "
                                                           "established in Law 78B.")
    assert defs["Penalty"].text == (
        "(See also ‘Rectification’) — penalties are of two kinds:\n\n"
        "disciplinary — those applied for the maintenance of courtesy and good order (see Law 91), and\n\n"
        "procedural — penalties (additional to any rectification) awarded in the Director’s discretion in cases of "
        "procedural irregularities (see Law 90).")
    assert defs["Withdrawn"].text == ("actions said to be ‘withdrawn’ include actions that are ‘cancelled’ and cards "
                                      "that are ‘retracted’.")
    assert defs["Session"].text.endswith("(May have different meanings between Laws 4, 12C2 and 91.)")
    assert defs["Suit"].raw_text is not None and "\uf0a9" in defs["Suit"].raw_text


def test_sections(parsed):
    assert [(s.slug, s.title) for s in parsed.sections] == [
        ("preface", "Preface to the 2007 Laws of Duplicate Bridge"),
        ("introduction", "Introduction to the 2007 Laws of Duplicate Bridge")]
    preface, intro = (s.text.split("\n\n") for s in parsed.sections)
    assert preface[0].startswith("The first Laws of Duplicate Bridge were published in 1928.")
    assert preface[6:] == ["The Drafting Committee consisted of:", "Max Bavin", "Ralph Cohen", "Joan Gerard",
                           "Ton Kooijman", "Jeffrey Polisner", "William Schoder", "Grattan Endicott (Co-ordinator)",
                           "John Wignall (Chairman)", "John R. Wignall, MNZM"]
    assert len(intro) == len(set(intro)) == 6
    assert intro[0].startswith("Directors have been given considerably more discretionary powers.")
    assert intro[-1] == ("Finally, unless the context clearly dictates otherwise, the singular includes the plural "
                         "and the masculine includes the feminine, and vice versa.")


# --- damage gone ----------------------------------------------------------------

def test_no_chrome_mojibake_or_cyrillic_anywhere(parsed):
    for where, text in all_texts(parsed):
        assert not re.search(r"[\u0400-\u04ff]", text), where  # Cyrillic: chrome, or mojibake like 'в™'
        assert not re.search(r"[\uf0a7-\uf0aa\ufffd™‚]", text), where
        assert "•" not in text and "Geoff Slack-Smith" not in text and "PRESENTATION" not in text, where


def test_slide_numbers_removed_from_sentences(laws, parsed):
    text = {p.id: p.text for law in laws.values() for p in law.provisions}
    assert "for any reason compatible with the Laws (but see Law 86C)." in text["6D3"]
    assert "proceeds without further rectification, but see D following." in text["27B1(b)"]
    assert "he is deemed to have called the lowest card." in text["46B1(c)"]
    assert text["55C"].endswith("the Director may award an adjusted score.")
    slide_breaks = [(c.where, c.line) for c in parsed.corrections if c.reason.startswith("slide number")]
    assert slide_breaks == [("6D3", 370), ("6D2", 389), ("20B", 977), ("27B1(b)", 1237), ("46B1(c)", 1830),
                            ("55C", 2130)]
    # a number the text has between two words must not be a slide number that
    # stood on a line of its own between them
    source = (CORPUS / FILE).read_text(encoding="utf-8")
    for where, t in all_texts(parsed):
        for m in re.finditer(r"(\S+) (\d{1,3}) (\S+)", t):
            assert f"{m[1]}\n{m[2]}\n{m[3]}" not in source, (where, m[0])


def test_curated_corrections_keep_the_raw_reading(laws, parsed):
    c1b = next(p for p in laws[12].provisions if p.id == "12C1(b)")
    assert "self-inflicted" in c1b.text and "selfinflicted" in c1b.raw_text
    assert all("nonoffending" not in t for _, t in all_texts(parsed))
    assert Counter(c.where for c in parsed.corrections if c.raw == "nonoffending") == Counter(
        {"16D2": 1, "21B2": 1, "27D": 1, "50E3": 1, "64A1": 1, "64C": 1, "84D": 1})


def test_every_curated_correction_is_used():
    _, corrections = _parse()
    corrections.check_all_used({FILE})


def test_mojibake_repairs_are_recorded(parsed):
    suits = [c for c in parsed.corrections if c.kind == "mojibake" and c.where == "def:Suit"]
    assert [c.corrected for c in suits] == ["♠", "♥", "♦", "♣"]


# --- unreadable input -----------------------------------------------------------

def test_no_law_1_heading_is_an_error():
    text = (CORPUS / FILE).read_text(encoding="utf-8").replace("LAW 1 - THE PACK", "THE PACK")
    with pytest.raises(SourceError, match="'LAW 1' heading"):
        _parse(text)


def test_missing_law_is_an_error_naming_it():
    text = (CORPUS / FILE).read_text(encoding="utf-8").replace("LAW 40 - PARTNERSHIP\n", "")
    with pytest.raises(SourceError, match="Law 40") as err:
        _parse(text)
    assert err.value.line is not None


def test_not_the_slide_text_is_an_error():
    with pytest.raises(SourceError, match="PREFACE"):
        _parse("Some other text\nLAW 1 - THE PACK\n")
