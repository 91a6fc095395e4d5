"""Describes one KernelBench-style problem for `kblaster import kernelbench`.

  python3 -B -c SCRIPT PROBLEM.py

Imports PROBLEM.py, builds Model(*get_init_inputs()) after torch.manual_seed(0), lists its own
tensors (parameters and buffers, which the kernel is handed as inputs), calls
get_inputs(), and runs forward on them (on the meta device when it can, so no real work is
done; else on the CPU) to learn each output's dtype and shape. Prints one JSON line:

  {"ok": true, "forward": [names], "inputs": [{"name", "dtype", "shape"}], "state": [...],
   "outputs": [...]}
  {"ok": false, "error": TEXT}

The module's own prints go to stderr.
"""

import importlib.util
import inspect
import json
import os
import sys


class Refusal(Exception):
    """What kblaster cannot import, said in its terms."""


def tensor_decl(torch, name, value, what):
    if not isinstance(value, torch.Tensor):
        raise Refusal(f"{what} is a {type(value).__name__}, not a tensor: a kblaster launcher "
                      f"takes buffers, and sizes come from their shapes")
    return {"name": name, "dtype": str(value.dtype).replace("torch.", ""),
            "shape": [int(d) for d in value.shape]}


def describe(path):
    import torch

    spec = importlib.util.spec_from_file_location("kblaster_problem", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for need in ("Model", "get_inputs"):
        if not hasattr(module, need):
            raise Refusal(f"it defines no `{need}`")
    torch.manual_seed(0)
    init = list(module.get_init_inputs()) if hasattr(module, "get_init_inputs") else []
    model = module.Model(*init)
    # Its parameters, then its buffers (non-persistent ones too: forward may use them), but not
    # BatchNorm's step counter, which forward in eval mode does not read.
    own = ({**dict(model.named_parameters()), **dict(model.named_buffers())}
           if hasattr(model, "named_parameters") else {})
    state = [tensor_decl(torch, n, t, f"the module's state `{n}`") for n, t in own.items()
             if not n.endswith("num_batches_tracked")]
    inputs = list(module.get_inputs())
    names = list(inspect.signature(model.forward).parameters)
    if len(names) != len(inputs):
        raise Refusal(f"forward takes {len(names)} argument(s), get_inputs returns {len(inputs)}")
    decls = [tensor_decl(torch, n, x, f"get_inputs()[{i}] (`{n}`)")
             for i, (n, x) in enumerate(zip(names, inputs))]
    try:
        with torch.no_grad():
            result = model.to("meta")(*[x.to("meta") for x in inputs])
    except Exception:  # an op without a meta kernel: run it for real
        with torch.no_grad():
            result = module.Model(*init)(*inputs)
    if isinstance(result, torch.Tensor):
        result = (result,)
    result = list(result)
    outs = ["out"] if len(result) == 1 else [f"out{i}" for i in range(len(result))]
    outputs = [tensor_decl(torch, n, t, f"forward's result {i}")
               for i, (n, t) in enumerate(zip(outs, result))]
    return {"ok": True, "forward": names, "inputs": decls, "state": state, "outputs": outputs}


def main():
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        answer = describe(sys.argv[1])
    except Refusal as e:
        answer = {"ok": False, "error": str(e)}
    except ModuleNotFoundError as e:
        answer = {"ok": False, "error": f"{e} (import needs torch where python3 finds it, or "
                                        f"KBLASTER_PYTHON)"}
    except Exception as e:
        answer = {"ok": False, "error": f"{type(e).__name__}: {e}"[:1000]}
    protocol.write(json.dumps(answer) + "\n")
    protocol.flush()


main()
