/* The ruling flow on the phone: a bidding box with a seat switch, then one
   question at a time, then the ruling.  Everything is computed here by the
   same walker and data as the server (walker.js, auction.js,
   /rulings/auction.json), so it works offline; without this script the page
   is a plain form answered by the server.  The address always holds the
   ruling (the same query the server reads). */
(function () {
  "use strict";
  var app = document.getElementById("ruling-app");
  if (!app || !window.LawbookRulings || !window.LawbookRulings.dom || !window.fetch) return;
  var R = window.LawbookRulings.auction, D = window.LawbookRulings.dom, el = D.el;  // dom.js
  var SEATS = ["N", "E", "S", "W"], NAMES = R.NAMES;
  var STRAINS = ["C", "D", "H", "S", "NT"], SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠", NT: "NT" };
  var BOOLEAN = ["accepted", "comparable", "natural", "same_denominations", "artificial", "repeats_denomination",
    "intended", "without_pause", "suit_specific", "suits_shown", "after_opening_lead", "could_be_seen",
    "replacement_accepted", "simultaneous"];
  var bundle = null, state = null, caller = null, view = document.getElementById("app-flow");

  function next(seat) { return SEATS[(SEATS.indexOf(seat) + 1) % 4]; }
  function pretty(call) { var m = /^(\d)(C|D|H|S|NT)$/.exec(call); return m ? m[1] + SYMBOL[m[2]] : call === "P" ? "Pass" : call; }

  /* --- the address: the same query the server reads ------------------------------ */
  function fromQuery(search) {
    var q = new URLSearchParams(search), dealer = (q.get("dealer") || "N").toUpperCase();
    if (SEATS.indexOf(dealer) < 0) dealer = "N";
    var eds = app.dataset.editions.split(" ");
    var s = { edition: eds.indexOf(q.get("edition")) >= 0 ? q.get("edition") : eds[0], dealer: dealer, calls: [], findings: {}, ruled: !!(q.get("calls") || q.get("card")) };
    var prev = null;
    (q.get("calls") || "").split(/[\s,;]+/).filter(Boolean).forEach(function (tok) {
      var seat, call;
      if (tok.indexOf(":") >= 0) { seat = tok.split(":")[0].toUpperCase(); call = tok.split(":")[1]; }
      else { seat = prev === null ? dealer : next(prev); call = tok; }
      s.calls.push([seat, call.toUpperCase()]); prev = seat;
    });
    BOOLEAN.forEach(function (b) { if (q.get(b) === "yes" || q.get(b) === "no") s.findings[b] = q.get(b) === "yes"; });
    ["replacement", "rho_call"].forEach(function (c) { if (q.get(c)) s.findings[c] = q.get(c); });
    if (q.get("required_to_pass")) s.findings.required_to_pass = q.get("required_to_pass").toUpperCase().split(/[\s,]+/).filter(Boolean);
    if (q.get("card")) {
      var parts = q.get("card").split(":");
      s.findings.card = { seat: parts[0].toUpperCase(), cards: (parts[1] || "").split(/[\s,]+/).filter(Boolean), led: q.get("card_led") === "yes" };
    }
    if (q.get("change")) {
      s.findings.change = { call: q.get("change") };
      if (/^\d+$/.test(q.get("change_index") || "")) s.findings.change.index = parseInt(q.get("change_index"), 10);
    }
    return s;
  }
  function toQuery(s) {
    var q = new URLSearchParams(), prev = null, words = [];
    q.set("edition", s.edition); q.set("dealer", s.dealer);
    s.calls.forEach(function (c) {
      var expected = prev === null ? s.dealer : next(prev);
      words.push(c[0] === expected ? c[1] : c[0] + ":" + c[1]); prev = c[0];
    });
    if (words.length && s.ruled) q.set("calls", words.join(" "));
    var f = s.findings;
    BOOLEAN.forEach(function (b) { if (b in f) q.set(b, f[b] ? "yes" : "no"); });
    ["replacement", "rho_call"].forEach(function (c) { if (f[c]) q.set(c, f[c]); });
    if (f.required_to_pass && f.required_to_pass.length) q.set("required_to_pass", f.required_to_pass.join(" "));
    if (f.card) { q.set("card", f.card.seat + ":" + f.card.cards.join(",")); if (f.card.led) q.set("card_led", "yes"); }
    if (f.change) { q.set("change", f.change.call); if (f.change.index !== undefined) q.set("change_index", String(f.change.index)); }
    if (!s.ruled) { q.delete("calls"); }
    return q.toString();
  }
  function save() { history.replaceState(null, "", "/rulings/auction?" + toQuery(state)); }

  /* --- rulings ------------------------------------------------------------------------ */
  function ruleFor(edition) {
    try {
      return R.rule(bundle.editions, { edition: edition, dealer: state.dealer, calls: state.calls, findings: state.findings }, bundle.order);
    } catch (e) {
      if (e instanceof R.RulingError) return { error: e.message };
      throw e;
    }
  }
  function differences(a, b) {
    if (!a || !b) return [];
    var out = [], labels = { offender_partner_must_pass: "offender's partner must pass", offender_must_pass: "offender must pass", next: "who calls next" };
    Object.keys(labels).forEach(function (k) { if (a[k] !== b[k]) out.push(labels[k] + ": " + (a[k] || "—") + " / " + (b[k] || "—")); });
    var la = a.lead_restrictions && a.lead_restrictions.declarer_may, lb = b.lead_restrictions && b.lead_restrictions.declarer_may;
    if (JSON.stringify(la || null) !== JSON.stringify(lb || null))
      out.push("lead restrictions: declarer may " + (la ? la.join(" or ") : "do nothing") + " / " + (lb ? lb.join(" or ") : "do nothing"));
    return out;
  }

  /* --- views ---------------------------------------------------------------------------- */
  function tabs() { return D.editionTabs(bundleEditions(), state.edition, function (e) { state.edition = e; save(); render(); }); }
  function bundleEditions() { return window.LawbookRulings.editionOrder(bundle.editions, bundle.order); }

  function auctionTable() {
    var rows = [], row = [], header = el("tr", {}, SEATS.map(function (s) { return el("th", { scope: "col", text: NAMES[s] }); }));
    var col = SEATS.indexOf(state.dealer);
    for (var i = 0; i < col; i++) row.push(el("td"));
    state.calls.forEach(function (c) {
      var at = SEATS.indexOf(c[0]);
      if (at < row.length) { while (row.length < 4) row.push(el("td")); rows.push(el("tr", {}, row)); row = []; }
      while (row.length < at) row.push(el("td"));
      row.push(el("td", { text: pretty(c[1]) }));
    });
    if (row.length) { while (row.length < 4) row.push(el("td")); rows.push(el("tr", {}, row)); }
    return el("table", { "class": "auction" }, [el("thead", {}, [header]), el("tbody", {}, rows)]);
  }

  function biddingBox(onCall, label) {
    var box = el("div", { "class": "bidding-box", role: "group", "aria-label": label || "Bidding box" });
    for (var level = 1; level <= 7; level++) {
      STRAINS.forEach(function (s) {
        var call = level + s;
        box.appendChild(el("button", { type: "button", "class": "bid strain-" + s, "data-call": call, "aria-label": call, text: pretty(call), on: { click: function () { onCall(call); } } }));
      });
    }
    box.appendChild(el("div", { "class": "box-row" }, [["P", "Pass"], ["X", "Dbl"], ["XX", "Rdbl"]].map(function (c) {
      return el("button", { type: "button", "class": "bid special", "data-call": c[0], text: c[1], on: { click: function () { onCall(c[0]); } } });
    })));
    return box;
  }

  function renderEntry() {
    var last = state.calls.length ? state.calls[state.calls.length - 1][0] : null;
    if (!caller) caller = last === null ? state.dealer : next(last);
    var seatSwitch = el("div", { "class": "seat-switch", role: "radiogroup", "aria-label": "Who makes the next call" }, SEATS.map(function (s) {
      return el("button", { type: "button", role: "radio", "aria-checked": s === caller ? "true" : "false", "class": "seat" + (s === caller ? " current" : ""), "data-seat": s, text: NAMES[s],
        on: { click: function () { caller = s; render(); } } });
    }));
    var dealer = el("label", { "class": "inline" }, ["Dealer ", el("select", { id: "app-dealer", on: { change: function (e) { state.dealer = e.target.value; caller = null; save(); render(); } } },
      SEATS.map(function (s) { return el("option", { value: s, selected: s === state.dealer, text: NAMES[s] }); }))]);
    // the dealer beside the editions, the help below Rule: the auction's facts
    // and Rule on one 360 x 740 screen (issue 20)
    var tabRow = view.querySelector(".editions");
    if (tabRow) tabRow.appendChild(dealer);
    view.appendChild(el("section", { "class": "entry" }, [
      tabRow ? null : dealer, auctionTable(),
      seatSwitch,
      biddingBox(function (call) { state.calls.push([caller, call]); caller = next(caller); save(); render(); }),
      el("div", { "class": "row" }, [
        el("button", { type: "button", "class": "big secondary", id: "undo", disabled: !state.calls.length, text: "Undo",
          on: { click: function () { state.calls.pop(); caller = null; save(); render(); } } }),
        el("button", { type: "button", "class": "big", id: "rule", text: "Rule",
          on: { click: function () { state.ruled = true; save(); render(); } } })]),
      el("p", { "class": "help", text: "Tap the calls as they were made. A call out of turn: tap its player first." })
    ]));
  }

  function answer(id, value) {
    state.findings[id] = BOOLEAN.indexOf(id) >= 0 ? value === "yes" : value;
    save(); render();
  }

  function renderRuling() {
    var r = ruleFor(state.edition);
    view.appendChild(tabs());
    view.appendChild(auctionTable());
    if (r.error) {
      view.appendChild(el("div", { "class": "checker-error", role: "alert" }, [el("h2", { text: "Please check the auction" }), el("p", { text: r.error })]));
      view.appendChild(el("button", { type: "button", "class": "big secondary", text: "Change the auction", on: { click: function () { state.ruled = false; save(); render(); } } }));
      return;
    }
    var irr = r.irregularity, sec = el("section", { "class": "ruling", "aria-live": "polite" });
    sec.appendChild(el("h2", { text: irr ? "Law " + irr.law + ": " + irr.kind.replace(/-/g, " ") + " by " + NAMES[irr.seat] : "No irregularity" }));
    if (r.carried_from) sec.appendChild(D.reviewNote(r));
    if (r.say) sec.appendChild(el("p", { "class": "say", text: r.say }));
    var q = r.questions[0];
    if (q) {
      var qs = el("div", { "class": "question", "data-question": q.id }, [el("p", { "class": "ask" }, [el("strong", { text: q.text }), " (" + q.cites.join(", ") + ")"])]);
      if (q.answers) qs.appendChild(el("div", { "class": "answers" }, q.answers.map(function (a) {
        return el("button", { type: "button", "class": "big answer", "data-value": a.value, text: a.label, on: { click: function () { answer(q.id, a.value); } } });
      })));
      else qs.appendChild(biddingBox(function (call) { answer(q.id, call); }, q.text));
      sec.appendChild(qs);
    }
    if (r.outcome) {
      var o = r.outcome, rows = [
        ["Offender's partner must pass", o.offender_partner_must_pass.replace(/_/g, " ")],
        ["Offender must pass", o.offender_must_pass.replace(/_/g, " ")],
        ["Lead restrictions", o.lead_restrictions ? o.lead_restrictions.text : "none"]];
      if (o.information) rows.push(["Information", o.information.text]);
      if (o.score_adjustment) rows.push(["Score adjustment", o.score_adjustment.when]);
      rows.push(["Next to call", o.next ? NAMES[o.next] : "no one: the auction is over"]);
      sec.appendChild(el("dl", { "class": "outcome" }, rows.reduce(function (acc, row) { return acc.concat([el("dt", { text: row[0] }), el("dd", { text: row[1] })]); }, [])));
    }
    if (r.options.length) {
      sec.appendChild(el("h3", { text: "The options" }));
      sec.appendChild(el("div", { "class": "options" }, r.options.map(function (o) {
        var live = q && q.kind === "option" && o.chosen === null && q.answers && q.answers.some(function (a) { return a.value === o.value; });
        return el("button", { type: "button", "class": "big option" + (o.chosen ? " chosen" : o.chosen === false ? " not-chosen" : ""), disabled: !live, text: o.text,
          on: { click: function () { answer(q.id, o.value); } } });
      })));
    }
    bundleEditions().forEach(function (e) {
      if (e === state.edition) return;
      var other = ruleFor(e), d = other.error ? [] : differences(r.outcome, other.outcome);
      var go = el("button", { type: "button", "class": "link", text: "See the " + e + " ruling", on: { click: function () { state.edition = e; save(); render(); } } });
      if (d.length) sec.appendChild(el("p", { "class": "difference" }, [el("strong", { text: "The " + e + " Laws differ" }), " (" + state.edition + " / " + e + "): " + d.join("; ") + ". ", go]));
      else if (r.outcome && other.outcome) sec.appendChild(el("p", { "class": "same" }, ["The " + e + " Laws give the same result here. ", go]));
    });
    sec.appendChild(el("h3", { text: "Provisions applied (" + state.edition + ")" }));
    sec.appendChild(D.citeList(bundle.texts[state.edition] || {}, state.edition, r.cites));
    view.appendChild(sec);
    view.appendChild(el("div", { "class": "row" }, [
      el("button", { type: "button", "class": "big secondary", id: "back", text: "Back",
        on: { click: function () {
          var keys = Object.keys(state.findings).filter(function (k) { return k !== "required_to_pass" && k !== "card" && k !== "change"; });
          if (keys.length) delete state.findings[keys[keys.length - 1]]; else state.ruled = false;
          save(); render(); } } }),
      el("button", { type: "button", "class": "big secondary", id: "restart", text: "New ruling",
        on: { click: function () { state = { edition: state.edition, dealer: "N", calls: [], findings: {}, ruled: false }; caller = null; save(); render(); } } })]));
  }

  function render() {
    view.textContent = "";
    if (state.ruled) renderRuling(); else { view.appendChild(tabs()); renderEntry(); }
    app.dataset.ready = "yes";
  }

  fetch("/rulings/auction.json", { credentials: "same-origin" }).then(function (r) {
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
