"""The 2017 Laws in full, from the text extracted from the ACBL's PDF
(corpus/acbl-2017-laws.txt, parser `pdf`), checked in the built store."""
from __future__ import annotations

import json
import re

import pytest

from laws import ligatures
from tests.conftest import CORPUS

FILE = "acbl-2017-laws.txt"

TITLES = {
    1: 'The Pack',
    2: 'The Duplicate Boards',
    3: 'Arrangement of Tables',
    4: 'Partnerships',
    5: 'Assignment of Seats',
    6: 'The Shuffle and Deal',
    7: 'Control of Board and Cards',
    8: 'Sequence of Rounds',
    9: 'Procedure Following an Irregularity',
    10: 'Assessment of Rectification',
    11: 'Forfeiture of the Right to Rectification',
    12: "Director's Discretionary Powers",
    13: 'Incorrect Number of Cards',
    14: 'Missing Card',
    15: 'Wrong Board or Hand',
    16: 'Authorized and Unauthorized Information',
    17: 'The Auction Period',
    18: 'Bids',
    19: 'Doubles and Redoubles',
    20: 'Review and Explanation of Calls',
    21: 'Misinformation',
    22: 'End of Auction',
    23: 'Comparable Call',
    24: 'Card Exposed or Led during the Auction',
    25: 'Legal and Illegal Changes of Call',
    26: 'Call Withdrawn, Lead Restrictions',
    27: 'Insufficient Bid',
    28: 'Calls Considered to Be in Rotation',
    29: 'Procedure after a Call Out of Rotation',
    30: 'Pass Out of Rotation',
    31: 'Bid Out of Rotation',
    32: 'Double or Redouble Out of Rotation',
    33: 'Simultaneous Calls',
    34: 'Retention of Right to Call',
    35: 'Inadmissible Calls',
    36: 'Inadmissible Doubles and Redoubles',
    37: 'Action Violating Obligation to Pass',
    38: 'Bid of More Than Seven',
    39: 'Call after the Final Pass',
    40: 'Partnership Understandings',
    41: 'Commencement of Play',
    42: "Dummy's Rights",
    43: "Dummy's Limitations",
    44: 'Sequence and Procedure of Play',
    45: 'Card Played',
    46: 'Incomplete or Invalid Designation of a Card from Dummy',
    47: 'Retraction of Card Played',
    48: "Exposure of Declarer's Cards",
    49: "Exposure of a Defender's Cards",
    50: 'Disposition of Penalty Card',
    51: 'Two or More Penalty Cards',
    52: 'Failure to Lead or Play a Penalty Card',
    53: 'Lead Out of Turn Accepted',
    54: 'Faced Opening Lead Out of Turn',
    55: "Declarer's Lead Out of Turn",
    56: "Defender's Lead Out of Turn",
    57: 'Premature Lead or Play',
    58: 'Simultaneous Leads or Plays',
    59: 'Inability to Lead or Play as Required',
    60: 'Play after an Illegal Play',
    61: 'Failure to Follow Suit – Inquiries Concerning a Revoke',
    62: 'Correction of a Revoke',
    63: 'Establishment of a Revoke',
    64: 'Procedure after Establishment of a Revoke',
    65: 'Arrangement of Tricks',
    66: 'Inspection of Tricks',
    67: 'Defective Trick',
    68: 'Claim or Concession of Tricks',
    69: 'Agreed Claim or Concession',
    70: 'Contested Claim or Concession',
    71: 'Concession Cancelled',
    72: 'General Principles',
    73: 'Communication, Tempo and Deception',
    74: 'Conduct and Etiquette',
    75: 'Mistaken Explanation or Mistaken Call',
    76: 'Spectators',
    77: 'Duplicate Bridge Scoring Table',
    78: 'Methods of Scoring and Conditions of Contest',
    79: 'Tricks Won',
    80: 'Regulation and Organization',
    81: 'The Director',
    82: 'Rectification of Errors of Procedure',
    83: 'Notification of the Right to Appeal',
    84: 'Rulings on Agreed Facts',
    85: 'Rulings on Disputed Facts',
    86: 'Team Play',
    87: 'Fouled Board',
    88: 'Award of Indemnity Points',
    89: 'Rectification in Individual Events',
    90: 'Procedural Penalties',
    91: 'Penalize or Suspend',
    92: 'Right to Appeal',
    93: 'Procedures of Appeal',
}
IDS_12 = ['12', '12A', '12A1', '12A2', '12A3', '12B', '12B1', '12B2', '12C', '12C1', '12C1(a)', '12C1(b)', '12C1(c)', '12C1(d)', '12C1(e)', '12C1(e)(i)', '12C1(e)(ii)', '12C2', '12C2(a)', '12C2(b)', '12C2(c)', '12C2(d)', '12C3', '12C4']
IDS_16 = ['16', '16A', '16A1', '16A1(a)', '16A1(b)', '16A1(c)', '16A1(d)', '16A2', '16B', '16B1', '16B1(a)', '16B1(b)', '16B2', '16B3', '16C', '16C1', '16C2', '16C3', '16D', '16D1', '16D2', '16D2(a)', '16D2(b)', '16D2(c)', '16D2(d)', '16D3']
IDS_27 = ['27', '27A', '27A1', '27A2', '27B', '27B1', '27B1(a)', '27B1(b)', '27B2', '27B3', '27B4', '27C', '27D']
IDS_40 = ['40', '40A', '40A1', '40A1(a)', '40A1(b)', '40A2', '40A3', '40A4', '40B', '40B1', '40B1(a)', '40B1(b)', '40B1(c)', '40B2', '40B2(a)', '40B2(a)(i)', '40B2(a)(ii)', '40B2(a)(iii)', '40B2(a)(iv)', '40B2(a)(v)', '40B2(b)', '40B2(c)', '40B2(c)(i)', '40B2(c)(ii)', '40B2(c)(iii)', '40B2(c)(iv)', '40B2(d)', '40B3', '40B3(a)', '40B3(b)', '40B4', '40B5', '40B5(a)', '40B5(b)', '40C', '40C1', '40C2']
IDS_64 = ['64', '64A', '64A1', '64A2', '64B', '64B1', '64B2', '64B3', '64B4', '64B5', '64B6', '64B7', '64B8', '64C', '64C1', '64C2', '64C2(a)', '64C2(b)']
IDS_80 = ['80', '80A', '80A1', '80A1(a)', '80A1(b)', '80A1(c)', '80A2', '80A3', '80B', '80B1', '80B2', '80B2(a)', '80B2(b)', '80B2(c)', '80B2(d)', '80B2(e)', '80B2(f)', '80B2(g)', '80B2(g)(i)', '80B2(g)(ii)', '80B2(h)', '80B2(i)', '80B2(j)', '80B2(k)', '80B2(l)']
FOOTNOTES = {
    '1': ('6D2', "A ‘sorted deck’ is a pack of cards not r"),
    '2': ('13', 'This Law applies when one or more hands '),
    '3': ('15A3', 'A substituted call differs if its meanin'),
    '4': ('15B', 'This law only applies to pair and indivi'),
    '5': ('16B3', 'It is not an infraction to call the Dire'),
    '6': ('20C2', "Declarer's first turn to play is from du"),
    '7': ('20F1', 'Unless that player is required by law to'),
    '8': ('31A2', 'An illegal call by RHO is rectified as u'),
    '9': ('41A', 'Regulating Authorities may specify that '),
    '10': ('41B', "Declarer's first turn to play is from du"),
    '11': ('41B', 'Declarer may enquire at his turn to play'),
    '12': ('45A', 'The opening lead is first made face down'),
    '13': ('50D2(a)', 'If the player is unable to lead as requi'),
    '14': ('50D2(b)', 'If the partner of the defender with the '),
    '15': ('51B2(a)', 'If the player is unable to lead as requi'),
    '16': ('51B2(c)', 'If the partner of the defender with the '),
    '17': ('53A', 'A lead out of turn at trick thirteen mus'),
    '18': ('57C1', 'as by a gesture or nod'),
    '19': ('64A1', 'A trick won in dummy is not won by decla'),
    '20': ('67B2(a)', 'The Director should avoid, when possible'),
    '21': ('70C3', 'For the purposes of Laws 70 and 71, "nor'),
    '22': ('71B', 'For the purposes of Laws 70 and 71, "nor'),
    '23': ('74C5', 'See Law 73D2 when a player may have show'),
    '24': ('76A1', 'The playing area includes all parts of t'),
    '*': ('77', 'These tables from the original printed v'),
    '25': ('79C1', 'An earlier time may be specified when re'),
    '26': ('80B2(h)', 'It is normal in some jurisdictions for t'),
    '27': ('86B2', 'including results from a fouled board'),
    '28': ('93C3(b)', 'The Regulating Authority is responsible '),
}
TERMS = ['Adjusted Score', 'Alert', 'Artificial call', 'Auction', 'Bid', 'Board', 'Call', 'Cancelled', 'Contestant', 'Contract', 'Deal', 'Declarer', 'Defender', 'Denomination', 'Double', 'Dummy', 'Event', 'Extraneous', 'Follow Suit', 'Game', 'Hand', 'Honor', 'Infraction', 'International Matchpoint (IMP)', 'Irregularity', 'Lead', 'LHO', 'Matchpoint', 'Misinformation', 'Odd Trick', 'Opening Lead', 'Opponent', 'Overtrick', 'Pack', 'Partner', 'Partscore', 'Pass', 'Penalty', 'Penalty card', 'Play', 'Play period', 'Premium Points', 'Presumed Declarer', 'Psychic call', 'Rectification', 'Redouble', 'Retracted', 'RHO', 'Rotation', 'Round', 'Session', 'Side', 'Slam', 'Sorted deck', 'Suit', 'Team', 'Trick', 'Trick Points', 'Trump', 'Tournament', 'Turn', 'Undertrick', 'Unintended', 'Visible Card', 'Vulnerability', 'Withdrawn']
SECTIONS = [('preface', 'Preface to the Laws of Duplicate Bridge 2017 – North American Edition'), ('introduction', 'Introduction to the 2017 Laws of Duplicate Bridge'), ('promulgating-bodies', 'Promulgating Bodies')]


