"""Checkers for the play: Law 44 (the trick), Law 46 (calling a card from
dummy), Law 50 (penalty cards) and Law 64 (the revoke)."""
from __future__ import annotations

from laws.checkers.cards import (RANKS, SEAT_NAMES, SUIT_NAMES, SUITS, Card, card_list, parse_card, parse_cards,
                                 seat_after)
from laws.checkers.registry import Edition, Result, checker
from laws.errors import BadInput as BadRequest

_TRUMP_LABELS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}


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


# --- Law 44 ------------------------------------------------------------------

@checker("trick")
def trick(data: dict, ed: Edition) -> Result:
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
    law = ed.law
    cites = [law("lead"), law("trick")]
    result = {"winner": w, "winning_card": str(cards[w]), "complete": len(cards) == 4, "followed": followed,
              "trumped": trumped}
    seat_of = (lambda i: seat_after(data["leader"], i)) if "leader" in data else (lambda i: None)
    if "leader" in data:
        result["winner_seat"] = seat_of(w)
    if any(f is False for f in followed):
        cites.append(law("unable"))
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
            cites.append(law("revoke"))
            named = "; ".join(
                f"the {cards[i].words()}{f' ({SEAT_NAMES[seat_of(i)]})' if seat_of(i) else ''} did not follow "
                f"suit although that player held {SUIT_NAMES[led]}, a revoke (Law {law('follow')} requires following suit)"
                for i in revokes)
            revoke_words = f" {named[0].upper()}{named[1:]}."  # a sentence of its own
    cites.append(law("follow"))
    cites.append(law("trumped") if any(c.suit == trumps for c in cards) else law("not_trumped"))
    if len(cards) == 4:
        cites.append(law("next_lead"))
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


def _rank(card: Card) -> int:
    return card.value


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


