#include "transform/fast_intrinsics.h"

#include <map>
#include <string>
#include <vector>

#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

// The single-precision functions -use_fast_math maps to an intrinsic (CUDA C++
// Programming Guide, "Intrinsic Functions"), in the order descriptions list them.
constexpr std::string_view kFastForms[] = {"expf", "exp10f", "logf", "log2f",   "log10f",
                                           "sinf", "cosf",   "tanf", "sincosf", "powf"};

// Whether the identifier at `at` is named through a scope or a member (`std::expf`,
// `::expf`, `math.expf`), which the rewrite leaves alone.
bool qualified(std::string_view masked, std::size_t at) {
  std::size_t i = at;
  while (i > 0 && (masked[i - 1] == ' ' || masked[i - 1] == '\t')) --i;
  return i > 0 && (masked[i - 1] == '.' || masked[i - 1] == ':' || masked[i - 1] == '>');
}

// Whether the function at `f` is also a host function (`__host__ __device__`), where an
// intrinsic does not compile: the words of its declaration, back to the previous `;`,
// `{` or `}`, name __host__.
bool also_host(std::string_view masked, const FunctionSite& f) {
  const std::size_t start = masked.find_last_of(";{}", f.qualifier);
  const std::size_t from = start == std::string_view::npos ? 0 : start + 1;
  return !find_words(masked.substr(from, f.name_begin - from), "__host__").empty();
}

}  // namespace

SourceRewrite use_fast_intrinsics(std::string_view source) {
  const std::string masked = mask_source(source);
  std::vector<Span> bodies;
  for (const auto qualifier : {"__global__", "__device__"})
    for (const FunctionSite& f : find_functions(masked, qualifier))
      if (f.body_open != std::string_view::npos && f.body_close != std::string_view::npos &&
          !also_host(masked, f))
        bodies.push_back({f.body_open, f.body_close});
  const auto in_device_code = [&](std::size_t at) {
    for (const Span& b : bodies)
      if (at > b.begin && at < b.end) return true;
    return false;
  };
  std::vector<Insertion> edits;
  std::map<std::string_view, int> count;
  for (const std::string_view name : kFastForms)
    for (const std::size_t at : find_words(masked, name)) {
      const std::size_t open = skip_spaces(masked, at + name.size());
      if (open >= masked.size() || masked[open] != '(') continue;  // not a call
      if (!in_device_code(at) || qualified(masked, at)) continue;
      edits.push_back({at, "__"});
      ++count[name];
    }
  if (edits.empty())
    return {false, std::string(source),
            "device code calls none of the functions -use_fast_math replaces with intrinsics "
            "(expf, logf, sinf, cosf, tanf, powf, …)"};
  std::string calls;
  for (const std::string_view name : kFastForms)
    if (const auto it = count.find(name); it != count.end())
      calls += (calls.empty() ? "" : ", ") + std::string(name) + " -> __" + std::string(name) +
               " (" + std::to_string(it->second) + ")";
  return {true, apply_insertions(source, std::move(edits)),
          "fast-math intrinsics written in the source: " + calls};
}

}  // namespace kblaster
