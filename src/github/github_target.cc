#include "github/github_target.h"

#include <algorithm>

namespace kblaster {
namespace {

bool is_repo_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

bool is_repo_name(std::string_view s) {
  return !s.empty() && s.size() <= 100 && s != "." && s != ".." &&
         std::all_of(s.begin(), s.end(), is_repo_name_char);
}

}  // namespace

Result<GitHubTarget> github_target(const EnvironmentLookup& env, std::string_view token_variable,
                                   std::string_view repository) {
  GitHubTarget target;
  const std::string variable =
      token_variable.empty() ? "GITHUB_TOKEN" : std::string(token_variable);
  const auto token = env(variable);
  if (!token || token->empty())
    return Error::environment(
        "no GitHub token: $" + variable +
        " is not set. In a workflow, pass it to the step: `env: " + variable +
        ": ${{ secrets.GITHUB_TOKEN }}` (or a GitHub App or personal token's secret)");
  target.token = *token;

  target.api_url = env("GITHUB_API_URL").value_or("https://api.github.com");
  while (target.api_url.ends_with('/')) target.api_url.pop_back();
  if (!target.api_url.starts_with("https://") && !target.api_url.starts_with("http://"))
    return Error::usage("$GITHUB_API_URL " + target.api_url +
                        ": not an http(s) URL such as https://api.github.com");

  std::string full =
      repository.empty() ? env("GITHUB_REPOSITORY").value_or("") : std::string(repository);
  const std::size_t slash = full.find('/');
  const std::string where = repository.empty() ? "$GITHUB_REPOSITORY" : "--repository";
  if (full.empty()) return Error::usage(where + " is not set: name the repository as owner/repo");
  if (slash == std::string::npos || !is_repo_name(std::string_view(full).substr(0, slash)) ||
      !is_repo_name(std::string_view(full).substr(slash + 1)))
    return Error::usage(where + " `" + full + "`: not owner/repo");
  target.owner = full.substr(0, slash);
  target.repo = full.substr(slash + 1);
  return target;
}

}  // namespace kblaster
