"""The plain parser on the blog's transcription of 2017 Laws 33-40 (004), and on
a made-up clean transcription of the kind an organiser would add (the 2027 Laws)."""
from __future__ import annotations

from pathlib import Path

import pytest

from laws import manifest
from laws.corrections import Corrections
from laws.model import SourceError
from laws.parsers import get

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILE = "004_00dffde58a6aed35.txt"


@pytest.fixture(scope="module")
def corrections():
    return Corrections.load(CORPUS)


@pytest.fixture(scope="module")
def source():
    return next(s for s in manifest.load(CORPUS).sources if s.file == FILE)


@pytest.fixture(scope="module")
def parsed(source, corrections):
    return get(source.parser)(source.path.read_text(encoding="utf-8"), source, corrections, {})


@pytest.fixture(scope="module")
def laws(parsed):
    return {law.number: law for law in parsed.laws}


def rows(law):
    return [(p.id, p.parent, p.label, p.heading, p.text) for p in law.provisions]


def raw_readings(law):
    return {p.id: p.raw_text for p in law.provisions if p.raw_text is not None}


def test_titles_as_printed_with_typos_corrected(laws):
    assert {n: law.title for n, law in laws.items()} == {
        33: "Simultaneous Calls",
        34: "Retention of Right to Call",
        35: "Inadmissible Calls",
        36: "Inadmissible Doubles and Redoubles",
        37: "Action Violating Obligation to Pass",
        38: "Bid of More Than Seven",
        39: "Call After the Final Pass",
        40: "Partnership Understandings",
    }


def test_edition_and_file(parsed):
    assert (parsed.file, parsed.edition) == (FILE, "2017")


LAW_35 = [
    ('35', None, '', '',
     'The following calls are inadmissible:'),
    ('35A', '35', 'A', '',
     'A double or redouble not permitted by Law 19. Law 36 applies.'),
    ('35B', '35', 'B', '',
     'A bid, double or redouble by a player required to pass. Law 37 applies.'),
    ('35C', '35', 'C', '',
     'A bid of more than 7. Law 38 applies.'),
    ('35D', '35', 'D', '',
     'A call after the final pass of the auction. Law 39 applies.'),
]

RAW_35 = {
    '35': 'The following calls are inadmissable:',
    '35A': 'A double or redouble not permitted by Law19. Law 36 applies.',
    '35B': 'A bid, double or redouble by a player requires to pass. Law 37 applies.',
    '35D': 'A call afte rthe final pass of the auction. Law 39 applies.',
}

LAW_36 = [
    ('36', None, '', '',
     ''),
    ('36A', '36', 'A', 'Offender’s LHO Calls Before Rectification',
     'If offender’s LHO calls before rectification of an inadmissible double or redouble the inadmissible call and all subsequent calls are cancelled. The auction reverts to the player whose turn it was to call and proceeds as though there had been no irregularity. The lead restrictions in Law 26B do not apply.'),
    ('36B', '36', 'B', 'Offender’s LHO Does Not Call Before Rectification',
     'When A does not apply:'),
    ('36B1', '36B', '1', '',
     'Any double or redouble not permitted by Law 19 is cancelled.'),
    ('36B2', '36B', '2', '',
     'The offender must substitute a legal call, the auction continues, and the offender’s partner must pass for the remainder of the auction.'),
    ('36B3', '36B', '3', '',
     'Law 72C may apply. The lead restrictions in Law 26B may apply.'),
    ('36B4', '36B', '4', '',
     'If the call is out of turn the auction reverts to the player whose turn it was to call, the offender may make any legal call at their turn, and their partner must pass for the remainder of the auction. Law 72C may apply. The lead restrictions in Law 26B may apply.'),
    ('36C', '36', 'C', 'Irregularity Discovered After the Auction Period',
     'When attention is drawn to an inadmissible double or redouble only after the opening lead has been faced, the final contract is scored as if the inadmissible call had not been made.'),
]

