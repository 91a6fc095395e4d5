#!/usr/bin/env python3
"""The ablation table from bench/ablation.sh's output folder: per kernel, the best
verified speedup of the KB-cold and the KB-warm search, and the evaluations each
needed to reach 95 % of the best gain found for that kernel by either run.
Usage: ablation_table.py OUT_DIR [--cold-dir DIR] [KERNEL...]
KERNELs are listed in the order given; with none, every kernel that has a cold_<k>/
or warm_<k>/ folder, sorted by name.

Two layouts, told apart by OUT_DIR's contents:
  one search seed (no seed_<s>/ subfolder): OUT_DIR/{cold,warm}_<k>/<k>/result.json.
    The cold runs are read from DIR (default OUT_DIR) when they ran in another call.
    Prints one row per kernel and a summary.
  several seeds (OUT_DIR has seed_<s>/ subfolders; anything at OUT_DIR's top level is
    then ignored): OUT_DIR/seed_<s>/ has the one-seed layout, and the cold runs of seed s
    are read from DIR/seed_<s>/ (default OUT_DIR/seed_<s>/). The seeds are those with a
    seed_<s>/ folder in OUT_DIR or DIR (seed_<s>/ folders in DIR alone are an error, not
    the one-seed layout). Prints one row per kernel and seed, then per
    kernel a summary over its seeds and a total row over all kernels and seeds.

Gain is speedup - 1, read from each step's best_speedup_after (the search's own
A/B chain); a run reaches the target at the first evaluation with
best_speedup_after >= 1 + 0.95 * (best of both runs - 1), the best taken over the
cold and the warm run of the same kernel (and seed). A run that reaches the target
beats one that does not; two that reach it compare by evaluations (fewer wins, equal
is even); two that do not are even. Means of evaluations to target are over the
pairs where both reached it. A pair where either run has no result.json is reported
as missing and is neither compared nor counted as a win, loss or even; a pair where
neither run gained is "no gain found" and is not compared either."""
import argparse
import json
import math
import os
import re


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
    if s["value"] is None:  # the final A/B was rejected or gave no ratio
        return f'{s.get("verdict", "no ratio")}, {r["evaluations"]} evals'
    return f'{s["value"]:.3f}x {s["verdict"]}, {r["evaluations"]} evals'


def better(a, a_ok, b, b_ok):
    """A run that reaches the target beats one that does not; two that reach it
    compare by evaluations; two that do not are even."""
    return (a_ok and not b_ok) or (a_ok and b_ok and a < b)


class Pair:
    """The cold and the warm run of one kernel (and seed), compared."""

    def __init__(self, cold, warm):
        self.cold, self.warm = cold, warm
        self.missing = [name for name, r in (("cold", cold), ("warm", warm)) if r is None]
        best = max(chain(cold) + chain(warm) + [1.0])
        self.compared = not self.missing and best > 1.0
        if not self.compared:
            return
        self.target = 1.0 + 0.95 * (best - 1.0)
        (self.c, self.c_ok), (self.w, self.w_ok) = to_target(cold, self.target), to_target(warm, self.target)
        self.warm_wins = better(self.w, self.w_ok, self.c, self.c_ok)
        self.cold_wins = better(self.c, self.c_ok, self.w, self.w_ok)

    def target_text(self):
        if self.missing:
            return " and ".join(self.missing) + " result missing"
        return f"{self.target:.3f}x" if self.compared else "no gain found"

    def evals_text(self):
        if not self.compared:
            return "- | -"
        return (f"{self.c if self.c_ok else 'not reached in ' + str(self.c - 1)} "
                f"| {self.w if self.w_ok else 'not reached in ' + str(self.w - 1)}")

    def winner(self):
        if not self.compared:
            return "-"
        return "warm" if self.warm_wins else "cold" if self.cold_wins else "even"


def mean(xs):
    return sum(xs) / len(xs)


def single(out, cold_dir, kernels):
    print("| kernel | KB-cold result | KB-warm result | target (95 % of best gain) "
          "| cold evals to target | warm evals to target |")
    print("|---|---|---|---|---|---|")
    pairs = []
    missing = []
    for k in kernels:
        p = Pair(result(cold_dir, "cold_" + k, k), result(out, "warm_" + k, k))
        print(f"| {k} | {verdict(p.cold)} | {verdict(p.warm)} | {p.target_text()} | {p.evals_text()} |")
        if p.compared:
            pairs.append(p)
        missing += [f"{m} {k}" for m in p.missing]
    if pairs:
        warm_wins = sum(p.warm_wins for p in pairs)
        cold_wins = sum(p.cold_wins for p in pairs)
        both = [p for p in pairs if p.c_ok and p.w_ok]
        print(f"\nKernels with a gain in either run: {len(pairs)}. Reached the target: cold "
              f"{sum(p.c_ok for p in pairs)}, warm {sum(p.w_ok for p in pairs)}. Warm won "
              f"{warm_wins}, cold won {cold_wins}, even {len(pairs) - warm_wins - cold_wins} "
              "(a win: reached the target alone, or in fewer evaluations).")
        if both:
            print(f"Where both reached it ({len(both)}): mean evaluations cold "
                  f"{mean([p.c for p in both]):.2f}, warm {mean([p.w for p in both]):.2f}.")
    if missing:
        print(("" if pairs else "\n") + f"Missing results, not compared: {', '.join(missing)}.")


