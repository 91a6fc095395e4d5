// The flags of publishing on GitHub, defined once for `publish`, `check --publish` and
// `optimize --publish`, and the one routine that publishes a run's results with them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "github/publisher.h"

namespace kblaster {

struct PublishFlags {
  std::string comment = "always";                       // --comment always|on-change|never
  std::string comment_key = "kblaster";                 // --comment-key: one sticky comment per key
  bool no_check_run = false;                            // --no-check-run
  std::string check_name = std::string(kCheckRunName);  // --check-name: the check run's name
  bool review = false;           // --review: answer the PR body's speedup claims
  bool request_changes = false;  // --request-changes: REQUEST_CHANGES on a failed verification
  bool fork_writes = false;      // --publish-forks: write to a fork's PR anyway
  std::string dry_run;           // --dry-run FILE: write the requests there, send nothing
  std::string repository;        // --repository owner/repo (default $GITHUB_REPOSITORY)
  std::string token_env = "GITHUB_TOKEN";  // --token-env: the variable holding the token
  std::string base_branch;  // --base-branch: of optimization PRs (default: the repository's)
};

// Adds the flags above to `app`, bound to `flags`.
void add_publish_flags(CLI::App& app, PublishFlags& flags);

// The Publisher these flags ask for (Publisher::open, with this process's environment,
// the session's clock and progress, and a jitter seed from the seed source).
Result<std::unique_ptr<Publisher>> open_publisher(const PublishFlags& flags, PublishTarget target,
                                                  Session& session);

// Publishes `results` (values as the commands make them) through `publisher`, their texts
// rendered by report/publish_text. Errors: Publisher::publish's.
Status publish_with(Publisher& publisher, const std::vector<nlohmann::json>& results);

// open_publisher, then publish_with: for results saved before (`kblaster publish`). A
// fork's PR without --publish-forks is Ok with nothing sent.
Status publish_results(const std::vector<nlohmann::json>& results, const PublishTarget& target,
                       const PublishFlags& flags, Session& session);

}  // namespace kblaster
