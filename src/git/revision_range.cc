#include "git/revision_range.h"

namespace kblaster {
namespace {

// `result`, its error message led by `end` ("base" or "head").
Result<CommitId> labelled(Result<CommitId> result, const std::string& end) {
  if (result) return result;
  Error e = result.error();
  e.message = end + " " + e.message;
  return e;
}

}  // namespace

Result<RevisionRange> resolve_range(const Repo& repo, const std::string& base,
                                    const std::string& head, BaseMode mode) {
  auto b = labelled(repo.resolve(base), "base");
  if (!b) return b.error();
  auto h = labelled(repo.resolve(head), "head");
  if (!h) return h.error();
  if (mode == BaseMode::as_given) return RevisionRange{*b, *h};
  auto common = repo.merge_base(*b, *h);
  if (!common) return common.error();
  return RevisionRange{*common, *h};
}

}  // namespace kblaster
