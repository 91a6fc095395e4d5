// Loading the kernel repository a command was pointed at, or its revision range,
// and selecting the kernels named with --kernel.
#pragma once

#include "cli/command.h"
#include "cli/revision_flags.h"
#include "core/kernel_selection.h"
#include "eval/loaded_repo.h"
#include "git/change_plan.h"
#include "git/repo.h"

namespace kblaster {

// The repository REPO with its --kernel kernels (load_repository).
inline Result<LoadedRepo> load_repository(const CommonOptions& options) {
  return load_repository(options.repo, options.kernels);
}

// Plans the range `want` of the kernel repository `options` names, read through `git`,
// keeping only the --kernel kernels (keep_kernels). Errors as plan_revisions, with
// config locations as load_repository gives them; a --kernel name that is no kernel
// at head is load_repository's usage error, naming the revision.
Result<ChangePlan> load_change_plan(const CommonOptions& options, const Repo& git,
                                    const RequestedRange& want, BaseMode mode);

}  // namespace kblaster
