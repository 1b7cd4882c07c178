"""Fixtures over the real corpus: one build per test session, shared by all tests.

`built` is the data directory of a fresh build of corpus/ (into a temporary
folder, never ./data); `app` and `client` serve it read-only as the real site
does; `db` is a read-only connection to its store; `corpus` is a private copy
of corpus/ that a test may break.

A build costs seconds of CPU, so each kind of build of each corpus is made
once per session and shared by every test file and every xdist worker
(`shared_build`); a test that builds over a store (to see it kept, switched
or pruned) starts from a copy of the shared one (`copy_build`) and still
runs the build it is about.

Each xdist worker launches one headless Chromium for every browser test it
runs (`chromium`), and the slowest test files are collected first
(`SLOWEST_FIRST`) so that the two workers do not end on one long file.
"""
from __future__ import annotations

import fcntl
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from laws import store
from laws.build import build, current_store, fingerprint

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# The test files that take longest (wall time on two cores, longest first).
# With `--dist loadfile` a file is one unit of work, and with
# `--no-loadscope-reorder` (pytest.ini) xdist hands the units out in the
# order collected: these go first, and the many short files fill in at the
# end, instead of a long file left running alone while the other worker idles.
# test_prerender.py is second so that the two workers start on two different
# shared builds (the store, the store with its pages) instead of one waiting
# for the other's.
SLOWEST_FIRST = (
    "test_search_candidates.py", "test_prerender.py", "test_browser_table.py", "test_build_robust.py",
    "test_build_damaged.py", "test_plain.py", "test_build_cache.py", "test_table_calls_browser.py",
    "test_rulings_record_browser.py", "test_build.py", "test_switch_browser.py", "test_browser.py",
    "test_rulings_guided_browser.py", "test_search.py", "test_pdf_new_edition.py", "test_prerender_reuse.py",
    "test_offline_scale.py", "test_checkers_offline_browser.py", "test_rulings_play_browser.py",
    "test_front_server.py", "test_rulings_carried.py", "test_openapi.py",
)


def pytest_collection_modifyitems(items):
    """The slowest files first, the rest in their usual order (a stable sort
    keeps each file's tests in theirs)."""
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def chromium():
    """The worker's one headless Chromium: launching it costs about a second,
    so the browser test files share it; each test opens its own context
    (cookies, storage, service workers and network state are per context)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def corpus(tmp_path) -> Path:
    """A private copy of the real corpus that a test may break."""
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    return copy


@contextmanager
def _locked(path: Path):
    """Hold an exclusive lock on `path` (the OS's flock: a worker that dies
    lets go of it), waiting for whoever holds it."""
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _session_root(tmp_path_factory) -> Path:
    """The folder every worker of this session sees: under xdist each worker
    has its own base temp inside the session's (their parent); run alone,
    the base temp is the session's own (its parent holds older sessions)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_build(tmp_path_factory, corpus: Path = CORPUS, pages: bool = False, today: str | None = None) -> Path:
    """The data directory of a build of `corpus` (with its pages
    pre-rendered as the build command does, when `pages`; as of LAWS_TODAY
    `today`, when given), made once in this session under a lock and shared
    by every worker: keyed by the corpus's content, so a copy of the corpus
    made by another test file shares it.  Read it only; copy it
    (`copy_build`) to build over it.  What the build printed:
    `shared_lines`."""
    key = f"{fingerprint(corpus)[:16]}-{'pages' if pages else 'store'}-{today or 'today'}"
    root = _session_root(tmp_path_factory) / "shared-builds"
    root.mkdir(exist_ok=True)
    data, done = root / key, root / f"{key}.done"
    with _locked(root / f"{key}.lock"):
        if not done.exists():
            shutil.rmtree(data, ignore_errors=True)  # a worker that failed to build it
            with pytest.MonkeyPatch.context() as mp:
                if today:
                    mp.setenv("LAWS_TODAY", today)
                    mp.delenv("LAWS_IN_FORCE", raising=False)
                lines = _build(corpus, data, pages)
            _lines_file(data).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
            done.touch()
    return data


def _build(corpus: Path, data: Path, pages: bool) -> list[str]:
    """Build as `build` does or, with `pages`, as the build command does; the lines it printed."""
    lines: list[str] = []
    if not pages:
        build(corpus, data, echo=lines.append)
        return lines
    from app import build_all, create_app

    app = create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(corpus)})
    build_all(app, corpus, data, echo=lines.append)
    return lines


def _lines_file(data: Path) -> Path:
    return data.parent / f"{data.name}.lines"


def shared_lines(data: Path) -> list[str]:
    """The lines the build of a `shared_build` printed (its summary)."""
    return _lines_file(data).read_text(encoding="utf-8").splitlines()


def copy_build(shared: Path, dest: Path) -> Path:
    """A private copy of a shared data directory, to build over: its
    `current` link is relative, so the copy serves its own build."""
    shutil.copytree(shared, dest, symlinks=True)
    return dest


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    return shared_build(tmp_path_factory)


@pytest.fixture(scope="session")
def db(built):
    conn = store.connect(current_store(built))
    yield conn
    conn.close()


@pytest.fixture(scope="session")
def app(built):
    from app import create_app

    return create_app({"TESTING": True, "DATA_DIR": str(built), "CORPUS_DIR": str(CORPUS)})


@pytest.fixture()
def client(app):
    return app.test_client()
