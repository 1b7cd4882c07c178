/* The offline pages.

   /offline (which the service worker also shows for a page this device does
   not hold): says which of the two it is, how much of the kit this device
   holds (the service worker's STATUS record, in its "lawbook-meta" cache),
   the space Lawbook takes here (navigator.storage.estimate(), else the sum
   of the kept responses' sizes, else "unknown"), and which other editions
   the reader keeps.  Read from this device's own caches, so it is true
   with no connection.

   /offline/search (which the service worker also shows for /search and for
   words in the jump box when there is no connection): the question from the
   address, answered by static/search.js over the payload this device keeps,
   from the editions this device keeps (the code in force, the guide, and
   each edition the reader kept: the service worker's KEPT record), and
   saying which, in the words the server's search page uses.
   Results are built as DOM text: nothing from the payload is read as HTML. */
(function () {
  "use strict";
  var kit = document.getElementById("offline-kit");
  if (!kit) return;
  var root = document.documentElement;
  var status = document.getElementById("offline-status");
  var space = document.getElementById("offline-space");

  if (location.pathname === "/offline") {
    /* the page itself, not the stand-in for a page not saved */
    document.getElementById("offline-title").textContent = "Lawbook offline";
    document.getElementById("not-saved").hidden = true;
  }
  if (!window.caches) {
    status.textContent = "This browser keeps nothing for offline use: Lawbook needs a connection here.";
    root.dataset.offlineKit = "none";
    return;
  }

  function meta(key) {
    return caches.open("lawbook-meta").then(function (c) { return c.match(key); })
      .then(function (r) { return r ? r.json() : null; }).catch(function () { return null; });
  }
  function size(bytes) {
    if (bytes >= 1024 * 1024) return (bytes / 1024 / 1024).toFixed(1) + " MB";
    return Math.max(1, Math.round(bytes / 1024)) + " KB";
  }
  /* what the kept responses weigh, cache by cache (Lawbook's caches only) */
  function summed() {
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.indexOf("lawbook-") === 0; }).map(function (k) {
        return caches.open(k).then(function (c) {
          return c.keys().then(function (reqs) {
            return Promise.all(reqs.map(function (r) {
              return c.match(r).then(function (resp) { return resp ? resp.blob().then(function (b) { return b.size; }) : 0; });
            }));
          });
        });
      }));
    }).then(function (lists) {
      var total = 0;
      lists.forEach(function (l) { l.forEach(function (n) { total += n; }); });
      return total;
    });
  }
  function showSpace() {
    var estimate = navigator.storage && navigator.storage.estimate ? navigator.storage.estimate() : Promise.reject();
    return estimate.then(function (e) {
      if (!e || typeof e.usage !== "number") throw new Error("no estimate");
      space.textContent = "Space taken on this device: about " + size(e.usage) + " (the browser's own count for Lawbook).";
    }).catch(function () {
      return summed().then(function (total) {
        space.textContent = "Space taken on this device: " + size(total) + " (the pages and files Lawbook keeps).";
      });
    }).catch(function () { space.textContent = "Space taken on this device: unknown."; });
  }
  function showStatus() {
    return meta("/offline/status").then(function (s) {
      if (!s) {
        root.dataset.offlineKit = "none";
        status.textContent = "Nothing is kept on this device yet: open Lawbook once with a connection.";
        return;
      }
      root.dataset.offlineKit = s.complete ? "complete" : "partial";
      status.textContent = s.complete
        ? "All " + s.total + " pages are on this device, ready with no connection."
        : (s.total - s.missing) + " of " + s.total + " pages are on this device; the other " + s.missing
          + " come the next time Lawbook is opened with a connection.";
    });
  }
  function showKept() {
    return meta("/offline/kept").then(function (kept) {
      kept = kept || [];
      Array.prototype.forEach.call(document.querySelectorAll("#offline-others li"), function (li) {
        if (kept.indexOf(li.dataset.edition) < 0) return;
        li.dataset.kept = "yes";
        var state = li.querySelector(".kept-state");
        state.textContent = state.textContent.replace(/not kept$/, "kept on this device");
      });
    });
  }
  function refresh() { return Promise.all([showStatus(), showSpace(), showKept()]); }

  status.textContent = "Looking at what this device holds…";
  refresh();
  /* a pass of the service worker ended while this page was open */
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (e) {
      if (e.data && (e.data.type === "precached" || e.data.type === "kept")) refresh();
    });
  }
})();

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
  /* an edition's short name, made as the footer makes it (laws.web.site.footer_editions) */
  function shortName(e) {
    if (e.kind === "guide") return "Simplified guide";
    if (e.kind !== "code" || !e.year) return e.title;
    return e.year + " Laws" + (e.family && e.family !== "duplicate" ? " (" + e.family + ")" : "");
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  /* the editions the reader keeps ("Keep offline"), as the service worker
     records them (templates/sw.js KEPT, in its "lawbook-meta" cache) */
  function keptEditions() {
    if (!window.caches) return Promise.resolve([]);
    return caches.open("lawbook-meta").then(function (c) { return c.match("/offline/kept"); })
      .then(function (r) { return r ? r.json() : []; }).catch(function () { return []; });
  }

  msg.textContent = "Searching this device…";
  Promise.all([fetch("/offline/search.json", { credentials: "same-origin" })
    .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); }), keptEditions()])
    .then(function (got) {
      var payload = got[0], kept = Array.isArray(got[1]) ? got[1] : [];
      var engine = window.LawbookSearch.create(payload);
      var names = {};
      payload.editions.forEach(function (e) { names[e.id] = shortName(e); });
      /* what every device keeps (the code in force and the guide: the kit,
         laws.web.site.kit) and what the reader chose to keep; a result from
         an edition not kept would open on "You are offline" */
      var editions = payload.editions.filter(function (e) {
        return e.in_force || e.kind === "guide" || kept.indexOf(e.id) >= 0;
      }).map(function (e) { return e.id; });
      var found = engine.search(q, { limit: 20, editions: editions });
      document.documentElement.dataset.offlineSearch = "done";
      document.documentElement.dataset.offlineSearched = found.editions.join(" ");
      msg.textContent = found.message || ("Offline: " + found.results.length + " result" + (found.results.length === 1 ? "" : "s") + " from the laws on this device.");
      var searched = el("p", "searched", "Searched: " + engine.searchedLabel(found.editions) + ".");
      searched.id = "offline-searched";
      msg.parentNode.insertBefore(searched, msg.nextSibling);
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
