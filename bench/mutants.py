"""Mutation testing: do the tests catch what they claim?  A long run (hours).

    pip install cosmic-ray==8.7.0        # not in requirements.txt: only this run needs it
    python bench/mutants.py                          # every module below (hours on 2 cores)
    python bench/mutants.py laws/checkers/scoring.py laws/rulings/walker.py   # some of them
    python bench/mutants.py --list                   # the modules and their test files
    python bench/mutants.py --work DIR MODULE...     # keep the copies and sessions in DIR, then
    python bench/mutants.py --work DIR --recheck MODULE...  # after adding tests: rerun only its survivors
                                                            # (and the mutants a stopped run never reached: it resumes)

Each module is mutated against its own test files only (MODULES below), with
Cosmic Ray (a maintained tool whose TOML configuration can live anywhere, so
the repository's top level stays as it is).  The source is never mutated in
place: the working tree (without .git and data/) is copied into a scratch
directory (`--work`, default a temporary one) and Cosmic Ray runs there, one
mutant at a time, each test run as

    python -m pytest -n0 -x -q -p no:cacheprovider TESTS...

with a per-mutant timeout (a mutant that hangs is killed).  `--jobs 2` runs
two modules at once, each in its own copy.

Operators: Cosmic Ray's core set, with the arithmetic and comparison
replacements narrowed to the one natural neighbour each (+ <-> -, * <-> /,
// -> /, % -> /, ** -> *, << <-> >>, & <-> |, ^ -> &, < <-> <=, > <-> >=,
== <-> !=, is <-> is not): Cosmic Ray would otherwise also turn every `+`
into `>>`, `**`, `|`... and every `<` into `is`, mutants that are killed by
any test that runs the line and that would make the run several times longer.
Numbers (+1/-1), `not` added, and/or swapped, True/False, decorators
removed, loops run zero times, break/continue and unary operators are all kept.

Prints per module: killed / total and the score (killed %, at least 85 %
required).  Every survivor must be listed in bench/mutants-survived.txt with a
one-line reason why it is harmless (an equivalent mutant); the run rewrites
the entries of the modules it ran, keeping the reasons it already has (matched
by module, operator and the line before and after), and marks new survivors
`reason: UNEXPLAINED`.  Exit status 1 when a module scores under 85 % or a
survivor is unexplained.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SURVIVED = ROOT / "bench" / "mutants-survived.txt"
THRESHOLD = 85.0

# module -> its own tests (pytest arguments, relative to the repository)
MODULES: dict[str, list[str]] = {
    "laws/checkers/scoring.py": ["tests/test_checkers_scoring.py"],
    "laws/checkers/conversions.py": ["tests/test_checkers_conversions.py"],
    "laws/checkers/auction.py": ["tests/test_checkers_auction.py"],
    "laws/checkers/play.py": ["tests/test_checkers_play.py"],
    "laws/checkers/cards.py": ["tests/test_checkers_play.py", "tests/test_checkers_auction.py"],
    "laws/checkers/boards.py": ["tests/test_checkers_scoring.py", "-k", "board"],
    # the fixtures' file first: it holds codes' own tests and builds no store
    "laws/checkers/codes.py": ["tests/test_checkers_fixtures.py", "tests/test_checkers_conversions.py"],
    "laws/checkers/registry.py": ["tests/test_checkers_registry.py"],
    "laws/rulings/walker.py": ["tests/test_rulings_auction.py", "tests/test_rulings_play.py"],
    "laws/rulings/data.py": ["tests/test_rulings_auction.py", "tests/test_rulings_play.py"],
    "laws/rulings/coverage.py": ["tests/test_rulings_coverage.py"],
    "laws/rulings/pbn.py": ["tests/test_rulings_pbn.py"],
    "laws/rulings/record.py": ["tests/test_rulings_record.py"],
    # its own tests call it directly and come first: through the API, the
    # parsers' messages come before the schema's, so few of its mutants show
    "laws/rulings/requests.py": ["tests/test_rulings_requests.py", "tests/test_rulings_api.py",
                                 "tests/test_rulings_play_api.py"],
    "laws/rulings/handoff.py": ["tests/test_search_handoff.py"],
    # without the two tests of the index's build and swap (search/index.py and
    # the build: a rebuild each, a third of the run); of this module they hold
    # only Searcher.open's cache of a new build's index, which no other test does
    "search/query.py": ["tests/test_search.py", "tests/test_search_relevance.py",
                        "-k", "not rebuild_swaps_the_index and not half_written_index"],
    # its own unit tests in the pages' file (no store needed): the page tests
    # build a store and render every page, 40 s a mutant for what these say
    "laws/web/render.py": ["tests/test_pages.py", "-k", "render_ or escape"],
}

_BINARY = ["Add_Sub", "Sub_Add", "Mul_Div", "Div_Mul", "FloorDiv_Div", "Mod_Div", "Pow_Mul",
           "LShift_RShift", "RShift_LShift", "BitAnd_BitOr", "BitOr_BitAnd", "BitXor_BitAnd"]
_COMPARE = ["Lt_LtE", "LtE_Lt", "Gt_GtE", "GtE_Gt", "Eq_NotEq", "NotEq_Eq", "Is_IsNot", "IsNot_Is"]
# Cosmic Ray's operators filter skips the operators these patterns match (re.match)
EXCLUDE = [
    "core/ReplaceBinaryOperator_(?!(%s)$)" % "|".join(_BINARY),
    "core/ReplaceComparisonOperator_(?!(%s)$)" % "|".join(_COMPARE),
    "core/ReplaceUnaryOperator_.*_Invert$",
]

TEST_ARGS = ["-n0", "-x", "-q", "-p", "no:cacheprovider"]


def copy_tree(dest: Path) -> None:
    common = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis")

    def ignore(folder: str, names: list[str]) -> set[str]:
        skip = set(common(folder, names))
        if Path(folder) == ROOT:
            skip |= {".git", "data"} & set(names)  # the history, and the local build
        return skip

    shutil.copytree(ROOT, dest, ignore=ignore)


def config_text(module: str, tests: list[str], timeout: float) -> str:
    command = " ".join([sys.executable, "-m", "pytest", *TEST_ARGS, *(_quote(t) for t in tests)])
    lines = [
        "[cosmic-ray]",
        f"module-path = {json.dumps(module)}",
        f"timeout = {timeout:.1f}",
        "excluded-modules = []",
        f"test-command = {json.dumps(command)}",
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
        "[cosmic-ray.filters.operators-filter]",
        "exclude-operators = [%s]" % ", ".join(json.dumps(e) for e in EXCLUDE),
        "",
    ]
    return "\n".join(lines)


def _quote(arg: str) -> str:
    return "'%s'" % arg if re.search(r"\s", arg) else arg


def _changed_lines(diff: str) -> tuple[str, str]:
    before, after = [], []
    for line in diff.splitlines():
        if line.startswith(("---", "+++", "@@")):
            continue
        if line.startswith("-"):
            before.append(line[1:].strip())
        elif line.startswith("+"):
            after.append(line[1:].strip())
    return " / ".join(before), " / ".join(after)


def _tally(session: Path, copy: Path) -> tuple[int, int, list[tuple[dict, dict]]]:
    dump = subprocess.run(["cosmic-ray", "dump", str(session)], cwd=copy, check=True,
                          capture_output=True, text=True).stdout
    killed = total = 0
    survived = []
    for row in dump.splitlines():
        item, result = json.loads(row)
        if result is None or result.get("worker_outcome") != "normal":
            continue  # skipped by the operators filter, or no mutation possible
        total += 1
        if result["test_outcome"] == "survived":
            survived.append((item, result))
        else:
            killed += 1  # failed tests, or timed out
    return killed, total, survived


def run_module(module: str, tests: list[str], work: Path, log, recheck: bool = False) -> dict:
    """Mutate one module in a copy of the tree; return its counts and survivors.

    `recheck`: reuse the session of an earlier run in `work`, with the tests
    copied afresh, and run again only the mutants that survived it — and
    those it never reached, so a long run stopped part-way resumes."""
    slug = module.replace("/", "_").removesuffix(".py")
    copy = work / slug / "repo"
    config = work / slug / "config.toml"
    session = work / slug / "session.sqlite"
    before = None
    if recheck:
        if not session.exists():
            raise SystemExit(f"{module}: no earlier session in {work / slug} to recheck")
        shutil.rmtree(copy / "tests")
        shutil.copytree(ROOT / "tests", copy / "tests",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"))
        killed, total, _ = _tally(session, copy)
        before = (killed, total)
        with sqlite3.connect(session) as db:
            db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'")
        log(f"{module}: rechecking its {total - killed} survivors...")
        subprocess.run(["cosmic-ray", "exec", str(config), str(session)], cwd=copy, check=True)
    else:
        if copy.exists():
            shutil.rmtree(copy)
        copy_tree(copy)
        # the unmutated baseline must pass; its time sets the per-mutant timeout
        start = time.monotonic()
        base = subprocess.run([sys.executable, "-m", "pytest", *TEST_ARGS, *tests], cwd=copy,
                              capture_output=True, text=True)
        took = time.monotonic() - start
        if base.returncode != 0:
            raise SystemExit(f"{module}: its tests fail unmutated:\n{base.stdout[-3000:]}")
        timeout = max(30.0, 4 * took)
        config.write_text(config_text(module, tests, timeout))
        session.unlink(missing_ok=True)
        subprocess.run(["cosmic-ray", "init", str(config), str(session)], cwd=copy, check=True)
        subprocess.run([sys.executable, "-m", "cosmic_ray.tools.filters.operators_filter", str(session),
                        str(config)], cwd=copy, check=True)
        log(f"{module}: baseline {took:.1f}s, timeout {timeout:.0f}s, running...")
        subprocess.run(["cosmic-ray", "exec", str(config), str(session)], cwd=copy, check=True)
    killed, total, survived = _tally(session, copy)
    survivors = []
    for item, result in survived:
        mutation = item["mutations"][0]
        before_line, after_line = _changed_lines(result.get("diff") or "")
        survivors.append({"module": module, "line": mutation["start_pos"][0],
                          "operator": mutation["operator_name"].removeprefix("core/"),
                          "before": before_line, "after": after_line})
    survivors.sort(key=lambda s: (s["line"], s["operator"], s["after"]))
    return {"module": module, "killed": killed, "total": total, "survivors": survivors, "before": before}


# --- bench/mutants-survived.txt --------------------------------------------------

HEADER = """\
# Mutants that survive `python bench/mutants.py`, each with why it is harmless.
# Written by the run (per module it ran); the reasons are kept by hand.
# Each entry: MODULE:LINE OPERATOR, the line before (-) and after (+) the
# mutation, and one line of reason.  A new survivor is written with
# `reason: UNEXPLAINED` and fails the run until it is killed by a test or
# explained here.
"""


def _key(entry: dict) -> tuple:
    return entry["module"], entry["operator"], entry["before"], entry["after"]


def read_survived(path: Path = SURVIVED) -> list[dict]:
    entries: list[dict] = []
    if not path.exists():
        return entries
    current: dict | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(\S+):(\d+)\s+(\S+)$", line)
        if m and not raw.startswith(" "):
            current = {"module": m[1], "line": int(m[2]), "operator": m[3], "before": "", "after": "",
                       "reason": "UNEXPLAINED"}
            entries.append(current)
        elif current is not None and line.startswith("- "):
            current["before"] = line[2:]
        elif current is not None and line.startswith("+ "):
            current["after"] = line[2:]
        elif current is not None and line.startswith("reason:"):
            current["reason"] = line.removeprefix("reason:").strip()
    return entries


def write_survived(entries: list[dict], path: Path = SURVIVED) -> None:
    out = [HEADER]
    for e in sorted(entries, key=lambda e: (e["module"], e["line"], e["operator"])):
        out.append(f"{e['module']}:{e['line']} {e['operator']}\n    - {e['before']}\n    + {e['after']}\n"
                   f"    reason: {e['reason']}\n")
    path.write_text("\n".join(out), encoding="utf-8")


def merge(old: list[dict], results: list[dict]) -> list[dict]:
    ran = {r["module"] for r in results}
    reasons = {_key(e): e["reason"] for e in old}
    merged = [e for e in old if e["module"] not in ran]
    for r in results:
        for s in r["survivors"]:
            merged.append({**s, "reason": reasons.get(_key(s), "UNEXPLAINED")})
    return merged


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", help="modules to mutate (default: all of MODULES)")
    ap.add_argument("--work", type=Path,
                    help="scratch directory for the copies and sessions (default: a temporary one)")
    ap.add_argument("--jobs", type=int, default=1, help="modules mutated at once, each in its own copy")
    ap.add_argument("--recheck", action="store_true",
                    help="with --work of an earlier run: run its survivors again against the tests as they are now")
    ap.add_argument("--list", action="store_true", help="print the modules and their tests, and exit")
    args = ap.parse_args(argv)
    if args.recheck and not args.work:
        ap.error("--recheck needs the --work directory of an earlier run")
    if args.list:
        for module, tests in MODULES.items():
            print(module, " ".join(tests))
        return 0
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        ap.error(f"not in MODULES: {', '.join(unknown)}")
    if shutil.which("cosmic-ray") is None:
        ap.error("cosmic-ray is not installed: pip install cosmic-ray==8.7.0")
    modules = args.modules or list(MODULES)

    def log(msg: str) -> None:
        print(msg, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        work = args.work.resolve() if args.work else Path(tmp)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda m: run_module(m, MODULES[m], work, log, args.recheck), modules))

    entries = merge(read_survived(), results)
    write_survived(entries)
    failed = False
    print(f"\n{'module':34} {'killed':>6} / {'total':<5} score")
    for r in results:
        score = 100.0 * r["killed"] / r["total"] if r["total"] else 100.0
        flag = "" if score >= THRESHOLD else f"  < {THRESHOLD:.0f} %"
        failed |= bool(flag)
        was = ""
        if r["before"]:
            k, t = r["before"]
            was = f"  (before the recheck: {k} / {t}, {100.0 * k / t:.1f} %)"
        print(f"{r['module']:34} {r['killed']:>6} / {r['total']:<5} {score:5.1f} %{flag}{was}")
    unexplained = [e for e in entries if e["module"] in set(modules) and e["reason"] == "UNEXPLAINED"]
    if unexplained:
        failed = True
        print(f"\n{len(unexplained)} survivor(s) unexplained in bench/mutants-survived.txt:")
        for e in unexplained:
            print(f"  {e['module']}:{e['line']} {e['operator']}: {e['before']}  ->  {e['after']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