def rows(db, sql, *args):
    return [tuple(r) for r in db.execute(sql, args)]


def test_all_93_titles(db):
    assert dict(rows(db, "select number, title from laws where edition = '2017' order by number")) == TITLES


@pytest.mark.parametrize("law, ids", [(12, IDS_12), (16, IDS_16), (27, IDS_27), (40, IDS_40), (64, IDS_64),
                                      (80, IDS_80)])
def test_structure_of_deep_laws(db, law, ids):
    assert [r[0] for r in db.execute("select id from provisions where edition = '2017' and law = ? order by ord",
                                     [law])] == ids


@pytest.mark.parametrize("law, ids", [
    # a section heading after a stop closing a bracket, across a page break: '... such a ruling.) C. Further ...'
    (93, ["93", "93A", "93B", "93B1", "93B2", "93B3", "93C", "93C1", "93C2", "93C3", "93C3(a)", "93C3(b)"]),
    # items opened by 'if': '... ownership of the trick); if (a) the offender has ...'
    (67, ["67", "67A", "67A1", "67A2", "67B", "67B1", "67B1(a)", "67B1(b)", "67B2", "67B2(a)", "67B2(b)", "67B3"]),
])
def test_labels_after_a_bracketed_stop_or_if(db, law, ids):
    assert [r[0] for r in db.execute("select id from provisions where edition = '2017' and law = ? order by ord",
                                     [law])] == ids


