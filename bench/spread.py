#!/usr/bin/env python3
"""The spread of medians across separate `kblaster bench --json` processes (issue 21 A).

  bench/spread.py BENCH.json[.gz]…

For each kernel in the files: its cold median in each process, and, where measured, its hot
median (nvbench's batch); the spread of each, (max - min) / median of the medians, in percent.
The issue's target: at most 1 % for a 4-us kernel across 10 processes, 0.5 % for kernels of
50 us or more. Standard library only.
"""

import gzip
import json
import statistics
import sys


def medians(paths):
    """{kernel: {"cold": [median_s…], "hot": [median_s…]}} over the files, in their order."""
    out = {}
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open  # raw data is kept gzipped
        with opener(path, "rt", encoding="utf-8") as f:
            result = json.load(f)
        for k in result.get("kernels", []):
            m = k.get("measurement") or {}
            if not m.get("trusted"):
                continue
            entry = out.setdefault(k["name"], {"cold": [], "hot": []})
            entry["cold"].append(m["median_s"])
            if "hot" in m:
                entry["hot"].append(m["hot"]["median_s"])
    return out


def spread(values):
    """(max - min) / median, or None for fewer than two values."""
    if len(values) < 2:
        return None
    return (max(values) - min(values)) / statistics.median(values)


def main(paths):
    for kernel, entry in sorted(medians(paths).items()):
        for method in ("cold", "hot"):
            values = entry[method]
            if not values:
                continue
            s = spread(values)
            print("%-14s %-4s n=%-3d median %.4g us  spread %s  [%s]" % (
                kernel, method, len(values), statistics.median(values) * 1e6,
                "-" if s is None else "%.2f %%" % (100 * s),
                ", ".join("%.4g" % (v * 1e6) for v in values)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
