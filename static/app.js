/* Enhancements only: every page works without this file.
   - the jump box resolves citations here, instantly and offline;
   - citation links copy the provision's address;
   - a long law folds to its sections' headings, the one landed on open;
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

  /* --- long laws: sections folded to their headings (issue 20) --------------------
     A long law (law.html marks it data-fold="long") is folded to its sections' heading
     lines, so a phone shows the law's shape and the provision landed on, not 18 screens:
     - landing with no fragment: every section folded to its heading line (the folded
       headings are the law's outline, so the outline list above them is hidden);
     - landing on a provision: its section open and the others folded; inside that
       section the subsections that do not hold it fold to a one-line row (16B alone
       is nearly four screens at 360 px);
     - moving to another fragment (a link within the law, back/forward, the jump box)
       opens the target's section, folding nothing under the reader;
     - each heading is a button (aria-expanded) that opens or folds its section;
       "Show the whole law" opens them all (then "Fold to section headings");
     - a footnote folds with its provision, and the notes under the law (cited by,
       the index, rulings, sources…) fold to their headings, each one tap to open.
     Folded text is hidden="until-found": find in page still finds it and opens its
     section (beforematch), and print shows every word (site.css). Nothing here asks
     the server: a page kept offline folds the same. */
  var foldLaw = document.querySelector("article.law[data-fold]");
  var foldUnits = [];      // one per section: {prov, button, parts, line, subs, open}
  var foldOwner = {};      // provision id -> its section's unit
  var foldNotes = {};      // provision id -> its footnotes (li)
  var foldAllButton = document.querySelector(".fold-all");

  function foldHide(el, hide) {
    if (hide) el.setAttribute("hidden", "until-found"); else el.removeAttribute("hidden");
  }

  function foldButton(cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "fold-toggle" + (cls ? " " + cls : "");
    b.setAttribute("aria-expanded", "false");
    return b;
  }

  /* The row standing for a folded provision without a heading: its label and first words. */
  function foldLine(prov, depth) {
    var row = document.createElement("p");
    row.className = "fold-line d" + depth;
    var b = foldButton();
    var label = prov.querySelector("a.cite.label");
    var lab = label ? label.textContent.trim() : prov.id;
    var words = (prov.textContent || "").replace(/\s+/g, " ").trim();
    if (words.indexOf(lab) === 0) words = words.slice(lab.length).trim();
    var l = document.createElement("span");
    l.className = "fold-label";
    l.textContent = lab;
    var t = document.createElement("span");
    t.className = "fold-words";
    t.textContent = words;
    b.appendChild(l);
    b.appendChild(t);
    b.setAttribute("aria-label", lab + " " + words.split(" ").slice(0, 12).join(" ") + "…");
    row.appendChild(b);
    prov.parentNode.insertBefore(row, prov);
    return row;
  }

  /* Each section: its heading line, and the parts that fold (the rest of its own
     text, its subsections, their footnotes). */
  function foldBuild() {
    Array.prototype.forEach.call(document.querySelectorAll(".footnotes li[data-provision]"), function (li) {
      (foldNotes[li.dataset.provision] = foldNotes[li.dataset.provision] || []).push(li);
    });
    var unit = null;
    Array.prototype.forEach.call(foldLaw.querySelectorAll(":scope > section.prov"), function (prov) {
      if (prov.classList.contains("d1")) {
        unit = {prov: prov, parts: [], subs: [], line: null, open: true};
        foldUnits.push(unit);
        var head = prov.querySelector(":scope > h2");
        var text = head && head.querySelector(".h-text");
        if (text) {
          /* the heading's words become the button; its label stays the copy-citation link */
          unit.button = foldButton();
          while (text.firstChild) unit.button.appendChild(text.firstChild);
          text.appendChild(unit.button);
          head.classList.add("fold-head");
          for (var c = head.nextElementSibling; c; c = c.nextElementSibling) unit.parts.push(c);
        } else {
          unit.line = foldLine(prov, 1);
          unit.button = unit.line.querySelector("button");
          unit.parts.push(prov);
        }
        unit.button.addEventListener("click", function (u) {
          return function () { foldSet(u, !u.open); foldSync(); };
        }(unit));
      } else if (unit) {
        unit.parts.push(prov);
      }
      if (unit) {
        foldOwner[prov.id] = unit;
        unit.parts.push.apply(unit.parts, foldNotes[prov.id] || []);
      }
    });
    foldUnits.forEach(function (u) {
      var ids = u.parts.filter(function (p) { return p.id; }).map(function (p) { return p.id; });
      u.button.setAttribute("aria-controls", (u.line ? ids : [u.prov.id].concat(ids)).join(" "));
    });
  }

  /* Open or fold a section; opening it opens its folded subsections too. */
  function foldSet(u, open) {
    u.subs.forEach(foldOpenSub);
    u.subs = [];
    u.open = open;
    u.parts.forEach(function (p) { foldHide(p, !open); });
    if (u.line) u.line.hidden = open;
    u.prov.classList.toggle("is-folded", !open && !u.line);
    u.button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  /* Inside the section landed on: the subsections (depth 2) that do not hold the
     target fold to a row each, one tap to open. */
  function foldSubsections(u, target) {
    var keep = (target.dataset.parents || "").split(" ").concat([target.id]);
    var sub = null;
    u.parts.forEach(function (p) {
      if (!p.matches("section.prov")) return;
      if (p.classList.contains("d2")) {
        sub = keep.indexOf(p.id) >= 0 ? null : {prov: p, parts: []};
        if (sub) u.subs.push(sub);
      }
      if (sub) sub.parts.push.apply(sub.parts, [p].concat(foldNotes[p.id] || []));
    });
    u.subs.forEach(function (s) {
      s.line = foldLine(s.prov, 2);
      var b = s.line.querySelector("button");
      b.setAttribute("aria-controls", s.parts.map(function (p) { return p.id; }).join(" "));
      s.parts.forEach(function (p) { foldHide(p, true); p.foldSub = s; });
      b.addEventListener("click", function () { foldReveal(s.prov); });
    });
  }

  function foldOpenSub(s) {
    s.parts.forEach(function (p) { foldHide(p, false); p.foldSub = null; });
    if (s.line.parentNode) s.line.parentNode.removeChild(s.line);
  }

  /* The section (and subsection) holding an element (a provision or a footnote), opened. */
  function foldReveal(el) {
    if (!foldLaw || !el || !el.closest) return;
    var note = el.closest(".footnotes li[data-provision]");
    var prov = note ? document.getElementById(note.dataset.provision) : el.closest("section.prov");
    var u = prov && foldOwner[prov.id];
    if (!u) return;
    if (!u.open) foldSet(u, true);
    var s = prov.foldSub;
    if (s) { foldOpenSub(s); u.subs.splice(u.subs.indexOf(s), 1); }
    foldSync();
  }

  /* The control says what it will do; the footnotes' heading folds away with the last of them. */
  function foldSync() {
    var notes = document.querySelector("section.footnotes");
    if (notes) foldHide(notes, !notes.querySelector("li:not([hidden])"));
    if (!foldAllButton) return;
    var all = foldUnits.every(function (u) { return u.open && !u.subs.length; });
    foldAllButton.setAttribute("aria-expanded", all ? "true" : "false");
    foldAllButton.textContent = all ? "Fold to section headings" : "Show the whole law";
  }

  /* A note under the law folded to its heading (with how many entries it has), or
     several notes under one heading: the heading becomes a button, the rest the body. */
  function foldNote(section) {
    var head = section.querySelector(":scope > h2");
    if (!head || !head.nextElementSibling) return;
    var body = document.createElement("div");
    body.className = "fold-body";
    body.id = section.id + "-body";
    while (head.nextSibling) body.appendChild(head.nextSibling);
    section.appendChild(body);
    var b = foldButton();
    b.setAttribute("aria-controls", body.id);
    var n = body.querySelectorAll(":scope > ul > li").length;
    b.textContent = head.textContent + (n ? " (" + n + ")" : "");
    head.textContent = "";
    head.appendChild(b);
    head.classList.add("fold-head");
    foldHide(body, true);
    b.addEventListener("click", function () {
      var open = body.hasAttribute("hidden");
      foldHide(body, !open);
      b.setAttribute("aria-expanded", open ? "true" : "false");
    });
    body.addEventListener("beforematch", function () { b.setAttribute("aria-expanded", "true"); });
  }

  /* The notes under a long law: what a director acts on (its rulings, its checkers)
     first, each folded to its heading; the references (cited by, the index, the
     guide, other editions, sources…) together under "More about Law N": a law
     cited 60 times would otherwise add nine screens under the provision. */
  function foldAbout() {
    var aside = document.querySelector(".about-law");
    if (!aside) return;
    var act = [], more = [];
    Array.prototype.forEach.call(aside.querySelectorAll(":scope > section[id]"), function (sec) {
      (sec.id === "rulings" || sec.id === "checkers" ? act : more).push(sec);
    });
    act.forEach(function (sec) { aside.appendChild(sec); foldNote(sec); });
    if (!more.length) return;
    var group = document.createElement("section");
    group.id = "about-more";
    group.className = "about-more";
    var h = document.createElement("h2");
    h.textContent = "More about Law " + foldLaw.dataset.law;
    group.appendChild(h);
    more.forEach(function (sec) { group.appendChild(sec); });
    aside.appendChild(group);
    foldNote(group);
    var what = document.createElement("span");
    what.className = "fold-what";
    what.textContent = more.map(function (sec) { return FOLD_NOTE_WORDS[sec.id] || sec.id; }).join(", ");
    var b = h.querySelector("button");
    if (!b) return;
    var title = document.createElement("span");   /* the title over the list of what is inside */
    title.appendChild(b.firstChild);
    title.appendChild(what);
    b.appendChild(title);
  }
  var FOLD_NOTE_WORDS = {"cited-by": "cited by", "in-index": "index", guide: "guide", editions: "editions",
                         unlinked: "references not linked", corrections: "corrections", sources: "sources"};

  if (foldLaw) {
    foldBuild();
    var landed = null;
    try { landed = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { landed = null; }
    var landedProv = landed && landed.closest && landed.closest("section.prov");
    var landedUnit = landedProv && foldOwner[landedProv.id];
    foldUnits.forEach(function (u) { foldSet(u, u === landedUnit); });
    if (landedUnit && landedProv !== landedUnit.prov) foldSubsections(landedUnit, landedProv);
    var outline = foldLaw.querySelector(".outline");
    if (outline) outline.hidden = true;
    foldAbout();
    if (foldAllButton) {
      foldAllButton.hidden = false;
      foldAllButton.addEventListener("click", function () {
        var open = foldAllButton.getAttribute("aria-expanded") !== "true";
        foldUnits.forEach(function (u) { foldSet(u, open); });
        foldSync();
      });
    }
    foldSync();
    /* find in page (or a fragment) reached folded text: the browser shows that element;
       the rest of its section opens with it */
    foldLaw.addEventListener("beforematch", function (e) { foldReveal(e.target); });
  }

  /* --- the provision reached by a link or the jump box ------------------------ */
  function highlight() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (el) el.setAttribute("tabindex", "-1");
    foldReveal(el);  /* a folded section opens first (long laws, above) */
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

  /* The day a new code takes effect: this phone now keeps it (the service
     worker's pass, templates/sw.js noticeSwitch), and offers to keep the code
     it replaced.  The offer stands until answered, on whichever page is open. */
  var switchOffer = null;
  function year(title, id) { var m = /\b(1[89]|20)\d\d\b/.exec(title || ""); return m ? m[0] : id; }
  function answerSwitch(keepOld, offer) {
    navigator.serviceWorker.ready.then(function (reg) {
      if (keepOld) reg.active.postMessage({ type: "keep", edition: offer.from, keep: true });
      reg.active.postMessage({ type: "switch-answered" });
    });
  }
  function offerSwitch(offer) {
    var main = document.getElementById("main");
    if (!offer || !main || switchOffer) return;
    var from = year(offer.from_title, offer.from), to = year(offer.to_title, offer.to);
    switchOffer = document.createElement("aside");
    switchOffer.className = "superseded switch-offer";
    switchOffer.id = "switch-offer";
    switchOffer.dataset.name = from;
    switchOffer.setAttribute("role", "note");
    var text = document.createElement("p");
    text.textContent = "The " + to + " Laws are now in force, and this phone keeps them. Keep the " + from +
      " Laws too, to read them with no connection?";
    var row = document.createElement("p");
    row.className = "links";
    var keepIt = document.createElement("button");
    keepIt.type = "button";
    keepIt.className = "switch-keep";
    keepIt.textContent = "Keep the " + from + " Laws";
    var no = document.createElement("button");
    no.type = "button";
    no.className = "switch-no";
    no.textContent = "Not now";
    row.appendChild(keepIt);
    row.appendChild(document.createTextNode(" "));
    row.appendChild(no);
    switchOffer.appendChild(text);
    switchOffer.appendChild(row);
    main.insertBefore(switchOffer, main.firstChild);
    keepIt.addEventListener("click", function () {
      keepIt.disabled = no.disabled = true;
      text.textContent = "Saving the " + from + " Laws on this phone…";
      switchOffer.dataset.edition = offer.from;
      answerSwitch(true, offer);
    });
    no.addEventListener("click", function () {
      answerSwitch(false, offer);
      switchOffer.hidden = true;
    });
  }

  if ("serviceWorker" in navigator) {
    if (window.caches) {
      caches.open("lawbook-meta").then(function (c) { return c.match("/offline/switched"); })
        .then(function (r) { return r ? r.json() : null; }).then(offerSwitch).catch(function () {});
    }
    navigator.serviceWorker.addEventListener("message", function (e) {
      var d = e.data || {};
      if (d.type === "switched") { offerSwitch(d.offer); return; }
      if (d.type === "kept" && switchOffer && d.edition === switchOffer.dataset.edition) {
        switchOffer.querySelector("p").textContent = d.failed ? "Could not save it: try again with a connection."
          : "Kept on this phone: " + d.pages + " of " + d.total + " pages of the " + switchOffer.dataset.name +
            " Laws, readable with no connection.";
        switchOffer.dataset.kept = d.failed ? "no" : "yes";
        switchOffer.querySelector(".links").hidden = true;
      }
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
