// Optimization pull requests: the verified speedups of an optimize result proposed to the
// repository as source changes, through the git data API (docs/publishing.md,
// "Optimization pull requests").
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/optimization_pr_facts.h"
#include "core/status.h"
#include "github/github_api.h"

namespace kblaster {

// GitHub's limit on the characters of a pull request's body.
inline constexpr std::size_t kMaxPullBodyChars = 65536;

// Writes an optimization pull request's body (Markdown) from the optimize result and
// the facts of that pull request: report/optimization_pr_body.h.
using OptimizationPrBody =
    std::function<Result<std::string>(const nlohmann::json& result, const OptimizationPrFacts&)>;

struct OptimizationPrRequest {
  std::string base_branch;  // "" = the repository's default branch
  OptimizationPrBody body;
  bool dry_run = false;  // say which kernels qualify, reading and writing nothing
};

// What was done, one line each, and what was not: the kernels left out with why, or
// with a dry run the pull requests it would make.
struct OptimizationPrReport {
  std::vector<std::string> done;  // "optimization PR #3 opened for matmul_naive: URL …"
  std::vector<std::string> notes;  // "optimization PR: softmax left out: needs a build setting (…)"
};

// For the kernels of `result` (kind optimize) that select_verified_changes keeps: finds the
// kernel repository in the base branch (the folder with a kblaster.toml that the result's
// repository ends with), reads its [publish] table, leaves out a kernel whose file there is
// not the source the search started from (by its fingerprint), and makes a commit and a
// pull request per kernel or per sweep, as the table says: a rerun moves the same branch
// and edits the same open pull request. Errors: a call's (Error::remote naming it, with
// what was done before), the base branch's [publish] table (Error::config), the body's.
Result<OptimizationPrReport> publish_optimization_prs(GitHubApi& api, const nlohmann::json& result,
                                                      const OptimizationPrRequest& request);

}  // namespace kblaster
