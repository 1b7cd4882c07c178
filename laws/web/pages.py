"""The HTML pages (CONTRACT.md): home, contents, law, definitions, guide,
sources, the jump box's target (/go) and the offline fallbacks.

Each view reads the store through `laws.queries` and hands plain values to a
template; turning text into HTML is `laws.web.render`'s job.
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from flask import Blueprint, redirect, render_template, request, url_for

from laws import compare, citations, queries
from laws.rulings import carry
from laws.web import chapters, render
from laws.web.pagecache import BUILT_MARK, page
from laws.web.db import get_db
from laws.web.limits import ascii_number, law_number
from laws.web.site import cached

bp = Blueprint("pages", __name__)


# --- values shared by many pages (computed once per store) ---------------------

def _editions() -> list[dict]:
    return cached("editions", lambda: queries.editions(get_db()))


def _edition(edition_id: str) -> dict:
    for e in _editions():
        if e["id"] == edition_id:
            return e
    queries.edition(get_db(), edition_id)  # raises NotFound with the known editions
    raise queries.NotFound(f"There is no edition '{edition_id}'.")


def _code_editions_in_jump_order() -> list[dict]:
    """Code editions in the order the jump box tries them (queries.jump_order)."""
    return sorted((e for e in _editions() if e["kind"] == "code"), key=queries.jump_order)


def _age(e: dict) -> tuple[int, int]:
    """Oldest first: by year, then in the manifest's order."""
    return (e["year"] or 0, next(i for i, x in enumerate(_editions()) if x["id"] == e["id"]))


def _in_force() -> dict | None:
    """The code directors rule by today (the manifest's `in_force`)."""
    return next((e for e in _editions() if e.get("in_force")), None)


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def long_date(iso: str | None) -> str | None:
    """'2027-09-01' -> '1 September 2027' (the month in words: 09/01 reads
    as two dates to readers on either side of the Atlantic)."""
    if not iso:
        return None
    year, month, day = (int(x) for x in iso.split("-"))
    return f"{day} {MONTHS[month - 1]} {year}"


def life_label(e: dict) -> str | None:
    """What the home page says of a code beside its title: 'in force', 'in
    force from 1 September 2027', 'superseded by 2017' (the store's status,
    resolved when it was built)."""
    status = e.get("status")
    if status == "published":
        return f"in force from {long_date(e['in_force_from'])}" if e.get("in_force_from") else "not yet in force"
    if status == "superseded":
        return f"superseded by {e['superseded_by']}"
    return status


def _home_order(eds: list[dict]) -> list[dict]:
    """The code in force, then the published codes (soonest in force first),
    then the superseded ones (newest first), then the rest as the manifest
    lists them: however many codes there are, the one to rule by leads."""
    rank = {"in force": 0, "published": 1, "superseded": 2}

    def key(ie):
        i, e = ie
        r = rank.get(e.get("status"), 3)
        if r == 1:
            return (r, e.get("in_force_from") or "9999", e["year"], i)
        if r == 2:
            return (r, "", -e["year"], i)
        return (r, "", 0, i)
    return [e for _, e in sorted(enumerate(eds), key=key)]


def not_yet_in_force(ed: dict, number: int | None = None) -> dict | None:
    """For a published code not yet in force: the banner its contents and law
    pages open with (when published, from when in force, and a link to the
    same law, or the contents, of the code in force of its family)."""
    if ed.get("status") != "published":
        return None
    current = _in_force()
    if current is not None and current["family"] != ed["family"]:
        current = None  # the duplicate code in force is not this rubber code's predecessor
    href = None
    if current is not None:
        href = (render.law_url(current["id"], number) if number is not None and number in current["laws"]
                else url_for("pages.contents", edition=current["id"]))
    return {"published": long_date(ed.get("published")), "in_force_from": long_date(ed.get("in_force_from")),
            "current": current, "href": href}


