/* The ruling record in the browser: laws/rulings/record.py's record, made
   from a record's address with no network — the same data, field for field
   (the browser tests compare them), from the same rulings data and the
   record's words (laws/rulings/record.json, in /rulings/guided.json).
   - LawbookRecord.guided(bundle, args): a guided ruling's record
     (bundle: /rulings/guided.json).
   - LawbookRecord.mechanical(words, period, bundle, args): an auction or play
     ruling's record (bundle: /rulings/auction.json or /rulings/play.json),
     over LawbookRulings.auction / .play.
   - LawbookRecord.text(words, record): the record as plain text.
   - LawbookRecord.withContext(words, record, ctx): the record with its own
     fields (context(words, values) of the fragment's) and what follows from
     them (record.py's with_context).
   Privacy: the address's query holds ONLY the procedure, the edition, the
   answers (or the auction's or play's own facts) and `calc`; every field the
   Director writes (date, event, board, table result, facts, appeal period,
   typed adjustment: words.context; names and hands: words.private) lives in
   the fragment (#…), which the browser never sends, and in records saved on
   this phone.  The server ignores them and prints blank lines; this script
   fills them in, and moves an old address's (in its query) into the fragment.
   The adjusted score carried from the score checkers (`calc`) is computed by
   the checkers on the server: a record made here lists what it carries in
   `uncomputed` instead.
   Also: "Make the ruling record" on the auction and play pages takes the
   ruling in the address when tapped. */
