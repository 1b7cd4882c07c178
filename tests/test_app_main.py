"""`python app.py` as the README gives it: builds a missing store, then serves."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

from conftest import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_python_app_builds_then_serves(tmp_path):
    port = _free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(tmp_path / "data"), "PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/editions", timeout=2) as r:
                    editions = json.load(r)
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.3)
        assert [e["id"] for e in editions] == ["2017", "2007", "1993-rubber", "dbrs-2017"]  # in force first
        assert (tmp_path / "data" / "current" / "laws.db").exists()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert out.splitlines()[0] == "The store is missing, older than the corpus or made by another version: building it."
    assert out.splitlines()[1].startswith("2007: 93 laws, 765 provisions, 62 definitions")