def _has_definitions(edition_id: str) -> bool:
    return cached(f"has_defs:{edition_id}", lambda: get_db().execute(
        "select 1 from definitions where edition = ? limit 1", [edition_id]).fetchone() is not None)


def _has_index(edition_id: str) -> bool:
    return cached(f"has_index:{edition_id}", lambda: queries.has_index(get_db(), edition_id))


def _terms(edition_id: str) -> render.Terms | None:
    """The defined terms linked in this edition's text (see render's docstring
    for which editions borrow another's definitions)."""
    def compute():
        ed = _edition(edition_id)
        source = None
        if _has_definitions(edition_id):
            source = ed
        elif ed["family"] == "duplicate" and ed["kind"] == "code":
            others = [e for e in _editions() if e["family"] == ed["family"] and e["kind"] == "code"
                      and _has_definitions(e["id"])]
            if others:
                source = min(others, key=lambda e: abs(e["year"] - ed["year"]))
        if source is None:
            return None
        defs = queries.definitions(get_db(), source["id"])
        note = "" if source["id"] == edition_id else f"definition in the {source['title']}"
        return render.Terms(source["id"], {d["term"].lower(): d["id"] for d in defs}, note)
    return cached(f"terms:{edition_id}", compute)


def _topic_titles() -> dict[str, dict]:
    return cached("topics", lambda: {t["id"]: dict(t, title=render.nice_title(t["title"]))
                                     for t in queries.guide(get_db())})


def _provision_set(edition_id: str, law: int) -> set[str]:
    return cached(f"ids:{edition_id}:{law}", lambda: {r[0] for r in get_db().execute(
        "select id from provisions where edition = ? and law = ?", [edition_id, law])})


# --- the jump box ------------------------------------------------------------------

def resolve(query: str, edition_hint: str | None = None) -> str | None:
    """The address a citation typed in the jump box goes to, or None when the
    query is not a citation the store can answer.

    The edition is the one the jump box was used on when it has the law, else
    the newest code edition that has the exact provision, else the newest that
    has the law (at the longest ancestor of the provision it has).  A query
    that names its edition first ('2007 45C4', '2007:45C4') goes to that
    edition or, when it lacks the law, to search."""
    named, query = citations.split_edition(query or "", [e["id"] for e in _code_editions_in_jump_order()])
    parsed = citations.parse(query)
    if parsed is None:
        return None
    law, pid = parsed
    with_law = [e for e in _code_editions_in_jump_order() if law in e["laws"] and named in (None, e["id"])]
    if not with_law:
        return None
    hinted = [e for e in with_law if e["id"] == edition_hint]
    exact = [e for e in with_law if pid in _provision_set(e["id"], law)]
    ed = (hinted or exact or with_law)[0]
    have = _provision_set(ed["id"], law)
    target = next((c for c in citations.candidates(pid) if c in have), str(law))
    return render.law_url(ed["id"], law, target)


@bp.get("/go")
def go():
    q = (request.args.get("q") or "").strip()
    if not q:
        return redirect(url_for("pages.home"))
    url = resolve(q, request.args.get("edition"))
    if url is None:
        return redirect("/search?" + urlencode({"q": q}))
    return redirect(url)


# --- pages ---------------------------------------------------------------------------

@bp.get("/")
@page
def home():
    eds = _editions()
    for e in eds:
        e["has_definitions"] = _has_definitions(e["id"])
        e["has_index"] = _has_index(e["id"])
    declared = {e["id"]: set(e["declared_laws"]) for e in eds}
    checkers: dict[str, dict] = {}
    for r in get_db().execute("select checker, title, provision from checker_cites order by checker"):
        c = checkers.setdefault(r["checker"], {"checker": r["checker"], "title": r["title"], "numbers": set()})
        m = re.match(r"\d+", r["provision"] or "")
        if m:
            c["numbers"].add(int(m[0]))
    for c in checkers.values():
        c["laws"] = citations.law_ranges(sorted(c["numbers"]))
    with_defs = sorted((e for e in eds if e["has_definitions"]), key=queries.jump_order)
    eds = _home_order(eds)
    for e in eds:
        e["life"] = life_label(e)
    return render_template("home.html", editions=eds, coverage={e["id"]: coverage(e) for e in eds},
                           defs_edition=with_defs[0] if with_defs else None,
                           declared=declared, guide=[t for t in _topic_titles().values()],
                           checkers=list(checkers.values()))


