/* What the auction and the play ruling pages draw with (ui.js, play-ui.js):
   an element, the edition tabs, and the list of cited provisions, each
   opening its text in place.  Loaded after walker.js and before either page's
   script. */
(function (root) {
  "use strict";

  /* <tag attrs>children</tag>: attrs.text is its text, attrs.on its event
     handlers; true makes an empty attribute, false, null and undefined none */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "on") Object.keys(attrs.on).forEach(function (ev) { e.addEventListener(ev, attrs.on[ev]); });
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  /* one button per edition, `current` pressed; pick(edition) on a tap */
  function editionTabs(editions, current, pick) {
    return el("nav", { "class": "editions", "aria-label": "Edition" }, editions.map(function (e) {
      return el("button", { type: "button", "class": "edition" + (e === current ? " current" : ""), "aria-pressed": e === current ? "true" : "false",
        text: e + " Laws", on: { click: function () { pick(e); } } });
    }));
  }

  /* the provisions `ids` of `edition`, each a summary that opens its text
     (from `texts`, the bundle's texts of that edition) and links its law page */
  function citeList(texts, edition, ids) {
    return el("ul", { "class": "cites" }, ids.map(function (id) {
      var t = texts[id], body = [];
      if (t) {
        if (t.text) body.push(el("p", { text: t.text }));
        t.children.forEach(function (k) { body.push(el("p", { text: k })); });
      }
      var law = (/^\d+/.exec(id) || [""])[0];
      return el("li", {}, [el("details", { "class": "cite-text" }, [
        el("summary", { text: (t && t.label ? t.label : "Law " + id) + (t && t.heading ? " — " + t.heading : "") }),
        el("div", { "class": "provision-text" }, body),
        el("a", { href: t ? t.url : "/" + edition + "/law/" + law + "#" + encodeURIComponent(id), text: "Open Law " + id })])]);
    }));
  }

  /* a ruling by trees carried from an older code says so, as the server's page does */
  function reviewNote(r) {
    if (!r.carried_from) return null;
    return el("p", { "class": "review-note", id: "review-note", role: "note" }, ["Ruled by the " + r.carried_from + " rulings carried into the " + r.edition + " Laws" +
      (r.reviewed ? ", each provision cited the same or reviewed." : "; "), r.reviewed ? null : el("strong", { text: r.review }), r.reviewed ? null : "."]);
  }

  root.LawbookRulings = root.LawbookRulings || {};
  root.LawbookRulings.dom = { el: el, editionTabs: editionTabs, citeList: citeList, reviewNote: reviewNote };
})(typeof window !== "undefined" ? window : this);
