"""Code deployed without a rebuild: the store served was made by another
version of Lawbook, whose schema this code does not read.  Every page and
API reply that needs the store is a 503 that says so and how to fix it, never
a 500 from a missing table (found serving a schema 7 store with schema 9
code: every law page answered 500, 'no such table: law_changes')."""
from __future__ import annotations

import json
import sqlite3

import pytest

from laws import store
from laws.build import current_store
from tests.conftest import CORPUS, copy_build


def _served_with_schema(tmp_path, built, version):
    data = copy_build(built, tmp_path / "data")
    path = current_store(data)
    conn = sqlite3.connect(path)
    with conn:
        if version is None:
            conn.execute("delete from meta where key = 'schema_version'")
        else:
            conn.execute("update meta set value = ? where key = 'schema_version'", (version,))
    conn.close()
    from app import create_app

    return create_app({"TESTING": True, "DATA_DIR": str(data), "CORPUS_DIR": str(CORPUS)}).test_client()


@pytest.mark.parametrize("version, named", [("7", "store schema 7"), (None, "store schema unknown")])
def test_a_store_of_another_schema_is_a_503_naming_both_versions(tmp_path, built, version, named):
    client = _served_with_schema(tmp_path, built, version)
    message = (f"The laws were built by another version of Lawbook ({named}; this version reads schema "
               f"{store.SCHEMA_VERSION}): run `flask --app app build`.")
    page = client.get("/2017/law/12")
    assert page.status_code == 503
    assert f'<p class="lead">{message}</p>' in page.get_data(as_text=True)
    reply = client.get("/api/laws/2017/12")
    assert (reply.status_code, json.loads(reply.data)) == (503, {"error": message})
