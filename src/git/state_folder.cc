#include "git/state_folder.h"

namespace kblaster {
namespace {

// The refusal of a planted state folder: `what` ("head 1a2b3c4 tracks `.kblaster/trees`") and why.
Error planted(const std::string& what) {
  return Error::usage(what +
                      ": kblaster's own state, which check trusts (its materialised trees and "
                      "compile cache), cannot come from git or the change under check. Remove "
                      "it (and add `" +
                      std::string(kStateFolder) + "/` to .gitignore)");
}

Error planted(const CommitId& head, const std::string& what) {
  return planted("head " + head.short_hex() + " " + what);
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

Status check_checkout_state(const Repo& repo, const std::filesystem::path& kernel_repo) {
  for (const auto& place : {kernel_repo / kStateFolder, kernel_repo / kStateFolder / "trees",
                            kernel_repo / kStateFolder / "cache"}) {
    std::error_code ec;
    if (std::filesystem::is_symlink(place, ec))
      return planted(place.string() + " is a symbolic link, so check's writes would go elsewhere");
  }
  for (const char* trusted : {"trees", "cache"}) {
    auto tracked = repo.tracked_under(std::string(kStateFolder) + "/" + trusted);
    if (!tracked) return tracked.error();
    if (!tracked->empty()) return planted("the checkout tracks `" + tracked->front() + "`");
  }
  return Ok{};
}

}  // namespace kblaster