def test_a_sentence_set_below_a_list_is_the_parents_paragraph(db):
    # the extractor runs 69B's closing sentence into item 2; the page sets it below the list
    assert rows(db, "select id, parent, text from provisions where edition = '2017' and id like '%.p%' "
                    "order by ord") == [
        ("69B.p1", "69B", "The board is rescored with such trick awarded to his side."),
        ("71.p1", "71", "The board is rescored with such trick awarded to his side.")]
    assert rows(db, "select text from provisions where edition = '2017' and id = '69B2'") == [
        ("if a player has agreed to the loss of a trick that his side would likely have won had the play "
         "continued.",)]


def test_headings_run_into_their_text_are_cut_where_the_contents_say(db):
    got = dict(rows(db, "select id, heading from provisions where edition = '2017' and id in "
                        "('7A', '27B', '60B', '86B1', '86B2', '15B')"))
    assert got == {"7A": "Placement of Board", "27B": "Insufficient Bid Not Accepted",
                   "60B": "Defender Plays before Required Lead by Declarer", "15B":
                   "Wrong Board Discovered During Auction or Play Period",
                   # numbered items' headings, which the contents do not list
                   "86B1": "Single Result Obtained", "86B2": "Multiple Results Obtained at One or More Tables"}
    assert rows(db, "select text from provisions where edition = '2017' and id = '7A'") == [(
        "When a board is to be played it is placed in the center of the table where it shall remain, correctly "
        "oriented, until play is completed.",)]


