#include "kernelbench/problem.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "core/identifier.h"
#include "core/input_limits.h"

namespace kblaster {
namespace {

const std::map<std::string, std::string>& spec_types() {
  static const std::map<std::string, std::string> types = {
      {"float32", "f32"}, {"float16", "f16"}, {"bfloat16", "bf16"}, {"float64", "f64"},
      {"int64", "i64"},   {"int32", "i32"},   {"int16", "i16"},     {"int8", "i8"},
      {"uint8", "u8"},    {"bool", "bool"}};
  return types;
}

bool is_cpp_keyword(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof",   "and",    "asm",      "auto",      "bool",     "break",    "case",
      "catch",   "char",      "class",  "const",    "constexpr", "continue", "default",  "delete",
      "do",      "double",    "else",   "enum",     "explicit",  "export",   "extern",   "false",
      "float",   "for",       "friend", "goto",     "if",        "inline",   "int",      "long",
      "mutable", "namespace", "new",    "noexcept", "not",       "nullptr",  "operator", "or",
      "private", "protected", "public", "register", "return",    "short",    "signed",   "sizeof",
      "static",  "struct",    "switch", "template", "this",      "throw",    "true",     "try",
      "typedef", "typename",  "union",  "unsigned", "using",     "virtual",  "void",     "volatile",
      "while",   "xor",       "half",   "dim3",     "int64_t",   "int32_t"};
  return keywords.contains(name);
}

// `text` with every character a C identifier cannot hold made '_', and a leading digit kept
// behind `prefix`.
std::string c_name(const std::string& prefix, const std::string& text) {
  std::string s = prefix + text;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return s;
}

// One tensor of the description. A module's own one (`state`) is named by its state_dict name,
// which becomes a C identifier here.
Result<TensorDecl> tensor(const nlohmann::json& t, const std::string& file, bool state = false) {
  TensorDecl d;
  d.name = t.at("name").get<std::string>();
  if (state) {
    if (!is_module_tensor_name(d.name))
      return Error::config(file, "the module's state `" + d.name.substr(0, 64) +
                                     "` has a name kblaster cannot declare");
    d.state = d.name;
    d.name = c_name(std::isdigit(static_cast<unsigned char>(d.name[0])) ? "w" : "", d.name);
    // A deep module's names run long ("encoder.layers.11.attention.output.dense.weight"): kept
    // to 64 characters by their tail, which says most, behind a hash of the whole name.
    if (d.name.size() > 64) {
      std::uint32_t h = 2166136261u;  // FNV-1a: the same name on every toolchain
      for (unsigned char c : d.state) h = (h ^ c) * 16777619u;
      char hash[12];
      std::snprintf(hash, sizeof hash, "w%08x_", static_cast<unsigned>(h));
      d.name = hash + d.name.substr(d.name.size() - (64 - std::strlen(hash)));
    }
  }
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
  if (d.dims.size() > kMaxDimensions)
    return Error::config(
        file, "`" + d.name + "` has more than " + std::to_string(kMaxDimensions) + " dimensions");
  for (auto extent : d.dims)
    if (extent < 0) return Error::config(file, "`" + d.name + "` has a negative dimension");
  return d;
}

}  // namespace

Result<KernelBenchProblem> problem_from_description(const nlohmann::json& j,
                                                    const std::string& file) {
  try {
    if (!j.value("ok", false)) {
      // The module's words, as one line: a newline could forge a CI log's commands.
      std::string why = j.value("error", std::string("not described")).substr(0, 1000);
      for (char& c : why)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
      return Error::config(file, why);
    }
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
    for (const auto& t : j.value("state", nlohmann::json::array())) {
      auto d = tensor(t, file, true);
      if (!d) return d.error();
      p.state.push_back(std::move(*d));
    }
    for (const auto& t : j.at("outputs")) {
      auto d = tensor(t, file);
      if (!d) return d.error();
      p.outputs.push_back(std::move(*d));
    }
    if (p.outputs.empty()) return Error::config(file, "forward returns nothing");
    // Every parameter a C++ name of its own: a Python name that is a C++ keyword, or one an
    // output or an earlier input takes, gets a suffix until it is unique.
    std::set<std::string> taken;
    for (const auto& out : p.outputs) taken.insert(out.name);
    for (auto& in : p.inputs) {
      while (taken.contains(in.name) || is_cpp_keyword(in.name)) in.name += "_in";
      taken.insert(in.name);
    }
    for (auto& s : p.state) {
      while (taken.contains(s.name) || is_cpp_keyword(s.name)) s.name += "_w";
      taken.insert(s.name);
    }
    return p;
  } catch (const nlohmann::json::exception& e) {
    return Error::config(file, std::string("its description is malformed: ") + e.what());
  }
}

}  // namespace kblaster
