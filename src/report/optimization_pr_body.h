// The body of an optimization pull request, written from the optimize result value: the
// speedup with its CI, how it was verified, the path of techniques with the profile delta,
// the KB's lessons, and the commands that reproduce it (docs/publishing.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/optimization_pr_facts.h"
#include "core/status.h"

namespace kblaster {

// Markdown for the pull request `facts` describes, its kernels read from `result` (kind
// optimize); every text from the result escaped (markdown_escape, or in a fenced block of
// shell words). The caller keeps it within GitHub's limit (fit_body). Errors: a result that
// does not read (read_result's usage error), or a kernel of `facts` it does not hold.
Result<std::string> optimization_pr_body(const nlohmann::json& result,
                                         const OptimizationPrFacts& facts);

}  // namespace kblaster
