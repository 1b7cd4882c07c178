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

  /* --- the provision reached by a link or the jump box ------------------------ */
  function highlight() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (el) el.setAttribute("tabindex", "-1");
    pointInForce(el);
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

  /* --- copy a provision's address ------------------------------------------------ */
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a.cite");
    if (!a || !navigator.clipboard || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    var url = new URL(a.getAttribute("href"), location.href).href;
    navigator.clipboard.writeText(url).then(function () {
      say("Copied the link to " + (a.dataset.cite || "this provision"));
      a.classList.add("copied");
      setTimeout(function () { a.classList.remove("copied"); }, 1500);
    }, function () { location.assign(url); });
    history.replaceState(null, "", a.getAttribute("href"));
  });

  /* --- offline ----------------------------------------------------------------------- */
  window.addEventListener("offline", function () { say("You are offline: saved pages and the jump box still work.", true); });
  window.addEventListener("online", function () { say("Back online."); });

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (e) {
      var d = e.data || {};
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
