"""Checkers for the play: Law 44 (the trick), Law 46 (calling a card from
dummy), Law 50 (penalty cards) and Law 64 (the revoke)."""
from __future__ import annotations

from laws.checkers.cards import (RANKS, SEAT_NAMES, SEATS, STRAINS, SUIT_NAMES, SUITS, Card, card_list,
                                 parse_card, parse_cards, seat_after)
from laws.checkers.registry import Result, checker
from laws.errors import BadInput as BadRequest

_TRUMP_LABELS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}
_SUIT_LABELS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_CARD_LIST_HINT = "cards such as SA H10 D2, separated by spaces or commas"
EDITIONS = ("2007", "2017", "1993-rubber")
_EDITION_LABELS = {"2007": "Laws of Duplicate Bridge 2007", "2017": "Laws of Duplicate Bridge 2017",
                   "1993-rubber": "Laws of Contract Bridge 1993 (rubber)"}
DUPLICATE = ("2007", "2017")
# the whole ruling (options, information, score adjustment) for the play period
RULINGS = "/rulings/play"


def trick_winner(cards: list[Card], trumps: str) -> int:
    """Index of the card winning the trick so far (Law 44E, 44F)."""
    led = cards[0].suit
    def strength(c: Card):
        if trumps != "NT" and c.suit == trumps:
            return (2, c.value)
        if c.suit == led:
            return (1, c.value)
        return (0, 0)
    return max(range(len(cards)), key=lambda i: strength(cards[i]))


def _cards_schema(title: str, max_items: int, description: str, min_items: int = 0) -> dict:
    return {"type": "array", "minItems": min_items, "maxItems": max_items, "title": title,
            "items": {"type": "string", "maxLength": 10, "title": "card"}, "description": description,
            "x-format-hint": _CARD_LIST_HINT}


# --- Law 44 ------------------------------------------------------------------

