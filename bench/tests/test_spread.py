#!/usr/bin/env python3
"""bench/spread.py on hand-made bench results: spreads of cold and hot medians."""

import gzip
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import spread  # noqa: E402


def bench(cold, hot=None, trusted=True):
    m = {"median_s": cold, "trusted": trusted}
    if hot is not None:
        m["hot"] = {"median_s": hot}
    return {"kind": "bench", "kernels": [{"name": "axpy_small", "measurement": m}]}


class SpreadTest(unittest.TestCase):
    def test_spread_of_cold_and_hot_medians_across_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, (cold, hot) in enumerate([(4.0e-6, 3.00e-6), (4.2e-6, 3.01e-6),
                                              (4.4e-6, 3.02e-6), (1.0, None)]):
                path = os.path.join(tmp, "b%d.json" % i)
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(bench(cold, hot, trusted=cold < 1), f)
                paths.append(path)
            got = spread.medians(paths)
        self.assertEqual(got["axpy_small"]["cold"], [4.0e-6, 4.2e-6, 4.4e-6])  # untrusted left out
        self.assertAlmostEqual(spread.spread(got["axpy_small"]["cold"]), 0.4 / 4.2)
        self.assertAlmostEqual(spread.spread(got["axpy_small"]["hot"]), 0.02 / 3.01)
        self.assertIsNone(spread.spread([1.0]))

    def test_a_gzipped_result_is_read_as_its_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "b.json.gz")
            with gzip.open(path, "wt", encoding="utf-8") as f:
                json.dump(bench(4.0e-6, 2.0e-6), f)
            got = spread.medians([path])
        self.assertEqual(got["axpy_small"], {"cold": [4.0e-6], "hot": [2.0e-6]})


if __name__ == "__main__":
    unittest.main()
