// Whether the results of one report were measured alike, so that a reader does not
// set numbers from different GPUs, drivers or compilers side by side unwarned.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "report/result_view.h"

namespace kblaster {

// A note for each result not measured like the first (core/provenance.h's
// not_comparable): "check 1111111..2222222 and optimize were not measured alike:
// different GPU models: …". Results whose provenance does not read are left out.
std::vector<std::string> comparability_notes(std::span<const ResultView> results);

}  // namespace kblaster
