#!/usr/bin/env python3
"""Recomputes an optimize search's GPU idle share from the raw timeline in its result.json.

  bench/idle_share.py RESULT.json…      (RESULT.json.gz too: raw data is kept gzipped)

For each file: the search's seconds, the GPU's busy seconds (the sum of timeline.gpu's spans,
which is gpu_busy_seconds), the idle share (1 - busy / seconds), the model's calls, and every
stretch of more than half a second with the GPU idle, with the model calls in flight then.
Standard library only.
"""

import gzip
import json
import sys


def report(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        r = json.load(f)
    seconds = r["seconds"]
    gpu = sorted(r["timeline"]["gpu"])
    model = r["timeline"]["model"]
    busy = sum(end - start for start, end, _ in gpu)
    print("%s: %s, %.1f s, GPU busy %.1f s (result says %.1f), idle %.1f%% (result says %.1f%%), "
          "%d model calls" % (path, r["kernel"], seconds, busy, r["gpu_busy_seconds"],
                              100 * max(0.0, 1 - busy / seconds), 100 * r["gpu_idle_share"],
                              len(model)))
    edge = 0.0
    stretches = []
    for start, end, _ in gpu + [[seconds, seconds, "end"]]:
        if start - edge > 0.5:
            stretches.append((edge, start))
        edge = max(edge, end)
    builds = r["timeline"].get("build_waits", [])
    if builds:
        print("  waited for builds: %.1f s in %d waits (%.1f%% of the search)" %
              (sum(e - s for s, e, _ in builds), len(builds),
               100 * sum(e - s for s, e, _ in builds) / seconds))
    for a, b in stretches:
        waiting = sorted({p for s, e, p in model if s < b and a < e})
        built = sum(min(b, e) - max(a, s) for s, e, _ in builds if s < b and a < e)
        print("  idle %6.1f-%6.1f s (%4.1f s); model calls in flight: %s; waiting for builds %.1f s" %
              (a, b, b - a, ", ".join(waiting) or "none", built))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        report(p)
