/* Citations as the jump box reads them, in the browser and in the service
   worker: the same grammar as laws/citations.py `parse` and `candidates`, and
   the same choice of edition as laws/web/pages.py `resolve` (tests check that
   both give the same address). */
(function (root) {
  "use strict";
  var QUERY = /^\s*(?:laws?|l)?\s*\.?\s*(\d{1,2})\s*([a-h])?\s*\.?\s*(\d{1,2})?\s*((?:\(?\s*(?:[a-z]|[ivx]{1,4})\s*\)?\s*)*)$/i;

  function parse(query) {
    if (!query || query.length > 40) return null;
    var m = QUERY.exec(query.trim());
    if (!m) return null;
    var law = parseInt(m[1], 10);
    if (law < 1 || law > 99) return null;
    var letter = (m[2] || "").toUpperCase();
    var number = m[3] || "";
    var subs = (m[4] || "").toLowerCase().match(/[a-z]+/g) || [];
    for (var i = 0; i < subs.length; i++) {
      if (subs[i].length > 1 && !/^[ivx]+$/.test(subs[i])) return null;
    }
    if (number && !letter) number = "." + number;
    return [law, String(law) + letter + number + subs.map(function (s) { return "(" + s + ")"; }).join("")];
  }

  /* '2007 45C4', '2007:45C4' -> ["2007", "45C4"]: citations.split_edition */
  function splitEdition(query, ids) {
    var m = /^\s*([\w-]+)\s*(?::|\s)\s*(.+)$/.exec(query || "");
    if (m) {
      var named = ids.filter(function (id) { return id.toLowerCase() === m[1].toLowerCase(); })[0];
      if (named !== undefined) return [named, m[2]];
    }
    return [null, query];
  }

  function candidates(pid) {
    var m = /^\d{1,2}/.exec(pid);
    if (!m) return [];
    var parts = pid.slice(m[0].length).match(/\([^()]+\)|[A-H]|\.\d{1,2}|\d{1,2}/g) || [];
    var out = [];
    for (var i = parts.length; i >= 0; i--) out.push(m[0] + parts.slice(0, i).join(""));
    return out;
  }

  function frag(pid) {
    return encodeURIComponent(pid).replace(/%3A/gi, ":").replace(/%2C/gi, ",");
  }

  function lawUrl(edition, law, pid) {
    var url = "/" + encodeURIComponent(edition) + "/law/" + law;
    return pid && pid !== String(law) ? url + "#" + frag(pid) : url;
  }

  /* index: /offline/index.json ({editions: [{id, laws: {"12": [ids]}}]}, newest first) */
  function resolve(index, query, hint) {
    if (!index || !index.editions) return null;
    var split = splitEdition(query, index.editions.map(function (e) { return e.id; })), named = split[0];
    var parsed = parse(split[1]);
    if (!parsed) return null;
    var law = parsed[0], pid = parsed[1], key = String(law);
    var withLaw = index.editions.filter(function (e) { return e.laws[key] && (named === null || e.id === named); });
    if (!withLaw.length) return null;
    var hinted = withLaw.filter(function (e) { return e.id === hint; });
    var exact = withLaw.filter(function (e) { return e.laws[key].indexOf(pid) >= 0; });
    var ed = hinted[0] || exact[0] || withLaw[0];
    var have = ed.laws[key];
    var target = candidates(pid).filter(function (c) { return have.indexOf(c) >= 0; })[0] || key;
    return lawUrl(ed.id, law, target);
  }

  root.LawbookCite = { parse: parse, splitEdition: splitEdition, candidates: candidates, resolve: resolve, lawUrl: lawUrl };
})(typeof self !== "undefined" ? self : this);
