#!/usr/bin/env python3
"""bench/sweep_compare.py on hand-made sweep outputs: what must match, and what may differ."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import sweep_compare  # noqa: E402


def write(folder, name, value):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        json.dump(value, f)


def sweep(folder, runs, costs_seconds, verdict_b="passed"):
    """A sweep's outputs: `runs` maps a run file to its kernel names."""
    for name, kernels in runs.items():
        write(folder, name, {"kind": "run", "kernels": [
            {"name": k, "verification": {"status": verdict_b if k == "b" else "passed"},
             "measurement": {"trusted": True}} for k in kernels]})
    write(folder, "optimize-a.json", {"kind": "optimize", "kernels": [{"kernel": "a"}]})
    write(folder, "kb.json", {"techniques": [{"id": "t"}], "states": [{"key": "s"}],
                              "trajectories": [{"task": "a", "steps": []}],
                              "kernel_costs": [{"task": k, "seconds": costs_seconds}
                                               for k in ("a", "b")]})
    write(folder, "report.json", {"kind": "report", "results": [
        {"kind": "run", "kernels": [{"name": "a"}, {"name": "b"}]},
        {"kind": "optimize", "kernels": [{"kernel": "a"}]}]})


class SweepCompareTest(unittest.TestCase):
    def test_the_same_sweep_in_shards_matches_whatever_it_measured(self):
        with tempfile.TemporaryDirectory() as tmp:
            one, merged = os.path.join(tmp, "one"), os.path.join(tmp, "merged")
            sweep(one, {"run-s0.json": ["a", "b"]}, 1.0)
            sweep(merged, {"run-s1.json": ["a"], "run-s2.json": ["b"]}, 1.7)  # other timings
            rows = sweep_compare.compare(one, merged)
            self.assertTrue(all(same for _, same, _ in rows), rows)
            self.assertEqual(sweep_compare.main(one, merged), 0)

    def test_a_lost_kernel_or_another_verdict_differs(self):
        with tempfile.TemporaryDirectory() as tmp:
            one, merged = os.path.join(tmp, "one"), os.path.join(tmp, "merged")
            sweep(one, {"run-s0.json": ["a", "b"]}, 1.0)
            sweep(merged, {"run-s1.json": ["a"], "run-s2.json": ["b"]}, 1.0, verdict_b="failed")
            failing = [what for what, same, _ in sweep_compare.compare(one, merged) if not same]
            self.assertEqual(failing, ["verdicts"])
            self.assertEqual(sweep_compare.main(one, merged), 1)


if __name__ == "__main__":
    unittest.main()
