#include "cli/kb_location.h"

#include "kb/store.h"

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

}  // namespace kblaster
