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

  function context(words, args) {
    var out = {};
    words.context.forEach(function (f) {
      var v = args[f[0]];
      if (v === undefined || v === null || v === "") return;
      v = String(v).trim();
      if (v.length > f[2]) throw new RecordError(f[1] + " is too long (at most " + f[2] + " characters).", f[0]);
      if (v) out[f[0]] = v;
    });
    return out;
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

  function assign(target, source) { Object.keys(source).forEach(function (k) { target[k] = source[k]; }); return target; }

  /* the results carried from the checkers, which only the server computes: listed, not guessed */
  function uncomputed(args) { return args.calc ? { uncomputed: [].concat(args.calc) } : {}; }

  /* --- guided rulings ------------------------------------------------------------------ */
  function guided(bundle, args) {
    var words = bundle.record, editions = Object.keys(bundle.editions).sort().reverse();
    var edition = args.edition || editions[0];
    if (!bundle.editions[edition]) throw new RecordError("Unknown edition " + edition + ": guided rulings exist for " + editions.join(", ") + ".", "edition");
    var data = bundle.editions[edition];
    if (!data.kinds[args.procedure]) throw new RecordError("There is no ruling procedure " + args.procedure + ".", "procedure");
    var ctx = context(words, args), questions = root.LawbookGuided.asks(data, args.procedure), answers = {};
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
      notes: [o.information, o.penalty].filter(Boolean).map(function (x) { return x.text; }),
      score_adjustment: adj ? (adj.when || null) : null, checker: adj ? (adj.checker || null) : null,
      adjusted: null, keep: o.record || [],
      provisions: provisions(bundle.texts[edition] || {}, cited(r.answered, r.cites)), complete: r.outcome !== null }),
      uncomputed(args));
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

  function entered(words, period, args, also) {
    var fields = words.periods[period].entered, named = fields.map(function (f) { return f[0]; });
    var out = fields.filter(function (f) {
      return typeof args[f[0]] === "string" && args[f[0]].trim();
    }).map(function (f) { return f[1] + ": " + args[f[0]].trim(); }).join("; ");
    var rest = also.filter(function (k) { return named.indexOf(k) < 0 && typeof args[k] === "string" && args[k].trim(); })
      .map(function (k) { return k.replace(/_/g, " ") + " " + args[k].trim(); });
    return out + (rest.length ? "; " + words.also + ": " + rest.join(", ") : "");
  }

  function notes(words, period, o) {
    if (!o) return [];
    var names = words.seats, out = [];
    words.must_pass.forEach(function (f) {
      if (o[f[0]] && o[f[0]] !== "none") out.push(f[1] + ": " + o[f[0]].replace(/_/g, " ") + ".");
    });
    if (o.penalty_cards && o.penalty_cards.length) out.push("Penalty cards: " + o.penalty_cards.map(function (p) {
      return (names[p.seat] || p.seat) + ": " + p.card + " (" + p.kind + ")"; }).join("; ") + ".");
    words.texts.forEach(function (k) { if (o[k]) out.push(o[k].text); });
    if (o.tricks_transferred !== null && o.tricks_transferred !== undefined) out.push("Tricks transferred: " + o.tricks_transferred + ".");
    if (o.declarer) out.push("Declarer now: " + names[o.declarer] + ".");
    var w = words.periods[period];
    out.push(w.next + ": " + (o.next ? names[o.next] : w.over) + ".");
    return out;
  }

  function mechanical(words, period, bundle, args) {
    var R = root.LawbookRulings[period], editions = Object.keys(bundle.editions).sort().reverse();
    var ctx = context(words, args);
    var payload = period === "auction" ? auctionPayload(bundle, args, editions) : playPayload(bundle, args, editions);
    var rule = function (p) {
      try { return R.rule(bundle.editions, p); } catch (e) {
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
    return assign(assign(rec, { entered: entered(words, period, args, replayed.also), steps: steps, ruling: said,
      notes: notes(words, period, ruling.outcome), score_adjustment: adj ? (adj.when || null) : null, checker: null,
      adjusted: null, keep: [], provisions: texts, complete: complete }), uncomputed(args));
  }

  /* --- plain text (record.py's as_text) -------------------------------------------------- */
  function text(words, rec) {
    var lines = ["RULING RECORD — " + rec.title + " (" + rec.edition + " Laws)"];
    words.context.forEach(function (f) {
      if (f[0] !== "facts" && f[0] !== "adjustment" && rec[f[0]]) lines.push(f[1] + ": " + rec[f[0]]);
    });
    if (rec.entered) lines.push("Entered: " + rec.entered);
    if (rec.facts) lines.push("", "Facts:", rec.facts);
    if (rec.steps.length) {
      lines.push("", "Questions and answers:");
      rec.steps.forEach(function (s, i) { lines.push((i + 1) + ". " + s.question + " [" + s.cites.join(", ") + "]", "   — " + s.answer); });
    }
    lines.push("", "Ruling:", rec.ruling);
    lines = lines.concat(rec.notes);
    var results = (rec.adjusted || {}).results || [];
    if (rec.score_adjustment || rec.adjustment || rec.adjusted) {
      lines.push("", "Score adjustment:");
      if (rec.score_adjustment) lines.push(rec.score_adjustment);
      results.forEach(function (item) { lines.push("- " + item.line + " [" + item.cites.join(", ") + "]"); });
      if (rec.adjustment) lines.push(rec.adjustment);
    }
    if (rec.keep.length) lines.push("", "To record: " + rec.keep.join("; ") + ".");
    lines.push("", "Provisions applied (" + rec.edition + " Laws):");
    rec.provisions.forEach(function (p) { lines.push("Law " + p.id + (p.heading ? " — " + p.heading : "") + ": " + p.text); });
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

  function el(tag, cls) { var e = document.createElement(tag); e.className = cls; return e; }

  root.LawbookRecord = { guided: guided, mechanical: mechanical, text: text, context: context, asked: asked,
    RecordError: RecordError };
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireMakeLinks); else wireMakeLinks();
  }
})(typeof self !== "undefined" ? self : this);
