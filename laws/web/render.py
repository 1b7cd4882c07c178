"""Turning stored text into HTML (shared by the pages and the API).

Law text is plain text in the store.  It is escaped, then the references the
build found are turned into links using their stored offsets (so the HTML
never has to be re-parsed):

* a resolved reference to another law links to that law page's anchor
  (`/2007/law/16#16B1`); one to this law (a relative "see C1(d)") links within
  the page (`#12C1(d)`);
* an unresolved one stays plain text, marked, with the reason in its title
  (the law page also lists them with their reasons, for phones);
* footnote marks link to their footnote;
* defined terms link to their definition, the first use of each term in each
  provision only, and never the everyday words of the game (`QUIET_TERMS`),
  so the text does not turn into a sea of links.  Terms are
  matched case-insensitively on word boundaries (a plural "s" allowed),
  longest first, never inside another link.

Editions without definitions of their own: a duplicate edition links to the
definitions of the nearest duplicate edition that has them (the 2017 Laws
to the 2007 definitions, which the 2017 revision kept almost word for word),
and says so in the link's title.  The rubber code is not linked: the
duplicate definitions do not describe rubber bridge (no boards, no director).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote
from xml.etree import ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markupsafe import Markup, escape

from laws import citations

_SMALL = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "from", "after"}


def nice_title(title: str) -> str:
    """'OPENING LEAD, REVIEW, QUESTIONS' -> 'Opening Lead, Review, Questions';
    titles in mixed case are left as printed."""
    title = (title or "").strip()
    if not title.isupper():
        return title
    words = title.lower().split(" ")
    out = []
    for i, w in enumerate(words):
        if i and w in _SMALL:
            out.append(w)
        else:
            out.append(re.sub(r"^([^a-z]*)([a-z])", lambda m: m[1] + m[2].upper(), w))
            out[-1] = re.sub(r"([-'/])([a-z])", lambda m: m[1] + m[2].upper() if m[1] != "'" else m[0], out[-1])
    return " ".join(out)


def frag(pid: str) -> str:
    """A provision or definition id as a URL fragment (ids contain spaces and brackets)."""
    return quote(pid, safe=":()'.,-")


def law_url(edition: str, number: int | str, pid: str | None = None) -> str:
    url = f"/{quote(str(edition))}/law/{number}"
    return f"{url}#{frag(pid)}" if pid and pid != str(number) else url


def definition_url(edition: str, def_id: str) -> str:
    return f"/{quote(str(edition))}/definitions#{frag(def_id)}"


def cite_label(pid: str) -> str:
    """How a provision is cited in running text: 'Law 12C1(b)'."""
    return f"Law {pid}" if pid[:1].isdigit() else pid


# Defined terms never linked in running text (reviewed for issue 13).  These
# are the everyday words of the game: nearly every provision uses them, most
# often in their plain sense ("deviations lead to implicit understandings",
# "team play"), and a reader at the table knows them.  A dotted link under
# each would bury the terms that do need their definition (Irregularity,
# Extraneous, Psychic call, Presumed Declarer, Visible Card ...).  Their
# definitions stay on the definitions page and in search.
QUIET_TERMS = frozenset("""
auction bid board call cancelled contestant contract deal declarer defender double dummy event game hand
lead opponent pack partner pass penalty play redouble retracted round session side suit team tournament
trick trump turn withdrawn
""".split())


@dataclass
class Terms:
    """The defined terms of an edition, as one pattern (longest first)."""

    edition: str  # the edition whose definitions the links go to
    terms: dict[str, str]  # lower-case term -> definition id
    note: str = ""  # said in the link title, e.g. 'definition in the 2007 Laws'
    pattern: re.Pattern | None = field(default=None, repr=False)

    def __post_init__(self):
        self.terms = {t: d for t, d in self.terms.items() if t not in QUIET_TERMS}
        if self.terms and self.pattern is None:
            alts = sorted(self.terms, key=len, reverse=True)
            self.pattern = re.compile(
                r"(?<![\w-])(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in alts) + r")(?:s|es)?(?![\w-])",
                re.I)

    def lookup(self, matched: str) -> str | None:
        return self.terms.get(re.sub(r"\s+", " ", matched.lower()))


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < e and s < end for s, e in taken)


def _ref_html(ref: dict, raw: str, edition: str, law_number: int | None) -> str:
    if not ref["resolved"] or not ref.get("to"):
        reason = ref.get("reason") or "not found in the corpus"
        return (f'<span class="xref-none" title="Not linked: {escape(reason)}">{escape(raw)}</span>')
    to_edition, to_id = ref.get("to_edition") or edition, ref["to"]
    to_law = ref.get("to_law")
    if to_law is None:
        m = re.match(r"\d+", to_id)
        to_law = int(m[0]) if m else None
    if to_edition == edition and law_number is not None and to_law == law_number:
        href = f"#{frag(to_id)}"
    elif to_id.startswith("def:"):
        href = definition_url(to_edition, to_id)
    else:
        href = law_url(to_edition, to_law, to_id)
    title = f"{cite_label(to_id)}" + (f" ({to_edition})" if to_edition != edition else "")
    return f'<a class="xref" href="{escape(href)}" title="{escape(title)}">{escape(raw)}</a>'


def text_html(text: str, refs: list[dict] | None = None, *, edition: str, law_number: int | None = None,
              marks: list[tuple[str, str]] | None = None, terms: Terms | None = None,
              skip_term: str | None = None) -> list[Markup]:
    """`text` as a list of HTML paragraphs (split at blank lines), with its
    references, footnote marks and first uses of defined terms linked.

    `refs` are the references standing in this text (their start/end are
    offsets into it); `marks` are (footnote mark, href) pairs of the footnotes
    attached to this text; `skip_term` a definition id never to link (a
    definition does not link to itself)."""
    text = text or ""
    spans: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []

    # references first: resolved ones win over unresolved at the same place, then the longer;
    # one without offsets is left out before the sort, which could not order it
    placed = [r for r in refs or [] if r["start"] is not None and r["end"] is not None]
    for ref in sorted(placed, key=lambda r: (r["start"], not r["resolved"], -(r["end"] - r["start"]))):
        s, e = ref["start"], ref["end"]
        if not 0 <= s < e <= len(text) or _overlaps(taken, s, e):
            continue
        spans.append((s, e, _ref_html(ref, text[s:e], edition, law_number)))
        taken.append((s, e))

    for mark, href in marks or []:
        if not mark or mark[0].isalnum():
            continue  # a numeric mark cannot be told from a number in the text
        ch = re.escape(mark[0])
        for m in re.finditer(rf"(?<!{ch}){re.escape(mark)}(?!{ch})", text):
            if not _overlaps(taken, m.start(), m.end()):
                spans.append((m.start(), m.end(),
                              f'<sup class="fn-mark"><a href="{escape(href)}" title="Footnote">{escape(mark)}</a></sup>'))
                taken.append((m.start(), m.end()))

    if terms is not None and terms.pattern is not None:
        used: set[str] = set()
        title = "Definition" + (f" ({terms.note})" if terms.note else "")
        for m in terms.pattern.finditer(text):
            def_id = terms.lookup(m[1])
            if def_id is None or def_id in used or def_id == skip_term:
                continue
            if _overlaps(taken, m.start(), m.end()):
                continue
            used.add(def_id)
            spans.append((m.start(), m.end(),
                          f'<a class="term" href="{escape(definition_url(terms.edition, def_id))}" '
                          f'title="{escape(title)}">{escape(m[0])}</a>'))
            taken.append((m.start(), m.end()))

    out, pos = [], 0
    for s, e, html in sorted(spans):
        out.append(str(escape(text[pos:s])))
        out.append(html)
        pos = e
    out.append(str(escape(text[pos:])))
    html = "".join(out)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", html) if p.strip()]
    return [Markup(p.replace("\n", "<br>\n")) for p in paragraphs]


# --- the simplified guide -------------------------------------------------------

_LAW_TAG = r"(?i)\[\s*(?P<word>LAWS?)\s+(?P<list>[0-9][^\]\n]{0,60}?)\s*\]"


class _LawTagPattern(InlineProcessor):
    """'[Law 9]', '[LAWS 20, 21, 40 & 75]', '[LAWS 28 TO 34]': each number a link."""

    def __init__(self, pattern, md, law_edition):
        super().__init__(pattern, md)
        self.law_edition = law_edition

    def handleMatch(self, m, data):  # noqa: N802 (Python-Markdown's name)
        el = etree.Element("span")
        el.set("class", "law-tag")
        el.text = "[" + m["word"] + " "
        last = None
        body = m["list"]
        pos = 0
        for item in re.finditer(r"\d{1,2}(?:[A-H](?:\d{1,2})?(?:\([a-z]+\))*)?", body):
            parsed = citations.parse(item[0])
            if parsed is None:
                continue
            law, pid = parsed
            a = etree.Element("a")
            edition = self.law_edition(law)
            if edition is None:
                continue
            a.set("href", law_url(edition, law, pid))
            a.set("class", "xref")
            a.text = item[0]
            between = body[pos:item.start()]
            if last is None:
                el.text += between
            else:
                last.tail = (last.tail or "") + between
            el.append(a)
            last = a
            pos = item.end()
        rest = body[pos:] + "]"
        if last is None:
            el.text += rest
        else:
            last.tail = rest
        return el, m.start(0), m.end(0)


class _UnderlinePattern(InlineProcessor):
    """'<u>Lead Penalties</u>; see page 7': the underlined name of another
    topic (the booklet's cross-reference) becomes a link to that topic."""

    def __init__(self, pattern, md, topic_for):
        super().__init__(pattern, md)
        self.topic_for = topic_for

    def handleMatch(self, m, data):  # noqa: N802
        target = self.topic_for(m[1])
        if target:
            el = etree.Element("a")
            el.set("href", target)
            el.set("class", "topic-link")
        else:
            el = etree.Element("u")
        el.text = m[1]
        return el, m.start(0), m.end(0)


class GuideLinks(Extension):
    def __init__(self, law_edition=None, topic_for=None, **kwargs):
        self.law_edition = law_edition or (lambda law: None)
        self.topic_for = topic_for or (lambda name: None)
        super().__init__(**kwargs)

    def extendMarkdown(self, md):  # noqa: N802
        # the source is OCR output, not trusted HTML: raw HTML is escaped
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.inlinePatterns.register(_UnderlinePattern(r"<u>(.+?)</u>", md, self.topic_for), "underline", 95)
        md.inlinePatterns.register(_LawTagPattern(_LAW_TAG, md, self.law_edition), "law_tag", 94)


def guide_html(md: str, law_edition=None, topic_for=None) -> Markup:
    """A guide topic's Markdown as HTML.  The source is OCR output, not trusted
    HTML: raw HTML in it is escaped, except underlining, which the booklet uses
    for the names of other topics (linked when `topic_for` finds them).  Law
    tags ('[LAW 27]') link to the law in the edition `law_edition(n)` names."""
    html = markdown.markdown(md or "", extensions=["tables", "sane_lists", GuideLinks(law_edition, topic_for)],
                             output_format="html")
    return Markup(html)