def sign_test(a, b):
    """Two-sided exact sign test: the chance of a split at least as uneven as a:b
    among a + b decided pairs when either side wins each with probability 1/2."""
    n = a + b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a, b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def summary_row(label, seeds, pairs):
    """One row of the over-seeds table from `pairs` (every pair of that row, including
    missing and no-gain ones)."""
    missing = sum(bool(p.missing) for p in pairs)
    compared = [p for p in pairs if p.compared]
    no_gain = len(pairs) - missing - len(compared)
    both = [p for p in compared if p.c_ok and p.w_ok]
    means = (f"{mean([p.c for p in both]):.2f} / {mean([p.w for p in both]):.2f} ({len(both)})"
             if both else "-")
    ww, cw = sum(p.warm_wins for p in compared), sum(p.cold_wins for p in compared)
    print(f"| {label} | {seeds} | {missing} | {no_gain} | {len(compared)} "
          f"| {sum(p.c_ok for p in compared)} | {sum(p.w_ok for p in compared)} | {means} "
          f"| {ww} | {cw} | {len(compared) - ww - cw} |")
    return compared, ww, cw, missing, no_gain


def aggregate(out, cold_dir, seeds, kernels):
    print(f"Seeds: {', '.join(seeds)}.\n")
    print("| kernel | seed | KB-cold result | KB-warm result | target (95 % of best gain) "
          "| cold evals to target | warm evals to target | winner |")
    print("|---|---|---|---|---|---|---|---|")
    by_kernel = {}
    for k in kernels:
        for s in seeds:
            p = Pair(result(os.path.join(cold_dir, "seed_" + s), "cold_" + k, k),
                     result(os.path.join(out, "seed_" + s), "warm_" + k, k))
            by_kernel.setdefault(k, []).append(p)
            print(f"| {k} | {s} | {verdict(p.cold)} | {verdict(p.warm)} | {p.target_text()} "
                  f"| {p.evals_text()} | {p.winner()} |")
    print("\nOver seeds: a pair is one kernel's cold and warm run with one seed; compared = "
          "both results present and a gain in either; reached = reached the target.\n")
    print("| kernel | seeds | missing | no gain | compared | cold reached | warm reached "
          "| mean evals to target, cold / warm (pairs where both reached) "
          "| warm wins | cold wins | even |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in kernels:
        summary_row(k, len(seeds), by_kernel[k])
    every = [p for k in kernels for p in by_kernel[k]]
    compared, ww, cw, missing, no_gain = summary_row("**total**", len(seeds), every)
    print(f"\nPairs: {len(every)} ({len(kernels)} kernels x {len(seeds)} seeds); missing "
          f"{missing}, no gain found {no_gain}, compared {len(compared)}. Reached the target: "
          f"cold {sum(p.c_ok for p in compared)}, warm {sum(p.w_ok for p in compared)}. "
          f"Warm won {ww}, cold won {cw}, even {len(compared) - ww - cw}; two-sided sign test "
          f"over the {ww + cw} decided pairs (taken as independent): p = {sign_test(ww, cw):.3f}.")


def seed_dirs(*dirs):
    seeds = set()
    for d in dirs:
        if os.path.isdir(d):
            seeds |= {m.group(1) for e in os.listdir(d)
                      if (m := re.fullmatch(r"seed_(.+)", e)) and os.path.isdir(os.path.join(d, e))}
    return sorted(seeds, key=lambda s: (0, int(s), s) if s.isdigit() else (1, 0, s))


def kernel_dirs(dirs):
    names = set()
    for d in dirs:
        if os.path.isdir(d):
            names |= {m.group(2) for e in os.listdir(d)
                      if (m := re.fullmatch(r"(cold|warm)_(.+)", e)) and os.path.isdir(os.path.join(d, e))}
    return sorted(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", metavar="OUT_DIR")
    ap.add_argument("--cold-dir", metavar="DIR", help="where the cold runs are (default OUT_DIR)")
    ap.add_argument("kernels", metavar="KERNEL", nargs="*")
    args = ap.parse_intermixed_args()
    cold_dir = args.cold_dir or args.out
    seeds = seed_dirs(args.out)
    if not seeds and seed_dirs(cold_dir):
        ap.error(f"{cold_dir} has seed_<s>/ folders but {args.out} has none: OUT_DIR must be the "
                 "folder that holds the warm runs' seed_<s>/ folders")
    if seeds:
        seeds = seed_dirs(args.out, cold_dir)
        dirs = [os.path.join(d, "seed_" + s) for d in (args.out, cold_dir) for s in seeds]
        aggregate(args.out, cold_dir, seeds, args.kernels or kernel_dirs(dirs))
    else:
        single(args.out, cold_dir, args.kernels or kernel_dirs([args.out, cold_dir]))


if __name__ == "__main__":
    main()
