// FakeGitHub's pull request routes: open (one open pull request per head, as on
// GitHub), list by head and state, read, edit, and review.
#include "support/fake_github_state.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* kPullDocs = "https://docs.github.com/rest/pulls/pulls";
const char* kReviewDocs = "https://docs.github.com/rest/pulls/reviews";

// "owner:branch" or "branch" to the branch, when the owner is this repository's.
std::optional<std::string> own_branch(const FakeGitHubState& state, const std::string& head) {
  const auto colon = head.find(':');
  if (colon == std::string::npos) return head;
  if (head.substr(0, colon) != state.repo.owner.login) return std::nullopt;
  return head.substr(colon + 1);
}

Reply create_pull(FakeGitHubState& state, const Call& call) {
  for (const char* field : {"title", "head", "base"})
    if (!call.body.is_object() || !call.body.contains(field) || !call.body[field].is_string())
      return invalid("PullRequest", field, "missing_field", kPullDocs);
  const auto head = own_branch(state, call.body["head"]);
  const auto head_sha = head ? resolve_commit(state, "refs/heads/" + *head) : std::nullopt;
  if (!head_sha) return invalid("PullRequest", "head", "invalid", kPullDocs);
  const std::string base = call.body["base"];
  const auto base_sha = resolve_commit(state, "refs/heads/" + base);
  if (!base_sha) return invalid("PullRequest", "base", "invalid", kPullDocs);
  for (const PullFacts& p : state.pulls)
    if (p.state == "open" && p.head_ref == *head && p.base_ref == base)
      return invalid(
          "PullRequest", "", "custom", kPullDocs,
          "A pull request already exists for " + state.repo.owner.login + ":" + *head + ".");
  if (*head_sha == *base_sha)
    return invalid("PullRequest", "", "custom", kPullDocs,
                   "No commits between " + base + " and " + *head);
  PullFacts pull{.number = state.next_number++,
                 .title = call.body["title"],
                 .body = call.body.value("body", ""),
                 .draft = call.body.value("draft", false),
                 .author = actions_bot(),
                 .base_repo = state.repo,
                 .base_ref = base,
                 .base_sha = *base_sha,
                 .head_ref = *head,
                 .head_sha = *head_sha};
  pull.created_at = pull.updated_at = state.tick();
  state.pulls.push_back(pull);
  return {.status = 201, .body = pull_request_json(state.site, pull)};
}

// Filters: state (open, closed, all; default open), head ("owner:branch"), base.
Reply list_pulls(FakeGitHubState& state, const Call& call) {
  const std::string wanted = call.query_value("state", "open");
  const std::string head = call.query_value("head");
  const auto head_branch = head.empty() ? std::optional<std::string>() : own_branch(state, head);
  json out = json::array();
  for (const PullFacts& p : state.pulls) {
    if (wanted != "all" && p.state != wanted) continue;
    if (!head.empty() && (!head_branch || *head_branch != p.head_ref)) continue;
    if (call.query_value("base", p.base_ref) != p.base_ref) continue;
    out.push_back(pull_request_json(state.site, p));
  }
  return page_of(state, call, out);
}

Reply get_pull(FakeGitHubState& state, const Call& call) {
  PullFacts* pull = state.pull(std::stoi(call.params[0]));
  return pull ? Reply{.body = pull_request_json(state.site, *pull)} : not_found();
}

Reply edit_pull(FakeGitHubState& state, const Call& call) {
  PullFacts* pull = state.pull(std::stoi(call.params[0]));
  if (!pull) return not_found();
  if (!call.body.is_object()) return invalid("PullRequest", "body", "invalid", kPullDocs);
  PullFacts edited = *pull;
  if (call.body.contains("title")) edited.title = call.body["title"].get<std::string>();
  if (call.body.contains("body")) edited.body = call.body["body"].get<std::string>();
  if (call.body.contains("state")) {
    edited.state = call.body["state"].get<std::string>();
    if (edited.state != "open" && edited.state != "closed")
      return invalid("PullRequest", "state", "invalid", kPullDocs);
  }
  if (call.body.contains("base")) {
    edited.base_ref = call.body["base"].get<std::string>();
    const auto base_sha = resolve_commit(state, "refs/heads/" + edited.base_ref);
    if (!base_sha) return invalid("PullRequest", "base", "invalid", kPullDocs);
    edited.base_sha = *base_sha;
  }
  edited.updated_at = state.tick();
  edited.closed_at = edited.state == "closed" ? std::optional(edited.updated_at) : std::nullopt;
  *pull = edited;
  return {.body = pull_request_json(state.site, *pull)};
}