def coverage(e: dict) -> str:
    """'Laws 33–40 only', 'Laws 1–93': what of the edition the corpus holds."""
    if e["kind"] != "code":
        return ""
    if not e["laws"]:
        return "not in the corpus"
    text = citations.law_ranges(e["laws"])
    return text if len(e["laws"]) >= 93 else text + " only"


@bp.get("/<edition>/")
@page
def contents(edition: str):
    ed = _edition(edition)
    if ed["kind"] != "code":
        return redirect(url_for("pages.guide"))
    laws = [dict(law, title=render.nice_title(law["title"])) for law in queries.law_titles(get_db(), edition)]
    groups = chapters.group(ed["family"], laws, _has_definitions(edition))
    return render_template("contents.html", edition=ed, groups=groups, coverage=coverage(ed),
                           front=queries.sections(get_db(), edition), has_index=_has_index(edition),
                           not_yet=not_yet_in_force(ed))


@bp.get("/<edition>")
def contents_no_slash(edition: str):
    _edition(edition)
    return redirect(url_for("pages.contents", edition=edition), 301)


@bp.get("/<edition>/law/<number>")
@page
def law(edition: str, number: str):
    if ascii_number(number) is None and re.fullmatch(r"[0-9]{1,2}\D.*", number) and citations.parse(number):
        return redirect(url_for("pages.go", q=number, edition=edition))
    number_i = law_number(number)
    ed = _edition(edition)
    data = queries.law(get_db(), edition, number_i)
    page = LawPage(ed, data, _terms(edition)).build()
    from laws.web.guided import law_links  # the guided rulings that apply this law
    return render_template("law.html", edition=ed, law=data, page=page, title=render.nice_title(data["title"]),
                           guided_rulings=law_links(edition, number_i))