RAW_36 = {
    '36A': 'If Offender’s LHO calls before Rectification of an inadmissable double or redouble th einadmissable call and all subsequent calls are cancelled. The auction reverts to the player whose turn it was to call and proceeds as though there had been no irregularity. The lead restrictions in Law 26B do not apply.',
    '36B4': 'If the call is out of turn the auction reverts to the player whose turn it was to call, th eoffender may make any legal call at their turn, and their partner must pass for the remainder of the auction. Law 72C may apply. Th elead restrictions in Law 26B may apply.',
    '36C': 'When attention is drawn to an inadmissable double or redouble only after the opening lead has been faced, the final contract is scored as if the inadmissable call had not been made.',
}

LAW_40 = [
    ('40', None, '', '',
     ''),
    ('40A', '40', 'A', 'Player’s Systemic Agreements',
     ''),
    ('40A1', '40A', '1', '',
     ''),
    ('40A1(a)', '40A1', '(a)', '',
     'Partnership understandings as to the methods adopted by a partnership may be reached explicitly in discussion or implicitly through mutual experience or awareness of the players.'),
    ('40A1(b)', '40A1', '(b)', '',
     'Each partnership has a duty to make its partnership understandings available to its opponents. The Regulating Authority specifies the manner in which this is done.'),
    ('40A2', '40A', '2', '',
     'Information conveyed to partner through such understandings must arise from the calls, plays and conditions of the current deal. Each player is entitled to take into account the legal auction and, subject to any exclusions in these laws, the cards he/she has seen. He/she is entitled to use information specified elsewhere in these laws to be authorised. (See Law 73C).'),
    ('40A3', '40A', '3', '',
     'A player may make any call or play without prior announcement provided that such call or play is not based on an undisclosed partnership understanding (see Law 40C1).'),
    ('40A4', '40A', '4', '',
     'The agreed meaning of a call or play shall not alter by reference to the member of the partnership by whom it is made (this requirement does not restrict style and judgement, only method).'),
    ('40B', '40', 'B', 'Special Partnership Understandings',
     ''),
    ('40B1', '40B', '1', '',
     ''),
    ('40B1(a)', '40B1', '(a)', '',
     'An agreement between partners, whether explicit or implicit, is a partnership understanding.'),
    ('40B1(b)', '40B1', '(b)', '',
     'In its discretion the Regulating Authority may designate certain partnership understandings as ‘special partnership understandings’. A special partnership understanding is one whose meaning, in the opinion of the Regulating Authority, may not be readily understood and anticipated by a significant number of players in the tournament.'),
    ('40B1(c)', '40B1', '(c)', '',
     'Unless the Regulating Authority decides otherwise, any call that has an artificial meaning constitutes a special partnership understanding.'),
    ('40B2', '40B', '2', '',
     ''),
    ('40B2(a)', '40B2', '(a)', '',
     'The Regulating Authority:'),
    ('40B2(a)(i)', '40B2(a)', '(i)', '',
     'Is empowered without restriction to allow, disallow, or allow conditionally, any special partnership understanding.'),
    ('40B2(a)(ii)', '40B2(a)', '(ii)', '',
     'May prescribe a system card, with or without supplementary sheets, for the prior listing of a partnership’s understandings, and regulate its use.'),
    ('40B2(a)(iii)', '40B2(a)', '(iii)', '',
     'May prescribe alerting procedures and/or other methods of disclosure of a partnership’s methods.'),
    ('40B2(a)(iv)', '40B2(a)', '(iv)', '',
     'May disallow prior agreement by a partnership to vary its understandings during the auction or play following an irregularity committed by the opponents.'),
    ('40B2(a)(v)', '40B2(a)', '(v)', '',
     'May restrict the use of psychic artificial calls.'),
    ('40B2(b)', '40B2', '(b)', '',
     'Unless the Regulating Authority provides otherwise a player may not consult his/her own system card between the commencement of the auction period and the end of play, except that players of the declaring side (only) may consult their own system card during the clarification period.'),
    ('40B2(c)', '40B2', '(c)', '',
     'Unless the Regulating Authority provides otherwise a player may consult their opponent’s system card:'),
    ('40B2(c)(i)', '40B2(c)', '(i)', '',
     'Prior to the commencement of the auction'),
    ('40B2(c)(ii)', '40B2(c)', '(ii)', '',
     'During the clarification period'),
    ('40B2(c)(iii)', '40B2(c)', '(iii)', '',
     'During the auction and during the play but only at his/her turn to call or play and;'),
    ('40B2(c)(iv)', '40B2(c)', '(iv)', '',
     'Following an opponent’s request for an explanation pursuant to Law 20F, for the purpose of correctly explaining the significance of his/her partner’s call or play.'),
    ('40B2(d)', '40B2', '(d)', '',
     'Unless the Regulating Authority provides otherwise a player is not entitled to any aids to his/her memory, calculation or technique during the auction period and play.'),
    ('40B3', '40B', '3', '',
     ''),
    ('40B3(a)', '40B3', '(a)', '',
     'A side that is damaged as a consequence of its opponents’ failure to provide disclosure of the meaning of a call or play, as these laws require, is entitled to rectification through the award of an adjusted score.'),
    ('40B3(b)', '40B3', '(b)', '',
     'Repeated violations of requirements to disclose partnership understandings may be penalised.'),
    ('40B4', '40B', '4', '',
     'When a side is damaged by an opponent’s use of a special partnership understanding that does not comply with the regulations governing the tournament the score shall be adjusted. A side in breach of those regulations may be subject to a procedural penalty.'),
    ('40B5', '40B', '5', '',
     ''),
    ('40B5(a)', '40B5', '(a)', '',
     'When explaining the significance of a partner’s call or play in reply to an opponent’s enquiry (see Law 20) a player shall disclose all special information conveyed to him/her through partnership agreement or partnership experience but he/she need not disclose inferences drawn from his/her knowledge and experience of matters generally known to Bridge players.'),
    ('40B5(b)', '40B5', '(b)', '',
     'The Director adjusts the score if information not given in an explanation is crucial for an opponent’s choice of action and the opponent is thereby damaged.'),
    ('40C', '40', 'C', 'Deviation From System and Psychic Action',
     ''),
    ('40C1', '40C', '1', '',
     'A player may deviate from his/her side’s announced understandings, provided that his/her partner has no more reason than the opponents to be aware of the deviation (but see B2(a)(v) above). Repeated deviations lead to implicit understandings which then form part of the partnership’s methods and must be disclosed in accordance with the regulations governing disclosure of system. If the Director judges there is undisclosed knowledge that has damaged the opponents he/she shall adjust the score and may assess a procedural penalty.'),
    ('40C2', '40C', '2', '',
     'Other than in C1 above, no player is obliged to disclose to the opponents that he/she has deviated from his/her announced methods.'),
]

