#include "cli/publish_flags.h"

#include <cstdlib>

#include "eval/seed_source.h"
#include "github/github_api.h"
#include "github/publish.h"
#include "net/curl_transport.h"
#include "net/dry_run_transport.h"
#include "report/publish_text.h"

namespace kblaster {
namespace {

std::optional<std::string> environment_value(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value ? std::optional<std::string>(value) : std::nullopt;
}

}  // namespace

void add_publish_flags(CLI::App& app, PublishFlags& flags) {
  app.add_option("--comment", flags.comment,
                 "The sticky PR comment: always (default), on-change (when the findings "
                 "changed) or never")
      ->check(CLI::IsMember({"always", "on-change", "never"}));
  app.add_option("--comment-key", flags.comment_key,
                 "Name of the sticky comment, one per key (default kblaster)");
  app.add_flag("--no-check-run", flags.no_check_run, "Make no check run");
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
}

Status publish_results(const std::vector<nlohmann::json>& results, const PublishTarget& target,
                       const PublishFlags& flags, Session& session) {
  if (flags.request_changes && !flags.review)
    return Error::usage("--request-changes needs --review");
  if (flags.review && !target.pr) return Error::usage("--review needs a pull request (--pr)");
  if (target.from_fork && !flags.fork_writes && flags.dry_run.empty()) {
    session.progress << "publish: the pull request comes from a fork, so no write calls are made "
                        "(its token is read-only; --publish-forks with another token overrides). "
                        "The report is in the job summary and the --report files.\n";
    return Ok{};
  }
  auto text = publish_text(results, "the results to publish");
  if (!text) return text.error();

  const EnvironmentLookup env = environment_value;
  auto github = github_target(env, flags.token_env, flags.repository);
  if (!github && !flags.dry_run.empty() && github.error().kind == ErrorKind::environment) {
    const EnvironmentLookup no_token = [&](const std::string& name) {
      return name == flags.token_env ? std::optional<std::string>("dry-run") : env(name);
    };
    github = github_target(no_token, flags.token_env, flags.repository);
  }
  if (!github) return github.error();

  std::unique_ptr<HttpTransport> transport;
  if (flags.dry_run.empty()) {
    transport = std::make_unique<CurlTransport>();
  } else {
    auto dry =
        std::make_unique<DryRunTransport>(flags.dry_run, std::vector<std::string>{github->token});
    KB_TRY(dry->open());
    transport = std::move(dry);
  }
  HttpClient http(*transport,
                  real_client_services(session.clock, draw_seed(),
                                       [&session](const std::string& line) {
                                         session.progress << "  " << line << "\n";
                                       }),
                  {.service = "GitHub", .retry = {}, .secrets = {github->token}});
  GitHubApi api(http, *github);
  const PublishPlan plan{.pr = target.pr,
                         .head_sha = target.head_sha,
                         .results = results,
                         .markdown = text->markdown,
                         .headline = text->headline,
                         .digest = text->digest,
                         .comment = *parse_comment_mode(flags.comment),
                         .comment_key = flags.comment_key,
                         .check_run = !flags.no_check_run,
                         .review = flags.review,
                         .request_changes = flags.request_changes};
  session.progress << "publish: " << (flags.dry_run.empty() ? "" : "(dry run) ") << github->owner
                   << "/" << github->repo
                   << (target.pr ? " pull request #" + std::to_string(*target.pr) : "")
                   << (target.head_sha.empty() ? "" : " at " + target.head_sha.substr(0, 12))
                   << " via " << github->api_url << "\n";
  auto outcome = publish(api, plan);
  if (!outcome) return outcome.error();
  for (const auto& line : outcome->done) session.progress << "published " << line << "\n";
  if (!flags.dry_run.empty())
    session.progress << "dry run: nothing was sent; the requests are in " << flags.dry_run << "\n";
  return Ok{};
}

}  // namespace kblaster
