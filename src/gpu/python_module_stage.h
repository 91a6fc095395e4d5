// A PyTorch reference's module, staged for the harness: its .py file copied into the compile
// cache under the hash of its bytes (<cache>/objects/<sha256>.py), so that, like a built object,
// its path names its content and the harness's reference memo cannot mistake an edited module
// for the one it ran.
#pragma once

#include <filesystem>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "gpu/candidate_builder.h"

namespace kblaster {

// Stages `spec`'s reference module (ReferenceSpec::Kind::python) from `repo_root` into
// `cache_dir`: cache_hit when that content is staged already, built when copied now (the copy
// written whole, then renamed), source_missing when the file is not in the tree. Errors are
// write failures (exit 3 for a full disk).
Result<BuildResult> stage_python_module(const KernelSpec& spec,
                                        const std::filesystem::path& repo_root,
                                        const std::filesystem::path& cache_dir);

}  // namespace kblaster
