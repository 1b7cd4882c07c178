/* The rulings walker: laws/rulings/walker.py in JavaScript, for the phone
   offline.  Both follow the same data (laws/rulings/<period>/<edition>.json)
   and the same fixture cases must give the same answer from both: change
   them together. */
(function (root) {
  "use strict";
  var DEFAULTS = { offender_partner_must_pass: "none", offender_must_pass: "none",
    lead_restrictions: null, score_adjustment: null, information: null, next: null };
  var MAX_STEPS = 200;

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) {
      var v = values[k];
      return v === undefined || v === null ? m : String(v);
    });
  }

  /* An outcome field with its templates filled: every string in it, and
     each `seat` field mapped from a seat symbol to a seat. */
  function filled(obj, values, seat) {
    if (typeof obj === "string") return fill(obj, values);
    if (Array.isArray(obj)) return obj.map(function (v) { return filled(v, values, seat); });
    if (obj !== null && typeof obj === "object") {
      var out = {};
      Object.keys(obj).forEach(function (k) { out[k] = k === "seat" ? seat(obj[k]) : filled(obj[k], values, seat); });
      return out;
    }
    return obj;
  }

  /* A question's folded form (walker.py's _together): its text and the
     answers that hold here, each settling several facts at once. */
  function together(t, facts, values) {
    return { text: fill(t.text, values), answers: t.answers.filter(function (a) {
      var when = a.when || {};
      return Object.keys(when).every(function (k) { return when[k].indexOf(facts[k]) >= 0; }) &&
        Object.keys(a.facts).every(function (k) { return facts[k] === undefined || facts[k] === null || facts[k] === a.facts[k]; });
    }).map(function (a) { return { label: fill(a.label, values), facts: Object.assign({}, a.facts) }; }) };
  }

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function walk(data, kind, facts, values, seats) {
    var cites = [], says = [], options = [], questions = [], path = [], merged = {};
    function add(ids) { (ids || []).forEach(function (c) { if (cites.indexOf(c) < 0) cites.push(c); }); }
    function seat(sym) { return sym && Object.prototype.hasOwnProperty.call(seats, sym) ? seats[sym] : null; }
    var spec = data.kinds[kind];
    add(spec.cites);
    var node = spec.tree, pointer = "kinds/" + kind + "/tree", done = false, steps = 0;
    for (; steps < MAX_STEPS; steps++) {
      add(node.cites);
      if (node.say) says.push(fill(node.say, values));
      if ("use" in node) { pointer = "subtrees/" + node.use; node = data.subtrees[node.use]; continue; }
      if ("use_kind" in node) {
        var other = facts[node.use_kind];
        if (!data.kinds[other]) throw new Error(pointer + ": no kind " + other);
        add(data.kinds[other].cites);
        pointer = "kinds/" + other + "/tree"; node = data.kinds[other].tree; continue;
      }
      if ("on" in node) {
        var name = node.on, value = facts[name], option = node.option;
        if (value === undefined) value = null;
        if (option) {
          Object.keys(option.choices).forEach(function (key) {
            var choice = option.choices[key];
            options.push({ id: choice.id, value: key, who: seat(option.who), text: fill(choice.text, values),
              cites: (option.cites || node.cites || []).slice(), chosen: value === null ? null : value === key });
          });
        }
        if (value === null) {
          var ask = node.ask;
          if (!ask) throw new Error(pointer + ": fact " + name + " is unknown and the node asks nothing");
          questions.push({ id: ask.finding || name, text: fill(ask.text, values), kind: ask.kind,
            who: ask.who ? seat(ask.who) : null,
            answers: ask.answers === null || ask.answers === undefined ? null :
              Object.keys(ask.answers).map(function (v) { return { value: v, label: fill(ask.answers[v], values) }; }),
            cites: (ask.cites || node.cites || []).slice() });
          if (ask.together) questions[questions.length - 1].together = together(ask.together, facts, values);
          add(ask.cites);
          break;
        }
        if (!Object.prototype.hasOwnProperty.call(node.cases, value)) {
          var err = new Error(pointer + ": no case for " + name + " = " + value);
          // a question's answer (a finding) that this question does not take: walker.py's AnswerError
          if (node.ask || node.option) err.answer = { name: name, value: value, allowed: Object.keys(node.cases) };
          throw err;
        }
        path.push(pointer + "=" + value);
        pointer = pointer + "/cases/" + value; node = node.cases[value]; continue;
      }
      if ("outcome" in node) {
        Object.keys(node.outcome).forEach(function (k) { merged[k] = node.outcome[k]; });
        if ("then" in node) { pointer = "subtrees/" + node.then; node = data.subtrees[node.then]; continue; }
        done = true; break;
      }
      throw new Error(pointer + ": a node needs on, use, use_kind or outcome");
    }
    if (steps >= MAX_STEPS) throw new Error("kinds/" + kind + ": too many steps");
    var outcome = null;
    if (done) {
      outcome = {};
      var defaults = data.outcome_defaults || DEFAULTS;
      Object.keys(defaults).forEach(function (k) { outcome[k] = defaults[k]; });
      Object.keys(merged).forEach(function (k) { outcome[k] = filled(merged[k], values, seat); });
      (data.outcome_seats || ["next"]).forEach(function (k) { outcome[k] = seat(merged[k] || "none"); });
      Object.keys(outcome).forEach(function (k) { if (isObject(outcome[k])) add(outcome[k].cites); });
    }
    return { questions: questions, options: options, outcome: outcome, say: says.join(" "), cites: cites, path: path };
  }

  /* A code ruled by trees the build carried from an older code's
     (laws/rulings/data.py review_of): the reply says whose rulings they are,
     whether every cite it makes was found the same or reviewed, and what
     changed where not.  Nothing is added for a code with rulings of its own. */
  function reviewOf(data, reply) {
    var carried = data.carried, pending = [];
    if (!carried) return reply;
    (function see(v) {
      if (Array.isArray(v)) v.forEach(see);
      else if (v && typeof v === "object") Object.keys(v).forEach(function (k) {
        if (k === "cites" && Array.isArray(v[k])) v[k].forEach(function (c) {
          if (typeof c === "string" && Object.prototype.hasOwnProperty.call(carried.notes, c) && pending.indexOf(c) < 0) pending.push(c);
        });
        else see(v[k]);
      });
    })(reply);
    reply.carried_from = carried.from;
    reply.reviewed = !pending.length;
    reply.review = pending.length ? "not yet reviewed for " + data.edition + ": " + pending.map(function (c) { return carried.notes[c]; }).join("; ") : null;
    return reply;
  }

  /* The editions of a bundle in the order the site lists them (the server
     sends it as `order`: laws.rulings.data.editions): the code in force
     first, the default; a published code next, ruled only when asked for.
     An edition missing from `order` comes after, newest first. */
  function editionOrder(editions, order) {
    var keys = Object.keys(editions);
    var first = (order || []).filter(function (e) { return keys.indexOf(e) >= 0; });
    return first.concat(keys.filter(function (e) { return first.indexOf(e) < 0; }).sort().reverse());
  }

  root.LawbookRulings = root.LawbookRulings || {};
  root.LawbookRulings.editionOrder = editionOrder;
  root.LawbookRulings.walk = walk;
  root.LawbookRulings.reviewOf = reviewOf;
  root.LawbookRulings.fill = fill;
})(typeof self !== "undefined" ? self : this);