json review_json(const FakeGitHubState& state, const FakeReview& r) {
  const std::string pull_url = state.api_root() + "/pulls/" + std::to_string(r.number);
  const std::string html = state.site.web_url + "/" + state.repo.full_name() + "/pull/" +
                           std::to_string(r.number) + "#pullrequestreview-" + std::to_string(r.id);
  return {{"id", r.id},
          {"node_id", "PRR_kwDO" + std::to_string(r.id)},
          {"user", user_json(state.site, actions_bot())},
          {"body", r.body},
          {"state", r.state},
          {"html_url", html},
          {"pull_request_url", pull_url},
          {"_links", {{"html", {{"href", html}}}, {"pull_request", {{"href", pull_url}}}}},
          {"submitted_at", github_time(r.submitted_at)},
          {"commit_id", r.commit_id},
          {"author_association", "NONE"}};
}

// event APPROVE, REQUEST_CHANGES or COMMENT (the latter two need a body), or none for a
// pending review; each inline comment must name a file of the head commit.
Reply create_review(FakeGitHubState& state, const Call& call) {
  PullFacts* pull = state.pull(std::stoi(call.params[0]));
  if (!pull) return not_found();
  if (!call.body.is_object()) return invalid("PullRequestReview", "body", "invalid", kReviewDocs);
  static const std::map<std::string, std::string> kStates = {
      {"APPROVE", "APPROVED"}, {"REQUEST_CHANGES", "CHANGES_REQUESTED"}, {"COMMENT", "COMMENTED"}};
  const std::string event = call.body.value("event", "");
  if (!event.empty() && !kStates.contains(event))
    return invalid("PullRequestReview", "event", "invalid", kReviewDocs);
  const std::string body = call.body.value("body", "");
  if ((event == "REQUEST_CHANGES" || event == "COMMENT") && body.empty())
    return invalid("PullRequestReview", "body", "missing_field", kReviewDocs);
  const std::string commit = call.body.value("commit_id", pull->head_sha);
  if (!state.commits.contains(commit))
    return problem(422, "Commit " + commit + " does not exist", kReviewDocs);
  const FlatTree& files = state.trees.at(state.commits.at(commit).tree);
  const json comments = call.body.value("comments", json::array());
  for (const json& c : comments)
    if (!c.is_object() || !c.contains("path") || !c["path"].is_string() ||
        !files.contains(c["path"].get<std::string>()) || !c.contains("body"))
      return {.status = 422,
              .body = {{"message", "Unprocessable Entity"},
                       {"errors", json::array({"Path could not be resolved"})},
                       {"documentation_url", kReviewDocs},
                       {"status", "422"}}};
  state.reviews.push_back({.id = state.new_id(),
                           .number = pull->number,
                           .state = event.empty() ? "PENDING" : kStates.at(event),
                           .body = body,
                           .commit_id = commit,
                           .comments = comments,
                           .submitted_at = state.tick()});
  return {.body = review_json(state, state.reviews.back())};
}

Reply list_reviews(FakeGitHubState& state, const Call& call) {
  const int number = std::stoi(call.params[0]);
  if (!state.pull(number)) return not_found();
  json out = json::array();
  for (const FakeReview& r : state.reviews)
    if (r.number == number) out.push_back(review_json(state, r));
  return page_of(state, call, out);
}

// PUT pulls/{n}/reviews/{id}: a submitted review's body replaced, as GitHub allows.
Reply update_review(FakeGitHubState& state, const Call& call) {
  const int number = std::stoi(call.params[0]);
  const std::int64_t id = std::stoll(call.params[1]);
  if (!call.body.is_object() || !call.body.contains("body") || !call.body["body"].is_string())
    return invalid("PullRequestReview", "body", "missing_field", kReviewDocs);
  for (FakeReview& r : state.reviews)
    if (r.number == number && r.id == id) {
      r.body = call.body["body"].get<std::string>();
      return {.body = review_json(state, r)};
    }
  return not_found();
}

}  // namespace

const std::vector<Route>& pull_routes() {
  static const std::vector<Route> kRoutes = {
      {"POST", "/pulls", Access::write, create_pull},
      {"GET", "/pulls", Access::read, list_pulls},
      {"GET", R"(/pulls/(\d{1,9}))", Access::read, get_pull},
      {"PATCH", R"(/pulls/(\d{1,9}))", Access::write, edit_pull},
      {"POST", R"(/pulls/(\d{1,9})/reviews)", Access::write, create_review},
      {"GET", R"(/pulls/(\d{1,9})/reviews)", Access::read, list_reviews},
      {"PUT", R"(/pulls/(\d{1,9})/reviews/(\d{1,18}))", Access::write, update_review},
  };
  return kRoutes;
}

}  // namespace kblaster::testing
