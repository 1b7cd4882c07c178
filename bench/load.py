"""The site under load: gunicorn (production settings) driven by wrk.

    python bench/load.py [--data DIR] [--seconds 30] [--connections 50] [--workers 2] [--front]

Needs wrk (Debian: `apt-get install -y wrk`); says so if it is missing.

Two runs against the same server, one after the other:

1. the mix: law pages, contents, comparisons, the guide, searches (citations,
   words, typos), the JSON API, and every rule checker (POST, its example
   input), plus the rulings if the app has them, taken in turn by each
   connection;
2. the ceiling: one static file (the stylesheet, precompressed), the least
   work a request can be.

With --front, two more runs of the mix through nginx, the front server
(laws/web/nginx.conf.template): alone, and with 50 slow clients trickling
their headers or bodies a byte every half second all the while.  The slow
clients must cost the others little: their p99 at most 2x the run without
them (exits 1 otherwise), and no errors.

For each: requests/s, latency p50 / p90 / p99 / p99.9, and errors (socket
errors and any reply that is not 2xx or 3xx), which must be 0; the mix's
throughput as a share of the ceiling's.  Exits 1 if there was an error.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import serve  # noqa: E402

HEADERS = {"Accept-Encoding": "br, gzip"}
PAGES = ["/", "/2007/", "/2007/law/12", "/2007/law/40", "/2007/law/64", "/2007/law/77", "/2017/law/40",
         "/1993-rubber/law/64", "/compare/40", "/compare?from=2007&to=2017", "/guide", "/2007/definitions",
         "/checkers/score", "/go?q=27B1"]
SEARCHES = ["27B1", "lead out of turn", "revoke", "unauthorised information", "insuficient bid",
            "claim", "law 40 b 2", "dummy", "penalty card", "UI"]
API = ["/api/editions", "/api/laws/2007/12", "/api/diff/40?from=2007&to=2017", "/api/guide"]


def _lua_string(s: str) -> str:
    return "[==[" + s + "]==]"


def mix(app) -> list[tuple[str, str, str | None]]:
    """(method, path, JSON body) for every request of the mix."""
    from urllib.parse import urlencode

    from laws.checkers import registry

    reqs = [("GET", p, None) for p in PAGES]
    for q in SEARCHES:
        reqs.append(("GET", "/search?" + urlencode({"q": q}), None))
        reqs.append(("GET", "/api/search?" + urlencode({"q": q}), None))
    reqs += [("GET", p, None) for p in API]
    reqs += [("POST", f"/api/checkers/{c.id}", json.dumps(c.example)) for c in registry.all_checkers()]
    rules = {r.rule for r in app.url_map.iter_rules()}
    for kind in ("auction", "play"):
        if f"/api/rulings/{kind}" in rules:
            example = _ruling_example(kind)
            if example is not None:
                reqs.append(("POST", f"/api/rulings/{kind}", json.dumps(example)))
    return reqs


def _ruling_example(kind: str) -> dict | None:
    """A ruling request, where the rulings module offers an example."""
    try:
        from importlib import import_module

        mod = import_module("laws.rulings")
        return getattr(mod, "EXAMPLES", {}).get(kind)
    except ImportError:
        return None


def lua_script(reqs: list[tuple[str, str, str | None]]) -> str:
    lines = ["local reqs = {}"]
    for i, (method, path, body) in enumerate(reqs, 1):
        # wrk.format sends only the headers it is given: HTTP/1.1 needs a Host
        # (gunicorn does without one; nginx, rightly, answers 400)
        headers = dict(HEADERS, Host="lawbook", **({"Content-Type": "application/json"} if body else {}))
        h = "{" + ", ".join(f'["{k}"] = "{v}"' for k, v in headers.items()) + "}"
        lines.append(f"reqs[{i}] = wrk.format({_lua_string(method)}, {_lua_string(path)}, {h}, "
                     f"{_lua_string(body) if body else 'nil'})")
    lines += [
        "local i = 0",
        "request = function() i = i % #reqs + 1; return reqs[i] end",
        "done = function(summary, latency, requests)",
        '  io.write(string.format("p99.9=%dus\\n", latency:percentile(99.9)))',
        "end",
    ]
    return "\n".join(lines) + "\n"


def static_script() -> str:
    return ('wrk.headers["Accept-Encoding"] = "br, gzip"\n'
            "done = function(summary, latency, requests)\n"
            '  io.write(string.format("p99.9=%dus\\n", latency:percentile(99.9)))\nend\n')


def show(name: str, r: dict) -> None:
    print(f"{name:8} {r['rps']:8.0f} req/s  {r['requests']:7d} requests  p50 {r['p50']:6.1f} ms  "
          f"p90 {r['p90']:6.1f} ms  p99 {r['p99']:6.1f} ms  p99.9 {r['p99.9']:6.1f} ms  "
          f"errors {r['errors']} (socket {r['socket_errors']}, non-2xx/3xx {r['non_2xx_3xx']})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="a data directory with a built store (default: LAWS_DATA_DIR, else a fresh build)")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    ap.add_argument("--front", action="store_true", help="also the mix through nginx, without and with 50 slow clients")
    ap.add_argument("--slow", type=int, default=50, help="slow clients in the --front run")
    args = ap.parse_args(argv)
    serve.need_wrk()
    if args.front:
        serve.need_nginx()

    from app import create_app

    with serve.data_dir(args.data) as data:
        app = create_app({"DATA_DIR": str(data)})
        reqs = mix(app)
        with app.test_request_context():
            css = app.extensions["lawbook_assets"].url("site.css")
        # every request of the mix answers 2xx/3xx before the load starts
        client = app.test_client()
        for method, path, body in reqs:
            r = client.open(path, method=method, data=body, headers=HEADERS,
                            content_type="application/json" if body else None)
            assert r.status_code < 400, (method, path, r.status_code)
        kinds = {"pages": len(PAGES), "searches": 2 * len(SEARCHES), "API": len(API),
                 "checkers": sum(1 for m, p, _ in reqs if p.startswith("/api/checkers/")),
                 "rulings": sum(1 for m, p, _ in reqs if p.startswith("/api/rulings/"))}
        print(f"mix of {len(reqs)} requests: " + ", ".join(f"{v} {k}" for k, v in kinds.items()))
        if not kinds["rulings"]:
            print("(no rulings in this app, or no example ruling request to send: none in the mix)")
        print(f"gunicorn: {args.workers} workers x {args.threads} threads; wrk: {args.connections} connections, "
              f"{args.seconds} s each run")
        with tempfile.TemporaryDirectory() as tmp, serve.gunicorn(data, args.workers, args.threads) as (base, _):
            mix_lua, static_lua = Path(tmp) / "mix.lua", Path(tmp) / "static.lua"
            mix_lua.write_text(lua_script(reqs))
            static_lua.write_text(static_script())
            results = {}
            for name, script, path in (("mix", mix_lua, "/"), ("static", static_lua, css)):
                results[name] = serve.parse_wrk(serve.run_wrk(base, script, path, args.seconds,
                                                              args.connections))
                show(name, results[name])
            if args.front:
                with serve.front(base.removeprefix("http://")) as fbase:
                    results["front"] = serve.parse_wrk(serve.run_wrk(fbase, mix_lua, "/", args.seconds,
                                                                     args.connections))
                    show("front", results["front"])
                    with serve.SlowClients(int(fbase.rsplit(":", 1)[1]), args.slow):
                        results["f+slow"] = serve.parse_wrk(serve.run_wrk(fbase, mix_lua, "/", args.seconds,
                                                                          args.connections))
                    show("f+slow", results["f+slow"])
        share = results["mix"]["rps"] / results["static"]["rps"] * 100
        print(f"the mix runs at {share:.0f}% of the static ceiling")
        slow_ok = True
        if args.front:
            ratio = results["f+slow"]["p99"] / results["front"]["p99"]
            slow_ok = ratio <= 2.0
            print(f"through nginx with {args.slow} slow clients: p99 {ratio:.2f}x the run without them "
                  f"({'within' if slow_ok else 'OVER'} the 2x limit)")
        errors = sum(r["errors"] for r in results.values())
        print("errors: 0" if not errors else f"ERRORS: {errors}")
        return 1 if errors or not slow_ok else 0


if __name__ == "__main__":
    sys.exit(main())
