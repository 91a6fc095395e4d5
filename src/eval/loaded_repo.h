// A kernel repository as loaded for one run: where it is, its config, and the
// kernels the command selected.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// The kernel repository at `root`: its config, and the kernels selected from it.
struct LoadedRepo {
  std::filesystem::path root;  // absolute
  Config config;
  std::vector<const KernelSpec*> selected;  // into config.kernels, in config order
};

// Loads the config of the kernel repository at `repo` (as the user named it) and
// selects `kernels` (all when empty). An unknown name is a usage error with a
// suggestion; config errors name their files below `repo`. The result owns the
// config and `selected` points into it, so move it whole, never copy the config out.
Result<LoadedRepo> load_repository(const std::string& repo,
                                   const std::vector<std::string>& kernels);

}  // namespace kblaster
