#!/usr/bin/env python3
"""Tests of bench/ablation_table.py, the KB-cold vs KB-warm ablation table that decides issue 7.

Covers: the real H200 follow-up runs (bench/results/2026-11-30-h200/followup/ablation) give
warm 12, cold 8, p = 0.503; on synthetic result.json folders, the 95 % target (taken over the
pair's best_speedup_after chains), who wins when one or both reach it, "no gain found" and
missing results (neither compared), the one-seed and the seed_<s>/ layouts, and --cold-dir;
the two-sided sign test's p on known splits. Standard library only, no GPU; the script runs
as a subprocess of sys.executable. ctest runs this file as the test AblationTable."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "bench", "ablation_table.py")
FOLLOWUP = os.path.join(REPO, "bench", "results", "2026-11-30-h200", "followup", "ablation")
FOLLOWUP_KERNELS = ["softmax_slow", "scale_rows", "matmul_naive", "layernorm", "softmax"]


def run_table(*args):
    """The script's stdout for `args`; fails the calling test on a non-zero exit."""
    proc = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"ablation_table.py {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    return proc.stdout


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def pair_rows(out):
    """The per-pair table's rows as cell lists, header and separator left out. In the
    seed layout that is the table before "Over seeds", not the per-kernel summary."""
    first_table = out.split("\nOver seeds:")[0]
    lines = [l for l in first_table.splitlines() if l.startswith("| ")]
    return [cells(l) for l in lines[1:]]


def pair_row(out, kernel, seed=None):
    key = [kernel] if seed is None else [kernel, str(seed)]
    found = [r for r in pair_rows(out) if r[:len(key)] == key]
    if len(found) != 1:
        raise AssertionError(f"expected one row for {key}, found {len(found)} in:\n{out}")
    return found[0][len(key):]


def summary_row(out, label):
    """A row of the seed layout's over-seeds table, without its label."""
    summary = out.split("\nOver seeds:")[1]
    found = [cells(l) for l in summary.splitlines() if l.startswith(f"| {label} |")]
    if len(found) != 1:
        raise AssertionError(f"expected one summary row {label}, found {len(found)} in:\n{out}")
    return found[0][1:]


def write_run(folder, run, kernel, chain, speedup="chain"):
    """folder/run/kernel/result.json with only the fields the script reads: one step per
    best_speedup_after in `chain`, evaluations = len(chain), and `speedup` (default: the
    chain's best, FASTER above 1.0 and SAME otherwise)."""
    if speedup == "chain":
        best = max(chain, default=1.0)
        speedup = {"value": best, "verdict": "FASTER" if best > 1.0 else "SAME"}
    os.makedirs(os.path.join(folder, run, kernel))
    with open(os.path.join(folder, run, kernel, "result.json"), "w") as f:
        json.dump({"evaluations": len(chain), "speedup": speedup,
                   "steps": [{"best_speedup_after": x} for x in chain]}, f)


