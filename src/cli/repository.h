// Loading the kernel repository a command was pointed at, or its revision range,
// and selecting the kernels named with --kernel.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/revision_flags.h"
#include "core/kernel_spec.h"
#include "core/status.h"
#include "eval/loaded_repo.h"
#include "git/change_plan.h"
#include "git/repo.h"

namespace kblaster {

// Loads REPO's config. An unknown --kernel name is a usage error with a suggestion.
// The result owns the config; `selected` points into it, so do not copy the config out.
Result<LoadedRepo> load_repository(const CommonOptions& options);

// Plans the range `want` of the kernel repository `options` names, read through `git`,
// keeping only the --kernel kernels (keep_kernels). Errors as plan_revisions, with
// config locations as load_repository gives them; a --kernel name that is no kernel
// at head is load_repository's usage error, naming the revision.
Result<ChangePlan> load_change_plan(const CommonOptions& options, const Repo& git,
                                    const RequestedRange& want, BaseMode mode);

// The kernels of `config` named in `names` (all when it is empty), in config order,
// pointing into `config`. A name of no kernel is a usage error that suggests the
// closest name and lists them all.
Result<std::vector<const KernelSpec*>> select_kernels(const Config& config,
                                                      const std::vector<std::string>& names);

// A config error of the kernel repository the user named `repo`, with its locations
// (`where`, and where a kernel declared twice was first declared) put behind `repo`,
// so they open from the current directory. Other errors, and an empty or absolute
// `where` (the repository itself, not a file in it), come back unchanged.
Error prefix_config_paths(Error error, const std::string& repo);

}  // namespace kblaster
