"""Playing a table call (tests/table_calls.py) on a phone, from the home page,
counting what the director does: every tap, every key typed, and the time.

A call has two parts: the facts (from the home page to the last fact
entered) and the answer (the taps after the last fact until the outcome is
on the screen).  `play(pg, base_url, call)` does both and returns `Played`:
the counts, whether the facts form fitted the screen, and what the screen
shows (the outcome fields the call expects, and the provisions cited, in
order).  Used by tests/test_table_calls_browser.py and bench/table.py."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from urllib.parse import unquote

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass
class Played:
    fact_taps: int = 0
    fact_keys: int = 0
    answer_taps: int = 0
    seconds: float = 0.0
    fits: bool = True  # the facts form fitted the screen with no scrolling
    outcome: dict = field(default_factory=dict)
    cites: list = field(default_factory=list)


class Hand:
    """The director's hand on the phone: taps and keys, counted."""

    def __init__(self, pg):
        self.pg, self.taps, self.keys = pg, 0, 0
        self.facts_at: tuple[int, int] | None = None
        self.fits = True

    def tap(self, target, nav: bool = False):
        """One tap; `nav`: the tap opens another page, waited for."""
        loc = self.pg.locator(target).first if isinstance(target, str) else target
        if nav:
            with self.pg.expect_navigation():
                loc.tap()
        else:
            loc.tap()
        self.taps += 1

    def type(self, text: str):
        self.pg.keyboard.type(text)
        self.keys += len(text)

    def facts_done(self, form: str | None = None):
        """The last fact is in: what comes after is the answer.  `form`, the
        facts form's selector, must fit in the screen (no scrolling to reach
        any of it)."""
        self.facts_at = (self.taps, self.keys)
        if form:
            self.fits = self.pg.evaluate("""(sel) => {
                const r = document.querySelector(sel).getBoundingClientRect();
                return r.top >= 0 && r.bottom <= window.innerHeight + 1; }""", form)


