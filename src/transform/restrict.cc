#include "transform/restrict.h"

#include <cctype>
#include <map>

#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

constexpr auto npos = std::string_view::npos;

// Where to put __restrict__ in one parameter, or npos when it is no plain
// pointer or already restrict.
std::size_t restrict_position(std::string_view masked, Span param) {
  const auto text = param.of(masked);
  for (const auto w : {"__restrict__", "__restrict", "restrict"})
    if (!find_words(text, w).empty()) return npos;
  std::size_t star = npos;
  int stars = 0;
  int angles = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=') break;  // a default argument
    if (c == '<') ++angles;
    if (c == '>') --angles;
    if (angles > 0) continue;
    if (c == '&' || c == '(' || c == '[') return npos;
    if (c == '*') star = i, ++stars;
  }
  return stars == 1 ? param.begin + star : npos;
}

}  // namespace

SourceRewrite add_restrict(std::string_view source) {
  const std::string masked = mask_source(source);
  std::vector<Insertion> edits;
  std::map<std::string, int> added;  // per kernel name, in name order
  for (const auto& kernel : find_functions(masked, "__global__")) {
    for (const auto param : split_top_level(masked, kernel.params, ',', AngleBrackets::nest)) {
      const auto star = restrict_position(masked, param);
      if (star == npos) continue;
      const bool space_after =
          star + 1 < masked.size() && std::isspace(static_cast<unsigned char>(masked[star + 1]));
      const bool space_before =
          star > 0 && std::isspace(static_cast<unsigned char>(masked[star - 1]));
      // float* p -> float* __restrict__ p; float *p -> float *__restrict__ p
      const char* text = space_after    ? " __restrict__"
                         : space_before ? "__restrict__ "
                                        : " __restrict__ ";
      edits.push_back({star + 1, text});
      ++added[kernel.name];
    }
  }
  if (edits.empty())
    return {false, std::string(source), "no kernel pointer parameter lacks __restrict__"};
  const std::size_t total = edits.size();
  std::string names;
  for (const auto& [name, n] : added)
    names += (names.empty() ? "" : ", ") + name + " (" + std::to_string(n) + ")";
  return {true, apply_insertions(source, std::move(edits)),
          "added __restrict__ to " + std::to_string(total) + " pointer parameter" +
              (total == 1 ? "" : "s") + " of " + names};
}

}  // namespace kblaster
