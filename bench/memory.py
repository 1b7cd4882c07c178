"""Memory per gunicorn worker under unique search queries: it must stay flat.

    python bench/memory.py [--data DIR] [--queries 100000] [--workers 2]

Needs wrk (Debian: `apt-get install -y wrk`).  A robot typing endless new
words is the worst case for the search's caches (each word is analysed, and
a word the corpus lacks is spelling-corrected).  The bench starts gunicorn
(production settings), measures each worker's resident memory after a
warm-up of ordinary queries (the baseline, in the same run), then drives
`/api/search` with wrk, every query two words never sent before, in phases
until `--queries` have been answered, and prints each worker's memory after
every phase: the growth over the second half of the run is what must be ~0
(the caches are bounded: their size is reached early, then memory is flat).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import serve  # noqa: E402

UNIQUE_LUA = r"""
local n = 0
function setup(thread)
  n = n + 1
  thread:set("tid", n)
end
local letters = "abcdefghijklmnopqrstuvwxyz"
local function word(k)
  local s = ""
  repeat
    local d = k % 26
    s = s .. letters:sub(d + 1, d + 1)
    k = math.floor(k / 26)
  until k == 0
  return s
end
local counter, offset, tid, threads
function init(args)
  offset = tonumber(args[1])
  threads = tonumber(args[2])
  tid = tonumber(wrk.thread:get("tid"))
end
function request()
  counter = (counter or 0) + 1
  local k = offset + counter * threads + tid
  return wrk.format("GET", "/api/search?q=" .. word(k * 7 + 100000) .. "+x" .. word(k * 13 + 7))
end
done = function(summary, latency, requests)
  io.write(string.format("p99.9=%dus\n", latency:percentile(99.9)))
end
"""

WARM = ["revoke", "lead out of turn", "claim", "insufficient bid", "27B1", "unauthorised information", "dummy"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data")
    ap.add_argument("--queries", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--phase", type=int, default=15, help="seconds per phase")
    ap.add_argument("--connections", type=int, default=16)
    args = ap.parse_args(argv)
    serve.need_wrk()
    threads = 2
    with serve.data_dir(args.data) as data, serve.gunicorn(data, args.workers) as (base, proc), \
            tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "unique.lua"
        script.write_text(UNIQUE_LUA)
        pids = serve.workers_of(proc)
        for _ in range(100):
            for q in WARM:
                urllib.request.urlopen(f"{base}/api/search?q={q.replace(' ', '+')}", timeout=30).read()
        base_rss = {p: serve.rss_mb(p) for p in pids}
        print(f"{len(pids)} workers; baseline after {100 * len(WARM)} ordinary queries: "
              + ", ".join(f"{base_rss[p]:.1f} MB" for p in pids))
        print(f"{'queries':>8}  " + "  ".join(f"worker {i + 1} MB" for i in range(len(pids)))
              + "   p99 ms  errors (socket, non-2xx/3xx)")
        done, phase, rows = 0, 0, []
        while done < args.queries:
            out = serve.run_wrk(base, script, "/", args.phase, args.connections, threads,
                                args=[str(phase * 10_000_000), str(threads)])
            r = serve.parse_wrk(out)
            done += r["requests"]
            phase += 1
            rss = [serve.rss_mb(p) for p in pids]
            rows.append((done, rss))
            print(f"{done:8d}  " + "  ".join(f"{m:11.1f}" for m in rss) + f"   {r['p99']:6.1f}  {r['errors']} ({r['socket_errors']}, {r['non_2xx_3xx']})",
                  flush=True)
        half = next(row for row in rows if row[0] >= done / 2)
        growth = [b - a for a, b in zip(half[1], rows[-1][1])]
        total = [b - base_rss[p] for p, b in zip(pids, rows[-1][1])]
        print(f"after {done} unique queries: growth from the baseline "
              + ", ".join(f"{g:+.1f} MB" for g in total) + f"; over the second half ({half[0]} -> {done}): "
              + ", ".join(f"{g:+.1f} MB" for g in growth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
