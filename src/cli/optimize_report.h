// What `kblaster optimize` leaves behind for one kernel: the best candidate's
// source in the output folder, a JSON result (path of techniques, speedup with
// its CI from a final A/B against the baseline, verification, profile delta,
// every step), a summary on the progress stream, and with --apply the user's
// source rewritten.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/gpu_evaluator.h"
#include "search/search_loop.h"

namespace kblaster {

// Writes OUT/<kernel>/<source file name> and OUT/<kernel>/result.json and returns
// the JSON. `apply` rewrites REPO/<source> only when the final A/B says FASTER,
// the soft verification passed and the source changed; flags, arch and tunables
// the best needs are printed as kblaster.toml settings, never written.
Result<nlohmann::json> write_optimize_result(const KernelSpec& spec,
                                             const std::filesystem::path& repo_root,
                                             const SearchResult& result, ResultProbe& evaluator,
                                             double seconds, const std::filesystem::path& out_dir,
                                             bool apply, Session& session);

}  // namespace kblaster
