// Posting kblaster's answer to a pull request's speedup claims as a pull-request review.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "github/github_api.h"

namespace kblaster {

// Posts a review with `body` and `event` ("COMMENT" or "REQUEST_CHANGES") on pull
// request `number` at `commit_sha` (the head kblaster measured, so the review says which
// commit it speaks for); returns its page. Errors: the call's.
Result<std::string> post_review(GitHubApi& api, std::int64_t number, std::string_view commit_sha,
                                std::string_view event, std::string_view body);

}  // namespace kblaster
