// The identity kblaster gives a candidate of the search: what an optimize result names
// `baseline_candidate` and `best_candidate`, and what its trees and profiles are named by.
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

// FNV-1a (core/stable_hash.h) over `source`, a unit separator and `settings`: the
// candidate's build settings (arch, flags, macros, launcher arguments) as
// Candidate::fingerprint writes them; "" for a candidate that is its source alone.
std::string candidate_fingerprint(std::string_view source, std::string_view settings = {});

}  // namespace kblaster
