// A pull request as GitHub's REST API (`pull-request`, `pull-request-simple`) and the
// pull_request webhook (`opened`, `synchronize`) write it: one value, one renderer.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/github_objects.h"

namespace kblaster::testing {

// What a pull request is; everything else in its JSON is derived from this.
struct PullFacts {
  int number = 1;
  std::string title = "Faster softmax";
  std::string body;
  std::string state = "open";  // "open" or "closed"
  bool draft = false;
  Account author;
  RepositoryFacts base_repo;
  std::string base_ref = "main";
  std::string base_sha;
  std::optional<RepositoryFacts> head_repo;  // nullopt: the base repository (not a fork)
  std::string head_ref = "faster-softmax";
  std::string head_sha;
  std::vector<std::string> labels;
  std::int64_t created_at = 1796198400;  // 2026-12-02T08:00:00Z
  std::int64_t updated_at = 1796198400;
  std::optional<std::int64_t> closed_at;
};

// `pull-request`: a superset of `pull-request-simple` and of the webhooks' pull request.
nlohmann::json pull_request_json(const GitHubSite& site, const PullFacts& pull);

// `label`: a label of the repository, with its id, colour and URL.
nlohmann::json label_json(const GitHubSite& site, const RepositoryFacts& repo,
                          const std::string& name);

}  // namespace kblaster::testing
