// Loading the kernel repository a command was pointed at, and selecting the
// kernels named with --kernel.
#pragma once

#include <filesystem>
#include <vector>

#include "cli/command.h"
#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

struct LoadedRepo {
  std::filesystem::path root;  // absolute
  Config config;
  std::vector<const KernelSpec*> selected;  // into config.kernels, in config order
};

// Loads REPO's config. An unknown --kernel name is a usage error with a suggestion.
// The result owns the config; `selected` points into it, so do not copy the config out.
Result<LoadedRepo> load_repository(const CommonOptions& options);

}  // namespace kblaster
