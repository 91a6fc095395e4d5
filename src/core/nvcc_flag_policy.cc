#include "core/nvcc_flag_policy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "core/arch_name.h"
#include "core/source_tree.h"

namespace kblaster {
namespace {

using Problem = std::optional<std::string>;  // nullopt = the value is allowed

constexpr std::size_t kMaxValueLength = 256;

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

template <std::size_t N>
Problem one_of(std::string_view value, const std::array<std::string_view, N>& choices,
               std::string_view what) {
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return std::nullopt;
  std::string list;
  for (auto c : choices) list.append(list.empty() ? "" : ", ").append(c);
  return "`" + std::string(value) + "` is not " + std::string(what) + " (allowed: " + list + ")";
}

// A warning's name as -Wno-NAME takes it: letters, digits and '-'.
bool is_warning_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  });
}

Problem no_value(std::string_view) { return std::nullopt; }

Problem optimization_level(std::string_view v) {
  return one_of(v, std::array<std::string_view, 4>{"0", "1", "2", "3"}, "an optimisation level");
}

Problem on_off(std::string_view v) {
  return one_of(v, std::array<std::string_view, 2>{"true", "false"}, "true or false");
}

Problem register_count(std::string_view v) {
  if (is_digits(v)) return std::nullopt;
  return "`" + std::string(v) + "` is not a register count";
}

Problem cxx_standard(std::string_view v) {
  return one_of(v, std::array<std::string_view, 5>{"c++11", "c++14", "c++17", "c++20", "c++23"},
                "a C++ standard");
}

Problem macro_definition(std::string_view v) {
  if (is_identifier(v.substr(0, v.find('=')))) return std::nullopt;
  return "`" + std::string(v) + "` does not start with a macro name";
}

Problem macro_name(std::string_view v) {
  if (is_identifier(v)) return std::nullopt;
  return "`" + std::string(v) + "` is not a macro name";
}

Problem include_dir(std::string_view v) {
  if (normalize_relative(std::string(v))) return std::nullopt;
  return "`" + std::string(v) + "` must be a relative path inside the repository";
}

Problem library(std::string_view v) {
  return one_of(
      v,
      std::array<std::string_view, 11>{"cublas", "cublasLt", "cufft", "curand", "cusparse",
                                       "cusolver", "cudnn", "nvToolsExt", "nvrtc", "m", "gomp"},
      "a known library");
}

// sm_90, sm_90a, compute_90, compute_100f.
bool is_gpu_target(std::string_view v) {
  if (is_arch_name(v)) return true;
  return v.starts_with("compute_") && is_arch_name("sm_" + std::string(v.substr(8)));
}

Problem gpu_arch(std::string_view v) {
  if (is_gpu_target(v) || v == "native" || v == "all" || v == "all-major") return std::nullopt;
  return "`" + std::string(v) + "` is not a GPU architecture (like sm_90 or compute_90)";
}

