#include "support/github_pull.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

json branch_json(const GitHubSite& site, const RepositoryFacts& repo, const std::string& ref,
                 const std::string& sha) {
  return {{"label", repo.owner.login + ":" + ref},
          {"ref", ref},
          {"sha", sha},
          {"user", user_json(site, repo.owner)},
          {"repo", repository_json(site, repo)}};
}

}  // namespace

json label_json(const GitHubSite& site, const RepositoryFacts& repo, const std::string& name) {
  const std::int64_t id = stable_id("label:" + repo.full_name() + ":" + name);
  return {{"id", id},
          {"node_id", "LA_kwDO" + std::to_string(id)},
          {"url", site.api_url + "/repos/" + repo.full_name() + "/labels/" + name},
          {"name", name},
          // "": the pull request schemas' labels require a string, where `label` allows null.
          {"description", ""},
          {"color", "ededed"},
          {"default", false}};
}

json pull_request_json(const GitHubSite& site, const PullFacts& pull) {
  const RepositoryFacts& base = pull.base_repo;
  const std::string api = site.api_url + "/repos/" + base.full_name();
  const std::string number = std::to_string(pull.number);
  const std::string url = api + "/pulls/" + number;
  const std::string html = site.web_url + "/" + base.full_name() + "/pull/" + number;
  const std::int64_t id = stable_id("pull:" + base.full_name() + "#" + number);
  json labels = json::array();
  for (const auto& name : pull.labels) labels.push_back(label_json(site, base, name));
  const auto time_or_null = [](const std::optional<std::int64_t>& t) {
    return t ? json(github_time(*t)) : json(nullptr);
  };
  const auto link = [](const std::string& href) { return json{{"href", href}}; };
  return {{"url", url},
          {"id", id},
          {"node_id", "PR_kwDO" + std::to_string(id)},
          {"html_url", html},
          {"diff_url", html + ".diff"},
          {"patch_url", html + ".patch"},
          {"issue_url", api + "/issues/" + number},
          {"commits_url", url + "/commits"},
          {"review_comments_url", url + "/comments"},
          {"review_comment_url", api + "/pulls/comments{/number}"},
          {"comments_url", api + "/issues/" + number + "/comments"},
          {"statuses_url", api + "/statuses/" + pull.head_sha},
          {"number", pull.number},
          {"state", pull.state},
          {"locked", false},
          {"active_lock_reason", nullptr},
          {"title", pull.title},
          {"user", user_json(site, pull.author)},
          {"body", pull.body.empty() ? json(nullptr) : json(pull.body)},
          {"labels", labels},
          {"milestone", nullptr},
          {"created_at", github_time(pull.created_at)},
          {"updated_at", github_time(pull.updated_at)},
          {"closed_at", time_or_null(pull.closed_at)},
          {"merged_at", nullptr},
          {"merge_commit_sha", nullptr},
          {"assignee", nullptr},
          {"assignees", json::array()},
          {"requested_reviewers", json::array()},
          {"requested_teams", json::array()},
          {"head", branch_json(site, pull.head_repo.value_or(base), pull.head_ref, pull.head_sha)},
          {"base", branch_json(site, base, pull.base_ref, pull.base_sha)},
          {"_links",
           {{"self", link(url)},
            {"html", link(html)},
            {"issue", link(api + "/issues/" + number)},
            {"comments", link(api + "/issues/" + number + "/comments")},
            {"review_comments", link(url + "/comments")},
            {"review_comment", link(api + "/pulls/comments{/number}")},
            {"commits", link(url + "/commits")},
            {"statuses", link(api + "/statuses/" + pull.head_sha)}}},
          {"author_association", "MEMBER"},
          {"auto_merge", nullptr},
          {"draft", pull.draft},
          {"merged", false},
          {"mergeable", nullptr},
          {"rebaseable", nullptr},
          {"mergeable_state", "unknown"},
          {"merged_by", nullptr},
          {"comments", 0},
          {"review_comments", 0},
          {"maintainer_can_modify", false},
          {"commits", 1},
          {"additions", 0},
          {"deletions", 0},
          {"changed_files", 0}};
}

}  // namespace kblaster::testing
