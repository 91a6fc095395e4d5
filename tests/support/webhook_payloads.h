// The payloads of the GitHub Actions events kblaster reads ($GITHUB_EVENT_PATH):
// pull_request (opened, synchronize) and push, with every field GitHub's webhook schemas
// (@octokit/openapi-webhooks) require, built from the same objects as FakeGitHub's answers.
// tests/github/webhook_payloads_test.cc checks each against its schema.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/github_objects.h"
#include "support/github_pull.h"

namespace kblaster::testing {

enum class PullRequestAction { opened, synchronize };

// The schema's name for an action's payload in the webhooks map: "pull-request-opened".
std::string webhook_name(PullRequestAction action);

// A pull_request event for `pull`, sent by its author. synchronize also names the head
// before the push (`before`) and after it (pull.head_sha).
nlohmann::json pull_request_event(const GitHubSite& site, const PullFacts& pull,
                                  PullRequestAction action, const std::string& before = "");

// One commit of a push, as the push event lists it.
struct PushedCommit {
  std::string id;  // its sha
  std::string tree_id;
  std::string message = "Change kernels";
  std::vector<std::string> added, modified, removed;  // paths
  std::int64_t time = 1796198400;
};

// A push of `commits` (oldest first) to `ref`, moving it from `before` to `after`; a
// before of forty zeros is a new branch, an after of forty zeros a deleted one.
struct PushFacts {
  RepositoryFacts repo;
  std::string ref = "refs/heads/main";
  std::string before;
  std::string after;
  std::vector<PushedCommit> commits;
  Account pusher;
  bool forced = false;
};

// A push event; its repository is the push event's own shape (timestamps as numbers).
nlohmann::json push_event(const GitHubSite& site, const PushFacts& push);

}  // namespace kblaster::testing