class LawPage:
    """Everything law.html shows, with the text already turned into HTML."""

    def __init__(self, edition: dict, law: dict, terms: render.Terms | None):
        self.edition, self.law, self.terms = edition, law, terms

    def build(self) -> dict:
        ed, law = self.edition, self.law
        n = law["number"]
        refs: dict[tuple[str, str], list[dict]] = {}
        for r in law["references"]:
            refs.setdefault((r["from"], r["field"]), []).append(r)
        footnotes = []
        marks: dict[str, list[tuple[str, str]]] = {}
        for i, f in enumerate(law["footnotes"], 1):
            anchor = f"fn{i}"
            marks.setdefault(f["provision"], []).append((f["mark"], f"#{anchor}"))
            footnotes.append({
                "anchor": anchor, "mark": f["mark"], "provision": f["provision"],
                "html": render.text_html(f["text"], refs.get((f["provision"], f"footnote:{f['mark']}")),
                                         edition=ed["id"], law_number=n, terms=self.terms),
                "raw_text": f["raw_text"] if f["raw_text"] and f["raw_text"] != f["text"] else None,
            })
        # a mark printed again in a later provision refers to the same footnote
        # (rubber Law 64: '**' in (a), (b) and (c), one footnote under (a))
        law_marks = {}
        for f in footnotes:
            law_marks.setdefault(f["mark"], f"#{f['anchor']}")
        history = self._history()
        in_force = self._in_force_counterpart()
        shown = self._shown_editions()
        variants: dict[str, list[dict]] = {}
        for v in law.get("variants", []):
            variants.setdefault(v["provision"], []).append(dict(v, kind_words=VARIANT_WORDS.get(v["kind"], v["kind"])))
        by_id = {p["id"]: p for p in law["provisions"]}
        parents: dict[str, list[str]] = {}
        for p in law["provisions"]:
            chain, up = [], p["parent"]
            while up in by_id and by_id[up]["depth"] > 0:
                chain.insert(0, up)
                up = by_id[up]["parent"]
            parents[p["id"]] = chain
        provisions = []
        for p in law["provisions"]:
            own = marks.get(p["id"], [])
            own_marks = {m for m, _ in own}
            p_marks = own + [(m, href) for m, href in law_marks.items() if m not in own_marks and m in (p["text"] or "")]
            # longest marks first, so '**' is not read as two '*'
            p_marks.sort(key=lambda mh: -len(mh[0]))
            provisions.append({
                **p,
                "url": render.law_url(ed["id"], n, p["id"]),
                "label_text": _label(p["label"]),
                "html": render.text_html(p["text"], refs.get((p["id"], "text")), edition=ed["id"],
                                         law_number=n, marks=p_marks, terms=self.terms),
                "raw_text": p["raw_text"] if p["raw_text"] and p["raw_text"] != p["text"] else None,
                "history": [h for h in history.get(p["id"], []) if h["edition"] in shown
                            and h["family"] == ed["family"]],
                "history_apart": [h for h in history.get(p["id"], []) if h["edition"] in shown
                                  and h["family"] != ed["family"]],
                "parents": " ".join(parents.get(p["id"], [])),
                "cite": f"Law {p['id']} ({cite_name(ed)})",
                "in_force_href": self._counterpart_href(in_force, p["id"], history.get(p["id"], [])),
                "variants": variants.get(p["id"], []),
            })
        unresolved = [r for r in law["references"] if not r["resolved"]]
        topics = _topic_titles()
        cited_by = []
        seen = set()
        for r in law["cited_by"]:
            key = (r["from"], r["to"])
            if key in seen:
                continue
            seen.add(key)
            src = r["from"]
            if src.startswith("def:"):
                href = render.definition_url(ed["id"], src)
                label = src[4:]
            else:
                m = re.match(r"\d+", src)
                href = render.law_url(ed["id"], int(m[0]), src) if m else "#"
                label = render.cite_label(src)
            cited_by.append({"href": href, "label": label, "to": r["to"],
                             "to_href": "#" + render.frag(r["to"])})
        shown = self._shown_editions()
        other_editions = []
        for e in sorted(shown.values(), key=_age):
            older, newer = sorted([e, ed], key=_age)
            other_editions.append({"edition": e, "href": render.law_url(e["id"], n),
                                   "compare": f"/compare/{n}?" + urlencode({"from": older["id"], "to": newer["id"]})})
        with_law = [e for e in _editions() if e["kind"] == "code" and n in e["laws"]]
        all_editions = None
        if len(with_law) > len(shown) + 1:  # the rest are one link away, not listed here
            before = self._neighbours()[0]
            pair = {"from": before["id"], "to": ed["id"]} if before else {"from": ed["id"]}
            all_editions = {"count": len(with_law), "href": f"/compare/{n}?" + urlencode(pair)}
        numbers = ed["laws"]
        i = numbers.index(n)
        checker_titles = {r["checker"]: r["title"] for r in get_db().execute(
            "select checker, title from checker_cites where edition = ?", [ed["id"]])}
        return {
            "provisions": provisions, "footnotes": footnotes, "unresolved": unresolved,
            "cited_by": cited_by,
            "guide": [topics[t] for t in law["guide"] if t in topics],
            "checkers": [{"id": c, "title": checker_titles.get(c, c)} for c in law["checkers"]],
            "other_editions": other_editions,
            "all_editions": all_editions,
            "corrections": law["corrections"],
            "has_raw": any(p["raw_text"] for p in provisions) or any(f["raw_text"] for f in footnotes),
            "has_plain": any(p.get("plain") for p in provisions),
            "prev": numbers[i - 1] if i > 0 else None,
            "next": numbers[i + 1] if i + 1 < len(numbers) else None,
            "terms_note": self.terms.note if self.terms else None,
            "in_force": in_force,
            "not_yet": not_yet_in_force(ed, n),  # a published code before its day
            "witnesses": self._witnesses(law, variants),
            "outline": [{"id": p["id"], "label": p["label_text"], "url": p["url"],
                         "heading": p["heading"] or _first_words(p["text"])}
                        for p in provisions if p["depth"] == 1],
            "cite": f"Law {n} ({cite_name(ed)})",
            "built": BUILT_MARK,  # the build's date, put in after the page's hash (laws.web.pagecache)
            "index": [dict(e, to_href=render.law_url(ed["id"], n, e["to"])) for e in _index_by_law(ed["id"]).get(n, [])],
        }

    @staticmethod
    def _witnesses(law: dict, variants: dict[str, list[dict]]) -> list[dict]:
        """Each witness of the law with how far it agrees with the main text."""
        out = []
        worded = [p for p in law["provisions"] if (p["text"] or "").strip()]
        for s in law["sources"]:
            if s["how"] != "witness":
                continue
            mine = [v for vs in variants.values() for v in vs if v["source"] == s["file"]]
            differing = {v["provision"] for v in mine if v["kind"] != "typo"}
            kinds: dict[str, int] = {}
            for v in mine:
                kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
            out.append({**s, "provisions": len(worded), "agree": sum(p["id"] not in differing for p in worded),
                        "variants": len(mine),
                        "kinds": [(VARIANT_WORDS.get(k, k), n) for k, n in sorted(kinds.items(), key=lambda kn: -kn[1])]})
        return out

    def _neighbours(self) -> tuple[dict | None, dict | None]:
        """The codes of this edition's family just before and just after it
        that have this law: a provision's history on the page is these two,
        so a page weighs the same with three editions or thirty."""
        ed, n = self.edition, self.law["number"]
        family = sorted((e for e in _editions() if e["kind"] == "code" and e["family"] == ed["family"]
                         and (n in e["laws"] or e["id"] == ed["id"])), key=_age)
        i = next(i for i, e in enumerate(family) if e["id"] == ed["id"])
        return (family[i - 1] if i > 0 else None), (family[i + 1] if i + 1 < len(family) else None)

    def _shown_editions(self) -> dict[str, dict]:
        """The other editions a law page names: its family's neighbours, the
        code in force, and of each other family the code nearest in time.
        Every other edition with the law is one link away (the comparison
        page lists them all)."""
        ed, n = self.edition, self.law["number"]
        shown = {e["id"]: e for e in self._neighbours() if e}
        current = _in_force()
        if current and current["id"] != ed["id"] and n in current["laws"]:
            shown[current["id"]] = current
        nearest: dict[str, dict] = {}
        for e in _editions():
            if e["kind"] == "code" and e["family"] != ed["family"] and n in e["laws"]:
                best = nearest.get(e["family"])
                if best is None or abs(e["year"] - ed["year"]) < abs(best["year"] - ed["year"]):
                    nearest[e["family"]] = e
        shown.update({e["id"]: e for e in nearest.values()})
        return shown

    def _in_force_counterpart(self) -> dict | None:
        """For a law of an older code of the family in force: the same law in
        the code in force, and what changed (None on the code in force itself,
        or where it has no such law)."""
        ed, n = self.edition, self.law["number"]
        current = _in_force()
        if (current is None or current["id"] == ed["id"] or current["family"] != ed["family"]
                or current["year"] <= ed["year"] or n not in current["laws"]):
            return None
        row = compare.law_comparison(get_db(), ed["id"], current["id"], n)
        return {"edition": current, "href": render.law_url(current["id"], n),
                "status": row["status"] if row else None, "summary": row["summary"] if row else "",
                "compare": f"/compare/{n}?" + urlencode({"from": ed["id"], "to": current["id"]})}

    @staticmethod
    def _counterpart_href(in_force: dict | None, pid: str, history: list[dict]) -> str | None:
        """Where a provision of an older code stands in the code in force: its
        aligned counterpart, or for a provision with no words of its own (a
        bare 27B1 above its (a) and (b)) the provision of the same id there."""
        if in_force is None:
            return None
        ed = in_force["edition"]
        for h in history:
            if h["edition"] == ed["id"] and h["provision"]:
                return render.law_url(h["edition"], int(re.match(r"\d+", h["provision"])[0]), h["provision"])
        law = int(re.match(r"\d+", pid)[0])
        if not history and pid in _provision_set(ed["id"], law):
            return render.law_url(ed["id"], law, pid)
        return None


    def _history(self) -> dict[str, list[dict]]:
        """Each provision in the other editions (laws.compare aligned them at
        build time): provision id -> [{edition, year, href, provision, status, compare}]."""
        ed, n = self.edition["id"], self.law["number"]
        out: dict[str, list[dict]] = {}
        families = {e["id"]: e["family"] for e in _editions()}
        for pid, entries in compare.history(get_db(), ed, n).items():
            for h in entries:
                older, newer = sorted([(h["year"], h["edition"]), (self.edition["year"], ed)])
                out.setdefault(pid, []).append({
                    **h, "family": families.get(h["edition"], h["edition"]),
                    # a provision moved to another law links to that law
                    "href": render.law_url(h["edition"], h.get("law") or n, h["provision"]) if h["provision"] else None,
                    "compare": f"/compare/{n}?" + urlencode({"from": older[1], "to": newer[1]}),
                })
        return out


