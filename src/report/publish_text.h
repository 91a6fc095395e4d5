// The texts publishing posts, rendered from result values: the Markdown report, its
// headline (a check run's title), and a digest of the findings (what --comment
// on-change compares).
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "core/status.h"

namespace kblaster {

struct PublishText {
  std::string markdown;  // render_markdown of the results: within 65,536 characters
  std::string headline;  // report_headline: "2 kernels slower, 1 faster, 7 unchanged"
  std::string digest;    // 16 hex digits over each result's kind and head SHA and each
                         // kernel's name and finding: the same when only numbers moved
};

// The texts of `results` (values as the commands make them, or as saved). A result that
// does not read is load_result's usage error, naming `origin` and the field.
Result<PublishText> publish_text(std::span<const nlohmann::json> results,
                                 const std::string& origin);

}  // namespace kblaster