def load_script():
    sys.dont_write_bytecode = True  # no bench/__pycache__ in the source tree
    spec = importlib.util.spec_from_file_location("ablation_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FollowUpOnH200(unittest.TestCase):
    """The pre-registered follow-up's real runs: seeds 17 19 23 29, five kernels."""

    @classmethod
    def setUpClass(cls):
        cls.out = run_table(FOLLOWUP, *FOLLOWUP_KERNELS)

    def test_total_is_warm_12_cold_8_p_0503(self):
        self.assertIn("Seeds: 17, 19, 23, 29.", self.out)
        self.assertIn("Pairs: 20 (5 kernels x 4 seeds); missing 0, no gain found 0, compared 20.",
                      self.out)
        self.assertIn("Reached the target: cold 15, warm 15.", self.out)
        self.assertIn("Warm won 12, cold won 8, even 0;", self.out)
        self.assertIn("over the 20 decided pairs (taken as independent): p = 0.503.", self.out)
        self.assertEqual(summary_row(self.out, "**total**"),
                         ["4", "0", "0", "20", "15", "15", "4.90 / 2.80 (10)", "12", "8", "0"])

    def test_scale_rows_seed_17_warm_reaches_target_in_2_cold_in_7(self):
        self.assertEqual(pair_row(self.out, "scale_rows", 17),
                         ["1.332x FASTER, 8 evals", "1.335x FASTER, 8 evals", "1.315x", "7", "2", "warm"])

    def test_softmax_slow_seed_17_cold_never_reaches_target(self):
        self.assertEqual(pair_row(self.out, "softmax_slow", 17),
                         ["1.083x FASTER, 9 evals", "1.394x FASTER, 12 evals", "1.373x",
                          "not reached in 9", "12", "warm"])

    def test_per_kernel_wins(self):
        wins = {k: summary_row(self.out, k)[-3:] for k in FOLLOWUP_KERNELS}
        self.assertEqual(wins, {"softmax_slow": ["1", "3", "0"], "scale_rows": ["4", "0", "0"],
                                "matmul_naive": ["0", "4", "0"], "layernorm": ["3", "1", "0"],
                                "softmax": ["4", "0", "0"]})

    def test_kernels_are_listed_in_the_order_given(self):
        order = list(dict.fromkeys(r[0] for r in pair_rows(self.out)))
        self.assertEqual(order, FOLLOWUP_KERNELS)

    def test_without_kernels_every_kernel_folder_sorted_by_name(self):
        # The seed folders also hold warm_for_<k>.sqlite and cold_<k>.json files; only
        # folders name kernels.
        out = run_table(FOLLOWUP)
        order = list(dict.fromkeys(r[0] for r in pair_rows(out)))
        self.assertEqual(order, sorted(FOLLOWUP_KERNELS))
        self.assertIn("Warm won 12, cold won 8, even 0;", out)


class SyntheticSeedLayout(unittest.TestCase):
    """OUT/seed_<s>/{cold,warm}_<k>/<k>/result.json written by the test."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def seed(self, s):
        return os.path.join(self.dir, f"seed_{s}")

    def test_only_one_reaching_the_target_wins_even_with_more_evaluations(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.10])
        write_run(self.seed(1), "warm_k", "k", [1.0, 1.0, 1.0, 1.20])
        write_run(self.seed(2), "cold_k", "k", [1.0, 1.0, 1.0, 1.20])
        write_run(self.seed(2), "warm_k", "k", [1.10])
        out = run_table(self.dir)
        self.assertEqual(pair_row(out, "k", 1)[2:], ["1.190x", "not reached in 2", "4", "warm"])
        self.assertEqual(pair_row(out, "k", 2)[2:], ["1.190x", "4", "not reached in 1", "cold"])
        self.assertIn("Reached the target: cold 1, warm 1. Warm won 1, cold won 1, even 0;", out)

    def test_fewer_evaluations_to_target_wins(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.0, 1.5])
        write_run(self.seed(1), "warm_k", "k", [1.0, 1.5, 1.5])
        out = run_table(self.dir)
        self.assertEqual(pair_row(out, "k", 1)[3:], ["3", "2", "warm"])
        self.assertEqual(summary_row(out, "k")[6:], ["3.00 / 2.00 (1)", "1", "0", "0"])

    def test_same_evaluations_to_target_is_even_and_not_decided(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.2, 1.2])
        write_run(self.seed(1), "warm_k", "k", [1.0, 1.2])
        out = run_table(self.dir)
        self.assertEqual(pair_row(out, "k", 1)[3:], ["2", "2", "even"])
        self.assertIn("Warm won 0, cold won 0, even 1; two-sided sign test over the 0 decided "
                      "pairs (taken as independent): p = 1.000.", out)

    def test_neither_gained_is_no_gain_found_and_not_compared(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.0])
        write_run(self.seed(1), "warm_k", "k", [1.0, 0.98])
        out = run_table(self.dir)
        self.assertEqual(pair_row(out, "k", 1),
                         ["1.000x SAME, 2 evals", "1.000x SAME, 2 evals", "no gain found", "-", "-", "-"])
        self.assertEqual(summary_row(out, "k")[:5], ["1", "0", "1", "0", "0"])
        self.assertIn("missing 0, no gain found 1, compared 0.", out)
        self.assertIn("Warm won 0, cold won 0, even 0;", out)

    def test_missing_result_json_is_missing_and_not_compared(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.5])
        os.makedirs(os.path.join(self.seed(1), "warm_k", "k"))  # a run that wrote no result
        write_run(self.seed(2), "warm_k", "k", [1.0, 1.5])
        write_run(self.seed(3), "cold_k", "k", [1.0, 1.1])
        write_run(self.seed(3), "warm_k", "k", [1.2])
        os.makedirs(self.seed(4))
        out = run_table(self.dir, "k")
        self.assertEqual(pair_row(out, "k", 1),
                         ["1.500x FASTER, 2 evals", "no result", "warm result missing", "-", "-", "-"])
        self.assertEqual(pair_row(out, "k", 2)[2:], ["cold result missing", "-", "-", "-"])
        self.assertEqual(pair_row(out, "k", 4)[2:], ["cold and warm result missing", "-", "-", "-"])
        self.assertEqual(summary_row(out, "k")[:5], ["4", "3", "0", "1", "0"])
        self.assertIn("Pairs: 4 (1 kernels x 4 seeds); missing 3, no gain found 0, compared 1.", out)
        self.assertIn("Warm won 1, cold won 0, even 0;", out)

    def test_target_is_95_percent_of_the_pairs_best_gain(self):
        # Best 1.20x: target 1 + 0.95 * 0.20 = 1.19x. 1.19x reaches it, 1.18x does not.
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.20])
        write_run(self.seed(1), "warm_k", "k", [1.19])
        write_run(self.seed(2), "cold_k", "k", [1.0, 1.20])
        write_run(self.seed(2), "warm_k", "k", [1.18])
        # Another kernel's and another seed's bigger gain do not move this pair's target.
        write_run(self.seed(1), "cold_big", "big", [1.0, 3.0])
        write_run(self.seed(1), "warm_big", "big", [2.0])
        out = run_table(self.dir, "k", "big")
        self.assertEqual(pair_row(out, "k", 1)[2:], ["1.190x", "2", "1", "warm"])
        self.assertEqual(pair_row(out, "k", 2)[2:], ["1.190x", "2", "not reached in 1", "cold"])
        self.assertEqual(pair_row(out, "big", 1)[2:], ["2.900x", "2", "not reached in 1", "cold"])

    def test_target_comes_from_the_step_chain_not_the_final_speedup(self):
        write_run(self.seed(1), "cold_k", "k", [1.0, 1.2], speedup={"value": 1.6, "verdict": "FASTER"})
        write_run(self.seed(1), "warm_k", "k", [1.0, 1.2], speedup={"value": None, "verdict": "REJECTED"})
        write_run(self.seed(2), "cold_k", "k", [1.0, 1.2], speedup=None)
        write_run(self.seed(2), "warm_k", "k", [1.0, 1.2], speedup={"value": None})
        out = run_table(self.dir)
        self.assertEqual(pair_row(out, "k", 1),
                         ["1.600x FASTER, 2 evals", "REJECTED, 2 evals", "1.190x", "2", "2", "even"])
        self.assertEqual(pair_row(out, "k", 2)[:3],
                         ["no change kept, 2 evals", "no ratio, 2 evals", "1.190x"])

    def test_seeds_sort_as_numbers_and_top_level_runs_are_ignored(self):
        for s in (10, 2, 1):
            write_run(self.seed(s), "cold_k", "k", [1.0, 1.1])
            write_run(self.seed(s), "warm_k", "k", [1.1])
        write_run(self.dir, "cold_top", "top", [1.5])  # OUT's top level: ignored
        write_run(self.dir, "warm_top", "top", [1.5])
        out = run_table(self.dir)
        self.assertIn("Seeds: 1, 2, 10.", out)
        self.assertEqual([r[:2] for r in pair_rows(out)], [["k", "1"], ["k", "2"], ["k", "10"]])
        self.assertIn("Warm won 3, cold won 0, even 0;", out)

    def test_cold_dir_holds_the_cold_runs_and_adds_its_seeds(self):
        cold = os.path.join(self.dir, "cold_call")
        out_dir = os.path.join(self.dir, "warm_call")
        write_run(os.path.join(cold, "seed_1"), "cold_k", "k", [1.0, 1.0, 1.2])
        write_run(os.path.join(cold, "seed_2"), "cold_k", "k", [1.2])
        write_run(os.path.join(out_dir, "seed_1"), "warm_k", "k", [1.0, 1.2])
        write_run(os.path.join(out_dir, "seed_1"), "cold_k", "k", [1.2])  # not read: cold is in DIR
        out = run_table(out_dir, "--cold-dir", cold)
        self.assertIn("Seeds: 1, 2.", out)
        self.assertEqual(pair_row(out, "k", 1)[3:], ["3", "2", "warm"])
        self.assertEqual(pair_row(out, "k", 2)[2:], ["warm result missing", "-", "-", "-"])


class SyntheticOneSeedLayout(unittest.TestCase):
    """OUT/{cold,warm}_<k>/<k>/result.json with no seed_<s>/ folder."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def test_one_row_per_kernel_and_a_summary(self):
        write_run(self.dir, "cold_a", "a", [1.0, 1.0, 1.4])
        write_run(self.dir, "warm_a", "a", [1.4])
        write_run(self.dir, "cold_b", "b", [1.0, 1.1])
        write_run(self.dir, "warm_b", "b", [1.0])
        write_run(self.dir, "cold_c", "c", [1.0])
        write_run(self.dir, "warm_c", "c", [1.0])
        out = run_table(self.dir)
        self.assertNotIn("Seeds:", out)
        self.assertEqual([r[0] for r in pair_rows(out)], ["a", "b", "c"])
        self.assertEqual(pair_row(out, "a"), ["1.400x FASTER, 3 evals", "1.400x FASTER, 1 evals",
                                              "1.380x", "3", "1"])
        self.assertEqual(pair_row(out, "b")[2:], ["1.095x", "2", "not reached in 1"])
        self.assertEqual(pair_row(out, "c")[2:], ["no gain found", "-", "-"])
        self.assertIn("Kernels with a gain in either run: 2. Reached the target: cold 2, warm 1. "
                      "Warm won 1, cold won 1, even 0 (a win: reached the target alone, or in "
                      "fewer evaluations).", out)
        self.assertIn("Where both reached it (1): mean evaluations cold 3.00, warm 1.00.", out)
        self.assertNotIn("Missing results", out)

    def test_missing_results_are_listed_and_not_compared(self):
        write_run(self.dir, "cold_a", "a", [1.0, 1.4])
        out = run_table(self.dir, "a", "b")
        self.assertEqual(pair_row(out, "a")[2:], ["warm result missing", "-", "-"])
        self.assertEqual(pair_row(out, "b"), ["no result", "no result", "cold and warm result missing", "-", "-"])
        self.assertNotIn("Kernels with a gain", out)
        self.assertIn("Missing results, not compared: warm a, cold b, warm b.", out)

    def test_cold_dir_holds_the_cold_runs(self):
        cold = os.path.join(self.dir, "cold_call")
        out_dir = os.path.join(self.dir, "warm_call")
        write_run(cold, "cold_a", "a", [1.0, 1.0, 1.3])
        write_run(out_dir, "warm_a", "a", [1.0, 1.3])
        self.assertIn("Missing results, not compared: cold a.", run_table(out_dir))
        out = run_table(out_dir, "a", "--cold-dir", cold)  # options may follow kernels
        self.assertEqual(pair_row(out, "a")[2:], ["1.285x", "3", "2"])
        self.assertIn("Warm won 1, cold won 0, even 0 (", out)

    def test_seed_folders_only_in_the_cold_dir_are_an_error_not_a_layout(self):
        cold = os.path.join(self.dir, "cold_call")
        write_run(os.path.join(cold, "seed_7"), "cold_a", "a", [1.0, 1.3])
        out_dir = os.path.join(self.dir, "warm_call")
        write_run(out_dir, "warm_a", "a", [1.0, 1.3])
        proc = subprocess.run([sys.executable, SCRIPT, out_dir, "--cold-dir", cold],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("has seed_<s>/ folders but", proc.stderr)


class SignTest(unittest.TestCase):
    """ablation_table.sign_test: two-sided exact binomial test at p = 1/2."""

    @classmethod
    def setUpClass(cls):
        cls.sign_test = staticmethod(load_script().sign_test)

    def test_known_splits(self):
        self.assertEqual(f"{self.sign_test(15, 5):.3f}", "0.041")
        self.assertEqual(f"{self.sign_test(12, 8):.3f}", "0.503")
        self.assertAlmostEqual(self.sign_test(15, 5), 2 * 21700 / 2**20)  # 2 * P(X <= 5), X ~ B(20, 1/2)
        self.assertAlmostEqual(self.sign_test(5, 0), 2 / 32)

    def test_symmetric_in_its_sides(self):
        for a, b in ((15, 5), (12, 8), (7, 1)):
            self.assertEqual(self.sign_test(a, b), self.sign_test(b, a))

    def test_no_decided_pairs_or_an_even_split_is_1(self):
        self.assertEqual(self.sign_test(0, 0), 1.0)
        self.assertEqual(self.sign_test(10, 10), 1.0)  # 2 * P(X <= 10) > 1, capped

    def test_printed_with_the_total(self):
        with tempfile.TemporaryDirectory() as d:
            for s in range(20):  # warm reaches the target first on 15 seeds, cold on 5
                early, late = [1.5], [1.0, 1.5]
                write_run(os.path.join(d, f"seed_{s}"), "cold_k", "k", late if s < 15 else early)
                write_run(os.path.join(d, f"seed_{s}"), "warm_k", "k", early if s < 15 else late)
            out = run_table(d)
        self.assertIn("Warm won 15, cold won 5, even 0; two-sided sign test over the 20 decided "
                      "pairs (taken as independent): p = 0.041.", out)


if __name__ == "__main__":
    unittest.main()
