#include "report/comparability.h"

#include "core/provenance.h"

namespace kblaster {
namespace {

// The provenance of `r`; an error when it has none that reads (a view made in code).
Result<Provenance> provenance_of(const ResultView& r) {
  if (!r.value.is_object() || !r.value.contains("provenance"))
    return Error::usage(r.origin + ": no provenance");
  return provenance_from_json(r.value["provenance"]);
}

}  // namespace

std::vector<std::string> comparability_notes(std::span<const ResultView> results) {
  std::vector<std::string> notes;
  if (results.empty()) return notes;
  auto first = provenance_of(results.front());
  if (!first) return notes;
  for (std::size_t i = 1; i < results.size(); ++i) {
    auto other = provenance_of(results[i]);
    if (!other) continue;
    if (auto why = not_comparable(*first, *other))
      notes.push_back(results.front().title + " and " + results[i].title +
                      " were not measured alike: " + *why);
  }
  return notes;
}

}  // namespace kblaster
