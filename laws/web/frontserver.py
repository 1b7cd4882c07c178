"""The front server's configuration: nginx in front of gunicorn.

`laws/web/nginx.conf.template` is the whole nginx configuration, with the
reasons for each setting; this fills in the few values that differ from one
machine to the next and writes it out:

    python -m laws.web.frontserver --listen 80 --upstream 127.0.0.1:8000 \\
        --prefix /var/lib/lawbook-nginx > lawbook-nginx.conf
    nginx -c "$PWD/lawbook-nginx.conf"

The tests run the same file (tests/test_front_server.py)."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from string import Template

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
CLIENT_TIMEOUT = 10  # seconds: see the template


def render(*, listen: str, upstream: str, prefix: str | Path, client_timeout: int = CLIENT_TIMEOUT,
           worker_processes: str = "auto", daemon: bool = True, access_log: str = "off") -> str:
    """The configuration, every ${name} of ours filled (nginx's own $variables
    are left as they are)."""
    values = {"listen": listen, "upstream": upstream, "prefix": str(prefix), "client_timeout": str(client_timeout),
              "worker_processes": worker_processes, "daemon": "on" if daemon else "off", "access_log": access_log}
    text = Template(TEMPLATE.read_text(encoding="utf-8")).safe_substitute(values)
    left = sorted(set(re.findall(r"\$\{(\w+)\}", text)))
    if left:
        raise ValueError(f"{TEMPLATE.name}: no value for {', '.join(left)}")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write Lawbook's nginx configuration to standard output.")
    ap.add_argument("--listen", default="80", help="what nginx listens on: a port, or address:port (default 80)")
    ap.add_argument("--upstream", default="127.0.0.1:8000", help="gunicorn's address (default 127.0.0.1:8000)")
    ap.add_argument("--prefix", required=True, help="a directory nginx may write: its pid, error log, temp files")
    ap.add_argument("--client-timeout", type=int, default=CLIENT_TIMEOUT, help="seconds (default 10)")
    ap.add_argument("--foreground", action="store_true", help="daemon off (for a process supervisor)")
    args = ap.parse_args(argv)
    sys.stdout.write(render(listen=args.listen, upstream=args.upstream, prefix=Path(args.prefix).resolve(),
                            client_timeout=args.client_timeout, daemon=not args.foreground))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
