// Publishing a run's results on GitHub: the sticky comment, the check run, the claims
// review and optimization pull requests, each from values the report layer already
// rendered (or, for a pull request's body, renders through a function it gave). The job summary
// and the local report files are written before this runs, so a failed call here
// never loses a result.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "github/check_run.h"
#include "github/github_api.h"
#include "github/optimization_pr.h"
#include "github/sticky_comment.h"

namespace kblaster {

// What to publish, and where.
struct PublishPlan {
  std::optional<std::int64_t> pr;  // the pull request; nullopt: a push (check run only)
  std::string head_sha;            // the commit the check run and review are on; "" = the PR's head
  std::vector<nlohmann::json> results;  // the result values published
  std::string markdown;                 // their report (report/publish_text)
  std::string headline;                 // its headline: the check run's title
  std::string digest;                   // its findings' digest (on-change)
  CommentMode comment = CommentMode::always;
  std::string comment_key = "kblaster";      // one sticky comment per key
  bool check_run = true;                     // for check results
  std::optional<std::int64_t> check_run_id;  // one started in progress earlier; else made here
  std::string check_name = std::string(kCheckRunName);  // the name of one made here
  bool review = false;                                  // answer the PR body's speedup claims
  bool request_changes = false;  // review event REQUEST_CHANGES on a failed verification
  std::string base_branch;       // optimization PRs' base; "" = the repository's default
  OptimizationPrBody pr_body;    // writes their bodies; needed for an optimize result
  bool dry_run = false;          // the transport sends nothing: plan no optimization PR
};

// One line per thing done, for the user: "comment: edited https://…"; and what was
// not done, and why: "optimization PR: softmax left out: needs a build setting (…)".
struct PublishOutcome {
  std::vector<std::string> done;
  std::vector<std::string> notes;
};

// With a PR: reads the PR (its head SHA when none is given, its body for claims), then
// keeps the sticky comment (by `comment`), and for the check results completes a check
// run (`check_run_id`, or a new one named `check_name` on the head SHA) with the
// conclusion, headline, report and annotations, and with `review` posts the claims review. Without
// a PR only the check run is made. Each optimize result then gets its optimization pull
// requests (publish_optimization_prs). Stops at the first failed call: Error::remote naming it,
// with what was already done said in the message.
Result<PublishOutcome> publish(GitHubApi& api, const PublishPlan& plan);

}  // namespace kblaster
