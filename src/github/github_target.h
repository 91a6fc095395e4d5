// Which GitHub kblaster talks to, about which repository, and as whom: read from the
// environment a GitHub Actions step has.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/environment.h"
#include "core/status.h"

namespace kblaster {

// The API's base URL without a trailing slash ("https://api.github.com", or a GitHub
// Enterprise Server's "https://ghe.example.com/api/v3"), the repository, and the token.
struct GitHubTarget {
  std::string api_url;
  std::string owner, repo;
  std::string token;  // a secret: never printed, logged or passed to a child process
};

// From GITHUB_API_URL (default https://api.github.com; http(s) only), GITHUB_REPOSITORY
// ("owner/repo"; `repository` overrides it when not empty) and the variable
// `token_variable` names (GITHUB_TOKEN by default). Errors: no token is
// Error::environment naming the variable and how a workflow passes it; a repository that
// is not "owner/repo" or an API URL that is not http(s) is Error::usage naming the variable.
Result<GitHubTarget> github_target(const EnvironmentLookup& env, std::string_view token_variable,
                                   std::string_view repository = {});

}  // namespace kblaster
