"""Judging a ranking against the question sets.

    questions = load()                       # [(question, answers, kind)]
    judge = Judge(db)                        # reads the editions' alignment from the store
    judge.rank(results, answers)             # 1-based rank of the first right result, or None
    metrics([ranks])                         # {"hit@1", "hit@3", "hit@5", "mrr", "n"}

Two sets and two judges:

* the tuned set, bench/questions.tsv (issue 13): the ranking was tuned on it,
  and its answers are broad ("27" accepts any provision of Law 27).  `Judge`
  is its judge as it was (below);
* the held-out set, bench/questions-heldout.tsv (issue 19), never tuned on:
  each question with the one or two 2017 provisions and, apart, the 2007
  ones that answer it, written before the plain-words layer existed.
  `StrictJudge` judges both sets one level deep: a result is right when it
  is an expected provision, its parent or its child, never a sibling or
  anything else under the same law; a 2007 result is judged against the
  2007 column, never through the comparison's alignment.  A rank is the
  position of a result entry (its group head), not of the items listed
  under its `more`.

A result is right at the provision level: its provision is one of the
answers, or inside one ("27B" is answered by 27B1(a)).  The answers are
2017 ids, the code in force; a 2007 result counts when the build's
alignment of 2007 with 2017 pairs it with an answer (2007 16C is 2017 16D),
and, for a law the store has no 2017 text of, when its id is an answer.
Guide topics, definitions and the rubber code never count: the director
rules by a duplicate code.  Two special answers: `compare:<law>` (a
comparison of that law comes first) and `none` (no result at all, as for
a law that does not exist).

Used by bench/search.py (the figures) and tests/test_search_relevance.py
(the floor), so both judge alike.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from laws import citations

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "bench" / "questions.tsv"
HELDOUT = ROOT / "bench" / "questions-heldout.tsv"


def answer_editions(path: Path = HELDOUT) -> tuple[str, ...]:
    """The editions a question file's answer columns are written in, from its
    `# answers: 2017, 2007` line: the set's data, not this module's."""
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("# answers:"):
            return tuple(e.strip() for e in line.split(":", 1)[1].split(",") if e.strip())
    raise ValueError(f"{path}: no '# answers: <edition>, ...' line")


# the held-out set's columns: the code in force when the sets were written, then the older one
IN_FORCE, *_OLDER = answer_editions(HELDOUT)
OLDER = tuple(_OLDER)


def load(path: Path = QUESTIONS) -> list[tuple[str, tuple[str, ...], str]]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
            raise ValueError(f"{path}, line {n}: expected 'question<TAB>provisions[<TAB>kind]'")
        answers = tuple(a.strip() for a in parts[1].split(",") if a.strip())
        rows.append((parts[0].strip(), answers, parts[2].strip() if len(parts) > 2 else ""))
    return rows


def inside(pid: str, answer: str) -> bool:
    """True when provision `pid` is `answer` or one of its sub-provisions."""
    if pid == answer:
        return True
    if not pid.startswith(answer):
        return False
    rest = pid[len(answer):]
    # 27B is inside 27 and 27B1 inside 27B, but 27 is not inside 2 nor 12C1 inside 12C1(b)'s sibling 12C10
    last = answer[-1]
    return bool(re.match(r"[A-H(.]" if last.isdigit() or last == ")" else r"[0-9(.]", rest))


class Judge:
    def __init__(self, db):
        self.to_2017: dict[str, set[str]] = {}
        self.laws_2017: set[int] = set()
        for r in db.execute("select distinct law from provisions where edition = ?", [IN_FORCE]):
            self.laws_2017.add(r[0])
        for r in db.execute("select from_provisions, to_provisions, from_provision, to_provision from alignments "
                            "where from_edition = ? and to_edition = ?", [OLDER[0], IN_FORCE]):
            froms = json.loads(r[0] or "[]") or ([r[2]] if r[2] else [])
            tos = json.loads(r[1] or "[]") or ([r[3]] if r[3] else [])
            for f in froms:
                self.to_2017.setdefault(f, set()).update(tos)

    def right(self, result: dict, answers: tuple[str, ...]) -> bool:
        kind = result.get("kind")
        if kind == "compare":
            return f"compare:{result.get('law')}" in answers
        if kind != "law":
            return False
        ed, pid = result.get("edition"), result.get("provision") or ""
        if ed == IN_FORCE:
            ids = {pid}
        elif ed in OLDER:
            law = int(re.match(r"\d+", pid)[0]) if re.match(r"\d+", pid) else None
            ids = set(self.to_2017.get(pid, ())) if law in self.laws_2017 else {pid}
            if law in self.laws_2017 and not ids:
                # a provision with no counterpart of its own: judged by its nearest aligned ancestor
                for anc in _ancestors(pid):
                    if anc in self.to_2017:
                        ids = set(self.to_2017[anc])
                        break
        else:
            return False
        return any(inside(i, a) for i in ids for a in answers)

    def rank(self, results: list[dict], answers: tuple[str, ...], limit: int = 5) -> int | None:
        if answers == ("none",):
            return 1 if not results else None
        for i, r in enumerate(results[:limit], 1):
            if self.right(r, answers):
                return i
        return None


def _ancestors(pid: str) -> list[str]:
    parts = re.findall(r"^\d+|\([^()]+\)|[A-H]|\.\d+|\d+", pid)
    return ["".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]


def metrics(ranks: list[int | None]) -> dict:
    n = len(ranks)
    return {"n": n,
            "hit@1": sum(r == 1 for r in ranks) / n if n else 0.0,
            "hit@3": sum(r is not None and r <= 3 for r in ranks) / n if n else 0.0,
            "hit@5": sum(r is not None and r <= 5 for r in ranks) / n if n else 0.0,
            "mrr": sum(1 / r for r in ranks if r) / n if n else 0.0}


# --- the held-out set and the one-level judge (issue 19) --------------------------------

@dataclass(frozen=True)
class Question:
    text: str
    answers: dict[str, tuple[str, ...]]  # edition -> the provisions that answer it ("none": no answer there)
    kind: str

    def for_edition(self, edition: str | None) -> tuple[str, ...]:
        """The answers a search of `edition` (None: the default editions) is judged by."""
        return self.answers.get(edition or IN_FORCE, ())


def load_heldout(path: Path = HELDOUT) -> list[Question]:
    """question<TAB>2017 provisions<TAB>2007 provisions<TAB>kind."""
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 3 or not all(p.strip() for p in parts[:3]):
            raise ValueError(f"{path}, line {n}: expected 'question<TAB>2017 provisions<TAB>2007 provisions[<TAB>kind]'")
        split = lambda col: tuple(a.strip() for a in col.split(",") if a.strip())  # noqa: E731
        rows.append(Question(parts[0].strip(), {IN_FORCE: split(parts[1]), OLDER[0]: split(parts[2])},
                             parts[3].strip() if len(parts) > 3 else ""))
    return rows


def as_questions(rows: list[tuple[str, tuple[str, ...], str]]) -> list[Question]:
    """The tuned set's rows as Questions: 2017 answers only."""
    return [Question(q, {IN_FORCE: ans}, kind) for q, ans, kind in rows]


def parent_of(pid: str) -> str | None:
    above = citations.candidates(pid)[1:2]
    return above[0] if above else None


def one_level(pid: str, answer: str) -> bool:
    """`pid` is `answer`, its parent or one of its children."""
    return pid == answer or parent_of(pid) == answer or parent_of(answer) == pid


class StrictJudge:
    """One level deep, edition by edition (see the module docstring).  A
    broad answer of the tuned set ("27", "54") is an answer like any: its
    children count, its grandchildren do not."""

    def right(self, result: dict, question: Question) -> bool:
        kind = result.get("kind")
        if kind == "compare":
            return f"compare:{result.get('law')}" in question.for_edition(None)
        if kind != "law":
            return False
        answers = question.answers.get(result.get("edition"), ())
        if answers == ("none",):
            return False
        pid = result.get("provision") or ""
        return any(one_level(pid, a) for a in answers)

    def rank(self, results: list[dict], question: Question, edition: str | None = None,
             limit: int = 5) -> int | None:
        if question.for_edition(edition) == ("none",) and question.answers.get(IN_FORCE) == ("none",):
            return 1 if not results else None
        for i, r in enumerate(results[:limit], 1):
            if self.right(r, question):
                return i
        return None
