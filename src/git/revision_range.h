// The two commits a check compares, resolved from --base and --head.
#pragma once

#include <string>

#include "core/status.h"
#include "git/repo.h"

namespace kblaster {

// as_given: compare against `base` itself. merge_base: against the merge base of
// base and head, i.e. only what head's branch changed, as a pull request shows it.
enum class BaseMode { as_given, merge_base };

struct RevisionRange {
  CommitId base;
  CommitId head;
};

// Resolves both revisions. Errors name the end that failed ("base revision `x` …")
// and keep the kind Repo gives them (usage; environment for a shallow clone).
Result<RevisionRange> resolve_range(const Repo& repo, const std::string& base,
                                    const std::string& head, BaseMode mode);

}  // namespace kblaster
