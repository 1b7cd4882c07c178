/* PBN 2.1 read and written on the phone: laws/rulings/pbn.py, the same
   grammar and the same results (the tests read tests/fixtures/pbn/ with
   both).  Reading and writing happen here, on the phone: a PBN file holds
   the players' names and the hands, which never go to the server.
   LawbookPBN.parse(text) -> [{tags, sections, commentary}]
   LawbookPBN.deal(value) -> {N: [S, H, D, C] or null, E…, S…, W…}
   LawbookPBN.read(text) -> [the record's fields of each game]
   LawbookPBN.write(fields, commentary) -> PBN text
   Errors: LawbookPBN.PBNError {message, tag}. */
(function (root) {
  "use strict";
  var SEATS = "NESW", SUITS = "SHDC", RANKS = "AKQJT98765432", MAX_TEXT = 200000;
  var VULNERABLE = { None: "None", Love: "None", "-": "None", NS: "NS", EW: "EW", All: "Both", Both: "Both" };
  var VULNERABLE_OUT = { None: "None", NS: "NS", EW: "EW", Both: "All" };
  var PLAYERS = { N: "north", E: "east", S: "south", W: "west" }, TAGS = { N: "North", E: "East", S: "South", W: "West" };

  function PBNError(message, tag) { this.message = message; this.tag = tag === undefined ? null : tag; }
  PBNError.prototype = Object.create(Error.prototype);
  PBNError.prototype.name = "PBNError";

  function repr(v) { return v.indexOf("'") >= 0 && v.indexOf('"') < 0 ? '"' + v + '"' : "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'"; }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  var TOKEN = /\{[^}]*\}?|\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]|;[^\n]*|\n[ \t]*(?=\n)|[^\s\[\]{};]+|\[[^\]]*\]?/g;

  function parse(text) {
    if (text.length > MAX_TEXT) throw new PBNError("A PBN file for a record is at most " + MAX_TEXT + " characters.");
    text = text.replace(/\r\n/g, "\n").split("\n").filter(function (l) { return l.charAt(0) !== "%"; }).join("\n");
    var games = [], game = null, section = null, previous = {}, m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) {
      var tok = m[0];
      if (tok.charAt(0) === "\n") {
        if (game !== null) { games.push(game); previous = game.tags; game = null; section = null; }
        continue;
      }
      if (tok.charAt(0) === ";") continue;
      if (tok.charAt(0) === "{") {
        if (tok.charAt(tok.length - 1) !== "}" || tok.length < 2) throw new PBNError("A commentary opened with { is not closed with }.");
        if (game !== null) game.commentary.push(tok.slice(1, -1).trim());
        continue;
      }
      if (tok.charAt(0) === "[") {
        if (m[1] === undefined) throw new PBNError(repr(tok.slice(0, 40)) + " is not a tag pair like [Event \"…\"].");
        var name = m[1], value = m[2].replace(/\\(.)/g, "$1");
        if (game === null) game = { tags: {}, sections: {}, commentary: [] };
        game.tags[name] = value === "#" ? (has(previous, name) ? previous[name] : "") : value;
        section = name === "Auction" || name === "Play" ? name : null;
        if (section) game.sections[section] = [];
        continue;
      }
      if (section) game.sections[section].push(tok);
    }
    if (game !== null) games.push(game);
    return games;
  }

  function sortRanks(cards) { return cards.split("").sort(function (a, b) { return RANKS.indexOf(a) - RANKS.indexOf(b); }).join(""); }

  function deal(value) {
    var v = value.trim(), m = /^([NESWnesw]):([\s\S]*)$/.exec(v);
    if (!m) throw new PBNError("Deal: " + repr(v.slice(0, 30)) + " does not start with the first seat and a colon (like N:).", "Deal");
    var hands = m[2].split(/\s+/).filter(Boolean);
    if (hands.length !== 4) throw new PBNError("Deal: it gives " + hands.length + " hands, not 4 (a hand not known is -).", "Deal");
    var first = SEATS.indexOf(m[1].toUpperCase()), out = {}, seen = {};
    hands.forEach(function (hand, i) {
      var seat = SEATS[(first + i) % 4];
      if (hand === "-") { out[seat] = null; return; }
      var suits = hand.toUpperCase().split(".");
      if (suits.length !== 4) throw new PBNError("Deal: " + TAGS[seat] + "'s hand " + repr(hand) + " has " + suits.length + " suits, not 4 (spades.hearts.diamonds.clubs).", "Deal");
      suits = suits.map(function (c) { return c.replace(/10/g, "T"); });
      suits.forEach(function (cards, j) {
        cards.split("").forEach(function (r) {
          var card = SUITS[j] + r;
          if (RANKS.indexOf(r) < 0) throw new PBNError("Deal: " + repr(r) + " in " + TAGS[seat] + "'s hand is not a rank (AKQJT98765432).", "Deal");
          if (has(seen, card)) throw new PBNError("Deal: the " + card + " is dealt twice (" + TAGS[seen[card]] + " and " + TAGS[seat] + ").", "Deal");
          seen[card] = seat;
        });
      });
      var count = suits.join("").length;
      if (count !== 13) throw new PBNError("Deal: " + TAGS[seat] + "'s hand has " + count + " cards, not 13.", "Deal");
      out[seat] = suits.map(sortRanks);
    });
    var ordered = {};
    SEATS.split("").forEach(function (s) { ordered[s] = out[s]; });
    return ordered;
  }

  function dealText(hands) {
    return "N:" + SEATS.split("").map(function (s) { return hands[s] === null ? "-" : hands[s].join("."); }).join(" ");
  }

  var CALL = /^(PASS|AP|X|XX|[1-7](C|D|H|S|NT))$/i, CARD = /^[SHDC][AKQJT98765432]$/i;

  function tokens(list, pattern, tag, what) {
    var out = [];
    list.forEach(function (t) {
      if (/^=\d+=$/.test(t) || /^\$\d+$/.test(t) || t === "*" || t === "+") return;
      t = t.replace(/[!?]+$/, "");
      if (t === "-" || pattern.test(t)) out.push(t.toUpperCase() === "PASS" ? "Pass" : t === "-" ? t : t.toUpperCase());
      else if (t) throw new PBNError(tag + ": " + repr(t.slice(0, 20)) + " is not a " + what + ".", tag);
    });
    return out;
  }

  function facts(game) {
    var tags = game.tags, out = {}, get = function (k) { return has(tags, k) ? tags[k] : ""; };
    [["Event", "event"], ["Site", "site"], ["Board", "board"], ["Round", "round"]].forEach(function (p) {
      var v = get(p[0]).trim();
      if (v && v !== "?") out[p[1]] = v;
    });
    if (/^\d{4}\.\d{2}\.\d{2}$/.test(get("Date"))) out.date = get("Date").replace(/\./g, "-");
    Object.keys(PLAYERS).forEach(function (s) {
      var name = get(TAGS[s]).trim();
      if (name && name !== "?") out[PLAYERS[s]] = name;
    });
    if (get("Dealer") && SEATS.indexOf(get("Dealer").toUpperCase()) >= 0 && get("Dealer").length === 1) out.dealer = get("Dealer").toUpperCase();
    if (has(VULNERABLE, get("Vulnerable"))) out.vulnerable = VULNERABLE[get("Vulnerable")];
    if (get("Deal").trim() && get("Deal").trim() !== "?") out.deal = dealText(deal(get("Deal")));
    [["Auction", "auction", CALL, "call"], ["Play", "cardplay", CARD, "card"]].forEach(function (p) {
      var first = get(p[0]).trim().toUpperCase();
      if (first.length === 1 && SEATS.indexOf(first) >= 0) {
        var t = tokens(game.sections[p[0]] || [], p[2], p[0], p[3]);
        if (t.length) out[p[1]] = [first].concat(t).join(" ");
      }
    });
    var contract = get("Contract").trim().toUpperCase();
    if (/^[1-7](C|D|H|S|NT)(X|XX)?$/.test(contract)) out.result_contract = contract;
    var declarer = get("Declarer").trim().toUpperCase();
    if (declarer.length === 1 && SEATS.indexOf(declarer) >= 0) out.result_declarer = declarer;
    if (/^(1[0-3]|\d)$/.test(get("Result").trim())) out.result_tricks = get("Result").trim();
    return out;
  }

  function read(text) { return parse(text).map(facts); }

  function quote(value) { return '"' + String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, " ") + '"'; }

  function write(rec, commentary) {
    function tag(name, value) { return "[" + name + " " + quote(value === undefined || value === null || value === "" ? "?" : value) + "]"; }
    var date = rec.date || "";
    var out = ["% PBN 2.1", "% EXPORT", "% Lawbook ruling record",
      tag("Event", rec.event), tag("Site", rec.site), tag("Date", date ? date.replace(/-/g, ".") : "????.??.??"),
      tag("Round", rec.round), tag("Board", rec.board)];
    ["W", "N", "E", "S"].forEach(function (s) { out.push(tag(TAGS[s], rec[PLAYERS[s]])); });
    out.push(tag("Dealer", rec.dealer), tag("Vulnerable", has(VULNERABLE_OUT, rec.vulnerable || "") ? VULNERABLE_OUT[rec.vulnerable] : "?"),
      tag("Deal", rec.deal ? dealText(deal(rec.deal)) : "?"), tag("Scoring", rec.scoring), tag("Declarer", rec.result_declarer),
      tag("Contract", rec.result_contract), tag("Result", rec.result_tricks));
    [["Auction", "auction"], ["Play", "cardplay"]].forEach(function (p) {
      if (!rec[p[1]]) return;
      var t = rec[p[1]].split(/\s+/).filter(Boolean);
      out.push(tag(p[0], t[0]));
      for (var i = 1; i < t.length; i += 4) out.push(t.slice(i, i + 4).join(" "));
    });
    if (commentary) out.push("{" + commentary.replace(/\}/g, ")").replace(/\{/g, "(") + "}");
    return out.join("\n") + "\n";
  }

  root.LawbookPBN = { parse: parse, deal: deal, dealText: dealText, facts: facts, read: read, write: write, PBNError: PBNError };
})(typeof self !== "undefined" ? self : this);