(function (root) {
  "use strict";
  var SEATS = ["N", "E", "S", "W"];

  function RecordError(message, field) { this.message = message; this.field = field; }
  RecordError.prototype = Object.create(Error.prototype);
  RecordError.prototype.name = "RecordError";

  function once(ids) {
    var out = [];
    ids.forEach(function (c) { if (out.indexOf(c) < 0) out.push(c); });
    return out;
  }

  /* record.py's _SHAPES: the fields that are not free text */
  var SHAPES = { date: [/^\d{4}-\d{2}-\d{2}$/, "a date like 2025-03-14"], time: [/^([01]\d|2[0-3]):[0-5]\d$/, "a time like 19:45"],
    result_contract: [/^[1-7](C|D|H|S|NT)(X|XX)?$/i, "a contract like 4S, 3NT or 2HX"], result_declarer: [/^[NESW]$/i, "N, E, S or W"],
    result_tricks: [/^(1[0-3]|\d)$/, "a number of tricks from 0 to 13"], appeal_minutes: [/^[1-9]\d{0,3}$/, "a number of minutes"] };

  function pyRepr(v) { return v.indexOf("'") >= 0 && v.indexOf('"') < 0 ? '"' + v + '"' : "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'"; }

  function context(words, args) {
    var out = {};
    words.context.forEach(function (f) {
      var v = args[f[0]];
      if (v === undefined || v === null || v === "") return;
      v = String(v).trim();
      if (v.length > f[2]) throw new RecordError(f[1] + " is too long (at most " + f[2] + " characters).", f[0]);
      if (v && SHAPES[f[0]] && !SHAPES[f[0]][0].test(v))
        throw new RecordError(f[1] + ": give " + SHAPES[f[0]][1] + ", not " + pyRepr(v.slice(0, 20)) + ".", f[0]);
      if (v) out[f[0]] = f[0] === "result_contract" || f[0] === "result_declarer" ? v.toUpperCase() : v;
    });
    return out;
  }

  /* --- readable words for every code (record.py's call_words, card_words…) -------------- */
  var CALL_RE = /^([1-7])(C|D|H|S|NT?)(X{0,2})$/i, CARD_RE = /^([SHDC])(10|[2-9TJQKA])$/i;
  function callWords(words, call) {
    var c = call.trim().toUpperCase();
    if (words.calls[c]) return words.calls[c];
    var m = CALL_RE.exec(c);
    if (!m) return call.trim();
    var strain = m[2] === "N" || m[2] === "NT" ? "NT" : m[2];
    return m[1] + words.suits[strain] + { "": "", X: " doubled", XX: " redoubled" }[m[3]];
  }
  function cardWords(words, card) {
    var m = CARD_RE.exec(card.trim());
    if (!m) return card.trim();
    return words.suits[m[1].toUpperCase()] + (m[2].toUpperCase() === "T" || m[2] === "10" ? "10" : m[2].toUpperCase());
  }
  function seatWords(words, seat) { var s = seat.trim().toUpperCase(); return words.seats[s] || seat.trim(); }
  function valueWords(words, value) {
    var v = String(value).trim();
    if (Object.prototype.hasOwnProperty.call(words.values, v.toLowerCase())) return words.values[v.toLowerCase()];
    if (CALL_RE.test(v) || words.calls[v.toUpperCase()]) return callWords(words, v);
    if (CARD_RE.test(v)) return cardWords(words, v);
    return v.replace(/-/g, " ").replace(/_/g, " ");
  }
  function callsWords(words, text, dealer) {
    var out = [], seat = null;
    text.trim().split(/[\s,;]+/).filter(Boolean).forEach(function (token) {
      var call;
      if (token.indexOf(":") >= 0) { seat = token.slice(0, token.indexOf(":")).trim().toUpperCase(); call = token.slice(token.indexOf(":") + 1); }
      else {
        call = token;
        seat = seat === null ? (SEATS.indexOf(dealer) >= 0 ? dealer : "N") : SEATS.indexOf(seat) >= 0 ? SEATS[(SEATS.indexOf(seat) + 1) % 4] : seat;
      }
      out.push(seatWords(words, seat) + " " + callWords(words, call));
    });
    return out.join(", ");
  }
  function playWords(words, text, irr) {
    return text.trim().split(/[\s,;+]+/).filter(Boolean).map(function (token, i) {
      var parts = token.split(":"), seat = seatWords(words, parts[0]), card = cardWords(words, parts[1] || ""),
        how = parts.slice(2).join(":"), said;
      if (irr && irr.index === i) {
        var key = Object.keys(words.irregular).filter(function (k) { return k !== "other" && irr.kind.indexOf(k) >= 0; })[0] || "other";
        said = how && key === "other" ? seat + " played the " + card
          : words.irregular[key].replace("{seat}", seat).replace("{card}", card).replace("{kind}", irr.kind.replace(/-/g, " "));
      } else said = seat + " " + card;
      return said + (how ? " (" + valueWords(words, how) + ")" : "");
    }).join("; ");
  }
  function enteredValue(words, key, value, args, irr) {
    if (key === "calls") return callsWords(words, value, (args.dealer || "N").trim().toUpperCase());
    if (key === "play") return playWords(words, value, irr);
    if (key === "card") {
      var i = value.indexOf(":"), seat = i >= 0 ? value.slice(0, i) : value, cards = i >= 0 ? value.slice(i + 1) : "";
      return seatWords(words, seat) + ": " + cards.split(/[\s,]+/).filter(Boolean).map(function (c) { return cardWords(words, c); }).join(", ");
    }
    if (key === "dealer" || key === "declarer" || key === "seat") return seatWords(words, value);
    if (key === "required_to_pass") return value.split(/[\s,]+/).filter(Boolean).map(function (s) { return seatWords(words, s); }).join(", ");
    if (key === "contract") return callWords(words, value);
    return valueWords(words, value);
  }

  /* --- the parts an appeals committee needs (record.py's finish) ------------------------ */
  /* the record's own code's board checker (guided.py board_info): carried into it, its note too */
  function boardInfo(words, ctx, edition) {
    var b = ctx.board || "", boards = words.board;
    var table = boards ? boards.editions[edition] || boards.editions[boards["default"]] : null;
    if (!/^[0-9]+$/.test(b) || !(parseInt(b, 10) > 0 && parseInt(b, 10) < 10000) || !table) return null;
    var row = table.cycle[(parseInt(b, 10) - 1) % table.cycle.length];
    return assign({ dealer: row[0], vulnerable: row[1], cites: table.cites.slice(),
      line: "Dealer " + words.seats[row[0]] + "; " + words.vulnerable[row[1]] + " (board checker, " + table.law + ")" },
      table.carried || {});
  }
  function tableResult(words, ctx) {
    var c = ctx.result_contract, d = ctx.result_declarer, t = ctx.result_tricks;
    if (!(c || d || t)) return null;
    return [(c ? callWords(words, c) : "Contract not given") + (d ? " by " + words.seats[d] : ""),
      t ? t + " trick" + (t !== "1" ? "s" : "") : ""].filter(Boolean).join(", ");
  }
  /* cites: the appeal's cites carried into a code ruled by carried trees (record.py's appeal) */
  function appeal(words, ctx, edition, cites) {
    var a = words.appeal, minutes = ctx.appeal_minutes || a.minutes, source = ctx.appeal_source;
    if ((a.codes_without || []).indexOf(edition) >= 0) return { text: a.without, cites: [] };
    return { text: (source ? a.set : a["default"]).replace("{minutes}", minutes).replace("{source}", source || ""),
             cites: (cites || a.cites).slice() };
  }
  /* record.py's carried_appeal */
  function carriedAppeal(data) { return data && data.carried ? data.carried.appeal || null : null; }
  function finish(words, rec, ctx, appealCites) {
    if (appealCites == null && rec.appeal && rec.appeal.cites) appealCites = rec.appeal.cites;
    return assign(rec, { board_info: boardInfo(words, ctx, rec.edition), table_result: tableResult(words, ctx),
      appeal: appeal(words, ctx, rec.edition, appealCites), signatures: words.signatures.slice() });
  }
  /* record.py's with_context: the record (made from the query) with its own fields */
  function withContext(words, rec, ctx) { return finish(words, assign(assign({}, rec), ctx), ctx); }
  /* the fragment's record fields checked one by one: a wrong one is said, and left out */
  function contextOf(words, values) {
    var ctx = {}, errors = [];
    words.context.forEach(function (f) {
      if (!values[f[0]]) return;
      var one = {};
      one[f[0]] = values[f[0]];
      try { assign(ctx, context(words, one)); } catch (e) { if (!(e instanceof RecordError)) throw e; errors.push(e.message); }
    });
    return { ctx: ctx, errors: errors };
  }


  function cited(steps, cites) {
    var ids = [];
    steps.forEach(function (s) { ids = ids.concat(s.cites); });
    return once(ids.concat(cites));
  }

  /* texts: id -> {heading, text, children?} (the bundles' provision texts) */
  function provisions(texts, ids) {
    return ids.filter(function (c) { return texts[c]; }).map(function (c) {
      var t = texts[c];
      return { id: c, heading: t.heading || "", text: [t.text || ""].concat(t.children || []).filter(Boolean).join(" ") };
    });
  }

  /* a ruling by trees carried from an older code says so on its record (record.py review_notes) */
  function reviewNotes(r) {
    if (!r.carried_from) return [];
    var head = "Ruled by the " + r.carried_from + " rulings carried into the " + r.edition + " Laws";
    return [r.reviewed ? head + ", each provision cited the same or reviewed." : head + "; " + r.review + "."];
  }

  function assign(target, source) { Object.keys(source).forEach(function (k) { target[k] = source[k]; }); return target; }

  /* the results carried from the checkers, which only the server computes: listed, not guessed */
  function uncomputed(args) { return args.calc ? { uncomputed: [].concat(args.calc) } : {}; }

  /* --- guided rulings ------------------------------------------------------------------ */
  function guided(bundle, args) {
    var words = bundle.record, editions = root.LawbookRulings.editionOrder(bundle.editions, bundle.order);
    var edition = args.edition || editions[0];
    if (!bundle.editions[edition]) throw new RecordError("Unknown edition " + edition + ": guided rulings exist for " + editions.join(", ") + ".", "edition");
    var data = bundle.editions[edition];
    if (!data.kinds[args.procedure]) throw new RecordError("There is no ruling procedure " + args.procedure + ".", "procedure");
    /* the record's own fields are the fragment's (withContext), never the query's */
    var ctx = {}, questions = root.LawbookGuided.asks(data, args.procedure), answers = {};
    Object.keys(questions).forEach(function (k) {
      if (!args[k]) return;
      if (!questions[k].answers[args[k]]) throw new RecordError(args[k] + " is not an answer to " + k + ".", "answers");
      answers[k] = args[k];
    });
    var r = root.LawbookGuided.rule(data, args.procedure, answers), o = r.outcome || {}, adj = o.score_adjustment;
    var steps = r.answered.map(function (a) { return { question: a.text, answer: a.label, cites: a.cites }; });
    var rec = { kind: "guided", procedure: r.procedure, title: r.title, edition: r.edition };
    assign(rec, ctx);
    return assign(assign(rec, { steps: steps, ruling: o.ruling || "(not reached: questions remain)",
      notes: reviewNotes(r).concat([o.information, o.penalty].filter(Boolean).map(function (x) { return x.text; })),
      score_adjustment: adj ? (adj.when || null) : null, checker: adj ? (adj.checker || null) : null,
      adjusted: null, keep: o.record || [],
      provisions: provisions(bundle.texts[edition] || {}, cited(r.answered, r.cites)), complete: r.outcome !== null }),
      finish(words, assign(uncomputed(args), { edition: r.edition }), ctx, carriedAppeal(data)));
  }

  /* --- auction and play rulings --------------------------------------------------------- */
  function split(text, re) { return text.trim().split(re).filter(Boolean); }

  function auctionPayload(bundle, args, editions) {
    var dealer = (args.dealer || "N").toUpperCase(), start = SEATS.indexOf(dealer) >= 0 ? dealer : "N";
    var calls = [], seat = null;
    split(args.calls || "", /[\s,;]+/).forEach(function (token) {
      var call;
      if (token.indexOf(":") >= 0) {
        var i = token.indexOf(":"), s = token.slice(0, i);
        seat = s.trim().toUpperCase(); call = token.slice(i + 1);
        if (SEATS.indexOf(seat) < 0) throw new RecordError(token + ": " + s + " is not a seat (N, E, S or W).", "calls");
      } else {
        call = token;
        seat = seat === null ? start : SEATS[(SEATS.indexOf(seat) + 1) % 4];
      }
      calls.push([seat, call]);
    });
    var findings = {};
    bundle.findings.boolean.forEach(function (name) {
      if (args[name] === "yes" || args[name] === "no") findings[name] = args[name] === "yes";
    });
    bundle.findings.call.forEach(function (name) { if (args[name]) findings[name] = args[name]; });
    if (args.required_to_pass) findings.required_to_pass = split(args.required_to_pass.toUpperCase(), /[\s,]+/);
    if (args.card) {
      var i = args.card.indexOf(":"), cseat = i >= 0 ? args.card.slice(0, i) : args.card, cards = i >= 0 ? args.card.slice(i + 1) : "";
      findings.card = { seat: cseat.toUpperCase(), cards: split(cards, /[\s,]+/), led: args.card_led === "yes" };
    }
    if (args.change) {
      findings.change = { call: args.change };
      if (/^[0-9]+$/.test(args.change_index || "")) findings.change.index = parseInt(args.change_index, 10);
    }
    return { edition: args.edition || editions[0], dealer: dealer, calls: calls, findings: findings };
  }

  function playPayload(bundle, args, editions) {
    var play = split(args.play || "", /[\s,;+]+/).map(function (token) {
      var parts = token.split(":");
      if ((parts.length !== 2 && parts.length !== 3) || !root.LawbookRulings.play.NAMES[parts[0].toUpperCase()])
        throw new RecordError(token + ": write each card as SEAT:CARD (like W:HK).", "play");
      return [parts[0].toUpperCase(), parts[1].toUpperCase()].concat(parts.length === 3 ? [parts[2].toLowerCase()] : []);
    });
    var findings = {};
    bundle.findings.forEach(function (name) {
      var v = args[name];
      if (v) findings[name] = v === "yes" ? true : v === "no" ? false : v;
    });
    var payload = { edition: args.edition || editions[0], contract: args.contract || "", declarer: (args.declarer || "").toUpperCase(),
      play: play, findings: findings };
    /* trick and seat as laws/web/rulings_play.py's payload_from_args reads them */
    var trick = (args.trick || "").trim();
    if (trick) payload.trick = /^[0-9]{1,3}$/.test(trick) ? parseInt(trick, 10) : trick;
    if (args.seat) payload.seat = args.seat.trim().toUpperCase();
    return payload;
  }

  function asked(data) {
    var out = {};
    function visit(node) {
      if (node.ask) out[node.ask.finding || node.on] = true;
      Object.keys(node.cases || {}).forEach(function (k) { visit(node.cases[k]); });
    }
    Object.keys(data.kinds).forEach(function (k) { visit(data.kinds[k].tree); });
    Object.keys(data.subtrees || {}).forEach(function (k) { visit(data.subtrees[k]); });
    return out;
  }

  /* the questions asked, in order, with the findings that answered them (record.py's answered) */
  function answered(rule, payload, questions) {
    var findings = payload.findings || {}, soFar = {}, steps = [], n = Object.keys(findings).length;
    Object.keys(findings).forEach(function (k) { if (!questions[k]) soFar[k] = findings[k]; });
    for (var i = 0; i <= n; i++) {
      var r = rule(assign(assign({}, payload), { findings: assign({}, soFar) })), q = r.questions[0];
      if (!q || !(q.id in findings) || q.id in soFar) break;
      var v = findings[q.id], value = v === true ? "yes" : v === false ? "no" : String(v), label = value;
      (q.answers || []).forEach(function (a) { if (a.value === value && label === value) label = a.label; });
      steps.push({ question: q.text, answer: label, cites: q.cites.slice() });
      soFar[q.id] = v;
    }
    return { steps: steps, also: Object.keys(findings).filter(function (k) { return !(k in soFar); }) };
  }

  function entered(words, period, args, also, irr) {
    var fields = words.periods[period].entered, named = fields.map(function (f) { return f[0]; });
    var out = fields.filter(function (f) {
      return typeof args[f[0]] === "string" && args[f[0]].trim();
    }).map(function (f) { return f[1] + ": " + enteredValue(words, f[0], args[f[0]].trim(), args, irr); }).join("; ");
    var rest = also.filter(function (k) { return named.indexOf(k) < 0 && typeof args[k] === "string" && args[k].trim(); })
      .map(function (k) { return k.replace(/_/g, " ") + ": " + valueWords(words, args[k]); });
    return out + (rest.length ? "; " + words.also + ": " + rest.join(", ") : "");
  }

  function notes(words, period, o) {
    if (!o) return [];
    var names = words.seats, out = [];
    words.must_pass.forEach(function (f) {
      if (o[f[0]] && o[f[0]] !== "none") out.push(f[1] + ": " + o[f[0]].replace(/_/g, " ") + ".");
    });
    if (o.penalty_cards && o.penalty_cards.length) out.push("Penalty cards: " + o.penalty_cards.map(function (p) {
      return (names[p.seat] || p.seat) + ": " + cardWords(words, p.card) + " (" + valueWords(words, p.kind) + ")"; }).join("; ") + ".");
    words.texts.forEach(function (k) { if (o[k]) out.push(o[k].text); });
    if (o.tricks_transferred !== null && o.tricks_transferred !== undefined) out.push("Tricks transferred: " + o.tricks_transferred + ".");
    if (o.declarer) out.push("Declarer now: " + names[o.declarer] + ".");
    var w = words.periods[period];
    out.push(w.next + ": " + (o.next ? names[o.next] : w.over) + ".");
    return out;
  }

  function mechanical(words, period, bundle, args) {
    var R = root.LawbookRulings[period], editions = root.LawbookRulings.editionOrder(bundle.editions, bundle.order);
    var ctx = {};  /* the fragment's (withContext), never the query's */
    var payload = period === "auction" ? auctionPayload(bundle, args, editions) : playPayload(bundle, args, editions);
    var rule = function (p) {
      try { return R.rule(bundle.editions, p, bundle.order); } catch (e) {
        if (e instanceof R.RulingError) throw new RecordError(e.message, e.field);
        throw e;
      }
    };
    var ruling = rule(payload), data = bundle.editions[ruling.edition];
    var replayed = answered(rule, payload, asked(data)), steps = replayed.steps;
    var o = ruling.outcome || {}, adj = o.score_adjustment, irr = ruling.irregularity;
    var title = words.periods[period].title + (irr ? ": " + irr.kind.replace(/-/g, " ") + " (Law " + irr.law + ")" : "");
    var said = ruling.say || (irr ? "" : "No irregularity."), complete = ruling.outcome !== null || !irr;
    var texts = provisions(bundle.texts[ruling.edition] || {}, cited(steps, ruling.cites));
    steps = steps.concat(ruling.questions.map(function (q) { return { question: q.text, answer: "(not answered)", cites: q.cites }; }));
    if (!complete) said = (said ? said + " " : "") + "(Not complete: questions remain.)";
    var rec = { kind: period, procedure: period, title: title, edition: ruling.edition };
    assign(rec, ctx);
    return assign(assign(rec, { entered: entered(words, period, args, replayed.also, irr), steps: steps, ruling: said,
      notes: reviewNotes(ruling).concat(notes(words, period, ruling.outcome)), score_adjustment: adj ? (adj.when || null) : null, checker: null,
      adjusted: null, keep: [], provisions: texts, complete: complete }), finish(words, assign(uncomputed(args), { edition: ruling.edition }), ctx, carriedAppeal(data)));
  }

  /* --- plain text (record.py's as_text) -------------------------------------------------- */
  var BLANK = "________________";

  function handsLines(words, deal) {
    if (!deal) return [];
    var hands = root.LawbookPBN.deal(deal);
    return SEATS.map(function (seat) {
      return words.seats[seat] + ": " + (hands[seat] === null ? "(not known)" : hands[seat].map(function (cards, i) {
        return words.suits["SHDC"[i]] + (cards || "—"); }).join(" "));
    });
  }

  function sequenceWords(words, text, calls) {
    var tokens = (text || "").split(/\s+/).filter(Boolean);
    if (!tokens.length) return "";
    var i = SEATS.indexOf(tokens[0]) >= 0 ? SEATS.indexOf(tokens[0]) : 0;
    return tokens.slice(1).map(function (t, j) {
      return words.seats[SEATS[(i + j) % 4]] + " " + (calls ? callWords(words, t) : cardWords(words, t)); }).join(", ");
  }

  function peopleLines(words, rec) {
    var lines = ["Director: " + (rec.director || BLANK),
      "Players: " + SEATS.map(function (s, i) { return words.seats[s] + " " + (rec[["north", "east", "south", "west"][i]] || BLANK); }).join("; ")];
    var hands = handsLines(words, rec.deal);
    if (hands.length) lines = lines.concat(["Hands:"], hands.map(function (h) { return "  " + h; }));
    if (rec.auction) lines.push("Auction: " + sequenceWords(words, rec.auction, true));
    if (rec.cardplay) lines.push("Play: " + sequenceWords(words, rec.cardplay, false));
    return lines;
  }

  function label(words, name) { return words.context.filter(function (f) { return f[0] === name; })[0][1]; }

  function text(words, rec) {
    var lines = ["RULING RECORD — " + rec.title + " (" + rec.edition + " Laws)"];
    /* each of the record's fields, a line to write on when it is not filled */
    words.head.forEach(function (name) {
      lines.push(label(words, name) + ": " + (rec[name] || BLANK) + (name === "board" && rec.board_info ? " — " + rec.board_info.line : ""));
    });
    lines = lines.concat(peopleLines(words, rec));
    if (rec.entered) lines.push("Entered: " + rec.entered);
    lines.push("", "Facts:", rec.facts || BLANK);
    if (rec.steps.length) {
      lines.push("", "Questions and answers:");
      rec.steps.forEach(function (s, i) { lines.push((i + 1) + ". " + s.question + " [" + s.cites.join(", ") + "]", "   — " + s.answer); });
    }
    lines.push("", "Ruling:", rec.ruling);
    lines = lines.concat(rec.notes);
    lines.push("", "Table result: " + (rec.table_result || BLANK));
    var results = (rec.adjusted || {}).results || [];
    if (rec.score_adjustment || rec.adjustment || rec.adjusted) {
      lines.push("", "Score adjustment:");
      if (rec.score_adjustment) lines.push(rec.score_adjustment);
      results.forEach(function (item) {
        lines.push("- " + item.line + " [" + item.cites.join(", ") + "]");
        lines.push("  " + (item.sides ? item.sides + " — " : "") + "computed by " + item.by);
      });
      if (rec.adjustment) lines.push(rec.adjustment);
    }
    if (rec.keep.length) lines.push("", "To record: " + rec.keep.join("; ") + ".");
    lines.push("", "Right to appeal: " + rec.appeal.text + (rec.appeal.cites.length ? " [" + rec.appeal.cites.join(", ") + "]" : ""));
    lines.push("", "Provisions applied (" + rec.edition + " Laws):");
    rec.provisions.forEach(function (p) { lines.push("Law " + p.id + (p.heading ? " — " + p.heading : "") + ": " + p.text); });
    lines.push("", "Signatures:");
    rec.signatures.forEach(function (who) { lines.push(who + ": " + BLANK); });
    return lines.join("\n") + "\n";
  }

  /* "Make the ruling record" on the auction and play pages: the address holds the ruling */
  function wireMakeLinks() {
    Array.prototype.slice.call(document.querySelectorAll("a[data-record]")).forEach(function (a) {
      a.addEventListener("click", function (e) {
        var q = new URLSearchParams(location.search), needs = (a.dataset.needs || "").split(" ").filter(Boolean);
        if (needs.length && !needs.some(function (k) { return q.get(k); })) {
          /* nothing ruled yet: a record needs a ruling */
          e.preventDefault();
          var note = a.parentNode.querySelector(".record-note") || a.parentNode.appendChild(el("span", "record-note"));
          note.setAttribute("role", "status");
          note.textContent = "Rule first: the record is made from the ruling.";
          return;
        }
        a.href = "/rulings/record?procedure=" + a.dataset.record + "&" + location.search.replace(/^\?/, "");
      });
    });
  }


  /* --- the record page: what only the phone knows ----------------------------------------
     The record's own fields (words.context: date, event, board, table result,
     facts…) and the people's names and the hands (words.private) live in the
     address's fragment (#date=…&event=…&north=…&deal=…), which the browser
     never sends, and in records saved on this phone; this fills them in,
     sets the date and time when the fragment has none, moves an old
     address's fields out of its query, and reads and writes PBN. */
  var STORE_KEY = "lawbook-records", CARRY_KEY = "lawbook-record-carry";

  function fieldNames(words) { return words.context.concat(words["private"]).map(function (f) { return f[0]; }); }

  function fragment(words) {
    var q = new URLSearchParams(location.hash.replace(/^#/, "")), out = {};
    /* the record's fields as written (context() checks them); the people's cut to their length */
    words.context.forEach(function (f) { var v = (q.get(f[0]) || "").trim(); if (v) out[f[0]] = v; });
    words["private"].forEach(function (f) {
      var v = (q.get(f[0]) || "").trim().slice(0, f[2]);
      if (v) out[f[0]] = v;
    });
    if (out.deal) { try { out.deal = root.LawbookPBN.dealText(root.LawbookPBN.deal(out.deal)); } catch (e) { out.deal_error = e.message; delete out.deal; } }
    return out;
  }

  /* the record as the phone shows it: the server's (or record.js's) with the fragment's fields */
  function current(words, rec) {
    var values = fragment(words), got = contextOf(words, values), full = withContext(words, rec, got.ctx);
    words["private"].forEach(function (f) { if (values[f[0]]) full[f[0]] = values[f[0]]; });
    return { full: full, values: values, ctx: got.ctx, errors: got.errors, deal_error: values.deal_error };
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  /* the query's pairs that name the ruling (not the checkers' results): the
     key under which a record's fragment waits for it while a checker is open */
  function baseOf(search, names) {
    var out = [];
    new URLSearchParams(search).forEach(function (v, k) { if (k !== "calc" && k.indexOf("calc_") !== 0 && names.indexOf(k) < 0) out.push([k, v]); });
    return JSON.stringify(out);
  }

  /* Before anything is drawn: the address made what it must be.  An old
     address's record fields are read once from its query and moved into the
     fragment (so they are not sent again); a record back from a checker gets
     its fragment again (kept in this tab when the checker was opened); the
     date and time are set when the record is first made.  Synchronous, so
     guided.js sees the address as it will stay.  The query's other pieces
     are kept byte for byte: the server's page state (record.py's
     query_state) is the same string. */
  function settle(names) {
    var kept = [], moved = [], hash = location.hash.replace(/^#/, "");
    location.search.replace(/^\?/, "").split("&").forEach(function (piece) {
      if (!piece) return;
      var pair = null;
      new URLSearchParams(piece).forEach(function (v, k) { if (pair === null) pair = [k, v]; });
      if (pair && names.indexOf(pair[0]) >= 0) moved.push(pair); else kept.push(piece);
    });
    var search = kept.length ? "?" + kept.join("&") : "", h = new URLSearchParams(hash), carry = null;
    try { carry = JSON.parse(sessionStorage.getItem(CARRY_KEY) || "null"); sessionStorage.removeItem(CARRY_KEY); } catch (e) { carry = null; }
    if (!hash && carry && carry.base === baseOf(search, names)) h = new URLSearchParams(carry.hash.replace(/^#/, ""));
    moved.forEach(function (p) { if (!h.get(p[0]) && p[1].trim()) h.set(p[0], p[1].trim()); });  /* the fragment's own value wins */
    if (!h.get("date")) {
      var d = new Date();
      h.set("date", d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()));
      if (!h.get("time")) h.set("time", two(d.getHours()) + ":" + two(d.getMinutes()));
    }
    if (search !== location.search || h.toString() !== hash) history.replaceState(null, "", location.pathname + search + "#" + h.toString());
  }

  function node(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === "text") e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); });
    (kids || []).forEach(function (c) { if (c !== null) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  function all(scope, selector) { return Array.prototype.slice.call(scope.querySelectorAll(selector)); }

  /* the parts a record drawn on the phone (guided.js) lacks, as the server's
     page has them: the record's fields and the director as blank lines, the
     seats, the facts, the table result, the typed adjustment, the appeal, the signatures */
  function ensureParts(app, rec, words) {
    if (document.getElementById("appeal")) return;
    var head = app.querySelector(".record-head"), provH = all(app, "h2").filter(function (h) { return /^Provisions applied/.test(h.textContent); })[0];
    var after = head.children[1].nextSibling;  /* after the ruling's own line, as on the server's page */
    words.head.forEach(function (name) {
      head.insertBefore(node("dt", { text: label(words, name) }), after);
      head.insertBefore(node("dd", { "class": "slot", "data-context": name }), after);
    });
    head.insertBefore(node("dt", { text: "Director" }), after);
    head.insertBefore(node("dd", { "class": "slot", "data-private": "director" }), after);
    var seats = node("table", { "class": "seats" }, [node("caption", { text: "Seats and players" }),
      node("tr", {}, SEATS.map(function (s) { return node("th", { scope: "col", text: words.seats[s] }); })),
      node("tr", {}, ["north", "east", "south", "west"].map(function (n) { return node("td", { "class": "slot", "data-private": n }); }))]);
    var facts = [node("h2", { text: "Facts" }), node("p", { "class": "facts slot", "data-context": "facts" })];
    var hands = node("div", { "class": "hands", id: "record-hands", hidden: "" });
    [seats, hands].concat(facts).reverse().forEach(function (e) { head.parentNode.insertBefore(e, head.nextSibling); });
    var keep = app.querySelector("p.keep"), before = keep || provH;
    app.insertBefore(node("p", { "class": "table-result" }, [node("strong", { text: "Table result:" }), " ",
      node("span", { "class": "slot", id: "table-result" })]), keep ? keep : provH);
    var adj = node("p", { "class": "adjustment-entered", id: "adjustment-entered" }, [node("strong", { text: "Score adjustment:" }), " ",
      node("span", { "class": "slot", "data-context": "adjustment" })]);
    app.insertBefore(adj, before);
    app.insertBefore(node("p", { "class": "appeal", id: "appeal" }, [node("strong", { text: "Right to appeal:" }), " ",
      node("span", { id: "appeal-text", text: rec.appeal.text }), rec.appeal.cites.length ? " [" + rec.appeal.cites.join(", ") + "]" : ""]), provH);
    var sig = node("div", { "class": "signatures" }, rec.signatures.map(function (w) { return node("p", {}, [node("span", { text: w }), node("span", { "class": "slot" })]); }));
    app.insertBefore(sig, app.querySelector(".record-actions"));
  }

  /* the page filled from the fragment: every slot, the text, the form, the link */
  function fill(app, rec, words) {
    var cur = current(words, rec), full = cur.full;
    all(app, "[data-context]").forEach(function (e) {
      var name = e.dataset.context;
      e.textContent = full[name] || "";
      if (name === "board" && full.board_info) { e.appendChild(node("br")); e.appendChild(node("span", { "class": "board-info", text: full.board_info.line })); }
    });
    all(app, "[data-private]").forEach(function (e) { e.textContent = full[e.dataset["private"]] || ""; });
    var tr = document.getElementById("table-result"), ap = document.getElementById("appeal-text"), adj = document.getElementById("adjustment-entered");
    if (tr) tr.textContent = full.table_result || "";
    if (ap) ap.textContent = full.appeal.text;
    if (adj) adj.hidden = !(full.adjustment || full.score_adjustment || full.adjusted || full.uncomputed);
    var hands = document.getElementById("record-hands");
    hands.textContent = "";
    peopleLines(words, full).slice(2).forEach(function (l) { hands.appendChild(node("p", { text: l.trim() })); });
    if (cur.deal_error) hands.appendChild(node("p", { "class": "error", text: cur.deal_error }));
    hands.hidden = !hands.childNodes.length;
    document.getElementById("record-text").textContent = text(words, full);
    /* the form shows what the fragment holds, a wrong value too (to be put right), and says what is wrong */
    all(document, "[data-private-field]").forEach(function (i) { i.value = cur.values[i.dataset.privateField] || ""; });
    all(document, "[data-context-field]").forEach(function (i) { var k = i.dataset.contextField; i.value = cur.ctx[k] || cur.values[k] || ""; });
    var err = document.getElementById("context-error");
    if (err) { err.textContent = cur.errors.join(" "); err.hidden = !cur.errors.length; }
    var self = document.getElementById("self-link");
    if (self) self.setAttribute("href", location.pathname + location.search + location.hash);
    document.title = "Ruling record: " + rec.title + (full.board ? ", board " + full.board : "") + " — Lawbook";
    app.dataset.recordReady = "yes";
    return full;
  }

  /* the record's fields as PBN, the ruling as commentary */
  function pbnOf(full) {
    var f = assign({}, full);
    if (full.board_info) { f.dealer = full.board_info.dealer; f.vulnerable = full.board_info.vulnerable; }
    var said = [full.title + " (" + full.edition + " Laws).", "Ruling: " + full.ruling].concat(full.notes)
      .concat(((full.adjusted || {}).results || []).map(function (i) { return "Adjusted: " + i.line + (i.sides ? " (" + i.sides + ")" : ""); }))
      .concat(full.adjustment ? ["Adjusted: " + full.adjustment] : []);
    return root.LawbookPBN.write(f, said.join(" "));
  }

  /* the record's fields, the people's and the PBN reader in the form guided.js
     draws offline (templates/rulings/record_form.html's, made here) */
  function fieldsForm(app, words) {
    var form = app.querySelector(".edit-context form");
    if (!form || document.getElementById("private-fields")) return;
    form.id = "record-form";
    function field(f, prefix, data) {
      var attrs = { id: prefix + f[0], maxlength: String(f[2]) };
      attrs[data] = f[0];
      var input = f[0] === "auction" || f[0] === "cardplay" || f[0] === "facts" ? node("textarea", assign(attrs, { rows: f[0] === "facts" ? "3" : "2" }))
        : f[0] === "date" || f[0] === "time" ? node("input", assign(attrs, { type: f[0] }))
        : node("input", assign(attrs, { autocomplete: "off" }));
      return node("div", { "class": "field" }, [node("label", { "for": prefix + f[0], text: f[1] }), input]);
    }
    var set = node("fieldset", { "class": "private", id: "private-fields" }, [node("legend", { text: "Players, director and hands" })]
      .concat(words["private"].map(function (f) { return field(f, "p-", "data-private-field"); })).concat([
        node("div", { "class": "field" }, [node("label", { "for": "pbn-in", text: "Paste a PBN board (or choose a .pbn file)" }),
          node("textarea", { id: "pbn-in", rows: "3" }), node("input", { type: "file", id: "pbn-file", accept: ".pbn,text/plain" })]),
        node("p", {}, [node("button", { "class": "big secondary", type: "button", id: "pbn-read", text: "Read the PBN" })]),
        node("p", { "class": "error", id: "pbn-error", role: "alert", hidden: "" })]));
    var parts = [node("p", { "class": "hint", text: "Everything written here stays in this page's address after the # and in records saved on this phone; none of it is sent to the server." })]
      .concat(words.context.map(function (f) { return field(f, "c-", "data-context-field"); }))
      .concat([node("p", { "class": "error", id: "context-error", role: "alert", hidden: "" }), set]);
    parts.forEach(function (p) { form.insertBefore(p, form.lastChild); });
    /* above the record, open, as on the server's page */
    var details = form.parentNode;
    details.id = "record-fields";
    details.open = true;
    app.insertBefore(details, app.querySelector(".record-head"));
  }

  function wireForm(app, rec, words) {
    var form = document.getElementById("record-form");
    if (!form) return;
    document.getElementById("record-fields").hidden = false;
    form.addEventListener("submit", function (e) {
      /* the query stays as it is (the ruling); every field written goes into the fragment */
      e.preventDefault();
      var h = new URLSearchParams();
      all(form, "[data-context-field], [data-private-field]").forEach(function (i) {
        var k = i.dataset.contextField || i.dataset.privateField;
        if (i.value.trim()) h.set(k, i.value.trim());
      });
      history.replaceState(null, "", location.pathname + location.search + (h.toString() ? "#" + h.toString() : ""));
      fill(app, rec, words);
    });
    var err = document.getElementById("pbn-error");
    function readPBN(textIn) {
      err.hidden = true;
      try {
        var games = root.LawbookPBN.read(textIn);
        if (!games.length) throw new root.LawbookPBN.PBNError("No board found in the PBN (no tag like [Board \"5\"]).");
        var g = games[0];
        Object.keys(g).forEach(function (k) {
          /* only the record's own fields: the ruling's (dealer of the auction ruled…) stay as ruled */
          var input = form.querySelector("[data-private-field='" + k + "'], [data-context-field='" + k + "']");
          if (input) input.value = g[k];
        });
        err.textContent = "Read: " + Object.keys(g).length + " fields. Update the record to keep them.";
        err.hidden = false;
        err.className = "note";
      } catch (e) {
        if (!(e instanceof root.LawbookPBN.PBNError)) throw e;
        err.className = "error"; err.textContent = e.message; err.hidden = false;
      }
    }
    document.getElementById("pbn-read").addEventListener("click", function () { readPBN(document.getElementById("pbn-in").value); });
    document.getElementById("pbn-file").addEventListener("change", function () {
      var f = this.files[0];
      if (f) f.text().then(function (t) { document.getElementById("pbn-in").value = t; readPBN(t); });
    });
  }

  function wireButtons(app, rec, words) {
    var exp = document.getElementById("export-pbn");
    exp.hidden = false;
    exp.addEventListener("click", function () {
      /* made and downloaded on the phone: no request */
      var full = current(words, rec).full;
      var blob = new Blob([pbnOf(full)], { type: "application/x-pbn" });
      var a = node("a", { href: URL.createObjectURL(blob), download: "ruling-board-" + (full.board || "x").replace(/[^A-Za-z0-9-]/g, "") + ".pbn" });
      document.body.appendChild(a); a.click(); a.remove();
    });
    var names = fieldNames(words);
    document.addEventListener("click", function (e) {
      var t = e.target;
      /* guided.js saves the address without its fragment: keep the fragment with the saved record */
      if (t && t.id === "save-record") {
        try {
          var list = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
          if (list.length && list[0].url === location.pathname + location.search) {
            list[0].url += location.hash;
            localStorage.setItem(STORE_KEY, JSON.stringify(list));
          }
        } catch (err) { /* nothing saved: guided.js said so */ }
      }
      /* off to a checker (or a result taken out): the checker's way back is the
         query alone, so the fragment waits in this tab (sessionStorage, on the phone) */
      var a = t && t.closest ? t.closest("#calc a, #adjusted a.remove") : null;
      if (a) {
        try { sessionStorage.setItem(CARRY_KEY, JSON.stringify({ base: baseOf(location.search, names), hash: location.hash })); } catch (err) { /* not kept */ }
      }
    });
    window.addEventListener("hashchange", function () { fill(app, rec, words); });
  }

  function json(id) { var e = document.getElementById(id); return e ? JSON.parse(e.textContent) : null; }

  function getJSON(url) { return fetch(url, { credentials: "same-origin" }).then(function (r) { if (!r.ok) throw new Error(url + ": " + r.status); return r.json(); }); }

  function startPage() {
    var app = document.getElementById("guided-app");
    if (!app || app.dataset.page !== "record") return;
    var args = {};
    new URLSearchParams(location.search).forEach(function (v, k) { args[k] = k === "calc" ? [].concat(args[k] || [], v) : v; });
    if (!args.procedure) return;
    settle(json("record-field-names") || []);
    args = {};
    new URLSearchParams(location.search).forEach(function (v, k) { args[k] = k === "calc" ? [].concat(args[k] || [], v) : v; });
    var stale = location.search.replace(/^\?/, "") !== (app.dataset.state || "");
    if (!stale) {
      var rec = json("record-data"), words = json("record-words");
      fill(app, rec, words);
      wireForm(app, rec, words);
      wireButtons(app, rec, words);
      return;
    }
    /* drawn on the phone by guided.js (offline): the same record, made here again, and finished once it is drawn */
    var mechanical = args.procedure === "auction" || args.procedure === "play";
    Promise.all([getJSON("/rulings/guided.json"), mechanical ? getJSON("/rulings/" + args.procedure + ".json") : null]).then(function (got) {
      var words = got[0].record;
      var rec = mechanical ? mechanical_(words, args.procedure, got[1], args) : guided(got[0], args);
      var pre = document.getElementById("record-text");
      var done = function () {
        ensureParts(app, rec, words); fieldsForm(app, words); fill(app, rec, words);
        wireForm(app, rec, words); wireButtons(app, rec, words);
      };
      if (app.querySelector(".record-head")) { done(); return; }
      var seen = new MutationObserver(function () {
        if (app.querySelector(".record-head") && pre.textContent) { seen.disconnect(); done(); }
      });
      seen.observe(app, { childList: true, subtree: true, characterData: true });
    }).catch(function () { /* guided.js says what cannot be drawn */ });
  }

  function el(tag, cls) { var e = document.createElement(tag); e.className = cls; return e; }

  var mechanical_ = mechanical;
  root.LawbookRecord = { guided: guided, mechanical: mechanical, text: text, context: context, asked: asked,
    withContext: withContext, contextOf: contextOf, RecordError: RecordError,
    pbn: function (words, full) { return pbnOf(full); }, fragment: fragment, current: current };
  if (typeof document !== "undefined") {
    var go = function () { wireMakeLinks(); startPage(); };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go); else go();
  }
})(typeof self !== "undefined" ? self : this);
