// A KernelBench-style problem (a module with `Model`, `get_inputs` and `get_init_inputs`) as
// kblaster imports it: the tensors forward takes and returns, with spec types and dimensions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/status.h"

namespace kblaster {

struct TensorDecl {
  std::string name;                // a C identifier: forward's parameter, or out / out0, out1…
  std::string state;               // the module's own tensor: its state_dict name ("conv.weight")
  std::string type;                // a spec type name: f32, bf16, i64…
  std::vector<std::int64_t> dims;  // never empty: a 0-d tensor is [1]
};

struct KernelBenchProblem {
  std::string file;      // the problem's file name in its directory, e.g. "19_ReLU.py"
  std::string kernel;    // the kernel's name: the file's stem
  std::string launcher;  // run_<stem>, a C identifier
  // forward's inputs; the module's own tensors (weights, buffers), handed to the launcher after
  // the inputs and filled from the module (`init = "state(NAME)"`); forward's outputs.
  std::vector<TensorDecl> inputs, state, outputs;
};

// The problem described by describe_problem.py's answer `j` for `file`. An answer that says
// ok: false, or one kblaster cannot take (a dtype it has no type for, a name that cannot be a C
// identifier), is an Error::config whose message says why, for the import to report and skip.
Result<KernelBenchProblem> problem_from_description(const nlohmann::json& j,
                                                    const std::string& file);

}  // namespace kblaster
