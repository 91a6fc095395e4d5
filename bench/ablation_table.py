#!/usr/bin/env python3
"""The ablation table from bench/ablation.sh's output folder: per kernel, the best
verified speedup and the evaluations needed to reach 95 % of it, KB-cold and KB-warm.
Usage: ablation_table.py OUT_DIR KERNEL..."""
import json
import os
import sys


def result(out, run, kernel):
    path = os.path.join(out, run, kernel, "result.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def cell(r):
    if r is None:
        return "no result", None
    s = r["speedup"]
    n = r["evaluations_to_95_percent"]
    text = f'{s["value"]:.3f}x {s["verdict"]}, {r["evaluations"]} evals, to 95 %: {n or "-"}'
    return text, (n if s["verdict"] == "FASTER" else None)


def main():
    out, kernels = sys.argv[1], sys.argv[2:]
    print("| kernel | KB-cold | KB-warm |\n|---|---|---|")
    cold_n, warm_n = [], []
    for k in kernels:
        c_text, c_n = cell(result(out, "cold_" + k, k))
        w_text, w_n = cell(result(out, "warm_" + k, k))
        print(f"| {k} | {c_text} | {w_text} |")
        if c_n and w_n:
            cold_n.append(c_n)
            warm_n.append(w_n)
    if cold_n:
        print(f"\nKernels sped up in both runs: {len(cold_n)}; mean evaluations to 95 % of the "
              f"best: cold {sum(cold_n) / len(cold_n):.2f}, warm {sum(warm_n) / len(warm_n):.2f}")


if __name__ == "__main__":
    main()
