/* Lawbook's service worker (served from /sw.js, scope /).
   Version {{ version }}: the assets, the templates and the store's build; a
   rebuild or a new asset makes a new worker.

   What a device keeps (so it does not grow with the editions in the corpus):
   - CORE and the assets, in a cache of this version;
   - pages, in one cache kept across versions, each with the content hash the
     server gave it (its ETag): the pages every device keeps (/offline/pages.json:
     the code in force and its index, the rulings and records, the checkers,
     the guide, the comparison of the code in force with the one before it),
     every page the reader opens,
     and every page of an edition the reader chose to keep ("Keep offline" on
     its contents page; /offline/editions/<id>.json lists them).
   After a rebuild the new worker compares the hashes: a page whose hash is
   the same is kept as it is, a changed one is fetched again, a page that no
   longer exists is dropped.  A rebuild that changed one law costs one page.
   After each pass the worker writes how complete the device's copy is
   (STATUS, in META), which the offline page shows. */
"use strict";
var VERSION = {{ version|tojson }};
var CACHE = "lawbook-" + VERSION;
var PAGES = "lawbook-pages";
var META = "lawbook-meta";
var KEPT = "/offline/kept";      /* in META: the editions the reader keeps, ["2007"] */
var SYNCED = "/offline/synced";  /* in META: the version whose hashes the pages match */
var STATUS = "/offline/status";  /* in META: {version, total, missing, complete, at} after a pass */
var IN_FORCE = "/offline/in-force";  /* in META: the code in force at the last pass, "2017" */
var SWITCHED = "/offline/switched";  /* in META: {from, to, from_title, to_title} until the reader answers */
var HASH = "X-Lawbook-Hash";
var ASSETS = {{ assets|tojson }};
var CORE = ["/", "/offline", "/offline/search", "/offline/index.json", "/offline/search.json",
            "/rulings/auction.json"];
var EDITION_PAGE = /^\/([^\/]+)\/(?:$|definitions$|law\/\d+$)/;

importScripts(ASSETS.filter(function (a) { return /\/cite\.[0-9a-f]+\.js$/.test(a); })[0]);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(CORE.concat(ASSETS)); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf("lawbook-") === 0 && k !== CACHE && k !== PAGES && k !== META;
    }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/* --- small helpers ------------------------------------------------------------ */
