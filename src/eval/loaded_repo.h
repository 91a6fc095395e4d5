// A kernel repository as loaded for one run: where it is, its config, and the
// kernels the command selected.
#pragma once

#include <filesystem>
#include <vector>

#include "core/kernel_spec.h"

namespace kblaster {

// The kernel repository at `root`: its config, and the kernels selected from it.
struct LoadedRepo {
  std::filesystem::path root;  // absolute
  Config config;
  std::vector<const KernelSpec*> selected;  // into config.kernels, in config order
};

}  // namespace kblaster
