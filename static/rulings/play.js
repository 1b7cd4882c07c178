/* Rulings on irregularities in the play: laws/rulings/play/__init__.py in
   JavaScript (the play read by the Laws of procedure to its first
   irregularity, then the walker), for the phone offline.  The fixture cases
   (tests/fixtures/rulings_play.json) run on both and must give the same
   reply, field for field: change them together. */
(function (root) {
  "use strict";
  var SEATS = "NESW";
  var NAMES = { N: "North", E: "East", S: "South", W: "West" };
  var SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  var RANKS = "23456789TJQKA";
  var RANK_NAMES = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
  var HONOURS = "TJQKA";
  var FIELDS = ["edition", "contract", "declarer", "trick", "seat", "play", "findings"];
  var MARKERS = ["exposed", "facedown", "simultaneous", "revoke", "penalty", "minor", "changed", "fifth", "retract"];
  var CARD = /^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$/;
  var CONTRACT = /^([1-7])(C|D|H|S|NT|N)(XX|X)?$/;
  function isDefective(findings) { return findings.defective === "omitted" || findings.defective === "too-many"; }

  function RulingError(message, field) { this.message = message; this.field = field === undefined ? null : field; }
  function after(seat, n) { return SEATS[(SEATS.indexOf(seat) + (n === undefined ? 1 : n)) % 4]; }
  function partner(seat) { return after(seat, 2); }
  function cardName(card) { return (RANK_NAMES[card[1]] || card[1]) + " of " + SUIT_NAMES[card[0]]; }
  function isHonour(card) { return HONOURS.indexOf(card[1]) >= 0; }
  function has(obj, k) { return Object.prototype.hasOwnProperty.call(obj, k); }

  function parseCard(text, where) {
    var raw = typeof text === "string" ? text.trim().toUpperCase() : "";
    var m = CARD.exec(raw);
    if (!m) throw new RulingError(where + ": " + JSON.stringify(text) + " is not a card; write the suit then the rank, like SA, H10 or D2.", "play");
    var suit = m[1] ? m[1] : m[4], rank = m[1] ? m[2] : m[3];
    return suit + (rank === "10" ? "T" : rank);
  }

  function parseRequest(p) {
    if (p === null || typeof p !== "object" || Array.isArray(p)) throw new RulingError("Send a JSON object with the edition, contract, declarer, play and findings.", null);
    var extra = Object.keys(p).filter(function (k) { return FIELDS.indexOf(k) < 0; }).sort();
    if (extra.length) throw new RulingError("There is no field '" + extra[0] + "'; the fields are edition, contract, declarer, trick, seat, play and findings.", extra[0]);
    var edition = p.edition;
    if (typeof edition !== "string") throw new RulingError("The edition is the id of a code, such as the one in force.", "edition");
    var m = typeof p.contract === "string" ? CONTRACT.exec(p.contract.trim().toUpperCase()) : null;
    if (!m) throw new RulingError("The contract is a level 1 to 7 and a strain C, D, H, S or NT, doubled X or redoubled XX: like 4S, 3NT or 2HX.", "contract");
    var strain = m[2] === "N" || m[2] === "NT" ? "NT" : m[2];
    if (typeof p.declarer !== "string" || p.declarer.length !== 1 || SEATS.indexOf(p.declarer) < 0) throw new RulingError("Declarer is one of N, E, S, W.", "declarer");
    var play = has(p, "play") ? p.play : [];
    if (!Array.isArray(play)) throw new RulingError("The play is a list of [seat, card] pairs, like [[\"W\", \"HK\"]].", "play");
    if (play.length > 80) throw new RulingError("The play has more cards than a deal can hold (at most 80 entries).", "play");
    var events = [], seen = {};
    play.forEach(function (entry, i) {
      var where = "Card " + (i + 1) + " of the play";
      if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) throw new RulingError(where + " must be [seat, card] or [seat, card, marker].", "play");
      var seat = entry[0];
      if (typeof seat !== "string" || seat.length !== 1 || SEATS.indexOf(seat) < 0) throw new RulingError(where + ": the seat is one of N, E, S, W.", "play");
      var card = parseCard(entry[1], where);
      var marker = entry.length === 3 ? entry[2] : null;
      if (marker !== null && MARKERS.indexOf(marker) < 0) throw new RulingError(where + ": the marker is one of " + MARKERS.join(", ") + ".", "play");
      if (has(seen, card) && seen[card] !== seat) throw new RulingError(where + ": the " + cardName(card) + " was already played by " + NAMES[seen[card]] + ".", "play");
      seen[card] = seat;
      events.push({ seat: seat, card: card, marker: marker });
    });
    var findings = has(p, "findings") ? p.findings : {};
    if (findings === null || typeof findings !== "object" || Array.isArray(findings)) throw new RulingError("Findings are an object of what the Director has established, like {\"choice\": \"accept\"}.", "findings");
    Object.keys(findings).forEach(function (k) {
      var v = findings[k];
      if (!(typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Math.floor(v) === v))) throw new RulingError("Finding '" + k + "' must be a word, a number or true/false.", "findings");
    });
    var req = { edition: edition, level: parseInt(m[1], 10), strain: strain, declarer: p.declarer, trick: trickOf(p), seat: seatOf(p), events: events, findings: findings };
    if (isDefective(findings)) checkDefective(req);
    else if (req.seat) checkSeat(req);
    return req;
  }
  /* a defective trick (67): the seat at fault and the trick, no card entered */
  function checkDefective(req) {
    if (!req.seat) throw new RulingError("A defective trick is ruled for the player at fault: give his seat (N, E, S or W), the player who did not play to the trick or played too many cards, and the trick that was defective (67).", "seat");
    if (req.events.length) throw new RulingError("For a defective trick, enter no cards: give the trick that was defective and the seat at fault; the Director establishes the rest (67).", "play");
    if (req.findings.defective === "omitted" && req.trick === 1 && req.seat === after(req.declarer)) throw new RulingError(NAMES[req.seat] + " made the opening lead (declarer's left-hand opponent), so he played to trick 1: he cannot have omitted to play to it.", "seat");
  }

  /* the trick the first card entered belongs to (play/__init__.py's _trick) */
  function trickOf(p) {
    var trick = has(p, "trick") ? p.trick : 1;
    if (typeof trick !== "number" || !Number.isInteger(trick) || trick < 1 || trick > 13)
      throw new RulingError("The trick is a number from 1 to 13: the trick the first card entered belongs to.", "trick");
    return trick;
  }
  function seatOf(p) {
    if (!has(p, "seat")) return null;
    if (typeof p.seat !== "string" || p.seat.length !== 1 || SEATS.indexOf(p.seat) < 0) throw new RulingError("The seat at fault is one of N, E, S, W.", "seat");
    return p.seat;
  }
  /* with the seat at fault, the play entered is that seat's card alone */
  function checkSeat(req) {
    var seat = req.seat, n = req.trick, name = NAMES[seat];
    var played = req.events.filter(function (e) { return e.marker !== "penalty" && e.marker !== "minor"; });
    if (!played.length) throw new RulingError("With the seat at fault (" + name + "), enter " + name + "'s card: the card of the irregularity.", "seat");
    if (played[0].seat !== seat) throw new RulingError("With the seat at fault (" + name + "), the play entered is " + name + "'s card at trick " + n + "; the first card entered is " + NAMES[played[0].seat] + "'s.", "seat");
    if (played.length > 1) throw new RulingError("With the seat at fault (" + name + "), enter " + name + "'s card alone: the cards before it at trick " + n + " are not entered, so the cards after it cannot be placed. To enter more of the play, enter trick " + n + " from its lead, without the seat.", "seat");
    if (n === 1 && seat === after(req.declarer)) throw new RulingError(name + " makes the opening lead (declarer's left-hand opponent): his card at trick 1 is the lead, entered first, without the seat.", "seat");
  }

  function winner(trick, trumps) {
    var best = trick[0];
    for (var k = 1; k < trick.length; k++) {
      var c = trick[k][1], b = best[1];
      if (c[0] === b[0]) { if (RANKS.indexOf(c[1]) > RANKS.indexOf(b[1])) best = trick[k]; }
      else if (c[0] === trumps) best = trick[k];
    }
    return best[0];
  }

  /* The play entered starts at trick `first`: after trick 1 its leader is not
     known (null) until the first card played, taken as the lead; `joined`:
     the seat at fault, whose card is entered alone (not a lead). */
  function Table(declarer, strain, first, joined) {
    first = first || 1; joined = joined || null;
    this.declarer = declarer; this.dummy = partner(declarer); this.trumps = strain === "NT" ? null : strain;
    this.leader = first === 1 && joined === null ? after(declarer) : null; this.joined = joined; this.first = first;
    this.trick = []; this.number = first; this.winners = [];
    this.showedOut = { N: {}, E: {}, S: {}, W: {} }; this.penalty = { N: [], E: [], S: [], W: [] }; this.minor = {};
    this.log = [];  // [seat, card, trick] of every card played
    this.deemedAfter = false;  // a card played with another was deemed played after it, in turn (58A)
  }
  Table.prototype.defender = function (s) { return s !== this.declarer && s !== this.dummy; };
  Table.prototype.side = function (s) { return s === this.declarer ? "declarer" : s === this.dummy ? "dummy" : "defender"; };
  Table.prototype.expected = function () { return this.trick.length ? after(this.trick[this.trick.length - 1][0]) : (this.joined || this.leader); };
  Table.prototype.leads = function () { return !this.trick.length && !this.joined; };
  Table.prototype.seatsInTrick = function () { return this.trick.map(function (x) { return x[0]; }); };
  Table.prototype.led = function () { return this.trick.length ? this.trick[0][1][0] : null; };
  Table.prototype.play = function (seat, card) {
    if (this.number > 13) throw new RulingError("The play entered from trick " + this.first + " runs past trick 13: a deal has 13 tricks. Check the trick number.", "trick");
    if (this.leader === null && !this.trick.length && !this.joined) this.leader = seat;  // the first card played after trick 1 leads
    if (this.trick.length && card[0] !== this.led() && !has(this.showedOut[seat], this.led())) this.showedOut[seat][this.led()] = this.number;
    var at = this.penalty[seat].indexOf(card);
    if (at >= 0) this.penalty[seat].splice(at, 1);
    this.trick.push([seat, card]);
    this.log.push([seat, card, this.number]);
    if (this.trick.length === 4) {
      this.winners.push(winner(this.trick, this.trumps));
      this.leader = this.winners[this.winners.length - 1];
      this.trick = []; this.number += 1;
    }
  };

  function analyse(req) {
    var t = new Table(req.declarer, req.strain, req.trick, req.seat), events = req.events;
    var base = { edition: req.edition, declarer: t.declarer, dummy: t.dummy, lho: after(t.declarer), rho: after(t.declarer, 3), trumps: t.trumps || "NT",
      at_turn: false, held_next: null };  // 45C1: only a card exposed at its holder's turn (heldAtTurn)
    function facts(kind, i, more, seat, card) {
      var out = {}, k;
      for (k in base) out[k] = base[k];
      out.kind = kind; out.index = i; out.trick = t.number; out.due = t.expected();
      if (i !== null && i + 1 < events.length) { out.next_seat = events[i + 1].seat; out.next_card = events[i + 1].card; }
      seat = seat || (i !== null ? events[i].seat : null);
      card = card || (i !== null ? events[i].card : null);
      if (seat) { out.seat = seat; out.side = t.side(seat); out.partner = partner(seat); out.offender_lho = after(seat); out.offender_rho = after(seat, 3); }
      if (card) { out.card = card; out.suit = card[0]; out.honour = isHonour(card); }
      for (k in (more || {})) out[k] = more[k];
      return out;
    }
    for (var i = 0; i < events.length; i++) {
      var ev = events[i], seat = ev.seat, card = ev.card, marker = ev.marker;
      if (t.leader === null && !t.trick.length && !t.joined && (marker === null || marker === "revoke" || marker === "simultaneous")) t.leader = seat;
      if (marker === "penalty" || marker === "minor") {
        if (!t.defender(seat)) throw new RulingError("Card " + (i + 1) + ": no card of declarer's or dummy's ever becomes a penalty card (48A).", "play");
        if (marker === "minor" && isHonour(card)) throw new RulingError("Card " + (i + 1) + ": a card of honour rank is always a major penalty card (50B).", "play");
        t.penalty[seat].push(card);
        if (marker === "minor") t.minor[card] = true;
        continue;
      }
      if (marker === "exposed") {
        var held = heldAtTurn(t, seat, card);
        return facts("exposed-card", i, { several: t.penalty[seat].length > 0, deliberate: false, at_turn: held.at_turn, held_next: held.held_next });
      }
      if (marker === "changed") return changedDesignation(t, events, i, facts);
      if (marker === "fifth") return fifthCard(t, events, i, facts);
      if (marker === "retract") return retraction(t, events, i, facts);
      if (marker === "simultaneous") {
        if (i === 0) throw new RulingError("Card 1: 'simultaneous' marks a card played at the same moment as the card before it; there is none.", "play");
        var prev = events[i - 1];
        if (prev.seat === seat) return facts("simultaneous-cards", i, { other: prev.card, other_honour: isHonour(prev.card), several: t.penalty[seat].length > 0, late: bothSidesPlayedAfter(t, events, i) });
        if (seat === t.expected()) { t.play(seat, card); t.deemedAfter = true; continue; }
        return irregularPlay(t, events, i, facts, true);
      }
      if (marker === "facedown") {
        if (t.first !== 1) throw new RulingError("Card " + (i + 1) + ": only the opening lead is made face down, and the play entered starts at trick " + t.first + ".", "trick");
        if (t.joined) throw new RulingError("Card " + (i + 1) + ": only the opening lead is made face down, and with the seat at fault the card entered is not a lead.", "seat");
        if (t.number !== 1 || t.trick.length) throw new RulingError("Card " + (i + 1) + ": only the opening lead is made face down.", "play");
        if (seat === t.leader) { t.play(seat, card); continue; }
        if (!t.defender(seat)) return facts("opening-lead-by-declaring-side", i, { face_down: true, correct_leader: t.leader });
        return facts("face-down-opening-lead-out-of-turn", i, { correct_leader: t.leader });
      }
      if (marker === "revoke" && t.leads()) throw new RulingError("Card " + (i + 1) + ": " + NAMES[seat] + "'s " + cardName(card) + " is the lead to trick " + t.number + ", and a lead cannot be a revoke: a revoke is a failure to follow suit to the card led (61A). Enter the lead before it, or give the seat at fault (" + seat + ") with his card alone.", "play");
      if (seat !== t.expected()) return irregularPlay(t, events, i, facts, false);
      if (marker === "revoke" || has(t.showedOut[seat], card[0])) {
        var number;
        if (marker === "revoke") { number = t.number; t.play(seat, card); }
        else number = t.showedOut[seat][card[0]];
        return revoke(t, events, i, number, seat, facts);
      }
      if (t.penalty[seat].length && !(t.joined && !t.trick.length)) {  // (the suit led to a joined trick is not known)
        var failed = failedPenaltyCard(t, seat, card);
        if (failed) {
          return facts("penalty-card-not-played", i, { penalty_card: failed, major: !t.minor[failed] || t.penalty[seat].length > 1,
            declarer_played_after: events.slice(i + 1).some(function (e) { return e.seat === t.declarer || e.seat === t.dummy; }) });
        }
      }
      t.play(seat, card);
    }
    // a defective trick (checkDefective), an incomplete call from dummy (46), penalty cards on the table
    if (t.joined && isDefective(req.findings)) return facts("defective-trick", null, {}, t.joined);
    if (t.joined) throw new RulingError("With the seat at fault (" + NAMES[t.joined] + "), mark " + NAMES[t.joined] + "'s card with what happened (a revoke, an exposed card…): played in turn, it is no irregularity.", "seat");
    if (req.findings.dummy_call) return facts("incomplete-dummy-call", null, { leading: !t.trick.length }, t.dummy);
    for (var s = 0; s < 4; s++) {
      var holder = SEATS[s], cards = t.penalty[holder];
      if (cards.length && t.expected() === null) throw new RulingError("From trick " + t.first + ", enter the cards of trick " + t.first + " from its lead: what a penalty card requires depends on who is to play.", "trick");
      if (cards.length) {
        var suits = {};
        cards.forEach(function (c) { suits[c[0]] = true; });
        return facts("penalty-card-on-table", null, { cards: cards.join(" "), several: cards.length > 1,
          suits: Object.keys(suits).length === 1 ? "one" : "several",
          major: cards.length > 1 || cards.some(function (c) { return !t.minor[c]; }),
          partner_to_lead: !t.trick.length && t.leader === partner(holder), holder_to_play: t.expected() === holder }, holder, cards[0]);
      }
    }
    if (t.expected() === null) throw new RulingError("From trick " + t.first + ", enter the cards of trick " + t.first + " from its lead: who is to play is not known without the tricks before it.", "trick");
    // the next card leads to a trick only after a trick has been won (44G)
    return facts("none", null, { next: t.expected(), leading: !t.trick.length && t.winners.length > 0, simultaneous: t.deemedAfter });
  }

  function irregularPlay(t, events, i, facts, simultaneous) {
    var extra = { simultaneous: simultaneous };
    if (!t.trick.length) return leadOutOfTurn(t, events, i, facts, extra);
    var seat = events[i].seat, mate = partner(seat), inTrick = t.seatsInTrick();
    function withExtra(o) { o.simultaneous = simultaneous; return o; }
    if (!t.defender(seat)) {
      if (inTrick.indexOf(seat) >= 0) throw new RulingError("Card " + (i + 1) + ": " + NAMES[seat] + " has already played to trick " + t.number + "; enter the cards of each trick in the order they were played.", "play");
      var nxt = i + 1 < events.length ? events[i + 1] : null;
      var hands = inTrick.concat([seat]);
      var both = hands.indexOf(t.declarer) >= 0 && hands.indexOf(t.dummy) >= 0;
      var then57c1 = !!(nxt && both && t.defender(nxt.seat) && inTrick.indexOf(partner(nxt.seat)) < 0 && nxt.marker === null);
      return facts("declarer-premature-play", i, withExtra({ hand: t.side(seat), led: t.led(), exempt: then57c1 }));
    }
    var skipped = [], s = t.expected();
    while (s !== seat) { skipped.push(s); s = after(s); }
    var forfeit = nextByLho(events, i);
    if (inTrick.indexOf(seat) >= 0 || skipped.indexOf(mate) >= 0) {
      if (inTrick.indexOf(mate) < 0) return facts("premature-play", i, withExtra({ how: inTrick.indexOf(seat) >= 0 ? "lead" : "play", led: t.led(), forfeit: forfeit, restricted: mate }));
      return facts("exposed-card", i, withExtra({ several: t.penalty[seat].length > 0, deliberate: true }));
    }
    var follows = events[i].card[0] === t.led();
    return facts("play-at-rho-turn", i, withExtra({ legal_card: follows ? true : null, led: t.led() }));
  }

  function leadOutOfTurn(t, events, i, facts, extra) {
    var seat = events[i].seat, nxt = i + 1 < events.length ? events[i + 1] : null, correct = t.leader;
    var opponents = t.defender(seat) !== t.defender(correct), then;
    if (nxt === null) then = "none";
    else if (nxt.marker === "facedown" && nxt.seat === correct && t.number === 1) then = "face-down-lead";
    else if (nxt.marker !== null && nxt.marker !== "revoke") then = "other";
    else if (nxt.seat === after(seat) || (t.number === 1 && !t.winners.length && t.defender(seat) && !t.defender(nxt.seat))) then = "accepted";
    else if (nxt.seat === correct && opponents) then = "proper-lead";
    else if (nxt.seat === after(seat, 3) && !t.defender(seat)) then = "rho-played";
    else then = "other";
    var common = { correct_leader: correct, then: then, trick13: t.number === 13, accepted_hand: then === "accepted" ? t.side(nxt.seat) : null, simultaneous: extra.simultaneous };
    if (t.number === 1) {
      if (!t.defender(seat)) { common.face_down = false; return facts("opening-lead-by-declaring-side", i, common); }
      return facts("opening-lead-out-of-turn", i, common);
    }
    if (t.defender(seat)) { common.correct_side = correct === partner(seat) ? "partner" : "declaring"; return facts("defender-lead-out-of-turn", i, common); }
    common.wrong_hand = !t.defender(correct); common.restricted = after(seat); common.choice57 = null;
    return facts("declarer-lead-out-of-turn", i, common);
  }

  /* 45C4(b): a card named in place of the card this hand played last */
  function changedDesignation(t, events, i, facts) {
    var seat = events[i].seat, at = -1;
    for (var k = t.log.length - 1; k >= 0; k--) if (t.log[k][0] === seat) { at = k; break; }
    if (at < 0) throw new RulingError("Card " + (i + 1) + ": 'changed' marks a card named in place of one this hand played just before; " + NAMES[seat] + " has played no card yet.", "play");
    var since = t.log.slice(at + 1).map(function (x) { return x[0]; });
    return facts("changed-designation", i, { other: t.log[at][1], other_honour: isHonour(t.log[at][1]),
      partner_played: since.indexOf(partner(seat)) >= 0,
      declarer_played: since.some(function (s) { return s === t.declarer || s === t.dummy; }),
      opponent_played: since.some(function (s) { return s !== seat && s !== partner(seat); }) });
  }

  /* 45E: a card added to a completed trick; if deemed led, the facts of the lead come with it */
  function fifthCard(t, events, i, facts) {
    if (t.trick.length || !t.winners.length) throw new RulingError("Card " + (i + 1) + ": 'fifth' marks a card added to a trick that already had four cards; enter it after the fourth card of that trick.", "play");
    var seat = events[i].seat, inTurn = seat === t.leader;
    var lead = inTurn ? {} : leadOutOfTurn(t, events, i, facts, { simultaneous: false }), more = {};
    Object.keys(lead).forEach(function (k) { if (k !== "kind") more[k] = lead[k]; });
    more.led_kind = lead.kind || "none"; more.led_in_turn = inTurn; more.exposed_kind = "exposed-card";
    more.several = t.penalty[seat].length > 0; more.deliberate = false;
    return facts("fifth-card", i, more);
  }

  /* 47E2: a player asks to take back a card he played */
  function retraction(t, events, i, facts) {
    var seat = events[i].seat, card = events[i].card, at = -1;
    for (var k = 0; k < t.log.length; k++) if (t.log[k][0] === seat && t.log[k][1] === card) { at = k; break; }
    if (at < 0) throw new RulingError("Card " + (i + 1) + ": 'retract' marks a card its player asks to take back; " + NAMES[seat] + " has not played the " + cardName(card) + ".", "play");
    var number = t.log[at][2], later = t.log.slice(at + 1);
    return facts("retracted-card", i, { trick: number, later_card: later.length > 0,
      later_to_trick: later.some(function (x) { return x[2] === number; }), opening_lead: at === 0 && t.first === 1 && !t.joined });
  }

  function nextByLho(events, i) {
    var nxt = i + 1 < events.length ? events[i + 1] : null;
    return !!(nxt && nxt.marker === null && nxt.seat === after(events[i].seat));
  }

  function bothSidesPlayedAfter(t, events, i) {
    var later = events.slice(i + 1).filter(function (e) { return e.marker === null; }).map(function (e) { return e.seat; });
    var toFinish = 4 - t.trick.length - 1;
    var next = later.slice(Math.max(toFinish, 0));
    return next.some(function (s) { return !t.defender(s); }) && next.some(function (s) { return t.defender(s); });
  }

  function failedPenaltyCard(t, seat, card) {
    var cards = t.penalty[seat];
    if (cards.indexOf(card) >= 0) return null;
    var major = cards.filter(function (c) { return !t.minor[c] || cards.length > 1; });
    var led = t.led();
    if (major.length) {
      if (led === null) return major[0];
      var ofLed = major.filter(function (c) { return c[0] === led; });
      if (ofLed.length) return ofLed[0];
      return card[0] !== led ? major[0] : null;
    }
    var minor = cards[0];
    if (card[0] === minor[0] && !isHonour(card)) return minor;
    return null;
  }

  function revoke(t, events, i, number, seat, facts) {
    var replay = new Table(t.declarer, t.trumps || "NT", t.first, t.joined), mate = partner(seat), established = null, where = i;
    events.forEach(function (ev, k) {
      if (!(ev.marker === null || ev.marker === "revoke" || ev.marker === "facedown")) return;
      if (replay.number > number && (ev.seat === seat || ev.seat === mate)) established = true;
      if (replay.number === number && ev.seat === seat) where = k;
      replay.play(ev.seat, ev.card);
    });
    var won = replay.winners, wonBy = null, laterWon = null, at = number - t.first;  // won[k]: the winner of trick first + k
    if (won.length > at) { var w = won[at]; wonBy = w === seat ? "offender" : w === mate ? "partner" : "opponents"; }
    if (won.slice(at + 1).some(function (x) { return x === seat || x === mate; })) laterWon = "yes";
    else if (t.first + won.length - 1 === 13) laterWon = "no";
    var out = facts("revoke", where, { established: established, won_by: wonBy, later_won: laterWon, trick12: number === 12, revoke_trick: number }, seat, events[where].card);
    out.trick = number;
    return out;
  }

  /* --- the ruling --------------------------------------------------------- */

  function word(v) {
    if (v === null || v === undefined) return null;
    if (v === true) return "yes";
    if (v === false) return "no";
    return String(v);
  }

  function allNodes(data, fn) {
    function visit(node) {
      fn(node);
      Object.keys(node.cases || {}).forEach(function (k) { visit(node.cases[k]); });
    }
    Object.keys(data.kinds).forEach(function (k) { visit(data.kinds[k].tree); });
    Object.keys(data.subtrees || {}).forEach(function (k) { visit(data.subtrees[k]); });
  }

  function answerable(data) {
    var out = {};
    allNodes(data, function (node) {
      if ("on" in node && ("ask" in node || "option" in node)) {
        out[node.on] = out[node.on] || {};
        Object.keys(node.cases || {}).forEach(function (k) { out[node.on][k] = true; });
      }
    });
    return out;
  }

  function readFindings(all, data, findings) {
    var allowed = answerable(data);
    allowed.defective = { "omitted": true, "too-many": true };
    allowed.dummy_act = { "warned": true, "asked-revoke": true, "drew-attention": true };
    var known = {};
    Object.keys(allowed).forEach(function (k) { known[k] = true; });
    Object.keys(all).forEach(function (e) { Object.keys(answerable(all[e])).forEach(function (k) { known[k] = true; }); });
    var out = {};
    Object.keys(findings).forEach(function (name) {
      if (known[name] && !allowed[name]) return;
      if (!allowed[name]) throw new RulingError("There is no finding '" + name + "' for the play; the findings are " + Object.keys(allowed).sort().join(", ") + ".", "findings." + name);
      var w = word(findings[name]);
      if (!allowed[name][w]) throw new RulingError("The finding '" + name + "' is one of " + Object.keys(allowed[name]).sort().join(", ") + ", not " + JSON.stringify(findings[name]) + ".", "findings." + name);
      out[name] = w;
    });
    return out;
  }

  /* a defender's card exposed at his turn, before he has played to the trick,
     may be one held so that his partner could see it: played (45C1) */
  function heldAtTurn(t, seat, card) {
    var atTurn = t.defender(seat) && t.expected() === seat && t.seatsInTrick().indexOf(seat) < 0;
    if (!atTurn) return { at_turn: false, held_next: null };
    if (t.joined && !t.trick.length) return { at_turn: true, held_next: null };  // how many cards came before it is not known
    var trick = t.trick.concat([[seat, card]]);
    return { at_turn: true, held_next: trick.length === 4 ? winner(trick, t.trumps) : after(seat) };
  }

  function seatsOf(f) {
    var seat = f.seat || null, nxt = f.next_seat || null;
    return { offender: seat, partner: f.partner || null, declarer: f.declarer, dummy: f.dummy, lho: f.lho, rho: f.rho,
      correct: f.correct_leader || null, offender_lho: f.offender_lho || null, offender_rho: f.offender_rho || null,
      due: f.due || null, after_offender: seat ? after(seat) : null, after_next: nxt ? after(nxt) : null,
      after_correct: f.correct_leader ? after(f.correct_leader) : null, after_rho_card: f.offender_lho || null,
      restricted: f.restricted || null, held_next: f.held_next || null, none: null };
  }

  function valuesOf(f, seats) {
    var out = {};
    Object.keys(seats).forEach(function (k) { if (seats[k] && NAMES[seats[k]]) out[k] = NAMES[seats[k]]; });
    if (!out.offender) out.offender = "the offender";
    ["card", "penalty_card", "next_card", "other"].forEach(function (k) { if (f[k]) { out[k] = cardName(f[k]); out[k + "_id"] = f[k]; } });
    ["suit", "led"].forEach(function (k) { if (f[k] && SUIT_NAMES[f[k]]) { out[k] = SUIT_NAMES[f[k]]; out[k + "_one"] = SUIT_NAMES[f[k]].slice(0, -1); } });
    if (f.next_seat) out.next_seat = NAMES[f.next_seat];
    out.trick = String(f.trick);
    out.how = f.how === "lead" ? "led" : "played";
    if (f.cards) out.cards = f.cards.split(" ").map(cardName).join(", ");
    return out;
  }

  /* The ruling for a request, from `all`: {edition: data}, as served at
     /rulings/play.json (`editions`), and `order` its editions as the site
     lists them: with no edition named, the first (the code in force). */
  function rule(all, payload, order) {
    var editions = root.LawbookRulings.editionOrder(all, order);
    if (payload !== null && typeof payload === "object" && !Array.isArray(payload) && !has(payload, "edition") && editions.length) {
      payload = Object.assign({}, payload, { edition: editions[0] });
    }
    var req = parseRequest(payload);
    if (!has(all, req.edition)) throw new RulingError("Edition '" + req.edition + "' has no play rulings; choose " + editions.join(" or ") + ".", "edition");
    var data = all[req.edition];
    var findings = readFindings(all, data, req.findings);
    req.findings = findings;
    var f = analyse(req), kind = f.kind;
    if (findings.dummy_act) { f.underlying = kind; f.kind = kind = "dummy-after-violation"; }
    var seats = seatsOf(f), values = valuesOf(f, seats), words = {};
    Object.keys(f).forEach(function (k) { words[k] = word(f[k]); });
    Object.keys(findings).forEach(function (k) { if (words[k] === null || words[k] === undefined) words[k] = findings[k]; });
    var walked;
    try { walked = root.LawbookRulings.walk(data, kind, words, values, seats); }
    catch (e) {
      if (!e.answer) throw e;  // e.g. choice=accept given where declarer's choice is highest/lowest (57A)
      throw new RulingError("The finding '" + e.answer.name + "' does not answer this question: here it is one of " + e.answer.allowed.slice().sort().join(", ") + ", not " + JSON.stringify(e.answer.value) + ".", "findings." + e.answer.name);
    }
    var irregularity = kind === "none" ? null : { index: f.index === undefined ? null : f.index, seat: f.seat || null, kind: kind,
      law: data.kinds[kind].law, trick: f.trick === undefined ? null : f.trick, card: f.card || null };
    if (f.simultaneous) {
      var deemed = data.simultaneous;
      walked.say = deemed.say + " " + walked.say;
      walked.cites = deemed.cites.concat(walked.cites.filter(function (c) { return deemed.cites.indexOf(c) < 0; }));
    }
    var out = { edition: req.edition, irregularity: irregularity };
    Object.keys(walked).forEach(function (k) { out[k] = walked[k]; });
    return root.LawbookRulings.reviewOf(data, out);
  }

  root.LawbookRulings = root.LawbookRulings || {};
  root.LawbookRulings.play = { rule: rule, parseCard: parseCard, cardName: cardName, winner: winner, RulingError: RulingError, NAMES: NAMES, SUIT_NAMES: SUIT_NAMES };
})(typeof self !== "undefined" ? self : this);