def cite_name(ed: dict) -> str:
    """How a citation names an edition: 'Laws of Duplicate Bridge 2017' ->
    '2017 Laws of Duplicate Bridge' (the year first, as directors say it)."""
    year = str(ed.get("year") or "")
    title = re.sub(r"\s+", " ", (ed.get("title") or "").replace(year, "")).strip(" ,")
    title = re.sub(r"\s+([,)])", r"\1", title)
    return f"{year} {title}".strip()


def _first_words(text: str | None, n: int = 8) -> str:
    words = (text or "").split()
    return " ".join(words[:n]) + ("…" if len(words) > n else "")


# how a variant reading's kind (laws/witness.py) is named to readers
VARIANT_WORDS = {
    "typo": "transcription slip (corrected)", "spelling": "British/American spelling",
    "gender-neutral": "gender-neutral edit", "punctuation": "punctuation or capitals",
    "wording": "different wording", "missing": "provision missing",
}


def _label(label: str) -> str:
    """How a provision's label is printed before its text: 'A.', '1.', '(b)'."""
    label = (label or "").strip()
    if not label or label.startswith("("):
        return label
    return label if label.endswith(".") else label + "."


@bp.get("/<edition>/definitions")
@page
def definitions(edition: str):
    ed = _edition(edition)
    defs = queries.definitions(get_db(), edition)
    if not defs:
        # which codes do have them, from the store (the message named 2007 by hand before)
        have = [e["year"] for e in _editions() if e["kind"] == "code" and e["id"] != edition
                and _has_definitions(e["id"])]
        raise queries.NotFound(f"The {ed['title']} in the corpus has no definitions."
                               + (f" The {have[0]} Laws have them." if have else ""))
    refs = queries.definition_references(get_db(), edition)
    terms = _terms(edition)
    items = [{**d, "html": render.text_html(d["text"], refs.get(d["id"]), edition=edition, terms=terms,
                                            skip_term=d["id"]),
              "raw_text": d["raw_text"] if d["raw_text"] and d["raw_text"] != d["text"] else None}
             for d in defs]
    return render_template("definitions.html", edition=ed, definitions=items)


