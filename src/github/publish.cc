#include "github/publish.h"

#include "github/check_run.h"
#include "github/check_run_output.h"
#include "github/claim_review.h"
#include "github/claims.h"
#include "github/pr_comment.h"
#include "github/pr_review.h"

namespace kblaster {
namespace {

std::string_view action_name(CommentAction action) {
  switch (action) {
    case CommentAction::create:
      return "created";
    case CommentAction::edit:
      return "edited";
    case CommentAction::leave:
      return "left as it was";
  }
  return "";
}

// The check result among `results` (the last one, when there are several); null if none.
const nlohmann::json* check_result(const std::vector<nlohmann::json>& results) {
  const nlohmann::json* found = nullptr;
  for (const auto& r : results)
    if (r.is_object() && r.value("kind", std::string()) == "check") found = &r;
  return found;
}

// `error` with what was done before it.
Error after(Error error, const PublishOutcome& outcome) {
  if (outcome.done.empty()) return error;
  std::string done;
  for (const auto& line : outcome.done) done += (done.empty() ? "" : "; ") + line;
  error.message += " (done before it: " + done + ")";
  return error;
}

// The annotations, conclusion and report of `check` completed on a new check run.
Status publish_check_run(GitHubApi& api, const PublishPlan& plan, const std::string& head_sha,
                         const nlohmann::json& check, PublishOutcome& outcome) {
  auto id = plan.check_run_id ? Result<std::int64_t>(*plan.check_run_id)
                              : start_check_run(api, plan.check_name, head_sha);
  if (!id) return id.error();
  const CheckRunReport report{.conclusion = std::string(check_conclusion(check)),
                              .title = plan.headline,
                              .summary = plan.markdown,
                              .annotations = check_annotations(check)};
  KB_TRY(finish_check_run(api, *id, report));
  outcome.done.push_back("check run: " + plan.check_name + " " + report.conclusion + " on " +
                         head_sha.substr(0, 12) + ", " + std::to_string(report.annotations.size()) +
                         " annotation(s)");
  return Ok{};
}

}  // namespace

Result<PublishOutcome> publish(GitHubApi& api, const PublishPlan& plan) {
  PublishOutcome outcome;
  std::string head_sha = plan.head_sha;
  std::string pr_body;
  if (plan.pr) {
    auto pull = api.call(HttpMethod::get, "pulls/" + std::to_string(*plan.pr));
    if (!pull) return pull.error();
    const auto& p = pull->body;
    if (head_sha.empty() && p.is_object() && p.contains("head") && p["head"].is_object())
      head_sha = p["head"].value("sha", std::string());
    if (p.is_object() && p.contains("body") && p["body"].is_string())
      pr_body = p["body"].get<std::string>();
    auto comment = publish_sticky_comment(api, *plan.pr, plan.comment_key, plan.digest,
                                          plan.markdown, plan.comment);
    if (!comment) return after(comment.error(), outcome);
    if (plan.comment != CommentMode::never)
      outcome.done.push_back("comment: " + std::string(action_name(comment->action)) +
                             (comment->html_url.empty() ? "" : " " + comment->html_url));
  }
  const nlohmann::json* check = check_result(plan.results);
  if (check && plan.check_run) {
    if (head_sha.empty())
      return after(Error::usage("no head SHA for the check run: give --sha, or --pr"), outcome);
    if (auto made = publish_check_run(api, plan, head_sha, *check, outcome); !made)
      return after(made.error(), outcome);
  }
  if (plan.review && plan.pr) {
    if (!check)
      return after(Error::usage("--review answers a check result's kernels; none was given"),
                   outcome);
    const ClaimList claims = parse_claims(pr_body);
    const auto answers = answer_claims(claims.claims, *check);
    auto url = post_review(api, *plan.pr, head_sha, review_event(answers, plan.request_changes),
                           review_body(answers, claims.ignored, head_sha));
    if (!url) return after(url.error(), outcome);
    outcome.done.push_back("review: " + std::to_string(answers.size()) + " claim(s) answered" +
                           (url->updated ? " (its earlier review of this head edited)" : "") +
                           (url->html_url.empty() ? "" : " " + url->html_url));
  }
  for (const auto& r : plan.results) {
    if (!r.is_object() || r.value("kind", std::string()) != "optimize") continue;
    if (!plan.pr_body) return Error::internal("optimization PRs without a body renderer");
    auto prs = publish_optimization_prs(
        api, r, {.base_branch = plan.base_branch, .body = plan.pr_body, .dry_run = plan.dry_run});
    if (!prs) return after(prs.error(), outcome);
    outcome.done.insert(outcome.done.end(), prs->done.begin(), prs->done.end());
    outcome.notes.insert(outcome.notes.end(), prs->notes.begin(), prs->notes.end());
  }
  return outcome;
}

}  // namespace kblaster
