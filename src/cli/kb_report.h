// What `kblaster kb show` and `kblaster kb stats` print, as text or JSON.
#pragma once

#include <filesystem>
#include <string>

#include "cli/command.h"
#include "kb/catalogue.h"
#include "kb/store.h"

namespace kblaster {

// Which states `kb show` covers and how many techniques each lists.
struct ShowQuery {
  std::string state;  // only this state; "" = every state of the catalogue
  std::string arch = "sm_90";
  int top = 5;
};

// Per state: the techniques the KB expects most of, with the evidence behind
// each guess, and the state's most recent lessons. Error::usage for a --state
// the catalogue does not have, with the nearest one.
Result<ExitCode> show_kb(const Store& store, const Catalogue& catalogue, const ShowQuery& query,
                         bool json, Session& session);

// Counts, the best-evidenced statistics and the newest lessons of the KB, which
// the user knows as `path`.
Result<ExitCode> stats_kb(const Store& store, const std::filesystem::path& path, bool json,
                          Session& session);

}  // namespace kblaster
