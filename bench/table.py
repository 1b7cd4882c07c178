"""The table calls, measured: taps, keys and seconds per call on a phone.

    python bench/table.py                 build the corpus into a temp dir, then measure
    python bench/table.py --data ./data   use an existing build (LAWS_DATA_DIR layout)
    python bench/table.py --offline       the second round with the server stopped and the network cut

Plays every row of tests/data/table-calls.tsv in headless Chromium
(/usr/bin/chromium) at 360 x 740, from the home page, exactly as
tests/test_table_calls_browser.py does (tests/table_driver.py), and prints
for each call the taps to enter its facts, the keys typed, the taps from the
last fact to the answer, the seconds from the home page to the answer on
the screen, and whether the answer and its cites were right.  The baseline
in the same run is the issue's limit for each figure (ten taps of facts,
three to the answer), and the figures the issue measured before the table
kit (8 to 18 taps a call) are printed beside them.  With --offline the same
calls are played a second time on what the phone kept, the server gone.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from laws.build import build  # noqa: E402
from tests.table_calls import load  # noqa: E402
from tests.table_driver import play_call  # noqa: E402
from tests.test_browser import ARGS, CHROMIUM, cut_off, serve, wait_kept_offline  # noqa: E402

FACT_TAPS, ANSWER_TAPS = 10, 3
BEFORE = "8 to 18 taps a call, up to 21 swipes, 18 to 44 s before reading (the issue, by hand, before the kit)"


def right(call, played) -> bool:
    from tests.test_table_calls_browser import shows

    return shows(call, played) and played.cites == list(call.cites)


def rounds(page, base: str, calls) -> list[tuple]:
    out = []
    for call in calls:
        try:
            played = play_call(page, base, call)
            out.append((call, played, right(call, played), ""))
        except Exception as e:  # a call that cannot be played is a figure too
            out.append((call, None, False, str(e).splitlines()[0][:60]))
    return out


def report(title: str, rows: list[tuple]) -> None:
    print(f"\n{title}")
    print(f"{'call':22}{'fact taps':>10}{'keys':>6}{'answer taps':>13}{'seconds':>9}  right")
    for call, p, ok, err in rows:
        if p is None:
            print(f"{call.id:22}{'—':>10}{'—':>6}{'—':>13}{'—':>9}  no ({err})")
            continue
        print(f"{call.id:22}{p.fact_taps:>10}{p.fact_keys:>6}{p.answer_taps:>13}{p.seconds:>9.2f}  "
              f"{'yes' if ok else 'NO'}{'' if p.fits else ' (form scrolls)'}")
    played = [p for _, p, _, _ in rows if p]
    if played:
        taps = [p.fact_taps + p.answer_taps for p in played]
        print(f"{'all':22}{max(p.fact_taps for p in played):>10}{max(p.fact_keys for p in played):>6}"
              f"{max(p.answer_taps for p in played):>13}{statistics.median(p.seconds for p in played):>9.2f}  "
              f"{sum(ok for _, _, ok, _ in rows)}/{len(rows)} right  (max, max, max, median)")
        print(f"taps a call: median {statistics.median(taps)}, max {max(taps)}; "
              f"the limits: facts {FACT_TAPS}, answer {ANSWER_TAPS}; before: {BEFORE}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, help="an existing data directory (else a fresh build)")
    ap.add_argument("--offline", action="store_true", help="play the calls again with no connection")
    args = ap.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        data = args.data
        if data is None:
            data = Path(tmp) / "data"
            build(ROOT / "corpus", data, echo=lambda *_: None)
        app = create_app({"DATA_DIR": str(data)})
        calls = load()
        with sync_playwright() as p, serve(app) as (base, server):
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True)
            page = ctx.new_page()
            page.goto(base + "/")
            if args.offline:
                wait_kept_offline(page)
            report(f"{len(calls)} table calls at 360 x 740, online", rounds(page, base, calls))
            if args.offline:
                cut_off(server, ctx)
                report("the same calls with the server stopped and no network", rounds(page, base, calls))
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
