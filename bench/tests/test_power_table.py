#!/usr/bin/env python3
"""bench/power_table.py on hand-made compare results: false alarms, power, Wilson intervals."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import power_table  # noqa: E402


def compare(a, b, verdicts, ratio=1.0):
    runs = [{"verdict": v, "ratio": ratio, "trusted": v != "REJECTED"} for v in verdicts]
    return {"kind": "compare", "a": {"kernel": a}, "b": {"kernel": b}, "runs": runs}


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

    def test_wilson_interval(self):
        low, high = power_table.wilson(0, 200)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 0.0188, places=3)  # 0 of 200: at most ~1.9 % at 95 %
        self.assertEqual(power_table.wilson(0, 0), (0.0, 1.0))


if __name__ == "__main__":
    unittest.main()
