/* The offline search page (/offline/search, which the service worker also
   shows for /search and for words in the jump box when there is no
   connection): the question from the address, answered by static/search.js
   over the payload this device keeps.  Results are built as DOM text: nothing
   from the payload is read as HTML. */
(function () {
  "use strict";
  var list = document.getElementById("offline-results");
  var msg = document.getElementById("offline-message");
  var input = document.getElementById("search-q");
  if (!list || !window.LawbookSearch) return;
  var params = new URLSearchParams(location.search);
  var q = (params.get("q") || "").trim();
  if (input) input.value = q;
  if (!q) return;
  var NAMES = { "2007": "2007 Laws", "2017": "2017 Laws", "1993-rubber": "1993 rubber-bridge code", "dbrs-2017": "Simplified guide" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  msg.textContent = "Searching this device…";
  fetch("/offline/search.json", { credentials: "same-origin" })
    .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(function (payload) {
      var engine = window.LawbookSearch.create(payload);
      var names = {};
      payload.editions.forEach(function (e) { names[e.id] = NAMES[e.id] || e.title; });
      var found = engine.search(q, { limit: 20 });
      document.documentElement.dataset.offlineSearch = "done";
      msg.textContent = found.message || ("Offline: " + found.results.length + " result" + (found.results.length === 1 ? "" : "s") + " from the laws on this device.");
      found.results.forEach(function (r) {
        var li = el("li", "result kind-" + r.kind);
        var h = el("h2");
        var a = el("a");
        a.href = r.url;
        a.textContent = r.kind === "law" ? "Law " + r.provision + (r.title ? " — " + r.title : "")
          : r.kind === "definition" ? "Definition: " + r.title
          : r.kind === "compare" ? r.title : "Guide: " + r.title;
        h.appendChild(a);
        li.appendChild(h);
        li.appendChild(el("p", "meta", (r.kind === "compare" ? r.heading : (names[r.edition] || r.edition) + (r.heading ? " · " + r.heading : ""))));
        if (r.snippet) li.appendChild(el("p", "snippet", r.snippet));
        if (r.plain) {
          var pw = el("p", "plain-words result-plain");
          var label = el("span", "pw-label", "In plain words ");
          label.appendChild(el("span", "pw-not", "· not part of the Laws"));
          pw.appendChild(label);
          pw.appendChild(document.createTextNode(" " + r.plain));
          li.appendChild(pw);
        }
        if (r.ruling) {
          var go = el("p", "to-ruling"), link = el("a", "button", r.ruling.title + " →");
          link.href = r.ruling.url;
          go.appendChild(link);
          li.appendChild(go);
        }
        list.appendChild(li);
      });
    })
    .catch(function () {
      msg.textContent = "Search needs a connection: this device has not kept the search yet. Citations such as 27B1 still open in the box above.";
    });
})();
