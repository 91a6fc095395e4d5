#!/usr/bin/env python3
"""Tests bench/ablation.sh's scheduling without a GPU: the order in which the GPU lanes take
(seed, kernel, arm) runs, DEADLINE, RESUME and the training-run check.

The boundary faked here is the one this machine cannot cross: `.device/kblaster` is a shell
script that answers `plan --json`, `kb merge` and `optimize` (it records each optimize call
with its lane and writes a result.json), and `nvidia-smi -L` lists two GPUs. The script under
test and bench/ablation_table.py are the real ones, copied into a scratch repository root."""
import os
import shutil
import stat
import subprocess
import tempfile
import time
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

FAKE_KBLASTER = r"""#!/bin/bash
case "$1" in
  plan) echo '{"kernels":[{"name":"a"},{"name":"b"},{"name":"c"}]}';;
  kb) [[ $2 == merge && $4 == --kb ]] || exit 9; echo "merge $*" >>"$FAKE_ROOT/calls.log"; touch "$5";;
  optimize)
    while (($#)); do
      case "$1" in --out) out=$2; shift;; --kernel) k=$2; shift;; --kb) kb=$2; shift;; esac
      shift
    done
    echo "optimize ${out#$FAKE_ROOT/} gpu=$CUDA_VISIBLE_DEVICES kb=${kb#$FAKE_ROOT/}" >>"$FAKE_ROOT/calls.log"
    sleep 0.05
    mkdir -p "$out/$k"
    echo '{"evaluations":2,"speedup":{"value":1.2,"verdict":"FASTER"},
           "steps":[{"best_speedup_after":1.0},{"best_speedup_after":1.2}]}' >"$out/$k/result.json"
    echo "  result: FASTER 1.2x" >&2;;
  *) exit 9;;
esac
"""


def executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class AblationSchedule(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="ablation-schedule-")
        self.addCleanup(shutil.rmtree, self.root)
        os.makedirs(os.path.join(self.root, "bench"))
        os.makedirs(os.path.join(self.root, "examples", "kernels"))
        for name in ("ablation.sh", "ablation_table.py"):
            shutil.copy(os.path.join(BENCH, name), os.path.join(self.root, "bench", name))
        os.makedirs(os.path.join(self.root, ".device"))
        executable(os.path.join(self.root, ".device", "kblaster"), FAKE_KBLASTER)
        os.makedirs(os.path.join(self.root, "bin"))
        executable(os.path.join(self.root, "bin", "nvidia-smi"),
                   "#!/bin/sh\necho 'GPU 0: fake'\necho 'GPU 1: fake'\n")
        for k in "abc":  # finished training runs of seed 7
            os.makedirs(os.path.join(self.root, "train", "seed_7", f"cold_{k}", k))
            open(os.path.join(self.root, "train", "seed_7", f"cold_{k}", k, "result.json"),
                 "w").close()
            open(os.path.join(self.root, "train", "seed_7", f"kb_{k}.sqlite"), "w").close()

    def ablation(self, phase, **env):
        e = dict(os.environ, FAKE_ROOT=self.root, ABLATION_DIR=os.path.join(self.root, "out"),
                 PATH=os.path.join(self.root, "bin") + os.pathsep + os.environ["PATH"], **env)
        r = subprocess.run(["bash", "bench/ablation.sh", phase, "4", "3", "1"], cwd=self.root,
                           env=e, capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def optimize_calls(self):
        path = os.path.join(self.root, "calls.log")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [line.split()[1:] for line in f if line.startswith("optimize ")]

    def test_with_train_seeds_both_queues_pairs_and_alternates_the_arms(self):
        out = self.ablation("both", TRAIN_DIR=os.path.join(self.root, "train"),
                            SEEDS="31 37", TRAIN_SEEDS="7", KERNELS="a b c")
        runs = [c[0].removeprefix("out/") for c in self.optimize_calls()]  # in start order
        pair_of = [r.split("/")[0] + "/" + r.split("_", 1)[1].split("_", 1)[1] for r in runs]
        # Pairs start in queue order, seed then kernel, the second seed's kernels rotated...
        self.assertEqual(list(dict.fromkeys(pair_of)),
                         ["seed_31/a", "seed_31/b", "seed_31/c",
                          "seed_37/b", "seed_37/c", "seed_37/a"])
        # ...and a pair's two arms side by side (all cold runs first would put them 6 apart).
        for pair in set(pair_of):
            first, second = (i for i, p in enumerate(pair_of) if p == pair)
            self.assertLessEqual(second - first, 2, pair)
        gpu_of = {c[0].removeprefix("out/"): c[1] for c in self.optimize_calls()}
        cold_gpus = {gpu_of[r] for r in runs if "/cold_" in r}
        self.assertEqual(cold_gpus, {"gpu=0", "gpu=1"}, "neither arm keeps to one GPU")
        warm_kbs = {c[2] for c in self.optimize_calls() if "/warm_" in c[0]}
        self.assertEqual(warm_kbs, {f"kb=out/seed_{s}/warm_for_{k}.sqlite"
                                    for s in (31, 37) for k in "abc"})
        self.assertIn("Pairs: 6 (3 kernels x 2 seeds); missing 0", out)

    def test_without_train_seeds_every_cold_run_comes_before_any_warm_run(self):
        self.ablation("both", SEEDS="31", KERNELS="a b c")
        runs = [c[0] for c in self.optimize_calls()]
        self.assertEqual(len(runs), 6)
        last_cold = max(i for i, r in enumerate(runs) if "/cold_" in r)
        first_warm = min(i for i, r in enumerate(runs) if "/warm_" in r)
        self.assertLess(last_cold, first_warm)

    def test_a_near_deadline_starts_nothing_and_resume_finishes_the_rest(self):
        common = dict(TRAIN_DIR=os.path.join(self.root, "train"), SEEDS="31",
                      TRAIN_SEEDS="7", KERNELS="a b", RESUME="1")
        out = self.ablation("both", DEADLINE=str(int(time.time()) + 30), **common)
        self.assertEqual(self.optimize_calls(), [])
        self.assertEqual(out.count("not started, the deadline is too near"), 4)
        self.ablation("both", **common)
        self.assertEqual(len(self.optimize_calls()), 4)
        out = self.ablation("both", **common)
        self.assertEqual(len(self.optimize_calls()), 4, "RESUME runs nothing twice")
        self.assertEqual(out.count("done in an earlier call"), 4)

    def test_a_missing_training_run_stops_only_the_warm_runs_that_need_it(self):
        os.remove(os.path.join(self.root, "train", "seed_7", "cold_c", "c", "result.json"))
        out = self.ablation("both", TRAIN_DIR=os.path.join(self.root, "train"), SEEDS="31",
                            TRAIN_SEEDS="7", KERNELS="a b c")
        warm = sorted(c[0] for c in self.optimize_calls() if "/warm_" in c[0])
        self.assertEqual(warm, ["out/seed_31/warm_c"])  # c's own training run is not used
        self.assertIn("seed_31/warm_a: not started, training run seed_7/cold_c is incomplete",
                      out)


if __name__ == "__main__":
    unittest.main()
