#include "kernelbench/problem.h"

#include <map>

#include "core/identifier.h"

namespace kblaster {
namespace {

const std::map<std::string, std::string>& spec_types() {
  static const std::map<std::string, std::string> types = {
      {"float32", "f32"}, {"float16", "f16"}, {"bfloat16", "bf16"}, {"float64", "f64"},
      {"int64", "i64"},   {"int32", "i32"},   {"int16", "i16"},     {"int8", "i8"},
      {"uint8", "u8"},    {"bool", "bool"}};
  return types;
}

// `text` with every character a C identifier cannot hold made '_', and a leading digit kept
// behind `prefix`.
std::string c_name(const std::string& prefix, const std::string& text) {
  std::string s = prefix + text;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return s;
}

Result<TensorDecl> tensor(const nlohmann::json& t, const std::string& file) {
  TensorDecl d;
  d.name = t.at("name").get<std::string>();
  if (!is_identifier(d.name) || d.name.size() > 64)
    return Error::config(file, "`" + d.name.substr(0, 64) + "` cannot be a launcher parameter");
  const std::string dtype = t.at("dtype").get<std::string>();
  const auto it = spec_types().find(dtype);
  if (it == spec_types().end())
    return Error::config(
        file, "`" + d.name + "` is " + dtype.substr(0, 32) + ", which kblaster has no type for");
  d.type = it->second;
  d.dims = t.at("shape").get<std::vector<std::int64_t>>();
  if (d.dims.empty()) d.dims = {1};
  if (d.dims.size() > 8) return Error::config(file, "`" + d.name + "` has more than 8 dimensions");
  return d;
}

}  // namespace

Result<KernelBenchProblem> problem_from_description(const nlohmann::json& j,
                                                    const std::string& file) {
  try {
    if (!j.value("ok", false))
      return Error::config(file, j.value("error", std::string("not described")).substr(0, 1000));
    KernelBenchProblem p;
    p.file = file;
    p.kernel = file.substr(0, file.rfind('.'));
    if (!is_kernel_name(p.kernel) || p.kernel.size() > 64)
      return Error::config(file,
                           "its name cannot be a kernel's (letters, digits, _ . -; at most "
                           "64 characters)");
    p.launcher = c_name("run_", p.kernel);
    for (const auto& t : j.at("inputs")) {
      auto d = tensor(t, file);
      if (!d) return d.error();
      p.inputs.push_back(std::move(*d));
    }
    for (const auto& t : j.at("outputs")) {
      auto d = tensor(t, file);
      if (!d) return d.error();
      p.outputs.push_back(std::move(*d));
    }
    if (p.outputs.empty()) return Error::config(file, "forward returns nothing");
    for (auto& in : p.inputs)
      for (const auto& out : p.outputs)
        if (in.name == out.name) in.name += "_in";
    return p;
  } catch (const nlohmann::json::exception& e) {
    return Error::config(file, std::string("its description is malformed: ") + e.what());
  }
}

}  // namespace kblaster
