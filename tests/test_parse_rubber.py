"""The rubber-html parser on Part VI of the 1993 Laws of Contract Bridge (002)."""
from __future__ import annotations

from pathlib import Path

import pytest

from laws import manifest
from laws.corrections import Corrections
from laws.parsers import get

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILE = "002_bcfdd5b6af47b342.txt"


@pytest.fixture(scope="module")
def corrections():
    return Corrections.load(CORPUS)


@pytest.fixture(scope="module")
def parsed(corrections):
    source = next(s for s in manifest.load(CORPUS).sources if s.file == FILE)
    return get(source.parser)(source.path.read_text(encoding="utf-8"), source, corrections, {})


@pytest.fixture(scope="module")
def laws(parsed):
    return {law.number: law for law in parsed.laws}


def test_titles(laws):
    assert {n: law.title for n, law in laws.items()} == {
        41: "Opening Lead, Review, Questions",
        42: "Dummy's Rights",
        43: "Dummy's Limitations",
        44: "Sequence and Procedure of Play",
        45: "Card Played",
        46: "Partial Designation of a Card to Be Played from Dummy's Hand",
        47: "Retraction of a Card Played",
        48: "Exposure of Declarer's Cards",
        49: "Exposure of a Defender's Cards",
        50: "Disposition of a Penalty Card",
        51: "Two or More Penalty Cards",
        52: "Failure to Lead or Play a Penalty Card",
        53: "Lead Out of Turn Accepted",
        54: "Opening Lead Out of Turn",
        55: "Declarer's Lead Out of Turn",
        56: "Defender's Lead Out of Turn",
        57: "Premature Lead or Play by a Defender",
        58: "Simultaneous Leads or Plays",
        59: "Inability to Lead or Play as Required",
        60: "Play after an Illegal Play",
        61: "Failure to Follow Suit – Inquiries Concerning a Revoke",
        62: "Correction of a Revoke",
        63: "Establishment of a Revoke",
        64: "Procedure after Establishment of a Revoke",
        65: "Collection and Arrangement of Tricks",
        66: "Inspection of Tricks",
        67: "Trick Either Appropriated in Error or Defective",
        68: "Declarer's Claim or Concession of Tricks",
        69: "Procedure Following Declarer's Claim or Concession",
        70: "Defender's Claim or Concession of Tricks",
        71: "Concession Withdrawn",
    }


def test_sections(laws):
    sections: dict[str, list[int]] = {}
    for n, law in laws.items():
        sections.setdefault(law.section, []).append(n)
    assert sections == {
        "Correct Procedure": list(range(41, 48)),
        "Penalty Card": list(range(48, 53)),
        "Lead Out of Turn": list(range(53, 57)),
        "Irregular Leads and Plays": list(range(57, 61)),
        "The Revoke": list(range(61, 65)),
        "Tricks": list(range(65, 68)),
        "Claims and Concessions": list(range(68, 72)),
    }


def test_law_64(laws):
    law = laws[64]
    assert [(p.id, p.parent, p.label, p.text) for p in law.provisions] == [
        ("64", None, "", "(Club Law 64)\n\nWhen a revoke has become established,"),
        ("64(a)", "64", "(a)", "if the offending player * won the trick on which the revoke occurred, (penalty) that "
         "trick and one of any subsequent tricks won by the offending side are transferred ** to the non-offending "
         "side (if no subsequent trick was won by the offending side, only the revoke trick is transferred)."),
        ("64(b)", "64", "(b)", "if the offender's partner won the trick on which the revoke occurred, (penalty) that "
         "trick is transferred ** to the non-offending side and if the offending player himself won a subsequent "
         "trick with a card that could legally have been played to the revoke trick one additional trick (but no "
         "more) is transferred ** to the non-offending side."),
        ("64(c)", "64", "(c)", "if the non-offending side won the trick on which the revoke occurred, and if the "
         "offending side won any trick after the revoke, (penalty)"),
        ("64(c)(i)", "64(c)", "(i)", "the first such trick is transferred** to the non-offending side, and"),
        ("64(c)(ii)", "64(c)", "(ii)", "if the offending side won two or more tricks after the revoke, any of which "
         "was won by the offending player with a card he could legally have played to the revoke trick, an "
         "additional trick is transferred** to the non-offending side."),
        ("64(d)", "64", "(d)", "there is no trick penalty for the established revoke if"),
        ("64(d)(i)", "64(d)", "(i)", "the offending side did not win either the trick on which the revoke occurred "
         "or any subsequent trick; or if"),
        ("64(d)(ii)", "64(d)", "(ii)", "the revoke was a subsequent revoke in the same suit by the same player; or if"),
        ("64(d)(iii)", "64(d)", "(iii)", "the revoke was made in failing to play any card faced on, or belonging to "
         "a hand faced on, the table, including a card from dummy's hand; or if"),
        ("64(d)(iv)", "64(d)", "(iv)", "attention was first drawn to the revoke after all players had abandoned "
         "their hands and permitted the cards to be mixed together; or if"),
        ("64(d)(v)", "64(d)", "(v)", "the revoke was on the 12th trick (see Law 62)."),
        ("64.p1", "64", "", "N.B. When any established revoke, including one not subject to penalty, causes damage "
         "to the non-offending side insufficiently compensated by the law, the offending side should, under "
         "Proprieties 1, transfer additional tricks so as to restore equity."),
    ]
    assert [(f.provision, f.mark, f.text) for f in law.footnotes] == [
        ("64(a)", "*", "If declarer revokes but wins the trick on which the revoke occurred in dummy, "
                       "subsection (b) applies."),
        ("64(a)", "**", "For the scoring of transferred tricks, see Law 77."),
    ]


