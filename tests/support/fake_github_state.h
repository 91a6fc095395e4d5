// What FakeGitHub's repository holds, and the routes that read and change it: each
// route is a pure function of the state and one call, so the server (fake_github.cc)
// only records, fails on cue, checks the token and locks around it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/github_objects.h"
#include "support/github_pull.h"

namespace kblaster::testing {

// An issue or pull request comment.
struct FakeComment {
  std::int64_t id = 0;
  int number = 0;  // the issue or pull request
  std::string body;
  Account author;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

// A check run with its output and every annotation any request added.
struct FakeCheckRun {
  std::int64_t id = 0;
  std::string name;
  std::string head_sha;
  std::string status = "queued";  // queued, in_progress, completed, ...
  std::optional<std::string> conclusion;
  std::optional<std::string> details_url;
  std::optional<std::string> external_id;
  std::optional<std::string> title, summary, text;  // output
  std::vector<nlohmann::json> annotations;          // every batch, in the order they came
  int writes = 0;                                   // the create and each update
  std::int64_t started_at = 0;
  std::optional<std::int64_t> completed_at;
};

// A pull request review, with its inline comments as the request gave them.
struct FakeReview {
  std::int64_t id = 0;
  int number = 0;
  std::string state;  // APPROVED, CHANGES_REQUESTED, COMMENTED or PENDING
  std::string body;
  std::string commit_id;
  nlohmann::json comments = nlohmann::json::array();  // as the request gave them
  std::int64_t submitted_at = 0;
};

// A commit of the git data API (or seeded).
struct FakeCommit {
  std::string sha;
  std::string tree;
  std::vector<std::string> parents;
  std::string message;
  std::int64_t time = 0;
};

// A file of a tree: its mode, type and blob sha.
struct TreeEntry {
  std::string mode = "100644";
  std::string type = "blob";
  std::string sha;
};
using FlatTree = std::map<std::string, TreeEntry>;  // by full path: trees are kept flat

// The repository's whole state; FakeGitHub locks around every read and change.
struct FakeGitHubState {
  GitHubSite site;
  RepositoryFacts repo;
  int default_per_page = 30;
  std::int64_t clock = 1796198400;  // 2026-12-02T08:00:00Z; each write ticks a second
  std::int64_t next_id = 1000;
  int next_number = 1;  // issues and pull requests share numbers, as on GitHub
  std::vector<FakeComment> comments;
  std::vector<FakeCheckRun> check_runs;
  std::map<std::string, std::string> blobs;  // sha -> content
  std::map<std::string, FlatTree> trees;
  std::map<std::string, FakeCommit> commits;
  std::map<std::string, std::string> refs;  // "refs/heads/main" -> sha
  std::vector<PullFacts> pulls;
  std::vector<FakeReview> reviews;

  std::int64_t tick() { return ++clock; }      // the time of a write
  std::int64_t new_id() { return ++next_id; }  // comments, check runs, reviews
  // "<api_url>/repos/owner/name", what object URLs start with.
  std::string api_root() const { return site.api_url + "/repos/" + repo.full_name(); }
  PullFacts* pull(int number);  // nullptr when there is none
};

// One request to a route, parsed.
struct Call {
  std::string method;
  std::string path;                 // decoded, without the query
  std::vector<std::string> params;  // the route pattern's captures
  std::multimap<std::string, std::string> query;
  nlohmann::json body;  // null when the request had none
  // The query parameter's first value, or `fallback`.
  std::string query_value(const std::string& name, const std::string& fallback = "") const;
};

// One answer: status, JSON body (none for 204), extra headers.
struct Reply {
  int status = 200;
  nlohmann::json body;
  std::vector<std::pair<std::string, std::string>> headers;
};

enum class Access { read, write };

// A route: the method, a pattern for the path after /repos/{owner}/{repo}, and whether
// it writes (a token without write access is refused those).
struct Route {
  const char* method;
  const char* pattern;
  Access access;
  Reply (*handle)(FakeGitHubState&, const Call&);
};

// The route tables, one per area of the API (fake_github_{issues,checks,git,pulls}.cc).
const std::vector<Route>& issue_routes();
const std::vector<Route>& check_routes();
const std::vector<Route>& git_routes();
const std::vector<Route>& pull_routes();

// Answers shared by the routes.
Reply not_found();
Reply invalid(const std::string& resource, const std::string& field, const std::string& code,
              const std::string& documentation_url, const std::string& message = "");
Reply problem(int status, const std::string& message, const std::string& documentation_url);
// One page of `items` by the call's per_page and page, with GitHub's Link header.
Reply page_of(const FakeGitHubState& state, const Call& call, const nlohmann::json& items);

// Git objects (fake_github_git.cc). Shas are git's for blobs; trees and commits hash
// their own canonical text, so equal content gives equal shas.
std::string put_blob(FakeGitHubState& state, const std::string& content);
std::string put_tree(FakeGitHubState& state, FlatTree tree);
std::string put_commit(FakeGitHubState& state, const std::string& tree,
                       std::vector<std::string> parents, const std::string& message);
// Moves a ref ("refs/heads/x"), and the open pull requests whose head or base it is.
void set_ref(FakeGitHubState& state, const std::string& ref, const std::string& sha);
// A sha, "heads/x", "refs/heads/x" or a bare branch name, resolved to a commit sha.
std::optional<std::string> resolve_commit(const FakeGitHubState& state,
                                          const std::string& revision);

}  // namespace kblaster::testing