def test_run_on_items_and_roman_items_with_a_stop(db):
    """'1.(a) ... (b) ...' on one line, '(i.)' for roman items, and numbers in
    the text that are not labels ('Law 19.', 'in (a) and (b) above')."""
    got = dict(rows(db, "select id, text from provisions where edition = '2017' and id in "
                        "('35A', '12C1(e)(i)', '12C2(d)', '71.p1')"))
    assert got == {
        "35A": "A double or redouble not permitted by Law 19. Law 36 applies.",
        "12C1(e)(i)": "The offending side is awarded the score it would have been allotted as the consequence "
                      "of rectifying its infraction.",
        "12C2(d)": "The Regulating Authority may provide for circumstances where a contestant fails to obtain a "
                   "result on multiple boards during the same session. The scores assigned for each subsequent "
                   "board may be varied by regulation from those prescribed in (a) and (b) above.",
        "71.p1": "The board is rescored with such trick awarded to his side.",
    }


def test_definitions(db):
    assert [r[0] for r in db.execute("select term from definitions where edition = '2017' order by ord")] == TERMS
    assert len(TERMS) == 66  # every 'Term: text' line of the file's Definitions
    assert rows(db, "select text from definitions where edition = '2017' and term = 'Penalty card'") == [
        ("A card subject to disposition under Law 50.",)]


def test_preface_introduction_and_front_matter(db):
    assert rows(db, "select slug, title from sections where edition = '2017' order by ord") == SECTIONS
    preface = db.execute("select text from sections where edition = '2017' and slug = 'preface'").fetchone()[0]
    assert "special thanks to former member, Jeff Polisner," in preface
    assert "continued – the increased discretion" in preface
    intro = db.execute("select text from sections where edition = '2017' and slug = 'introduction'").fetchone()[0]
    assert intro.startswith("Duplicate Bridge is continually evolving")
    assert "non-offenders may otherwise be damaged" in intro


def test_each_footnote_once_on_the_provision_carrying_its_mark(db):
    got = {m: (p, t[:40]) for m, p, t in db.execute(
        "select mark, provision, text from footnotes where edition = '2017' order by id")}
    assert got == FOOTNOTES
    assert db.execute("select count(*) from footnotes where edition = '2017'").fetchone()[0] == 29  # 28 + '*'
    # the note's text is repaired like the law's, the raw reading kept
    assert rows(db, "select text, raw_text from footnotes where edition = '2017' and mark = '3'") == [(
        "A substituted call differs if its meaning is much different or if it is psychic.",
        "A substituted call di ers if its meaning is much di erent or if it is psychic.")]


