// The JSON objects GitHub's REST API and webhooks share: users, repositories, the
// Actions app, error bodies. Each carries every field that GitHub's OpenAPI description
// (@octokit/openapi) and webhook schemas (@octokit/openapi-webhooks) require, so the
// fake server's answers and the test payloads validate against both.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace kblaster::testing {

// Where the objects point: `url` fields start with api_url, `html_url` with web_url.
struct GitHubSite {
  std::string api_url = "https://api.github.com";
  std::string web_url = "https://github.com";
};

enum class AccountType { user, organization, bot };

// An account as GitHub names it; the id is derived from the login unless given.
struct Account {
  std::string login = "octocat";
  AccountType type = AccountType::user;
  std::int64_t id = 0;  // 0: a stable id made from the login
};

// A repository: `owner/name`, its default branch, and its id (0: made from the name).
struct RepositoryFacts {
  Account owner{.login = "acme", .type = AccountType::organization};
  std::string name = "kernels";
  std::string default_branch = "main";
  std::int64_t id = 0;
  std::string full_name() const { return owner.login + "/" + name; }
};

// GitHub Actions' own bot, which writes comments and check runs with GITHUB_TOKEN.
Account actions_bot();

// `simple-user`: every URL a user object carries.
nlohmann::json user_json(const GitHubSite& site, const Account& account);

// `full-repository`, `repository` and the webhooks' repository at once (a superset).
nlohmann::json repository_json(const GitHubSite& site, const RepositoryFacts& repo);

// `integration`: the GitHub Actions app, which owns check runs made with GITHUB_TOKEN.
nlohmann::json actions_app_json(const GitHubSite& site);

// `basic-error`: {"message", "documentation_url"}.
nlohmann::json error_json(const std::string& message, const std::string& documentation_url);

// `validation-error` with GitHub's "Validation Failed" message and `errors`, as its 422s.
nlohmann::json validation_failed_json(nlohmann::json errors, const std::string& documentation_url);

// An ISO 8601 UTC time as GitHub writes it, "2026-12-02T08:00:00Z".
std::string github_time(std::int64_t epoch_seconds);

// The same stable, positive id for the same text; used where GitHub has numeric ids.
std::int64_t stable_id(const std::string& text);

}  // namespace kblaster::testing