def wait(pg, js: str, arg=None, timeout: float = 15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if pg.evaluate(js, arg):
                return
        except Exception as e:  # a page on its way in (a redirect, the service worker's answer)
            if "context was destroyed" not in str(e) and "navigat" not in str(e):
                raise
        pg.wait_for_timeout(50)
    raise AssertionError(f"timed out waiting for {js}")


CITES_JS = """() => [...document.querySelectorAll('.ruling ul.cites > li a, .checker-result ul.cites a')]
    .map(a => a.textContent.replace(/^Open\\s+/, '').replace(/^Law\\s+/, '').trim())"""


def start(hand: Hand, base_url: str, where: str):
    """From the home page, one tap on the start for `where`."""
    hand.pg.goto(base_url + "/")
    hand.tap(f"section.happened a.start[href='{where}']", nav=True)


# --- the flows, one per start ------------------------------------------------------

def auction(hand: Hand, base_url: str, call) -> dict:
    pg, f = hand.pg, call.facts
    start(hand, base_url, "/rulings/auction")
    wait(pg, "() => document.getElementById('ruling-app').dataset.ready === 'yes'")
    if f["dealer"] != "N":
        choose(hand, "#app-dealer", f["dealer"])
    for c in f["calls"]:
        hand.tap(f".entry .bidding-box [data-call='{c}']")
    form_fits = rule_in_view(pg, "ruling-app")
    hand.tap("#rule")
    answer_questions(hand, f)
    hand.facts_done()
    hand.fits = hand.fits and form_fits
    return read_ruling(pg)


def rule_in_view(pg, app: str) -> bool:
    """The facts form, from its top to its Rule button, on the screen with no scrolling."""
    return pg.evaluate("""(app) => document.getElementById(app).getBoundingClientRect().top >= 0
        && document.getElementById('rule').getBoundingClientRect().bottom <= window.innerHeight + 1""", app)


def answer_questions(hand: Hand, facts: dict):
    """Each question the ruling asks, answered from the call's facts."""
    pg = hand.pg
    for _ in range(12):
        q = pg.evaluate("() => { const q = document.querySelector('.ruling .question'); return q && q.dataset.question; }")
        if not q:
            return
        folded = pg.eval_on_selector_all(".ruling .question .answers [data-facts]",
                                         "bs => bs.map(b => JSON.parse(b.dataset.facts))")
        if folded:  # the question with its follow-ups folded in: the answer that says all the call's facts
            hand.tap(f".ruling .question .answers button >> nth={folded_answer(folded, facts)}")
            wait(pg, "(q) => { const e = document.querySelector('.ruling .question');"
                     " return !e || e.dataset.question !== q; }", q)
            continue
        value = _word(facts[q])
        if pg.locator(".ruling .question .bidding-box").count():
            hand.tap(f".ruling .question .bidding-box [data-call='{value}']")
        elif pg.locator(f".ruling .question .answers [data-value='{value}']").count():
            hand.tap(f".ruling .question .answers [data-value='{value}']")
        else:  # an option of the Laws, drawn as a big button
            hand.tap(f".ruling .options button[data-value='{value}']")
        wait(pg, "(q) => { const e = document.querySelector('.ruling .question');"
                 " return !e || e.dataset.question !== q; }", q)
    raise AssertionError("more than twelve questions")


def _word(value) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else value


def folded_answer(answers: list[dict], facts: dict) -> int:
    """Which of a folded question's answers (each a dict of facts) the
    call's facts give: the one that says most, all of it true."""
    fits = [(len(a), i) for i, a in enumerate(answers)
            if all(k in facts and _word(facts[k]) == v for k, v in a.items())]
    assert fits, (answers, facts)
    return max(fits)[1]


def read_ruling(pg) -> dict:
    """The auction or play ruling's outcome as the page shows it, in the
    API's terms: each row of the outcome list read back into its field."""
    rows = pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.ruling dl.outcome dt')]
        .map(dt => [dt.textContent.trim(), dt.nextElementSibling.textContent.trim()]))""")
    fields = {}
    for label, name in (("Offender's partner must pass", "offender_partner_must_pass"),
                        ("Offender must pass", "offender_must_pass")):
        if label in rows:
            fields[name] = rows[label].replace(" ", "_")
    if "Lead restrictions" in rows:
        text = rows["Lead restrictions"]
        fields["lead_restrictions"] = None if text == "none" else {
            "text": text, "declarer_may": [w for w in ("require", "prohibit") if w in text]}
    for label in ("Next to call", "Next to play", "Next"):
        if label in rows:
            fields["next"] = next((k for k, v in SEAT_NAMES.items() if rows[label].startswith(v)), None)
    return {"fields": fields, "rows": rows, "cites": pg.evaluate(CITES_JS)}


def play(hand: Hand, base_url: str, call) -> dict:
    pg, f = hand.pg, call.facts
    start(hand, base_url, "/rulings/play")
    wait(pg, "() => document.getElementById('play-app').dataset.ready === 'yes'")
    hand.tap("#app-contract")
    hand.type(f["contract"])
    if f["declarer"] != pg.eval_on_selector("#app-declarer", "s => s.value"):
        choose(hand, "#app-declarer", f["declarer"])
    if f.get("trick", 1) != 1:
        hand.tap("#app-trick")
        pg.keyboard.press("Control+A")
        hand.type(str(f["trick"]))
    for entry in f["play"]:
        seat, card = entry[0], entry[1]
        if pg.eval_on_selector(".seat-switch", "(b, s) => !b.querySelector(`[data-seat='${s}']`)"
                               ".classList.contains('current')", seat):
            hand.tap(f".seat-switch [data-seat='{seat}']")
        if len(entry) > 2:  # how the card came: a button for the usual ones, else the list
            if pg.locator(f".how-row button[data-how='{entry[2]}']").count():
                hand.tap(f".how-row button[data-how='{entry[2]}']")
            else:
                choose(hand, "#app-how", entry[2])
        if pg.eval_on_selector(".suit-row", "(b, s) => !b.querySelector(`[data-suit='${s}']`)"
                               ".classList.contains('current')", card[0]):
            hand.tap(f".suit-row [data-suit='{card[0]}']")
        hand.tap(f".rank-grid [data-card='{card}']")
    form_fits = rule_in_view(pg, "play-app")
    hand.tap("#rule")
    answer_questions(hand, f)
    hand.facts_done()
    hand.fits = hand.fits and form_fits
    shown = read_ruling(pg)
    rows = shown["rows"]
    cards = rows.get("Penalty cards", "none")
    shown["fields"]["penalty_cards"] = [] if cards == "none" else [
        {"seat": next(k for k, v in SEAT_NAMES.items() if v == m[0]), "card": m[1], "kind": m[2]}
        for m in re.findall(r"(\w+): (\w+) \((\w+)\)", cards)]
    shown["fields"]["tricks_transferred"] = ((0 if rows["Tricks transferred"] == "No trick transferred"
                                              else int(rows["Tricks transferred"])) if "Tricks transferred" in rows else None)
    said = re.search(r"on trick (\d+)", pg.inner_text(".ruling"))
    if said:
        shown["fields"]["trick"] = int(said.group(1))
    return shown


def choose(hand: Hand, select: str, value: str):
    """A choice from a list: on a phone, a tap to open it and one to choose."""
    hand.pg.select_option(select, value)
    hand.taps += 2


def scores(hand: Hand, base_url: str, call) -> dict:
    """A checker from the scores and boards start: its link, its fields, Check."""
    pg, f = hand.pg, dict(call.facts)
    checker = f.pop("checker")
    start(hand, base_url, "/checkers")
    hand.tap(f"a[href='/checkers/{checker}']", nav=True)
    for name, value in f.items():
        field = f"form.checker-form [name='{name}']"
        kind = pg.eval_on_selector(field, "e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "checkbox":
            if pg.is_checked(field) != bool(value):
                hand.tap(field)
        elif kind == "select":
            if pg.eval_on_selector(field, "e => e.value") != str(value):
                choose(hand, field, str(value))
        else:
            hand.tap(field)
            hand.type(" ".join(map(str, value)) if isinstance(value, list) else str(value))
    hand.facts_done("form.checker-form")
    hand.tap("form.checker-form button[name=check]", nav=True)
    wait(pg, "() => !!document.querySelector('.checker-result dl')")
    rows = pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.checker-result > dl > dt')]
        .map(dt => [dt.textContent.trim().toLowerCase().replace(/ /g, '_'), dt.nextElementSibling.textContent.trim()]))""")
    fields = {k: int(v) if re.fullmatch(r"-?\d+", v) else v for k, v in rows.items()}
    return {"fields": fields, "cites": pg.evaluate(CITES_JS)}


