// Reading a config's `nvcc_flags` field through the allow-list
// (core/nvcc_flag_policy.h), for [project] and for each [[kernel]].
#pragma once

#include "core/nvcc_flag_policy.h"
#include "core/source_tree.h"
#include "core/status.h"
#include "core/toml_fields.h"

namespace kblaster {

// The field's flags, checked. A refused flag is an Error::config at that
// entry's file:line:col naming the flag; an -I directory must exist in `tree`
// (inside the repository, symbolic links resolved) and joins include_dirs.
Result<AllowedNvccFlags> read_nvcc_flags(const TomlFields& fields, const SourceTree& tree);

}  // namespace kblaster
