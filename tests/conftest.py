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
