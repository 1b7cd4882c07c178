"""What the load benches share: a store to serve, gunicorn started on a free
port with the production settings (laws.web.gunicorn_config), nginx in front
of it (laws/web/nginx.conf.template), slow clients, and wrk.

Not a bench itself: bench/load.py and bench/memory.py use it, and
tests/test_front_server.py its slow clients.
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
import threading
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


def _up(url: str, proc: subprocess.Popen, seconds: float) -> bool:
    """Whether `url` answers before `proc` stops or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=30).read()
            return True
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.2)


@contextlib.contextmanager
def gunicorn(data: Path, workers: int = 2, threads: int = 4, app: str = "app:create_app()", env: dict | None = None):
    """gunicorn serving `data` (`app`: the application, `env`: more of its
    environment); yields (base URL, the server process)."""
    port = free_port()
    env = {**os.environ, "LAWS_DATA_DIR": str(data), "WEB_CONCURRENCY": str(workers),
           "GUNICORN_THREADS": str(threads), **(env or {})}
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:laws.web.gunicorn_config",
                             "-b", f"127.0.0.1:{port}", app], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        if not _up(f"{base}/api/search?q=law", proc, 60):
            log.seek(0)
            sys.exit("gunicorn did not start:\n" + log.read()[-2000:])
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


def need_nginx() -> str:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        sys.exit("nginx is not installed: it is the front server. On Debian: apt-get install -y nginx")
    return nginx


@contextlib.contextmanager
def front(upstream: str, client_timeout: int = 10):
    """nginx with Lawbook's configuration in front of `upstream` (host:port);
    yields its base URL."""
    from laws.web.frontserver import render

    port = free_port()
    with tempfile.TemporaryDirectory() as prefix:
        conf = Path(prefix) / "nginx.conf"
        conf.write_text(render(listen=f"127.0.0.1:{port}", upstream=upstream, prefix=prefix,
                               client_timeout=client_timeout, daemon=False), encoding="utf-8")
        proc = subprocess.Popen([need_nginx(), "-c", str(conf), "-p", prefix, "-e", str(Path(prefix) / "error.log")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            if not _up(f"{base}/api/editions", proc, 30):
                sys.exit("nginx did not start: " + (Path(prefix) / "error.log").read_text()[-2000:])
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=15)


class SlowClients:
    """`n` connections that trickle: half send their request line and headers
    a byte at a time, half a JSON body, a byte every `every` seconds, never
    finishing, until released (`with SlowClients(port, 50): ...`)."""

    BODY = b'{"contract": "4S", "declarer": "S", "vulnerable": false, "tricks": 10}'

    def __init__(self, port: int, n: int, every: float = 0.5):
        self.port, self.n, self.every = port, n, every
        self.socks: list[socket.socket] = []
        self.pending: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        for i in range(self.n):
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            if i % 2:
                whole = b"GET /2017/law/12 HTTP/1.1\r\nHost: slow\r\nUser-Agent: a phone on a bad line\r\n\r\n"
            else:
                s.sendall(b"POST /api/checkers/score HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n" % len(self.BODY))
                whole = self.BODY
            self.socks.append(s)
            self.pending.append(whole)
        self.thread.start()
        return self

    def _run(self):
        while not self.stop.wait(self.every):
            for i, s in enumerate(self.socks):
                if len(self.pending[i]) > 1:  # never the last byte: never a whole request
                    try:
                        s.sendall(self.pending[i][:1])
                    except OSError:
                        pass
                    self.pending[i] = self.pending[i][1:]

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        for s in self.socks:
            s.close()