@checker(
    "trick", "Winner of a trick",
    cites={"2017": ["44A", "44B", "44C", "44D", "44E", "44F", "44G", "61A"],
           "2007": ["44A", "44B", "44C", "44D", "44E", "44F", "44G", "61A"]},
    schema={
        "properties": {
            "cards": _cards_schema("cards played", 4, "the cards played to the trick, the lead first", 1),
            "trumps": {"enum": list(STRAINS), "title": "trumps", "x-labels": _TRUMP_LABELS},
            "leader": {"enum": list(SEATS), "title": "player on lead", "x-labels": SEAT_NAMES,
                       "description": "who led to the trick (optional: to name the winner)"},
            "holdings": {"type": "array", "maxItems": 4, "title": "hands before the trick",
                         "items": {"type": "string", "maxLength": 80, "title": "hand"},
                         "description": "optional: each player's cards before he played to this trick, in "
                                        "the order of play, to tell whether one who did not follow could have",
                         "x-format-hint": "one hand per entry, separated by commas: SA SK H5, D2 D3, …",
                         "x-split": ","},
        },
        "required": ["cards", "trumps"],
    },
    example={"cards": ["HK", "H4", "S2", "HA"], "trumps": "S", "leader": "W"},
)
def trick(data: dict) -> Result:
    """The winner of a trick, and whether each card followed suit (Law 44).

    Inputs: `cards` played to the trick (one to four, the lead first), `trumps`
    (C, D, H, S or NT), optionally the `leader` (a seat) and `holdings`, each
    player's cards before he played, in order of play.  Result: `winner` (the
    index of the winning card, from 0), `winning_card`, `winner_seat` when the
    leader is given, `complete` (four cards), `followed` (for each card after
    the lead, whether it is of the suit led), and with holdings `revokes`: the
    cards played by a player who could have followed suit but did not (44C).
    With fewer than four cards the winner is the card winning so far."""
    cards = parse_cards(data["cards"], "cards")
    trumps = data["trumps"]
    led = cards[0].suit
    w = trick_winner(cards, trumps)
    followed = [None] + [c.suit == led for c in cards[1:]]
    trumped = trumps != "NT" and any(c.suit == trumps for c in cards) and led != trumps
    cites = ["44A", "44B"]
    result = {"winner": w, "winning_card": str(cards[w]), "complete": len(cards) == 4, "followed": followed,
              "trumped": trumped}
    seat_of = (lambda i: seat_after(data["leader"], i)) if "leader" in data else (lambda i: None)
    if "leader" in data:
        result["winner_seat"] = seat_of(w)
    if any(f is False for f in followed):
        cites.append("44D")
    revoke_words = ""
    if "holdings" in data:
        hands = data["holdings"]
        if len(hands) != len(cards):
            raise BadRequest(f"Give one hand for each card played: {len(cards)} cards, {len(hands)} hands.",
                             "holdings")
        revokes = []
        for i, (hand_text, card) in enumerate(zip(hands, cards)):
            hand = parse_cards(hand_text, "holdings")
            if card not in hand:
                raise BadRequest(f"Hand {i + 1} does not hold the {card.words()}, which it played.", "holdings")
            if i and card.suit != led and any(c.suit == led for c in hand):
                revokes.append(i)
        result["revokes"] = revokes
        if revokes:
            cites.append("61A")
            revoke_words = (" " + "; ".join(
                f"the {cards[i].words()}{f' ({SEAT_NAMES[seat_of(i)]})' if seat_of(i) else ''} did not follow "
                f"suit although that player held {SUIT_NAMES[led]}, a revoke (Law 44C requires following suit)"
                for i in revokes) + ".")
    cites.append("44C")
    cites.append("44E" if any(c.suit == trumps for c in cards) else "44F")
    if len(cards) == 4:
        cites.append("44G")
    who = f" by {SEAT_NAMES[seat_of(w)]}" if seat_of(w) else ""
    how = (f"the highest trump ({_TRUMP_LABELS[trumps]})" if cards[w].suit == trumps and trumps != "NT"
           else f"the highest card of the suit led ({SUIT_NAMES[led]})"
           + (" as no trump was played" if trumps != "NT" else ""))
    verb = "wins the trick" if len(cards) == 4 else "is winning the trick so far"
    lead_next = (f", and {SEAT_NAMES[seat_of(w)]} leads to the next trick" if len(cards) == 4 and seat_of(w)
                 else ", and the winner leads to the next trick" if len(cards) == 4 else "")
    explanation = f"The {cards[w].words()}{who} {verb}: it is {how}{lead_next}.{revoke_words}"
    return Result(result, explanation, cites)


# --- Law 46 ------------------------------------------------------------------

_DESIGNATIONS = {
    "high": "'high' (or words of like meaning)",
    "low": "'low' (or words of like meaning)",
    "win": "'win' (or words of like meaning)",
    "suit": "a suit but not a rank",
    "rank": "a rank but not a suit",
    "nothing": "neither suit nor rank ('play anything')",
    "card": "a particular card",
}
_RANK_ENUM = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def _legal(dummy: list[Card], trick: list[Card]) -> list[Card]:
    if not trick:
        return list(dummy)
    follow = [c for c in dummy if c.suit == trick[0].suit]
    return follow or list(dummy)


def _known_to_win(card: Card, trick: list[Card], trumps: str, unseen: set[Card]) -> bool:
    """Whether `card` played from dummy now must win the trick, whatever the
    players still to play hold among `unseen`."""
    cards = trick + [card]
    if trick_winner(cards, trumps) != len(trick):
        return False
    if len(cards) == 4:
        return True
    led = cards[0].suit
    is_trump = trumps != "NT" and card.suit == trumps
    for u in unseen:
        if u.suit == card.suit and u.value > card.value:
            return False
        if not is_trump and trumps != "NT" and u.suit == trumps and card.suit == led:
            return False  # a player void in the suit led might ruff
    return True


