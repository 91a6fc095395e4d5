#!/usr/bin/env python3
"""The power study of `kblaster compare` (issue 21 B) from its compare results.

  bench/power_table.py COMPARE.json…

Each file is one `kblaster compare --a A --b B --repeat N --json`. Per pair: the runs, how many
ended SLOWER, FASTER, SAME or AMBIGUOUS, the median measured ratio B/A (the slowdown actually
injected), and with a Wilson 95 % interval:
  - A against itself: the false-alarm rate, runs that ended SLOWER or FASTER;
  - A against a slower B: the power, runs that ended SLOWER.
Untrusted runs (rejected timings) are counted apart and left out of the rates.
Standard library only.
"""

import gzip
import json
import math
import statistics
import sys


def wilson(k, n, z=1.96):
    """The Wilson score interval of k successes in n trials, as (low, high); (0, 1) for n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_rows(paths):
    """One row per file: {a, b, runs, untrusted, verdicts, ratio, rate, low, high, what}."""
    rows = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open  # raw data is kept gzipped
        with opener(path, "rt", encoding="utf-8") as f:
            result = json.load(f)
        a, b = result["a"]["kernel"], result["b"]["kernel"]
        trusted = [r for r in result.get("runs", []) if r.get("trusted")]
        verdicts = {}
        for r in trusted:
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
        same_kernel = a == b or b == a + "_twin"  # a twin is the same code as another module
        hits = (verdicts.get("SLOWER", 0) + verdicts.get("FASTER", 0) if same_kernel
                else verdicts.get("SLOWER", 0))
        low, high = wilson(hits, len(trusted))
        ratios = [r["ratio"] for r in trusted if r.get("ratio")]
        rows.append({"a": a, "b": b, "runs": len(trusted),
                     "untrusted": len(result.get("runs", [])) - len(trusted),
                     "verdicts": verdicts,
                     "ratio": statistics.median(ratios) if ratios else None,
                     "rate": hits / len(trusted) if trusted else None, "low": low, "high": high,
                     "what": "false alarms" if same_kernel else "power"})
    return rows


def main(paths):
    print("| A | B | runs | measured B/A | verdicts | rate | 95 % CI |")
    print("|---|---|---|---|---|---|---|")
    for r in pair_rows(paths):
        verdicts = ", ".join("%s %d" % kv for kv in sorted(r["verdicts"].items()))
        ratio = "-" if r["ratio"] is None else "%.4f" % r["ratio"]
        rate = "-" if r["rate"] is None else "%s %.1f %%" % (r["what"], 100 * r["rate"])
        print("| %s | %s | %d%s | %s | %s | %s | %.1f-%.1f %% |" % (
            r["a"], r["b"], r["runs"],
            " (+%d untrusted)" % r["untrusted"] if r["untrusted"] else "",
            ratio, verdicts, rate, 100 * r["low"], 100 * r["high"]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
