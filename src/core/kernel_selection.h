// Choosing the kernels a command was asked for (--kernel NAME…) from a config, and
// naming config errors as the user reaches the files: below the repository path.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

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
