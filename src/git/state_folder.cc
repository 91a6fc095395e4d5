#include "git/state_folder.h"

namespace kblaster {
namespace {

Error planted(const CommitId& head, const std::string& what) {
  return Error::usage("head " + head.short_hex() + " " + what +
                      ": kblaster's own state, which check trusts (its materialised trees and "
                      "compile cache), cannot come from the change under check. Remove it from "
                      "the change (and add `" +
                      std::string(kStateFolder) + "/` to .gitignore)");
}

}  // namespace

Status check_state_folder_untouched(const Repo& repo, const CommitId& head) {
  auto folders = repo.entries_named(head, "", kStateFolder);
  if (!folders) return folders.error();
  for (const NamedEntry& folder : *folders)
    if (!folder.folder)
      return planted(head,
                     "tracks `" + std::string(kStateFolder) + "` as a file, link or submodule");
  if (folders->size() > 1) return planted(head, "tracks `" + std::string(kStateFolder) + "` twice");
  if (folders->empty()) return Ok{};
  for (const char* trusted : {"trees", "cache"}) {
    auto inside = repo.entries_named(head, kStateFolder, trusted);
    if (!inside) return inside.error();
    if (!inside->empty())
      return planted(head, "tracks `" + std::string(kStateFolder) + "/" + trusted + "`");
  }
  return Ok{};
}

}  // namespace kblaster
