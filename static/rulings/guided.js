/* Guided rulings and ruling records in the browser.
   - LawbookGuided.rule: laws/rulings/guided/__init__.py's rule, over the same
     walker (walker.js) and the same data (/rulings/guided.json); the browser
     tests require both to answer every path of every procedure alike.
   - Offline, the service worker answers a ruling's address with the page kept
     without its query; this script then draws the step (or the record) from
     the address, so the flow and the record reopen with no network.  The
     record itself (guided, auction or play) is made by record.js, the same
     data as the server's.
   - The record's buttons: print, copy as text, save on this phone
     (localStorage, listed at /rulings/saved). */
(function (root) {
  "use strict";
  var FIELDS = ["result", "ruling", "score_adjustment", "information", "penalty", "see", "record"];
  var STORE_KEY = "lawbook-records";

  function reachable(data, tree, seen, out) {
    (function visit(node) {
      out.push(node);
      Object.keys(node.cases || {}).forEach(function (k) { visit(node.cases[k]); });
      /* through `use` and through `then` (an ending continued into a shared subtree), as guided/__init__.py */
      [node.use, node.then].forEach(function (name) {
        if (name && !seen[name]) { seen[name] = true; reachable(data, data.subtrees[name], seen, out); }
      });
    })(tree);
    return out;
  }

  function asks(data, procedure) {
    var out = {};
    reachable(data, data.kinds[procedure].tree, {}, []).forEach(function (n) { if ("on" in n) out[n.on] = n.ask; });
    return out;
  }

  function resolve(data, pointer) {
    return pointer.split("/").reduce(function (node, part) { return node[part]; }, data);
  }

  function rule(data, procedure, answers) {
    var out = root.LawbookRulings.walk(data, procedure, answers, {}, {});
    var questions = asks(data, procedure);
    var answered = out.path.map(function (step) {
      var i = step.lastIndexOf("="), fact = resolve(data, step.slice(0, i)).on, value = step.slice(i + 1);
      var ask = questions[fact];
      return { id: fact, text: ask.text, kind: ask.kind, value: value, label: ask.answers[value],
        cites: ask.cites.slice() };
    });
    var pending = out.questions.map(function (q) {
      var copy = {};
      Object.keys(q).forEach(function (k) { copy[k] = q[k]; });
      copy.terms = (questions[q.id].terms || []).map(function (t) { return { id: "def:" + t, term: t }; });
      return copy;
    });
    var cites = out.cites.slice(), outcome = null;
    if (out.outcome) {
      outcome = {};
      FIELDS.forEach(function (k) { outcome[k] = out.outcome[k] === undefined ? null : out.outcome[k]; });
      ((outcome.penalty || {}).cites || []).forEach(function (c) { if (cites.indexOf(c) < 0) cites.push(c); });
    }
    var spec = data.kinds[procedure];
    return root.LawbookRulings.reviewOf(data, { edition: data.edition, procedure: procedure, title: spec.title, laws: spec.laws, questions: pending,
      answered: answered, outcome: outcome, say: out.say, cites: cites, path: out.path });
  }

  /* --- drawing, offline -------------------------------------------------------- */
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (k) { if (k) e.appendChild(typeof k === "string" ? document.createTextNode(k) : k); });
    return e;
  }

  function query(obj) {
    return Object.keys(obj).filter(function (k) { return obj[k]; }).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(obj[k]).replace(/%20/g, "+");
    }).join("&");
  }

  function params() {
    var out = {}, q = new URLSearchParams(location.search);
    q.forEach(function (v, k) { out[k] = v; });
    if (q.getAll("calc").length) out.calc = q.getAll("calc");  /* the results carried from the checkers */
    return out;
  }

  function citeLinks(ids, texts) {
    var span = el("span", { "class": "cites-inline" }, ["("]);
    ids.forEach(function (c, i) {
      span.appendChild(el("a", { href: (texts[c] || {}).url || "#", text: c }));
      if (i < ids.length - 1) span.appendChild(document.createTextNode(", "));
    });
    span.appendChild(document.createTextNode(")"));
    return span;
  }

  function state(bundle, procedure, args) {
    var editions = root.LawbookRulings.editionOrder(bundle.editions, bundle.order);
    var edition = args.edition && bundle.editions[args.edition] ? args.edition : editions[0];
    var data = bundle.editions[edition];
    if (!data.kinds[procedure]) throw new Error("There is no guided procedure " + procedure + ".");
    var questions = asks(data, procedure), answers = {};
    Object.keys(questions).forEach(function (k) { if (args[k] && questions[k].answers[args[k]]) answers[k] = args[k]; });
    return { edition: edition, data: data, editions: editions, answers: answers, ruling: rule(data, procedure, answers) };
  }

  function drawStep(app, bundle, procedure) {
    var s = state(bundle, procedure, params()), r = s.ruling, texts = bundle.texts[s.edition] || {};
    var defs = bundle.definitions[s.edition] || {}, path = "/rulings/guided/" + procedure;
    var kept = {};
    r.answered.forEach(function (a) { kept[a.id] = a.value; });
    app.textContent = "";
    app.appendChild(el("p", { "class": "breadcrumb" }, [el("a", { href: "/rulings", text: "Rulings" }), " › ",
      el("a", { href: "/rulings/guided", text: "Guided" })]));
    app.appendChild(el("h1", { text: r.title }));
    var nav = el("nav", { "class": "editions", "aria-label": "Edition" },
      [el("span", { "class": "edition current", "aria-current": "true", text: s.edition + " Laws" })]);
    s.editions.forEach(function (e) {
      /* no tab for an edition without this procedure (the rubber code has a subset), as laws/web/guided.py */
      if (e !== s.edition && bundle.editions[e].kinds[procedure]) nav.appendChild(el("a", { "class": "edition", href: path + "?" + query({ edition: e }), text: e + " Laws" }));
    });
    app.appendChild(nav);
    /* a ruling by trees carried from an older code says so, as the server's page does */
    if (r.carried_from) app.appendChild(el("p", { "class": "review-note", id: "review-note", role: "note" }, ["Ruled by the " + r.carried_from + " rulings carried into the " + r.edition + " Laws" +
      (r.reviewed ? ", each provision cited the same or reviewed." : "; "), r.reviewed ? null : el("strong", { text: r.review }), r.reviewed ? null : "."]));
    var q = r.questions[0];
    if (r.answered.length) {
      var ol = el("ol", { "class": "steps" }), soFar = { edition: s.edition };
      r.answered.forEach(function (a) {
        var change = path + "?" + query(soFar);
        ol.appendChild(el("li", {}, [el("p", { "class": "q" }, [a.text + " ", citeLinks(a.cites, texts)]),
          el("p", { "class": "a" }, [el("strong", { text: a.label }), " ", el("a", { "class": "change", href: change, text: "Change" })])]));
        soFar[a.id] = a.value;
      });
      /* folded to one line while a question waits (templates/rulings/guided.html) */
      var n = r.answered.length;
      var trail = el("details", { "class": "trail" }, [el("summary", {}, [
        el("span", { "class": "trail-count", text: n + " answer" + (n === 1 ? "" : "s") + ":" }), " ",
        el("span", { "class": "trail-answers", text: r.answered.map(function (a) { return a.label; }).join(" · ") })]), ol]);
      if (!q) trail.setAttribute("open", "");
      app.appendChild(trail);
    }
    if (q) {
      var form = el("form", { "class": "question", method: "get", action: path });
      form.appendChild(el("input", { type: "hidden", name: "edition", value: s.edition }));
      Object.keys(kept).forEach(function (k) { form.appendChild(el("input", { type: "hidden", name: k, value: kept[k] })); });
      form.appendChild(el("p", { "class": "kind", text: q.kind === "judgement" ? "Your judgement" : q.kind === "option" ? "A choice the Laws give" : "A fact" }));
      form.appendChild(el("p", { "class": "ask" }, [el("strong", { text: q.text }), " ", citeLinks(q.cites, texts)]));
      if (q.terms.length) {
        var terms = el("p", { "class": "terms" }, ["Terms: "]);
        q.terms.forEach(function (t, i) {
          var d = defs[t.term] || {};
          terms.appendChild(el("a", { href: d.url || "#", title: d.text || "", text: t.term }));
          if (i < q.terms.length - 1) terms.appendChild(document.createTextNode(", "));
        });
        form.appendChild(terms);
      }
      var answers = el("div", { "class": "answers" });
      q.answers.forEach(function (a) {
        answers.appendChild(el("button", { "class": "big", type: "submit", name: q.id, value: a.value, text: a.label }));
      });
      form.appendChild(answers);
      app.appendChild(form);
    }
    var o = r.outcome, recordState = { edition: s.edition };
    Object.keys(kept).forEach(function (k) { recordState[k] = kept[k]; });
    recordState.procedure = procedure;
    if (o) {
      var sec = el("section", { "class": "ruling", "aria-labelledby": "ruling-h" }, [el("h2", { id: "ruling-h", text: "Ruling" })]);
      if (r.say) sec.appendChild(el("p", { "class": "say", text: r.say }));
      sec.appendChild(el("p", { "class": "decision result-" + o.result }, [el("strong", { text: o.ruling })]));
      if (o.score_adjustment) {
        var adj = el("p", { "class": "adjustment" }, [el("strong", { text: "Score adjustment:" }), " " + o.score_adjustment.when + " "]);
        if (o.score_adjustment.checker) adj.appendChild(el("a", { href: "/checkers/" + o.score_adjustment.checker + "?" + query({ record: query(recordState) }), text: "Open the " + o.score_adjustment.checker + " checker" }));
        sec.appendChild(adj);
      }
      if (o.information) sec.appendChild(el("p", { "class": "information" }, [el("strong", { text: "Information:" }), " " + o.information.text]));
      if (o.penalty) sec.appendChild(el("p", { "class": "penalty" }, [el("strong", { text: "Procedural penalty (your option):" }), " " + o.penalty.text]));
      if (o.see) sec.appendChild(el("p", { "class": "see" }, [el("a", { "class": "big secondary", href: "/rulings/guided/" + o.see + "?edition=" + s.edition, text: "Continue: " + o.see.replace(/-/g, " ") })]));
      if (o.record && o.record.length) sec.appendChild(el("p", { "class": "keep" }, [el("strong", { text: "Record:" }), " " + o.record.join("; ") + "."]));
      sec.appendChild(el("h3", { text: "Provisions applied (" + s.edition + ")" }));
      var ul = el("ul", { "class": "cites" });
      r.cites.forEach(function (c) {
        var t = texts[c] || {};
        ul.appendChild(el("li", {}, [el("details", {}, [el("summary", { text: (t.label || "Law " + c) + (t.heading ? " — " + t.heading : "") }),
          t.text ? el("p", { "class": "provision-text", text: t.text }) : null, el("a", { href: t.url || "#", text: "Open Law " + c })])]));
      });
      sec.appendChild(ul);
      var rf = el("form", { "class": "record-form", method: "get", action: "/rulings/record" }, [el("h3", { text: "Make the ruling record" })]);
      rf.appendChild(el("input", { type: "hidden", name: "procedure", value: procedure }));
      rf.appendChild(el("input", { type: "hidden", name: "edition", value: s.edition }));
      Object.keys(kept).forEach(function (k) { rf.appendChild(el("input", { type: "hidden", name: k, value: kept[k] })); });
      /* the record's fields have no name: they go into the record's fragment, never to the server (wireRecordForm) */
      var fields = el("div", { "class": "record-fields" });
      [["event", "Event"], ["board", "Board"], ["table", "Table"], ["director", "Director"], ["facts", "Facts"], ["adjustment", "Score adjustment"]].forEach(function (f) {
        var input = f[0] === "facts" ? el("textarea", { id: "r-" + f[0], "data-record-field": f[0], rows: "4" }) : el("input", { id: "r-" + f[0], "data-record-field": f[0] });
        var help = f[0] === "adjustment" && o.score_adjustment ? el("p", { "class": "help", id: "r-adjustment-help",
          text: "Or compute it from the record with the score checkers: each result is carried into the record with the provisions it applies." }) : null;
        if (help) input.setAttribute("aria-describedby", "r-adjustment-help");
        fields.appendChild(el("div", { "class": "field" }, [el("label", { "for": "r-" + f[0], text: f[1] }), input, help]));
      });
      rf.appendChild(fields);
      rf.appendChild(el("p", {}, [el("button", { "class": "big", type: "submit", text: "Make the record" })]));
      sec.appendChild(rf);
      app.appendChild(sec);
      wireRecordForm(app);
    }
    app.appendChild(el("p", {}, [el("a", { "class": "big secondary", href: path + "?" + query({ edition: s.edition }), text: "Start again" })]));
    document.title = r.title + (o ? ": ruling" : "") + " — Lawbook";
  }

  function drawRecord(app, rec, words, texts) {
    var actions = app.querySelector(".record-actions"), pre = document.getElementById("record-text");
    Array.prototype.slice.call(app.children).forEach(function (c) { if (c !== actions && c !== pre) app.removeChild(c); });
    var body = [el("p", { "class": "breadcrumb noprint" }, [el("a", { href: "/rulings", text: "Rulings" }), " › ",
      el("a", { href: "/rulings/saved", text: "Saved records" })]), el("h1", { text: "Ruling record" })];
    var head = el("dl", { "class": "record-head" }, [el("dt", { text: "Ruling" }), el("dd", { text: rec.title + " (" + rec.edition + " Laws)" })]);
    words.context.forEach(function (f) { if (f[0] !== "facts" && f[0] !== "adjustment" && rec[f[0]]) { head.appendChild(el("dt", { text: f[1] })); head.appendChild(el("dd", { text: rec[f[0]] })); } });
    if (rec.entered) { head.appendChild(el("dt", { text: "Entered" })); head.appendChild(el("dd", { text: rec.entered })); }
    body.push(head);
    if (rec.facts) body.push(el("h2", { text: "Facts" }), el("p", { "class": "facts", text: rec.facts }));
    if (rec.steps.length) {
      var ol = el("ol", { "class": "steps" });
      rec.steps.forEach(function (s) { ol.appendChild(el("li", {}, [el("p", { "class": "q" }, [s.question + " ", el("span", { "class": "cites-inline", text: "[" + s.cites.join(", ") + "]" })]), el("p", { "class": "a" }, [el("strong", { text: s.answer })])])); });
      body.push(el("h2", { text: "Questions and answers" }), ol);
    }
    body.push(el("h2", { text: "Ruling" }), el("p", { "class": "decision" }, [el("strong", { text: rec.ruling })]));
    rec.notes.forEach(function (n) { body.push(el("p", { text: n })); });
    if (rec.score_adjustment || rec.adjustment || rec.adjusted || rec.uncomputed) {
      body.push(el("h2", { text: "Score adjustment" }));
      if (rec.score_adjustment) body.push(el("p", { text: rec.score_adjustment }));
      if (rec.uncomputed) body.push(el("p", { "class": "uncomputed", text: "This record carries " + rec.uncomputed.length +
        " result(s) of the score checkers, which are computed with a connection: open this link online (or this record from Saved records if it was saved)." }));
      if (rec.adjustment) body.push(el("p", { "class": "adjustment-entered" }, [el("strong", { text: rec.adjustment })]));
    }
    if (rec.keep.length) body.push(el("p", { "class": "keep" }, [el("strong", { text: "To record:" }), " " + rec.keep.join("; ") + "."]));
    var dl = el("dl", { "class": "provisions" });
    rec.provisions.forEach(function (p) {
      dl.appendChild(el("dt", {}, [el("a", { href: (texts[p.id] || {}).url || "#", text: "Law " + p.id }), p.heading ? " — " + p.heading : ""]));
      dl.appendChild(el("dd", { text: p.text }));
    });
    body.push(el("h2", { text: "Provisions applied (" + rec.edition + " Laws)" }), dl);
    body.forEach(function (b) { app.insertBefore(b, actions); });
    app.insertBefore(editContext(rec, words), pre);
    pre.textContent = root.LawbookRecord.text(words, rec);
    document.title = "Ruling record: " + rec.title + (rec.board ? ", board " + rec.board : "") + " — Lawbook";
  }

  /* the record's fields: the form, as on the server's page; record.js adds
     the fields (no name: they go into the fragment, never to the server) */
  function editContext(rec, words) {
    var form = el("form", { method: "get", action: "/rulings/record" });
    new URLSearchParams(location.search).forEach(function (v, k) {
      form.appendChild(el("input", { type: "hidden", name: k, value: v }));
    });
    form.appendChild(el("p", {}, [el("button", { "class": "big", type: "submit", text: "Update the record" })]));
    return el("details", { "class": "noprint edit-context", hidden: "" }, [el("summary", { text: "Date, event, board, facts, players, hands…" }), form]);
  }

  /* "Make the ruling record" on a step: the ruling goes in the record's query,
     what the Director wrote (event, board, director, facts…) in its fragment (#…),
     which the browser never sends.  Without JavaScript the fields are not
     offered (they would be lost): the record's page has blank lines for them. */
  function wireRecordForm(app) {
    var form = app.querySelector("form.record-form");
    if (!form || form.dataset.wired) return;
    form.dataset.wired = "yes";
    Array.prototype.slice.call(form.querySelectorAll(".record-fields")).forEach(function (f) { f.hidden = false; });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var q = new URLSearchParams(), h = new URLSearchParams();
      Array.prototype.slice.call(form.querySelectorAll("input[type=hidden][name]")).forEach(function (i) { q.append(i.name, i.value); });
      Array.prototype.slice.call(form.querySelectorAll("[data-record-field]")).forEach(function (i) {
        if (i.value.trim()) h.set(i.dataset.recordField, i.value.trim());
      });
      location.assign("/rulings/record?" + q.toString() + (h.toString() ? "#" + h.toString() : ""));
    });
  }

  function assign(target, source) { Object.keys(source).forEach(function (k) { target[k] = source[k]; }); return target; }

  /* --- the record's buttons ------------------------------------------------------ */
  function saved() {
    try { return JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { return []; }
  }

  function status(text) {
    var s = document.getElementById("status");
    if (s) { s.textContent = text; s.classList.add("shown"); setTimeout(function () { s.classList.remove("shown"); }, 2500); }
  }

  function wireRecord() {
    var pre = document.getElementById("record-text");
    if (!pre || !pre.textContent.trim()) return;
    var printB = document.getElementById("print-record"), copyB = document.getElementById("copy-record"),
      saveB = document.getElementById("save-record");
    [printB, copyB, saveB].forEach(function (b) { b.hidden = false; });
    printB.addEventListener("click", function () { window.print(); });
    copyB.addEventListener("click", function () {
      var done = function () { status("Copied as text."); copyB.dataset.copied = "yes"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(pre.textContent).then(done, function () { status("Select the text below to copy it."); pre.hidden = false; });
      } else { pre.hidden = false; status("Select the text below to copy it."); }
    });
    saveB.addEventListener("click", function () {
      var list = saved().filter(function (r) { return r.url !== location.pathname + location.search; });
      list.unshift({ url: location.pathname + location.search, title: document.title.replace(/ — Lawbook$/, ""),
        saved: new Date().toISOString(), text: pre.textContent });
      try { localStorage.setItem(STORE_KEY, JSON.stringify(list.slice(0, 200))); status("Saved on this phone."); saveB.textContent = "Saved"; }
      catch (e) { status("This browser would not save it: copy the text instead."); }
    });
  }

  function drawSaved() {
    var list = saved(), ol = document.getElementById("saved-list"), empty = document.getElementById("saved-empty"),
      clear = document.getElementById("clear-saved");
    ol.textContent = "";
    list.forEach(function (r) {
      ol.appendChild(el("li", {}, [el("a", { href: r.url, text: r.title }), " ", el("span", { "class": "when", text: new Date(r.saved).toLocaleString() })]));
    });
    empty.hidden = list.length > 0;
    clear.hidden = list.length === 0;
    clear.onclick = function () { localStorage.removeItem(STORE_KEY); drawSaved(); };
  }

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) { if (!r.ok) throw new Error(url + ": " + r.status); return r.json(); });
  }

  function start() {
    var app = document.getElementById("guided-app");
    if (!app) return;
    var page = app.dataset.page;
    if (page === "saved") { drawSaved(); return; }
    var current = location.search.replace(/^\?/, "");
    var stale = current !== (app.dataset.state || "");  /* the page kept for another address: draw this one */
    if (!stale) { if (page === "record") wireRecord(); else if (page === "step") wireRecordForm(app); return; }
    var args = params(), mechanical = page === "record" && (args.procedure === "auction" || args.procedure === "play");
    if (page === "record" && !args.procedure) return;
    Promise.all([getJSON("/rulings/guided.json"), mechanical ? getJSON("/rulings/" + args.procedure + ".json") : null]).then(function (got) {
      var bundle = got[0];
      if (page === "step") { drawStep(app, bundle, app.dataset.procedure); return; }
      var rec, texts;
      if (mechanical) {
        rec = root.LawbookRecord.mechanical(bundle.record, args.procedure, got[1], args);
        texts = got[1].texts[rec.edition] || {};
      } else {
        rec = root.LawbookRecord.guided(bundle, args);
        texts = bundle.texts[rec.edition] || {};
      }
      drawRecord(app, rec, bundle.record, texts);
      wireRecord();
    }).catch(function (e) { status("This ruling cannot be drawn offline: " + e.message); });
  }

  root.LawbookGuided = { rule: rule, asks: asks };
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
  }
})(typeof self !== "undefined" ? self : this);
