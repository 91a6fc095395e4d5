// Writing a KB file whole from what `kb init`, `kb import` and `kb merge` bring:
// the seed catalogue, an export's JSON, other KBs. An existing KB is changed in one
// transaction per step; a new one is filled beside the target and renamed into
// place (StagedKb), so a kill leaves no KB there rather than one with empty tables.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "kb/catalogue.h"
#include "kb/store.h"

namespace kblaster {

// True when there is no file at `path`, or an empty one: write_kb_file then creates
// the KB there.
bool absent_or_empty(const std::filesystem::path& path);

// What goes into the KB, in this order.
struct KbWrites {
  std::optional<Catalogue> catalogue;  // seeded first
  std::optional<std::string> json;     // an export to import, already read
  std::string json_file;               // where `json` came from, for its errors
  std::vector<const Store*> merge;     // KBs merged in, in order
};

// Applies `writes` to the KB at `path` and returns it opened. Errors in the JSON
// name `json_file` (config) or are usage errors; SQLite's failures while writing are
// the file's (damaged, read-only, from a newer kblaster): Error::environment naming `path`.
Result<Store> write_kb_file(const std::filesystem::path& path, const KbWrites& writes);

}  // namespace kblaster
