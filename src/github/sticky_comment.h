// The one PR comment kblaster keeps current: marked by a hidden HTML comment, found
// among the PR's comments, and edited in place rather than posted again.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// --comment: when the sticky comment is written.
enum class CommentMode {
  always,     // create it, or edit it on every run
  on_change,  // create it, or edit it when its findings changed (not its timestamps)
  never,      // leave the PR's comments alone (the job summary still has the report)
};

// "always", "on-change", "never" and back; nullopt for any other name.
std::string_view comment_mode_name(CommentMode mode);
std::optional<CommentMode> parse_comment_mode(std::string_view name);

// What to do about the sticky comment.
enum class CommentAction { create, edit, leave };

// The comment's body: the hidden marker for `key` (one sticky comment per key, so a
// check and an optimize workflow each keep their own) carrying `digest`, then
// `markdown`. `digest` names the findings (for on-change), e.g. a hash of the headline
// and table; it must be hex or empty.
std::string sticky_body(std::string_view key, std::string_view digest, std::string_view markdown);

// Whether `body` is the sticky comment for `key`: its first line is that marker. A
// comment that merely quotes the marker further down is not.
bool is_sticky_comment(std::string_view body, std::string_view key);

// The digest the sticky comment `body` carries; "" when it carries none.
std::string sticky_digest(std::string_view body);

// What `mode` asks for, given the body of the existing sticky comment (nullopt: none
// was found) and the digest of the new findings.
CommentAction decide_comment(CommentMode mode, const std::optional<std::string>& existing,
                             std::string_view digest);

}  // namespace kblaster