@checker(
    "dummy-designation", "Card called from dummy",
    cites={"2007": ["46A", "46B", "46B1(a)", "46B1(b)", "46B1(c)", "46B2", "46B3(a)", "46B3(b)", "46B4", "46B5",
                    "44C"]},
    schema={
        "properties": {
            "dummy": _cards_schema("dummy's cards", 13, "the cards dummy holds now", 1),
            "trick": _cards_schema("cards played to this trick", 3,
                                   "the cards already played to the current trick, the lead first (none "
                                   "if dummy is to lead)"),
            "trumps": {"enum": list(STRAINS), "title": "trumps", "x-labels": _TRUMP_LABELS},
            "designation": {"enum": list(_DESIGNATIONS), "title": "what declarer said",
                            "x-labels": {"high": "“high”", "low": "“low”", "win": "“win”",
                                         "suit": "a suit only", "rank": "a rank only",
                                         "nothing": "nothing specified (“play anything”)",
                                         "card": "a particular card"}},
            "suit": {"enum": list(SUITS), "title": "suit named", "x-labels": _SUIT_LABELS,
                     "description": "for a suit only, or with high, low or win"},
            "rank": {"enum": _RANK_ENUM, "title": "rank named", "description": "for a rank only"},
            "card": {"type": "string", "maxLength": 10, "title": "card named",
                     "description": "for a particular card, such as SQ"},
            "previous_suit": {"enum": list(SUITS), "title": "suit of the trick dummy won last",
                              "x-labels": _SUIT_LABELS,
                              "description": "when dummy leads: the suit in which dummy won the preceding trick"},
            "seen": _cards_schema("other cards known", 52,
                                  "optional, for 'win': declarer's own cards and cards played to earlier tricks"),
        },
        "required": ["dummy", "trumps", "designation"],
    },
    example={"dummy": ["SK", "S7", "S3", "H9"], "trick": ["S5"], "trumps": "H", "designation": "low"},
)
def dummy_designation(data: dict) -> Result:
    """The card declarer is deemed to have called from dummy (Law 46, 2007).

    Inputs: `dummy` (dummy's cards now), `trick` (cards already played to the
    trick, the lead first; empty when dummy leads), `trumps`, `designation`
    (high, low, win, suit, rank, nothing, card) with `suit`, `rank` or `card`
    as needed, `previous_suit` (for a rank when dummy leads: the suit in which
    dummy won the preceding trick), and for 'win' optionally `seen` (other
    cards declarer knows are not with the defenders).  Result: `deemed` (the
    card, or null when the Law leaves the choice to someone), `chooser` (who
    then designates), `legal_cards` and `rule`.  Without a suit, 'high' and
    'low' are taken in the suit led; when dummy leads or cannot follow and
    could play more than one suit, the Law does not say which suit, and the
    checker says so.  All of this yields to declarer's incontrovertibly
    different intention (46B)."""
    dummy = parse_cards(data["dummy"], "dummy", "dummy's card")
    trick = parse_cards(data.get("trick", []), "trick")
    trumps, how = data["trumps"], data["designation"]
    for c in trick:
        if c in dummy:
            raise BadRequest(f"The {c.words()} is both in dummy and played to the trick.", "trick")
    legal = _legal(dummy, trick)
    leading = not trick
    led = trick[0].suit if trick else None
    needed = {"suit": "suit", "rank": "rank", "card": "card"}.get(how)
    if needed and needed not in data:
        raise BadRequest(f"For {_DESIGNATIONS[how]}, say which {needed} declarer named.", needed)
    base = f"Declarer named {_DESIGNATIONS[how]}"

    def answer(deemed: Card | None, rule: list[str], why: str, chooser: str | None = None):
        result = {"deemed": str(deemed) if deemed else None, "chooser": chooser,
                  "legal_cards": [str(c) for c in legal], "rule": rule[0]}
        if deemed is not None and deemed not in legal:
            result["legal"] = False
            why += (f" But the {deemed.words()} would not follow suit: dummy must follow suit "
                    f"when it can (Law 44C), so that card cannot be played.")
            rule = rule + ["44C"]
        elif deemed is not None:
            result["legal"] = True
        return Result(result, f"{base}: {why}", ["46B"] + rule if rule[0] not in ("46A",) else rule)

    def pool_for(suit: str | None) -> tuple[list[Card] | None, str]:
        """Dummy's cards the words refer to, or None with the reason when the
        Law does not say which suit."""
        if suit:
            return [c for c in dummy if c.suit == suit], SUIT_NAMES[suit]
        if not leading and any(c.suit == led for c in dummy):
            return [c for c in dummy if c.suit == led], SUIT_NAMES[led]
        suits = {c.suit for c in legal}
        if len(suits) == 1:
            s = suits.pop()
            return [c for c in dummy if c.suit == s], SUIT_NAMES[s]
        return None, ""

    if how in ("high", "low"):
        rule = "46B1(a)" if how == "high" else "46B1(c)"
        pool, words = pool_for(data.get("suit"))
        if pool is None:
            return answer(None, [rule], f"the Law deems the {'highest' if how == 'high' else 'lowest'} card "
                          f"called, but dummy {'is on lead' if leading else 'cannot follow suit'} and holds "
                          "more than one suit, so the words do not say which card; declarer must name the suit.",
                          "declarer")
        if not pool:
            return answer(None, [rule, "46B4"], f"dummy holds no {words}; as with a call of a card not in "
                          "dummy, the call is void and declarer may designate any legal card.", "declarer")
        card = max(pool) if how == "high" else min(pool)
        return answer(card, [rule], f"he is deemed to have called the {'highest' if how == 'high' else 'lowest'} "
                      f"card, the {card.words()}.")

    if how == "win":
        seen = set(parse_cards(data.get("seen", []), "seen"))
        unseen = {Card(s, r) for s in SUITS for r in RANKS} - set(dummy) - set(trick) - seen
        pool = legal if "suit" not in data else [c for c in legal if c.suit == data["suit"]]
        winners = sorted((c for c in pool if _known_to_win(c, trick, trumps, unseen)),
                         key=lambda c: (c.suit == trumps, c.value))
        if not winners:
            return answer(None, ["46B1(b)"], "he is deemed to have called the lowest card that it is known will "
                          "win the trick, but no card in dummy is known to win it, so the words do not designate "
                          "a card; declarer must designate one.", "declarer")
        if leading and "suit" not in data and len({c.suit for c in winners}) > 1:
            return answer(None, ["46B1(b)"], "dummy has cards known to win in more than one suit ("
                          + card_list(winners) + "), so the words do not say which; declarer must name the suit.",
                          "declarer")
        return answer(winners[0], ["46B1(b)"], f"he is deemed to have called the lowest card that it is known "
                      f"will win the trick, the {winners[0].words()}.")

    if how == "suit":
        suit = data["suit"]
        pool = [c for c in dummy if c.suit == suit]
        if not pool:
            return answer(None, ["46B2", "46B4"], f"dummy holds no {SUIT_NAMES[suit]}; as with a call of a card "
                          "not in dummy, the call is void and declarer may designate any legal card.", "declarer")
        return answer(min(pool), ["46B2"], f"he is deemed to have called the lowest card of the suit, the "
                      f"{min(pool).words()}.")

    if how == "rank":
        rank = "T" if data["rank"] == "10" else data["rank"]
        if leading and "previous_suit" in data and Card(data["previous_suit"], rank) in dummy:
            card = Card(data["previous_suit"], rank)
            return answer(card, ["46B3(a)"], f"in leading he is deemed to have continued the suit in which dummy "
                          f"won the preceding trick: the {card.words()}.")
        of_rank = [c for c in legal if c.rank == rank]
        if len(of_rank) == 1:
            return answer(of_rank[0], ["46B3(b)"], f"dummy must play its one card of that rank that can legally "
                          f"be played, the {of_rank[0].words()}.")
        if len(of_rank) > 1:
            return answer(None, ["46B3(b)"], f"dummy can legally play more than one card of that rank "
                          f"({card_list(of_rank)}): declarer must designate which is intended.", "declarer")
        if any(c.rank == rank for c in dummy):
            return answer(None, ["46B3(b)"], "dummy holds that rank only in a suit it may not play now "
                          "(it must follow suit), so declarer must designate a legal card.", "declarer")
        return answer(None, ["46B3(b)", "46B4"], "dummy holds no card of that rank; as with a call of a card not "
                      "in dummy, the call is void and declarer may designate any legal card.", "declarer")

    if how == "nothing":
        return answer(None, ["46B5"], "without a suit or a rank, either defender may designate the play from "
                      "dummy.", "either defender")

    card = parse_card(data["card"], "card")
    if card not in dummy:
        return answer(None, ["46B4"], f"dummy does not hold the {card.words()}: the call is void and declarer "
                      "may designate any legal card.", "declarer")
    return answer(card, ["46A"], f"the {card.words()} is in dummy, a complete designation of suit and rank.")


