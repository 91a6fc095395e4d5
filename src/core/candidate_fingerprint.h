// The identity kblaster gives a candidate of the search: what an optimize result names
// `baseline_candidate` and `best_candidate`, and what its trees and profiles are named by.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace kblaster {

// FNV-1a (core/stable_hash.h) over `source`, a unit separator and `settings`: the
// candidate's build settings (arch, flags, macros, launcher arguments) as
// Candidate::fingerprint writes them; "" for a candidate that is its source alone.
std::string candidate_fingerprint(std::string_view source, std::string_view settings = {});

// The part of a candidate's settings that names its source defaults (tunables built with
// no -D): "" for none, so that earlier fingerprints stay as they were.
std::string source_defaults_setting(const std::set<std::string>& tunables);

}  // namespace kblaster