def test_law_50_paragraphs(laws):
    assert [p.id for p in laws[50].provisions] == ["50"]
    assert laws[50].provisions[0].text.split("\n\n") == [
        "A defender's card is a penalty card when prematurely exposed. It must be left face up on the table until "
        "it is played or until an alternate penalty has been selected.",
        "A single card below the rank of an honor and exposed inadvertently (as in playing two cards to a trick, or "
        "in dropping a card accidentally) becomes a minor penalty card. Any penalty card of honor rank, or any card "
        "exposed through deliberate play (as in leading out of turn, or in revoking and then correcting) becomes a "
        "major penalty card; when one defender has two or more penalty cards, all such cards become major penalty "
        "cards.",
        "When a defender has a minor penalty card, he may not play any other card of the same suit below the rank "
        "of an honor until he has first played the penalty card. (However, he is entitled to play an honor card "
        "instead of the minor penalty card.) There is no further penalty, but the offender's partner must not base "
        "any subsequent play on information gained through seeing the penalty card.",
        "When a defender has a major penalty card, such card must be played at the first legal opportunity, whether "
        "in leading, following suit, discarding or trumping. If a defender has two or more penalty cards that can "
        "legally be played, declarer may designate which is to be played. The obligation to follow suit or to "
        "comply with a lead or play penalty takes precedence over the obligation to play a penalty card, but the "
        "penalty card must still be left face up on the table and played at the next legal opportunity.",
        "When a defender has the lead while his partner has a major penalty card, declarer may choose to impose a "
        "lead penalty at this point: he may require that defender to lead the suit of the penalty card or may "
        "prohibit that defender from leading that suit (a prohibition continues for as long as he retains the "
        "lead). If declarer does impose a lead penalty, the penalty card is picked up at once. If declarer does "
        "not, the defender may lead any card; but the penalty card remains a penalty card. The defender may not "
        "lead until declarer has indicated his choice.",
    ]


def test_paragraphs_after_items_belong_to_the_law(laws):
    """Lines broken around links ('(see Law' / '43) he may also') do not start paragraphs;
    a paragraph after the lettered items is the law's, not the last item's."""
    assert [p.id for p in laws[57].provisions] == ["57", "57(a)", "57(b)", "57(c)", "57.p1"]
    assert [p.text[:30] for p in laws[57].provisions[-1:]] == ["Declarer must select one of th"]
    assert laws[57].provisions[-1].text.count("\n\n") == 2
    assert laws[42].provisions[0].text == (
        "Dummy is entitled to give information as to fact or law, but may not initiate the discussion; and provided "
        "he has not forfeited his rights (see Law 43) he may also")
    assert [p.id for p in laws[69].provisions] == ["69", "69(a)", "69(b)", "69(c)", "69.p1"]


def test_ocr_slips_corrected_and_raw_kept(laws):
    law46 = laws[46].provisions[0]
    assert "the card to be played" in law46.text and "completed his partial designation" in law46.text
    assert "to he played" in law46.raw_text and "Isis partial" in law46.raw_text
    assert "at any time require" in laws[41].provisions[0].text
    assert laws[49].provisions[0].text.endswith("becomes a penalty card (Law 50). *")
    assert [f.text[-26:] for f in laws[69].footnotes] == ["without a particular card."]


def test_label_with_ocr_space(parsed, laws):
    assert [p.id for p in laws[47].provisions] == ["47", "47(a)", "47(b)", "47(c)", "47(d)"]
    assert [(c.raw, c.line) for c in parsed.corrections if c.kind == "ocr" and c.raw.startswith("( d)")] == [
        ("( d) to", 140)]


def test_no_table_residue_anywhere(parsed):
    texts = [law.title for law in parsed.laws] + [law.section for law in parsed.laws]
    texts += [p.text for law in parsed.laws for p in law.provisions]
    texts += [f.text for law in parsed.laws for f in law.footnotes]
    assert [t for t in texts if "|" in t] == []


def test_footnotes_attached_to_the_provision_with_the_mark(laws):
    notes = [(f.provision, f.mark) for law in laws.values() for f in law.footnotes]
    assert notes == [("41", "*"), ("42(b)", "*"), ("44", "*"), ("45", "*"), ("47(c)", "*"), ("49", "*"),
                     ("53", "*"), ("54(b)", "*"), ("61", "*"), ("62", "*"), ("64(a)", "*"), ("64(a)", "**"),
                     ("67", "*"), ("69(a)", "*")]


def test_club_law_pointers_open_the_laws_text(laws):
    assert {n for n, law in laws.items() if law.provisions[0].text.startswith("(Club Law ")} == {47, 55, 64, 69, 70}
    assert all(law.provisions[0].text.startswith(f"(Club Law {n})") for n, law in laws.items()
               if n in {47, 55, 64, 69, 70})


def test_every_correction_for_the_file_is_used(parsed, corrections):
    assert [(e.line, e.raw) for e in corrections.entries if e.file == FILE and not e.uses] == []