# --- Law 50 ------------------------------------------------------------------

_PENALTY_CITES = {
    "2007": ["50", "50A", "50B", "50C", "50D", "50D1(a)", "50D1(b)", "50D2", "50E", "48A", "51"],
    "2017": ["50", "50A", "50B", "50C", "50D", "50D1(a)", "50D1(b)", "50D2", "50E1", "50E2", "50E3", "48A", "51"],
    "1993-rubber": ["50", "48", "51"],
}


@checker(
    "penalty-card", "Penalty card: major or minor",
    cites=_PENALTY_CITES,
    schema={
        "properties": {
            "edition": {"enum": list(EDITIONS), "title": "edition of the Laws", "default": "2007",
                        "x-labels": _EDITION_LABELS},
            "cards": _cards_schema("exposed cards", 13, "every card of this player's that is exposed", 1),
            "exposure": {"enum": ["inadvertent", "deliberate"], "title": "how the card was exposed",
                         "default": "inadvertent",
                         "x-labels": {"inadvertent": "inadvertently (dropped, played two)",
                                      "deliberate": "by deliberate play (lead out of turn…)"},
                         "description": "inadvertently, as in dropping a card or playing two at once; or through "
                                        "deliberate play, as in leading out of turn or revoking and correcting"},
            "player": {"enum": ["defender", "declarer"], "title": "whose card", "default": "defender",
                       "x-labels": {"defender": "a defender's", "declarer": "declarer's (or dummy's)"}},
        },
        "required": ["cards"],
    },
    example={"edition": "2007", "cards": ["S5"], "exposure": "inadvertent"},
)
def penalty_card(data: dict) -> Result:
    """Whether an exposed card is a major or minor penalty card, and what follows (Law 50).

    Inputs: `edition` ('2007', '2017' or '1993-rubber'), `cards` (every card of the
    player's exposed), `exposure` ('inadvertent' or 'deliberate'), `player`
    ('defender' or 'declarer').  Result: `kind` (minor, major, or none for
    declarer's and dummy's cards, Law 48), `penalty_cards` (each card and its
    kind) and `follows`, the obligations that result.  A single card below the
    rank of an honour exposed inadvertently is minor; an honour, a card exposed
    by deliberate play, or two or more penalty cards are major."""
    edition = data.get("edition", "2007")
    cards = parse_cards(data["cards"], "cards", "exposed card")
    deliberate = data.get("exposure", "inadvertent") == "deliberate"
    duplicate = edition in DUPLICATE
    if data.get("player", "defender") == "declarer":
        law = "48A" if duplicate else "48"
        return Result({"kind": "none", "penalty_cards": [], "follows": ["Declarer is not required to play a card "
                                                                        "dropped accidentally."],
                       "ruling": _ruling(edition)},
                      "No card of declarer's or dummy's hand ever becomes a penalty card; declarer is not "
                      "restricted for exposing a card." + _see_ruling(edition), [law], edition)
    if len(cards) > 1:
        kind, why = "major", "one defender has two or more penalty cards, so all of them are major"
    elif cards[0].honour:
        kind, why = "major", f"the {cards[0].words()} is of honour rank, so it is a major penalty card"
    elif deliberate:
        kind, why = "major", f"the {cards[0].words()} was exposed through deliberate play, so it is major"
    else:
        kind, why = "minor", (f"the {cards[0].words()} is a single card below the rank of an honour exposed "
                              "inadvertently, so it is a minor penalty card")
    if kind == "minor":
        follows = ["The card stays face up on the table until played.",
                   "The defender may not play another card of the same suit below the rank of an honour until he "
                   "has played the penalty card, but he may play an honour instead.",
                   "His partner is under no lead restriction, but information from seeing the card is "
                   "unauthorized for him." if edition != "2017" else
                   "His partner is under no lead restriction; information from the card is authorized for all "
                   "players while it stays on the table."]
        cites = (["50A", "50B", "50C", "50E1"] if edition == "2017" else ["50A", "50B", "50C", "50E"]) \
            if duplicate else ["50"]
    else:
        follows = ["The card stays face up on the table until played.",
                   "It must be played at the first legal opportunity, in leading, following suit, discarding or "
                   "trumping; the obligation to follow suit comes first.",
                   "When his partner has the lead, declarer may require or forbid the lead of the penalty card's "
                   "suit (the card is then picked up), or let the lead be free (the card stays a penalty card).",
                   "Information from seeing the card is unauthorized for the partner." if edition != "2017" else
                   "Information from the card is authorized for all while it is on the table; once it is picked up "
                   "under 50D2(a) it is unauthorized for the partner, and once played, so is how it came about."]
        if len(cards) > 1:
            follows.append("With two or more penalty cards that can legally be played, declarer designates which; "
                           "Law 51 governs requiring or forbidding the lead of their suit.")
        info = ["50E1", "50E2", "50E3"] if edition == "2017" else ["50E"]
        cites = (["50A", "50B", "50D1(a)", "50D1(b)", "50D2"] + info if duplicate else ["50"]) \
            + (["51"] if len(cards) > 1 else [])
    explanation = f"Under {'Law 50B' if duplicate else 'Law 50'} of the {_EDITION_LABELS[edition]}, {why}." \
        + _see_ruling(edition)
    return Result({"kind": kind, "penalty_cards": [{"card": str(c), "kind": kind} for c in cards],
                   "follows": follows, "ruling": _ruling(edition)}, explanation, cites, edition)