@bp.get("/<edition>/index")
@page(query=True)
def official_index(edition: str):
    ed = _edition(edition)
    entries = queries.index(get_db(), edition)
    q = " ".join((request.args.get("q") or "").split())[:100]
    page = IndexPage(ed, entries).build(q)
    return render_template("index.html", edition=ed, page=page, q=q)


def index_anchors(entries: list[dict]) -> dict[int, str]:
    """Each heading's anchor on the index page: 'Insufficient Bid' -> 'i-insufficient-bid'."""
    out: dict[int, str] = {}
    for e in entries:
        base = "i-" + (re.sub(r"[^a-z0-9]+", "-", e["term"].lower()).strip("-") or "entry")
        anchor, n = base, 2
        while anchor in out.values():
            anchor, n = f"{base}-{n}", n + 1
        out[e["id"]] = anchor
    return out


def _index_by_law(edition_id: str) -> dict[int, list[dict]]:
    """Law number -> the index entries citing a provision of it, for the law
    pages: [{"heading", "href", "term", "to"}] in the index's order."""
    def compute():
        if not _has_index(edition_id):
            return {}
        entries = queries.index(get_db(), edition_id)
        anchors = index_anchors(entries)
        base = url_for("pages.official_index", edition=edition_id)
        out: dict[int, list[dict]] = {}
        for h in entries:
            for e in [h] + h["subterms"]:
                for c in e["cites"]:
                    m = re.match(r"\d+", c.get("to") or "")
                    if m:
                        out.setdefault(int(m[0]), []).append({
                            "heading": h["term"], "href": f"{base}#{anchors[h['id']]}",
                            "term": e["term"] if e is not h else "", "to": c["to"]})
        return out
    return cached(f"index_by_law:{edition_id}", compute)


