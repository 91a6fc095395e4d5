#include "git/state_folder.h"

namespace kblaster {

Status check_state_folder_untouched(const Repo& repo, const CommitId* base, const CommitId& head) {
  auto at_head = repo.root_entry_id(head, kStateFolder);
  if (!at_head) return at_head.error();
  if (!*at_head) return Ok{};
  std::optional<std::string> at_base;
  if (base) {
    auto tracked = repo.root_entry_id(*base, kStateFolder);
    if (!tracked) return tracked.error();
    at_base = std::move(*tracked);
  }
  if (at_base == *at_head) return Ok{};
  return Error::usage(
      std::string("head ") + head.short_hex() + " " + (at_base ? "changes" : "adds") + " `" +
      kStateFolder + "/`" + (base ? " against base " + base->short_hex() : "") +
      ", kblaster's own state folder (its materialised trees, compile cache and KB, which it "
      "trusts): a change under check may not put files there. Remove `" +
      kStateFolder + "/` from the change (and add it to .gitignore)");
}

}  // namespace kblaster
