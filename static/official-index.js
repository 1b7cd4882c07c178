/* The index page's filter, live as you type.  The page works without this
   file: the form sends ?q= and the server filters the same way (every word of
   the query in a heading, or in one of its entries with its heading's words). */
(function () {
  "use strict";
  var form = document.querySelector("form.ix-filter");
  var input = document.getElementById("ix-q");
  var count = document.getElementById("ix-count");
  if (!form || !input) return;
  var headings = Array.prototype.slice.call(document.querySelectorAll(".ix-heading"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".ix-letter"));
  var none = document.querySelector(".ix-none");
  var total = headings.reduce(function (n, h) { return n + 1 + h.querySelectorAll("li").length; }, 0);

  function matches(text, words) {
    for (var i = 0; i < words.length; i++) if (text.indexOf(words[i]) < 0) return false;
    return true;
  }

  function apply() {
    var q = input.value.trim().toLowerCase();
    var words = q ? q.split(/\s+/) : [];
    var shown = 0;
    headings.forEach(function (h) {
      var whole = matches(h.getAttribute("data-filter"), words);
      var any = whole;
      var items = h.querySelectorAll("li");
      Array.prototype.forEach.call(items, function (li) {
        var ok = whole || matches(li.getAttribute("data-filter"), words);
        li.hidden = !ok;
        if (ok) { any = true; shown++; }
      });
      h.hidden = !any;
      if (any) shown++;
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector(".ix-heading:not([hidden])"); });
    document.querySelectorAll("nav.letters a").forEach(function (a) {
      var g = document.querySelector(".ix-letter[data-letter='" + a.getAttribute("href").slice(8) + "']");
      a.hidden = !g || g.hidden;
    });
    if (count) count.textContent = words.length ? shown + " of " + total + " entries match \u201c" + input.value.trim() + "\u201d." : "";
    if (none) none.hidden = true;
    var url = new URL(location.href);
    if (words.length) url.searchParams.set("q", input.value.trim()); else url.searchParams.delete("q");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  // The page as served may be filtered already (?q=): live filtering needs
  // every heading, so fetch the whole page once and put its list in place.
  function whole() {
    if (document.querySelector(".official-index").getAttribute("data-complete") === "1") return Promise.resolve();
    return fetch(form.getAttribute("action"), { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var list = doc.querySelector(".official-index");
        var here = document.querySelector(".official-index");
        var letters = doc.querySelector("nav.letters");
        var lettersHere = document.querySelector("nav.letters");
        if (letters && lettersHere) lettersHere.replaceWith(document.importNode(letters, true));
        if (list && here) {
          here.replaceWith(document.importNode(list, true));
          headings = Array.prototype.slice.call(document.querySelectorAll(".ix-heading"));
          groups = Array.prototype.slice.call(document.querySelectorAll(".ix-letter"));
          total = headings.reduce(function (n, h) { return n + 1 + h.querySelectorAll("li").length; }, 0);
        }
      })
      .catch(function () {});
  }

  // offline, the phone answers ?q= with the whole page it keeps: the
  // address's words fill the box
  var asked = new URLSearchParams(location.search).get("q");
  if (asked && !input.value.trim()) input.value = asked;
  // the whole list replaces the filtered one: filter it again at once, or
  // the page served for ?q= would show every entry until the next key
  var ready = whole().then(function () { if (input.value.trim()) apply(); });
  input.addEventListener("input", function () { ready.then(apply); });
  form.addEventListener("submit", function (e) { e.preventDefault(); ready.then(apply); });
})();
