#include "github/pull_request.h"

#include <array>
#include <optional>

#include "github/url_component.h"

namespace kblaster {
namespace {

using nlohmann::json;

std::string html_url_of(const json& pull) {
  return pull.is_object() && pull.contains("html_url") && pull["html_url"].is_string()
             ? pull["html_url"].get<std::string>()
             : "";
}

// The first open pull request from `head` (another base's too); nullopt when none is.
Result<std::optional<json>> find_open_pull(GitHubApi& api, const std::string& head) {
  const GitHubTarget& t = api.target();
  auto pulls = api.list("pulls?head=" + url_component(t.owner + ":" + head) + "&state=open");
  if (!pulls) return pulls.error();
  for (json& p : *pulls)
    if (p.is_object() && p.contains("number") && p["number"].is_number_integer())
      return std::optional<json>(std::move(p));
  return std::optional<json>();
}

// `pull` edited to carry `text` and `base`.
Result<PullRequestOutcome> edit_pull(GitHubApi& api, const json& pull, const std::string& base,
                                     const PullRequestText& text) {
  const std::int64_t number = pull["number"].get<std::int64_t>();
  json request = {{"title", text.title}, {"body", text.body}};
  const json pull_base = pull.contains("base") ? pull["base"] : json();
  if (!pull_base.is_object() || pull_base.value("ref", "") != base) request["base"] = base;
  auto edited = api.call(HttpMethod::patch, "pulls/" + std::to_string(number), request);
  if (!edited) return edited.error();
  return PullRequestOutcome{
      .number = number, .html_url = html_url_of(edited->body), .opened = false};
}

bool names_an_existing_pull(const json& body) {
  return body.dump().find("A pull request already exists") != std::string::npos;
}

// A refusal of GITHUB_TOKEN to open pull requests, with what lifts it.
Error with_pull_request_advice(Error error) {
  if (error.message.find("not permitted to create or approve pull requests") != std::string::npos)
    error.message +=
        ". The repository (or its organization) must allow it: Settings > Actions > General > "
        "\"Allow GitHub Actions to create and approve pull requests\"; or give kblaster a GitHub "
        "App's or a personal access token with --token-env (docs/publishing.md)";
  return error;
}

}  // namespace

Result<PullRequestOutcome> open_or_update_pull(GitHubApi& api, const std::string& head,
                                               const std::string& base, const PullRequestText& text,
                                               const std::vector<std::string>& labels) {
  auto open = find_open_pull(api, head);
  if (!open) return open.error();
  Result<PullRequestOutcome> outcome = Error::internal("no pull request");
  if (*open) {
    outcome = edit_pull(api, **open, base, text);
  } else {
    static constexpr std::array<int, 1> kUnprocessable = {422};
    auto created =
        api.call(HttpMethod::post, "pulls",
                 {{"title", text.title}, {"head", head}, {"base", base}, {"body", text.body}},
                 kUnprocessable);
    if (!created) return with_pull_request_advice(created.error());
    if (created->status == 422) {
      if (!names_an_existing_pull(created->body))
        return Error::remote("GitHub call POST " + api.url("pulls") +
                             " answered 422: " + created->body.dump());
      auto raced = find_open_pull(api, head);
      if (!raced) return raced.error();
      if (!*raced)
        return Error::remote("GitHub says a pull request from " + head +
                             " already exists, but lists none open");
      outcome = edit_pull(api, **raced, base, text);
    } else if (!created->body.is_object() || !created->body.contains("number") ||
               !created->body["number"].is_number_integer()) {
      return Error::remote("GitHub call POST " + api.url("pulls") +
                           " answered without the pull request's number");
    } else {
      outcome = PullRequestOutcome{.number = created->body["number"].get<std::int64_t>(),
                                   .html_url = html_url_of(created->body),
                                   .opened = true};
    }
  }
  if (!outcome || labels.empty()) return outcome;
  auto labelled =
      api.call(HttpMethod::post, "issues/" + std::to_string(outcome->number) + "/labels",
               {{"labels", labels}});
  if (!labelled) return labelled.error();
  return outcome;
}

}  // namespace kblaster
