// The flags of publishing on GitHub, defined once for `publish`, `check --publish` and
// `optimize --publish`, and the one routine that publishes a run's results with them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"

namespace kblaster {

struct PublishFlags {
  std::string comment = "always";        // --comment always|on-change|never
  std::string comment_key = "kblaster";  // --comment-key: one sticky comment per key
  bool no_check_run = false;             // --no-check-run
  bool review = false;                   // --review: answer the PR body's speedup claims
  bool request_changes = false;  // --request-changes: REQUEST_CHANGES on a failed verification
  bool fork_writes = false;      // --publish-forks: write to a fork's PR anyway
  std::string dry_run;           // --dry-run FILE: write the requests there, send nothing
  std::string repository;        // --repository owner/repo (default $GITHUB_REPOSITORY)
  std::string token_env = "GITHUB_TOKEN";  // --token-env: the variable holding the token
};

// Adds the flags above to `app`, bound to `flags`.
void add_publish_flags(CLI::App& app, PublishFlags& flags);

// Where the results go: a pull request (and the head it was measured at), or a commit.
struct PublishTarget {
  std::optional<std::int64_t> pr;
  std::string head_sha;    // "" = the PR's head
  bool from_fork = false;  // the PR's head is another repository's
};

// Publishes `results` (values as the commands make them) to `target` with `flags`: no
// write call for a fork's PR unless --publish-forks (says so and returns Ok); else the
// sticky comment, the check run and, with --review, the claims review, through libcurl or,
// with --dry-run, into its file. Prints what was done on progress. Errors: bad flags
// (usage), no token (environment), a failed call (remote: exit 5).
Status publish_results(const std::vector<nlohmann::json>& results, const PublishTarget& target,
                       const PublishFlags& flags, Session& session);

}  // namespace kblaster
