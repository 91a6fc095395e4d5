#!/usr/bin/env python3
"""bench/idle_share.py on a hand-made optimize result: the idle share recomputed from the
timeline, the idle stretches, and the waits for builds within them (issue 21 B2's reading)."""

import contextlib
import gzip
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import idle_share  # noqa: E402


def result(build_waits=None):
    timeline = {"gpu": [[2.0, 4.0, "verify and A/B"], [6.0, 10.0, "ncu"]], "model": []}
    if build_waits is not None:
        timeline["build_waits"] = build_waits
    return {"kernel": "softmax_cub", "seconds": 10.0, "gpu_busy_seconds": 6.0,
            "gpu_idle_share": 0.4, "timeline": timeline}


def report_of(r, name="result.json"):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "wt", encoding="utf-8") as f:
            json.dump(r, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            idle_share.report(path)
        return out.getvalue().replace(path, "RESULT")


class IdleShareTest(unittest.TestCase):
    def test_the_idle_share_and_its_stretches_come_from_the_timeline(self):
        text = report_of(result())
        self.assertIn("GPU busy 6.0 s (result says 6.0), idle 40.0% (result says 40.0%)", text)
        self.assertIn("idle    0.0-   2.0 s ( 2.0 s)", text)
        self.assertIn("idle    4.0-   6.0 s ( 2.0 s)", text)
        self.assertNotIn("waited for builds", text, "a result from before build_waits")

    def test_the_waits_for_builds_are_summed_and_placed_in_their_stretch(self):
        text = report_of(result([[0.5, 2.0, "3f2a"], [4.5, 5.0, "9c1d"]]))
        self.assertIn("waited for builds: 2.0 s in 2 waits (20.0% of the search)", text)
        self.assertIn("idle    0.0-   2.0 s ( 2.0 s); model calls in flight: none; "
                      "waiting for builds 1.5 s", text)
        self.assertIn("idle    4.0-   6.0 s ( 2.0 s); model calls in flight: none; "
                      "waiting for builds 0.5 s", text)

    def test_a_gzipped_result_reads_as_the_same_result(self):
        # The raw data under bench/results keeps result.json gzipped.
        self.assertEqual(report_of(result(), "result.json.gz"), report_of(result()))


if __name__ == "__main__":
    unittest.main()