// "sm_90", "sm_90,compute_90" or "[sm_90,compute_90]".
bool is_gpu_target_list(std::string_view v) {
  if (v.size() >= 2 && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
  for (;;) {
    const auto comma = v.find(',');
    if (!is_gpu_target(v.substr(0, comma))) return false;
    if (comma == std::string_view::npos) return true;
    v.remove_prefix(comma + 1);
  }
}

// arch=compute_90,code=sm_90 (code may be a list).
Problem gencode(std::string_view v) {
  const auto comma = v.find(",code=");
  if (v.starts_with("arch=") && comma != std::string_view::npos &&
      is_gpu_target(v.substr(5, comma - 5)) && is_gpu_target_list(v.substr(comma + 6)))
    return std::nullopt;
  return "`" + std::string(v) + "` is not of the form arch=compute_NN,code=sm_NN";
}

// A comma-separated list whose every item `allowed` accepts.
template <class Pred>
Problem option_list(std::string_view v, Pred allowed, std::string_view tool) {
  for (;;) {
    const auto comma = v.find(',');
    const std::string_view item = v.substr(0, comma);
    if (!allowed(item))
      return "`" + std::string(item) + "` is not an allowed " + std::string(tool) + " option";
    if (comma == std::string_view::npos) return std::nullopt;
    v.remove_prefix(comma + 1);
  }
}

Problem ptxas_options(std::string_view v) {
  static constexpr std::array<std::string_view, 14> kAllowed = {
      "-v",
      "--verbose",
      "-O0",
      "-O1",
      "-O2",
      "-O3",
      "-dlcm=ca",
      "-dlcm=cg",
      "-warn-spills",
      "--warn-on-spills",
      "-dscm=wt",
      "-warn-lmem-usage",
      "--warn-on-local-memory-usage",
      "--allow-expensive-optimizations=true"};
  return option_list(
      v,
      [](std::string_view item) {
        return std::find(kAllowed.begin(), kAllowed.end(), item) != kAllowed.end();
      },
      "ptxas");
}

Problem host_options(std::string_view v) {
  static constexpr std::array<std::string_view, 14> kAllowed = {"-O0",
                                                                "-O1",
                                                                "-O2",
                                                                "-O3",
                                                                "-Wall",
                                                                "-Wextra",
                                                                "-ffast-math",
                                                                "-funroll-loops",
                                                                "-fopenmp",
                                                                "-march=native",
                                                                "-mtune=native",
                                                                "-fno-strict-aliasing",
                                                                "-g",
                                                                "-w"};
  return option_list(
      v,
      [](std::string_view item) {
        if (std::find(kAllowed.begin(), kAllowed.end(), item) != kAllowed.end()) return true;
        if (item.starts_with("-D")) return !macro_definition(item.substr(2)).has_value();
        return item.starts_with("-Wno-") && is_warning_name(item.substr(5));
      },
      "host compiler");
}

enum class Attach { separate_only, may_attach };  // may_attach: "-DNAME" as well as "-D NAME"

struct FlagRule {
  std::string_view spelling;
  Problem (*check)(std::string_view value);  // no_value: the flag takes none
  Attach attach = Attach::separate_only;
};

// The allow-list. A flag that takes a value accepts it after '=' or as the next
// entry; may_attach ones also take it attached ("-O3", "-lcublas").
constexpr FlagRule kRules[] = {
    {"-O", optimization_level, Attach::may_attach},
    {"--optimize", optimization_level},
    {"-D", macro_definition, Attach::may_attach},
    {"--define-macro", macro_definition},
    {"-U", macro_name, Attach::may_attach},
    {"--undefine-macro", macro_name},
    {"-I", include_dir, Attach::may_attach},
    {"--include-path", include_dir},
    {"-l", library, Attach::may_attach},
    {"--library", library},
    {"-arch", gpu_arch},
    {"--gpu-architecture", gpu_arch},
    {"-code", gpu_arch},
    {"--gpu-code", gpu_arch},
    {"-gencode", gencode},
    {"--generate-code", gencode},
    {"-std", cxx_standard},
    {"--std", cxx_standard},
    {"-maxrregcount", register_count},
    {"--maxrregcount", register_count},
    {"-ftz", on_off},
    {"--ftz", on_off},
    {"-prec-div", on_off},
    {"--prec-div", on_off},
    {"-prec-sqrt", on_off},
    {"--prec-sqrt", on_off},
    {"-fmad", on_off},
    {"--fmad", on_off},
    {"-Xptxas", ptxas_options},
    {"--ptxas-options", ptxas_options},
    {"-Xcompiler", host_options},
    {"--compiler-options", host_options},
    {"-lineinfo", no_value},
    {"--generate-line-info", no_value},
    {"-use_fast_math", no_value},
    {"--use_fast_math", no_value},
    {"--expt-relaxed-constexpr", no_value},
    {"--expt-extended-lambda", no_value},
    {"--extended-lambda", no_value},
    {"--extra-device-vectorization", no_value},
    {"-restrict", no_value},
    {"--restrict", no_value},
    {"-res-usage", no_value},
    {"--resource-usage", no_value},
    {"-w", no_value},
    {"--disable-warnings", no_value},
    {"-Wno-deprecated-gpu-targets", no_value},
    {"-Wno-deprecated-declarations", no_value},
    {"-G", no_value},
    {"--device-debug", no_value},
    {"-g", no_value},
    {"--debug", no_value},
};

// How `entry` uses `rule`: the value text, "" for a flag with none, nullopt for no match.
// `next_needed` is set when the value is the following entry.
std::optional<std::string_view> match(const FlagRule& rule, std::string_view entry,
                                      bool& next_needed) {
  next_needed = false;
  if (entry == rule.spelling) {
    next_needed = rule.check != no_value;
    return std::string_view{};
  }
  if (rule.check == no_value || !entry.starts_with(rule.spelling)) return std::nullopt;
  const std::string_view rest = entry.substr(rule.spelling.size());
  if (rest.starts_with("=")) return rest.substr(1);
  if (rule.attach == Attach::may_attach) return rest;
  return std::nullopt;
}

std::string refused(std::string_view flag) {
  return "`" + std::string(flag) +
         "` is not an allowed nvcc flag: a config may only ask for flags that change what is "
         "compiled, not which programs run or where files are written (allowed: " +
         allowed_nvcc_flag_names() + "; docs/security.md says why)";
}

}  // namespace

std::string allowed_nvcc_flag_names() {
  std::string names;
  for (const auto& rule : kRules) names.append(names.empty() ? "" : ", ").append(rule.spelling);
  return names;
}

NvccFlagCheck check_nvcc_flags(const std::vector<std::string>& flags) {
  NvccFlagCheck out;
  auto refuse = [&](std::size_t i, std::string message) {
    out.refusal = FlagRefusal{i, std::move(message)};
    return out;
  };
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string& entry = flags[i];
    const FlagRule* rule = nullptr;
    std::optional<std::string_view> value;
    bool next_needed = false;
    // Whole spellings first, so "-lineinfo" is never read as "-l ineinfo".
    for (const auto& r : kRules)
      if (entry == r.spelling) rule = &r;
    for (const auto& r : kRules) {
      if (rule && rule != &r) continue;
      if ((value = match(r, entry, next_needed))) {
        rule = &r;
        break;
      }
    }
    if (!rule || !value) return refuse(i, refused(entry));
    std::string text(*value);
    std::size_t value_index = i;
    if (next_needed) {
      if (i + 1 == flags.size()) return refuse(i, "`" + entry + "` needs a value after it");
      text = flags[++i];
      value_index = i;
    }
    if (text.size() > kMaxValueLength)
      return refuse(value_index, "the value of `" + std::string(rule->spelling) +
                                     "` is longer than " + std::to_string(kMaxValueLength) +
                                     " characters");
    if (auto problem = rule->check(text))
      return refuse(value_index, "`" + std::string(rule->spelling) + "`: " + *problem);
    if (rule->check == include_dir) {
      out.allowed.include_dirs.push_back(*normalize_relative(text));
      continue;
    }
    if (next_needed) out.allowed.flags.push_back(flags[i - 1]);
    out.allowed.flags.push_back(flags[i]);
  }
  return out;
}

}  // namespace kblaster
