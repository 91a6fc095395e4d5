// FakeGitHub's issue routes: comments on an issue or pull request (listed in pages,
// created, edited, deleted) and labels.
#include "support/fake_github_state.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* kCommentDocs = "https://docs.github.com/rest/issues/comments";
const std::size_t kMaxBody = 65536;  // GitHub's limit on a comment body, in characters

json comment_json(const FakeGitHubState& state, const FakeComment& c) {
  const std::string number = std::to_string(c.number);
  json j = {{"id", c.id},
            {"node_id", "IC_kwDO" + std::to_string(c.id)},
            {"url", state.api_root() + "/issues/comments/" + std::to_string(c.id)},
            {"html_url", state.site.web_url + "/" + state.repo.full_name() + "/pull/" + number +
                             "#issuecomment-" + std::to_string(c.id)},
            {"issue_url", state.api_root() + "/issues/" + number},
            {"body", c.body},
            {"user", user_json(state.site, c.author)},
            {"created_at", github_time(c.created_at)},
            {"updated_at", github_time(c.updated_at)},
            {"author_association", c.author.type == AccountType::bot ? "NONE" : "MEMBER"}};
  if (c.author.type == AccountType::bot)
    j["performed_via_github_app"] = actions_app_json(state.site);
  return j;
}

FakeComment* find_comment(FakeGitHubState& state, const std::string& id) {
  for (FakeComment& c : state.comments)
    if (std::to_string(c.id) == id) return &c;
  return nullptr;
}

// The body of a comment request, or the 422 GitHub gives without one or with too long a one.
std::optional<Reply> bad_body(const Call& call) {
  if (!call.body.is_object() || !call.body.contains("body") || !call.body["body"].is_string())
    return invalid("IssueComment", "body", "missing_field", kCommentDocs);
  if (call.body["body"].get<std::string>().size() > kMaxBody)
    return invalid("IssueComment", "body", "custom", kCommentDocs,
                   "body is too long (maximum is " + std::to_string(kMaxBody) + " characters)");
  return std::nullopt;
}

Reply list_comments(FakeGitHubState& state, const Call& call) {
  const int number = std::stoi(call.params[0]);
  if (!state.pull(number)) return not_found();
  json all = json::array();
  for (const FakeComment& c : state.comments)
    if (c.number == number) all.push_back(comment_json(state, c));
  return page_of(state, call, all);
}

Reply create_comment(FakeGitHubState& state, const Call& call) {
  const int number = std::stoi(call.params[0]);
  if (!state.pull(number)) return not_found();
  if (auto bad = bad_body(call)) return *bad;
  const std::int64_t t = state.tick();
  state.comments.push_back({.id = state.new_id(),
                            .number = number,
                            .body = call.body["body"].get<std::string>(),
                            .author = actions_bot(),
                            .created_at = t,
                            .updated_at = t});
  return {.status = 201, .body = comment_json(state, state.comments.back())};
}

Reply get_comment(FakeGitHubState& state, const Call& call) {
  FakeComment* c = find_comment(state, call.params[0]);
  return c ? Reply{.body = comment_json(state, *c)} : not_found();
}

Reply edit_comment(FakeGitHubState& state, const Call& call) {
  FakeComment* c = find_comment(state, call.params[0]);
  if (!c) return not_found();
  if (auto bad = bad_body(call)) return *bad;
  c->body = call.body["body"].get<std::string>();
  c->updated_at = state.tick();
  return {.body = comment_json(state, *c)};
}

Reply delete_comment(FakeGitHubState& state, const Call& call) {
  if (!find_comment(state, call.params[0])) return not_found();
  std::erase_if(state.comments,
                [&](const FakeComment& c) { return std::to_string(c.id) == call.params[0]; });
  return {.status = 204};
}

json labels_json(const FakeGitHubState& state, const PullFacts& pull) {
  json out = json::array();
  for (const auto& name : pull.labels) out.push_back(label_json(state.site, state.repo, name));
  return out;
}

Reply list_labels(FakeGitHubState& state, const Call& call) {
  PullFacts* pull = state.pull(std::stoi(call.params[0]));
  return pull ? page_of(state, call, labels_json(state, *pull)) : not_found();
}

// {"labels": ["a", "b"]} or ["a", "b"]; adds those not there yet.
Reply add_labels(FakeGitHubState& state, const Call& call) {
  PullFacts* pull = state.pull(std::stoi(call.params[0]));
  if (!pull) return not_found();
  const json& names = call.body.is_object() ? call.body.value("labels", json()) : call.body;
  if (!names.is_array() || names.empty())
    return invalid("Label", "labels", "missing_field",
                   "https://docs.github.com/rest/issues/labels");
  for (const json& name : names) {
    if (!name.is_string())
      return invalid("Label", "labels", "invalid", "https://docs.github.com/rest/issues/labels");
    if (std::find(pull->labels.begin(), pull->labels.end(), name) == pull->labels.end())
      pull->labels.push_back(name.get<std::string>());
  }
  pull->updated_at = state.tick();
  return {.body = labels_json(state, *pull)};
}

}  // namespace

const std::vector<Route>& issue_routes() {
  static const std::vector<Route> kRoutes = {
      {"GET", R"(/issues/(\d{1,9})/comments)", Access::read, list_comments},
      {"POST", R"(/issues/(\d{1,9})/comments)", Access::write, create_comment},
      {"GET", R"(/issues/comments/(\d{1,9}))", Access::read, get_comment},
      {"PATCH", R"(/issues/comments/(\d{1,9}))", Access::write, edit_comment},
      {"DELETE", R"(/issues/comments/(\d{1,9}))", Access::write, delete_comment},
      {"GET", R"(/issues/(\d{1,9})/labels)", Access::read, list_labels},
      {"POST", R"(/issues/(\d{1,9})/labels)", Access::write, add_labels},
  };
  return kRoutes;
}

}  // namespace kblaster::testing
