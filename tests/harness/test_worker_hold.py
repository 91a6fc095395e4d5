#!/usr/bin/env python3
"""The PyTorch worker's held timing (harness/python_reference_worker.py, Hold and cuda_samples)
against a recording stand-in for torch's CUDA calls: CI has no GPU, so the stand-in plays the
host clock and the stream (a spin ends its length after it was queued; the start event is
reached when it ends) and records every call in order. The real run is the device test
ATorchBaselineIsTimedEagerAndCompiled."""

import importlib.util
import os
import sys
import unittest

WORKER = os.path.join(os.path.dirname(__file__), "..", "..", "harness",
                      "python_reference_worker.py")
sys.dont_write_bytecode = True
spec = importlib.util.spec_from_file_location("worker", WORKER)
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)

KERNEL_MS = 0.005  # every forward's GPU time, as the stand-in's events report it
CYCLES_PER_S = 1e9  # the stand-in GPU's clock


class StandInTorch:
    """The torch calls the held timing makes, each logged; the stream is simulated."""

    float32 = "float32"

    def __init__(self, with_sleep=True):
        self.now = 0.0  # the host clock, moved only by forward calls
        self.log = []
        self.spins = []  # cycles of each timed torch.cuda._sleep
        self.spin_ends = None  # host time at which the last spin's stream reaches what follows
        self.calibrating = True
        torch = self

        class Event:
            def __init__(self, enable_timing):
                assert enable_timing

            def record(self):
                torch.log.append("record")

            def synchronize(self):
                pass

            def query(self):  # reached: the spin before it has ended
                torch.log.append("query")
                return torch.spin_ends is None or torch.now >= torch.spin_ends

            def elapsed_time(self, end):  # ms: a calibration spin's length, else the forward's
                if torch.calibrating:
                    return torch.last_cycles / CYCLES_PER_S * 1e3
                return KERNEL_MS

        class Cuda:
            pass

        Cuda.Event = Event
        if with_sleep:
            Cuda._sleep = staticmethod(self._sleep)
        self.cuda = Cuda

    def _sleep(self, cycles):
        self.last_cycles = cycles
        if not self.calibrating:
            self.log.append("sleep")
            self.spins.append(cycles)
            self.spin_ends = self.now + cycles / CYCLES_PER_S

    def empty(self, n, dtype, device):
        torch = self

        class Scratch:
            def zero_(self):
                torch.log.append("zero")
                torch.spin_ends = None

        return Scratch()


class Forward:
    """A forward whose host queueing takes the next of `queue_s` (the last one repeats)."""

    def __init__(self, torch, queue_s):
        self.torch, self.queue_s, self.calls = torch, list(queue_s), 0

    def __call__(self):
        self.calls += 1
        self.torch.log.append("forward")
        self.torch.now += self.queue_s.pop(0) if len(self.queue_s) > 1 else self.queue_s[0]


def sample(queue_s, count, with_sleep=True, hold=None, torch=None):
    torch = torch or StandInTorch(with_sleep)
    hold = hold or worker.Hold(torch)
    torch.calibrating = False
    torch.log.clear()  # the calibration's calls
    fn = Forward(torch, queue_s)
    samples = worker.cuda_samples(torch, fn, [], count, 1 << 20, hold)
    return samples, hold, torch, fn


class HeldTimingTest(unittest.TestCase):
    def test_a_forward_queued_within_the_spin_is_timed_behind_it_in_this_order(self):
        samples, hold, torch, fn = sample([10e-6], 2)
        self.assertEqual(samples, [KERNEL_MS / 1e3] * 2)
        self.assertEqual(torch.spins, [50_000] * 2)  # 50 us at the calibrated 1 GHz
        one = ["zero", "sleep", "record", "forward", "record", "query"]
        self.assertEqual(torch.log, one * 2)  # flush, spin, then the timed call; held checked
        self.assertTrue(hold.usable())

    def test_one_late_queueing_drops_that_sample_and_keeps_the_spin(self):
        samples, hold, torch, fn = sample([10e-6, 60e-6, 10e-6], 4)
        self.assertEqual(len(samples), 4)
        self.assertEqual(fn.calls, 5)  # the preempted one was dropped and taken again
        self.assertEqual(torch.spins, [50_000] * 5)

    def test_queueing_within_the_spin_but_past_80_percent_still_counts(self):
        samples, hold, torch, fn = sample([45e-6], 3)  # the stream is what decides, not a share
        self.assertEqual(fn.calls, 3)
        self.assertEqual(len(samples), 3)

    def test_two_misses_in_a_row_double_the_spin(self):
        samples, hold, torch, fn = sample([60e-6, 60e-6, 10e-6], 3)
        self.assertEqual(len(samples), 3)
        self.assertEqual(torch.spins, [50_000, 50_000, 100_000, 100_000, 100_000])
        self.assertAlmostEqual(hold.seconds, 100e-6)

    def test_the_spin_reaches_the_limit_itself_before_giving_up(self):
        samples, hold, torch, fn = sample([40e-3], 2)  # under the 50-ms limit, over 25.6 ms
        self.assertTrue(hold.usable())
        self.assertAlmostEqual(hold.seconds, worker.HOLD_LIMIT_S)
        self.assertEqual(torch.spins[-1], int(worker.HOLD_LIMIT_S * CYCLES_PER_S))

    def test_a_forward_that_never_queues_in_time_is_timed_unheld(self):
        samples, hold, torch, fn = sample([1.0], 3)  # it waits for the GPU itself
        self.assertEqual(len(samples), 3)
        self.assertFalse(hold.usable())
        self.assertEqual(torch.spins[-2:], [int(worker.HOLD_LIMIT_S * CYCLES_PER_S)] * 2)
        self.assertEqual(fn.calls - len(torch.spins), 3)  # the kept ones: taken without a spin

    def test_a_request_whose_hold_gives_up_keeps_no_held_sample(self):
        samples, hold, torch, fn = sample([10e-6, 10e-6, 1.0], 5)
        self.assertFalse(hold.usable())
        self.assertEqual(len(samples), 5)
        self.assertEqual(fn.calls - len(torch.spins), 5)  # all five unheld, none of the two

    def test_without_cuda_sleep_every_sample_is_unheld(self):
        samples, hold, torch, fn = sample([10e-6], 3, with_sleep=False)
        self.assertEqual(len(samples), 3)
        self.assertEqual(torch.spins, [])
        self.assertFalse(hold.usable())
        self.assertEqual(torch.log, ["zero", "record", "forward", "record"] * 3)


if __name__ == "__main__":
    unittest.main()
