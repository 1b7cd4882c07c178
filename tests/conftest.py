"""Fixtures over the real corpus: one build per test session, shared by all tests.

`built` is the data directory of a fresh build of corpus/ (into a temporary
folder, never ./data); `app` and `client` serve it read-only as the real site
does; `db` is a read-only connection to its store; `corpus` is a private copy
of corpus/ that a test may break.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from laws import store
from laws.build import build, current_store

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"


@pytest.fixture()
def corpus(tmp_path) -> Path:
    """A private copy of the real corpus that a test may break."""
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    return copy


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("data")
    build(CORPUS, data_dir, echo=lambda *_: None)
    return data_dir


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
