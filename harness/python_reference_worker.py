"""kblaster's PyTorch reference worker (docs/harness-protocol.md, "PyTorch references").

The harness starts it in its own sandbox and sends one JSON request per line on stdin:

  {"op": "run", "module": PATH, "class": NAME,
   "inputs":  [{"name", "file", "type", "dims"}, ...],
   "outputs": [{"name", "file", "type", "dims"}, ...]}

It builds NAME from the module at PATH once (Model(*get_init_inputs()) after
torch.manual_seed(0), moved to CUDA when torch has it, in eval mode, or in training mode when
requests carry "train": true), reads each input's raw
bytes, calls forward(*inputs) under torch.no_grad(), and writes each returned tensor's bytes,
converted to the output's type, to its file. It answers one line on the protocol pipe:
{"ok": true, "runtime": "torch X on DEVICE"} or {"ok": false, "error": TEXT}. The module's own
prints go to stderr, so they never reach the protocol. Every request carries "vary": true when the
kernel is handed the module's state: that module is built apart, its constant floating-point
tensors replaced by seeded varied values (vary_constants).

  {"op": "state", "module", "class", "state": [{"name", "file", "type", "dims"}, ...]}

writes the built module's own tensors (Model.state_dict(): parameters and buffers) named by
"name", converted to "type", to each file, for a kernel that takes the module's weights as
inputs; answers {"ok": true, "runtime"}.

  {"op": "time", "module", "class", "mode": "eager"|"compile", "count": N, "l2_bytes": L,
   "inputs": [...] or null (the last ones)}

times forward as kblaster times a kernel: before each of N samples the L2 is flushed (a
2 x L2 buffer zeroed) and the stream is held behind a GPU spin (torch.cuda._sleep) while the call
is queued, then CUDA events around one call, so that the sample is the GPU's time and not
Python's dispatch (torch.compile's guards take tens of microseconds on the host). A sample whose
start event the stream reached before the call was queued is dropped, and two in a row double
the spin (up to HOLD_LIMIT_S); a forward that still cannot be queued within it (one that waits
for the GPU itself) is timed unheld, and the runtime says so. The first request of a mode warms
it up with 3 untimed calls (torch.compile compiles there). Answers {"ok": true, "samples":
[seconds], "runtime"}. Without CUDA (the CI stand-in) it times with the host clock and says so.
"""

import importlib.util
import json
import math
import os
import sys
import time
import traceback

TYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
         "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
         "bool": "bool"}


class Refusal(Exception):
    """A request the worker cannot serve, said in the spec's terms."""


def dtype(torch, name):
    if name not in TYPES:
        raise Refusal(f"unknown element type {name!r}")
    return getattr(torch, TYPES[name])


