/* The rule checkers in the browser: a port of laws/checkers (registry.py,
   cards.py, boards.py, scoring.py, conversions.py, auction.py, play.py) that reads the same
   data (the schema and each edition's data, embedded in the checker's page
   from laws/checkers/data) and gives the same result, explanation and
   cites, or refuses the same input naming the same field.  A browser test
   (tests/test_checkers_offline_browser.py) runs every checker's example,
   the fixtures and 200 generated inputs per checker through both.

   LawbookCheckers.run(id, payload, ctx) -> {result, explanation, cites, edition}
   (and carried_from, reviewed, review in a code the data was carried into) or throws a CheckerError {message, field}; ctx is the page's data
   ({schema, default, editions: {ed: {title, tables, entry}}}).
   LawbookCheckers.formToInput(schema, params) reads form fields (a
   URLSearchParams) as laws/web/checkers.py's form_to_input does. */
(function (root) {
  "use strict";

  function CheckerError(message, field) {
    this.message = message;
    this.field = field === undefined ? null : field;
  }

  /* --- Python's ways of writing values ----------------------------------------- */

  function isPrintable(ch) {
    var c = ch.codePointAt(0);
    if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xad) return false;
    return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch) || ch === " ";
  }

  /* repr() of a str */
  function repr(s) {
    s = String(s);
    var quote = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'";
    var out = quote;
    Array.from(s).forEach(function (ch) {
      var c = ch.codePointAt(0);
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (isPrintable(ch)) out += ch;
      else if (c < 0x100) out += "\\x" + ("0" + c.toString(16)).slice(-2);
      else if (c < 0x10000) out += "\\u" + ("000" + c.toString(16)).slice(-4);
      else out += "\\U" + ("0000000" + c.toString(16)).slice(-8);
    });
    return out + quote;
  }

  /* round(x, 2) as Python does it: the exact decimal value of the double,
     rounded half to even */
  function round2(x) {
    if (Number.isInteger(x)) return x;
    var neg = x < 0, a = Math.abs(x);
    if (a < 0.004) return 0;
    var text = a.toFixed(60), dot = text.indexOf(".");
    var whole = text.slice(0, dot), frac = text.slice(dot + 1);
    var kept = frac.slice(0, 2), rest = frac.slice(2);
    var half = "5" + "0".repeat(rest.length - 1);
    var n = BigInt(whole + kept);
    if (rest > half || (rest === half && n % 2n === 1n)) n += 1n;
    var digits = n.toString().padStart(3, "0");
    var value = Number(digits.slice(0, -2) + "." + digits.slice(-2));
    return neg ? -value : value;
  }

  /* _num: rounded to 2 places, a whole number as an int */
  function num(x) {
    var r = round2(x);
    return r === 0 ? 0 : r;
  }

  function str(x) {
    if (typeof x === "number") return String(x === 0 ? 0 : x);
    return String(x);
  }

  function signed(x) {
    return (x >= 0 ? "+" : "") + str(x);
  }

  function capitalize(s) {
    s = String(s);
    return s ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase() : s;
  }

  function bisectLeft(a, x) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function bisectRight(a, x) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (x < a[mid]) hi = mid; else lo = mid + 1; }
    return lo;
  }
  function numSort(a) { return a.slice().sort(function (x, y) { return x - y; }); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function get(o, k, d) { return has(o, k) ? o[k] : d; }
  function sum(a) { return a.reduce(function (s, x) { return s + x; }, 0); }

  /* --- cards.py ----------------------------------------------------------------- */

  var SEATS = ["N", "E", "S", "W"];
  var SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  var SUITS = ["C", "D", "H", "S"];
  var SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", NT: "no trump" };
  var STRAINS = ["C", "D", "H", "S", "NT"];
  var RANKS = "23456789TJQKA";
  var RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
  var HONOURS = "AKQJT";
  var SUIT_SYMBOLS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S" };
  var CARD = /^(?:([CDHS])(10|[2-9TJQKA])|(10|[2-9TJQKA])([CDHS]))$/;

  function seatAfter(seat, n) { return SEATS[(SEATS.indexOf(seat) + (n === undefined ? 1 : n)) % 4]; }
  function sameSide(a, b) { return SEATS.indexOf(a) % 2 === SEATS.indexOf(b) % 2; }

  function Card(suit, rank) { this.suit = suit; this.rank = rank; this.value = RANKS.indexOf(rank); }
  Card.prototype.toString = function () { return this.suit + this.rank; };
  Card.prototype.words = function () { return get(RANK_NAMES, this.rank, this.rank) + " of " + SUIT_NAMES[this.suit]; };
  Card.prototype.honour = function () { return HONOURS.indexOf(this.rank) >= 0; };
  function key(c) { return c.suit + c.rank; }

  function pyStrip(s) { return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, ""); }

  function parseCard(text, field, what) {
    what = what || "card";
    var raw = pyStrip(String(text)).toUpperCase();
    Object.keys(SUIT_SYMBOLS).forEach(function (sym) { raw = raw.split(sym).join(SUIT_SYMBOLS[sym]); });
    var m = CARD.exec(raw);
    if (!m) {
      throw new CheckerError(capitalize1(what) + " " + repr(String(text)) + " is not a card: write the suit and the rank, " +
        "like SA, H10, DT or C2.", field);
    }
    var suit = m[1] ? m[1] : m[4], rank = m[1] ? m[2] : m[3];
    return new Card(suit, rank === "10" ? "T" : rank);
  }

  /* str.capitalize() on the checker's own words (ASCII) */
  function capitalize1(s) { return capitalize(s); }

  function parseCards(texts, field, what) {
    if (typeof texts === "string") texts = texts.split(/[\s,]+/).filter(function (t) { return t; });
    var cards = texts.map(function (t) { return parseCard(t, field, what); });
    var seen = {};
    cards.forEach(function (c) {
      if (seen[key(c)]) throw new CheckerError("The " + c.words() + " appears twice.", field);
      seen[key(c)] = true;
    });
    return cards;
  }

  function cardList(cards) { return cards.map(function (c) { return c.words(); }).join(", "); }
  function inCards(cards, c) { return cards.some(function (d) { return key(d) === key(c); }); }

  /* --- registry.py: validation ------------------------------------------------ */

  var MAX_STRING = 1000, MAX_VALUES = 5000;
  var TYPE_WORDS = { integer: "a whole number", number: "a number", string: "text", boolean: "true or false",
                     array: "a list", object: "an object", "null": "empty" };

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function title(schema, name) {
    var prop = (schema.properties || {})[name];
    return prop ? capitalize(get(prop, "title", name)) : repr(name);
  }

  function codePoints(s) { return Array.from(s); }

  function bound(schema, payload) {
    var props = schema.properties || {};
    Object.keys(payload).sort(pyOrder).forEach(function (k) {
      var value = payload[k];
      if (!has(props, k)) {
        var cps = codePoints(k);
        var name = cps.length <= 40 ? k : cps.slice(0, 40).join("") + "…";
        throw new CheckerError("This checker has no field " + repr(name) + "; its fields are " +
          Object.keys(props).join(", ") + ".", name);
      }
      var most = props[k].maxItems;
      if (Array.isArray(value) && most !== undefined && value.length > most) {
        throw new CheckerError(title(schema, k) + " can have at most " + most + " entries.", k);
      }
    });
    var count = 0;
    var stack = Object.keys(payload).map(function (k) { return [k, payload[k]]; });
    while (stack.length) {
      var item = stack.pop(), top = item[0], value = item[1];
      count += 1;
      if (count > MAX_VALUES) throw new CheckerError("The input has more than " + MAX_VALUES + " values; no checker needs so many.", null);
      if (typeof value === "string" && codePoints(value).length > MAX_STRING) {
        throw new CheckerError(title(schema, top) + " is too long (at most " + MAX_STRING + " characters).", top);
      }
      if (Array.isArray(value)) value.forEach(function (v) { stack.push([top, v]); });
      else if (isObject(value)) Object.keys(value).forEach(function (k) { stack.push([top, value[k]]); });
    }
  }

  /* Python sorts strings by code point */
  function pyOrder(a, b) {
    var x = codePoints(a), y = codePoints(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }

  function rejectNonFinite(schema, payload) {
    function walk(value, top) {
      if (typeof value === "number" && !isFinite(value)) throw new CheckerError(title(schema, top) + " must be a finite number.", top);
      if (Array.isArray(value)) value.forEach(function (v) { walk(v, top); });
      else if (isObject(value)) Object.keys(value).forEach(function (k) { walk(value[k], top); });
    }
    Object.keys(payload).forEach(function (k) { walk(payload[k], k); });
  }

  function typeOk(t, v) {
    if (t === "integer") return typeof v === "number" && Number.isInteger(v);
    if (t === "number") return typeof v === "number";
    if (t === "string") return typeof v === "string";
    if (t === "boolean") return typeof v === "boolean";
    if (t === "array") return Array.isArray(v);
    if (t === "object") return isObject(v);
    if (t === "null") return v === null;
    return true;
  }

  function equal(a, b) {  /* jsonschema's equal: true is not 1 */
    if (typeof a !== typeof b) return false;
    if (Array.isArray(a) || Array.isArray(b)) {
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(function (x, i) { return equal(x, b[i]); });
    }
    if (isObject(a)) {
      var ka = Object.keys(a), kb = Object.keys(b);
      return ka.length === kb.length && ka.every(function (k) { return has(b, k) && equal(a[k], b[k]); });
    }
    return a === b;
  }

  /* the errors of one value against one (flat) schema: [{validator, value, sub, depth, item}] */
  function check(sub, v, depth, item, out) {
    var keys = Object.keys(sub);
    for (var i = 0; i < keys.length; i++) {
      var k = keys[i], w = sub[k];
      var e = { validator: k, value: w, sub: sub, depth: depth, item: item };
      if (k === "type" && !typeOk(w, v)) out.push(e);
      else if (k === "enum" && !w.some(function (x) { return equal(x, v); })) out.push(e);
      else if (typeof v === "number") {
        if ((k === "minimum" && v < w) || (k === "maximum" && v > w) ||
            (k === "exclusiveMinimum" && v <= w) || (k === "exclusiveMaximum" && v >= w)) out.push(e);
      } else if (typeof v === "string") {
        if ((k === "maxLength" && codePoints(v).length > w) || (k === "minLength" && codePoints(v).length < w)) out.push(e);
      } else if (Array.isArray(v)) {
        if ((k === "minItems" && v.length < w) || (k === "maxItems" && v.length > w)) out.push(e);
        else if (k === "uniqueItems" && w && v.some(function (x, j) { return v.slice(0, j).some(function (y) { return equal(x, y); }); })) out.push(e);
        else if (k === "items" && depth === 1) v.forEach(function (x, j) { check(w, x, 2, j, out); });
      }
    }
  }

  function firstError(schema, payload) {
    var missing = (schema.required || []).filter(function (r) { return !has(payload, r); });
    if (missing.length) return { validator: "required", missing: missing[0] };
    var names = Object.keys(schema.properties || {});
    for (var i = 0; i < names.length; i++) {
      if (!has(payload, names[i])) continue;
      var errors = [];
      check(schema.properties[names[i]], payload[names[i]], 1, -1, errors);
      if (!errors.length) continue;
      errors.forEach(function (e, j) { e.order = j; });
      errors.sort(function (a, b) { return (a.depth - b.depth) || (a.item - b.item) || (a.order - b.order); });
      errors[0].top = names[i];
      return errors[0];
    }
    return null;
  }

  function choices(sub) {
    var labels = sub["x-labels"] || {};
    return sub["enum"].map(function (v) {
      if (v === "") return "'' (" + get(labels, "", "empty") + ")";
      return (typeof v === "string" ? repr(v) : str(v)) + (typeof v === "string" && has(labels, v) ? " (" + labels[v] + ")" : "");
    }).join(", ");
  }

  function explain(schema, e) {
    if (e.validator === "required") return [title(schema, e.missing) + " is missing: please give it.", e.missing];
    var top = e.top, props = schema.properties;
    var what = title(schema, top);
    if (e.depth > 1) what = what + ": " + get((props[top] || {}).items || {}, "title", "item") + " " + (e.item + 1);
    var v = e.validator, w = e.value;
    if (v === "type") return [what + " must be " + (Array.isArray(w) ? w.map(function (t) { return get(TYPE_WORDS, t, t); }).join(" or ") : get(TYPE_WORDS, w, w)) + ".", top];
    if (v === "enum") return [what + " must be one of " + choices(e.sub) + ".", top];
    if (v === "minimum") return [what + " must be at least " + str(w) + ".", top];
    if (v === "maximum") return [what + " must be at most " + str(w) + ".", top];
    if (v === "exclusiveMinimum") return [what + " must be more than " + str(w) + ".", top];
    if (v === "exclusiveMaximum") return [what + " must be less than " + str(w) + ".", top];
    if (v === "minItems") return [what + " needs at least " + w + " " + (w === 1 ? "entry" : "entries") + ".", top];
    if (v === "maxItems") return [what + " can have at most " + w + " entries.", top];
    if (v === "minLength") return [what + " must not be empty.", top];
    if (v === "uniqueItems") return [what + " names the same " + get((props[top] || {}).items || {}, "title", "item") + " twice.", top];
    if (v === "maxLength") return [what + " is too long (at most " + w + " characters).", top];
    return [what + " is not acceptable.", top];
  }

  function validate(schema, payload) {
    if (!isObject(payload)) {
      throw new CheckerError("The input must be a JSON object with the checker's fields (" +
        Object.keys(schema.properties || {}).join(", ") + ").", null);
    }
    bound(schema, payload);
    rejectNonFinite(schema, payload);
    var e = firstError(schema, payload);
    if (e) { var x = explain(schema, e); throw new CheckerError(x[0], x[1]); }
    return payload;
  }

  /* --- the edition a checker answers in ----------------------------------------- */

  function Edition(id, data) {
    this.edition = id;
    this.title = data.title;
    this.tables = data.tables || {};
    this.entry = data.entry;
  }
  Edition.prototype.law = function (role) { return this.entry.law[role]; };
  Edition.prototype.get = function (k) { return this.entry[k]; };

  function Result(result, explanation, cites) { return { result: result, explanation: explanation, cites: cites }; }

  /* --- boards.py ---------------------------------------------------------------- */

  var VULNERABLE_WORDS = { None: "neither side is vulnerable", NS: "North-South are vulnerable",
                           EW: "East-West are vulnerable", Both: "both sides are vulnerable" };

  function board(data, ed) {
    var table = ed.tables.board, cycle = table.cycle, dealers = table.dealers;
    var n = data.board;
    var position = mod(n - 1, cycle) + 1;
    var dealer = dealers[mod(n - 1, dealers.length)];
    var vulnerable = table.vulnerable[position - 1];
    var repeat = n > cycle ? " (it takes the place of Board " + position + " in Law " + ed.law("board") + "'s table)" : "";
    return Result({ board: n, dealer: dealer, vulnerable: vulnerable, cycle_position: position },
      "On Board " + n + repeat + " " + SEAT_NAMES[dealer] + " deals and " + VULNERABLE_WORDS[vulnerable] + ".",
      [ed.law("board")]);
  }

  function mod(a, b) { return ((a % b) + b) % b; }

  /* --- scoring.py ----------------------------------------------------------------- */

  var RISK_WORDS = { "": "undoubled", X: "doubled", XX: "redoubled" };
  var NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                      "eleven", "twelve", "thirteen"];

  function nth(values, n) { return values[Math.min(n, values.length) - 1]; }
  function vul(v) { return v ? "vulnerable" : "not_vulnerable"; }
  function s_(n) { return n > 1 ? "s" : ""; }

  function undertrickPenalty(table, down, risk, vulnerable) {
    var total = 0, n;
    if (risk === "") {
      for (n = 1; n <= down; n++) total += nth(table.undertricks.undoubled[vul(vulnerable)], n);
      return total;
    }
    var per = Math.floor(table.multiplier[risk] / table.multiplier.X);
    for (n = 1; n <= down; n++) total += nth(table.undertricks.doubled[vul(vulnerable)], n) * per;
    return total;
  }

  function contractScore(table, level, strain, risk, vulnerable, tricks) {
    var needed = level + 6, mult = table.multiplier[risk];
    if (tricks < needed) {
      var down = needed - tricks;
      var pen = undertrickPenalty(table, down, risk, vulnerable);
      return [-pen, [[NUMBER_WORDS[down] + " " + RISK_WORDS[risk] + " undertrick" + s_(down), -pen]]];
    }
    var parts = [], values = table.trick_value[strain], trickScore = 0;
    for (var i = 1; i <= level; i++) trickScore += nth(values, i);
    trickScore *= mult;
    var game = trickScore >= table.game;
    parts.push(["trick score (" + (game ? "game" : "partscore") + ")", trickScore]);
    if (game) parts.push(["game premium", table.game_premium[vul(vulnerable)]]);
    else parts.push(["partscore premium", table.partscore_premium]);
    var slam = table.slam_premium[String(level)];
    if (slam) parts.push([slam.name, slam[vul(vulnerable)]]);
    if (risk) parts.push(["premium for making a " + RISK_WORDS[risk] + " contract", table.insult[risk]]);
    var over = tricks - needed;
    if (over) {
      var each = risk === "" ? nth(values, level + 1) : table.overtrick_doubled[vul(vulnerable)] * Math.floor(mult / table.multiplier.X);
      parts.push([NUMBER_WORDS[over] + " " + RISK_WORDS[risk] + " overtrick" + s_(over), over * each]);
    }
    return [sum(parts.map(function (p) { return p[1]; })), parts];
  }

  function score(data, ed) {
    var level = data.level, strain = data.strain, tricks = data.tricks;
    var risk = get(data, "risk", ""), v = get(data, "vulnerable", false);
    var sp = contractScore(ed.tables.score, level, strain, risk, v, tricks), total = sp[0], parts = sp[1];
    var needed = level + 6, made = tricks >= needed;
    var name = level + strain + risk, who = v ? "vulnerable" : "not vulnerable", how;
    if (made) {
      var over = tricks - needed;
      how = !over ? "just made" : "made with " + NUMBER_WORDS[over] + " overtrick" + s_(over);
    } else {
      how = "defeated by " + NUMBER_WORDS[needed - tricks] + " trick" + s_(needed - tricks);
    }
    var detail = parts.map(function (p) { return p[0] + " " + Math.abs(p[1]); }).join(" + ");
    // "1 club", "4 spades": the suit's name is plural from two of it
    var suit = level === 1 && /s$/.test(SUIT_NAMES[strain]) ? SUIT_NAMES[strain].slice(0, -1) : SUIT_NAMES[strain];
    var explanation = name + " (" + level + " " + suit + ", " + RISK_WORDS[risk] + "), " + who + ", taking " +
      tricks + " trick" + (tricks !== 1 ? "s" : "") + ", is " + how + ": " + detail + ", so the declaring side scores " + total + ".";
    var cites = [ed.law("score")].concat(risk ? [ed.law("doubled")] : []);
    return Result({ contract: name, score: total, made: made, overtricks: Math.max(0, tricks - needed),
                    undertricks: Math.max(0, needed - tricks),
                    parts: parts.map(function (p) { return { name: p[0], points: p[1] }; }) }, explanation, cites);
  }

  function impsFor(bands, difference) {
    var n = bisectRight(bands, Math.abs(difference));
    return difference >= 0 ? n : -n;
  }

  function band(bands, n) {
    if (n === 0) return "0–" + (bands[0] - 10);
    if (n === bands.length) return bands[bands.length - 1] + " and upward";
    return bands[n - 1] + "–" + (bands[n] - 10);
  }

  function imps(data, ed) {
    var d = data.difference, bands = ed.tables.imps.bands;
    var n = impsFor(bands, d), b = band(bands, Math.abs(n));
    var sign = d > 0 ? "gains" : d < 0 ? "loses" : "neither gains nor loses";
    var explanation = "A difference of " + str(d) + " point" + (Math.abs(d) === 1 ? "" : "s") + " is in the band " + b + " of the IMP scale, so the contestant " +
      sign + (d === 0 ? "" : " " + Math.abs(n) + " IMP" + (Math.abs(n) !== 1 ? "s" : "")) + (d === 0 ? " (0 IMPs)" : "") + ".";
    return Result({ difference: d, imps: n, band: b }, explanation, [ed.law("imps")]);
  }

  function matchpointsFor(table, scores, others) {
    var mine = others === undefined ? 1 : 0;
    var pool = numSort(others === undefined ? scores : others);
    return scores.map(function (s) {
      return table.beaten * bisectLeft(pool, s) + table.equalled * (bisectRight(pool, s) - bisectLeft(pool, s) - mine);
    });
  }

  function matchpoints(data, ed) {
    var scores = data.scores, table = ed.tables.matchpoints;
    var mps = matchpointsFor(table, scores);
    var top = table.beaten * (scores.length - 1);
    var pct = mps.map(function (m) { return top ? num(100 * m / top) : 50; });
    var distinct = {};
    scores.forEach(function (s) { distinct[String(s)] = true; });
    var ties = scores.length - Object.keys(distinct).length;
    var each = scores.length > 1 ? "Each of the " + scores.length + " scores gets" : "The one score gets";
    var explanation = each + " two matchpoints for every score it beats and one for " +
      "every score equal to it, on a top of " + top + (ties ? "; tied scores share" : "") + ": " +
      scores.map(function (s, i) { return str(s) + " gets " + mps[i]; }).join(", ") + ".";
    return Result({ matchpoints: mps, top: top, percentages: pct }, explanation, [ed.law("matchpoints")]);
  }

  var FAULT = { none: ["average plus", 60, 3], partly: ["average", 50, 0], directly: ["average minus", 40, -3] };
  var FAULT_WORDS = { none: "in no way at fault", partly: "only partly at fault", directly: "directly at fault" };

  function artificialScore(data, ed) {
    var fault = data.fault, scoring = get(data, "scoring", "matchpoints");
    var award = FAULT[fault][0], pct = FAULT[fault][1], imp = FAULT[fault][2];
    var cites = [ed.law("average")], modified = false, result, value, s;
    if (scoring === "matchpoints") {
      if (has(data, "session_imps")) {
        throw new CheckerError("Session IMPs per board is for IMP scoring; at matchpoints give the session percentage.", "session_imps");
      }
      s = get(data, "session_percentage", null);
      if (s !== null && ((fault === "none" && s > 60) || (fault === "directly" && s < 40))) {
        pct = s; modified = true; cites.push(ed.law("session"));
      }
      result = { award: award, percentage: num(pct) };
      if (has(data, "top")) result.matchpoints = num(data.top * pct / 100);
      value = str(num(pct)) + " % of the matchpoints" +
        (has(data, "top") ? " (" + str(result.matchpoints) + " on a top of " + str(num(data.top)) + ")" : "");
    } else {
      if (has(data, "session_percentage") || has(data, "top")) {
        throw new CheckerError("At IMPs give the session IMPs per board, not a percentage or a top.",
          has(data, "session_percentage") ? "session_percentage" : "top");
      }
      if (fault !== "partly") cites.push(ed.law("imps"));
      s = get(data, "session_imps", null);
      if (s !== null && ((fault === "none" && s > 3) || (fault === "directly" && s < -3))) {
        imp = s; modified = true; cites.push(ed.law("session"));
      }
      result = { award: award, imps: num(imp) };
      value = imp ? signed(num(imp)) + " IMPs" : "0 IMPs";
    }
    result.modified_by_session_score = modified;
    var why = "A contestant " + FAULT_WORDS[fault] + " gets " + award +
      (modified && fault === "none" ? ", but its session score on the other boards is better for it than that, so it keeps it" :
       modified ? ", but its session score on the other boards is worse than that, so it gets that instead" : "") +
      ": " + value + ".";
    return Result(result, why, cites);
  }

  function weightedScore(data, ed) {
    var outcomes = data.outcomes, weights = data.weights, scoring = get(data, "scoring", "matchpoints");
    if (weights.length !== outcomes.length) {
      throw new CheckerError("Give one weight for each possible result: there are " + outcomes.length + " results and " +
        weights.length + " weights.", "weights");
    }
    if (Math.abs(sum(weights) - 100) > 0.01) {
      throw new CheckerError("The weights must add up to 100 %; they add up to " + str(num(sum(weights))) + " %.", "weights");
    }
    var parts = outcomes.map(function (o, i) { return str(num(weights[i])) + " % of " + str(o); }).join(", ");
    var each, total;
    if (scoring === "matchpoints") {
      if (has(data, "other_table")) throw new CheckerError("At matchpoints give the other results on the board, not one other table.", "other_table");
      var others = get(data, "other_scores", null);
      if (!others || !others.length) {
        throw new CheckerError("At matchpoints give the other results on the board, to score each outcome against them.", "other_scores");
      }
      var table = ed.tables.matchpoints;
      each = matchpointsFor(table, outcomes, others);
      var top = table.beaten * others.length;
      total = sum(weights.map(function (w, i) { return w * each[i]; })) / 100;
      return Result({ score: num(total), each: each, top: top, percentage: num(100 * total / top), opponents: num(top - total) },
        "Scored against the " + others.length + " other results, the outcomes are worth " +
        outcomes.map(function (o, i) { return each[i] + " (for " + str(o) + ")"; }).join(", ") +
        " matchpoints; weighted as " + parts + ", that is " + str(num(total)) + " on a top of " + top + " (" +
        str(num(100 * total / top)) + " %), leaving " + str(num(top - total)) + " to the opponents.",
        [ed.law("weighted"), ed.law("matchpoints")]);
    }
    if (has(data, "other_scores")) throw new CheckerError("At IMPs give the result at the other table, not a list of results.", "other_scores");
    if (!has(data, "other_table")) throw new CheckerError("At IMPs give the result at the other table to compare each outcome with.", "other_table");
    var other = data.other_table;
    each = outcomes.map(function (o) { return impsFor(ed.tables.imps.bands, o - other); });
    total = sum(weights.map(function (w, i) { return w * each[i]; })) / 100;
    return Result({ score: num(total), each: each },
      "Compared with " + str(other) + " at the other table, the outcomes are worth " +
      outcomes.map(function (o, i) { return signed(each[i]) + " IMPs (for " + str(o) + ")"; }).join(", ") +
      "; weighted as " + parts + ", that is " + signed(num(total)) + " IMPs.", [ed.law("weighted"), ed.law("imps")]);
  }

  function teamAverage(data, ed) {
    var kind = data.adjustment, i;
    if (kind !== "non-balancing") {
      for (i = 0; i < 2; i++) {
        var f = ["imps_a", "imps_b"][i];
        if (has(data, f)) throw new CheckerError("IMPs for each team are needed only for non-balancing scores.", f);
      }
      var n = kind === "average plus" ? 3 : -3;
      return Result({ imps: n }, "At IMPs " + kind + " is " + signed(n) + " IMPs (the Tournament Organizer may vary this " +
        "with the Regulating Authority's approval).", [ed.law("average")]);
    }
    for (i = 0; i < 2; i++) {
      var g = ["imps_a", "imps_b"][i];
      if (!has(data, g)) throw new CheckerError("Give the IMPs for team " + g.slice(-1).toUpperCase() + ", from its own assigned score.", g);
    }
    var a = data.imps_a, b = data.imps_b, avg = (a - b) / 2;
    return Result({ team_a: num(avg), team_b: num(-avg) },
      "In knockout play each team's score is calculated separately: team A's assigned score gives it " + signed(num(a)) +
      " IMPs and team B's gives it " + signed(num(b)) + " IMPs, that is " + signed(num(-b)) + " to team A; the average of " +
      "the two, " + signed(num(avg)) + " IMPs, is assigned to team A, and " + signed(num(-avg)) + " to team B.",
      ed.law("non_balancing").slice());
  }

  /* --- auction.py ------------------------------------------------------------------ */

  var PASS = ["P", "PASS", "NB", "NO BID", "-"], DOUBLE = ["X", "D", "DBL", "DOUBLE"], REDOUBLE = ["XX", "R", "RDBL", "REDOUBLE"];
  var BID = /^([0-9]+)\s*(C|D|H|S|N|NT|♣|♦|♥|♠)$/;
  var SYMBOL = { "♣": "C", "♦": "D", "♥": "H", "♠": "S", N: "NT" };

  function callText(c) { return c.kind === "pass" ? "P" : c.kind === "double" ? "X" : c.kind === "redouble" ? "XX" : c.level + c.strain; }

  function parseCall(text, index) {
    var raw = String(text).toUpperCase().split(/[\s\x1c-\x1f\x85]+/).filter(function (t) { return t; }).join(" ");
    if (PASS.indexOf(raw) >= 0) return { kind: "pass" };
    if (DOUBLE.indexOf(raw) >= 0) return { kind: "double" };
    if (REDOUBLE.indexOf(raw) >= 0) return { kind: "redouble" };
    var m = BID.exec(raw);
    if (m && m[1].length <= 3 && parseInt(m[1], 10) >= 1) return { kind: "bid", level: parseInt(m[1], 10), strain: get(SYMBOL, m[2], m[2]) };
    throw new CheckerError("Call " + (index + 1) + ", " + repr(String(text)) + ", is not a call: write P for pass, X for double, " +
      "XX for redouble, or a bid such as 1C, 3NT, 7S.", "calls");
  }

  function supersedes(bid, last) {
    if (!last) return true;
    return bid.level > last.level || (bid.level === last.level && STRAINS.indexOf(bid.strain) > STRAINS.indexOf(last.strain));
  }

  function urlencode(pairs) {
    return pairs.map(function (p) {
      return quotePlus(p[0]) + "=" + quotePlus(p[1]);
    }).join("&");
  }
  function quotePlus(s) {
    return encodeURIComponent(String(s)).replace(/%20/g, "+").replace(/[!'()*~]/g, function (c) {
      return c === "~" ? "~" : "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }

  function auction(data, ed) {
    var dealer = data.dealer;
    var calls = data.calls.map(function (c, i) { return parseCall(c, i); });
    var mustPass = get(data, "required_to_pass", []);
    var law = function (r) { return ed.law(r); };
    var cites = [law("dealer"), law("rotation")];
    var lastBid = null, lastBidder = null, risk = "", doubler = null, passes = 0, firstNamer = {}, complete = false, irregularity = null;

    function problem(i, seat, what, l, extra) {
      return { index: i, call: callText(calls[i]), player: seat, problem: what, law: l, cites: extra.concat([l]) };
    }

    for (var i = 0; i < calls.length; i++) {
      var call = calls[i], seat = seatAfter(dealer, i), why;
      if (complete) {
        irregularity = problem(i, seat, "a call after the final pass of the auction", law("rectify_after_final_pass"), [law("after_final_pass")]);
        break;
      }
      var required = SEAT_NAMES[seat] + " is required to pass but made a " + (call.kind === "bid" ? "bid" : call.kind);
      if (call.kind === "bid") {
        if (call.level > 7) {
          irregularity = problem(i, seat, "a bid of more than seven (" + callText(call) + ")", law("rectify_above_seven"), [law("above_seven"), law("bid")]);
          break;
        }
        if (mustPass.indexOf(seat) >= 0) { irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")]); break; }
        if (!supersedes(call, lastBid)) {
          irregularity = problem(i, seat, "an insufficient bid: " + callText(call) + " does not supersede " + callText(lastBid),
            law("insufficient_bid"), [law("insufficient")]);
          break;
        }
        lastBid = call; lastBidder = seat; risk = ""; doubler = null; passes = 0;
        var k = (SEATS.indexOf(seat) % 2) + "," + call.strain;
        if (!has(firstNamer, k)) firstNamer[k] = seat;
        continue;
      }
      if (call.kind === "double") {
        why = null;
        if (lastBid === null) why = "a double when there is no bid to double";
        else if (sameSide(seat, lastBidder)) why = "a double of " + (seat === lastBidder ? "his own" : "his partner’s") + " bid";
        else if (risk) why = "a double of a bid already " + (risk === "X" ? "doubled" : "redoubled");
        if (why) {
          irregularity = problem(i, seat, why + " (Law " + law("double") + ")", law("rectify_double"), [law("inadmissible_double"), law("double")]);
          break;
        }
        if (mustPass.indexOf(seat) >= 0) { irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")]); break; }
        risk = "X"; doubler = seat; passes = 0;
        if (cites.indexOf(law("double")) < 0) cites.push(law("double"));
        continue;
      }
      if (call.kind === "redouble") {
        why = null;
        if (risk !== "X") why = risk === "XX" ? "a redouble of a bid already redoubled" : "a redouble when there is no double to redouble";
        else if (sameSide(seat, doubler)) why = "a redouble of " + (seat === doubler ? "his own" : "his partner’s") + " double";
        if (why) {
          irregularity = problem(i, seat, why + " (Law " + law("redouble") + ")", law("rectify_double"), [law("inadmissible_double"), law("redouble")]);
          break;
        }
        if (mustPass.indexOf(seat) >= 0) { irregularity = problem(i, seat, required, law("rectify_required_to_pass"), [law("required_to_pass")]); break; }
        risk = "XX"; passes = 0;
        if (cites.indexOf(law("redouble")) < 0) cites.push(law("redouble"));
        continue;
      }
      passes += 1;
      if ((lastBid === null && passes === 4) || (lastBid !== null && passes === 3)) complete = true;
    }

    var nValid = irregularity ? irregularity.index : calls.length;
    var nextSeat = complete ? null : seatAfter(dealer, nValid);
    var passedOut = complete && lastBid === null;
    var ruling = null;
    if (irregularity) {
      var q = [["edition", ed.edition], ["dealer", dealer], ["calls", calls.slice(0, irregularity.index + 1).map(callText).join(" ")]];
      if (mustPass.length) q.push(["required_to_pass", mustPass.slice().sort().join(" ")]);
      ruling = ed.get("ruling") + "?" + urlencode(q);
    }
    var result = { complete: complete, legal: irregularity === null, next: nextSeat, passed_out: passedOut,
                   contract: null, level: null, strain: null, risk: null, declarer: null,
                   last_bid: lastBid ? callText(lastBid) : null, irregularity: irregularity, ruling: ruling };
    var parity;
    if (complete && !passedOut) {
      parity = SEATS.indexOf(lastBidder) % 2;
      var declarer = firstNamer[parity + "," + lastBid.strain];
      result.contract = callText(lastBid) + risk; result.level = lastBid.level; result.strain = lastBid.strain;
      result.risk = risk; result.declarer = declarer;
      cites = cites.concat([law("supersedes"), law("contract")]).concat(risk ? [law("doubled")] : []);
    } else if (passedOut) {
      cites.push(law("passed_out"));
    } else if (lastBid !== null) {
      cites.push(law("sufficient"));
    }
    var state;
    if (complete && !passedOut) {
      state = "The auction is complete: the contract is " + result.contract + " by " + SEAT_NAMES[result.declarer] +
        ", the first of " + (parity === 0 ? "North-South" : "East-West") + " to name " + SUIT_NAMES[lastBid.strain];
    } else if (passedOut) {
      state = "All four players passed: the board is passed out and each side scores zero";
    } else if (lastBid === null) {
      state = nextSeat ? "The auction is not complete; no one has bid yet and " + SEAT_NAMES[nextSeat] + " calls next" : "";
    } else {
      state = "The auction is not complete: the last bid is " + callText(lastBid) + risk + " by " + SEAT_NAMES[lastBidder] +
        " and " + SEAT_NAMES[nextSeat] + " calls next";
    }
    if (irregularity) {
      irregularity.cites.forEach(function (c) { if (cites.indexOf(c) < 0) cites.push(c); });
      state = "Call " + (irregularity.index + 1) + " (" + irregularity.call + " by " + SEAT_NAMES[irregularity.player] +
        ") is inadmissible, " + irregularity.problem + ", and Law " + irregularity.law + " applies. Before it: " +
        state.charAt(0).toLowerCase() + state.slice(1);
      if (!complete) state = state.split(" calls next").join(" was to call");
    } else {
      state += "; every call so far is legal";
    }
    return Result(result, state + ".", cites);
  }

  /* --- play.py ---------------------------------------------------------------------- */

  var TRUMP_LABELS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", NT: "no trump" };

  function trickWinner(cards, trumps) {
    var led = cards[0].suit, best = 0, bestS = null;
    function strength(c) {
      if (trumps !== "NT" && c.suit === trumps) return [2, c.value];
      if (c.suit === led) return [1, c.value];
      return [0, 0];
    }
    cards.forEach(function (c, i) {
      var s = strength(c);
      if (bestS === null || s[0] > bestS[0] || (s[0] === bestS[0] && s[1] > bestS[1])) { best = i; bestS = s; }
    });
    return best;
  }

  function trick(data, ed) {
    var cards = parseCards(data.cards, "cards"), trumps = data.trumps, led = cards[0].suit;
    var w = trickWinner(cards, trumps);
    var followed = [null].concat(cards.slice(1).map(function (c) { return c.suit === led; }));
    var trumped = trumps !== "NT" && cards.some(function (c) { return c.suit === trumps; }) && led !== trumps;
    var law = function (r) { return ed.law(r); };
    var cites = [law("lead"), law("trick")];
    var result = { winner: w, winning_card: String(cards[w]), complete: cards.length === 4, followed: followed, trumped: trumped };
    var hasLeader = has(data, "leader");
    var seatOf = function (i) { return hasLeader ? seatAfter(data.leader, i) : null; };
    if (hasLeader) result.winner_seat = seatOf(w);
    if (followed.some(function (f) { return f === false; })) cites.push(law("unable"));
    var revokeWords = "";
    if (has(data, "holdings")) {
      var hands = data.holdings;
      if (hands.length !== cards.length) {
        throw new CheckerError("Give one hand for each card played: " + cards.length + " cards, " + hands.length + " hands.", "holdings");
      }
      var revokes = [];
      hands.forEach(function (text, i) {
        var hand = parseCards(text, "holdings"), card = cards[i];
        if (!inCards(hand, card)) throw new CheckerError("Hand " + (i + 1) + " does not hold the " + card.words() + ", which it played.", "holdings");
        if (i && card.suit !== led && hand.some(function (c) { return c.suit === led; })) revokes.push(i);
      });
      result.revokes = revokes;
      if (revokes.length) {
        cites.push(law("revoke"));
        var named = revokes.map(function (i) {
          return "the " + cards[i].words() + (seatOf(i) ? " (" + SEAT_NAMES[seatOf(i)] + ")" : "") + " did not follow suit although " +
            "that player held " + SUIT_NAMES[led] + ", a revoke (Law " + law("follow") + " requires following suit)";
        }).join("; ");
        revokeWords = " " + named.charAt(0).toUpperCase() + named.slice(1) + ".";  // a sentence of its own
      }
    }
    cites.push(law("follow"));
    cites.push(cards.some(function (c) { return c.suit === trumps; }) ? law("trumped") : law("not_trumped"));
    if (cards.length === 4) cites.push(law("next_lead"));
    var who = seatOf(w) ? " by " + SEAT_NAMES[seatOf(w)] : "";
    var how = cards[w].suit === trumps && trumps !== "NT" ? "the highest trump (" + TRUMP_LABELS[trumps] + ")" :
      "the highest card of the suit led (" + SUIT_NAMES[led] + ")" + (trumps !== "NT" ? " as no trump was played" : "");
    var verb = cards.length === 4 ? "wins the trick" : "is winning the trick so far";
    var leadNext = cards.length === 4 && seatOf(w) ? ", and " + SEAT_NAMES[seatOf(w)] + " leads to the next trick" :
      cards.length === 4 ? ", and the winner leads to the next trick" : "";
    return Result(result, "The " + cards[w].words() + who + " " + verb + ": it is " + how + leadNext + "." + revokeWords, cites);
  }

  var DESIGNATIONS = {
    high: "'high' (or words of like meaning)", low: "'low' (or words of like meaning)", win: "'win' (or words of like meaning)",
    suit: "a suit but not a rank", rank: "a rank but not a suit", nothing: "neither suit nor rank ('play anything')",
    card: "a particular card"
  };

  function legalCards(dummy, trickCards) {
    if (!trickCards.length) return dummy.slice();
    var follow = dummy.filter(function (c) { return c.suit === trickCards[0].suit; });
    return follow.length ? follow : dummy.slice();
  }

  function knownToWin(card, trickCards, trumps, unseen) {
    var cards = trickCards.concat([card]);
    if (trickWinner(cards, trumps) !== trickCards.length) return false;
    if (cards.length === 4) return true;
    var led = cards[0].suit, isTrump = trumps !== "NT" && card.suit === trumps;
    return !unseen.some(function (u) {
      return (u.suit === card.suit && u.value > card.value) ||
        (!isTrump && trumps !== "NT" && u.suit === trumps && card.suit === led);
    });
  }

  function byRank(a, b) { return a.value - b.value; }
  function maxBy(cards, f) { return cards.reduce(function (m, c) { return f(c, m) > 0 ? c : m; }); }
  function minBy(cards, f) { return cards.reduce(function (m, c) { return f(c, m) < 0 ? c : m; }); }

  function dummyDesignation(data, ed) {
    var dummy = parseCards(data.dummy, "dummy", "dummy's card");
    var trickCards = parseCards(get(data, "trick", []), "trick");
    var trumps = data.trumps, how = data.designation;
    trickCards.forEach(function (c) {
      if (inCards(dummy, c)) throw new CheckerError("The " + c.words() + " is both in dummy and played to the trick.", "trick");
    });
    var legal = legalCards(dummy, trickCards), leading = !trickCards.length, led = trickCards.length ? trickCards[0].suit : null;
    var needed = { suit: "suit", rank: "rank", card: "card" }[how];
    if (needed && !has(data, needed)) throw new CheckerError("For " + DESIGNATIONS[how] + ", say which " + needed + " declarer named.", needed);
    var base = "Declarer named " + DESIGNATIONS[how];
    var law = function (r) { return ed.law(r); }, voidWord = ed.get("void");

    function answer(deemed, rule, why, chooser) {
      var result = { deemed: deemed ? String(deemed) : null, chooser: chooser || null, legal_cards: legal.map(String), rule: rule[0] };
      if (deemed && !inCards(legal, deemed)) {
        result.legal = false;
        why += " But the " + deemed.words() + " would not follow suit: dummy must follow suit when it can (Law " + law("follow") +
          "), so that card cannot be played.";
        rule = rule.concat([law("follow")]);
      } else if (deemed) {
        result.legal = true;
      }
      return Result(result, base + ": " + why, rule[0] === law("complete") ? rule : [law("incomplete")].concat(rule));
    }

    function poolFor(suit) {
      if (suit) return [dummy.filter(function (c) { return c.suit === suit; }), SUIT_NAMES[suit]];
      if (!leading && dummy.some(function (c) { return c.suit === led; })) return [dummy.filter(function (c) { return c.suit === led; }), SUIT_NAMES[led]];
      var suits = {};
      legal.forEach(function (c) { suits[c.suit] = true; });
      var list = Object.keys(suits);
      if (list.length === 1) return [dummy.filter(function (c) { return c.suit === list[0]; }), SUIT_NAMES[list[0]]];
      return [null, ""];
    }

    if (how === "high" || how === "low") {
      var rule = law(how), pw = poolFor(get(data, "suit", null)), pool = pw[0], words = pw[1];
      if (pool === null) {
        return answer(null, [rule], "the Law deems the " + (how === "high" ? "highest" : "lowest") + " card called, but dummy " +
          (leading ? "is on lead" : "cannot follow suit") + " and holds more than one suit, so the words do not say which card; " +
          "declarer must name the suit.", "declarer");
      }
      if (!pool.length) {
        return answer(null, [rule, law("not_in_dummy")], "dummy holds no " + words + "; as with a call of a card not in dummy, " +
          "the call is " + voidWord + " and declarer may designate any legal card.", "declarer");
      }
      var card = how === "high" ? maxBy(pool, byRank) : minBy(pool, byRank);
      return answer(card, [rule], "he is deemed to have called the " + (how === "high" ? "highest" : "lowest") + " card, the " + card.words() + ".");
    }

    if (how === "win") {
      var seen = parseCards(get(data, "seen", []), "seen"), unseen = [];
      SUITS.forEach(function (s) {
        RANKS.split("").forEach(function (r) {
          var c = new Card(s, r);
          if (!inCards(dummy, c) && !inCards(trickCards, c) && !inCards(seen, c)) unseen.push(c);
        });
      });
      var wpool = !has(data, "suit") ? legal : legal.filter(function (c) { return c.suit === data.suit; });
      var winners = wpool.filter(function (c) { return knownToWin(c, trickCards, trumps, unseen); });
      winners = winners.map(function (c, i) { return [c, i]; }).sort(function (a, b) {
        var ta = a[0].suit === trumps ? 1 : 0, tb = b[0].suit === trumps ? 1 : 0;
        return (ta - tb) || (a[0].value - b[0].value) || (a[1] - b[1]);
      }).map(function (x) { return x[0]; });
      if (!winners.length) {
        return answer(null, [law("win")], "he is deemed to have called the lowest card that it is known will win the trick, but no " +
          "card in dummy is known to win it, so the words do not designate a card; declarer must designate one.", "declarer");
      }
      var wsuits = {};
      winners.forEach(function (c) { wsuits[c.suit] = true; });
      if (leading && !has(data, "suit") && Object.keys(wsuits).length > 1) {
        return answer(null, [law("win")], "dummy has cards known to win in more than one suit (" + cardList(winners) +
          "), so the words do not say which; declarer must name the suit.", "declarer");
      }
      return answer(winners[0], [law("win")], "he is deemed to have called the lowest card that it is known will win the trick, the " +
        winners[0].words() + ".");
    }

    if (how === "suit") {
      var suit = data.suit, spool = dummy.filter(function (c) { return c.suit === suit; });
      if (!spool.length) {
        return answer(null, [law("suit"), law("not_in_dummy")], "dummy holds no " + SUIT_NAMES[suit] + "; as with a call of a " +
          "card not in dummy, the call is " + voidWord + " and declarer may designate any legal card.", "declarer");
      }
      var low = minBy(spool, byRank);
      return answer(low, [law("suit")], "he is deemed to have called the lowest card of the suit, the " + low.words() + ".");
    }

    if (how === "rank") {
      var rank = data.rank === "10" ? "T" : data.rank;
      if (leading && has(data, "previous_suit") && inCards(dummy, new Card(data.previous_suit, rank))) {
        var cont = new Card(data.previous_suit, rank);
        return answer(cont, [law("rank_leading")], "in leading he is deemed to have continued the suit in which dummy won the " +
          "preceding trick: the " + cont.words() + ".");
      }
      var ofRank = legal.filter(function (c) { return c.rank === rank; });
      if (ofRank.length === 1) {
        return answer(ofRank[0], [law("rank")], "dummy must play its one card of that rank that can legally be played, the " +
          ofRank[0].words() + ".");
      }
      if (ofRank.length > 1) {
        return answer(null, [law("rank")], "dummy can legally play more than one card of that rank (" + cardList(ofRank) +
          "): declarer must designate which is intended.", "declarer");
      }
      if (dummy.some(function (c) { return c.rank === rank; })) {
        return answer(null, [law("rank")], "dummy holds that rank only in a suit it may not play now (it must follow suit), so " +
          "declarer must designate a legal card.", "declarer");
      }
      return answer(null, [law("rank"), law("not_in_dummy")], "dummy holds no card of that rank; as with a call of a card not in " +
        "dummy, the call is " + voidWord + " and declarer may designate any legal card.", "declarer");
    }

    if (how === "nothing") {
      return answer(null, [law("nothing")], "without a suit or a rank, either defender may designate the play from dummy.", "either defender");
    }

    var named = parseCard(data.card, "card");
    if (!inCards(dummy, named)) {
      return answer(null, [law("not_in_dummy")], "dummy does not hold the " + named.words() + ": the call is " + voidWord +
        " and declarer may designate any legal card.", "declarer");
    }
    return answer(named, [law("complete")], "the " + named.words() + " is in dummy, a complete designation of suit and rank.");
  }

  function seeRuling(ruling) { return " The whole ruling, with declarer's options, is at " + ruling + "."; }

  function penaltyCard(data, ed) {
    var cards = parseCards(data.cards, "cards", "exposed card");
    var deliberate = get(data, "exposure", "inadvertent") === "deliberate";
    var ruling = ed.get("ruling"), see = seeRuling(ruling), kind, why;
    if (get(data, "player", "defender") === "declarer") {
      return Result({ kind: "none", penalty_cards: [], follows: ["Declarer is not required to play a card dropped accidentally."],
                      ruling: ruling },
        "No card of declarer's or dummy's hand ever becomes a penalty card; declarer is not restricted for exposing a card." + see,
        [ed.law("declarer")]);
    }
    if (cards.length > 1) { kind = "major"; why = "one defender has two or more penalty cards, so all of them are major"; }
    else if (cards[0].honour()) { kind = "major"; why = "the " + cards[0].words() + " is of honour rank, so it is a major penalty card"; }
    else if (deliberate) { kind = "major"; why = "the " + cards[0].words() + " was exposed through deliberate play, so it is major"; }
    else {
      kind = "minor";
      why = "the " + cards[0].words() + " is a single card below the rank of an honour exposed inadvertently, so it is a minor penalty card";
    }
    var follows = ed.get(kind).follows.slice(), cites = ed.get(kind).cites.slice();
    if (kind === "major" && cards.length > 1) { follows.push(ed.get("several")); cites.push(ed.law("several")); }
    return Result({ kind: kind, penalty_cards: cards.map(function (c) { return { card: String(c), kind: kind }; }),
                    follows: follows, ruling: ruling },
      "Under Law " + ed.law("kind") + " of the " + ed.title + ", " + why + "." + see, cites);
  }

  var EXCEPTIONS = {
    none: "no exception",
    subsequent: "a subsequent revoke in the same suit by the same player",
    "faced card": "a revoke in failing to play a card faced on the table (2017: a penalty card) or belonging to a hand faced " +
      "on the table, including dummy's",
    "next deal": "attention first drawn after a member of the non-offending side called on the next deal",
    "round ended": "attention first drawn after the round ended",
    "hands mixed": "attention first drawn after all players abandoned their hands and the cards were mixed",
    "both sides": "both sides revoked on the same board (2017: and both revokes became established)",
    corrected: "the revoke was corrected under Law 62C3 (both sides revoked on the same trick)"
  };

  function revoke(data, ed) {
    var wonBy = data.won_by, later = data.later_tricks, eligible = get(data, "eligible_card", false);
    var law = function (r) { return ed.law(r); };
    if (has(data, "revoke_trick") && later > 13 - data.revoke_trick) {
      throw new CheckerError("After a revoke on trick " + data.revoke_trick + " there are only " + (13 - data.revoke_trick) +
        " tricks left.", "later_tricks");
    }
    if (eligible && later === 0) {
      throw new CheckerError("The offender cannot have won a later trick when the offending side won no trick after the revoke trick.",
        "eligible_card");
    }
    var ruling = ed.get("ruling"), equityWords = " " + ed.get("equity") + seeRuling(ruling);
    function answer(n, rule, why) {
      var after = ed.get("redress_after"), more = has(after, rule[0]) ? [after[rule[0]]] : [];
      return Result({ tricks_transferred: n, rule: rule[0], ruling: ruling },
        "Under Law 64 of the " + ed.title + ", " + why + equityWords, rule.concat(more).concat(ed.get("redress")));
    }
    var exception = get(data, "exception", "none"), note = "", n, why;
    if (exception !== "none") {
      var words = EXCEPTIONS[exception], provision = ed.get("exceptions")[exception];
      if (provision) return answer(0, [provision], "no trick is transferred: " + words + ".");
      note = " (" + words.charAt(0).toUpperCase() + words.slice(1) + " is not an exception in this edition.)";
    }
    if (get(data, "revoke_trick", null) === 12) return answer(0, [law("twelfth")], "no trick is transferred for a revoke on the twelfth trick." + note);
    if (wonBy === "offending player") {
      n = 1 + (later ? 1 : 0);
      why = "the offending player won the revoke trick, so it is transferred" +
        (later ? " together with one of the later tricks the offending side won" : "; the offending side won no later trick to add to it") +
        ": " + n + " trick" + s_(n) + ".";
      return answer(n, [law("offender_won")], why + note);
    }
    if (ed.get("scheme") === "duplicate") {
      if (wonBy === "offender's partner" || later) {
        var who = wonBy === "offender's partner" ? "the offender's partner won the revoke trick" :
          "the non-offending side won the revoke trick but the offending side won a later trick";
        return answer(1, [law("one_trick")], who + ", so one trick is transferred." + note);
      }
      return answer(0, [law("no_trick")], "the offending side won neither the revoke trick nor any later trick, so no trick is transferred." + note);
    }
    if (wonBy === "offender's partner") {
      n = 1 + (eligible ? 1 : 0);
      why = "the offender's partner won the revoke trick, so it is transferred" +
        (eligible ? ", and one more because the offender won a later trick with a card he could legally have played to the revoke trick" : "") +
        ": " + n + " trick" + s_(n) + ".";
      return answer(n, [law("partner_won")], why + note);
    }
    if (!later) return answer(0, [law("no_trick")], "the offending side won neither the revoke trick nor any later trick, so there is no trick penalty." + note);
    var extra = eligible && later >= 2;
    n = 1 + (extra ? 1 : 0);
    why = "the non-offending side won the revoke trick, so the first later trick the offending side won is transferred" +
      (extra ? ", and one more because it won two or more later tricks, one of them by the offender with a card he could legally have played to the revoke trick" : "") +
      ": " + n + " trick" + s_(n) + ".";
    return answer(n, [law("other_side_won")].concat(extra ? [law("second_trick")] : []), why + note);
  }

  /* --- conversions.py: scoring by regulation (Law 78D) -------------------------- */

  /* numerator / denominator to the nearest whole number, exactly, halves
     away from zero (whole numbers well inside 2^53) */
  function divRound(numerator, denominator) {
    var a = Math.abs(numerator), q = Math.floor(a / denominator), r = a - q * denominator;
    if (2 * r >= denominator) q += 1;
    return q === 0 ? 0 : numerator >= 0 ? q : -q;
  }

  function hundredths(n) { return n / 100; }

  function signedImps(n) { return n > 0 ? "+" + str(n) : str(n); }

  /* the same operations, in the same order, as conversions._exp */
  function expSeries(x) {
    var terms = [1.0], term = 1.0, total = 0.0, k;
    for (k = 1; k < 60; k++) {
      term = term * x / k;
      terms.push(term);
    }
    for (k = terms.length - 1; k >= 0; k--) total = total + terms[k];
    return total;
  }

  function vpScale(scale, boards, margin) {
    var blitz = scale.blitz_per_root_board * Math.sqrt(boards);
    if (margin >= blitz) return [scale.maximum, blitz];
    var tau = scale.tau;
    var power = 1 / expSeries(-(scale.exponent * margin / blitz) * scale.ln_tau);
    var top = 1 - tau * tau * tau;
    return [scale.draw + (scale.maximum - scale.draw) * (1 - power) / top, blitz];
  }

  function victoryPoints(data, ed) {
    var scale = ed.tables.victory_points;
    var boards = data.boards, margin = num(data.margin);
    var vb = vpScale(scale, boards, Math.abs(margin)), blitz = vb[1];
    var winner = num(vb[0]);
    var cents = Math.round(winner * 100);
    var loser = hundredths(scale.maximum * 100 - cents);
    var a = margin >= 0 ? winner : loser, b = margin >= 0 ? loser : winner;
    var capped = Math.abs(margin) >= blitz;
    var who = margin === 0 ? "neither team won: a draw" :
      "team " + (margin > 0 ? "A" : "B") + " won by " + str(num(Math.abs(margin))) + " IMP" + (Math.abs(margin) === 1 ? "" : "s");
    var root = scale.blitz_per_root_board + " × √" + boards;
    var how = capped ?
      "that reaches the blitz of " + str(num(blitz)) + " IMPs (" + root + "), so the winner gets the maximum" :
      "against a blitz of " + str(num(blitz)) + " IMPs (" + root + ") the formula gives " + str(num(winner)) +
      " VPs to the " + (margin ? "winner" : "each team");
    var explanation = "Over " + boards + " board" + (boards !== 1 ? "s" : "") + " " + who + "; " + how + ": team A " +
      str(a) + " VPs, team B " + str(b) + " VPs (rounded to two decimals, the loser getting " + scale.maximum +
      " less the winner's). The scale is the " + scale.name + ", which applies only where the Regulating Authority " +
      "adopts it (Law " + ed.law("regulation") + "); the Laws themselves give only IMPs.";
    return Result({ team_a: a, team_b: b, blitz: num(blitz), capped: capped }, explanation, [ed.law("regulation")]);
  }

  function crossImps(data, ed) {
    var scores = data.scores, bands = ed.tables.imps.bands, n = scores.length - 1;
    var totals = scores.map(function (s, i) {
      var t = 0;
      scores.forEach(function (o, j) { if (j !== i) t += impsFor(bands, s - o); });
      return t;
    });
    var averages = totals.map(function (t) { return hundredths(divRound(t * 100, n)); });
    var explanation = "Each of the " + scores.length + " scores is compared with each of the " + n + " other" +
      (n !== 1 ? "s" : "") + " (not with itself), each difference converted to IMPs on Law " + ed.law("imps") +
      "'s scale; the total is divided by the " + n + " comparison" + (n !== 1 ? "s" : "") + " and rounded to two " +
      "decimals (halves away from zero): " +
      scores.map(function (s, i) { return str(s) + " gets " + signedImps(totals[i]) + " (" + signedImps(averages[i]) + " a comparison)"; }).join(", ") +
      ". Scoring by cross-IMPs and the averaging are regulation (Law " + ed.law("regulation") + "), not the Laws.";
    return Result({ imps: totals, average: averages, comparisons: n }, explanation, [ed.law("imps"), ed.law("regulation")]);
  }

  function butler(data, ed) {
    var scores = data.scores, drop = data.drop, unit = ed.tables.butler.datum_rounding;
    if (2 * drop >= scores.length) {
      throw new CheckerError("Dropping the top " + drop + " and the bottom " + drop + " of " + scores.length + " score" +
        (scores.length !== 1 ? "s" : "") + " leaves none for the datum: drop fewer.", "drop");
    }
    var kept = numSort(scores).slice(drop, scores.length - drop);
    var total = sum(kept);
    var mean = hundredths(divRound(total * 100, kept.length));
    var datum = divRound(total, kept.length * unit) * unit;
    var bands = ed.tables.imps.bands;
    var each = scores.map(function (s) { return impsFor(bands, s - datum); });
    var left = drop ? "leaving out the top " + drop + " and the bottom " + drop + " (a number set by regulation), the mean of the other " +
      kept.length + " is " + str(mean) : "none left out (the regulation drops none), the mean is " + str(mean);
    var explanation = "Of the " + scores.length + " score" + (scores.length !== 1 ? "s" : "") + ", " + left +
      "; rounded to the nearest " + unit + " (a mean ending in exactly 5 rounds away from zero) the datum is " + str(datum) +
      ". Each score's difference from the datum in IMPs on Law " + ed.law("imps") + "'s scale: " +
      scores.map(function (s, i) { return str(s) + " gets " + signedImps(each[i]); }).join(", ") +
      ". The datum and how it is made are regulation (Law " + ed.law("regulation") + "), not the Laws.";
    return Result({ datum: datum, mean: mean, kept: kept.length, imps: each }, explanation, [ed.law("imps"), ed.law("regulation")]);
  }

  var CHECKERS = {
    board: board, score: score, imps: imps, matchpoints: matchpoints, "artificial-score": artificialScore,
    "weighted-score": weightedScore, "team-average": teamAverage, "victory-points": victoryPoints,
    "cross-imps": crossImps, butler: butler, auction: auction, trick: trick,
    "dummy-designation": dummyDesignation, "penalty-card": penaltyCard, revoke: revoke
  };

  /* registry.run */
  function run(id, payload, ctx) {
    var fn = CHECKERS[id];
    if (!fn) throw new CheckerError("This checker is not available on this device.", null);
    var schema = ctx.schema;
    var data = validate(schema, payload);
    var edition = ctx["default"];
    Object.keys(schema.properties).forEach(function (k) {
      if (schema.properties[k]["x-edition"] && has(data, k)) edition = data[k];
    });
    var out = fn(data, new Edition(edition, ctx.editions[edition]));
    return carriedReply({ result: out.result, explanation: out.explanation, cites: out.cites, edition: edition },
                        ctx.editions[edition].carried);
  }

  /* registry.py's _carried_reply: in a code the checker's data was carried
     into, an older code's provision awaiting review ("2017:77") is written
     "77 (2017 Laws)" in the words (codes.py's carried_words), and the reply
     says whose rules it followed and whether they are reviewed */
  function carriedReply(reply, carried) {
    if (!carried) return reply;
    var pending = Object.keys(carried.notes).sort(function (a, b) { return b.length - a.length; });
    function words(value, key) {
      if (typeof value === "string") {
        pending.forEach(function (q) {
          var i = q.indexOf(":");
          value = value.split(q).join(q.slice(i + 1) + " (" + q.slice(0, i) + " Laws)");
        });
        return value;
      }
      if (Array.isArray(value)) return key === "cites" ? value : value.map(function (v) { return words(v); });
      if (value && typeof value === "object") {
        var o = {};
        Object.keys(value).forEach(function (k) { o[k] = words(value[k], k); });
        return o;
      }
      return value;
    }
    var notes = Object.keys(carried.notes).map(function (q) { return carried.notes[q]; });
    return { result: words(reply.result), explanation: words(reply.explanation), cites: reply.cites, edition: reply.edition,
             carried_from: carried.from, reviewed: notes.length === 0,
             review: notes.length ? "not yet reviewed for " + reply.edition + ": " + notes.join("; ") : null };
  }

  /* --- laws/web/checkers.py: form fields to input -------------------------------- */

  function splitList(text, prop) {
    var sep = prop["x-split"];
    var parts = sep ? text.split(sep) : text.split(/[\s,;]+/);
    return parts.map(pyStrip).filter(function (p) { return p; });
  }

  var INT = /^[+-]?[0-9]+(?:_[0-9]+)*$/;
  var FLOAT = /^[+-]?(?:(?:[0-9]+(?:_[0-9]+)*)?\.?[0-9]+(?:_[0-9]+)*(?:[eE][+-]?[0-9]+(?:_[0-9]+)*)?|[0-9]+(?:_[0-9]+)*\.|inf|infinity|nan)$/i;

  function toNumber(text, integer) {
    var t = pyStrip(text).split("−").join("-");
    if (INT.test(t)) return Number(t.replace(/_/g, ""));
    if (integer) return t;
    if (!FLOAT.test(t)) return t;
    var low = t.toLowerCase().replace(/^[+-]/, "");
    var f = low === "nan" ? NaN : (low === "inf" || low === "infinity") ? (t.charAt(0) === "-" ? -Infinity : Infinity)
      : Number(t.replace(/_/g, ""));
    return f;
  }

  function formToInput(schema, params) {
    var data = {};
    var required = schema.required || [];
    Object.keys(schema.properties || {}).forEach(function (name) {
      var prop = schema.properties[name], kind = prop.type, raw = params.get(name);
      if (kind === "boolean") { data[name] = ["on", "true", "1", "yes"].indexOf(raw) >= 0; return; }
      if (raw === null) return;
      if (kind === "array") {
        var items = prop.items || {}, values = splitList(raw, prop);
        if (items.type === "integer" || items.type === "number") values = values.map(function (v) { return toNumber(v, items.type === "integer"); });
        else if (items["enum"]) values = values.map(function (v) { return v.toUpperCase(); });
        if (values.length || required.indexOf(name) >= 0) data[name] = values;
        return;
      }
      if (prop["enum"]) {
        if (raw === "" && prop["enum"].indexOf("") < 0) return;
        data[name] = raw;
        return;
      }
      if (pyStrip(raw) === "") return;
      if (kind === "integer" || kind === "number") data[name] = toNumber(raw, kind === "integer");
      else data[name] = pyStrip(raw);
    });
    return data;
  }

  root.LawbookCheckers = { run: run, formToInput: formToInput, validate: validate, CheckerError: CheckerError,
                           ported: Object.keys(CHECKERS), repr: repr, num: num };
})(typeof self !== "undefined" ? self : this);
