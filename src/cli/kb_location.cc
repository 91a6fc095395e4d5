#include "cli/kb_location.h"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "core/bounded_read.h"
#include "core/input_limits.h"
#include "kb/store.h"

#ifndef KBLASTER_CATALOGUE_DIR
#define KBLASTER_CATALOGUE_DIR "kb/catalogue"
#endif

namespace kblaster {

void add_kb_flags(CLI::App& app, KbFlags& flags) {
  app.add_option("--kb", flags.kb, "KB file (default: REPO/.kblaster/kb.sqlite)");
  app.add_option(
      "--catalogue", flags.catalogue,
      "Seed catalogue directory (default: $KBLASTER_CATALOGUE, else kblaster's kb/catalogue)");
}

std::filesystem::path kb_path(const std::string& repo, const KbFlags& flags) {
  return flags.kb.empty() ? std::filesystem::path(repo) / kDefaultKbPath
                          : std::filesystem::path(flags.kb);
}

Result<Catalogue> read_catalogue(const KbFlags& flags) {
  std::filesystem::path dir = flags.catalogue;
  if (dir.empty()) {
    const char* env = std::getenv("KBLASTER_CATALOGUE");
    dir = env && *env ? env : KBLASTER_CATALOGUE_DIR;
  }
  const char* named = flags.catalogue.empty() ? "the seed catalogue" : "--catalogue";
  const auto techniques = read_bounded(dir / "techniques.json", kMaxJsonBytes, named);
  const auto states = read_bounded(dir / "states.json", kMaxJsonBytes, named);
  std::error_code ec;
  const bool present = std::filesystem::exists(dir / "techniques.json", ec) &&
                       std::filesystem::exists(dir / "states.json", ec);
  if (!present && !flags.catalogue.empty())
    return Error::usage("--catalogue " + flags.catalogue +
                        ": not a seed catalogue (it needs techniques.json and states.json)");
  if (!present)
    return Error::environment(
        "the seed catalogue is not in " + dir.string() +
        " (techniques.json, states.json); give --catalogue or set KBLASTER_CATALOGUE");
  if (!techniques) return techniques.error();
  if (!states) return states.error();
  auto catalogue = load_catalogue(*techniques, *states);
  if (!catalogue)
    return Error{catalogue.error().kind,
                 "the seed catalogue in " + dir.string() + ": " + catalogue.error().message,
                 catalogue.error().where};
  return catalogue;
}

}  // namespace kblaster
