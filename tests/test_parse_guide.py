"""The guide parser on the real file: Duplicate Bridge Rules Simplified (001)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import laws.corrections
import laws.manifest
import laws.parsers
from laws.model import SourceError
from laws.parsers.guide import parse_law_tag, slugify

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
GUIDE = "001_c10fccc6a02ee89d.txt"


@pytest.fixture(scope="module")
def source():
    return next(s for s in laws.manifest.load(CORPUS).sources if s.file == GUIDE)


@pytest.fixture(scope="module")
def parsed(source):
    corrections = laws.corrections.Corrections.load(CORPUS).for_file(GUIDE)
    return laws.parsers.get("guide")(source.path.read_text(encoding="utf-8"), source, corrections, {})


@pytest.fixture(scope="module")
def topics(parsed):
    return {t.id: t for t in parsed.topics}


def test_every_heading_between_the_title_pages_and_the_index_is_a_topic(parsed):
    # 142 headings from '# INTRODUCTION' (line 43) to the line before '# **INDEX**' (line 1120)
    assert len(parsed.topics) == 142
    assert parsed.edition == "dbrs-2017"
    assert parsed.topics[0].id == "topic:introduction"
    assert parsed.topics[-1].id == "topic:stop-and-alert-symbols"


def test_ids_titles_and_laws(topics):
    wanted = ["topic:introduction", "topic:permitted-systems-and-agreements", "topic:opening-two-bids",
              "topic:insufficient-bid-examples", "topic:call-out-of-rotation", "topic:explanations",
              "topic:directors-powers", "topic:psyching-and-or-forgetting-the-system",
              "topic:when-is-a-card-played", "topic:a-offender-on-lead", "topic:dummys-rights",
              "topic:shuffle-and-deal", "topic:illegal-double-or-redouble", "topic:other-illegal-calls",
              "topic:late-ruling", "topic:bidding-boxes-instructions-for-use",
              "topic:silent-bidders-instructions-for-use-making-a-call"]
    assert [(i, topics[i].title, topics[i].laws) for i in wanted] == [
        ("topic:introduction", "INTRODUCTION", [9]),  # '[Law 9]' in its text
        ("topic:permitted-systems-and-agreements", "PERMITTED SYSTEMS AND AGREEMENTS", [40]),
        ("topic:opening-two-bids", "OPENING TWO BIDS", []),
        ("topic:insufficient-bid-examples", "Examples", []),
        ("topic:call-out-of-rotation", "CALL OUT OF ROTATION", [28, 29, 30, 31, 32, 33, 34]),
        ("topic:explanations", "EXPLANATIONS", [20, 21, 40, 75]),
        ("topic:directors-powers", "DIRECTOR'S POWERS", []),
        ("topic:psyching-and-or-forgetting-the-system", "PSYCHING AND/OR FORGETTING THE SYSTEM", [40]),
        ("topic:when-is-a-card-played", "WHEN IS A CARD PLAYED?", [45]),
        ("topic:a-offender-on-lead", "(A) OFFENDER ON LEAD", []),
        ("topic:dummys-rights", "DUMMY'S RIGHTS", [42, 43]),
        ("topic:shuffle-and-deal", "SHUFFLE AND DEAL", [6]),
        ("topic:illegal-double-or-redouble", "ILLEGAL DOUBLE OR REDOUBLE", [35, 36]),  # '[LAW 35 & 36]'
        ("topic:other-illegal-calls", "OTHER ILLEGAL CALLS", [35, 36, 37, 38, 39]),  # '[LAWS 35 to 39]'
        ("topic:late-ruling", "LATE RULING", [92]),  # '[LAWS 92]'
        ("topic:bidding-boxes-instructions-for-use", "BIDDING BOXES – INSTRUCTIONS FOR USE", []),
        ("topic:silent-bidders-instructions-for-use-making-a-call", "Making a Call", []),
    ]


def test_nesting_follows_the_content_not_the_heading_level(topics):
    wanted = ["topic:opening-two-bids", "topic:overcalls", "topic:simultaneous-calls",
              "topic:reviewing-the-bidding", "topic:who-may-ask-questions-when", "topic:directors-guidance",
              "topic:adjusting-the-score", "topic:weighted-scores", "topic:do-not-alert-these-calls",
              "topic:b-partner-on-lead", "topic:fifth-card-played-to-a-trick", "topic:shuffle-and-deal",
              "topic:redealing-boards", "topic:scoring-using-bridgemates",
              "topic:bidding-boxes-instructions-for-use-correction-of-a-call", "topic:miscellaneous"]
    assert {i: topics[i].parent for i in wanted} == {
        "topic:opening-two-bids": "permitted-systems-and-agreements",  # '###' under '#'
        "topic:overcalls": "system-cards",  # '#', untagged, about System Cards
        "topic:simultaneous-calls": "call-out-of-rotation",
        "topic:reviewing-the-bidding": "reviews-questions-and-explanations",  # chapter
        "topic:who-may-ask-questions-when": "asking-questions",
        "topic:directors-guidance": "hesitations-and-unauthorised-information",
        "topic:adjusting-the-score": "directors-powers",
        "topic:weighted-scores": "adjusting-the-score",
        "topic:do-not-alert-these-calls": "alerting-and-announcing",
        "topic:b-partner-on-lead": "two-or-more-penalty-cards",  # a group
        "topic:fifth-card-played-to-a-trick": "incorrect-number-of-cards",  # tagged '###': a topic
        "topic:shuffle-and-deal": "miscellaneous",  # tagged '####': a topic
        "topic:redealing-boards": "miscellaneous",
        "topic:scoring-using-bridgemates": "miscellaneous",  # not about seats: not under ASSIGNMENT OF SEATS
        "topic:bidding-boxes-instructions-for-use-correction-of-a-call": "bidding-boxes-instructions-for-use",
        "topic:miscellaneous": None,
    }


def test_parents_exist_and_come_first(parsed):
    seen = set()
    for t in parsed.topics:
        assert t.parent is None or t.parent in seen, t.id
        seen.add(t.slug)


def test_ids_are_unique_ascii_slugs(parsed):
    slugs = [t.slug for t in parsed.topics]
    assert len(set(slugs)) == len(slugs)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s) for s in slugs)
    # titles printed twice are told apart by their parents
    assert {"topic:insufficient-bid-examples", "topic:claims-and-concessions-examples",
            "topic:bidding-boxes-instructions-for-use-making-a-call",
            "topic:silent-bidders-instructions-for-use-making-a-call"} <= {t.id for t in parsed.topics}


def test_titles_are_clean(parsed):
    for t in parsed.topics:
        assert not re.search(r"[#*\[\]]|\bLAWS? \d", t.title), t.title
        assert t.title == t.title.strip() and not t.title.endswith(":")


def test_front_and_back_matter_are_not_topics(parsed):
    titles = {t.title for t in parsed.topics}  # as printed: 'Notes' (Insufficient Bid) is a topic
    assert not titles & {"DUPLICATE BRIDGE RULES SIMPLIFIED", "INDEX", "NOTES"}
    everything = "\n".join(t.markdown for t in parsed.topics)
    for chrome in ("ISBN", "All rights reserved", "Control of Cords", "Mr Bridge £5.95", "Premier Grand Master"):
        assert chrome not in everything


def test_every_laws_tag_form_is_read():
    assert parse_law_tag("27") == [27]
    assert parse_law_tag("28 TO 34") == [28, 29, 30, 31, 32, 33, 34]
    assert parse_law_tag("35 to 39") == [35, 36, 37, 38, 39]
    assert parse_law_tag("20, 21, 40 & 75") == [20, 21, 40, 75]
    assert parse_law_tag("9 and 10") == [9, 10]
    with pytest.raises(SourceError):
        parse_law_tag("4l & 42", "f.txt", 7)  # an OCR 'l' for '1'
    with pytest.raises(SourceError):
        parse_law_tag("34 TO 28")


def test_no_ocr_latex_or_lookalike_glyphs_remain(parsed):
    for t in parsed.topics:
        for bad in ("$", "\\", "◆", "<u>", "</u>"):
            assert bad not in t.markdown, (t.id, bad)


def test_suit_symbols_are_repaired_in_the_sentences(topics):
    def md(slug):
        return topics[f"topic:{slug}"].markdown

    assert "who opens 1♥ and next hand passes. If this hand now passes (0-5) or bids 2♥ (5-9)" in md("comparable-calls")
    assert "However if this hand bids 1♠, that is not a Comparable Call" in md("comparable-calls")
    assert ("suppose that 4♥ is doubled very slowly and Partner of the doubler (North) removes it to 4♠, "
            "which makes for N/S +620.") in md("assigned-adjusted-score")
    assert "when he adjusts to 4♥ doubled instead of 4♠, he might think" in md("weighted-scores")
    assert "If the auction starts 2NT-P-2♦ intended as a transfer" in md("insufficient-bid-examples")
    assert "Do not alert doubles of 4♣ or higher, except for Lightner doubles" in md("alert-these-calls")
    assert "weak takeouts are normal, 2♣, 2♠(?) and 2♥ responses to a natural 1NT" in md("announce-these-calls")
    # curated fixes from corrections.toml
    assert "When a player opens 1♣ or 1♦ to show an opening hand" in md("announce-these-calls")
    assert "nor for a Stayman 2♣ response" in md("note-on-jurisdictions")
    assert "South African Texas 4♣ or 4♦ or similar" in md("do-not-alert-these-calls")


def test_each_certain_repair_is_recorded(parsed):
    symbols = [(c.raw, c.corrected, c.where) for c in parsed.corrections if c.kind == "symbol"]
    assert symbols == [
        ("$1 \\nabla$", "1♥", "topic:comparable-calls"),
        ("$2 \\nabla$", "2♥", "topic:comparable-calls"),
        ("$1 \\triangle$", "1♠", "topic:comparable-calls"),
        ("$1 \\triangle$", "1♠", "topic:comparable-calls"),
        ("◆", "♦", "topic:insufficient-bid-examples"),
        ("$4 \\nabla$", "4♥", "topic:assigned-adjusted-score"),
        ("$4 \\triangle$", "4♠", "topic:assigned-adjusted-score"),
        ("$4 \\triangle$", "4♠", "topic:assigned-adjusted-score"),
        ("$4 \\nabla$", "4♥", "topic:assigned-adjusted-score"),
        ("$4 \\nabla$", "4♥", "topic:assigned-adjusted-score"),
        ("$4 \\nabla$", "4♥", "topic:assigned-adjusted-score"),
        ("$4 \\diamondsuit$", "4♠", "topic:weighted-scores"),  # corrections.toml
        ("$4 \\heartsuit$", "4♥", "topic:weighted-scores"),
        ("$2\\clubsuit$", "2♣", "topic:announce-these-calls"),
        ("$2\\blacktriangledown$", "2♥", "topic:announce-these-calls"),
        ("$4\\clubsuit$", "4♣", "topic:alert-these-calls"),
    ]


def test_what_cannot_be_settled_is_recorded_as_uncertain(parsed):
    assert [(u.raw, u.corrected, u.where, u.kind) for u in parsed.uncertain] == [
        ("<u>Index</u>", "Index", "topic:introduction", "link"),  # the index is not a topic
        ("$2\\spadesuit$", "2♠(?)", "topic:announce-these-calls", "symbol"),  # probably 2♦
        ("1 - (1 - 1)-Dbl", "1? - (1? - 1?)-Dbl", "topic:alert-these-calls", "symbol"),
        ("1 - (1 - 1)-Dbl", "1? - (1? - 1?)-Dbl", "topic:alert-these-calls", "symbol"),
        ("<u>MAJOR or MINOR penalty card</u>", "MAJOR or MINOR penalty card",
         "topic:simultaneous-play-of-two-or-more-cards", "link"),
    ]
    # and each is visible as such where it stands
    marked = [t.id for t in parsed.topics if "?)" in t.markdown or "1? -" in t.markdown]
    assert marked == ["topic:announce-these-calls", "topic:alert-these-calls"]


def test_cross_references_link_existing_topics(parsed, topics):
    links = [(m[1], m[2]) for t in parsed.topics for m in re.finditer(r"\[([^\]]+)\]\(/guide/(topic:[^)]+)\)", t.markdown)]
    assert len(links) == 38  # 30 underlined (32 less the 2 uncertain) and 8 bold with a page
    assert all(target in topics for _, target in links)
    assert sorted(set(links)) == [
        ("**CORRECTION PERIOD**", "topic:correction-period"),
        ("**DEFECTIVE TRICK containing a fifth card**", "topic:defective-trick"),
        ("**DEFECTIVE TRICK**", "topic:defective-trick"),
        ("**ILLEGAL DOUBLE OR REDOUBLE**", "topic:illegal-double-or-redouble"),
        ("**RESTORING EQUITY**", "topic:restoring-equity"),
        ("**adjusted score**", "topic:adjusting-the-score"),
        ("Adjusting the Score", "topic:adjusting-the-score"),
        ("CORRECTION PERIOD", "topic:correction-period"),
        ("Comparable Call", "topic:comparable-calls"),
        ("Lead Penalties", "topic:lead-penalties"),  # also from '<u>Lead</u> <u>Penalties</u>'
        ("MAJOR penalty card", "topic:major-penalty-cards"),
        ("MAJOR penalty cards", "topic:major-penalty-cards"),
        ("adjusted score", "topic:adjusting-the-score"),
        ("penalty card", "topic:penalty-cards"),
    ]
    # the page numbers stay as printed
    assert ("there may be [Lead Penalties](/guide/topic:lead-penalties); see page 7."
            in topics["topic:bid-out-of-rotation"].markdown)


def test_page_breaks_inside_a_paragraph_are_joined(topics):
    assert "a totally unexpected meaning in addition to being take-out or penalties." in topics["topic:alert-these-calls"].markdown
    assert "However, if the Offender's PARTNER had a choice" in topics["topic:revoke-on-trick-twelve"].markdown
    # the line printed again at the top of the next page is dropped (corrections.toml)
    assert ("PENALTY the Offender's PARTNER must pass throughout and there may be [Lead Penalties]"
            in topics["topic:insufficient-bid"].markdown)


def test_raw_markdown_kept_where_repaired(topics):
    t = topics["topic:comparable-calls"]
    assert "opens  $1 \\nabla$  and next hand passes" in t.raw_markdown
    assert topics["topic:overcalls"].raw_markdown is None  # unchanged


def test_plain_text_has_no_markup(parsed, topics):
    for t in parsed.topics:
        assert not re.search(r"\*\*|\]\(|<u>|^#|^\s*- ", t.text, re.M), t.id
    assert topics["topic:lead-penalties"].text.splitlines()[1:3] == [
        "(A) If the withdrawn call is replaced by a Comparable Call, see page 6, then there are no lead penalties.",
        "(B) If the withdrawn call is not replaced by a Comparable Call then:",
    ]


def test_empty_chapters_and_tagged_topics(topics):
    assert topics["topic:directors-powers"].markdown == ""
    assert topics["topic:asking-questions"].markdown == ""  # a tagged topic whose text is its sub-topics


def test_slugify():
    assert slugify("DIRECTOR'S POWERS") == "directors-powers"
    assert slugify("BIDDING BOXES – INSTRUCTIONS FOR USE") == "bidding-boxes-instructions-for-use"
    assert slugify("PSYCHING AND/OR FORGETTING THE SYSTEM") == "psyching-and-or-forgetting-the-system"
    assert slugify("Canapé") == "canape"


def test_unreadable_input_raises(source):
    parse = laws.parsers.get("guide")
    empty = laws.corrections.Corrections()
    with pytest.raises(SourceError, match="no Markdown headings"):
        parse("just some text\nwith no headings\n", source, empty, {})
    with pytest.raises(SourceError, match="no topics"):
        parse("# TITLE\n\ntext\n\n# TITLE\n\n# INDEX\n\nA 1\n", source, empty, {})
    with pytest.raises(SourceError, match="line 3"):
        parse("# TITLE\n\n# TOPIC [LAW 4l]\n\ntext\n", source, empty, {})
