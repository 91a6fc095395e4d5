// Where `kblaster kb` and `optimize` find the KB file and the seed catalogue.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "kb/catalogue_dir.h"

namespace kblaster {

struct KbFlags {
  std::string kb;         // empty = REPO/.kblaster/kb.sqlite
  std::string catalogue;  // empty = $KBLASTER_CATALOGUE, else the source tree's kb/catalogue
};
void add_kb_flags(CLI::App& app, KbFlags& flags);

// The KB file for repository `repo` under `flags`.
std::filesystem::path kb_path(const std::string& repo, const KbFlags& flags);

// The catalogue --catalogue names, or the default one (kb/catalogue_dir.h).
inline Result<Catalogue> read_catalogue(const KbFlags& flags) {
  return read_catalogue(std::filesystem::path(flags.catalogue));
}

}  // namespace kblaster
