// Parsing and validation of one `[[kernel]]` table into a KernelSpec.
#pragma once

#include <toml++/toml.h>

#include <string>

#include "core/kernel_spec.h"
#include "core/source_tree.h"
#include "core/status.h"

namespace kblaster {

// `file` is the repo-relative spec file (paths in it resolve beside it); `index`
// is the table's position in that file. Files named by the spec must exist in `tree`.
Result<KernelSpec> parse_kernel(const toml::table& table, const std::string& file,
                                std::size_t index, const ProjectConfig& project,
                                const SourceTree& tree);

}  // namespace kblaster