class IndexPage:
    """The official index as index.html shows it: every heading anchored
    (`#i-<slug>`), every citation and cross-reference a link, filtered by the
    words of `q` on the server (the same filter runs live in
    static/official-index.js)."""

    def __init__(self, edition: dict, entries: list[dict]):
        self.edition, self.entries = edition, entries
        anchors = index_anchors(entries)
        self.anchors: dict[str, str] = {}
        for e in entries:
            e["anchor"] = anchors[e["id"]]
            self.anchors.setdefault(e["term"].lower(), e["anchor"])

    def see_href(self, term: str) -> str | None:
        """The heading a cross-reference names: the same words, else the first
        heading that begins with them ('See also Score' -> 'Score, Adjusted')."""
        low = term.lower()
        anchor = self.anchors.get(low) or next(
            (a for t, a in self.anchors.items() if t.startswith(low + " ") or t.startswith(low + ",")), None)
        return f"{url_for('pages.official_index', edition=self.edition['id'])}#{anchor}" if anchor else None

    def cite_href(self, c: dict) -> str | None:
        ed, to = self.edition["id"], c.get("to")
        if not to:
            return None
        if to.startswith("def:"):
            return render.definition_url(ed, to)
        if to == "definitions":
            return url_for("pages.definitions", edition=ed)
        m = re.match(r"\d+", to)
        if m:
            return render.law_url(ed, int(m[0]), to)
        return f"{url_for('pages.contents', edition=ed)}#{to}"  # a section of the front matter

    def _item(self, e: dict, heading: str = "") -> dict:
        cites = [{"label": c["raw"], "href": self.cite_href(c), "resolved": c.get("resolved"),
                  "title": c.get("reason") or ""} for c in e["cites"]]
        see = [{"term": t, "href": self.see_href(t), "also": t in e["see_also"]} for t in e["see"] + e["see_also"]]
        # what the filter reads: the words of the entry (with its heading's) and its citations
        words = " ".join([heading, e["term"]] + [c["raw"] for c in e["cites"]]).strip()
        return {"term": e["term"], "cites": cites, "see": see, "note": e["note"], "filter": words.lower()}

    def build(self, q: str = "") -> dict:
        words = q.lower().split()
        headings, letters = [], []
        shown_entries = 0
        for e in self.entries:
            item = self._item(e)
            subs = [self._item(s, e["term"]) for s in e["subterms"]]
            if words and not all(w in item["filter"] for w in words):
                subs = [s for s in subs if all(w in s["filter"] for w in words)]
                if not subs:
                    continue
            letter = e["term"][:1].upper()
            if letter not in letters:
                letters.append(letter)
            shown_entries += 1 + len(subs)
            headings.append({**item, "anchor": e["anchor"], "letter": letter, "subterms": subs})
        total = sum(1 + len(e["subterms"]) for e in self.entries)
        return {"headings": headings, "letters": letters, "shown": shown_entries, "total": total,
                "total_headings": len(self.entries)}