def _ruling(edition: str) -> str:
    """The play ruling for this edition (the duplicate Laws' page leads with the code in force)."""
    return RULINGS if edition in DUPLICATE else f"{RULINGS}?edition={edition}"


def _see_ruling(edition: str) -> str:
    return f" The whole ruling, with declarer's options, is at {_ruling(edition)}."


# --- Law 64 ------------------------------------------------------------------

_EXCEPTIONS = {
    "none": ("no exception", {}),
    "subsequent": ("a subsequent revoke in the same suit by the same player", {"2007": "64B2", "2017": "64B2",
                                                                               "1993-rubber": "64(d)(ii)"}),
    # 2017 64B3 narrows 2007's 'any card faced on the table' to a penalty card or a card of dummy's
    "faced card": ("a revoke in failing to play a card faced on the table (2017: a penalty card) or belonging "
                   "to a hand faced on the table, including dummy's", {"2007": "64B3", "2017": "64B3",
                                                                      "1993-rubber": "64(d)(iii)"}),
    "next deal": ("attention first drawn after a member of the non-offending side called on the next deal",
                  {"2007": "64B4", "2017": "64B4"}),
    "round ended": ("attention first drawn after the round ended", {"2007": "64B5", "2017": "64B5"}),
    "hands mixed": ("attention first drawn after all players abandoned their hands and the cards were mixed",
                    {"1993-rubber": "64(d)(iv)"}),
    "both sides": ("both sides revoked on the same board (2017: and both revokes became established)",
                   {"2007": "64B7", "2017": "64B7"}),
    "corrected": ("the revoke was corrected under Law 62C3 (both sides revoked on the same trick)",
                  {"2017": "64B8"}),
}

