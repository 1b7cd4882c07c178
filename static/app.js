/* Enhancements only: every page works without this file.
   - the jump box resolves citations here, instantly and offline;
   - citation links copy the provision's address;
   - the service worker keeps the site for offline use. */
(function () {
  "use strict";
  var statusEl = document.getElementById("status");
  var statusTimer = null;

  function say(text, sticky) {
    if (!statusEl) return;
    statusEl.textContent = text;
    statusEl.classList.toggle("shown", !!text);
    clearTimeout(statusTimer);
    if (text && !sticky) statusTimer = setTimeout(function () { say(""); }, 2500);
  }

  /* --- jump box ------------------------------------------------------------- */
  var indexPromise = null;
  function loadIndex() {
    if (!indexPromise) {
      indexPromise = fetch("/offline/index.json", { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .catch(function () { indexPromise = null; return null; });
    }
    return indexPromise;
  }

  document.querySelectorAll("form.jump").forEach(function (form) {
    var input = form.querySelector("input[name=q]");
    if (!input) return;
    input.addEventListener("focus", loadIndex, { once: true });
    form.addEventListener("submit", function (e) {
      if (!window.LawbookCite || !input.value.trim()) return;
      if (!window.LawbookCite.parse(input.value)) return;  // words: the server sends them to search
      e.preventDefault();
      var hintEl = form.querySelector("input[name=edition]");
      var hint = hintEl ? hintEl.value : "";
      loadIndex().then(function (index) {
        var url = index && window.LawbookCite.resolve(index, input.value, hint);
        if (url) {
          input.blur();
          var here = location.pathname;
          location.assign(url);
          if (url.split("#")[0] === here) highlight();
        } else {
          form.submit();
        }
      });
    });
  });

  /* --- the plain words under each provision: shown unless the reader hid them
     (the choice is kept on this device) --------------------------------------- */
  var PLAIN_KEY = "lawbook-plain-words";
  function plainHidden() { try { return localStorage.getItem(PLAIN_KEY) === "hidden"; } catch (e) { return false; } }
  function showPlain(hidden) {
    document.documentElement.classList.toggle("plain-hidden", hidden);
    document.querySelectorAll(".plain-toggle").forEach(function (b) {
      b.setAttribute("aria-pressed", hidden ? "true" : "false");
      b.textContent = hidden ? "Show plain words" : "Hide plain words";
    });
  }
  showPlain(plainHidden());
  document.querySelectorAll(".plain-toggle-row").forEach(function (row) { row.hidden = false; });
  document.querySelectorAll(".plain-toggle").forEach(function (b) {
    b.addEventListener("click", function () {
      var hidden = !document.documentElement.classList.contains("plain-hidden");
      try { localStorage.setItem(PLAIN_KEY, hidden ? "hidden" : "shown"); } catch (e) { /* private mode: this page only */ }
      showPlain(hidden);
    });
  });

  /* --- the provision reached by a link or the jump box ------------------------ */
  function highlight() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (el) el.setAttribute("tabindex", "-1");
    showContext(el);
    pointInForce(el);
  }

  /* Landing on a provision deep in a law: the law, its parent headings and the
     provision together on the first screen.  A line naming the law and the
     headings above the provision is put just before it, and the page scrolled
     so that line sits under the header. */
  function showContext(el) {
    var old = document.querySelector(".landing");
    if (old) old.parentNode.removeChild(old);
    if (!el || !el.classList || !el.classList.contains("prov")) return;
    var h1 = document.querySelector(".law-head h1");
    if (!h1) return;
    var box = document.createElement("nav");
    box.className = "landing";
    box.setAttribute("aria-label", "Where this provision stands");
    var top = document.createElement("a");
    top.href = "#law-top";
    top.className = "landing-law";
    top.textContent = (h1.querySelector(".law-num") ? h1.querySelector(".law-num").firstChild.textContent.trim() : "") +
      " " + (h1.querySelector(".law-title") ? h1.querySelector(".law-title").textContent.trim() : "");
    box.appendChild(top);
    (el.dataset.parents || "").split(" ").filter(Boolean).forEach(function (pid) {
      var p = document.getElementById(pid);
      if (!p) return;
      var head = p.querySelector(":scope > h2, :scope > h3");
      var a = document.createElement("a");
      a.href = "#" + encodeURIComponent(pid).replace(/%28/g, "(").replace(/%29/g, ")");
      a.textContent = head ? head.textContent.trim() : pid;
      box.appendChild(a);
    });
    el.parentNode.insertBefore(box, el);
    var header = document.querySelector("header.site");
    var y = box.getBoundingClientRect().top + window.pageYOffset - (header ? header.offsetHeight : 0) - 4;
    window.scrollTo(0, Math.max(0, y));
  }

  /* On an older code's page, the banner links the law in the code in force;
     landing on a provision, it links that provision's counterpart there. */
  function pointInForce(el) {
    var link = document.querySelector("#in-force a.go-in-force");
    if (!link) return;
    var owner = el && el.closest && el.closest("[data-in-force]");
    link.setAttribute("href", owner ? owner.dataset.inForce : link.dataset.lawHref);
    var id = owner && owner.dataset.inForce.split("#")[1];
    link.querySelector(".nf-cite").textContent = "Law " + (id ? decodeURIComponent(id) : link.dataset.law);
  }
  window.addEventListener("hashchange", highlight);
  highlight();
  /* the browser scrolls to the fragment again once the page has loaded */
  window.addEventListener("load", function () { if (location.hash) setTimeout(highlight, 0); });

  /* --- copy a provision's citation and link ------------------------------------------ */
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a.cite");
    if (!a || !navigator.clipboard || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    var url = new URL(a.getAttribute("href"), location.href).href;
    var cite = a.dataset.cite || "";
    navigator.clipboard.writeText(cite ? cite + "\n" + url : url).then(function () {
      say("Copied: " + (cite || url));
      a.classList.add("copied");
      setTimeout(function () { a.classList.remove("copied"); }, 2500);
    }, function () { say("Could not copy: " + (cite ? cite + " " : "") + url, true); });
    history.replaceState(null, "", a.getAttribute("href"));
  });

  /* --- offline ----------------------------------------------------------------------- */
  window.addEventListener("offline", function () { say("You are offline: saved pages and the jump box still work.", true); });
  window.addEventListener("online", function () { say("Back online."); });

  /* "Keep offline" on an edition's contents page: the service worker keeps
     every page of the edition (and drops them when asked); the choice is
     read back from the worker's own record, so the button says what is true. */
  var keepBox = document.getElementById("keep-offline");
  var keepButton = keepBox && keepBox.querySelector("button");
  var keepState = keepBox && keepBox.querySelector(".keep-state");
  var keepTitle = keepButton ? keepButton.textContent : "";
  function showKept(kept, text) {
    keepBox.dataset.kept = kept ? "yes" : "no";
    keepButton.textContent = kept ? "Remove from this device" : keepTitle;
    keepButton.setAttribute("aria-pressed", kept ? "true" : "false");
    keepButton.disabled = false;
    if (text) keepState.textContent = text;
  }
  if (keepBox && "serviceWorker" in navigator && window.caches) {
    keepBox.hidden = false;
    if (keepButton) {
      caches.open("lawbook-meta").then(function (c) { return c.match("/offline/kept"); })
        .then(function (r) { return r ? r.json() : []; })
        .then(function (kept) {
          if (kept.indexOf(keepBox.dataset.edition) >= 0) showKept(true, "Kept on this device: every law of this edition reads with no connection.");
        }).catch(function () {});
      keepButton.addEventListener("click", function () {
        var on = keepBox.dataset.kept !== "yes";
        keepButton.disabled = true;
        keepState.textContent = on ? "Saving this edition on this device…" : "Removing…";
        navigator.serviceWorker.ready.then(function (reg) {
          reg.active.postMessage({ type: "keep", edition: keepBox.dataset.edition, keep: on });
        });
      });
    }
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (e) {
      var d = e.data || {};
      if (d.type === "kept" && keepButton && d.edition === keepBox.dataset.edition) {
        if (d.failed) { showKept(false, "Could not save it: try again with a connection."); return; }
        showKept(d.kept, d.kept ? "Kept on this device: " + d.pages + " of " + d.total + " pages, readable with no connection."
          : "Removed from this device. Pages you open are still kept.");
        return;
      }
      if (d.type === "precached") {
        document.documentElement.dataset.offline = "ready";
        if (d.fetched) say("Saved " + d.total + " pages for offline use.");
      }
    });
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (reg) {
        if (reg.active) reg.active.postMessage({ type: "precache" });
      }).catch(function () { /* no offline copy: the site still works online */ });
    });
  }
})();