@bp.get("/guide")
@page
def guide():
    topics = list(_topic_titles().values())
    eds = {e["id"]: e for e in _editions()}
    guide_eds = [e for e in _editions() if e["kind"] == "guide"]
    return render_template("guide.html", topics=topics, guide_editions=guide_eds, editions=eds)


@bp.get("/guide/<path:topic_id>")
@page
def topic(topic_id: str):
    if not topic_id.startswith("topic:"):
        topic_id = "topic:" + topic_id
    t = queries.topic(get_db(), topic_id)
    guide_ed = _edition(t["edition"])
    codes = _code_editions_in_jump_order()
    preferred = guide_ed.get("guide_to")
    # the code in force, when it was carried from the guide's code: a law the
    # comparison found the same (or a review accepted) is linked in it, any
    # other stays on the code the guide explains (laws.rulings.carry)
    in_force = next((e["id"] for e in codes if e.get("in_force")), None)
    followed = (cached(f"guide_links:{in_force}", lambda: carry.guide_links(get_db(), in_force))
                if in_force and preferred and in_force != preferred else {})

    def law_edition(n: int) -> str | None:
        if (topic_id, n) in followed:
            return followed[(topic_id, n)]
        for e in sorted(codes, key=lambda e: e["id"] != preferred):
            if n in e["laws"] and e["family"] == guide_ed["family"]:
                return e["id"]
        return None

    by_title = {_norm_title(x["title"]): x["id"] for x in _topic_titles().values()}

    def topic_for(name: str) -> str | None:
        key = _norm_title(name)
        for k in (key, key.rstrip("s"), key + "s"):
            if k in by_title and by_title[k] != topic_id:
                return url_for("pages.topic", topic_id=by_title[k])
        return None

    html = render.guide_html(t["markdown"], law_edition, topic_for)
    laws = [{"number": n, "edition": law_edition(n)} for n in t["laws"]]
    all_topics = list(_topic_titles())
    i = all_topics.index(topic_id) if topic_id in all_topics else -1
    nav = {"prev": _topic_titles()[all_topics[i - 1]] if i > 0 else None,
           "next": _topic_titles()[all_topics[i + 1]] if 0 <= i < len(all_topics) - 1 else None}
    t = dict(t, title=render.nice_title(t["title"]))
    # a group heading ("Revokes") has no text of its own: it is a chapter, and lists its sub-topics
    subtopics = [x for x in _topic_titles().values() if x.get("parent") == t["id"]]
    return render_template("topic.html", topic=t, html=html, laws=laws, guide_edition=guide_ed, nav=nav,
                           subtopics=subtopics,
                           parent=_topic_titles().get(t["parent"]) if t["parent"] else None)


def _norm_title(title: str) -> str:
    title = re.sub(r"\[[^\]]*\]|[*_#]", "", title or "")
    return re.sub(r"\s+", " ", title).strip().lower()


@bp.get("/sources")
@page
def sources():
    eds = {e["id"]: e for e in _editions()}
    items = [dict(s, laws_text=citations.law_ranges(json.loads(s["laws"] or "[]"))) for s in queries.sources(get_db())]
    return render_template("sources.html", sources=items, editions=eds)


@bp.get("/offline")
@page
def offline():
    return render_template("offline.html", search=False)


@bp.get("/offline/search")
@page
def offline_search():
    return render_template("offline.html", search=True)
