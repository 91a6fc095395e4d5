#!/usr/bin/env python3
"""bench/power_table.py on hand-made compare results: false alarms, power, Wilson intervals."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import power_table  # noqa: E402


def compare(a, b, verdicts, ratio=1.0, min_effect=0.015):
    runs = [{"verdict": v, "ratio": ratio, "trusted": v != "REJECTED"} for v in verdicts]
    return {"kind": "compare", "a": {"kernel": a}, "b": {"kernel": b}, "runs": runs,
            "min_effect": min_effect}


class PowerTableTest(unittest.TestCase):
    def test_false_alarms_against_itself_and_power_against_a_slower_kernel(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, c in enumerate([
                    compare("base", "base", ["SAME"] * 97 + ["SLOWER", "FASTER"] + ["REJECTED"]),
                    compare("base", "slower_2", ["SLOWER"] * 8 + ["SAME", "AMBIGUOUS"], 1.021)]):
                path = os.path.join(tmp, "c%d.json" % i)
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(c, f)
                paths.append(path)
            same, slower = power_table.pair_rows(paths)
        self.assertEqual((same["what"], same["runs"], same["untrusted"]), ("false alarms", 99, 1))
        self.assertAlmostEqual(same["rate"], 2 / 99)  # SLOWER and FASTER both are false alarms
        self.assertEqual((slower["what"], slower["rate"], slower["ratio"]), ("power", 0.8, 1.021))
        self.assertLess(slower["low"], 0.8)
        self.assertGreater(slower["high"], 0.8)

    def test_a_twin_is_the_same_code_so_its_verdicts_are_false_alarms(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "twin.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(compare("tiny_base", "tiny_base_twin", ["SAME"] * 9 + ["SLOWER"]), f)
            (row,) = power_table.pair_rows([path])
        self.assertEqual((row["what"], row["rate"]), ("false alarms", 0.1))

    def test_rejudging_a_launch_bound_run_applies_the_rule_at_the_new_minimum_effect(self):
        def run(ratio, lo, hi, p=1e-6):
            return {"verdict": "SAME", "trusted": True, "contexts": {"calls": 21}, "ratio": ratio,
                    "ci_low": lo, "ci_high": hi, "mann_whitney_p": p}
        result = {"a": {"kernel": "tiny_base"}, "b": {"kernel": "tiny_fma_16"}, "runs": [
            run(1.017, 1.012, 1.019),             # SAME within +-2 %; SLOWER at 1.5 %
            run(1.013, 1.010, 1.016),             # under 1.5 %, CI past it: AMBIGUOUS
            run(1.012, 1.010, 1.014),             # CI within +-1.5 %: SAME
            run(1.017, 1.012, 1.019, p=0.02)]}    # not significant at 1 %: AMBIGUOUS
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tiny.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(result, f)
            (row,) = power_table.pair_rows([path], min_effect=0.015)
            (as_recorded,) = power_table.pair_rows([path])
        self.assertEqual(row["verdicts"], {"SLOWER": 1, "AMBIGUOUS": 2, "SAME": 1})
        self.assertEqual(as_recorded["verdicts"], {"SAME": 4})

    def test_a_streaming_run_is_not_rejudged(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "stream.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(compare("base", "base", ["SAME"]), f)
            with self.assertRaises(SystemExit) as refused:
                power_table.pair_rows([path], min_effect=0.015)
        self.assertIn("streaming run", str(refused.exception.code))

    def test_identical_pairs_pool_with_their_upper_bounds(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, c in enumerate([compare("base", "base", ["SAME"] * 150),
                                   compare("tiny_base", "tiny_base_twin", ["SAME"] * 160),
                                   compare("base", "slower_2", ["SLOWER"] * 40)]):
                paths.append(os.path.join(tmp, "c%d.json" % i))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    json.dump(c, f)
            self.assertEqual(power_table.pooled_false_alarms(power_table.pair_rows(paths)),
                             (310, 0, [0.015]))
        self.assertAlmostEqual(power_table.one_sided_upper(0, 310), 0.00962, places=5)
        self.assertIsNone(power_table.one_sided_upper(1, 310))  # only the no-event case

    def test_pooling_pairs_judged_at_different_minimum_effects_is_flagged(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, c in enumerate([compare("base", "base", ["SAME"] * 10, min_effect=0.02),
                                   compare("base", "base", ["SAME"] * 10, min_effect=0.015)]):
                paths.append(os.path.join(tmp, "c%d.json" % i))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    json.dump(c, f)
            rows = power_table.pair_rows(paths)
            self.assertEqual(power_table.pooled_false_alarms(rows), (20, 0, [0.015, 0.02]))
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                power_table.main(paths)
        self.assertIn("different minimum effects (0.015, 0.02)", err.getvalue())

    def test_a_minimum_effect_outside_zero_to_one_is_refused(self):
        for bad in ("0", "1.5", "-0.01"):
            with self.assertRaises(SystemExit) as refused:
                power_table.main(["--rejudge", bad, "x.json"])
            self.assertIn("fraction in (0, 1)", str(refused.exception.code))

    def test_wilson_interval(self):
        low, high = power_table.wilson(0, 200)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 0.0188, places=3)  # 0 of 200: at most ~1.9 % at 95 %
        self.assertEqual(power_table.wilson(0, 0), (0.0, 1.0))


if __name__ == "__main__":
    unittest.main()