RAW_40 = {
    '40A1(b)': 'Each partnership has a duty to make its partnership understandings available to its opponents. The Regulating authority specifies the manner in which this is done.',
    '40B2(a)(ii)': 'May prescribe a system card, with or without, supplementary sheets, for the prior listing of a partnership’s understandings, and regulate its use.',
    '40B2(c)(iv)': 'Following an opponents request for an explanation pursuant to Law 20F, for the purpose of correctly explaining the significance of his/her partner’s call or play.',
    '40B3(a)': 'A side that is damaged as a consequence of its opponents’ failure to provide disclosure of the meaning of a call or play, as these laws require, is entitled to rectification through the awartd of an adjusted score.',
    '40B3(b)': 'Repeated violations of requiremements to disclose partnership understandings may be penalised.',
    '40B4': 'When a side is damaged by an opponents use of a special partnership understanding that does not comply with the regulations governing the tournament the score shall be adjusted. A side in breach of those regulations may be subject to a procedural penbalty.',
    '40B5(a)': 'When explaining the significance of a partner’s call or play in reply to an opponents enquiry (see Law 20) a player shall disclose all special information conveyed to him/her through partnership agreement or partnership experience but he/she need not disclose inferences drawn from his/her knowledge and experience of matters generally known to Bridge players.',
    '40C1': 'A player may deviate from his/her side’s announced understandings, provided that his/her partner has no more reason than the opponents to be aware of the deviation (but seeB2a)v). above). Repeated deviations lead to implicit understandings which then form part of the partnership’s methods and must be disclosed in accordance with the regulations governing disclosure of system. If the Director judges there is undisclosed knowledge that has damaged the opponents he/she shall adjust the score and may assess a procedural penalty.',
}


