// Where a kernel's build looks for included files, read from its spec as nvcc reads its
// command line: what plan and the compile cache must follow, so that a flag the build honours
// is never one they ignore (issue 21, C).
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"

namespace kblaster {

// The include directories, repository-relative, in the order the build searches them:
// include_dirs, then each directory nvcc_flags names with -I, -isystem or --include-path
// (joined, "=", or the next word; comma-separated lists split). nvcc runs in the repository's
// root, so relative directories are read from there; absolute ones and ones that leave the
// repository are not the repository's and are left out.
std::vector<std::string> include_search_dirs(const KernelSpec& spec);

// The files nvcc_flags include before the source's first line (-include or --pre-include),
// repository-relative as written; absolute ones and ones that leave the repository left out.
std::vector<std::string> forced_includes(const KernelSpec& spec);

}  // namespace kblaster
