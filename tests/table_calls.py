"""The table calls of tests/data/table-calls.tsv (issue 20), read once for the
tests that answer them through the API (test_table_calls.py), the browser
test that plays them from the home page, and bench/table.py."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CALLS = Path(__file__).resolve().parent / "data" / "table-calls.tsv"
STARTS = ("search", "auction", "play", "judgement", "scores", "compare", "index")
# the fields of a play or auction request that are not findings
REQUEST_FIELDS = {"dealer", "calls", "contract", "declarer", "play", "trick", "seat"}


@dataclass(frozen=True)
class Call:
    id: str
    kind: str
    start: str
    facts: dict
    expect: dict
    cites: tuple[str, ...]

    def request(self, edition: str = "2017") -> dict:
        """The facts as the request of the ruling API (auction or play)."""
        body = {"edition": edition, "findings": {}}
        for k, v in self.facts.items():
            if k in REQUEST_FIELDS:
                body[k] = v
            else:
                body["findings"][k] = v
        if self.start == "auction":  # the calls in order from the dealer, each with its seat
            seats = "NESW"
            first = seats.index(body["dealer"])
            body["calls"] = [[seats[(first + i) % 4], c] for i, c in enumerate(body["calls"])]
        return body


def load(path: Path = CALLS) -> list[Call]:
    rows = []
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    for n, line in enumerate(lines[1:], 2):
        cols = dict(zip(header, line.split("\t")))
        if len(cols) != len(header) or cols["start"] not in STARTS:
            raise ValueError(f"{path.name}, row {n}: expected {len(header)} columns and a start among {STARTS}")
        rows.append(Call(cols["id"], cols["kind"], cols["start"], json.loads(cols["facts"]),
                         json.loads(cols["expect"]), tuple(c for c in cols["cites"].split(",") if c)))
    return rows
