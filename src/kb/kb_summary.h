// What `kblaster kb stats` and `kblaster kb show` report, as values: the KB's
// counts, its best-evidenced statistics and newest lessons, and per state the
// techniques it expects most of. The commands print or serialise them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/provenance.h"
#include "core/status.h"
#include "kb/catalogue.h"
#include "kb/store.h"

namespace kblaster {

// The version of the kb_stats result's JSON; reports/schema/kb_stats.schema.json.
inline constexpr int kKbStatsSchemaVersion = 1;

// The kb_stats result: {"kind": "kb_stats", "schema_version", "provenance", "kb": path,
// "kb_schema_version" (the KB file's), "techniques", "states", "trajectories", "steps",
// "measured_steps", "lessons", "best_kernels": counts; "most_evidence": the 10 (state,
// technique, arch) rows with the most measured steps; "recent_lessons": the 5 newest}.
// `path` is the KB as the user knows it; `provenance` is finished here.
Result<nlohmann::json> kb_stats(const Store& store, const std::filesystem::path& path,
                                Provenance provenance);

// Which states `kb show` covers and how many techniques each lists.
struct ShowQuery {
  std::string state;  // only this state; "" = every state of the catalogue
  std::string arch = "sm_90";
  int top = 5;
};

// The version of the kb_show result's JSON; reports/schema/kb_show.schema.json.
inline constexpr int kKbShowSchemaVersion = 1;

// The kb_show result: {"kind": "kb_show", "schema_version", "provenance", "kb": path,
// "arch", "top", "state" (only with a --state), "states": [{"state", "description",
// "best": [the `top` predictions, with their evidence], "lessons": [the lessons of
// those techniques here]}]}. `path` is the KB as the user knows it; `provenance` is
// finished here. Error::usage for a --state the catalogue does not have, naming the
// nearest one.
Result<nlohmann::json> kb_show(const Store& store, const Catalogue& catalogue,
                               const ShowQuery& query, const std::filesystem::path& path,
                               Provenance provenance);

}  // namespace kblaster
