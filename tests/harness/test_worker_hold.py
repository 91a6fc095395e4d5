#!/usr/bin/env python3
"""The PyTorch worker's held timing (harness/python_reference_worker.py, Hold and cuda_samples)
against a recording stand-in for torch's CUDA calls: CI has no GPU, so the stand-in plays the
host clock and the stream, and records every spin and call it was given. The real run is the
device test ATorchBaselineIsTimedEagerAndCompiled."""

import importlib.util
import os
import unittest

WORKER = os.path.join(os.path.dirname(__file__), "..", "..", "harness",
                      "python_reference_worker.py")
spec = importlib.util.spec_from_file_location("worker", WORKER)
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)

KERNEL_MS = 0.005  # every forward's GPU time, as the stand-in's events report it
CYCLES_PER_MS = 1_000_000  # the stand-in GPU's clock: 1 GHz


class Clock:
    """The host clock the worker reads (time.perf_counter), moved only by forward calls."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


class StandInTorch:
    """The torch calls the held timing makes, recorded."""

    float32 = "float32"

    def __init__(self, clock, with_sleep=True):
        self.clock = clock
        self.spins = []  # cycles of each torch.cuda._sleep
        self.last_spin = None
        torch = self

        class Event:
            def __init__(self, enable_timing):
                assert enable_timing

            def record(self):
                pass

            def synchronize(self):
                pass

            def elapsed_time(self, end):  # ms: a calibration spin's length, else the forward's
                if torch.last_spin is not None:
                    ms, torch.last_spin = torch.last_spin / CYCLES_PER_MS, None
                    return ms
                return KERNEL_MS

        class Cuda:
            pass

        Cuda.Event = Event
        if with_sleep:
            Cuda._sleep = staticmethod(self._sleep)
        self.cuda = Cuda

    def _sleep(self, cycles):
        self.spins.append(cycles)
        self.last_spin = cycles

    def empty(self, n, dtype, device):
        class Scratch:
            def zero_(self):
                pass

        return Scratch()


class Forward:
    """A forward whose host queueing takes the next of `queue_s` (the last one repeats)."""

    def __init__(self, clock, torch, queue_s):
        self.clock, self.torch, self.queue_s, self.calls = clock, torch, list(queue_s), 0

    def __call__(self):
        self.calls += 1
        self.torch.last_spin = None  # the timed events follow; only calibration reads a spin
        self.clock.now += self.queue_s.pop(0) if len(self.queue_s) > 1 else self.queue_s[0]


def sample(queue_s, count, with_sleep=True):
    clock = Clock()
    torch = StandInTorch(clock, with_sleep)
    worker.time = clock
    hold = worker.Hold(torch)
    torch.spins.clear()  # the calibration's spins
    fn = Forward(clock, torch, queue_s)
    samples = worker.cuda_samples(torch, fn, [], count, 1 << 20, hold)
    return samples, hold, torch, fn


class HeldTimingTest(unittest.TestCase):
    def test_a_forward_that_queues_within_the_hold_is_timed_behind_it(self):
        samples, hold, torch, fn = sample([10e-6], 5)
        self.assertEqual(samples, [KERNEL_MS / 1e3] * 5)
        self.assertEqual(fn.calls, 5)
        self.assertEqual(torch.spins, [50_000] * 5)  # 50 us at the calibrated 1 GHz
        self.assertTrue(hold.usable())

    def test_one_slow_queueing_drops_that_sample_and_keeps_the_hold(self):
        samples, hold, torch, fn = sample([10e-6, 45e-6, 10e-6], 4)
        self.assertEqual(len(samples), 4)
        self.assertEqual(fn.calls, 5)  # the preempted one was dropped and taken again
        self.assertEqual(torch.spins, [50_000] * 5)

    def test_two_in_a_row_double_the_hold(self):
        samples, hold, torch, fn = sample([45e-6, 45e-6, 10e-6], 3)
        self.assertEqual(len(samples), 3)
        self.assertEqual(torch.spins, [50_000, 50_000, 100_000, 100_000, 100_000])
        self.assertAlmostEqual(hold.seconds, 100e-6)

    def test_a_forward_that_never_queues_in_time_is_timed_unheld(self):
        samples, hold, torch, fn = sample([1.0], 3)  # it waits for the GPU itself
        self.assertEqual(len(samples), 3)
        self.assertFalse(hold.usable())
        self.assertGreater(hold.seconds, worker.HOLD_LIMIT_S)
        unheld = fn.calls - len(torch.spins)
        self.assertEqual(unheld, 3)  # the samples kept are the ones taken without a spin

    def test_without_cuda_sleep_every_sample_is_unheld(self):
        samples, hold, torch, fn = sample([10e-6], 3, with_sleep=False)
        self.assertEqual(len(samples), 3)
        self.assertEqual(torch.spins, [])
        self.assertFalse(hold.usable())


if __name__ == "__main__":
    unittest.main()
