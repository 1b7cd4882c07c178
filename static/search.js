/* Search with no connection: the documents of /offline/search.json indexed by
   MiniSearch (static/vendor/minisearch.js) and ranked the way the server
   ranks them (search/query.py; search/offline.py says what the payload holds):
   - words are analysed by the server's own table (word -> term), so spelling,
     stemming and stop words are the server's;
   - the directors' vocabulary expands the words, an expansion counting less;
   - each word of the question scores its best alternative; a document scores
     the sum, scaled by the share of the words it has, doubled when it has all;
   - guide topics that match point to the laws they are tagged with; topics and
     definitions come after provisions, another family's code after the
     duplicate codes, the code in force first;
   - results are grouped one per law, headed by its best provision, with a
     second entry for another rule of the same law that scores near it;
   - a citation (27B1) comes first, "what changed in Law 40" gives the
     comparison, and a law no code has says so.
   Works in the page and in a test harness: LawbookSearch.create(payload). */
(function (root) {
  "use strict";
  var WORD = /[\p{L}\p{N}]+(?:['’‘`][\p{L}\p{N}]+)*['’]?|[♠♤♥♡♦♢♣♧]/gu;
  var CHANGED = /^\s*(?:what\s+(?:has\s+|was\s+|is\s+)?)?(?:changed?|changes|differences?|new|compare|comparison)\s+(?:(?:in|to|of|for)\s+)?(?:the\s+)?laws?\s*(\d{1,2})\s*\??\s*$|^\s*laws?\s*(\d{1,2})\s+(?:changes|changed|differences|compared?|comparison)\s*\??\s*$/i;

  function words(text) { return (String(text || "").match(WORD) || []).map(function (w) { return w.toLowerCase(); }); }

  function Engine(payload) {
    var self = this;
    var cols = payload.columns, strings = payload.strings, fields = payload.fields;
    this.fields = fields;
    this.terms = payload.terms;
    this.rk = payload.ranking;
    this.editions = payload.editions;
    this.fillers = new Set(this.rk.fillers);
    // a document's searched fields are places in `strings` (search/offline.py)
    var isText = new Set(fields);
    this.docs = payload.docs.map(function (row, i) {
      var d = { id: i };
      cols.forEach(function (c, j) { d[c] = isText.has(c) ? strings[row[j]] : row[j]; });
      // a provision's address is left out of the payload where it is the usual one (search/offline.py `_url`)
      if (d.kind === "law" && !d.url) d.url = "/" + d.edition + "/law/" + d.law + (d.provision === String(d.law) ? "" : "#" + d.provision);
      return d;
    });
    this.byKey = {};
    this.docs.forEach(function (d) { if (d.kind === "law") self.byKey[d.edition + "|" + d.provision] = d; });
    this.edition = {};
    this.editions.forEach(function (e) { self.edition[e.id] = e; });
    this.codes = this.editions.filter(function (e) { return e.kind === "code"; })
      .sort(function (a, b) { return (b.in_force ? 1 : 0) - (a.in_force ? 1 : 0) || b.year - a.year; });
    this.inForce = (this.codes.filter(function (e) { return e.in_force; })[0] || {}).id;
    this.mainFamily = this.codes.length ? this.codes[0].family : null;
    var guide = this.editions.filter(function (e) { return e.kind === "guide"; })[0];
    this.guideFamily = guide ? guide.family : this.mainFamily;
    this.synonyms = new Map();
    this.longest = 0;
    payload.synonyms.forEach(function (e) {
      self.synonyms.set(e[0].join(" "), e[1]);
      self.longest = Math.max(self.longest, e[0].length);
    });
    this.handoff = payload.handoff || null;
    this.cache = new Map();
    // stop words are dropped by the tokenizer, so that a field's length is
    // its number of terms, as Whoosh counts it
    this.ms = new root.MiniSearch({
      fields: fields,
      storeFields: [],
      tokenize: function (text) { return words(text).filter(function (w) { return self.term(w); }); },
      processTerm: function (w) { return self.term(w); }
    });
    this.ms.addAll(this.docs);
    this.whooshLengths(fields);
  }

  /* BM25F's field lengths as Whoosh counts them (search/index.py `Analyser`):
     every term of the field, not MiniSearch's count of distinct words, each
     stored rounded up to a length of Whoosh's one-byte table, and the
     average over the exact lengths.  MiniSearch 7.2.0 keeps them in
     _fieldLength and _avgFieldLength; without this a field that repeats a
     word ("declarer" in five table phrases) ranks otherwise than online. */
  Engine.prototype.whooshLengths = function (fields) {
    var ms = this.ms, table = this.rk.lengths, self = this;
    if (!table || !ms._fieldLength || !ms._avgFieldLength) return;
    var stored = function (n) {
      var lo = 0, hi = table.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (table[mid] < n) lo = mid + 1; else hi = mid; }
      return lo < table.length ? table[lo] : table[table.length - 1];
    };
    var sums = {};
    fields.forEach(function (f) { sums[ms._fieldIds[f]] = 0; });
    this.docs.forEach(function (d) {
      var lengths = ms._fieldLength.get(ms._idToShortId.get(d.id));
      if (!lengths) return;
      fields.forEach(function (f) {
        var fid = ms._fieldIds[f], n = words(d[f]).filter(function (w) { return self.term(w); }).length;
        sums[fid] += n;
        lengths[fid] = stored(n);
      });
    });
    Object.keys(sums).forEach(function (fid) { ms._avgFieldLength[fid] = sums[fid] / ms.documentCount || 1; });
  };

  /* A typed word as the index knows it (null: a stop word). */
  Engine.prototype.term = function (w) {
    if (Object.prototype.hasOwnProperty.call(this.terms, w)) return this.terms[w];
    var x = w.replace(/['’‘`]s$/, "").replace(/['’‘`]/g, "");
    if (x !== w && Object.prototype.hasOwnProperty.call(this.terms, x)) return this.terms[x];
    var m = /^(\d+)(?:st|nd|rd|th)$/.exec(x);
    return m ? m[1] : x;
  };

  /* The question's terms in slots (search/synonyms.py `expand`). */
  Engine.prototype.slots = function (q) {
    var self = this;
    var typed = words(q);
    var kept = typed.filter(function (w) { return !self.fillers.has(w); });
    if (typed.length > 1 && kept.length) typed = kept;
    var terms = [];
    typed.forEach(function (w) { var t = self.term(w); if (t && terms.length < self.rk.max_terms) terms.push(t); });
    var slots = [], i = 0;
    while (i < terms.length) {
      var found = false;
      for (var size = Math.min(this.longest, terms.length - i); size > 0; size--) {
        var key = terms.slice(i, i + size);
        var alts = this.synonyms.get(key.join(" "));
        if (alts) { slots.push({ typed: key, alts: alts }); i += size; found = true; break; }
      }
      if (!found) { slots.push({ typed: [terms[i]], alts: [] }); i++; }
    }
    return slots;
  };

  /* Whoosh's BM25F (search/index.py SharedBM25F) from MiniSearch's: the same
     k1 and b (and no BM25+ "d"), one field at a time, and Whoosh's idf in place
     of MiniSearch's, from the same document frequency. */
  var BM25 = { k: 1.2, b: 0.75, d: 0 };

  Engine.prototype.fieldScores = function (t, field) {
    var key = field + "\u0000" + t, found = this.cache.get(key);
    if (found) return found;
    var self = this;
    var rs = this.ms.search(t, { fields: [field], boost: {}, bm25: BM25, processTerm: function (x) { return x; },
      fuzzy: function (x) { return self.isKnown(x) ? false : 0.25; }, prefix: false });
    var N = this.ms.documentCount, n = rs.length;
    var ratio = (Math.log(N / (n + 1)) + 1) / Math.log(1 + (N - n + 0.5) / (n + 0.5));
    found = new Map();
    rs.forEach(function (r) { found.set(r.id, r.score * ratio); });
    if (this.cache.size > 2000) this.cache.clear();
    this.cache.set(key, found);
    return found;
  };

  /* A document's terms in `field`, in order (the positions Whoosh keeps). */
  Engine.prototype.positions = function (id, field) {
    var self = this;
    return words(this.docs[id][field]).map(function (w) { return self.term(w); }).filter(function (t) { return t; });
  };

  /* True when the terms of `phrase` stand in order in `field`, each at most
     1 + slop after the one before (search/query.py `_in_order`). */
  Engine.prototype.inOrder = function (id, field, phrase, slop) {
    var toks = this.positions(id, field);
    for (var i = 0; i < toks.length; i++) {
      if (toks[i] !== phrase[0]) continue;
      var prev = i, ok = true;
      for (var j = 1; j < phrase.length && ok; j++) {
        ok = false;
        for (var p = prev + 1; p <= prev + 1 + slop && p < toks.length; p++) {
          if (toks[p] === phrase[j]) { prev = p; ok = true; break; }
        }
      }
      if (ok) return true;
    }
    return false;
  };

  /* Documents with every term of `phrase` in `field`: the sum of the terms'
     scores, halved unless they stand in order (search/query.py `_phrase`). */
  Engine.prototype.phraseScores = function (phrase, field, slop) {
    var self = this, per = phrase.map(function (t) { return self.fieldScores(t, field); });
    var out = new Map();
    per[0].forEach(function (v, id) {
      var total = v;
      for (var i = 1; i < per.length; i++) {
        if (!per[i].has(id)) return;
        total += per[i].get(id);
      }
      out.set(id, self.inOrder(id, field, phrase, slop) ? total : 0.5 * total);
    });
    return out;
  };

  Engine.prototype.score = function (slots) {
    var self = this, totals = new Map(), matched = new Map();
    var boost = this.rk.boost, fields = Object.keys(boost), tiebreak = this.rk.field_tiebreak;
    // a long question is told in the player's own words: the situations weigh more (Ranking.long_question)
    if (slots.length >= this.rk.long_question) {
      boost = Object.assign({}, boost, { situations: this.rk.long_situations });
    }
    slots.forEach(function (slot) {
      var best = new Map(), summed = new Map();
      [[slot.typed, 1]].concat(slot.alts.map(function (a) { return [a, self.rk.expansion]; })).forEach(function (pair) {
        var phrase = pair[0], weight = pair[1];
        fields.forEach(function (field) {
          var found = phrase.length === 1 ? self.fieldScores(phrase[0], field) : self.phraseScores(phrase, field, 1);
          var f = boost[field] * weight;
          found.forEach(function (sc, id) {
            var v = sc * f;
            summed.set(id, (summed.get(id) || 0) + v);
            if (v > (best.get(id) || 0)) best.set(id, v);
          });
        });
      });
      self.citedByEntries(best, summed);
      best.forEach(function (b, id) {
        totals.set(id, (totals.get(id) || 0) + b + tiebreak * (summed.get(id) - b));
        matched.set(id, (matched.get(id) || 0) + 1);
      });
    });
    var n = slots.length;
    if (n > 1) {
      totals.forEach(function (v, id) {
        var m = matched.get(id);
        totals.set(id, v * Math.pow(m / n, self.rk.coordination) * (m === n ? 1 + self.rk.all_terms_bonus : 1));
      });
      // the words standing together, in some field (or in an index entry citing it)
      var flat = [];
      slots.forEach(function (s) { flat = flat.concat(s.typed); });
      var together = new Set();
      totals.forEach(function (v, id) {
        if (matched.get(id) !== n) return;
        for (var i = 0; i < fields.length; i++) {
          if (self.inOrder(id, fields[i], flat, 2)) { together.add(id); break; }
        }
      });
      if (this.rk.index_weight) {
        together.forEach(function (id) {
          (self.docs[id].cites || []).forEach(function (c) { together.add(c[0]); });
        });
      }
      together.forEach(function (id) {
        if (totals.has(id)) totals.set(id, totals.get(id) * (1 + self.rk.phrase_bonus));
      });
    }
    return totals;
  };

  /* The index entries matching a slot give what they cite their score; only
     the best entry counts (search/query.py `_cited_by_entries`). */
  Engine.prototype.citedByEntries = function (best, summed) {
    var self = this, w = this.rk.index_weight, top = new Map();
    if (!w) return;
    best.forEach(function (v, id) {
      var cites = self.docs[id].cites;
      if (!cites || !cites.length) return;
      cites.forEach(function (c) {
        var x = v * w * c[1];
        if (x > (top.get(c[0]) || 0)) top.set(c[0], x);
      });
    });
    top.forEach(function (x, id) {
      summed.set(id, (summed.get(id) || 0) + x);
      if (x > (best.get(id) || 0)) best.set(id, x);
    });
  };

  Engine.prototype.isKnown = function (t) {
    if (!this._known) {
      var k = new Set();
      for (var w in this.terms) if (this.terms[w]) k.add(this.terms[w]);
      this._known = k;
    }
    return this._known.has(t) || /^\d+$/.test(t) || t.length <= 3;
  };

  Engine.prototype.cited = function (q, edition, among) {
    var C = root.LawbookCite;
    var parsed = C && C.parse(q);
    if (!parsed) return null;
    var eds = this.codes.filter(function (e) { return (!edition || e.id === edition) && (!among || among.has(e.id)); });
    var cands = C.candidates(parsed[1]);
    for (var i = 0; i < cands.length; i++) {
      for (var j = 0; j < eds.length; j++) {
        var d = this.byKey[eds[j].id + "|" + cands[i]];
        if (d) return d;
      }
    }
    return null;
  };

  function lawRanges(ns) {
    ns = ns.slice().sort(function (a, b) { return a - b; });
    var out = [], start = ns[0], prev = ns[0];
    for (var i = 1; i <= ns.length; i++) {
      var n = ns[i];
      if (n === prev + 1) { prev = n; continue; }
      out.push(prev !== start ? start + "–" + prev : String(start));
      start = prev = n;
    }
    return out.join(", ");
  }

  Engine.prototype.intent = function (q, edition, among) {
    var m = CHANGED.exec(q);
    if (m) {
      var law = parseInt(m[1] || m[2], 10), self = this;
      var fam = this.codes.filter(function (e) { return e.family === self.mainFamily && e.laws.indexOf(law) >= 0; });
      if (fam.length >= 2) {
        var newer = fam[0];
        var older = fam.slice(1).filter(function (e) { return e.year < newer.year; })
          .sort(function (a, b) { return b.year - a.year; })[0];
        if (older) {
          return { results: [{ kind: "compare", edition: newer.id, law: law, provision: String(law),
            title: "What changed in Law " + law, heading: older.title + " → " + newer.title, snippet: "", more: [],
            url: "/compare/" + law + "?from=" + encodeURIComponent(older.id) + "&to=" + encodeURIComponent(newer.id) }],
            message: null };
        }
      }
    }
    var parsed = root.LawbookCite && root.LawbookCite.parse(q);
    if (parsed) {
      var n = parsed[0];
      var codes = this.codes.filter(function (e) { return (!edition || e.id === edition) && (!among || among.has(e.id)); });
      var has = codes.some(function (e) { return e.laws.indexOf(n) >= 0 || (e.declared || []).indexOf(n) >= 0; });
      if (codes.length && !has) {
        var declared = new Set();
        codes.forEach(function (e) { (e.declared && e.declared.length ? e.declared : e.laws).forEach(function (x) { declared.add(x); }); });
        return { results: [], message: "There is no Law " + n + "; the Laws run " + lawRanges(Array.from(declared)) + "." };
      }
    }
    return null;
  };

  /* The editions `ids` in the order the site lists them (search/index.py
     `listed`): the code in force, the published codes (soonest in force
     first), the superseded ones (newest first), the rest as the payload has them. */
  var LISTED = { "in force": 0, "published": 1, "superseded": 2 };
  Engine.prototype.listed = function (ids) {
    var keys = this.editions.map(function (e, i) {
      var rank = e.status in LISTED ? LISTED[e.status] : 3;
      return [rank, rank === 1 ? (e.in_force_from || "9999") : "", rank === 1 ? (e.year || 0) : rank === 2 ? -(e.year || 0) : 0, i, e.id];
    });
    keys.sort(function (a, b) {
      for (var k = 0; k < 4; k++) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
      return 0;
    });
    return keys.map(function (k) { return k[4]; }).filter(function (id) { return ids.indexOf(id) >= 0; });
  };

  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];
  /* What a search says it searched, in the server's words (search/index.py
     `editions_label`): "2017 (in force), 2007, rubber 1993, the guide". */
  Engine.prototype.searchedLabel = function (ids) {
    var self = this, guides = this.editions.filter(function (e) { return e.kind === "guide"; }).length;
    return this.listed(ids).map(function (id) {
      var e = self.edition[id];
      if (e.kind === "guide") return guides === 1 ? "the guide" : "the guide " + (e.year || e.id);
      if (e.kind !== "code") return e.title || id;
      var name = e.family === self.mainFamily ? id : e.family + " " + (e.year || id);
      if (e.in_force || e.status === "in force") return name + " (in force)";
      if (e.status === "published") {
        if (!e.in_force_from) return name + " (published, not yet in force)";
        var d = e.in_force_from.split("-").map(Number);
        return name + " (in force from " + d[2] + " " + MONTHS[d[1] - 1] + " " + d[0] + ")";
      }
      return name;
    }).join(", ");
  };

  /* {results: [{kind, edition, law, provision, title, heading, url, snippet, more}], message, editions}
     opts: limit, edition (that one alone), kind, and editions (the ids a
     search with no edition may answer from: the phone searches the editions
     it keeps, static/offline.js; default every edition of the payload). */
  Engine.prototype.search = function (q, opts) {
    opts = opts || {};
    var limit = opts.limit || 10, edition = opts.edition || null, kind = opts.kind || null, self = this;
    var among = !edition && opts.editions ? new Set(opts.editions) : null;
    var searched = edition ? [edition] : this.listed(among ? opts.editions : this.editions.map(function (e) { return e.id; }));
    q = String(q || "").normalize("NFKC").slice(0, 300);
    // who dealt and who is declarer are not searched; the ruling's hand-off reads them
    var asked = q;
    q = withoutSeats(q) || q;
    if (!kind || kind === "law") {
      var answered = this.intent(q, edition, among);
      if (answered) { answered.editions = searched; return answered; }
    }
    var cited = (!kind || kind === "law") ? this.cited(q, edition, among) : null;
    var slots = this.slots(q);
    var scored = [];
    if (slots.length) {
      var scores = this.score(slots);
      var evidence = new Map(), topTopic = 0;
      scores.forEach(function (sc, id) {
        var d = self.docs[id];
        if (d.kind === "guide" && d.laws.length) topTopic = Math.max(topTopic, sc);
      });
      if (topTopic && this.rk.guide_evidence) {
        scores.forEach(function (sc, id) {
          var d = self.docs[id];
          if (d.kind !== "guide") return;
          d.laws.forEach(function (law) {
            evidence.set(law, Math.max(evidence.get(law) || 0, self.rk.guide_evidence * sc / topTopic));
          });
        });
      }
      scores.forEach(function (sc, id) {
        var d = self.docs[id];
        if (d.kind === "entry" || (edition && d.edition !== edition) || (among && !among.has(d.edition))
            || (kind && d.kind !== kind) || (cited && d.id === cited.id)) return;
        var w = d.kind === "guide" ? self.rk.guide_weight : d.kind === "definition" ? self.rk.definition_weight : 1;
        if (d.kind === "law" && self.edition[d.edition] && self.edition[d.edition].family === self.guideFamily) {
          w *= 1 + (evidence.get(d.law) || 0);
        }
        if (!edition && d.kind === "law" && self.edition[d.edition] && self.edition[d.edition].family !== self.mainFamily) w *= self.rk.other_family;
        if (!edition && d.edition === self.inForce) w *= self.rk.in_force;
        scored.push([sc * w, -d.ord, id]);
      });
      scored.sort(function (a, b) { return b[0] - a[0] || b[1] - a[1] || b[2] - a[2]; });
    }
    var groups = new Map();
    if (cited) groups.set(cited.group, [[Infinity, 0, cited.id]]);
    scored.forEach(function (s) {
      var d = self.docs[s[2]];
      if (!groups.has(d.group)) groups.set(d.group, []);
      groups.get(d.group).push(s);
    });
    var ordered = Array.from(groups.values());
    if (this.rk.second_entry) ordered = this.secondEntries(ordered);
    ordered = ordered.map(function (members) { return members.map(function (s) { return self.docs[s[2]]; }); });
    if (this.rk.guide_evidence) ordered = this.topicsAfterTheirLaws(ordered);
    var terms = new Set();
    slots.forEach(function (s) { [s.typed].concat(s.alts).forEach(function (a) { a.forEach(function (t) { terms.add(t); }); }); });
    var results = [];
    ordered.forEach(function (members) {
      if (results.length >= limit) return;
      var d = members[0];
      results.push({ kind: d.kind, edition: d.edition, law: d.law, provision: d.provision, url: d.url,
        title: d.title, heading: d.heading, snippet: self.snippet(d.text, terms), plain: d.plain || null,
        match: d === cited ? "citation" : "words",
        more: members.slice(1, 4).map(function (o) { return { edition: o.edition, provision: o.provision, url: o.url }; }) });
    });
    if (results.length && results[0].kind === "law" && this.handoff) {
      var offer = this.offer(results[0].edition, results[0].provision, asked.trim());
      if (offer) results[0].ruling = offer;
    }
    var message = null;
    if (!results.length) message = slots.length || cited ? "Nothing found. Try other words, or a citation such as 27B1."
      : "Type a citation such as 27B1, or some words such as: lead out of turn.";
    return { results: results, total: groups.size, message: message, editions: searched };
  };

  /* A provision's id and its ancestors' (laws.citations.candidates):
     "12C1(b)" -> ["12C1(b)", "12C1", "12C", "12"]. */
  function lineage(pid) {
    var m = /^\d{1,2}/.exec(pid || "");
    if (!m) return [];
    var parts = pid.slice(m[0].length).match(/\([^()]+\)|[A-H]|\.\d{1,2}|\d{1,2}/g) || [];
    var out = [];
    for (var i = parts.length; i >= 0; i--) out.push(m[0] + parts.slice(0, i).join(""));
    return out;
  }
  function related(a, b) { return a.length > 0 && (b.indexOf(a[0]) >= 0 || a.indexOf(b[0]) >= 0); }

  /* A law's second entry: its best provision of the head's edition that is
     neither above nor below the head, when it scores at least `second_entry`
     of the head, with the provisions under it; the entries ordered by their
     heads (search/query.py `_second_entries`).  Members are [score, -ord, id]. */
  Engine.prototype.secondEntries = function (ordered) {
    var self = this, share = this.rk.second_entry, out = [];
    function line(s) { var d = self.docs[s[2]]; return d.kind === "law" ? lineage(d.provision) : []; }
    ordered.forEach(function (members) {
      var head = members[0], hd = self.docs[head[2]], hl = line(head);
      if (hd.kind !== "law" || head[0] === Infinity) { out.push(members); return; }
      var second = null;
      for (var i = 1; i < members.length; i++) {
        var s = members[i];
        if (s[0] < share * head[0]) break;  // as ranked: past the bar, none can be the second
        if (self.docs[s[2]].edition === hd.edition && !related(line(s), hl)) { second = s; break; }
      }
      if (!second || second[0] < share * head[0]) { out.push(members); return; }
      var ol = line(second), below = [], rest = [];
      members.forEach(function (s) {
        var l = line(s);
        if (self.docs[s[2]].edition === hd.edition && related(l, ol) && !related(l, hl)) below.push(s); else rest.push(s);
      });
      out.push(rest, below);
    });
    out.sort(function (a, b) { return b[0][0] - a[0][0] || b[0][1] - a[0][1] || b[0][2] - a[0][2]; });
    return out;
  };

  /* A guide topic comes right after the best provision of a law it explains
     (search/query.py `_topics_after_their_laws`). */
  Engine.prototype.topicsAfterTheirLaws = function (ordered) {
    var self = this, lawAt = new Map(), out = [], waiting = [];
    var inGuideFamily = function (d) { return self.edition[d.edition] && self.edition[d.edition].family === self.guideFamily; };
    ordered.forEach(function (m, i) {
      var d = m[0];
      if (d.kind === "law" && inGuideFamily(d) && !lawAt.has(d.law)) lawAt.set(d.law, i);
    });
    ordered.forEach(function (m, i) {
      var d = m[0];
      if (d.kind === "guide") {
        var later = d.laws.filter(function (n) { return (lawAt.has(n) ? lawAt.get(n) : -1) > i; });
        if (later.length) { waiting.push([new Set(later), m]); return; }
      }
      out.push(m);
      if (d.kind === "law") {
        waiting = waiting.filter(function (w) {
          if (w[0].has(d.law) && inGuideFamily(d)) { out.push(w[1]); return false; }
          return true;
        });
      }
    });
    return out.concat(waiting.map(function (w) { return w[1]; }));
  };

  /* Plain text around the first matched word (the page escapes it). */
  Engine.prototype.snippet = function (text, terms) {
    text = String(text || "");
    var self = this, first = -1;
    WORD.lastIndex = 0;
    var m;
    while ((m = WORD.exec(text))) {
      if (terms.has(self.term(m[0].toLowerCase()))) { first = m.index; break; }
    }
    var start = first > 60 ? text.lastIndexOf(" ", first - 40) + 1 : 0;
    var out = text.slice(start, start + 200);
    return (start ? "…" : "") + out + (start + 200 < text.length ? "…" : "");
  };

  /* --- from the question to the ruling (laws/rulings/handoff.py, the same rules) --- */
  var SEAT = "(north|east|south|west)", SEATS = { north: "N", east: "E", south: "S", west: "W" };
  var DEALER = new RegExp("\\b" + SEAT + "\\s+(?:dealt|deals|(?:is|was)\\s+(?:the\\s+)?dealer)\\b|\\bdealer\\s+(?:is\\s+|was\\s+)?" + SEAT + "\\b", "i");
  var DECLARER = new RegExp("\\b" + SEAT + "\\s+(?:is|was)\\s+(?:the\\s+)?declarer\\b|\\bdeclarer\\s*\\(?\\s*(?:is\\s+|was\\s+)?" + SEAT + "\\b\\)?" +
    "|\\b" + SEAT + "\\s+(?:is\\s+|was\\s+)?declaring\\b", "i");
  var NUMBERS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
    twelve: 12, thirteen: 13, first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8,
    ninth: 9, tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13 };
  var CALL = /\b([1-7]|one|two|three|four|five|six|seven)\s*(no[\s-]?trumps?|notrumps?|nt|clubs?|diamonds?|hearts?|spades?|[cdhsn])\b/gi;
  var TRICK = /\btrick\s+(?:no\.?\s*|number\s+)?(\d{1,2})\b|\b(\d{1,2})(?:st|nd|rd|th)\s+trick\b|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth)\s+trick\b/i;

  function facts(q) {
    var out = {}, m = DEALER.exec(q);
    if (m) out.dealer = SEATS[(m[1] || m[2]).toLowerCase()];
    m = DECLARER.exec(q);
    if (m) out.declarer = SEATS[(m[1] || m[2] || m[3]).toLowerCase()];
    var calls = [];
    CALL.lastIndex = 0;
    while ((m = CALL.exec(q))) {
      var level = NUMBERS[m[1].toLowerCase()] || m[1], st = m[2].toLowerCase().replace(/[\s-]+/g, "");
      calls.push(level + (st.indexOf("no") === 0 || st === "nt" || st === "n" ? "NT" : st.charAt(0).toUpperCase()));
    }
    if (calls.length) out.calls = calls;
    m = TRICK.exec(q);
    if (m) {
      var n = m[1] || m[2] ? parseInt(m[1] || m[2], 10) : NUMBERS[m[3].toLowerCase()];
      if (n >= 1 && n <= 13) out.trick = n;
    }
    return out;
  }

  /* The question less who dealt and who is declarer (handoff.py `without_seats`). */
  function withoutSeats(q) {
    q = q.replace(new RegExp(DEALER.source, "gi"), " ");
    q = q.replace(new RegExp(DECLARER.source, "gi"), function (m) { return /^declarer/i.test(m) ? " declarer " : " "; });
    return q.replace(/\s+/g, " ").replace(/^[\s,;]+|[\s,;]+$/g, "");
  }

  function parentOf(pid) {
    var parts = String(pid).match(/^\d+|\([^()]+\)|[A-H]|\.\d+|\.p\d+|\d+/g) || [];
    return parts.length > 1 ? parts.slice(0, -1).join("") : null;
  }

  /* `pid` is the provision `law` names or one below it (handoff.py `_inside`). */
  function inside(pid, law) {
    if (pid === law) return true;
    if (pid.indexOf(law) !== 0 || pid.length === law.length) return false;
    var c = pid.charAt(law.length), alpha = function (x) { return /[A-Za-z]/.test(x); };
    return c === "(" || c === "." || alpha(c) !== alpha(law.charAt(law.length - 1));
  }

  /* The procedures for a provision (handoff.py `for_provision`): citing it,
     its children, its parent, else the one named for it or a provision above. */
  Engine.prototype.procedures = function (edition, pid) {
    var h = this.handoff, by = (h && h.by[edition]) || {};
    if (by[pid]) return by[pid];
    var kids = [];
    Object.keys(by).forEach(function (q) { if (parentOf(q) === pid) kids = kids.concat(by[q]); });
    if (kids.length) return kids;
    var up = parentOf(pid);
    if (up && by[up]) return by[up];
    return ((h && h.named[edition]) || []).filter(function (n) { return inside(pid, n[0]); })
      .sort(function (a, b) { return b[0].length - a[0].length; }).map(function (n) { return n[1]; });
  };

  /* What the first result offers: {procedure, title, url, prefilled} or null. */
  Engine.prototype.offer = function (edition, pid, q) {
    var found = this.procedures(edition, pid);
    if (!found.length) return null;
    var p = this.handoff.procedures[found[0]], stated = facts(q), prefilled = {}, fields = this.handoff.prefill[p[0]] || {};
    Object.keys(fields).forEach(function (fact) { if (fact in stated) prefilled[fields[fact]] = stated[fact]; });
    var extra = new URLSearchParams(prefilled).toString();
    return { procedure: p[0] + ":" + p[1], title: "Rule on: " + p[2], url: p[3] + (extra ? "&" + extra : ""), prefilled: prefilled };
  };

  root.LawbookSearch = {
    create: function (payload) { return new Engine(payload); },
    words: words,
    facts: facts,
    withoutSeats: withoutSeats
  };
})(typeof self !== "undefined" ? self : this);
