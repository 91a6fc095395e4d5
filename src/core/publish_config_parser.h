// Reading the [publish] table of a kblaster.toml (core/publish_config.h).
#pragma once

#include <toml++/toml.h>

#include <string>

#include "core/publish_config.h"
#include "core/status.h"

namespace kblaster {

// The [publish] table of `root`, the parsed kblaster.toml that `file` names in errors;
// the defaults when it is absent. Errors: Error::config at the value's file:line:col,
// naming the field (an unknown field, a grouping that is neither, a label that is empty,
// longer than kMaxLabelLength or given twice).
Result<PublishConfig> parse_publish(const toml::table& root, const std::string& file);

}  // namespace kblaster
