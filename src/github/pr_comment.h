// Keeping kblaster's one sticky comment on a pull request current through the REST API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "github/github_api.h"
#include "github/sticky_comment.h"

namespace kblaster {

// What was done to the comment, and where it is ("" when nothing was written).
struct CommentOutcome {
  CommentAction action = CommentAction::leave;
  std::int64_t id = 0;   // the comment's id; 0 when there is none
  std::string html_url;  // the comment's page; "" when there is none
};

// GitHub takes at most this many characters in an issue comment.
inline constexpr std::size_t kMaxCommentChars = 65536;

// Finds the sticky comment for `key` on pull request `number` across every page of its
// comments, then creates it, edits it in place, or leaves it, as decide_comment says
// for `mode` and `digest`. `markdown` must fit in kMaxCommentChars with the marker
// (the report's renderer keeps it within 65,536; a longer body is cut, saying so).
// A create whose answer was lost (a timeout) is not sent again; if the comment is there
// afterwards it is adopted as created. Errors: the calls' (Error::remote, naming the call).
Result<CommentOutcome> publish_sticky_comment(GitHubApi& api, std::int64_t number,
                                              std::string_view key, std::string_view digest,
                                              std::string_view markdown, CommentMode mode);

}  // namespace kblaster
