// Everything a check needs to know about a revision range before building
// anything: the configuration at each end, the changed paths and the kernels hit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "git/change_set.h"
#include "git/path_change.h"
#include "git/repo.h"
#include "git/revision_range.h"

namespace kblaster {

struct ChangePlan {
  RevisionRange range;
  Config head_config;                 // after keep_kernels: only the kernels it kept
  std::optional<Config> base_config;  // nullopt: it did not load (see changes.base_config_error)
  std::vector<PathChange> paths;      // what differs from base to head
  ChangeSet changes;                  // the kernels those paths hit
  bool new_branch = false;            // no base: every head kernel is new (plan_new_branch)
};

// Loads the configuration at both ends of `range` from git and computes the change
// set. Fails if head's configuration does not load (Error::config; the message
// names the revision) or a git call fails; a base that does not load is noted.
// A config error's `where` is a path in the kernel repository, or empty when the
// revision has no kblaster.toml.
Result<ChangePlan> plan_change(const Repo& repo, const RevisionRange& range);

// A push that created its branch has no base: every kernel declared at `head` is
// new. `range.base` is `head`, `base_config` is nullopt and `new_branch` is set. Fails as
// plan_change does when head's configuration does not load.
Result<ChangePlan> plan_new_branch(const Repo& repo, const CommitId& head);

// Resolves `base` and `head` (revision strings) and plans the change between
// them; with no `base`, plans a new branch at `head`. Errors as resolve_range.
Result<ChangePlan> plan_revisions(const Repo& repo, const std::optional<std::string>& base,
                                  const std::string& head, BaseMode mode);

// Restricts `plan` to the head kernels named in `kernels` (all of them when it is
// empty): other kernels' hits, deleted kernels' included, leave `changes`, and other
// kernels leave `head_config`, so its kernels not hit are the named ones the range
// does not hit. Names of no head kernel are ignored: check them first.
void keep_kernels(ChangePlan& plan, const std::vector<std::string>& kernels);

// `error` with the head revision it was found at appended to its message.
Error at_head_revision(Error error, const CommitId& head);

}  // namespace kblaster
