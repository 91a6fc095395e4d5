#include "github/pr_comment.h"

#include <optional>

#include "github/body_limit.h"

namespace kblaster {
namespace {

// The sticky comment for `key` among every comment of `issue` ("issues/7"), with its
// body; id 0 when there is none.
struct FoundComment {
  std::int64_t id = 0;
  std::string html_url, body;
};

Result<FoundComment> find_sticky(GitHubApi& api, const std::string& issue, std::string_view key) {
  auto comments = api.list(issue + "/comments");
  if (!comments) return comments.error();
  for (const auto& c : *comments) {
    if (!c.is_object() || !c.contains("body") || !c["body"].is_string()) continue;
    std::string body = c["body"].get<std::string>();
    if (!is_sticky_comment(body, key)) continue;
    return FoundComment{.id = c.value("id", std::int64_t{0}),
                        .html_url = c.value("html_url", std::string()),
                        .body = std::move(body)};
  }
  return FoundComment{};
}

}  // namespace

Result<CommentOutcome> publish_sticky_comment(GitHubApi& api, std::int64_t number,
                                              std::string_view key, std::string_view digest,
                                              std::string_view markdown, CommentMode mode) {
  CommentOutcome outcome;
  if (mode == CommentMode::never) return outcome;
  const std::string issue = "issues/" + std::to_string(number);
  auto found = find_sticky(api, issue, key);
  if (!found) return found.error();
  outcome.id = found->id;
  outcome.html_url = found->html_url;
  const std::optional<std::string> existing =
      found->id != 0 ? std::optional<std::string>(found->body) : std::nullopt;
  outcome.action = decide_comment(mode, existing, digest);
  if (outcome.action == CommentAction::leave) return outcome;
  const nlohmann::json request = {
      {"body", fit_body(sticky_body(key, digest, markdown), kMaxCommentChars)}};
  auto reply =
      outcome.action == CommentAction::create
          ? api.call(HttpMethod::post, issue + "/comments", request)
          : api.call(HttpMethod::patch, "issues/comments/" + std::to_string(outcome.id), request);
  if (!reply && outcome.action == CommentAction::create) {
    // A create is not sent twice, but it may have been done though its answer was lost:
    // adopt the comment if it is there now, so no run ever leaves two.
    auto made = find_sticky(api, issue, key);
    if (!made || made->id == 0) return reply.error();
    outcome.id = made->id;
    outcome.html_url = made->html_url;
    return outcome;
  }
  if (!reply) return reply.error();
  if (reply->body.is_object()) {
    outcome.id = reply->body.value("id", outcome.id);
    outcome.html_url = reply->body.value("html_url", outcome.html_url);
  }
  return outcome;
}

}  // namespace kblaster
