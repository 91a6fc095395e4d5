#!/usr/bin/env python3
"""Times the example kernels with the timers other projects use, for the noise
comparison in bench/results/: triton.testing.do_bench (median) and a torch
CUDA-event loop (KernelBench's method), ten repetitions each.

It calls the very objects kblaster builds (kblaster_entry from the generated
shim) through ctypes, on torch tensors of the timed size, so both sides time
the same launcher on the same GPU. Run on the GPU machine:
  python3 bench/noise/other_timers.py KBLASTER REPO CACHE_DIR > other_timers.json
"""
import ctypes
import json
import subprocess
import sys

import torch
import triton.testing

DTYPES = {"f64": torch.float64, "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "i64": torch.int64, "i32": torch.int32, "i16": torch.int16, "i8": torch.int8,
          "u8": torch.uint8, "bool": torch.bool}
CTYPES = {"f64": ctypes.c_double, "f32": ctypes.c_float, "i64": ctypes.c_int64, "i32": ctypes.c_int32,
          "i16": ctypes.c_int16, "i8": ctypes.c_int8, "u8": ctypes.c_uint8, "bool": ctypes.c_bool}
REPEATS = 10


def kblaster_json(kblaster, *args):
    out = subprocess.run([kblaster, *args, "--json"], check=False, capture_output=True, text=True)
    return json.loads(out.stdout)


def make_args(kernel, size, keep):
    """The void* array kblaster_entry takes: device pointers for buffers, pointers to scalars."""
    values = []
    buffers = iter(size["buffers"])
    for arg in kernel["args"]:
        if "shape" in arg:
            b = next(buffers)
            dtype = DTYPES[arg["type"]]
            if dtype.is_floating_point:
                t = torch.randn(b["elements"], device="cuda", dtype=dtype)
            else:
                t = torch.randint(0, 100, (b["elements"],), device="cuda", dtype=dtype)
            keep.append(t)
            values.append(ctypes.c_void_p(t.data_ptr()))
        else:
            value = arg.get("value", size["scalars"].get(arg["name"], (arg.get("tunable") or [0])[0]))
            c = CTYPES[arg["type"]](value)
            keep.append(c)
            values.append(ctypes.cast(ctypes.pointer(c), ctypes.c_void_p))
    return (ctypes.c_void_p * len(values))(*values)


def event_loop_median_ms(fn, iterations=100):
    for _ in range(10):
        fn()
    times = []
    for _ in range(iterations):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def spread(values):
    ordered = sorted(values)
    return (ordered[-1] - ordered[0]) / ordered[len(ordered) // 2]


def main():
    kblaster, repo, cache = sys.argv[1:4]
    plan = kblaster_json(kblaster, "plan", repo)
    build = kblaster_json(kblaster, "build", repo, "--cache-dir", cache)
    objects = {k["name"]: k["object"] for k in build["kernels"]}
    results = {}
    for kernel in plan["kernels"]:
        lib = ctypes.CDLL(objects[kernel["name"]], mode=ctypes.RTLD_LOCAL)
        entry = lib.kblaster_entry
        entry.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        entry.restype = ctypes.c_int
        keep = []
        args = make_args(kernel, kernel["sizes"][0], keep)

        def fn():
            status = entry(args, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
            if status != 0:
                raise RuntimeError(f"{kernel['name']}: kblaster_entry returned {status}")

        fn()
        torch.cuda.synchronize()
        do_bench = [triton.testing.do_bench(fn, return_mode="median") * 1e-3 for _ in range(REPEATS)]
        events = [event_loop_median_ms(fn) * 1e-3 for _ in range(REPEATS)]
        results[kernel["name"]] = {"do_bench_median_s": do_bench, "do_bench_spread": spread(do_bench),
                                   "event_loop_median_s": events, "event_loop_spread": spread(events)}
        print(f"{kernel['name']:14s} do_bench spread {spread(do_bench) * 100:6.2f}%  "
              f"event loop spread {spread(events) * 100:6.2f}%", file=sys.stderr)
    json.dump({"device": torch.cuda.get_device_name(), "repeats": REPEATS, "kernels": results}, sys.stdout, indent=2)


if __name__ == "__main__":
    main()