def test_the_mark_is_unglued_and_the_sentence_rejoined(db):
    """'...when play ends.5 The Director ...' over a page break and a note."""
    text, raw = db.execute("select text, raw_text from provisions where edition = '2017' and id = '16B3'").fetchone()
    assert "he should summon the Director when play ends. The Director shall assign" in text
    assert "play ends.5 The Director" in raw
    text = db.execute("select text from provisions where edition = '2017' and id = '12B1'").fetchone()[0]
    assert "because of an infraction, an innocent side obtains a table result" in text


# --- a scan of every 2017 text in the store --------------------------------------------

def texts_2017(db):
    for sql in ("select id, heading || ' ' || text from provisions where edition = '2017'",
                "select provision, text from footnotes where edition = '2017'",
                "select id, text from definitions where edition = '2017'",
                "select slug, title || ' ' || text from sections where edition = '2017'",
                "select number, title from laws where edition = '2017'"):
        yield from ((str(w), t or "") for w, t in db.execute(sql))
    for pid, caption, header, body in db.execute("select provision, caption, header, rows from tables "
                                                 "where edition = '2017'"):
        cells = [caption, *json.loads(header), *(c for r in json.loads(body) for c in r)]
        yield pid, " | ".join(cells)


LOST_LIGATURE = re.compile(r"\b\w+ (ender|enders|ending|ense|enses|ect|ects|ected|ective|ectively|cient|ciently|"
                           r"cial|cially|cials|erent|erence|ers|ered|ering|ort|orts|icult|iculty|ice|icer|ix|ed|ing)\b"
                           r"|\b(o|di|su|insu|shu|sta|e|a ect|e ect)\b (?=[a-z])|\b(Je|sta|shu)\b")
GLUED_MARK = re.compile(r"[a-z]\d|[a-z][.,;:]\d{1,2}\b|[A-Z]{2,}\d")


def test_no_damage_left_in_the_2017_text(db):
    found = {"ligature": [], "glued mark": [], "page number": [], "empty suit": [], "soft hyphen": []}
    for where, text in texts_2017(db):
        for m in LOST_LIGATURE.finditer(text):
            if m[0] not in ("a player", "a card", "a call", "a trick", "a defender"):
                found["ligature"].append((where, m[0]))
        found["glued mark"] += [(where, m[0]) for m in GLUED_MARK.finditer(text)]
        found["page number"] += [(where, p) for p in text.split("\n\n") if re.fullmatch(r"\s*(\d{1,3}|[ivx]+)\s*", p)]
        found["empty suit"] += [(where, "()")] if "()" in text else []
        found["soft hyphen"] += [(where, "\xad")] if "\xad" in text else []
    # the English word list agrees: no fragment of a word left
    everything = " ".join(t for _, t in texts_2017(db))
    assert ligatures.damage_rate(everything) == 0
    assert found == {"ligature": [], "glued mark": [], "page number": [], "empty suit": [], "soft hyphen": []}


def test_no_page_number_survives_where_it_cut_a_sentence(db):
    """Every page number the parser removed from the middle of a sentence: the
    words either side now stand together."""
    cut = db.execute("select count(*) from corrections where source = ? and reason like "
                     "'page number % removed from the middle of a sentence'", [FILE]).fetchone()[0]
    # 23 in the laws; the index's page numbers are dropped by the index parser
    # (laws.parsers.official_index), which does not record them as cuts
    assert cut >= 20
    for before, page, after in _page_breaks():
        assert not any(f"{before} {page} {after}" in t for _, t in texts_2017(db))


def _page_breaks():
    lines = (CORPUS / FILE).read_bytes().decode("latin-1").split("\n")
    for i, line in enumerate(lines):
        if line.startswith("\x0c") and re.fullmatch(r"\x0c(\d{1,3})", line):
            before = next((l for l in reversed(lines[:i]) if l.strip()), "")
            after = next((l for l in lines[i + 1:] if l.strip()), "")
            if before and after and after[0].islower():
                yield before.split()[-1], line[1:], after.split()[0]


