#include "github/permissions.h"

namespace kblaster {
namespace {

// `path` from "/repos/" on, without a query: "/repos/o/r/check-runs/5".
std::string_view repo_path(std::string_view path) {
  const std::size_t query = path.find('?');
  if (query != std::string_view::npos) path = path.substr(0, query);
  const std::size_t repos = path.find("/repos/");
  return repos == std::string_view::npos ? std::string_view() : path.substr(repos);
}

// The part after "/repos/{owner}/{repo}/": "check-runs/5".
std::string_view resource(std::string_view path) {
  std::string_view rest = repo_path(path);
  for (int slashes = 0; slashes < 4 && !rest.empty(); rest.remove_prefix(1))
    if (rest.front() == '/') ++slashes;
  return rest;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

std::string required_permission(std::string_view method, std::string_view path) {
  if (repo_path(path).empty()) return "";
  const std::string_view r = resource(path);
  const bool read = method == "GET" || method == "HEAD";
  if (r.starts_with("check-runs") || (r.starts_with("commits/") && contains(r, "/check-runs")))
    return read ? "checks: read" : "checks: write";
  if (r.starts_with("pulls") || contains(r, "/reviews"))
    return read ? "pull-requests: read" : "pull-requests: write";
  if (r.starts_with("issues/comments") || (r.starts_with("issues/") && contains(r, "/comments")))
    return read ? "issues: read" : "issues: write";
  if (r.starts_with("issues/") && contains(r, "/labels")) return "issues: write";
  if (r.starts_with("git/")) return read ? "contents: read" : "contents: write";
  return read ? "contents: read" : "";
}

std::string permission_advice(std::string_view method, std::string_view path) {
  const std::string needed = required_permission(method, path);
  std::string advice = "GitHub refused " + std::string(method) + " " +
                       std::string(repo_path(path).empty() ? path : repo_path(path)) +
                       ": the token cannot do this (\"Resource not accessible by integration\"). ";
  if (!needed.empty())
    advice += "Grant it in the workflow: `permissions:` with `" + needed +
              "` (on the job, or at the top of the workflow file). ";
  advice +=
      "A pull request from a fork always gets a read-only GITHUB_TOKEN, whatever the "
      "workflow asks for; kblaster makes no write calls for one unless told to.";
  return advice;
}

}  // namespace kblaster