@checker("dummy-designation")
def dummy_designation(data: dict, ed: Edition) -> Result:
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
    checker says so (the 2017 text says "of the suit led").  All of this
    yields to declarer's incontrovertibly different intention (46B).
    `edition`: the code applied (the code in force unless another is chosen)."""
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
    law, void = ed.law, ed.get("void")

    def answer(deemed: Card | None, rule: list[str], why: str, chooser: str | None = None):
        result = {"deemed": str(deemed) if deemed else None, "chooser": chooser,
                  "legal_cards": [str(c) for c in legal], "rule": rule[0]}
        if deemed is not None and deemed not in legal:
            result["legal"] = False
            why += (f" But the {deemed.words()} would not follow suit: dummy must follow suit "
                    f"when it can (Law {law('follow')}), so that card cannot be played.")
            rule = rule + [law("follow")]
        elif deemed is not None:
            result["legal"] = True
        return Result(result, f"{base}: {why}", rule if rule[0] == law("complete") else [law("incomplete")] + rule)

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
        rule = law(how)
        pool, words = pool_for(data.get("suit"))
        if pool is None:
            return answer(None, [rule], f"the Law deems the {'highest' if how == 'high' else 'lowest'} card "
                          f"called, but dummy {'is on lead' if leading else 'cannot follow suit'} and holds "
                          "more than one suit, so the words do not say which card; declarer must name the suit.",
                          "declarer")
        if not pool:
            return answer(None, [rule, law("not_in_dummy")], f"dummy holds no {words}; as with a call of a card "
                          f"not in dummy, the call is {void} and declarer may designate any legal card.", "declarer")
        # by rank (a Card's own order is by the letters: 'A' < 'K' < 'T')
        card = max(pool, key=_rank) if how == "high" else min(pool, key=_rank)
        return answer(card, [rule], f"he is deemed to have called the {'highest' if how == 'high' else 'lowest'} "
                      f"card, the {card.words()}.")

    if how == "win":
        seen = set(parse_cards(data.get("seen", []), "seen"))
        unseen = {Card(s, r) for s in SUITS for r in RANKS} - set(dummy) - set(trick) - seen
        pool = legal if "suit" not in data else [c for c in legal if c.suit == data["suit"]]
        winners = sorted((c for c in pool if _known_to_win(c, trick, trumps, unseen)),
                         key=lambda c: (c.suit == trumps, c.value))
        if not winners:
            return answer(None, [law("win")], "he is deemed to have called the lowest card that it is known will "
                          "win the trick, but no card in dummy is known to win it, so the words do not designate "
                          "a card; declarer must designate one.", "declarer")
        if leading and "suit" not in data and len({c.suit for c in winners}) > 1:
            return answer(None, [law("win")], "dummy has cards known to win in more than one suit ("
                          + card_list(winners) + "), so the words do not say which; declarer must name the suit.",
                          "declarer")
        return answer(winners[0], [law("win")], f"he is deemed to have called the lowest card that it is known "
                      f"will win the trick, the {winners[0].words()}.")

    if how == "suit":
        suit = data["suit"]
        pool = [c for c in dummy if c.suit == suit]
        if not pool:
            return answer(None, [law("suit"), law("not_in_dummy")], f"dummy holds no {SUIT_NAMES[suit]}; as with "
                          f"a call of a card not in dummy, the call is {void} and declarer may designate any legal "
                          "card.", "declarer")
        low = min(pool, key=_rank)
        return answer(low, [law("suit")], f"he is deemed to have called the lowest card of the suit, the "
                      f"{low.words()}.")

    if how == "rank":
        rank = "T" if data["rank"] == "10" else data["rank"]
        if leading and "previous_suit" in data and Card(data["previous_suit"], rank) in dummy:
            card = Card(data["previous_suit"], rank)
            return answer(card, [law("rank_leading")], f"in leading he is deemed to have continued the suit in which dummy "
                          f"won the preceding trick: the {card.words()}.")
        of_rank = [c for c in legal if c.rank == rank]
        if len(of_rank) == 1:
            return answer(of_rank[0], [law("rank")], f"dummy must play its one card of that rank that can legally "
                          f"be played, the {of_rank[0].words()}.")
        if len(of_rank) > 1:
            return answer(None, [law("rank")], f"dummy can legally play more than one card of that rank "
                          f"({card_list(of_rank)}): declarer must designate which is intended.", "declarer")
        if any(c.rank == rank for c in dummy):
            return answer(None, [law("rank")], "dummy holds that rank only in a suit it may not play now "
                          "(it must follow suit), so declarer must designate a legal card.", "declarer")
        return answer(None, [law("rank"), law("not_in_dummy")], "dummy holds no card of that rank; as with a call "
                      f"of a card not in dummy, the call is {void} and declarer may designate any legal card.",
                      "declarer")

    if how == "nothing":
        return answer(None, [law("nothing")], "without a suit or a rank, either defender may designate the play from "
                      "dummy.", "either defender")

    card = parse_card(data["card"], "card")
    if card not in dummy:
        return answer(None, [law("not_in_dummy")], f"dummy does not hold the {card.words()}: the call is {void} "
                      "and declarer may designate any legal card.", "declarer")
    return answer(card, [law("complete")], f"the {card.words()} is in dummy, a complete designation of suit and rank.")


# --- Law 50 ------------------------------------------------------------------

@checker("penalty-card")
def penalty_card(data: dict, ed: Edition) -> Result:
    """Whether an exposed card is a major or minor penalty card, and what follows (Law 50).

    Inputs: `edition` (the code in force unless another is chosen), `cards` (every card of the
    player's exposed), `exposure` ('inadvertent' or 'deliberate'), `player`
    ('defender' or 'declarer').  Result: `kind` (minor, major, or none for
    declarer's and dummy's cards, Law 48), `penalty_cards` (each card and its
    kind) and `follows`, the obligations that result.  A single card below the
    rank of an honour exposed inadvertently is minor; an honour, a card exposed
    by deliberate play, or two or more penalty cards are major."""
    cards = parse_cards(data["cards"], "cards", "exposed card")
    deliberate = data.get("exposure", "inadvertent") == "deliberate"
    ruling = ed.get("ruling")
    see = _see_ruling(ruling)
    if data.get("player", "defender") == "declarer":
        return Result({"kind": "none", "penalty_cards": [], "follows": ["Declarer is not required to play a card "
                                                                        "dropped accidentally."],
                       "ruling": ruling},
                      "No card of declarer's or dummy's hand ever becomes a penalty card; declarer is not "
                      "restricted for exposing a card." + see, [ed.law("declarer")])
    if len(cards) > 1:
        kind, why = "major", "one defender has two or more penalty cards, so all of them are major"
    elif cards[0].honour:
        kind, why = "major", f"the {cards[0].words()} is of honour rank, so it is a major penalty card"
    elif deliberate:
        kind, why = "major", f"the {cards[0].words()} was exposed through deliberate play, so it is major"
    else:
        kind, why = "minor", (f"the {cards[0].words()} is a single card below the rank of an honour exposed "
                              "inadvertently, so it is a minor penalty card")
    follows, cites = list(ed.get(kind)["follows"]), list(ed.get(kind)["cites"])
    if kind == "major" and len(cards) > 1:
        follows.append(ed.get("several"))
        cites.append(ed.law("several"))
    explanation = f"Under Law {ed.law('kind')} of the {ed.title}, {why}." + see
    return Result({"kind": kind, "penalty_cards": [{"card": str(c), "kind": kind} for c in cards],
                   "follows": follows, "ruling": ruling}, explanation, cites)


def _see_ruling(ruling: str) -> str:
    return f" The whole ruling, with declarer's options, is at {ruling}."


# --- Law 64 ------------------------------------------------------------------

# what each exception is; which provision makes it one (if any) is the
# edition's data (`exceptions`)
_EXCEPTIONS = {
    "none": "no exception",
    "subsequent": "a subsequent revoke in the same suit by the same player",
    # 2017 64B3 narrows 2007's 'any card faced on the table' to a penalty card or a card of dummy's
    "faced card": ("a revoke in failing to play a card faced on the table (2017: a penalty card) or belonging "
                   "to a hand faced on the table, including dummy's"),
    "next deal": "attention first drawn after a member of the non-offending side called on the next deal",
    "round ended": "attention first drawn after the round ended",
    "hands mixed": "attention first drawn after all players abandoned their hands and the cards were mixed",
    "both sides": "both sides revoked on the same board (2017: and both revokes became established)",
    "corrected": "the revoke was corrected under Law 62C3 (both sides revoked on the same trick)",
}


@checker("revoke")
def revoke(data: dict, ed: Edition) -> Result:
    """The tricks transferred after an established revoke (Law 64: 2017, 2007 and 1993 rubber).

    Inputs: `edition`, `won_by` (who won the revoke trick: 'offending player',
    "offender's partner", 'non-offending side' — a trick won in dummy is not
    won by declarer), `later_tricks` (tricks the offending side won after the
    revoke trick), optionally `revoke_trick` (its number; a revoke on the
    twelfth trick is not rectified), `eligible_card` (1993 rubber: the
    offending player won a later trick with a card he could legally have
    played to the revoke trick) and `exception`.  Result:
    `tricks_transferred` and `rule`.  `edition` is the code in force unless
    another is chosen.  2007 and 2017: 64A1 transfers the revoke trick
    and one more if the offending side won a later trick; 64A2 one trick.
    1993 rubber: 64(a) like 64A1; 64(b) the revoke trick, and one more only
    for a later trick won by the offender with an eligible card; 64(c) the
    first later trick, and a second for two or more with one won by the
    offender with an eligible card."""
    won_by, later = data["won_by"], data["later_tricks"]
    eligible = data.get("eligible_card", False)
    law = ed.law
    if "revoke_trick" in data and later > 13 - data["revoke_trick"]:
        raise BadRequest(f"After a revoke on trick {data['revoke_trick']} there are only "
                         f"{13 - data['revoke_trick']} tricks left.", "later_tricks")
    if eligible and later == 0:
        raise BadRequest("The offender cannot have won a later trick when the offending side won no trick after "
                         "the revoke trick.", "eligible_card")
    ruling = ed.get("ruling")
    equity_words = " " + ed.get("equity") + _see_ruling(ruling)

    def answer(n: int, rule: list[str], why: str) -> Result:
        # the Director's redress after some exceptions (2017 64C2), then the general one
        more = [ed.get("redress_after")[rule[0]]] if rule[0] in ed.get("redress_after") else []
        return Result({"tricks_transferred": n, "rule": rule[0], "ruling": ruling},
                      f"Under Law 64 of the {ed.title}, {why}" + equity_words, rule + more + list(ed.get("redress")))

    exception = data.get("exception", "none")
    note = ""
    if exception != "none":
        words, provision = _EXCEPTIONS[exception], ed.get("exceptions").get(exception)
        if provision:
            return answer(0, [provision], f"no trick is transferred: {words}.")
        note = f" ({words[0].upper() + words[1:]} is not an exception in this edition.)"
    if data.get("revoke_trick") == 12:
        return answer(0, [law("twelfth")], "no trick is transferred for a revoke on the twelfth trick." + note)
    if won_by == "offending player":
        n = 1 + (1 if later else 0)
        why = ("the offending player won the revoke trick, so it is transferred"
               + (" together with one of the later tricks the offending side won" if later else
                  "; the offending side won no later trick to add to it") + f": {n} trick{'s' if n > 1 else ''}.")
        return answer(n, [law("offender_won")], why + note)
    if ed.get("scheme") == "duplicate":
        if won_by == "offender's partner" or later:
            who = ("the offender's partner won the revoke trick" if won_by == "offender's partner"
                   else "the non-offending side won the revoke trick but the offending side won a later trick")
            return answer(1, [law("one_trick")], f"{who}, so one trick is transferred." + note)
        return answer(0, [law("no_trick")], "the offending side won neither the revoke trick nor any later trick, "
                      "so no trick is transferred." + note)
    if won_by == "offender's partner":
        n = 1 + (1 if eligible else 0)
        why = ("the offender's partner won the revoke trick, so it is transferred"
               + (", and one more because the offender won a later trick with a card he could legally have "
                  "played to the revoke trick" if eligible else "") + f": {n} trick{'s' if n > 1 else ''}.")
        return answer(n, [law("partner_won")], why + note)
    if not later:
        return answer(0, [law("no_trick")], "the offending side won neither the revoke trick nor any later trick, "
                      "so there is no trick penalty." + note)
    extra = eligible and later >= 2
    n = 1 + (1 if extra else 0)
    why = ("the non-offending side won the revoke trick, so the first later trick the offending side won is "
           "transferred" + (", and one more because it won two or more later tricks, one of them by the offender "
                            "with a card he could legally have played to the revoke trick" if extra else "")
           + f": {n} trick{'s' if n > 1 else ''}.")
    return answer(n, [law("other_side_won")] + ([law("second_trick")] if extra else []), why + note)