def test_suit_symbols_restored_where_the_suit_is_named(db):
    assert "spades (♠), hearts (♥), diamonds (♦), clubs (♣)" in db.execute(
        "select text from provisions where edition = '2017' and id = '1A'").fetchone()[0]
    assert db.execute("select count(*) from corrections where source = ? and kind = 'symbol'", [FILE]).fetchone()[0] == 8


def test_dashes_restored(db):
    assert "(or waive – see Law 81C5)" in db.execute(
        "select text from provisions where edition = '2017' and id = '10A'").fetchone()[0]
    assert db.execute("select title from laws where edition = '2017' and number = 61").fetchone()[0] == \
        "Failure to Follow Suit – Inquiries Concerning a Revoke"


# --- tables --------------------------------------------------------------------------

def tables(db, edition, provision):
    import json
    return [(c, json.loads(h), json.loads(r)) for c, h, r in db.execute(
        "select caption, header, rows from tables where edition = ? and provision = ? order by ord",
        [edition, provision])]


def test_law_2_board_table_is_2007s(db):
    assert [t[1:] for t in tables(db, "2017", "2")] == [t[1:] for t in tables(db, "2007", "2")]
    assert len(tables(db, "2017", "2")[0][2]) == 4


def test_law_77_scoring_tables_have_2007s_cells_where_the_same(db):
    t17, t07 = tables(db, "2017", "77"), tables(db, "2007", "77")
    # the captions as the file prints them (its apostrophe a straight one,
    # as in the rest of its text), title and subtitle told apart
    assert [t[0] for t in t17] == [
        "Trick Score. Scored by declarer's side if the contract is fulfilled.", "At a Notrump Contract",
        "Premium Score. Scored by declarer's side. Slams", "Overtricks",
        "Premiums for Game, Partscore, Fulfilling Contract",
        "Undertrick Penalties. Scored by declarer's opponents if the contract is not fulfilled. Undertricks: "
        "Tricks by which declarer falls short of the contract"]
    assert [t[1] for t in t17] == [
        ["If Trumps are:", "", "♣", "♦", "♥", "♠"], ["", "Undoubled", "Doubled", "Redoubled"],
        ["For making a slam", "Not Vulnerable", "Vulnerable"],
        ["For each (Tricks made in excess of contract)", "Not Vulnerable", "Vulnerable"], [],
        ["", "", "Not Vulnerable", "Vulnerable"]]
    # trick score (suit symbols restored), slams, overtricks, premiums, undertricks: 2007's cells
    for i in (0, 2, 3, 4, 5):
        assert t17[i][2] == t07[i][2], t17[i][0]
    assert t17[0][1][2:] == ["♣", "♦", "♥", "♠"]
    # 2017 prints the notrump scores by column; the numbers are 2007's
    assert t17[1][1:] == (["", "Undoubled", "Doubled", "Redoubled"],
                          [["For first odd trick bid and made", "40", "80", "160"],
                           ["For each additional odd trick", "30", "60", "120"]])
    assert [r[2] for r in t07[1][2]] == ["40", "80", "160", "30", "60", "120"]
    text = db.execute("select text from provisions where edition = '2017' and id = '77'").fetchone()[0]
    assert text.split("\n\n") == ["A trick score of 100 points or more, made on one board, is GAME.",
                                   "A trick score of less than 100 points is a PARTSCORE.",
                                   "If all four players pass (see Law 22) each side enters a zero score."]


def test_law_78B_imp_scale(db):
    [(_, header, rows17)] = tables(db, "2017", "78B")
    [(_, header07, rows07)] = tables(db, "2007", "78B")
    assert header == header07 == ["Difference in points", "IMPs"]
    assert rows17[0] == ["0–10", "0"] and rows17[-1] == ["4000+", "24"]
    assert rows17[1:-1] == rows07[:-1]  # 20–40 ... 3500–3990: 2007's cells


