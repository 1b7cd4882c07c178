/* A checker's page with no server: when the service worker answers
   /checkers/<id>?<inputs>&check=1 offline with the kept /checkers/<id> page,
   the page was not made for this address (its data-rendered-query differs),
   so this script reads the address as laws/web/checkers.py does, fills the
   form, and computes the result with the JavaScript port (checkers.js): the
   result, its explanation, the provisions applied and the next step, marked
   as computed on this phone.  Online, the server's page is left as it is. */
(function () {
  "use strict";
  var article = document.getElementById("checker");
  var dataNode = document.getElementById("checker-data");
  if (!article || !dataNode) return;
  var query = location.search.replace(/^\?/, "");
  if (!query || query === article.getAttribute("data-rendered-query")) return;

  var ctx = JSON.parse(dataNode.textContent);
  var L = window.LawbookCheckers;
  var params = new URLSearchParams(query);
  var props = ctx.schema.properties;
  var filling = (!!params.get("record") || !!params.get("fill")) && !params.has("check");
  var submitted = params.has("check") || (!filling && Object.keys(props).some(function (k) { return params.has(k); }));
  var box = document.getElementById("computed");

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  /* _field_value: a value as the form shows it */
  function fieldValue(prop, value) {
    if (value === null || value === undefined) return "";
    if (Array.isArray(value)) return value.map(String).join(prop["x-split"] === "," ? ", " : " ");
    return String(value);
  }

  function fill(values) {
    Object.keys(props).forEach(function (name) {
      var input = document.getElementById("f-" + name);
      if (!input) return;
      var value = values[name] !== undefined ? values[name] : props[name]["default"];
      if (input.type === "checkbox") input.checked = !!value;
      else input.value = fieldValue(props[name], value);
    });
  }

  var values = L ? L.formToInput(ctx.schema, params) : {};
  if (filling || submitted) fill(values);
  if (!submitted) return;

  if (!L || L.ported.indexOf(ctx.id) < 0) {
    box.appendChild(el("div", { "class": "checker-error", role: "alert", id: "offline-needed" }, [
      el("h2", {}, ["This checker needs a connection"]),
      el("p", {}, ["It cannot be worked out on this phone: open this page again when you are online."])]));
    return;
  }

  var out;
  try {
    out = L.run(ctx.id, values, ctx);
  } catch (e) {
    if (!(e instanceof L.CheckerError)) throw e;
    box.appendChild(el("div", { "class": "checker-error", role: "alert", id: "error" }, [
      el("h2", {}, ["Please check the input"]), el("p", {}, [e.message])]));
    var bad = e.field && document.getElementById("f-" + e.field);
    if (bad) {
      bad.setAttribute("aria-invalid", "true");
      bad.setAttribute("aria-errormessage", "error");
      bad.parentNode.classList.add("field-error");
    }
    return;
  }
  box.appendChild(resultSection(out));

  /* --- the result, as templates/checkers/checker.html shows it ------------------- */

  function label(key) { var s = key.split("_").join(" "); return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(); }

  function display(value) {
    if (value === null || value === undefined) return "—";
    if (value === true) return "yes";
    if (value === false) return "no";
    if (Array.isArray(value)) {
      var pointsList = value.length && value.every(function (v) {
        return v && typeof v === "object" && Object.keys(v).sort().join() === "name,points";
      });
      if (pointsList) {
        return value.map(function (v) { return { label: v.name.charAt(0).toUpperCase() + v.name.slice(1).toLowerCase(), value: String(v.points) }; });
      }
      if (value.length && value.every(function (v) { return v && typeof v === "object"; })) {
        return value.map(function (v) { return Object.keys(v).map(function (k) { return String(v[k]); }).join(" "); }).join(", ");
      }
      return value.map(function (v) { return v === null ? "—" : v === true ? "yes" : v === false ? "no" : String(v); }).join(", ") || "none";
    }
    if (typeof value === "object") {
      return Object.keys(value).map(function (k) { var d = display(value[k]); return { label: label(k), value: d }; });
    }
    return String(value);
  }

  /* a result in a code the checker's data was carried into: the note the server's page shows */
  function reviewNote(out) {
    var head = "Checked by the " + out.carried_from + " rules carried into the " + out.edition + " Laws";
    return el("p", { "class": "review-note", id: "review-note", role: "note" }, out.reviewed
      ? [head + ", each provision cited the same or reviewed."] : [head + "; ", el("strong", {}, [out.review]), "."]);
  }

  function resultSection(out) {
    var dl = el("dl");
    Object.keys(out.result).forEach(function (k) {
      var shown = display(out.result[k]);
      var dd = el("dd");
      if (typeof shown === "string") dd.textContent = shown;
      else {
        var nested = el("dl", { "class": "nested" });
        shown.forEach(function (r) {
          nested.appendChild(el("dt", {}, [r.label]));
          nested.appendChild(el("dd", {}, [typeof r.value === "string" ? r.value : r.value.map(function (x) { return x.value; }).join(", ")]));
        });
        dd.appendChild(nested);
      }
      dl.appendChild(el("dt", {}, [label(k)]));
      dl.appendChild(dd);
    });
    var cites = ctx.editions[out.edition].cites || {};
    var list = el("ul", { "class": "cites" }, out.cites.map(function (id) {
      var c = cites[id] || {};
      var li = el("li", {}, [el("a", { href: c.url || "#" }, [c.label || "Law " + id])]);
      if (c.heading) li.appendChild(document.createTextNode(" — " + c.heading));
      return li;
    }));
    var section = el("section", { "class": "checker-result", id: "result", "aria-labelledby": "result-heading", "data-computed": "phone" }, [
      el("h2", { id: "result-heading" }, ["Result"]),
      el("p", { "class": "computed-here" }, ["Computed on this phone, with no connection."])].concat(
      out.carried_from ? [reviewNote(out)] : []).concat([
      el("p", { "class": "explanation" }, [out.explanation]),
      dl]));
    if (out.result.ruling) {
      section.appendChild(el("p", { "class": "ruling-link" }, [el("a", { href: out.result.ruling }, [
        "What the Laws give for this irregularity: the ruling at the table"])]));
    }
    section.appendChild(el("h3", {}, ["Provisions applied (" + out.edition + ")"]));
    section.appendChild(list);
    if (!params.get("record")) {
      var steps = nextSteps(ctx.id, values, out, ctx.guided || []);
      if (steps.length) section.appendChild(nextNav(steps));
    }
    return section;
  }

  /* --- the next step: laws/web/checkers.py's next_steps -------------------------- */

  function quotePlus(s) {
    return encodeURIComponent(String(s)).replace(/%20/g, "+").replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }
  function urlencode(pairs) {
    return pairs.filter(function (p) { return p[1] !== null && p[1] !== undefined && p[1] !== ""; })
      .map(function (p) { return quotePlus(p[0]) + "=" + quotePlus(p[1]); }).join("&");
  }
  /* checkers.py's cite_words: a carried cite awaiting review ("2017:78B") as "78B (2017 Laws)" */
  function citeWords(c) { var i = c.indexOf(":"); return i < 0 ? c : c.slice(i + 1) + " (" + c.slice(0, i) + " Laws)"; }
  function signed(n) { return (n > 0 ? "+" : "") + n; }

  function nextSteps(id, values, out, guided) {
    var r = out.result, recordEdition = guided.indexOf(out.edition) >= 0 ? out.edition : null, steps = [];
    function recordLink(adjustment) {
      if (recordEdition) {
        steps.push({ kind: "link", label: "Into a ruling record (adjusted score)",
                     /* the adjustment is a record field: in the fragment, never sent to the server */
                     href: "/rulings/record?" + urlencode([["procedure", "adjusted-score"], ["edition", recordEdition]])
                       + "#" + urlencode([["adjustment", Array.from(adjustment).slice(0, 500).join("")]]) });
      }
    }
    if (id === "board") {
      [["NS", "North-South"], ["EW", "East-West"]].forEach(function (p) {
        var vul = r.vulnerable === p[0] || r.vulnerable === "Both";
        steps.push({ kind: "link", label: "Score a contract by " + p[1] + " (" + (vul ? "vulnerable" : "not vulnerable") + ")",
                     href: "/checkers/score?" + urlencode([["vulnerable", vul ? "on" : ""], ["fill", "1"]]) });
      });
    } else if (id === "score") {
      steps.push({ kind: "link", label: "IMPs: the difference from " + signed(r.score) + ", less the other table's score",
                   href: "/checkers/imps?" + urlencode([["difference", r.score], ["fill", "1"]]) });
      steps.push({ kind: "link", label: "Matchpoints: " + signed(r.score) + " with the other scores on the board",
                   href: "/checkers/matchpoints?" + urlencode([["scores", r.score], ["fill", "1"]]) });
    } else if (id === "imps") {
      recordLink(signed(r.imps) + " IMPs (a difference of " + r.difference + ", Law " + citeWords(out.cites[0]) + ")");
    } else if (id === "matchpoints" && values.scores && values.scores.length) {
      recordLink(values.scores[0] + ": " + r.matchpoints[0] + " matchpoints on a top of " + r.top + " (" + r.percentages[0] +
                 " %, Law " + citeWords(out.cites[0]) + ")");
    } else if ((id === "cross-imps" || id === "butler") && values.scores && values.scores.length) {
      var how = id === "cross-imps" ? "cross-IMPs, " + r.imps[0] + " over " + r.comparisons + " comparisons" : "Butler, datum " + r.datum;
      var first = id === "cross-imps" ? r.average[0] : r.imps[0];
      recordLink(values.scores[0] + ": " + signed(first) + " IMPs (" + how + ", Laws " + out.cites.map(citeWords).join(" and ") + ")");
    }
    if ((id === "score" || id === "weighted-score" || id === "artificial-score") && recordEdition) {
      var pairs = [id];
      Object.keys(values).forEach(function (k) {
        if (!props[k]) return;
        var v = values[k];
        v = typeof v === "boolean" ? (v ? "yes" : "") : fieldValue(props[k], v);
        if (v !== "") pairs.push(k + "=" + v);
      });
      steps.push({ kind: "record", label: "Into a ruling record (adjusted score)",
                   hidden: [["procedure", "adjusted-score"], ["edition", recordEdition], ["calc", pairs.join(";")]],
                   extra: { score: ["declarer", "weight"], "artificial-score": ["side"] }[id] || [] });
    }
    return steps;
  }

  function select(id, name, options) {
    return el("select", { id: id, name: name, required: "" }, options.map(function (o) { return el("option", { value: o[0] }, [o[1]]); }));
  }

  function nextNav(steps) {
    var nav = el("nav", { "class": "next-steps", id: "next-steps", "aria-labelledby": "next-heading" }, [
      el("h3", { id: "next-heading" }, ["Next step"]),
      el("ul", {}, steps.filter(function (s) { return s.kind === "link"; }).map(function (s) {
        return el("li", {}, [el("a", { "class": "next-step", href: s.href }, [s.label])]);
      }))]);
    steps.filter(function (s) { return s.kind === "record"; }).forEach(function (s) {
      var form = el("form", { "class": "carry", id: "next-record", method: "get", action: "/rulings/record" }, [el("h4", {}, [s.label])]);
      s.hidden.forEach(function (h) { form.appendChild(el("input", { type: "hidden", name: h[0], value: h[1] })); });
      if (s.extra.indexOf("declarer") >= 0) {
        form.appendChild(el("div", { "class": "field" }, [el("label", { "for": "next-declarer" }, ["Declarer"]),
          select("next-declarer", "calc_declarer", [["", "—"], ["N", "North"], ["E", "East"], ["S", "South"], ["W", "West"]])]));
      }
      if (s.extra.indexOf("side") >= 0) {
        form.appendChild(el("div", { "class": "field" }, [el("label", { "for": "next-side" }, ["For"]),
          select("next-side", "calc_side", [["NS", "North-South"], ["EW", "East-West"]])]));
      }
      form.appendChild(el("p", {}, [el("button", { "class": "big", type: "submit" }, ["Open the ruling record"])]));
      nav.appendChild(form);
    });
    return nav;
  }
})();
