// One pull request per head branch, kept current: found among the open pull requests
// from that branch and edited, or opened, and labelled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "github/github_api.h"

namespace kblaster {

struct PullRequestText {
  std::string title, body;  // body within GitHub's 65,536 characters (fit_body)
};

// What was done: the pull request's number and page, and whether it was opened now.
struct PullRequestOutcome {
  std::int64_t number = 0;
  std::string html_url;
  bool opened = false;  // false: an open one was edited
};

// The open pull request from this repository's `head` branch (GET pulls?head=owner:head
// &state=open) gets `text` (PATCH), and `base` when it has another; with none open, one is
// opened from `head` into `base` (POST pulls), and a 422 "A pull request already exists"
// (one opened since by a concurrent run) is answered by finding and editing that one.
// `labels` are then added (none: no call). Errors: the calls' (Error::remote naming the call).
Result<PullRequestOutcome> open_or_update_pull(GitHubApi& api, const std::string& head,
                                               const std::string& base, const PullRequestText& text,
                                               const std::vector<std::string>& labels);

}  // namespace kblaster
