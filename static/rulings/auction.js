/* Rulings on irregularities of the auction: laws/rulings/auction/__init__.py
   in JavaScript (the facts from the calls, then the walker), for the phone
   offline.  The fixture cases run on both and must agree: change them together. */
(function (root) {
  "use strict";
  var SEATS = "NESW";
  var NAMES = { N: "North", E: "East", S: "South", W: "West" };
  var STRAINS = ["C", "D", "H", "S", "NT"];
  var HONOURS = ["A", "K", "Q", "J", "T", "10"];
  var BOOLEAN_FINDINGS = ["accepted", "comparable", "natural", "same_denominations", "artificial",
    "repeats_denomination", "intended", "without_pause", "suit_specific", "suits_shown", "after_opening_lead",
    "could_be_seen", "replacement_accepted", "simultaneous"];

  function RulingError(message, field) { this.message = message; this.field = field; }

  function rel(seat, n) { return SEATS[(SEATS.indexOf(seat) + n) % 4]; }
  function side(seat) { return seat === "N" || seat === "S" ? "North-South" : "East-West"; }
  function ns(seat) { return seat === "N" || seat === "S"; }

  function parseCall(text, field, where) {
    if (typeof text !== "string") throw new RulingError(where + " must be a call written as text (P, X, XX, 1C … 7NT).", field);
    var raw = text.toUpperCase().replace(/\s+/g, "");
    if (raw === "P" || raw === "PASS") return { t: "P" };
    if (raw === "X" || raw === "D" || raw === "DBL") return { t: "X" };
    if (raw === "XX" || raw === "R" || raw === "RDBL") return { t: "XX" };
    var m = /^([1-9][0-9]?)(C|D|H|S|NT|N)$/.exec(raw);
    if (m) return { t: "B", level: parseInt(m[1], 10), strain: m[2] === "N" || m[2] === "NT" ? "NT" : m[2] };
    throw new RulingError(where + " is not a call: write P (pass), X (double), XX (redouble) or a bid such as 1C, 3NT, 7S.", field);
  }
  function callStr(c) { return c.t === "B" ? c.level + c.strain : c.t; }
  function rankAbove(a, b) { return a.level > b.level || (a.level === b.level && STRAINS.indexOf(a.strain) > STRAINS.indexOf(b.strain)); }

  function Auction(dealer) {
    this.dealer = dealer; this.calls = []; this.lastBid = null; this.lastBidder = null;
    this.risk = ""; this.doubler = null; this.passes = 0; this.firstNamer = {};
  }
  Auction.prototype.complete = function () {
    return (this.lastBid === null && this.passes === 4) || (this.lastBid !== null && this.passes === 3);
  };
  Auction.prototype.turn = function () {
    if (this.complete()) return null;
    return this.calls.length ? rel(this.calls[this.calls.length - 1][0], 1) : this.dealer;
  };
  Auction.prototype.sufficient = function (c) { return this.lastBid === null || rankAbove(c, this.lastBid); };
  Auction.prototype.inadmissible = function (seat, c) {
    if (c.t === "X") return this.lastBid === null || this.risk !== "" || this.lastBidder === seat || this.lastBidder === rel(seat, 2);
    if (c.t === "XX") return this.risk !== "X" || this.doubler === seat || this.doubler === rel(seat, 2);
    return false;
  };
  Auction.prototype.add = function (seat, c) {
    this.calls.push([seat, c]);
    if (c.t === "P") this.passes += 1;
    else if (c.t === "B") {
      this.lastBid = c; this.lastBidder = seat; this.risk = ""; this.doubler = null; this.passes = 0;
      var key = (ns(seat) ? "1" : "0") + c.strain;
      if (!(key in this.firstNamer)) this.firstNamer[key] = seat;
    } else if (c.t === "X") { this.risk = "X"; this.doubler = seat; this.passes = 0; }
    else { this.risk = "XX"; this.passes = 0; }
  };
  Auction.prototype.declarer = function () {
    if (this.lastBid === null) return null;
    return this.firstNamer[(ns(this.lastBidder) ? "1" : "0") + this.lastBid.strain];
  };
  Auction.prototype.copy = function () {
    var o = new Auction(this.dealer);
    this.calls.forEach(function (sc) { o.add(sc[0], sc[1]); });
    return o;
  };

  function seatOf(v, field, where) {
    if (typeof v !== "string" || SEATS.indexOf(v.toUpperCase()) < 0 || v.length !== 1) throw new RulingError(where + " must be a seat: N, E, S or W.", field);
    return v.toUpperCase();
  }

  /* The request, checked; for the page's own requests (the server checks the API's). */
  function parse(payload, editions) {
    var edition = payload.edition || editions[0];
    if (editions.indexOf(edition) < 0) throw new RulingError("The edition must be one of " + editions.join(", ") + ".", "edition");
    var dealer = seatOf(payload.dealer, "dealer", "The dealer");
    var calls = (payload.calls || []).map(function (item, i) {
      return [seatOf(item[0], "calls", "Call " + (i + 1) + "'s seat"), parseCall(item[1], "calls", "Call " + (i + 1))];
    });
    var f = payload.findings || {}, clean = {};
    BOOLEAN_FINDINGS.forEach(function (n) {
      clean[n] = f[n] === undefined || f[n] === null ? null : (f[n] === true ? "yes" : f[n] === false ? "no" : (function () {
        throw new RulingError("The finding '" + n + "' must be true or false.", "findings." + n); })());
    });
    ["replacement", "rho_call"].forEach(function (n) {
      if (f[n] !== undefined && f[n] !== null) clean[n] = parseCall(f[n], "findings." + n, "The finding '" + n + "'");
    });
    clean.required_to_pass = (f.required_to_pass || []).map(function (s) { return seatOf(s, "findings.required_to_pass", "A player required to pass"); });
    if (f.card) {
      var cards = f.card.cards.map(function (c) {
        var m = /^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$/.exec(String(c).toUpperCase().trim());
        if (!m) throw new RulingError(c + " is not a card.", "findings.card");
        return [m[1] || m[4], m[2] || m[3]];
      });
      clean.card = { seat: seatOf(f.card.seat, "findings.card", "The seat of the exposed card"), cards: cards, led: !!f.card.led };
    }
    if (f.change) {
      var index = f.change.index === undefined || f.change.index === null ? calls.length - 1 : f.change.index;
      if (!(index >= 0 && index < calls.length)) throw new RulingError("change.index must be the number of a call made.", "findings.change");
      clean.change = { index: index, call: parseCall(f.change.call, "findings.change", "The changed call") };
    }
    return { edition: edition, dealer: dealer, calls: calls, findings: clean };
  }

  function scan(dealer, calls, required) {
    var st = new Auction(dealer);
    for (var i = 0; i < calls.length; i++) {
      var seat = calls[i][0], c = calls[i][1];
      if (st.complete()) return [i, "call-after-final-pass", st, null];
      var turn = st.turn();
      if (seat !== turn && required.indexOf(turn) >= 0 && seat === rel(turn, 1)) { st.add(turn, { t: "P" }); turn = seat; }
      if (c.t === "B" && c.level > 7) return [i, "bid-above-seven", st, turn];
      if (st.inadmissible(seat, c)) return [i, c.t === "X" ? "inadmissible-double" : "inadmissible-redouble", st, turn];
      if (seat !== turn) return [i, { P: "pass", B: "bid", X: "double", XX: "redouble" }[c.t] + "-out-of-rotation", st, turn];
      if (required.indexOf(seat) >= 0 && c.t !== "P") return [i, "call-when-required-to-pass", st, turn];
      if (c.t === "B" && !st.sufficient(c)) return [i, "insufficient-bid", st, turn];
      st.add(seat, c);
    }
    return [null, null, st, null];
  }

  function retainsRight(st, calls, i) {
    var after = calls.slice(i);
    if (!after.every(function (sc) { return sc[1].t === "P"; }) || after.length > 3) return false;
    var trailing = 0;
    for (var k = st.calls.length - 1; k >= 0; k--) { if (st.calls[k][1].t !== "P") break; trailing++; }
    return trailing + after.length >= 3 && st.calls.length + after.length >= 4 && trailing < 3;
  }

  function replacementKind(st, ib, r) {
    if (r.t === "P") return "pass";
    if (r.t === "X" || r.t === "XX") return "double";
    if (!st.sufficient(r)) return "insufficient";
    var lowest = 1;
    while (!st.sufficient({ t: "B", level: lowest, strain: ib.strain })) lowest++;
    return r.strain === ib.strain && r.level === lowest ? "lowest-same" : "sufficient";
  }

  function baseFacts(f) {
    var facts = {};
    BOOLEAN_FINDINGS.forEach(function (n) { if (f[n] !== null && f[n] !== undefined) facts[n] = f[n]; });
    return facts;
  }

  function analyse(parsed) {
    var dealer = parsed.dealer, calls = parsed.calls, f = parsed.findings;
    var sc = scan(dealer, calls, f.required_to_pass), index = sc[0], kind = sc[1], st = sc[2], turn = sc[3];
    var facts = baseFacts(f);
    var lastAfter = calls.length ? rel(calls[calls.length - 1][0], 1) : dealer;
    if (f.change && (index === null || f.change.index < index)) return changeOfCall(parsed, f.change, facts);
    if (index === null) {
      if (f.card) return cardExposed(parsed, st, f.card, facts);
      return { irregularity: null, kind: "legal", facts: facts, values: {}, seats: { after_calls: st.complete() ? null : st.turn(), none: null } };
    }
    var seat = calls[index][0], c = calls[index][1];
    var values = { offender: NAMES[seat], partner: NAMES[rel(seat, 2)], lho: NAMES[rel(seat, 1)], rho: NAMES[rel(seat, 3)],
      call: callStr(c), side: side(seat), other_side: side(rel(seat, 1)), turn: turn ? NAMES[turn] : null };
    var seats = { offender: seat, partner: rel(seat, 2), lho: rel(seat, 1), rho: rel(seat, 3), turn: turn, after_calls: lastAfter, none: null };
    var nxt = index + 1 < calls.length ? calls[index + 1][0] : null;
    facts.lho_called = nxt === rel(seat, 1) ? "yes" : "no";
    facts.call_type = { P: "pass", B: "bid", X: "double", XX: "redouble" }[c.t];
    if (turn !== null) facts.at = ["turn", "rho", "partner", "lho"][(SEATS.indexOf(seat) - SEATS.indexOf(turn) + 4) % 4];
    facts.previously_called = st.calls.some(function (x) { return x[0] === seat; }) ? "yes" : "no";
    facts.any_bid = st.lastBid !== null ? "yes" : "no";

    if (/-out-of-rotation$/.test(kind) && f.simultaneous === "yes" && nxt === turn) {
      var swapped = calls.slice(0, index).concat([calls[index + 1], calls[index]], calls.slice(index + 2));
      var f2 = {}; Object.keys(f).forEach(function (k) { f2[k] = f[k]; }); f2.simultaneous = null;
      var sub = analyse({ dealer: dealer, calls: swapped, findings: f2 });
      var deemed = sub.irregularity && sub.irregularity.index === index + 1 ? sub.kind : "legal";
      var subFacts = {}; Object.keys(sub.facts).forEach(function (k) { subFacts[k] = sub.facts[k]; });
      subFacts.deemed_kind = deemed; subFacts.deemed = deemed === "legal" ? "in-rotation" : "irregular";
      var out = { irregularity: { index: index, seat: seat, kind: "simultaneous-call" }, kind: "simultaneous-call",
        facts: subFacts, values: sub.values, seats: sub.seats };
      if (deemed === "legal") {
        out.values = values;
        var s2 = {}; Object.keys(seats).forEach(function (k) { s2[k] = seats[k]; });
        s2.after_calls = sub.seats.after_calls === undefined ? null : sub.seats.after_calls;
        out.seats = s2;
      }
      return out;
    }

    if (kind === "pass-out-of-rotation" && retainsRight(st, calls, index)) {
      kind = "retention-of-right-to-call"; seats.missed = turn; values.missed = NAMES[turn];
    }
    if (["insufficient-bid", "pass-out-of-rotation", "bid-out-of-rotation", "double-out-of-rotation", "redouble-out-of-rotation"].indexOf(kind) >= 0) {
      var correctCalled = nxt !== null && nxt === turn && turn === rel(seat, 3);
      if (facts.lho_called === "yes") {
        if (f.accepted === "no") throw new RulingError(NAMES[nxt] + " called over " + NAMES[seat] + "'s " + callStr(c) + ", and that call accepts it (27A1, 29A): the finding accepted cannot be false.", "findings.accepted");
        facts.accepted = "yes";
      } else if (correctCalled && kind !== "insufficient-bid") facts.accepted = "28B";
      if (kind === "bid-out-of-rotation") facts.insufficient = st.sufficient(c) ? "no" : "yes";
    }
    var r;
    if (kind === "insufficient-bid") {
      r = f.replacement || null;
      if (nxt === seat) { r = calls[index + 1][1]; facts.premature = "yes"; } else facts.premature = "no";
      if (r) { facts.replacement_kind = replacementKind(st, c, r); values.replacement = callStr(r); }
    } else if (/-out-of-rotation$/.test(kind) || kind.indexOf("inadmissible") === 0) {
      r = f.replacement || null;
      if (r) {
        values.replacement = callStr(r);
        if (c.t === "B" && !("repeats_denomination" in facts) && f.artificial === "no")
          facts.repeats_denomination = r.t === "B" && r.strain === c.strain ? "yes" : "no";
      }
      var rc = f.rho_call || null;
      seats.resume = rc && facts.at === "rho" ? seat : turn;
      if (rc) { facts.rho_action = rc.t === "P" ? "pass" : "call"; values.rho_call = callStr(rc); }
      if (facts.at === "lho" && facts.previously_called === "yes") {
        var mine = st.calls.filter(function (x) { return x[0] === seat; });
        values.original = callStr(mine[mine.length - 1][1]);
        facts.partner_called = "no";
      }
    }
    if (kind === "bid-above-seven") {
      var after = st.copy(); after.add(seat, { t: "P" });
      seats.after_pass = after.complete() ? null : rel(seat, 1);
    }
    if (kind === "call-after-final-pass") {
      var declarer = st.declarer();
      facts.role = declarer === null ? "none" : (declarer === seat || declarer === rel(seat, 2)) ? "declaring-side" : "defender";
      seats.after_calls = null;
    }
    if (kind.indexOf("inadmissible") === 0) {
      var tail = calls.slice(index + 1);
      facts.complete_after = tail.length >= 3 && tail.slice(-3).every(function (x) { return x[1].t === "P"; }) ? "yes" : "no";
    }
    return { irregularity: { index: index, seat: seat, kind: kind }, kind: kind, facts: facts, values: values, seats: seats };
  }

  function changeOfCall(parsed, change, facts) {
    var calls = parsed.calls, i = change.index, seat = calls[i][0], c = calls[i][1];
    var later = calls.slice(i + 1).map(function (x) { return x[0]; });
    facts.partner_called = later.indexOf(rel(seat, 2)) >= 0 ? "yes" : "no";
    var values = { offender: NAMES[seat], partner: NAMES[rel(seat, 2)], lho: NAMES[rel(seat, 1)], rho: NAMES[rel(seat, 3)],
      call: callStr(change.call), original: callStr(c), side: side(seat), other_side: side(rel(seat, 1)), turn: null };
    var seats = { offender: seat, partner: rel(seat, 2), lho: rel(seat, 1), rho: rel(seat, 3),
      after_calls: rel(calls[calls.length - 1][0], 1), none: null };
    return { irregularity: { index: i, seat: seat, kind: "change-of-call" }, kind: "change-of-call", facts: facts, values: values, seats: seats };
  }

  function cardExposed(parsed, st, card, facts) {
    var seat = card.seat, cards = card.cards;
    if (card.led) facts.card_class = "honour-or-led";
    else if (cards.length > 1) facts.card_class = "several";
    else facts.card_class = HONOURS.indexOf(cards[0][1]) >= 0 ? "honour-or-led" : "low";
    var values = { offender: NAMES[seat], partner: NAMES[rel(seat, 2)], lho: NAMES[rel(seat, 1)], rho: NAMES[rel(seat, 3)],
      call: null, cards: cards.map(function (x) { return x[0] + x[1]; }).join(", "), side: side(seat), other_side: side(rel(seat, 1)), turn: null };
    var seats = { offender: seat, partner: rel(seat, 2), lho: rel(seat, 1), rho: rel(seat, 3),
      after_calls: st.complete() ? null : st.turn(), none: null };
    return { irregularity: { index: parsed.calls.length, seat: seat, kind: "card-exposed" }, kind: "card-exposed", facts: facts, values: values, seats: seats };
  }

  /* The ruling: the same reply as POST /api/rulings/auction.  `all` is the
     rulings data, {edition: data}, as served at /rulings/auction.json, and
     `order` its editions as the site lists them (the first is the default). */
  function rule(all, payload, order) {
    var editions = root.LawbookRulings.editionOrder(all, order);
    var parsed = parse(payload, editions);
    var data = all[parsed.edition];
    var a = analyse(parsed);
    var walked = root.LawbookRulings.walk(data, a.kind, a.facts, a.values, a.seats);
    var irr = null;
    if (a.irregularity) irr = { index: a.irregularity.index, seat: a.irregularity.seat, kind: a.irregularity.kind, law: data.kinds[a.kind].law };
    return root.LawbookRulings.reviewOf(data, { edition: parsed.edition, irregularity: irr, questions: walked.questions, options: walked.options,
      outcome: walked.outcome, say: walked.say, cites: walked.cites, path: walked.path });
  }

  root.LawbookRulings = root.LawbookRulings || {};
  root.LawbookRulings.auction = { rule: rule, parseCall: parseCall, callStr: callStr, RulingError: RulingError, NAMES: NAMES };
})(typeof self !== "undefined" ? self : this);
