#include "github/pr_comment.h"

#include <optional>

#include "github/body_limit.h"

namespace kblaster {

Result<CommentOutcome> publish_sticky_comment(GitHubApi& api, std::int64_t number,
                                              std::string_view key, std::string_view digest,
                                              std::string_view markdown, CommentMode mode) {
  CommentOutcome outcome;
  if (mode == CommentMode::never) return outcome;
  const std::string issue = "issues/" + std::to_string(number);
  auto comments = api.list(issue + "/comments");
  if (!comments) return comments.error();
  std::optional<std::string> existing;
  for (const auto& c : *comments) {
    if (!c.is_object() || !c.contains("body") || !c["body"].is_string()) continue;
    const std::string body = c["body"].get<std::string>();
    if (!is_sticky_comment(body, key)) continue;
    existing = body;
    outcome.id = c.value("id", std::int64_t{0});
    outcome.html_url = c.value("html_url", std::string());
    break;
  }
  outcome.action = decide_comment(mode, existing, digest);
  if (outcome.action == CommentAction::leave) return outcome;
  const nlohmann::json request = {
      {"body", fit_body(sticky_body(key, digest, markdown), kMaxCommentChars)}};
  auto reply =
      outcome.action == CommentAction::create
          ? api.call(HttpMethod::post, issue + "/comments", request)
          : api.call(HttpMethod::patch, "issues/comments/" + std::to_string(outcome.id), request);
  if (!reply) return reply.error();
  if (reply->body.is_object()) {
    outcome.id = reply->body.value("id", outcome.id);
    outcome.html_url = reply->body.value("html_url", outcome.html_url);
  }
  return outcome;
}

}  // namespace kblaster
