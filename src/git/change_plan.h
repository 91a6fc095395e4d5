// Everything a check needs to know about a revision range before building
// anything: the configuration at each end, the changed paths and the kernels hit.
#pragma once

#include <optional>
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
  Config head_config;
  std::optional<Config> base_config;  // nullopt: it did not load (see changes.base_config_error)
  std::vector<PathChange> paths;      // what differs from base to head
  ChangeSet changes;                  // the kernels those paths hit
};

// Loads the configuration at both ends of `range` from git and computes the change
// set. Fails if head's configuration does not load (Error::config; the message
// names the revision) or a git call fails; a base that does not load is noted.
Result<ChangePlan> plan_change(const Repo& repo, const RevisionRange& range);

}  // namespace kblaster
