// libFuzzer target: load_config on a repository whose kblaster.toml is the input,
// then what `kblaster plan --json` does with every kernel that passed validation.
#include <cstddef>
#include <cstdint>

#include "core/config_loader.h"
#include "core/launch_plan.h"
#include "core/spec_json.h"
#include "fuzz_check.h"
#include "memory_tree.h"

namespace kblaster {
namespace {

// examples/kernels' files (empty: load_config reads only config files), so that a
// mutated source, reference, include_dirs or kernel_specs glob can name one that exists.
const char* const kExampleFiles[] = {
    "README.md",
    "include/kb_common.cuh",
    "kernels/axpy.cu",
    "kernels/layernorm.cu",
    "kernels/matmul_naive.cu",
    "kernels/reduce/reduce.cu",
    "kernels/relu_bench.cu",
    "kernels/scale_rows.cu",
    "kernels/softmax.cu",
    "kernels/softmax_slow.cu",
    "kernels/transpose.cu",
    "kernels/ref/axpy_ref.cpp",
    "kernels/ref/layernorm_ref.cpp",
    "kernels/ref/matmul_ref.cpp",
    "kernels/ref/reduce_sum_ref.cpp",
    "kernels/ref/relu_ref.cpp",
    "kernels/ref/scale_rows_ref.cpp",
    "kernels/ref/softmax_ref.cpp",
    "kernels/ref/transpose_ref.cpp",
};

// A second spec file, found when the input's [project].kernel_specs matches it.
const char* const kReduceSpec = R"toml([[kernel]]
name = "reduce_sum"
source = "reduce.cu"
launcher = "reduce_sum"
reference = "../ref/reduce_sum_ref.cpp:reduce_sum_ref"
args = [
  { name = "out", type = "f32", shape = "1", role = "out" },
  { name = "inp", type = "f32", shape = "n", init = "uniform(0,1)" },
  { name = "n",   type = "i32" },
]
sizes = [ { n = 33554432 }, { n = 1 } ]
)toml";

void plan_as_json(const KernelSpec& spec) {
  Result<KernelPlan> plan = plan_kernel(spec);
  if (!plan) fuzz_bug("kernel passed validation but cannot be planned: " + plan.error().message);
  nlohmann::json j = to_json(spec);
  for (const SizePlan& size : plan->sizes) j["sizes"].push_back(to_json(size));
  (void)j.dump(2);  // throws on text that is not UTF-8: an uncaught exception is a crash
}

}  // namespace
}  // namespace kblaster

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  std::map<std::string, std::string> files;
  for (const char* path : kExampleFiles) files[path] = "";
  files["kernels/reduce/reduce.kblaster.toml"] = kReduceSpec;
  files[kConfigFile] = std::string(reinterpret_cast<const char*>(data), size);
  Result<Config> config = load_config(MemoryTree(std::move(files)));
  if (!config) {
    expect_input_error(config.error());
    return 0;
  }
  for (const KernelSpec& spec : config->kernels) plan_as_json(spec);
  return 0;
}
