// What `kblaster kb show` and `kblaster kb stats` print, as text or JSON.
#pragma once

#include <filesystem>
#include <string>

#include "cli/command.h"
#include "kb/catalogue.h"
#include "kb/kb_summary.h"
#include "kb/store.h"

namespace kblaster {

// Per state: the techniques the KB expects most of, with the evidence behind
// each guess, and the state's most recent lessons (kb_show), as text or JSON; `path`
// is the KB as the user knows it and `provenance` the command's.
Result<ExitCode> show_kb(const Store& store, const Catalogue& catalogue, const ShowQuery& query,
                         const std::filesystem::path& path, bool json, Provenance provenance,
                         Session& session);

// Counts, the best-evidenced statistics and the newest lessons of the KB, which
// the user knows as `path` (kb_stats), as text or JSON; `provenance` is the command's.
Result<ExitCode> stats_kb(const Store& store, const std::filesystem::path& path, bool json,
                          Provenance provenance, Session& session);

}  // namespace kblaster
