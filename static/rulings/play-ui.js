/* The play ruling flow on the phone: contract and declarer, a card picker
   (who, suit, rank, and how the card reached the table), then one question
   at a time, then the ruling.  Everything is computed here by the same
   walker and data as the server (walker.js, play.js, /rulings/play.json), so
   it works offline; without this script the page is a plain form answered by
   the server.  The address always holds the ruling (the query the server
   reads).  "Trick" starts the play entered at a later trick; a revoke is
   offered only for a card that is not a lead, and a revoke marked on the
   first card entered makes its seat the seat at fault (`seat`), the lead
   before it not entered. */
(function () {
  "use strict";
  var app = document.getElementById("play-app");
  if (!app || !window.LawbookRulings || !window.LawbookRulings.play || !window.LawbookRulings.dom || !window.fetch) return;
  var R = window.LawbookRulings.play, NAMES = R.NAMES, D = window.LawbookRulings.dom, el = D.el;  // dom.js
  var SEATS = ["N", "E", "S", "W"], SUITS = ["S", "H", "D", "C"], RANKS = "AKQJT98765432".split("");
  var SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  var HOW = [["", "played"], ["exposed", "exposed"], ["facedown", "face down"], ["simultaneous", "with the last"],
    ["revoke", "a revoke"], ["penalty", "penalty card"], ["minor", "minor penalty"], ["changed", "named instead"], ["fifth", "a fifth card"], ["retract", "taken back"]];
  var QUICK_HOW = ["", "exposed", "revoke"];
  var bundle = null, state = null, picker = { seat: null, suit: "S", how: "" }, view = document.getElementById("app-flow");

  function after(seat) { return SEATS[(SEATS.indexOf(seat) + 1) % 4]; }
  function pretty(card) { return SYMBOL[card[0]] + (card[1] === "T" ? "10" : card[1]); }

  function fromQuery(search) {
    var q = new URLSearchParams(search), editions = bundleEditions();
    var s = { edition: editions.indexOf(q.get("edition")) >= 0 ? q.get("edition") : editions[0],
      contract: (q.get("contract") || "").toUpperCase(), declarer: (q.get("declarer") || "S").toUpperCase(),
      trick: 1, seat: q.get("seat") ? q.get("seat").trim().toUpperCase() : null,
      play: [], findings: {}, ruled: !!q.get("contract") };
    // as the server reads it: a number, or the text as it is, for the ruling to refuse
    var trick = (q.get("trick") || "").trim();
    if (trick) s.trick = /^[0-9]{1,3}$/.test(trick) ? parseInt(trick, 10) : trick;
    (q.get("play") || "").split(/[\s,;+]+/).filter(Boolean).forEach(function (tok) {
      var p = tok.split(":");
      s.play.push(p.length === 3 ? [p[0].toUpperCase(), p[1].toUpperCase(), p[2].toLowerCase()] : [(p[0] || "").toUpperCase(), (p[1] || "").toUpperCase()]);
    });
    q.forEach(function (v, k) {
      if (["edition", "contract", "declarer", "trick", "seat", "play"].indexOf(k) < 0 && v) s.findings[k] = v === "yes" ? true : v === "no" ? false : v;
    });
    return s;
  }
  function toQuery(s) {
    var q = new URLSearchParams();
    q.set("edition", s.edition);
    if (s.contract) q.set("contract", s.contract);
    q.set("declarer", s.declarer);
    if (s.trick !== 1) q.set("trick", String(s.trick));
    if (s.seat) q.set("seat", s.seat);
    if (s.play.length) q.set("play", s.play.map(function (e) { return e.join(":"); }).join(" "));
    Object.keys(s.findings).forEach(function (k) { var v = s.findings[k]; q.set(k, v === true ? "yes" : v === false ? "no" : v); });
    return q.toString();
  }
  function save() { history.replaceState(null, "", "/rulings/play?" + (state.ruled ? toQuery(state) : "edition=" + state.edition)); }
  function tabs() { return D.editionTabs(bundleEditions(), state.edition, function (e) { state.edition = e; save(); render(); }); }
  function bundleEditions() { return window.LawbookRulings.editionOrder(bundle.editions, bundle.order); }
  function ruleFor(edition) {
    try {
      var req = { edition: edition, contract: state.contract, declarer: state.declarer, play: state.play, findings: state.findings };
      if (state.trick !== 1) req.trick = state.trick;
      if (state.seat) req.seat = state.seat;
      return R.rule(bundle.editions, req, bundle.order);
    } catch (e) { if (e instanceof R.RulingError) return { error: e.message }; throw e; }
  }

  /* where the next card goes if every card so far was in turn: {seat: who
     plays next (null when not known: the lead after trick 1 with nothing
     entered), lead: it leads a trick, closed: the seat at fault's card is
     entered, alone} */
  function position() {
    var first = typeof state.trick === "number" ? state.trick : 1;
    var leader = first === 1 ? after(state.declarer) : null, trick = [], strain = /^[1-7](C|D|H|S)/.exec(state.contract), trumps = strain ? strain[1] : null;
    if (state.seat) {
      var entered = state.play.some(function (e) { return e[2] !== "penalty" && e[2] !== "minor"; });
      return { seat: entered ? null : state.seat, lead: false, closed: entered };
    }
    state.play.forEach(function (e) {
      if (e[2] && e[2] !== "facedown" && e[2] !== "revoke") return;
      if (leader === null) leader = e[0];
      trick.push(e);
      if (trick.length === 4) { leader = R.winner(trick, trumps); trick = []; }
    });
    return { seat: trick.length ? after(trick[trick.length - 1][0]) : leader, lead: !trick.length, closed: false };
  }
  function nextSeat() { return position().seat; }
  /* "how" the next card came: a revoke never on a lead (61A); on the first
     card entered, a revoke by a seat that does not lead makes it the seat at
     fault, the lead before it not entered */
  function hows(seat) {
    var pos = position(), alone = !state.play.length && !(state.trick === 1 && seat === after(state.declarer));
    return HOW.filter(function (h) { return h[0] !== "revoke" || !pos.lead || alone; }).map(function (h) {
      return h[0] === "revoke" && pos.lead ? ["revoke", "a revoke (the lead before it not entered)"] : h;
    });
  }
  function playList() {
    var tricks = [], cur = [];
    return el("ol", { "class": "play-list", "aria-label": "The play so far" }, state.play.map(function (e) {
      return el("li", { text: NAMES[e[0]] + " " + pretty(e[1]) + (e[2] ? " (" + HOW.filter(function (h) { return h[0] === e[2]; })[0][1] + ")" : "") });
    }));
  }

  function renderEntry() {
    view.appendChild(el("div", { "class": "row facts-row" }, [
      el("label", { "class": "inline" }, ["Contract ", el("input", { id: "app-contract", type: "text", value: state.contract, placeholder: "4S", autocapitalize: "characters", size: "5",
        on: { input: function (e) { state.contract = e.target.value.toUpperCase().replace(/\s/g, ""); } } })]),
      el("label", { "class": "inline" }, ["Declarer ", el("select", { id: "app-declarer", on: { change: function (e) { state.declarer = e.target.value; picker.seat = null; render(); } } },
        SEATS.map(function (s) { return el("option", { value: s, selected: s === state.declarer, text: NAMES[s] }); }))]),
      // a later trick: the tricks before it are not entered (the picker redraws; the field keeps the focus)
      el("label", { "class": "inline" }, ["Trick ", el("input", { id: "app-trick", type: "number", min: "1", max: "13", inputmode: "numeric", value: String(state.trick),
        disabled: state.play.length > 0, "aria-describedby": "app-trick-help",
        on: { input: function (e) { var n = parseInt(e.target.value, 10); state.trick = n >= 1 && n <= 13 ? n : 1; picker.seat = null; drawPicker(); } } })])]));
    // how to enter, one tap away: the facts of a call fit on one screen at 360 x 740 (issue 20)
    view.appendChild(playList());
    view.appendChild(el("div", { id: "app-picker" }));
    drawPicker();
    // what no card shows (46, 67): each starts its own ruling
    // rare at the table, so folded: each a label above its list, never run together
    var starters = (bundle.starters || []).map(function (st) {
      var what = el("label", { "class": "stacked" }, [st.label, el("select", { id: "app-" + st.id, "data-finding": st.id,
        on: { change: function (e) { picker[st.id] = e.target.value; } } },
        [el("option", { value: "", text: "—" })].concat(st.values.map(function (v) { return el("option", { value: v[0], selected: picker[st.id] === v[0], text: v[1] }); })))]);
      if (!st.seat) return what;
      // a defective trick is ruled for a seat at a trick (the Trick field above), no card entered
      return el("div", {}, [what, el("label", { "class": "stacked" }, [st.seat, el("select", { id: "app-" + st.id + "-seat",
        on: { change: function (e) { picker[st.id + "_seat"] = e.target.value; } } },
        [el("option", { value: "", text: "—" })].concat(SEATS.map(function (s) { return el("option", { value: s, selected: picker[st.id + "_seat"] === s, text: NAMES[s] }); })))])]);
    });
    var more = null;
    if (starters.length) {
      var open = (bundle.starters || []).some(function (st) { return picker[st.id]; });
      more = (el("details", { "class": "starters", open: open || undefined }, [el("summary", { text: "When no card shows it (" +
        starters.length + " more)" })].concat(starters)));
    }
    var help = el("details", { "class": "help-more" }, [el("summary", { text: "How to enter the play" }),
      el("p", { "class": "help", id: "app-trick-help", text: "After trick 1, the first card entered leads the trick. A revoke without the lead: tap the revoker, then how: “a revoke”." }),
      el("p", { "class": "help", text: "Tap who, then the suit and the rank. Change “how” for a card that was not simply played." })]);
    view.appendChild(el("div", { "class": "row" }, [
      el("button", { type: "button", "class": "big secondary", id: "undo", text: "Undo", disabled: !state.play.length,
        on: { click: function () { state.play.pop(); if (!state.play.length) state.seat = null; picker.seat = null; render(); } } }),
      el("button", { type: "button", "class": "big", id: "rule", text: "Rule",
        on: { click: function () {
          state.ruled = true; state.findings = {};
          (bundle.starters || []).forEach(function (st) {
            if (picker[st.id]) state.findings[st.id] = picker[st.id];
            if (picker[st.id] && st.seat && picker[st.id + "_seat"]) state.seat = picker[st.id + "_seat"];
            picker[st.id] = ""; picker[st.id + "_seat"] = ""; });
          save(); render(); } } })]));
    // below Rule: the rare cases and the help, so that the facts and Rule fit one screen
    if (more) view.appendChild(more);
    view.appendChild(help);
  }

  /* who, suit, rank and how: drawn again when the trick changes */
  function drawPicker() {
    var box = document.getElementById("app-picker"), pos = position(), seat = picker.seat || pos.seat;
    box.textContent = "";
    if (pos.closed) {
      box.appendChild(el("p", { "class": "help", id: "app-closed", text: NAMES[state.seat] + "’s card is entered alone, the lead before it not: tap Rule, or Undo to enter the trick from its lead." }));
      return;
    }
    var offered = hows(seat);
    if (!offered.some(function (h) { return h[0] === picker.how; })) picker.how = "";
    var view = box;
    view.appendChild(el("div", { "class": "seat-switch", role: "radiogroup", "aria-label": "Who" }, SEATS.map(function (s) {
      return el("button", { type: "button", "class": "seat" + (s === seat ? " current" : ""), role: "radio", "aria-checked": s === seat ? "true" : "false", "data-seat": s,
        text: NAMES[s] + (s === state.declarer ? " (decl.)" : s === SEATS[(SEATS.indexOf(state.declarer) + 2) % 4] ? " (dummy)" : ""), on: { click: function () { picker.seat = s; drawPicker(); } } });
    })));
    view.appendChild(el("div", { "class": "suit-row", role: "radiogroup", "aria-label": "Suit" }, SUITS.map(function (s) {
      return el("button", { type: "button", "class": "bid suit-" + s + (s === picker.suit ? " current" : ""), "data-suit": s, "aria-label": { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[s],
        "aria-checked": s === picker.suit ? "true" : "false", role: "radio", text: SYMBOL[s], on: { click: function () { picker.suit = s; drawPicker(); } } });
    })));
    var used = {};
    state.play.forEach(function (e) { used[e[1]] = true; });
    view.appendChild(el("div", { "class": "rank-grid", "aria-label": "Rank" }, RANKS.map(function (r) {
      var card = picker.suit + r;
      // (no seat yet: after trick 1 with nothing entered, tap who leads, or who revoked)
      return el("button", { type: "button", "class": "bid rank", "data-card": card, disabled: !seat, text: r === "T" ? "10" : r,
        on: { click: function () {
          var lead = position().lead;
          if (picker.how === "revoke" && lead) state.seat = seat;  // a lead cannot be a revoke: the lead is not entered
          state.play.push(picker.how ? [seat, card, picker.how] : [seat, card]);
          picker.seat = null; picker.how = ""; render();
        } } });
    })));
    // how the card came: the usual three one tap each, the rest in the list
    var quick = offered.filter(function (h) { return QUICK_HOW.indexOf(h[0]) >= 0; });
    view.insertBefore(el("div", { "class": "how-row", role: "group", "aria-label": "How" }, quick.map(function (h) {
      return el("button", { type: "button", "class": "how" + (h[0] === picker.how ? " current" : ""), "data-how": h[0],
        "aria-pressed": h[0] === picker.how ? "true" : "false", text: h[1], on: { click: function () { picker.how = h[0]; drawPicker(); } } });
    }).concat([el("select", { id: "app-how", "aria-label": "How, every way", on: { change: function (e) { picker.how = e.target.value; drawPicker(); } } },
      offered.map(function (h) { return el("option", { value: h[0], selected: h[0] === picker.how, text: h[1] }); }))])), view.querySelector(".suit-row"));
  }

  function finding(id, value) { state.findings[id] = value === "yes" ? true : value === "no" ? false : value; }

  function answer(id, value) { finding(id, value); save(); render(); }

  function answerAll(facts) {
    Object.keys(facts).forEach(function (k) { finding(k, facts[k]); });
    save(); render();
  }

  function renderRuling() {
    var r = ruleFor(state.edition);
    view.appendChild(tabs());
    view.appendChild(el("p", { "class": "auction-line", text: state.contract + " by " + (NAMES[state.declarer] || state.declarer) +
      (state.trick !== 1 ? ", from trick " + state.trick : "") + (state.seat ? ", at fault: " + (NAMES[state.seat] || state.seat) : "") }));
    view.appendChild(playList());
    if (r.error) {
      view.appendChild(el("div", { "class": "checker-error", role: "alert" }, [el("h2", { text: "Please check the play" }), el("p", { text: r.error })]));
      view.appendChild(el("button", { type: "button", "class": "big secondary", text: "Change the play", on: { click: function () { state.ruled = false; save(); render(); } } }));
      return;
    }
    var irr = r.irregularity, sec = el("section", { "class": "ruling", "aria-live": "polite" });
    sec.appendChild(el("h2", { text: irr ? "Law " + irr.law + ": " + irr.kind.replace(/-/g, " ") + (irr.seat ? " by " + NAMES[irr.seat] : "") : "No irregularity" }));
    if (r.carried_from) sec.appendChild(D.reviewNote(r));
    if (r.say) sec.appendChild(el("p", { "class": "say", text: r.say }));
    var q = r.questions[0];
    if (q) {
      // a question with its follow-ups folded in (`together`): one tap settles them all
      var t = q.together, qs = el("div", { "class": "question", "data-question": q.id }, [el("p", { "class": "ask" }, [el("strong", { text: t ? t.text : q.text }), " (" + q.cites.join(", ") + ")"])]);
      if (t) qs.appendChild(el("div", { "class": "answers" }, t.answers.map(function (a) {
        return el("button", { type: "button", "class": "big answer", "data-facts": JSON.stringify(a.facts), text: a.label, on: { click: function () { answerAll(a.facts); } } });
      })));
      else if (q.answers) qs.appendChild(el("div", { "class": "answers" }, q.answers.map(function (a) {
        return el("button", { type: "button", "class": "big answer", "data-value": a.value, text: a.label, on: { click: function () { answer(q.id, a.value); } } });
      })));
      sec.appendChild(qs);
    }
    if (r.outcome) {
      var o = r.outcome, rows = [["Penalty cards", o.penalty_cards.length ? o.penalty_cards.map(function (p) { return NAMES[p.seat] + ": " + p.card + " (" + p.kind + ")"; }).join("; ") : "none"]];
      if (o.lead_restrictions) rows.push(["Lead", o.lead_restrictions.text]);
      if (o.play_restrictions) rows.push(["Play", o.play_restrictions.text]);
      // (0: a transfer the Laws decided against, said in words; null: none in question)
      if (o.tricks_transferred !== null) rows.push(["Tricks transferred", o.tricks_transferred ? String(o.tricks_transferred) : "No trick transferred"]);
      if (o.declarer) rows.push(["Declarer now", NAMES[o.declarer]]);
      if (o.information) rows.push(["Information", o.information.text]);
      if (o.score_adjustment) rows.push(["Score adjustment", o.score_adjustment.when]);
      rows.push(["Next to play", o.next ? NAMES[o.next] : "—"]);
      sec.appendChild(el("dl", { "class": "outcome" }, rows.reduce(function (acc, row) { return acc.concat([el("dt", { text: row[0] }), el("dd", { text: row[1] })]); }, [])));
    }
    if (r.options.length) {
      sec.appendChild(el("h3", { text: "The options" }));
      sec.appendChild(el("div", { "class": "options" }, r.options.map(function (o) {
        var live = q && q.kind === "option" && o.chosen === null;
        return el("button", { type: "button", "class": "big option" + (o.chosen ? " chosen" : o.chosen === false ? " not-chosen" : ""), "data-value": o.value, disabled: !live, text: o.text,
          on: { click: function () { answer(q.id, o.value); } } });
      })));
    }
    bundleEditions().forEach(function (e) {
      if (e === state.edition) return;
      var other = ruleFor(e);
      var go = el("button", { type: "button", "class": "link", text: "See the " + e + " ruling", on: { click: function () { state.edition = e; save(); render(); } } });
      // "differ" only where the outcome does; another number for the same rule is said as such
      var both = !other.error && r.outcome && other.outcome;
      var differs = both && JSON.stringify(r.outcome) !== JSON.stringify(other.outcome);
      var numbering = both && !differs && JSON.stringify(r.cites) !== JSON.stringify(other.cites);
      if (differs) sec.appendChild(el("p", { "class": "difference" }, [el("strong", { text: "The " + e + " Laws differ here. " }), go]));
      else if (numbering) sec.appendChild(el("p", { "class": "same" }, ["The " + e + " Laws give the same result here; only the numbers of the provisions differ. ", go]));
      else if (r.outcome && other.outcome) sec.appendChild(el("p", { "class": "same" }, ["The " + e + " Laws give the same result here. ", go]));
    });
    sec.appendChild(el("h3", { text: "Provisions applied (" + state.edition + ")" }));
    sec.appendChild(D.citeList(bundle.texts[state.edition] || {}, state.edition, r.cites));
    view.appendChild(sec);
    view.appendChild(el("div", { "class": "row" }, [
      el("button", { type: "button", "class": "big secondary", id: "back", text: "Back",
        on: { click: function () {
          var keys = Object.keys(state.findings);
          if (keys.length) delete state.findings[keys[keys.length - 1]]; else state.ruled = false;
          save(); render(); } } }),
      el("button", { type: "button", "class": "big secondary", id: "restart", text: "New ruling",
        on: { click: function () { state = { edition: state.edition, contract: "", declarer: "S", trick: 1, seat: null, play: [], findings: {}, ruled: false }; picker.seat = null; save(); render(); } } })]));
  }

  function render() {
    view.textContent = "";
    if (state.ruled) renderRuling(); else { view.appendChild(tabs()); renderEntry(); }
    app.dataset.ready = "yes";
  }

  fetch("/rulings/play.json", { credentials: "same-origin" }).then(function (r) {
    if (!r.ok) throw new Error(r.status);
    return r.json();
  }).then(function (data) {
    bundle = data;
    state = fromQuery(location.search);
    document.getElementById("server-flow").hidden = true;
    view.hidden = false;
    render();
  }).catch(function () { /* the server's form stays */ });
})();
