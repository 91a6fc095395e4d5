// Where `kblaster kb` finds the KB file and the seed catalogue.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "core/status.h"
#include "kb/catalogue.h"

namespace kblaster {

struct KbFlags {
  std::string kb;         // empty = REPO/.kblaster/kb.sqlite
  std::string catalogue;  // empty = $KBLASTER_CATALOGUE, else the source tree's kb/catalogue
};
void add_kb_flags(CLI::App& app, KbFlags& flags);

// The KB file for repository `repo` under `flags`.
std::filesystem::path kb_path(const std::string& repo, const KbFlags& flags);

// Reads and validates techniques.json and states.json from the catalogue directory.
Result<Catalogue> read_catalogue(const KbFlags& flags);

}  // namespace kblaster
