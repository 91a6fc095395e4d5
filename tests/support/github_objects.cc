#include "support/github_objects.h"

#include <ctime>
#include <utility>

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* type_name(AccountType type) {
  switch (type) {
    case AccountType::organization:
      return "Organization";
    case AccountType::bot:
      return "Bot";
    case AccountType::user:
      break;
  }
  return "User";
}

// A login in a URL path: "github-actions[bot]" is written with %5B and %5D, as GitHub does.
std::string login_in_url(const std::string& login) {
  std::string out;
  for (char c : login) out += c == '[' ? "%5B" : c == ']' ? "%5D" : std::string(1, c);
  return out;
}

std::int64_t id_of(const Account& account) {
  return account.id != 0 ? account.id : stable_id("user:" + account.login);
}

}  // namespace

std::int64_t stable_id(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, kept below 2^40 so ids look like GitHub's
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return static_cast<std::int64_t>(h % 1'000'000'000'000ull) + 1;
}

std::string github_time(std::int64_t epoch_seconds) {
  const std::time_t t = epoch_seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

Account actions_bot() {
  return {.login = "github-actions[bot]", .type = AccountType::bot, .id = 41898282};
}

json user_json(const GitHubSite& site, const Account& account) {
  const std::string id = std::to_string(id_of(account));
  const std::string api = site.api_url + "/users/" + login_in_url(account.login);
  return {
      {"login", account.login},
      {"id", id_of(account)},
      {"node_id", "MDQ6VXNlcj" + id},
      {"avatar_url", "https://avatars.githubusercontent.com/u/" + id + "?v=4"},
      {"gravatar_id", ""},
      {"url", api},
      {"html_url", account.type == AccountType::bot
                       ? site.web_url + "/apps/" + account.login.substr(0, account.login.find('['))
                       : site.web_url + "/" + account.login},
      {"followers_url", api + "/followers"},
      {"following_url", api + "/following{/other_user}"},
      {"gists_url", api + "/gists{/gist_id}"},
      {"starred_url", api + "/starred{/owner}{/repo}"},
      {"subscriptions_url", api + "/subscriptions"},
      {"organizations_url", api + "/orgs"},
      {"repos_url", api + "/repos"},
      {"events_url", api + "/events{/privacy}"},
      {"received_events_url", api + "/received_events"},
      {"type", type_name(account.type)},
      {"user_view_type", "public"},
      {"site_admin", false}};
}

json repository_json(const GitHubSite& site, const RepositoryFacts& repo) {
  const std::string full = repo.full_name();
  const std::string api = site.api_url + "/repos/" + full;
  const std::string web = site.web_url + "/" + full;
  const std::int64_t id = repo.id != 0 ? repo.id : stable_id("repo:" + full);
  json j = {{"id", id},
            {"node_id", "R_kgDO" + std::to_string(id)},
            {"name", repo.name},
            {"full_name", full},
            {"owner", user_json(site, repo.owner)},
            {"private", false},
            {"visibility", "public"},
            {"html_url", web},
            {"description", "CUDA kernels checked by kblaster"},
            {"fork", false},
            {"url", api},
            {"homepage", nullptr},
            {"language", "Cuda"},
            {"mirror_url", nullptr},
            {"license", nullptr},
            {"topics", json::array()},
            {"default_branch", repo.default_branch},
            {"git_url", "git://github.com/" + full + ".git"},
            {"ssh_url", "git@github.com:" + full + ".git"},
            {"clone_url", web + ".git"},
            {"svn_url", web},
            {"created_at", "2026-01-05T10:00:00Z"},
            {"updated_at", "2026-12-01T09:00:00Z"},
            {"pushed_at", "2026-12-01T09:00:00Z"}};
  // The URL templates every repository object carries, relative to its API URL.
  static const std::pair<const char*, const char*> kLinks[] = {
      {"archive_url", "/{archive_format}{/ref}"},
      {"assignees_url", "/assignees{/user}"},
      {"blobs_url", "/git/blobs{/sha}"},
      {"branches_url", "/branches{/branch}"},
      {"collaborators_url", "/collaborators{/collaborator}"},
      {"comments_url", "/comments{/number}"},
      {"commits_url", "/commits{/sha}"},
      {"compare_url", "/compare/{base}...{head}"},
      {"contents_url", "/contents/{+path}"},
      {"contributors_url", "/contributors"},
      {"deployments_url", "/deployments"},
      {"downloads_url", "/downloads"},
      {"events_url", "/events"},
      {"forks_url", "/forks"},
      {"git_commits_url", "/git/commits{/sha}"},
      {"git_refs_url", "/git/refs{/sha}"},
      {"git_tags_url", "/git/tags{/sha}"},
      {"hooks_url", "/hooks"},
      {"issue_comment_url", "/issues/comments{/number}"},
      {"issue_events_url", "/issues/events{/number}"},
      {"issues_url", "/issues{/number}"},
      {"keys_url", "/keys{/key_id}"},
      {"labels_url", "/labels{/name}"},
      {"languages_url", "/languages"},
      {"merges_url", "/merges"},
      {"milestones_url", "/milestones{/number}"},
      {"notifications_url", "/notifications{?since,all,participating}"},
      {"pulls_url", "/pulls{/number}"},
      {"releases_url", "/releases{/id}"},
      {"stargazers_url", "/stargazers"},
      {"statuses_url", "/statuses/{sha}"},
      {"subscribers_url", "/subscribers"},
      {"subscription_url", "/subscription"},
      {"tags_url", "/tags"},
      {"teams_url", "/teams"},
      {"trees_url", "/git/trees{/sha}"},
  };
  for (const auto& [field, suffix] : kLinks) j[field] = api + suffix;
  for (const char* count :
       {"forks", "forks_count", "open_issues", "open_issues_count", "stargazers_count", "watchers",
        "watchers_count", "size", "network_count", "subscribers_count"})
    j[count] = 0;
  for (const char* flag :
       {"has_issues", "has_projects", "has_wiki", "has_downloads", "allow_forking"})
    j[flag] = true;
  for (const char* flag : {"has_pages", "has_discussions", "archived", "disabled", "is_template",
                           "web_commit_signoff_required"})
    j[flag] = false;
  return j;
}

json actions_app_json(const GitHubSite& site) {
  return {{"id", 15368},
          {"slug", "github-actions"},
          {"node_id", "MDM6QXBwMTUzNjg="},
          {"client_id", "Iv1.05c79e9ad1f6bdfa"},
          {"owner",
           user_json(site, {.login = "github", .type = AccountType::organization, .id = 9919})},
          {"name", "GitHub Actions"},
          {"description", "Automate your workflow from idea to production"},
          {"external_url", "https://help.github.com/en/actions"},
          {"html_url", site.web_url + "/apps/github-actions"},
          {"created_at", "2018-07-30T09:30:17Z"},
          {"updated_at", "2024-04-10T20:33:16Z"},
          {"permissions",
           {{"checks", "write"},
            {"contents", "write"},
            {"issues", "write"},
            {"pull_requests", "write"},
            {"metadata", "read"}}},
          {"events", json::array({"check_run", "pull_request", "push"})}};
}

json error_json(const std::string& message, const std::string& documentation_url) {
  return {{"message", message}, {"documentation_url", documentation_url}};
}

json validation_failed_json(json errors, const std::string& documentation_url) {
  return {{"message", "Validation Failed"},
          {"errors", std::move(errors)},
          {"documentation_url", documentation_url},
          {"status", "422"}};
}

}  // namespace kblaster::testing
