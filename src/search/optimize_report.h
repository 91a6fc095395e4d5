// What `kblaster optimize` leaves behind for one kernel: the best candidate's
// source in the output folder, a JSON result (path of techniques, speedup with
// its CI from a final A/B against the baseline and that A/B's samples, verification, profile delta,
// every step), a summary on the progress stream, and with --apply the user's
// source rewritten.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "eval/gpu_evaluator.h"
#include "eval/session.h"
#include "search/search_loop.h"

namespace kblaster {

// Whether the best's source replaces REPO/<source> (--apply). `if_verified` does so
// only when the final A/B says FASTER, the soft verification passed, the source
// changed, the best needs no build settings and the file is as the search read it.
enum class WriteBack { never, if_verified };

// Writes OUT/<kernel>/<source file name> and OUT/<kernel>/result.json and returns
// the JSON, which carries the best's exact source text ("best_source", what an
// optimization PR proposes) and with WriteBack::if_verified says whether the source
// was "applied".
// Flags, arch and tunables the best needs are printed as kblaster.toml settings,
// never written. With both ends profiled, "roofline" places them under `ceilings`.
Result<nlohmann::json> write_optimize_result(const KernelSpec& spec,
                                             const std::filesystem::path& repo_root,
                                             const SearchResult& result, ResultProbe& evaluator,
                                             const MeasuredCeilings& ceilings, double seconds,
                                             const std::filesystem::path& out_dir,
                                             WriteBack write_back, Session& session);

}  // namespace kblaster