def build(torch, module_path, class_name, train=False):
    spec = importlib.util.spec_from_file_location("kblaster_reference", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = getattr(module, class_name, None)
    if cls is None:
        raise Refusal(f"the module defines no `{class_name}`")
    init = getattr(module, "get_init_inputs", None)
    torch.manual_seed(0)
    model = cls(*(init() if init else []))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if hasattr(model, "to"):
        model = model.to(device)
    if train and hasattr(model, "train"):
        model.train()  # as KernelBench runs its Models: BatchNorm normalises by the batch
    elif hasattr(model, "eval"):
        model.eval()
    return model, device


def read_input(torch, item, device):
    with open(item["file"], "rb") as f:
        data = bytearray(f.read())
    t = dtype(torch, item["type"])
    tensor = torch.frombuffer(data, dtype=t) if data else torch.empty(0, dtype=t)
    return tensor.reshape(item["dims"]).to(device)


def write_output(torch, tensor, item, what):
    """Writes `tensor`, converted to item's type, to item's file; `what` names it in errors."""
    if not isinstance(tensor, torch.Tensor):
        raise Refusal(f"{what} is a {type(tensor).__name__}, not a tensor")
    want = math.prod(item["dims"])
    if tensor.numel() != want:
        raise Refusal(f"{what} has shape "
                      f"{list(tensor.shape)} ({tensor.numel()} elements); the spec declares "
                      f"{item['dims']} ({want})")
    flat = tensor.detach().to("cpu").to(dtype(torch, item["type"])).contiguous().reshape(-1)
    with open(item["file"], "wb") as f:
        f.write(flat.view(torch.uint8).numpy().tobytes())


def own_tensors(model):
    """The module's own tensors by name: its parameters, then its buffers (non-persistent ones
    too, which state_dict leaves out though forward may use them)."""
    if not hasattr(model, "named_parameters"):
        return {}
    return {**dict(model.named_parameters()), **dict(model.named_buffers())}


def write_state(request, models):
    import torch

    model, device = model_for(torch, request, models)
    state = own_tensors(model)
    for item in request["state"]:
        if item["name"] not in state:
            have = ", ".join(f"`{n}`" for n in list(state)[:20]) or "none"
            raise Refusal(f"the module has no state `{item['name']}` (its parameters and "
                          f"buffers: {have})")
        tensor = state[item["name"]]
        if tensor.is_floating_point() and item["type"] not in ("f64", "f32", "f16", "bf16"):
            raise Refusal(f"the module's `{item['name']}` is {str(tensor.dtype)[6:]}: a buffer of "
                          f"{item['type']} would cut its fractions off; declare a float type")
        write_output(torch, tensor, item, f"the module's state `{item['name']}`")
    return {"ok": True, "runtime": f"torch {torch.__version__} on {device}"}


def vary_constants(torch, model):
    """Replaces each floating-point tensor of the module whose elements are all equal (a fresh
    norm layer's weight of ones, its bias, running mean and variance) by values drawn from
    [0.5, 1.5) with a fixed seed, in place: a kernel handed the module's state that ignores it
    then fails, where ones and zeros would have let it pass."""
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for tensor in own_tensors(model).values():
            flat = tensor.reshape(-1)
            if tensor.is_floating_point() and flat.numel() > 0 and bool((flat == flat[0]).all()):
                varied = torch.rand(list(tensor.shape), generator=generator) + 0.5
                tensor.copy_(varied.to(tensor.dtype).to(tensor.device))


def model_for(torch, request, models):
    key = (request["module"], request["class"], bool(request.get("vary")),
           bool(request.get("train")))
    if key not in models:
        model, device = build(torch, key[0], key[1], key[3])
        if key[2]:
            vary_constants(torch, model)
        models[key] = (model, device)
    return models[key]


HOLD_START_S = 50e-6  # the first spin; most forwards queue within it
HOLD_LIMIT_S = 0.05  # the longest spin: a forward that cannot queue within it is timed unheld


class Hold:
    """Holds a stream behind a GPU spin while a call is queued, so that a CUDA event pair
    around the call times the GPU, not the host. A sample was held when, once everything was
    queued, the stream had not yet reached its start event. The spin's length is in SM cycles,
    measured once against CUDA events; two misses in a row double it (one is the host being
    preempted: that sample alone is dropped), up to HOLD_LIMIT_S, where two more give up."""

    def __init__(self, torch):
        self.torch = torch
        self.sleep = getattr(torch.cuda, "_sleep", None)
        self.seconds = HOLD_START_S
        self.missed = False
        self.given_up = self.sleep is None
        self.cycles_per_s = self._calibrate() if self.sleep else 0.0

    def _calibrate(self):
        torch = self.torch
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        rates = []
        for _ in range(3):
            start.record()
            self.sleep(1_000_000)
            end.record()
            end.synchronize()
            rates.append(1_000_000 / (start.elapsed_time(end) / 1e3))
        return sorted(rates)[1]

    def usable(self):
        return not self.given_up

    def spin(self):
        self.sleep(max(int(self.seconds * self.cycles_per_s), 1))

    def held(self, start):
        """Whether the stream was still held when the call was queued: its start event not yet
        reached. A second miss in a row doubles the spin, or gives up at the longest."""
        if not start.query():
            self.missed = False
            return True
        if self.missed:
            if self.seconds >= HOLD_LIMIT_S:
                self.given_up = True
            self.seconds = min(2 * self.seconds, HOLD_LIMIT_S)
        self.missed = not self.missed
        return False


def cuda_samples(torch, fn, inputs, count, l2_bytes, hold):
    """`count` GPU times of fn(*inputs), each after an L2 flush, all held while queued or, once
    the hold gives up, all unheld."""
    scratch = torch.empty(max(2 * int(l2_bytes) // 4, 1), dtype=torch.float32, device="cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    while len(samples) < count:
        held = hold.usable()
        scratch.zero_()
        if held:
            hold.spin()
        start.record()
        fn(*inputs)
        end.record()
        if held and not hold.held(start):
            end.synchronize()
            if not hold.usable():
                samples = []  # given up: this request's samples are all of one kind
            continue  # the GPU may have idled inside the sample: drop it
        end.synchronize()
        samples.append(start.elapsed_time(end) / 1e3)
    return samples


def time_forward(request, models, state):
    import torch

    model, device = model_for(torch, request, models)
    if request.get("inputs") is not None:
        state["inputs"] = [read_input(torch, item, device) for item in request["inputs"]]
    if "inputs" not in state:
        raise Refusal("no inputs to time forward on")
    mode = request["mode"]
    if mode not in ("eager", "compile"):
        raise Refusal(f"unknown mode {mode!r}")
    key = (request["module"], request["class"], bool(request.get("vary")),
           bool(request.get("train")), mode)
    if key not in state:
        state[key] = model if mode == "eager" else torch.compile(model)
        with torch.no_grad():
            for _ in range(3):
                state[key](*state["inputs"])
    fn, inputs = state[key], state["inputs"]
    samples = []
    note = " (host clock: no CUDA)"
    with torch.no_grad():
        if device == "cuda":
            hold = state.get(("hold",) + key) or Hold(torch)
            state[("hold",) + key] = hold
            samples = cuda_samples(torch, fn, inputs, int(request["count"]),
                                   request["l2_bytes"], hold)
            note = "" if hold.usable() else (
                " (unheld: torch has no cuda._sleep)" if hold.sleep is None else
                f" (unheld: forward took over a {HOLD_LIMIT_S * 1e3:g}-ms spin to queue, so "
                f"its host time is in the samples)")
        else:
            for _ in range(int(request["count"])):
                t0 = time.perf_counter()
                fn(*inputs)
                samples.append(time.perf_counter() - t0)
    return {"ok": True, "samples": samples,
            "runtime": f"torch {torch.__version__} on {device}{note}"}


def run(request, models):
    import torch  # imported on the first request, so a worker without torch says so there

    model, device = model_for(torch, request, models)
    inputs = [read_input(torch, item, device) for item in request["inputs"]]
    with torch.no_grad():
        result = model(*inputs)
    if isinstance(result, torch.Tensor):
        result = (result,)
    result = tuple(result)
    if len(result) != len(request["outputs"]):
        names = ", ".join(f"`{o['name']}`" for o in request["outputs"])
        raise Refusal(f"forward returned {len(result)} tensor(s); the spec declares "
                      f"{len(request['outputs'])} output(s) ({names})")
    for index, (tensor, item) in enumerate(zip(result, request["outputs"])):
        write_output(torch, tensor, item, f"forward's result {index} (`{item['name']}`)")
    return {"ok": True, "runtime": f"torch {torch.__version__} on {device}"}


def main():
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    models, state = {}, {}
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("op") == "run":
                answer = run(request, models)
            elif request.get("op") == "state":
                answer = write_state(request, models)
            elif request.get("op") == "time":
                answer = time_forward(request, models, state)
            else:
                raise Refusal(f"unknown op {request.get('op')!r}")
        except Refusal as e:
            answer = {"ok": False, "error": str(e)}
        except ImportError as e:  # a package missing, or one that cannot load (a CUDA library)
            answer = {"ok": False, "missing": True,
                      "error": f"{e} (install it where the harness's python3 finds it, or set "
                               f"KBLASTER_PYTHON)"}
        except Exception as e:  # the module's own failure: say it with where it happened
            where = traceback.extract_tb(e.__traceback__)[-1]
            said = (f"{type(e).__name__}: {e} (at {os.path.basename(where.filename)}:"
                    f"{where.lineno})")
            # Out of memory (torch's OutOfMemoryError, the host's MemoryError) is the machine's,
            # as a missing package is ("missing": kblaster says it as exit 3): the GPU is shared
            # with the candidates the harness holds.
            if isinstance(e, MemoryError) or any(
                    c.__name__ == "OutOfMemoryError" for c in type(e).__mro__):
                answer = {"ok": False, "missing": True,
                          "error": f"out of memory running the reference, on a GPU shared with "
                                   f"the candidates under test: {said}"}
            else:
                answer = {"ok": False, "error": said}
        protocol.write(json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()
