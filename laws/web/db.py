"""The store as the web app sees it: opened read-only, one connection per request."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from flask import current_app, g

from laws import store
from laws.build import CURRENT, current_store


class StoreMissing(Exception):
    """No store has been built yet."""


class StoreOutdated(StoreMissing):
    """The store being served was built by another version of Lawbook: its
    schema is not the one this code reads (code deployed without a rebuild).
    Served as a store not yet built (503), never as a 500 from a missing
    table or column."""

    def __init__(self, found: str | None):
        self.found = found
        super().__init__(f"The laws were built by another version of Lawbook (store schema {found or 'unknown'}; "
                         f"this version reads schema {store.SCHEMA_VERSION}): run `flask --app app build`.")


# builds are never changed once made: a store's schema is read once per build
_SCHEMA_READ: set[Path] = set()


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    if path in _SCHEMA_READ:
        return
    try:
        row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError:  # no meta table at all: older still, or not a store
        row = None
    found = row[0] if row else None
    if found != str(store.SCHEMA_VERSION):
        raise StoreOutdated(found)
    _SCHEMA_READ.add(path)


def store_path() -> Path:
    return current_store(Path(current_app.config["DATA_DIR"]))


def build_dir() -> Path:
    """The directory of the build being served (store and search index).  The
    symlink is resolved once per request, so a rebuild swapped in mid-request
    is picked up by the next one, never half-way."""
    if "build_dir" not in g:
        # one readlink, not a resolve of every component: every page served
        # from the page cache asks this, and it is most of what such a request costs
        data = Path(current_app.config["DATA_DIR"])
        if not data.is_absolute():
            data = data.absolute()
        try:
            g.build_dir = data / os.readlink(data / CURRENT)
        except OSError:  # no build yet (or not a link): as the store path says
            g.build_dir = store_path().resolve().parent
    return g.build_dir


def get_db():
    if "db" not in g:
        path = build_dir() / store.DB_NAME
        if not path.exists():
            raise StoreMissing(f"no store at {path}: run `flask --app app build`")
        conn = store.connect(path)
        try:
            _check_schema(conn, path)
        except StoreOutdated:
            conn.close()
            raise
        g.db = conn
    return g.db


def close_db(_exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app) -> None:
    app.teardown_appcontext(close_db)
