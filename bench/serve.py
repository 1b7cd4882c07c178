"""What the load benches share: a store to serve, gunicorn started on a free
port with the production settings (laws.web.gunicorn_config), and wrk.

Not a bench itself: bench/load.py and bench/memory.py use it.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def need_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk is None:
        sys.exit("wrk is not installed: it is the load tool these benches drive. "
                 "On Debian: apt-get install -y wrk")
    return wrk


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def data_dir(given: str | None):
    """The store to serve: `given` (or LAWS_DATA_DIR) if it holds one, else a
    fresh build of corpus/ in a temporary folder."""
    from laws.build import build, current_store

    path = given or os.environ.get("LAWS_DATA_DIR")
    if path and current_store(Path(path)).exists():
        yield Path(path)
        return
    with tempfile.TemporaryDirectory() as tmp:
        print("building the store into a temporary folder ...", flush=True)
        build(ROOT / "corpus", Path(tmp), echo=lambda *_: None)
        yield Path(tmp)


@contextlib.contextmanager
def gunicorn(data: Path, workers: int = 2, threads: int = 4):
    """gunicorn serving `data`; yields (base URL, the server process)."""
    port = free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(data), "WEB_CONCURRENCY": str(workers),
           "GUNICORN_THREADS": str(threads)}
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:laws.web.gunicorn_config",
                             "-b", f"127.0.0.1:{port}", "app:create_app()"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/search?q=law", timeout=30).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    sys.exit("gunicorn did not start:\n" + log.read()[-2000:])
                time.sleep(0.3)
        for _ in range(workers * 4):  # every worker has opened its index (post_worker_init)
            urllib.request.urlopen(f"{base}/api/search?q=revoke", timeout=30).read()
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.seek(0)
        lines = log.read().splitlines()
        errors = [l for l in lines if "unexpected error" in l]
        if errors:
            print(f"the app logged {len(errors)} unexpected errors (500s), e.g. {errors[0]}")
        restarts = [l for l in lines if "WORKER TIMEOUT" in l or "SIGKILL" in l]
        if restarts:
            print(f"gunicorn restarted workers {len(restarts)} times, e.g. {restarts[0]}")


def workers_of(proc: subprocess.Popen) -> list[int]:
    """The pids of gunicorn's workers (children of the master)."""
    out = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    return [int(p) for p in out]


def rss_mb(pid: int) -> float:
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(m[1]) / 1024


def run_wrk(base: str, script: Path | None, path: str = "/", seconds: int = 30, connections: int = 50,
            threads: int = 2, args: list[str] = ()) -> str:
    cmd = [need_wrk(), f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        cmd += ["-s", str(script)]
    cmd.append(base + path)
    if args:
        cmd += ["--", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def parse_wrk(out: str) -> dict:
    """requests, requests/s, latency percentiles (ms), errors (socket errors
    and replies that are not 2xx or 3xx), from wrk's report and our done()."""
    def ms(text: str) -> float:
        m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
        return float(m[1]) * {"us": 0.001, "ms": 1, "s": 1000}[m[2]]

    r: dict = {"requests": int(re.search(r"(\d+) requests in", out)[1]),
               "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])}
    for p in ("50", "90", "99"):
        m = re.search(rf"^\s+{p}(?:\.000)?%\s+(\S+)", out, re.M)
        r[f"p{p}"] = ms(m[1]) if m else None
    m = re.search(r"p99\.9=(\d+)us", out)
    r["p99.9"] = int(m[1]) / 1000 if m else None
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    r["socket_errors"] = sum(int(x) for x in sock.groups()) if sock else 0
    r["non_2xx_3xx"] = int(non2xx[1]) if non2xx else 0
    r["errors"] = r["socket_errors"] + r["non_2xx_3xx"]
    return r
