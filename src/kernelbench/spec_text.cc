#include "kernelbench/spec_text.h"

#include <cstdio>
#include <map>

namespace kblaster {
namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

const char* c_type(const std::string& type) {
  static const std::map<std::string, const char*> types = {
      {"f32", "float"},   {"f64", "double"},  {"f16", "__half"},  {"bf16", "__nv_bfloat16"},
      {"i64", "int64_t"}, {"i32", "int32_t"}, {"i16", "int16_t"}, {"i8", "int8_t"},
      {"u8", "uint8_t"},  {"bool", "bool"}};
  return types.at(type);
}

}  // namespace

std::string kernels_toml(const std::vector<KernelBenchProblem>& problems,
                         const std::optional<ImportTolerance>& tolerance) {
  std::string s =
      "# Written by `kblaster import kernelbench`: one kernel per problem, checked against the\n"
      "# problem's own PyTorch Model (docs/config.md, \"PyTorch references\"). Each launcher\n"
      "# takes forward's inputs, then the Model's own tensors (its weights: state(NAME)), then\n"
      "# its outputs, as flat device buffers of the problem's sizes. Each Model runs in training\n"
      "# mode, as KernelBench runs it (BatchNorm normalises by the batch, not running stats).\n";
  for (const auto& p : problems) {
    s += "\n[[kernel]]\nname = \"" + p.kernel + "\"\nsource = \"" + p.kernel +
         ".cu\"\nlauncher = \"" + p.launcher + "\"\nreference = \"" + p.file +
         ":Model\"\nreference_mode = \"train\"\nargs = [\n";
    for (const auto& t : p.inputs)
      s += "  { name = \"" + t.name + "\", type = \"" + t.type +
           "\", shape = " + dims_text(t.dims) + " },\n";
    for (const auto& t : p.state)
      s += "  { name = \"" + t.name + "\", type = \"" + t.type +
           "\", shape = " + dims_text(t.dims) + ", init = \"state(" + t.state + ")\" },\n";
    for (const auto& t : p.outputs)
      s += "  { name = \"" + t.name + "\", type = \"" + t.type +
           "\", shape = " + dims_text(t.dims) + ", role = \"out\" },\n";
    s += "]\nsizes = [ {} ]\n";
    if (tolerance) {
      char line[96];
      std::snprintf(line, sizeof line, "tolerance = { rtol = %.17g, atol = %.17g }\n",
                    tolerance->rtol, tolerance->atol);
      s += line;
    }
  }
  return s;
}

std::string launcher_skeleton(const KernelBenchProblem& p) {
  std::string params, args;
  auto add = [&](const TensorDecl& t, bool input) {
    const std::string sep = params.empty() ? "" : ", ";
    params += sep + (input ? "const " : "") + c_type(t.type) + "* " + t.name;
    args += sep + t.name;
  };
  for (const auto& t : p.inputs) add(t, true);
  for (const auto& t : p.state) add(t, true);
  for (const auto& t : p.outputs) add(t, false);
  const std::string kernel = p.launcher + "_kernel";
  return "// " + p.kernel + ": the kernel for " + p.file +
         "'s Model, written by `kblaster import kernelbench` to start from.\n"
         "// It writes nothing yet, so `kblaster verify` fails it (output_unwritten) until the\n"
         "// kernel below computes what Model.forward does.\n"
         "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include <cstdint>\n\n"
         "__global__ void " +
         kernel + "(" + params + ") {}\n\nvoid " + p.launcher + "(" + params + ") {\n  " + kernel +
         "<<<1, 1>>>(" + args + ");\n}\n";
}

}  // namespace kblaster
