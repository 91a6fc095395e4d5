#include "cli/publish_flags.h"

#include <cstdlib>

#include "eval/seed_source.h"
#include "github/check_run.h"
#include "report/optimization_pr_body.h"
#include "report/publish_text.h"

namespace kblaster {
void add_publish_flags(CLI::App& app, PublishFlags& flags) {
  app.add_option("--comment", flags.comment,
                 "The sticky PR comment: always (default), on-change (when the findings "
                 "changed) or never")
      ->check(CLI::IsMember({"always", "on-change", "never"}));
  app.add_option("--comment-key", flags.comment_key,
                 "Name of the sticky comment, one per key (default kblaster)");
  app.add_flag("--no-check-run", flags.no_check_run, "Make no check run");
  app.add_option("--check-name", flags.check_name,
                 "Name of the check run, which branch protection can require (default "
                 "\"kblaster / check\")");
  app.add_flag("--review", flags.review,
               "Review the PR's claimed speedups (`kernel: NAME 1.8x` lines in its body)");
  app.add_flag("--request-changes", flags.request_changes,
               "With --review: request changes when a claimed kernel fails verification");
  app.add_flag(
      "--publish-forks", flags.fork_writes,
      "Write to a PR from a fork too (its GITHUB_TOKEN is read-only; needs another token)");
  app.add_option("--dry-run", flags.dry_run,
                 "Write each request to FILE (JSON lines, no token) and send nothing");
  app.add_option("--repository", flags.repository,
                 "owner/repo to publish to (default $GITHUB_REPOSITORY)");
  app.add_option("--token-env", flags.token_env,
                 "Environment variable holding the GitHub token (default GITHUB_TOKEN)");
  app.add_option("--base-branch", flags.base_branch,
                 "Base of optimization PRs (default: the repository's default branch)");
}

std::optional<PublisherOptions> publisher_options(const PublishFlags& flags) {
  auto comment = parse_comment_mode(flags.comment);
  if (!comment) return std::nullopt;
  return PublisherOptions{.comment = *comment,
                          .comment_key = flags.comment_key,
                          .check_run = !flags.no_check_run,
                          .review = flags.review,
                          .request_changes = flags.request_changes,
                          .fork_writes = flags.fork_writes,
                          .dry_run = flags.dry_run,
                          .repository = flags.repository,
                          .token_env = flags.token_env,
                          .base_branch = flags.base_branch,
                          .check_name = flags.check_name};
}

Result<std::unique_ptr<Publisher>> open_publisher(const PublishFlags& flags, PublishTarget target,
                                                  Session& session) {
  auto options = publisher_options(flags);
  if (!options) return Error::usage("--comment " + flags.comment + ": always, on-change or never");
  if (const std::string why = check_run_name_error(flags.check_name); !why.empty())
    return Error::usage("--check-name: " + why);
  return Publisher::open(*options, std::move(target),
                         {.env = process_environment,
                          .clock = session.clock,
                          .jitter_seed = draw_seed(),
                          .progress = session.progress});
}

Status publish_with(Publisher& publisher, const std::vector<nlohmann::json>& results) {
  auto text = publish_text(results, "the results to publish");
  if (!text) return Error::internal(text.error().message);
  return publisher.publish(results,
                           {text->markdown, text->headline, text->digest, optimization_pr_body});
}

Status publish_results(const std::vector<nlohmann::json>& results, const PublishTarget& target,
                       const PublishFlags& flags, Session& session) {
  auto publisher = open_publisher(flags, target, session);
  if (!publisher) return publisher.error();
  if (!*publisher) return Ok{};
  return publish_with(**publisher, results);
}

}  // namespace kblaster
