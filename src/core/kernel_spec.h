// The resolved, validated description of a kernel repository: what
// kblaster.toml and *.kblaster.toml declare (docs/config.md documents every field).
// All paths are relative to the repository root, '/'-separated and normalised.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/precondition.h"
#include "core/publish_config.h"
#include "core/shape_expr.h"

namespace kblaster {

// Where a value was written: "kblaster.toml:12:3".
struct SourceLocation {
  std::string file;  // relative to the repository root
  int line = 0;
  int column = 0;
  std::string str() const {
    return line > 0 ? file + ":" + std::to_string(line) + ":" + std::to_string(column) : file;
  }
};

enum class ArgRole { in, out, inout };
const char* role_name(ArgRole r);

// How the harness fills an input buffer. Never zeros: they hide unwritten outputs.
struct InitDist {
  enum class Kind { normal, uniform, randint, generator, state } kind = Kind::normal;
  double a = 0.0;    // normal: mean; uniform/randint: low (inclusive)
  double b = 1.0;    // normal: stddev; uniform/randint: high (exclusive for randint)
  std::string text;  // as written, for reports
  // generator: a host function in the CPU reference's file that fills the buffer,
  // `void f(T* data, std::int64_t count, std::uint64_t seed)` (T: the reference's type of it).
  std::string generator;
  // state: the name of a tensor in the PyTorch reference's Model.state_dict() ("conv.weight"),
  // the same for every seed: a weight the module holds, handed to the kernel as an input.
  std::string state;
};

// One launcher parameter, in launcher order. A buffer has a shape; a scalar does not.
struct ArgSpec {
  std::string name;
  DType type = DType::f32;
  ArgRole role = ArgRole::in;
  std::optional<ShapeExpr> shape;  // element count; present for buffers only
  // The tensor's dimensions when `shape` was written as a list (`shape = ["M", "K"]`): what a
  // PyTorch reference is handed; `shape` is then their product. Empty: one dimension.
  std::vector<ShapeExpr> dims;
  InitDist init;                      // buffers with role in/inout
  std::optional<double> value;        // a scalar fixed for every size
  std::vector<std::int64_t> tunable;  // a scalar the search may set; first is the default
  // The type a CPU reference takes this buffer in, when it differs from `type` (a bf16 kernel
  // checked against a float reference): inputs are converted to it, outputs back.
  std::optional<DType> reference_type;
  SourceLocation where;

  bool is_buffer() const { return shape.has_value(); }
  bool is_read() const { return role != ArgRole::out; }
  bool is_written() const { return role != ArgRole::in; }
};

// The function outputs are checked against.
struct ReferenceSpec {
  enum class Kind {
    cpu,            // a host function in .c/.cc/.cpp with the launcher's parameters
    gpu,            // a trusted launcher in a .cu file
    base_revision,  // the kernel's own source at the base revision
    python,  // a PyTorch module's class in a .py file, run by a Python worker the harness starts
  } kind = Kind::base_revision;
  std::string path;      // empty for base_revision
  std::string function;  // may be namespace-qualified; python: the module's class
  // python: forward runs in training mode (`reference_mode = "train"`, as KernelBench runs its
  // Models: BatchNorm normalises by the batch), else in eval mode.
  bool train = false;
};
const char* reference_kind_name(ReferenceSpec::Kind k);

// A preprocessor macro the search may set (-DNAME=VALUE); the first value is the default.
struct MacroTunable {
  std::string name;
  std::vector<std::string> values;
};

struct KernelSpec {
  std::string name;
  std::string source;    // the file the search may rewrite
  std::string launcher;  // host function in `source`, may be "ns::fn"
  ReferenceSpec reference;
  std::vector<ArgSpec> args;
  // One binding of the integer scalars per entry the kernel accepts (its `requires` hold with
  // the tunables' defaults); the first is timed, all are verified.
  std::vector<std::map<std::string, std::int64_t>> sizes;
  // Every entry of `sizes` as declared, accepted or not, in order.
  std::vector<std::map<std::string, std::int64_t>> declared_sizes;
  // The declared sizes left out, each with why: "requires `C % 4 == 0` (C=1001)", or, narrowed
  // to the sizes another kernel accepts too, "`fast` requires …".
  std::vector<std::pair<std::map<std::string, std::int64_t>, std::string>> left_out;
  // `requires`: what a launch needs of its scalars, tunables and constants.
  std::vector<Precondition> preconditions;
  Tolerance tolerance;  // resolved: explicit, or the loosest default of the outputs
  bool tolerance_is_default = true;
  std::optional<ShapeExpr> flops;  // floating-point operations per launch, if declared
  // The bytes one launch must move at the least, when the buffers overstate it (a gather that
  // reads part of a table); else every read buffer read once and every written one written once.
  std::optional<ShapeExpr> min_bytes;
  std::vector<MacroTunable> tunables;  // -D macros
  // Named integers that size things but are not launcher arguments (`constants`): usable in
  // shapes, flops, min_bytes and init bounds, bound beside every size's scalars.
  std::map<std::string, std::int64_t> constants;
  bool stream = false;                    // launcher takes a trailing cudaStream_t
  std::vector<std::string> include_dirs;  // project dirs, then the kernel's own
  std::vector<std::string> nvcc_flags;    // project flags, then the kernel's own
  SourceLocation where;                   // the [[kernel]] table
};

// Every size `spec` declares, accepted or not, in order (`declared_sizes`, or `sizes` when a
// spec was built without it).
inline const std::vector<std::map<std::string, std::int64_t>>& declared_sizes_of(
    const KernelSpec& spec) {
  return spec.declared_sizes.empty() ? spec.sizes : spec.declared_sizes;
}

struct ProjectConfig {
  std::string arch = "auto";  // "auto" = the GPU present (sm_90 when there is none), or "sm_NN"
  std::vector<std::string> include_dirs;
  std::vector<std::string> nvcc_flags = {"-O3", "-std=c++17"};
  std::vector<std::string> spec_globs = {"**/*.kblaster.toml"};
};

// The minimum effect of a regression verdict (`compare`, `check`): a change of the median under
// it is never SLOWER or FASTER. Chosen by a registered power study on the H200, in which it found a
// true 2 % slowdown of a launch-bound kernel 9 times in 10 and raised no false alarm in 310
// identical pairs (docs/cli.md). The search judges its children at VerdictCriteria's 2 %.
inline constexpr double kRegressionMinEffect = 0.015;

// The [check] table: how `kblaster check` turns its verdicts into an exit code.
struct CheckConfig {
  enum class FailOn {
    slower,  // exit 1 on a SLOWER verdict, a failed verification or a failed build
    error,   // exit 1 on a failed verification or a failed build only
    never,   // exit 0 whatever the verdicts (environment and usage errors still count)
  } fail_on = FailOn::slower;
  double min_effect = kRegressionMinEffect;  // smallest relative change that counts, in (0, 1)
};
const char* fail_on_name(CheckConfig::FailOn f);

// Everything loaded from one repository.
struct Config {
  ProjectConfig project;
  CheckConfig check;
  PublishConfig publish;
  std::vector<KernelSpec> kernels;      // in file order, kblaster.toml first
  std::vector<std::string> spec_files;  // every file read, kblaster.toml first
};

}  // namespace kblaster
