/* Lawbook's service worker (served from /sw.js, scope /).
   Version {{ version }}: assets hash + the store's build; a rebuild or a new
   asset makes a new worker, which keeps a fresh copy of every page. */
"use strict";
var VERSION = {{ version|tojson }};
var CACHE = "lawbook-" + VERSION;
var ASSETS = {{ assets|tojson }};
var CORE = ["/", "/offline", "/offline/search", "/offline/index.json", "/offline/search.json",
            "/rulings/auction.json"];

importScripts(ASSETS.filter(function (a) { return /\/cite\.[0-9a-f]+\.js$/.test(a); })[0]);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(CORE.concat(ASSETS)); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("lawbook-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/* Keep every page (listed by the server from the store), a few at a time,
   in the background after the first visit. */
var precaching = null;
function precacheAll() {
  if (precaching) return precaching;
  precaching = Promise.all([caches.open(CACHE), fetch("/offline/pages.json").then(function (r) { return r.json(); })])
    .then(function (both) {
      var cache = both[0], pages = both[1].pages, queue = pages.slice(), fetched = 0;
      function worker() {
        var url = queue.shift();
        if (!url) return Promise.resolve();
        return cache.match(url, { ignoreVary: true }).then(function (hit) {
          if (hit) return null;
          return fetch(url, { credentials: "same-origin" }).then(function (resp) {
            if (resp.ok && !resp.redirected) { fetched++; return cache.put(url, resp); }
          }).catch(function () { /* retried on the next visit */ });
        }).then(worker);
      }
      return Promise.all([worker(), worker(), worker(), worker()]).then(function () {
        return { total: pages.length, fetched: fetched };
      });
    })
    .then(function (done) {
      return self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (clients) {
        clients.forEach(function (c) { c.postMessage({ type: "precached", total: done.total, fetched: done.fetched }); });
      });
    })
    .catch(function () {})
    .then(function () { precaching = null; });
  return precaching;
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "precache") event.waitUntil(precacheAll());
});

function fromCache(request) {
  return caches.open(CACHE).then(function (c) { return c.match(request, { ignoreVary: true }); });
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
  if (path === "/sw.js") return;
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
      (path === "/rulings/auction" || path === "/rulings/play" || path === "/rulings/record" || path.indexOf("/rulings/guided/") === 0)) {
    /* A ruling's own address: the page's script walks the same rules offline,
       so the kept page without its query answers when there is no network. */
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
    /* Pages change only with a rebuild, and a rebuild brings a new worker:
       the kept copy is current, and answers at once on a poor signal. */
    event.respondWith(fromCache(url.pathname + url.search).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (resp) {
        if (resp.ok && !resp.redirected && resp.type === "basic") {
          var copy = resp.clone();
          caches.open(CACHE).then(function (c) { c.put(url.pathname + url.search, copy); });
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