function getJSON(url) {
  return fetch(url, { credentials: "same-origin" }).then(function (r) {
    if (!r.ok) throw new Error(url + ": " + r.status);
    return r.json();
  });
}
function readMeta(key, fallback) {
  return caches.open(META).then(function (c) { return c.match(key); })
    .then(function (r) { return r ? r.json() : fallback; }).catch(function () { return fallback; });
}
function writeMeta(key, value) {
  return caches.open(META).then(function (c) {
    return c.put(key, new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json" } }));
  });
}
function bare(tag) { return (tag || "").replace(/^W\//, "").replace(/"/g, ""); }

/* A page as the server sent it, with its hash in a header of its own (the
   ETag of a page, or the manifest's hash for a file without one). */
function keep(cache, url, resp, hash) {
  if (!resp.ok || resp.redirected || resp.type !== "basic") return Promise.resolve(false);
  return resp.blob().then(function (body) {
    var headers = new Headers(resp.headers);
    headers.set(HASH, hash || bare(resp.headers.get("ETag")));
    return cache.put(url, new Response(body, { status: resp.status, statusText: resp.statusText, headers: headers }));
  }).then(function () { return true; });
}
function fetchAndKeep(cache, url, hash) {
  return fetch(url, { credentials: "same-origin" })
    .then(function (resp) { return keep(cache, url, resp, hash); })
    .catch(function () { return false; /* tried again at the next sync */ });
}

/* A few at a time, in the background. */
function pool(items, work) {
  var queue = items.slice(), done = 0;
  function next() {
    var item = queue.shift();
    if (item === undefined) return Promise.resolve();
    return work(item).then(function (ok) { if (ok) done++; }).then(next);
  }
  return Promise.all([next(), next(), next(), next()]).then(function () { return done; });
}

/* --- what this device should hold, and bringing it up to date --------------------- */
function editionOf(url, manifest) {
  var m = EDITION_PAGE.exec(url);
  if (!m) return null;
  return manifest.editions.filter(function (e) { return e.id === m[1]; })[0] || null;
}

/* Compare every page held with the hashes the server lists now: fetch what
   changed and what is missing, drop what is gone.  Pages opened that no list
   names (a comparison, a checker) are asked for again with their ETag: a 304
   keeps them. */
var syncing = null;
function sync(force, opened) {
  if (syncing) return syncing;
  syncing = Promise.all([readMeta(SYNCED, null), readMeta(KEPT, [])]).then(function (got) {
    var synced = got[0], kept = got[1];
    return Promise.all([caches.open(PAGES), getJSON("/offline/pages.json")]).then(function (both) {
      var cache = both[0], manifest = both[1];
      var wanted = {}, listed = {}, manifests = {};
      Object.keys(manifest.pages).forEach(function (u) { wanted[u] = manifest.pages[u]; });
      manifest.editions.forEach(function (e) { if (e.in_force) manifests[e.id] = Promise.resolve({ pages: {} }); });
      function editionList(e) {
        if (!manifests[e.id]) manifests[e.id] = getJSON(e.manifest).catch(function () { return null; });
        return manifests[e.id];
      }
      var keptEds = manifest.editions.filter(function (e) { return kept.indexOf(e.id) >= 0 && !e.in_force; });
      return Promise.all(keptEds.map(editionList)).then(function (lists) {
        lists.forEach(function (l) { if (l) Object.keys(l.pages).forEach(function (u) { wanted[u] = l.pages[u]; }); });
        return cache.keys();
      }).then(function (requests) {
        var held = requests.map(function (r) { var u = new URL(r.url); return u.pathname + u.search; });
        /* the page that asked, opened before this worker took charge of the
           tab (a first visit): kept as every page opened is */
        if (opened && !(opened in wanted) && held.indexOf(opened) < 0) wanted[opened] = "";
        if (synced === VERSION && !force) {
          /* this version's hashes are already matched: only what is missing */
          return pool(Object.keys(wanted).filter(function (u) { return held.indexOf(u) < 0; }),
            function (u) { return fetchAndKeep(cache, u, wanted[u]); });
        }
        return Promise.all(held.map(function (u) {
          return cache.match(u).then(function (hit) {
            var hash = hit ? hit.headers.get(HASH) : "";
            if (u in wanted) { listed[u] = true; return hash === wanted[u] ? null : u; }
            var ed = editionOf(u.split("?")[0], manifest);
            if (u.indexOf("?") < 0 && ed) {
              return editionList(ed).then(function (l) {
                if (l && u in l.pages) { listed[u] = true; wanted[u] = l.pages[u]; return hash === l.pages[u] ? null : u; }
                if (l) return cache.delete(u).then(function () { return null; });  /* no longer a page */
                return null;
              });
            }
            /* opened, and on no list: revalidate with its ETag */
            return fetch(u, { credentials: "same-origin", headers: hash ? { "If-None-Match": 'W/"' + hash + '"' } : {} })
              .then(function (resp) {
                if (resp.status === 304) return null;
                if (resp.status === 404 || resp.status === 410) return cache.delete(u).then(function () { return null; });
                return keep(cache, u, resp).then(function () { return null; });
              }).catch(function () { return null; });
          });
        })).then(function (stale) {
          var todo = stale.filter(Boolean);
          Object.keys(wanted).forEach(function (u) { if (held.indexOf(u) < 0) todo.push(u); });
          return pool(todo, function (u) { return fetchAndKeep(cache, u, wanted[u]); });
        }).then(function (fetched) {
          return writeMeta(SYNCED, VERSION).then(function () { return fetched; });
        });
      }).then(function (fetched) {
        return report(cache, wanted, fetched);
      }).then(function (done) { done.editions = manifest.editions; return done; });
    });
  }).then(function (done) {
    tell({ type: "precached", total: done.total, fetched: done.fetched, missing: done.missing, complete: done.complete });
    return noticeSwitch(done.editions);
  })
    .catch(function () {})
    .then(function () { syncing = null; });
  return syncing;
}

/* The day a new code takes effect (a rebuild made it the code in force) the
   pass above keeps it by itself, as the kit; the code it replaced is no longer
   in the kit, so the reader is offered to keep it whole (the pages of it
   already held stay, as every page opened does).  The offer stands in META
   until answered (the page reads it: static/app.js); no offer on a device's
   first pass, nor when the old code is already kept. */
function noticeSwitch(editions) {
  var now = (editions || []).filter(function (e) { return e.in_force; })[0];
  if (!now) return null;
  return Promise.all([readMeta(IN_FORCE, null), readMeta(KEPT, [])]).then(function (got) {
    var before = got[0], kept = got[1];
    var old = (editions || []).filter(function (e) { return e.id === before; })[0];
    var offer = before && before !== now.id && old && kept.indexOf(before) < 0
      ? { from: old.id, to: now.id, from_title: old.title, to_title: now.title } : null;
    return writeMeta(IN_FORCE, now.id).then(function () {
      if (!offer) return null;
      return writeMeta(SWITCHED, offer).then(function () { tell({ type: "switched", offer: offer }); });
    });
  });
}

/* How complete this device's copy is after a pass: every page it should
   hold, and how many it still lacks (a fetch that failed is tried again at
   the next pass).  The offline page reads it from META. */
function report(cache, wanted, fetched) {
  return cache.keys().then(function (requests) {
    var held = {};
    requests.forEach(function (r) { var u = new URL(r.url); held[u.pathname + u.search] = true; });
    var urls = Object.keys(wanted);
    var missing = urls.filter(function (u) { return !held[u]; }).length;
    var status = { version: VERSION, total: urls.length, missing: missing, complete: missing === 0, at: Date.now() };
    return writeMeta(STATUS, status).then(function () { return { total: urls.length, fetched: fetched, missing: missing, complete: missing === 0 }; });
  });
}

/* "Keep offline" on an edition's contents page, and its undoing. */
function keepEdition(id, on) {
  return Promise.all([readMeta(KEPT, []), caches.open(PAGES), getJSON("/offline/pages.json")]).then(function (got) {
    var kept = got[0].filter(function (x) { return x !== id; }), cache = got[1], manifest = got[2];
    var ed = manifest.editions.filter(function (e) { return e.id === id; })[0];
    if (!ed) throw new Error("no edition " + id);
    if (on) kept.push(id);
    return writeMeta(KEPT, kept).then(function () { return getJSON(ed.manifest); }).then(function (list) {
      var urls = Object.keys(list.pages);
      if (!on) {
        if (ed.in_force) return 0;  /* the code in force stays */
        return Promise.all(urls.map(function (u) { return cache.delete(u); })).then(function () { return 0; });
      }
      return pool(urls, function (u) {
        return cache.match(u).then(function (hit) {
          if (hit && hit.headers.get(HASH) === list.pages[u]) return true;
          return fetchAndKeep(cache, u, list.pages[u]);
        });
      });
    }).then(function (n) { tell({ type: "kept", edition: id, kept: on, pages: n, total: ed.pages }); });
  }).catch(function () { tell({ type: "kept", edition: id, kept: false, failed: true }); });
}

function tell(message) {
  return self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

/* The address of the page a message came from, when it is one to keep (not
   a search, not an address with a query). */
function openedPage(source) {
  try {
    var u = new URL(source.url);
    if (u.origin !== self.location.origin || u.search || u.pathname === "/search" || u.pathname === "/go") return null;
    return u.pathname;
  } catch (e) { return null; }
}

self.addEventListener("message", function (event) {
  var d = event.data || {};
  if (d.type === "precache") event.waitUntil(sync(false, openedPage(event.source)));
  if (d.type === "keep" && d.edition) event.waitUntil(keepEdition(String(d.edition), !!d.keep));
  if (d.type === "switch-answered") event.waitUntil(caches.open(META).then(function (c) { return c.delete(SWITCHED); }));
});

/* --- answering requests ------------------------------------------------------------- */
function fromCache(request) {
  return caches.match(request, { ignoreVary: true, ignoreSearch: false });
}

function offlinePage(search) {
  return fromCache(search ? "/offline/search" : "/offline").then(function (r) {
    return r || new Response("You are offline.", { status: 503, headers: { "Content-Type": "text/plain" } });
  });
}

function index() {
  return fromCache("/offline/index.json").then(function (r) {
    if (r) return r.json();
    return fetch("/offline/index.json").then(function (r2) { return r2.json(); });
  }).catch(function () { return null; });
}

/* The jump box: resolved here, with no network, exactly as the server would. */
function jump(request, url) {
  return index().then(function (idx) {
    var target = idx && self.LawbookCite.resolve(idx, url.searchParams.get("q") || "", url.searchParams.get("edition") || "");
    if (target) return Response.redirect(new URL(target, url.origin).href, 302);
    return fetch(request).catch(function () { return offlinePage(true); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var path = url.pathname;

  if (path === "/go") { event.respondWith(jump(request, url)); return; }
  if (path === "/sw.js" || path.indexOf("/offline/editions/") === 0 || path === "/offline/pages.json") return;
  if (path === "/search" || path.indexOf("/search/") === 0) {
    event.respondWith(fetch(request).catch(function () { return offlinePage(true); }));
    return;
  }
  if (path === "/api/search") {
    event.respondWith(fetch(request).catch(function () {
      return new Response(JSON.stringify({ error: "You are offline: the search page searches this device (/search)." }),
        { status: 503, headers: { "Content-Type": "application/json" } });
    }));
    return;
  }
  if (path.indexOf("/static/") === 0) {
    event.respondWith(fromCache(request).then(function (hit) {
      return hit || fetch(request).then(function (resp) {
        if (resp.ok) { var copy = resp.clone(); caches.open(CACHE).then(function (c) { c.put(request, copy); }); }
        return resp;
      });
    }));
    return;
  }
  if (request.mode === "navigate" && url.search &&
      (path === "/rulings/auction" || path === "/rulings/play" || path === "/rulings/record" || path.indexOf("/rulings/guided/") === 0 ||
       /^\/[^\/]+\/index$/.test(path) || /^\/checkers\/[^\/]+$/.test(path))) {
    /* A ruling's own address: the page's script walks the same rules offline,
       so the kept page without its query answers when there is no network;
       so does an official index filtered with ?q= (its script filters it),
       and a checker with its inputs (/checkers/score?level=4&…: the page's
       script computes what the server would). */
    event.respondWith(fetch(request).then(function (resp) {
      /* a record made online (its adjusted score computed by the checkers on
         the server) is kept, so its link reopens it offline */
      if (path === "/rulings/record" && resp.ok && !resp.redirected && resp.type === "basic") {
        var copy = resp.clone();
        caches.open(CACHE).then(function (c) { c.put(url.pathname + url.search, copy); });
      }
      return resp;
    }).catch(function () {
      return fromCache(url.pathname + url.search).then(function (hit) {
        return hit || fromCache(url.pathname);  /* the page kept without its query */
      }).then(function (hit) { return hit || offlinePage(false); });
    }));
    return;
  }
  if (request.mode === "navigate") {
    /* Pages change only with a rebuild, and a rebuild brings a new worker,
       which brings the kept pages up to date: the kept copy answers at once
       on a poor signal.  A page opened is kept (what the reader opens). */
    var key = url.pathname + url.search;
    event.respondWith(caches.open(PAGES).then(function (c) { return c.match(key, { ignoreVary: true }); }).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (resp) {
        if (resp.ok && !resp.redirected && resp.type === "basic") {
          var copy = resp.clone();
          event.waitUntil(caches.open(PAGES).then(function (c) { return keep(c, key, copy); }));
        }
        return resp;
      }).catch(function () { return offlinePage(false); });
    }));
    return;
  }
  event.respondWith(fetch(request).catch(function () {
    return fromCache(request).then(function (hit) { return hit || Response.error(); });
  }));
});
