#!/usr/bin/env python3
"""The power study of `kblaster compare` (issue 21 B) from its compare results.

  bench/power_table.py COMPARE.json…

Each file is one `kblaster compare --a A --b B --repeat N --json`. Per pair: the runs, how many
ended SLOWER, FASTER, SAME or AMBIGUOUS, the median measured ratio B/A (the slowdown actually
injected), and with a Wilson 95 % interval:
  - A against itself: the false-alarm rate, runs that ended SLOWER or FASTER;
  - A against a slower B: the power, runs that ended SLOWER.
Untrusted runs (rejected timings) are counted apart and left out of the rates. Last, the
identical pairs pooled: false alarms, with the upper end of the two-sided Wilson 95 % interval and
the one-sided 95 % (Clopper-Pearson) upper bound; a warning if they were judged at different
minimum effects.

  bench/power_table.py --rejudge E COMPARE.json…

The same, each launch-bound run judged again at a minimum effect E from its recorded ratio, 99 %
CI and Mann-Whitney p (ab_verdict.h's rule). Exact for those runs only: their samples are taken
in a fixed design (so many pairs per CUDA context) that the minimum effect does not steer. A
streaming run stops at its first decided verdict, which depends on E, so one is refused.
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


ALPHA = 0.01  # compare's significance level: its CI is 99 %


def one_sided_upper(k, n, confidence=0.95):
    """The one-sided Clopper-Pearson upper bound for k = 0 events in n trials; None otherwise."""
    if k != 0 or n == 0:
        return None
    return 1 - (1 - confidence) ** (1 / n)


def rejudge(run, min_effect, path):
    """ab_verdict.h's rule on a recorded launch-bound run at `min_effect`."""
    if not run.get("contexts"):
        sys.exit("%s: a streaming run (no CUDA contexts) stops when decided, so its verdict at "
                 "another minimum effect cannot be recomputed from its record" % path)
    r, lo, hi, p, e = (run["ratio"], run["ci_low"], run["ci_high"], run["mann_whitney_p"],
                       min_effect)
    if p < ALPHA and lo > 1 and r >= 1 + e:
        return "SLOWER"
    if p < ALPHA and hi < 1 and r <= 1 - e:
        return "FASTER"
    if 1 - e <= lo and hi <= 1 + e:
        return "SAME"
    return "AMBIGUOUS"


def pair_rows(paths, min_effect=None):
    """One row per file: {a, b, runs, untrusted, verdicts, ratio, rate, low, high, what}; with
    `min_effect`, each launch-bound run's verdict judged again at it (rejudge)."""
    rows = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open  # raw data is kept gzipped
        with opener(path, "rt", encoding="utf-8") as f:
            result = json.load(f)
        a, b = result["a"]["kernel"], result["b"]["kernel"]
        trusted = [r for r in result.get("runs", []) if r.get("trusted")]
        if min_effect is not None:
            trusted = [dict(r, verdict=rejudge(r, min_effect, path)) for r in trusted]
        verdicts = {}
        for r in trusted:
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
        same_kernel = a == b or b == a + "_twin"  # a twin is the same code as another module
        hits = (verdicts.get("SLOWER", 0) + verdicts.get("FASTER", 0) if same_kernel
                else verdicts.get("SLOWER", 0))
        low, high = wilson(hits, len(trusted))
        ratios = [r["ratio"] for r in trusted if r.get("ratio")]
        judged_at = min_effect if min_effect is not None else result.get("min_effect")
        rows.append({"a": a, "b": b, "runs": len(trusted), "min_effect": judged_at,
                     "untrusted": len(result.get("runs", [])) - len(trusted),
                     "verdicts": verdicts,
                     "ratio": statistics.median(ratios) if ratios else None,
                     "rate": hits / len(trusted) if trusted else None, "low": low, "high": high,
                     "what": "false alarms" if same_kernel else "power"})
    return rows


def pooled_false_alarms(rows):
    """The identical pairs of `rows` together: (pairs, false alarms, the minimum effects they were
    judged at). More than one minimum effect means the pool mixes rules: say so."""
    same = [r for r in rows if r["what"] == "false alarms"]
    return (sum(r["runs"] for r in same),
            sum(r["verdicts"].get("SLOWER", 0) + r["verdicts"].get("FASTER", 0) for r in same),
            sorted({r["min_effect"] for r in same if r.get("min_effect") is not None}))


def main(args):
    min_effect = None
    if args[:1] == ["--rejudge"]:
        if len(args) < 3:
            sys.exit(__doc__)
        min_effect, args = float(args[1]), args[2:]
        if not 0 < min_effect < 1:
            sys.exit("--rejudge %g: a minimum effect is a fraction in (0, 1), as 0.015" % min_effect)
    rows = pair_rows(args, min_effect)
    if min_effect is not None:
        print("Launch-bound runs judged again at a minimum effect of %g %%:\n" % (100 * min_effect))
    print("| A | B | runs | measured B/A | verdicts | rate | 95 % CI |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        verdicts = ", ".join("%s %d" % kv for kv in sorted(r["verdicts"].items()))
        ratio = "-" if r["ratio"] is None else "%.4f" % r["ratio"]
        rate = "-" if r["rate"] is None else "%s %.1f %%" % (r["what"], 100 * r["rate"])
        print("| %s | %s | %d%s | %s | %s | %s | %.1f-%.1f %% |" % (
            r["a"], r["b"], r["runs"],
            " (+%d untrusted)" % r["untrusted"] if r["untrusted"] else "",
            ratio, verdicts, rate, 100 * r["low"], 100 * r["high"]))
    pairs, alarms, effects = pooled_false_alarms(rows)
    if len(effects) > 1:
        print("\nWarning: the identical pairs were judged at different minimum effects (%s); "
              "the pooled line mixes their rules" % ", ".join("%g" % e for e in effects),
              file=sys.stderr)
    if pairs:
        bound = one_sided_upper(alarms, pairs)
        print("\nIdentical pairs pooled: %d false alarm(s) in %d; upper end of the two-sided "
              "Wilson 95 %% interval %.2f %%%s"
              % (alarms, pairs, 100 * wilson(alarms, pairs)[1],
                 "" if bound is None else ", one-sided 95 %% upper bound %.2f %%" % (100 * bound)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