def judgement(hand: Hand, base_url: str, call) -> dict:
    pg, f = hand.pg, call.facts
    start(hand, base_url, "/rulings/guided")
    hand.tap(f"a[href^='/rulings/guided/{f['procedure']}']", nav=True)
    for fact, value in f["answers"]:
        wait(pg, "(f) => !!document.querySelector(`form.question button[name='${f}']`)", fact)
        hand.tap(f"form.question button[name='{fact}'][value='{value}']")
        wait(pg, "(f) => !document.querySelector(`form.question button[name='${f}']`)", fact)
    hand.facts_done()
    wait(pg, "() => !!document.querySelector('.ruling .decision')")
    result = pg.evaluate("() => [...document.querySelector('.ruling .decision').classList]"
                         ".find(c => c.startsWith('result-')).slice(7)")
    return {"fields": {"result": result}, "cites": pg.evaluate(CITES_JS)}


def search(hand: Hand, base_url: str, call) -> dict:
    pg = hand.pg
    pg.goto(base_url + "/")
    hand.tap("#jump-home")
    hand.type(call.facts["q"])
    hand.facts_done()
    hand.tap("form.jump-big button", nav=True)
    pg.wait_for_selector("ol.results li.result")
    href = pg.locator("ol.results li.result h2 a").first.get_attribute("href")
    first = unquote(href.split("#", 1)[1]) if "#" in href else None
    return {"fields": {"first": first}, "cites": [first]}


def compare(hand: Hand, base_url: str, call) -> dict:
    pg, f = hand.pg, call.facts
    pg.goto(base_url + "/")
    hand.tap("#jump-home")
    hand.type(f"what changed in law {f['law']}")
    hand.facts_done()
    hand.tap("form.jump-big button", nav=True)
    pg.wait_for_load_state()
    if "/compare/" not in pg.url:  # a search page with the comparison first
        pg.wait_for_selector("ol.results li.result")
        hand.tap("ol.results li.result h2 a", nav=True)
    pg.wait_for_selector("ol.changes")
    rows = pg.evaluate("""([from, to]) => [...document.querySelectorAll('ol.changes li.change')].map(li => {
        const st = [...li.classList].find(c => c.startsWith('status-')).slice(7);
        const ids = [...li.querySelectorAll('.change-head a')].map(a => a.textContent.trim());
        const side = ed => (ids.find(t => t.startsWith(ed + ' ')) || '').slice(ed.length + 1) || null;
        return [side(from), side(to), st]; })""", [f["from"], f["to"]])
    law = re.search(r"/compare/(\d+)", pg.url).group(1)
    return {"fields": {"changes": rows}, "cites": [law]}


def index(hand: Hand, base_url: str, call) -> dict:
    pg = hand.pg
    pg.goto(base_url + "/")
    hand.tap("a[href='/2017/index']", nav=True)
    hand.tap(".ix-filter input[type=search]")
    hand.type(call.facts["q"])
    hand.facts_done()
    hand.tap(".ix-filter button[type=submit]")
    term = call.facts["q"].lower()
    wait(pg, """(t) => [...document.querySelectorAll('.ix-heading')].some(h => h.offsetParent
        && h.querySelector('.ix-term strong').textContent.trim().toLowerCase() === t)""", term)
    got = pg.evaluate("""(t) => { const h = [...document.querySelectorAll('.ix-heading')].find(h => h.offsetParent
        && h.querySelector('.ix-term strong').textContent.trim().toLowerCase() === t);
        return {term: h.querySelector('.ix-term strong').textContent.trim(),
                cites: [...h.querySelectorAll(':scope > .ix-term a.ix-cite')].map(a => a.textContent.trim())}; }""", term)
    return {"fields": {"term": got["term"]}, "cites": got["cites"]}


FLOWS = {"auction": auction, "play": play, "scores": scores, "judgement": judgement, "search": search, "compare": compare, "index": index}


def play_call(pg, base_url: str, call) -> Played:
    hand = Hand(pg)
    t0 = time.monotonic()
    shown = FLOWS[call.start](hand, base_url, call)
    seconds = time.monotonic() - t0
    taps_at, keys_at = hand.facts_at
    return Played(fact_taps=taps_at, fact_keys=keys_at, answer_taps=hand.taps - taps_at, seconds=seconds,
                  fits=hand.fits, outcome=shown, cites=list(shown.get("cites") or []))
