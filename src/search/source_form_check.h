// The source form of a best that needs build settings, checked as the best was: built,
// verified at every size, timed against the best, then A/B'd against the baseline. Only a
// form checked this way may go into an optimization pull request.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "eval/gpu_evaluator.h"
#include "search/search_loop.h"

namespace kblaster {

// The result's "source_form" for `r`, whose best needs build settings:
//   {"status": "verified" | "incomplete" | "fails verification",
//    "rewrites": [...], "not_carried": [...], and when built: "candidate", "source",
//    "source_defaults", "source_file", "verification" {outcome, detail}; when verified:
//    "against_best" {ratio, ci_low, ci_high} (form time / best time), "final_ab",
//    "speedup", "soft_verification"}.
// "incomplete" (some setting has no source form) builds nothing. A verified form's source
// is written to `dir`/source_form/`file_name`. One progress line says what was found.
// Errors are the probe's and a failed write.
Result<nlohmann::json> check_source_form(const SearchResult& r, ResultProbe& probe,
                                         const std::filesystem::path& dir,
                                         const std::filesystem::path& file_name,
                                         std::ostream& progress);

}  // namespace kblaster
