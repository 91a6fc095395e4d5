// Posting kblaster's answer to a pull request's speedup claims as a pull-request review.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "github/github_api.h"

namespace kblaster {

// What post_review did: a new review, or kblaster's earlier one of the same head edited.
struct ReviewOutcome {
  bool updated = false;
  std::string html_url;  // the review's page; "" when GitHub named none
};

// Posts a review with `body` and `event` ("COMMENT" or "REQUEST_CHANGES") on pull
// request `number` at `commit_sha` (the head kblaster measured, so the review says which
// commit it speaks for). `body` must start with review_body's marker for that head: when
// kblaster already reviewed this head (a rerun), that review's body is replaced instead
// (a submitted review's event cannot change), so a PR gets one review per head. Errors:
// the calls'.
Result<ReviewOutcome> post_review(GitHubApi& api, std::int64_t number, std::string_view commit_sha,
                                  std::string_view event, std::string_view body);

}  // namespace kblaster
