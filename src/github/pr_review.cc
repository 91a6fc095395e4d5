#include "github/pr_review.h"

#include "github/body_limit.h"
#include "github/pr_comment.h"

namespace kblaster {
namespace {

// "<!-- kblaster:review head=SHA -->": the first line of kblaster's review of `sha`.
std::string review_marker(std::string_view sha) {
  return "<!-- kblaster:review head=" + std::string(sha) + " -->";
}

// The id of kblaster's earlier review of `commit_sha` on pull request `number`, or 0.
Result<std::int64_t> earlier_review(GitHubApi& api, const std::string& reviews,
                                    std::string_view commit_sha) {
  auto listed = api.list(reviews);
  if (!listed) return listed.error();
  const std::string marker = review_marker(commit_sha);
  for (const auto& r : *listed)
    if (r.is_object() && r.contains("body") && r["body"].is_string() &&
        r["body"].get<std::string>().starts_with(marker))
      return r.value("id", std::int64_t{0});
  return std::int64_t{0};
}

}  // namespace

Result<ReviewOutcome> post_review(GitHubApi& api, std::int64_t number, std::string_view commit_sha,
                                  std::string_view event, std::string_view body) {
  const std::string reviews = "pulls/" + std::to_string(number) + "/reviews";
  const std::string text = fit_body(body, kMaxCommentChars);
  auto earlier = earlier_review(api, reviews, commit_sha);
  if (!earlier) return earlier.error();
  ReviewOutcome outcome{.updated = *earlier != 0, .html_url = {}};
  auto reply =
      outcome.updated
          ? api.call(HttpMethod::put, reviews + "/" + std::to_string(*earlier), {{"body", text}})
          : api.call(HttpMethod::post, reviews,
                     {{"commit_id", commit_sha}, {"event", event}, {"body", text}});
  if (!reply) return reply.error();
  if (reply->body.is_object()) outcome.html_url = reply->body.value("html_url", std::string());
  return outcome;
}

}  // namespace kblaster
