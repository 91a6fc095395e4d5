#include "github/pr_review.h"

#include "github/body_limit.h"
#include "github/pr_comment.h"

namespace kblaster {

Result<std::string> post_review(GitHubApi& api, std::int64_t number, std::string_view commit_sha,
                                std::string_view event, std::string_view body) {
  const nlohmann::json request = {
      {"commit_id", commit_sha}, {"event", event}, {"body", fit_body(body, kMaxCommentChars)}};
  auto reply = api.call(HttpMethod::post, "pulls/" + std::to_string(number) + "/reviews", request);
  if (!reply) return reply.error();
  return reply->body.is_object() ? reply->body.value("html_url", std::string()) : std::string();
}

}  // namespace kblaster