def test_law_35(laws):
    assert rows(laws[35]) == LAW_35
    assert raw_readings(laws[35]) == RAW_35


def test_law_36(laws):
    assert rows(laws[36]) == LAW_36
    assert raw_readings(laws[36]) == RAW_36


def test_law_40(laws):
    assert rows(laws[40]) == LAW_40
    assert raw_readings(laws[40]) == RAW_40


def test_heading_corrected_and_full_stop_dropped(laws):
    headings = {p.id: p.heading for law in laws.values() for p in law.provisions if p.heading}
    assert headings["38A"] == "No Play Permissible"
    assert headings["38D"] == "Possible Lack of Recourse to Laws 26B and 72C"


def test_blog_chrome_is_not_law_text(parsed):
    texts = [law.title for law in parsed.laws] + [p.text for law in parsed.laws for p in law.provisions]
    assert not [t for t in texts if "You are here" in t or "Laws of Duplicate Bridge 9" in t]
    assert [c.line for c in parsed.corrections if c.kind == "layout" and c.corrected == ""] == [1, 2]


def test_gender_neutral_wording_is_the_blogs_and_kept(laws):
    assert "he/she must still pass" in laws[37].provisions[1].text


def test_every_correction_for_the_file_is_used(parsed, corrections):
    unused = [(e.line, e.raw) for e in corrections.entries if e.file == FILE and not e.uses]
    assert unused == []


# --- the same parser on a clean transcription it has never seen --------------------

class _Source:
    file, edition = "new.txt", "2027"


CLEAN = """\
Laws of Duplicate Bridge 2027
Law 12
Director's Discretionary Powers
A. Power to Award an Adjusted Score
The Director may award an adjusted score:
1. when these Laws empower him.
2. (a) when no rectification is possible*; or
(b) when a rectification was wrong:
(i) on his own initiative,
(ii) on request.
B. Objectives of Score Adjustment
The objective is to redress damage.
* As in Law 6D2.
Law 13 - Incorrect Number of Cards
Items numbered under the law itself:
1. first.
2. second.
Law 16 may apply.
Law 14 Missing Card
When a hand is found to be short:
"""


def test_a_clean_transcription_of_another_code():
    parsed = get("plain")(CLEAN, _Source, Corrections(), {})
    assert [(law.number, law.title) for law in parsed.laws] == [
        (12, "Director's Discretionary Powers"), (13, "Incorrect Number of Cards"), (14, "Missing Card")]
    assert rows(parsed.laws[0]) == [
        ("12", None, "", "", ""),
        ("12A", "12", "A", "Power to Award an Adjusted Score", "The Director may award an adjusted score:"),
        ("12A1", "12A", "1", "", "when these Laws empower him."),
        ("12A2", "12A", "2", "", ""),
        ("12A2(a)", "12A2", "(a)", "", "when no rectification is possible*; or"),
        ("12A2(b)", "12A2", "(b)", "", "when a rectification was wrong:"),
        ("12A2(b)(i)", "12A2(b)", "(i)", "", "on his own initiative,"),
        ("12A2(b)(ii)", "12A2(b)", "(ii)", "", "on request."),
        ("12B", "12", "B", "Objectives of Score Adjustment", "The objective is to redress damage."),
    ]
    assert [(f.provision, f.mark, f.text) for f in parsed.laws[0].footnotes] == [("12A2(a)", "*", "As in Law 6D2.")]
    assert [(p.id, p.text) for p in parsed.laws[1].provisions] == [
        ("13", "Items numbered under the law itself:"), ("13.1", "first."), ("13.2", "second.\n\nLaw 16 may apply.")]


def test_a_file_without_laws_is_refused():
    with pytest.raises(SourceError, match="no 'Law n' line"):
        get("plain")("Just some text\nand more\n", _Source, Corrections(), {})