_EXCEPTION_LABELS = {"none": "none", "subsequent": "second revoke, same suit, same player",
                     "faced card": "failed to play a faced card (or dummy's)",
                     "next deal": "noticed after a call on the next deal (2007, 2017)",
                     "round ended": "noticed after the round ended (2007, 2017)",
                     "hands mixed": "noticed after the hands were mixed (1993)",
                     "both sides": "both sides revoked (2007, 2017)",
                     "corrected": "corrected under 62C3 (2017)"}
# 2017 64C2: the Director's redress after repeated revokes (64B2) or revokes by both sides (64B7)
_REDRESS_2017 = {"64B2": "64C2(a)", "64B7": "64C2(b)"}


@checker(
    "revoke", "Tricks transferred after an established revoke",
    cites={"2007": ["64A1", "64A2", "64B1", "64B2", "64B3", "64B4", "64B5", "64B6", "64B7", "64C"],
           "2017": ["64A1", "64A2", "64B1", "64B2", "64B3", "64B4", "64B5", "64B6", "64B7", "64B8", "64C1",
                    "64C2(a)", "64C2(b)"],
           "1993-rubber": ["64(a)", "64(b)", "64(c)(i)", "64(c)(ii)", "64(d)(i)", "64(d)(ii)", "64(d)(iii)",
                           "64(d)(iv)", "64(d)(v)"]},
    schema={
        "properties": {
            "edition": {"enum": list(EDITIONS), "title": "edition of the Laws", "default": "2007",
                        "x-labels": _EDITION_LABELS},
            "won_by": {"enum": ["offending player", "offender's partner", "non-offending side"],
                       "title": "revoke trick won by",
                       "description": "who won the trick on which the revoke occurred (a trick won in dummy is "
                                      "won by declarer's partner)"},
            "later_tricks": {"type": "integer", "minimum": 0, "maximum": 12,
                             "title": "tricks won by the offending side after the revoke trick"},
            "revoke_trick": {"type": "integer", "minimum": 1, "maximum": 12, "title": "number of the revoke trick",
                             "description": "optional: which trick (1 to 12) the revoke was on"},
            "eligible_card": {"type": "boolean", "default": False,
                              "title": "offender won a later trick with a card he could have played to the "
                                       "revoke trick",
                              "description": "1993 rubber Law 64(b) and (c)(ii) only"},
            "exception": {"enum": list(_EXCEPTIONS), "title": "exception", "default": "none",
                          "x-labels": _EXCEPTION_LABELS,
                          "description": "a circumstance in which the Law transfers no trick"},
        },
        "required": ["won_by", "later_tricks"],
    },
    example={"edition": "2007", "won_by": "offending player", "later_tricks": 2},
)
def revoke(data: dict) -> Result:
    """The tricks transferred after an established revoke (Law 64, 2007 and 1993 rubber).

    Inputs: `edition`, `won_by` (who won the revoke trick: 'offending player',
    "offender's partner", 'non-offending side' — a trick won in dummy is not
    won by declarer), `later_tricks` (tricks the offending side won after the
    revoke trick), optionally `revoke_trick` (its number; a revoke on the
    twelfth trick is not rectified), `eligible_card` (1993 rubber: the
    offending player won a later trick with a card he could legally have
    played to the revoke trick) and `exception`.  Result:
    `tricks_transferred` and `rule`.  2007: 64A1 transfers the revoke trick
    and one more if the offending side won a later trick; 64A2 one trick.
    1993 rubber: 64(a) like 64A1; 64(b) the revoke trick, and one more only
    for a later trick won by the offender with an eligible card; 64(c) the
    first later trick, and a second for two or more with one won by the
    offender with an eligible card."""
    edition = data.get("edition", "2007")
    won_by, later = data["won_by"], data["later_tricks"]
    eligible = data.get("eligible_card", False)
    duplicate = edition in DUPLICATE
    if "revoke_trick" in data and later > 13 - data["revoke_trick"]:
        raise BadRequest(f"After a revoke on trick {data['revoke_trick']} there are only "
                         f"{13 - data['revoke_trick']} tricks left.", "later_tricks")
    if eligible and later == 0:
        raise BadRequest("The offender cannot have won a later trick when the offending side won no trick after "
                         "the revoke trick.", "eligible_card")
    redress = {"2007": "64C", "2017": "64C1"}.get(edition)
    equity = [redress] if duplicate else []
    equity_words = (f" The Director still assigns an adjusted score if this does not compensate the "
                    f"non-offending side ({redress})." if duplicate else
                    " If the transfer leaves the non-offending side damaged, the offending side should give up "
                    "further tricks to restore equity.") + _see_ruling(edition)

    def answer(n: int, rule: list[str], why: str) -> Result:
        more = [_REDRESS_2017[rule[0]]] if edition == "2017" and rule[0] in _REDRESS_2017 else []
        return Result({"tricks_transferred": n, "rule": rule[0], "ruling": _ruling(edition)},
                      f"Under Law 64 of the {_EDITION_LABELS[edition]}, {why}" + equity_words,
                      rule + more + equity, edition)

    exception = data.get("exception", "none")
    note = ""
    if exception != "none":
        words, by_edition = _EXCEPTIONS[exception]
        if edition in by_edition:
            return answer(0, [by_edition[edition]], f"no trick is transferred: {words}.")
        note = f" ({words[0].upper() + words[1:]} is not an exception in this edition.)"
    if data.get("revoke_trick") == 12:
        rule = "64B6" if duplicate else "64(d)(v)"
        return answer(0, [rule], "no trick is transferred for a revoke on the twelfth trick." + note)
    if won_by == "offending player":
        n = 1 + (1 if later else 0)
        rule = "64A1" if duplicate else "64(a)"
        why = ("the offending player won the revoke trick, so it is transferred"
               + (" together with one of the later tricks the offending side won" if later else
                  "; the offending side won no later trick to add to it") + f": {n} trick{'s' if n > 1 else ''}.")
        return answer(n, [rule], why + note)
    if duplicate:
        if won_by == "offender's partner" or later:
            who = ("the offender's partner won the revoke trick" if won_by == "offender's partner"
                   else "the non-offending side won the revoke trick but the offending side won a later trick")
            return answer(1, ["64A2"], f"{who}, so one trick is transferred." + note)
        return answer(0, ["64B1"], "the offending side won neither the revoke trick nor any later trick, so no "
                      "trick is transferred." + note)
    if won_by == "offender's partner":
        n = 1 + (1 if eligible else 0)
        why = ("the offender's partner won the revoke trick, so it is transferred"
               + (", and one more because the offender won a later trick with a card he could legally have "
                  "played to the revoke trick" if eligible else "") + f": {n} trick{'s' if n > 1 else ''}.")
        return answer(n, ["64(b)"], why + note)
    if not later:
        return answer(0, ["64(d)(i)"], "the offending side won neither the revoke trick nor any later trick, so "
                      "there is no trick penalty." + note)
    extra = eligible and later >= 2
    n = 1 + (1 if extra else 0)
    why = ("the non-offending side won the revoke trick, so the first later trick the offending side won is "
           "transferred" + (", and one more because it won two or more later tricks, one of them by the offender "
                            "with a card he could legally have played to the revoke trick" if extra else "")
           + f": {n} trick{'s' if n > 1 else ''}.")
    return answer(n, ["64(c)(i)"] + (["64(c)(ii)"] if extra else []), why + note)
