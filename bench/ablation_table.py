#!/usr/bin/env python3
"""The ablation table from bench/ablation.sh's output folder: per kernel, the best
verified speedup of the KB-cold and the KB-warm search, and the evaluations each
needed to reach 95 % of the best gain found for that kernel by either run.
Usage: ablation_table.py OUT_DIR [--cold-dir DIR] KERNEL...
The cold runs are read from DIR (default OUT_DIR) when they ran in another call.

Gain is speedup - 1, read from each step's best_speedup_after (the search's own
A/B chain); a run reaches the target at the first evaluation with
best_speedup_after >= 1 + 0.95 * (best of both runs - 1). A run that reaches
the target beats one that does not; means are over kernels where both did."""
import json
import os
import sys


def result(out, run, kernel):
    path = os.path.join(out, run, kernel, "result.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def chain(r):
    return [s["best_speedup_after"] for s in r["steps"]] if r else []


def to_target(r, target):
    """(evaluations to reach target, reached?)"""
    for i, best in enumerate(chain(r), 1):
        if best >= target:
            return i, True
    return len(chain(r)) + 1, False


def verdict(r):
    if r is None:
        return "no result"
    s = r.get("speedup") or {}
    if "value" not in s:
        return f'no change kept, {r["evaluations"]} evals'
    return f'{s["value"]:.3f}x {s["verdict"]}, {r["evaluations"]} evals'


def main():
    out, kernels = sys.argv[1], sys.argv[2:]
    cold_dir = out
    if kernels[:1] == ["--cold-dir"]:
        cold_dir, kernels = kernels[1], kernels[2:]
    print("| kernel | KB-cold result | KB-warm result | target (95 % of best gain) "
          "| cold evals to target | warm evals to target |")
    print("|---|---|---|---|---|---|")
    rows = []  # (cold evals, cold reached, warm evals, warm reached)
    for k in kernels:
        cold, warm = result(cold_dir, "cold_" + k, k), result(out, "warm_" + k, k)
        best = max(chain(cold) + chain(warm) + [1.0])
        if best <= 1.0 or cold is None or warm is None:
            print(f"| {k} | {verdict(cold)} | {verdict(warm)} | no gain found | - | - |")
            continue
        target = 1.0 + 0.95 * (best - 1.0)
        (c, c_ok), (w, w_ok) = to_target(cold, target), to_target(warm, target)
        rows.append((c, c_ok, w, w_ok))
        print(f"| {k} | {verdict(cold)} | {verdict(warm)} | {target:.3f}x "
              f"| {c if c_ok else 'not reached in ' + str(c - 1)} "
              f"| {w if w_ok else 'not reached in ' + str(w - 1)} |")
    if not rows:
        return
    # A run that reaches the target beats one that does not; two that reach it
    # compare by evaluations; two that do not are even.
    def better(a, a_ok, b, b_ok):
        return (a_ok and not b_ok) or (a_ok and b_ok and a < b)
    warm_wins = sum(better(w, w_ok, c, c_ok) for c, c_ok, w, w_ok in rows)
    cold_wins = sum(better(c, c_ok, w, w_ok) for c, c_ok, w, w_ok in rows)
    both = [(c, w) for c, c_ok, w, w_ok in rows if c_ok and w_ok]
    print(f"\nKernels with a gain in either run: {len(rows)}. Reached the target: cold "
          f"{sum(r[1] for r in rows)}, warm {sum(r[3] for r in rows)}. Warm needed fewer "
          f"evaluations on {warm_wins}, cold on {cold_wins}, even on "
          f"{len(rows) - warm_wins - cold_wins}.")
    if both:
        print(f"Where both reached it ({len(both)}): mean evaluations cold "
              f"{sum(c for c, _ in both) / len(both):.2f}, warm {sum(w for _, w in both) / len(both):.2f}.")

if __name__ == "__main__":
    main()
