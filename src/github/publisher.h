// One run's publishing on GitHub, end to end: opened before the work (so `check
// --publish` shows its check run in progress), finished with the results' texts, or
// failed with kblaster's own error. It owns the transport (libcurl, or the dry-run
// file) and the client, so the token stays inside it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "github/check_run.h"
#include "github/github_target.h"
#include "github/optimization_pr.h"
#include "github/sticky_comment.h"

namespace kblaster {

// How to publish: what the publishing flags say.
struct PublisherOptions {
  CommentMode comment = CommentMode::always;
  std::string comment_key = "kblaster";
  bool check_run = true;
  bool review = false;
  bool request_changes = false;
  bool fork_writes = false;  // write to a fork's PR anyway
  std::string dry_run;       // a file: write the requests there and send nothing
  std::string repository;    // owner/repo; "" = $GITHUB_REPOSITORY
  std::string token_env = "GITHUB_TOKEN";
  std::string base_branch;  // optimization PRs' base; "" = the repository's default branch
  std::string check_name = std::string(kCheckRunName);  // the check run's
};

// Where the results go: a pull request (and the head it was measured at), or a commit.
struct PublishTarget {
  std::optional<std::int64_t> pr;
  std::string head_sha;    // "" = the PR's head
  bool from_fork = false;  // the PR's head is another repository's
};

// The texts of the results, rendered by the report layer (report/publish_text), and how
// it writes an optimization pull request's body (report/optimization_pr_body).
struct PublishTexts {
  std::string markdown, headline, digest;
  OptimizationPrBody pr_body;
};

// The side effects a Publisher uses, passed in.
struct PublisherServices {
  EnvironmentLookup env;  // the token, GITHUB_API_URL, GITHUB_REPOSITORY
  Clock& clock;
  std::uint64_t jitter_seed = 0;
  std::ostream& progress;  // what was done, and every call, token redacted
};

// Copy deleted: it owns the client.
class Publisher {
 public:
  // nullptr, having said why on progress, for a fork's PR without fork_writes (no write
  // calls then). Errors: --request-changes without --review or --review without a PR
  // (usage), no token (environment; a dry run needs none), an unwritable dry-run file.
  static Result<std::unique_ptr<Publisher>> open(const PublisherOptions& options,
                                                 PublishTarget target,
                                                 const PublisherServices& services);
  ~Publisher();
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // Creates the check run in progress on the target's head now, unless check runs are off
  // or no head is known. Errors: the call's (remote).
  Status start_check_run();
  // Publishes `results` with their `texts`: the sticky comment, the check run (the one
  // started, else a new one), with review the claims review, and for an optimize result
  // its optimization pull requests; says what was done, and what was left out, on progress. Errors:
  // a failed call (remote, naming it and what was done before).
  Status publish(const std::vector<nlohmann::json>& results, const PublishTexts& texts);
  // When kblaster itself failed after start_check_run: completes that run as failed with
  // `reason`. Best effort: a failure here is a warning on progress.
  void fail(const std::string& reason);

 private:
  struct Parts;
  explicit Publisher(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace kblaster