def test_the_tables_are_found_where_they_are_printed(db):
    """Each rebuilt table is recorded once, against the provision it was
    printed in; the text after it goes on as the law's next provisions."""
    assert rows(db, "select location, line from corrections where source = ? and kind = 'table' order by line",
                FILE) == [("2", 1416), ("77", 2116), ("78B", 2334)]
    assert rows(db, "select id, heading from provisions where edition = '2017' and law = 78 and id > '78B' "
                    "order by ord") == [("78C", "Total Point Scoring"), ("78D", "Conditions of Contest")]


# --- every sentence of the law text ---------------------------------------------------

def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def test_every_sentence_of_the_laws_is_in_the_store(db):
    """The file's Laws 1-93 region, cleaned independently of the parser (page
    numbers after form feeds, notes at the foot, glued marks), repaired the
    same way (ligatures), cut into sentences: each is in the store's text."""
    lines = (CORPUS / FILE).read_bytes().decode("latin-1").split("\n")
    start = lines.index("LAW 1")
    end = max(i for i, l in enumerate(lines) if l == "Index to Duplicate Laws")
    kept = [l for l in lines[start:end] if l.strip() and not re.fullmatch(r"\x0c\d{1,3}", l)
            and not re.match(r"^(\d{1,2} [A-Za-z`\"']|\*These)", l)]
    # the laws' numbers and titles (checked whole above) stand on lines of their own
    kept = [l for i, l in enumerate(kept) if not re.fullmatch(r"LAW \d+", l)
            and not (i and re.fullmatch(r"LAW \d+", kept[i - 1]))]
    text = ligatures.restore(" ".join(kept))[0]
    text = re.sub(r"(?<=[a-z])\d{1,2}\b|(?<=[a-z][.,])\d{1,2}\b|(?<=[A-Z]{2})\d{1,2}\b", "", text)
    store = _norm(" ".join(t for _, t in texts_2017(db)))
    label = r"(?:\d{1,2}\.|\([a-z]{1,4}\.?\)|[A-Z]\.)"
    missing, checked = [], 0
    for sentence in re.split(r"(?<=[.:;])\s+", text):
        sentence = re.sub(rf"^(?:(?:or|and|either|if)\s+)?(?:{label}\s*)+|\s(?:or|and)?\s*{label}$", "",
                          sentence.strip())
        sentence = re.sub(r"\s\([ivx]+\.\)", "", sentence)  # '(ii.)': a roman item, never text
        # a heading run into its first item: 'After Attention Is Drawn ... 1.(a) The Director ...'
        sentence = re.sub(r"\s\d{1,2}\.\s?(?:\([a-z]{1,4}\.?\)\s?)?(?=[A-Z])", " ", sentence)
        key = _norm(sentence)
        if len(key) < 20 or re.fullmatch(r"[\d\s–­-]+", sentence):
            continue
        checked += 1
        if key not in store:
            missing.append(sentence)
    assert checked > 900
    # the tables' cells are checked cell by cell above; what remains is their flattened run
    leftover = [m for m in missing if not re.search(r"\d+ \d+|Doubled|Vulnerable|Difference|Boards|Dealer", m)]
    assert leftover == [], "\n".join(leftover)


# --- references ------------------------------------------------------------------------

def test_every_2017_reference_resolves(db):
    assert rows(db, "select count(*), sum(resolved) from refs where edition = '2017'") == [(376, 376)]
    assert rows(db, "select count(*) from refs where edition = '2017' and reason != ''") == [(0,)]


def test_unresolved_reference_keeps_what_it_cites(db):
    """The rubber code cites its Law 16, which the corpus lacks: the row names
    16 in the citing edition, unresolved, so adding the text resolves it."""
    assert ("1993-rubber", "16", 16, 0) in rows(
        db, "select to_edition, to_id, to_law, resolved from refs where edition = '1993-rubber' and raw = 'Law 16'")
