// Loading a kernel repository's configuration: kblaster.toml at the root, then
// every *.kblaster.toml matched by [project].kernel_specs, validated as a whole.
#pragma once

#include <toml++/toml.h>

#include <string_view>

#include "core/kernel_spec.h"
#include "core/source_tree.h"
#include "core/status.h"

namespace kblaster {

inline constexpr const char* kConfigFile = "kblaster.toml";

// Reads and validates the configuration of `tree`. Fails with an Error::config
// whose `where` is "file:line:col" and whose message names the field.
Result<Config> load_config(const SourceTree& tree);

// `text` parsed as TOML, errors (Error::config) located at `file`:line:col; a character the
// TOML library cannot read safely is refused first (core/toml_text_guard.h).
Result<toml::table> parse_toml_text(std::string_view text, const std::string& file);

// The [publish] table alone of a kblaster.toml whose text is `text`, as `file` (for
// example "acme/kernels@main:kblaster.toml") names it in errors; the rest of the file is
// not validated. Errors: Error::config located in `file` (TOML syntax, parse_publish's).
Result<PublishConfig> load_publish_config(std::string_view text, const std::string& file);

// A kernel declared twice is an error at its second declaration whose message
// ends with this text and the first one's "file:line:col", so a caller that
// rewrites locations (a repository below the git root) can find both.
inline constexpr std::string_view kDeclaredTwiceFirstAt = "declared twice; first at ";

}  // namespace kblaster
