#include "search/source_form.h"

#include <charconv>

#include "transform/fast_intrinsics.h"
#include "transform/macro_default.h"
#include "transform/register_cap.h"

namespace kblaster {
namespace {

// N of "--maxrregcount=N"; nullopt for any other flag.
std::optional<int> register_cap(const std::string& flag) {
  constexpr std::string_view prefix = "--maxrregcount=";
  if (!flag.starts_with(prefix)) return std::nullopt;
  int cap = 0;
  const char* begin = flag.data() + prefix.size();
  const auto [end, ec] = std::from_chars(begin, flag.data() + flag.size(), cap);
  if (ec != std::errc() || end != flag.data() + flag.size() || cap <= 0) return std::nullopt;
  return cap;
}

// Writes one setting into `form` when `w` changed the source, else records why not.
bool take(SourceForm& form, const SourceRewrite& w, const std::string& setting) {
  if (!w.changed) {
    form.not_carried.push_back(setting + ": " + w.description);
    return false;
  }
  form.candidate.source = w.source;
  form.rewrites.push_back(setting + ": " + w.description);
  return true;
}

}  // namespace

SourceForm source_form_of(const Candidate& best) {
  SourceForm form{.candidate = best, .rewrites = {}, .not_carried = {}};
  Candidate& c = form.candidate;
  std::vector<std::string> kept_flags;
  for (const std::string& flag : best.extra_flags) {
    const std::string setting = "nvcc_flags \"" + flag + "\"";
    if (flag == "-use_fast_math") {
      if (!take(form, use_fast_intrinsics(c.source), setting)) kept_flags.push_back(flag);
    } else if (const auto cap = register_cap(flag)) {
      if (!take(form, cap_registers_in_source(c.source, *cap), setting)) kept_flags.push_back(flag);
    } else {
      form.not_carried.push_back(setting +
                                 ": no source form (it changes how nvcc compiles "
                                 "every load or instruction, not one line)");
      kept_flags.push_back(flag);
    }
  }
  c.extra_flags = kept_flags;
  if (!best.arch.empty())
    form.not_carried.push_back("arch " + best.arch +
                               ": a target architecture is chosen by the build, not the source");
  for (const auto& [name, value] : best.macros) {
    const std::string setting = "tunable " + name + " = " + value;
    if (macro_default(c.source, name) == value) {  // the source says so already
      form.rewrites.push_back(setting + ": the source's #define already says " + value);
      c.macros.erase(name);
      c.source_defaults.insert(name);
    } else if (take(form, set_macro_default(c.source, name, value), setting)) {
      c.macros.erase(name);
      c.source_defaults.insert(name);
    }
  }
  for (const auto& [name, value] : best.launcher_args)
    form.not_carried.push_back("launcher argument " + name + " = " + std::to_string(value) +
                               ": its value is chosen by whoever calls the launcher, not by "
                               "the kernel's source");
  return form;
}

}  // namespace kblaster
