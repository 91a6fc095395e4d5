#include "github/publisher.h"

#include <ostream>

#include "github/check_run.h"
#include "github/github_api.h"
#include "github/publish.h"
#include "net/curl_transport.h"
#include "net/dry_run_transport.h"

namespace kblaster {

struct Publisher::Parts {
  PublisherOptions flags;
  PublishTarget target;
  GitHubTarget github;
  std::unique_ptr<HttpTransport> transport;
  std::unique_ptr<HttpClient> http;
  std::unique_ptr<GitHubApi> api;
  std::optional<std::int64_t> check_run;
  std::ostream* progress = nullptr;
};

Publisher::Publisher(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
Publisher::~Publisher() = default;

Result<std::unique_ptr<Publisher>> Publisher::open(const PublisherOptions& flags,
                                                   PublishTarget target,
                                                   const PublisherServices& services) {
  std::ostream& progress = services.progress;
  if (flags.request_changes && !flags.review)
    return Error::usage("--request-changes needs --review");
  if (flags.review && !target.pr) return Error::usage("--review needs a pull request (--pr)");
  if (target.from_fork && !flags.fork_writes && flags.dry_run.empty()) {
    progress << "publish: the pull request comes from a fork, so no write calls are made "
                "(its token is read-only; --publish-forks with another token overrides). "
                "The report is in the job summary and the --report files.\n";
    return std::unique_ptr<Publisher>();
  }
  const EnvironmentLookup& env = services.env;
  auto github = github_target(env, flags.token_env, flags.repository);
  if (!github && !flags.dry_run.empty() && github.error().kind == ErrorKind::environment) {
    const EnvironmentLookup no_token = [&](const std::string& name) {
      return name == flags.token_env ? std::optional<std::string>("dry-run") : env(name);
    };
    github = github_target(no_token, flags.token_env, flags.repository);
  }
  if (!github) return github.error();

  auto parts = std::make_unique<Parts>();
  parts->flags = flags;
  parts->target = std::move(target);
  parts->github = *github;
  parts->progress = &progress;
  if (flags.dry_run.empty()) {
    parts->transport = std::make_unique<CurlTransport>();
  } else {
    auto dry =
        std::make_unique<DryRunTransport>(flags.dry_run, std::vector<std::string>{github->token});
    KB_TRY(dry->open());
    parts->transport = std::move(dry);
  }
  parts->http = std::make_unique<HttpClient>(
      *parts->transport,
      real_client_services(
          services.clock, services.jitter_seed,
          [&progress](const std::string& line) { progress << "  " << line << "\n"; }),
      HttpClientOptions{.service = "GitHub", .retry = {}, .secrets = {github->token}});
  parts->api = std::make_unique<GitHubApi>(*parts->http, *github);
  const PublishTarget& t = parts->target;
  progress << "publish: " << (flags.dry_run.empty() ? "" : "(dry run) ") << github->owner << "/"
           << github->repo << (t.pr ? " pull request #" + std::to_string(*t.pr) : "")
           << (t.head_sha.empty() ? "" : " at " + t.head_sha.substr(0, 12)) << " via "
           << github->api_url << "\n";
  return std::unique_ptr<Publisher>(new Publisher(std::move(parts)));
}

Status Publisher::start_check_run() {
  if (!parts_->flags.check_run || parts_->target.head_sha.empty()) return Ok{};
  auto id =
      kblaster::start_check_run(*parts_->api, parts_->flags.check_name, parts_->target.head_sha);
  if (!id) return id.error();
  parts_->check_run = *id;
  *parts_->progress << "published check run " << parts_->flags.check_name << ": in progress on "
                    << parts_->target.head_sha.substr(0, 12) << "\n";
  return Ok{};
}

Status Publisher::publish(const std::vector<nlohmann::json>& results, const PublishTexts& texts) {
  const PublisherOptions& flags = parts_->flags;
  const PublishPlan plan{.pr = parts_->target.pr,
                         .head_sha = parts_->target.head_sha,
                         .results = results,
                         .markdown = texts.markdown,
                         .headline = texts.headline,
                         .digest = texts.digest,
                         .comment = flags.comment,
                         .comment_key = flags.comment_key,
                         .check_run = flags.check_run,
                         .check_run_id = parts_->check_run,
                         .check_name = flags.check_name,
                         .review = flags.review,
                         .request_changes = flags.request_changes,
                         .base_branch = flags.base_branch,
                         .pr_body = texts.pr_body,
                         .dry_run = !flags.dry_run.empty()};
  auto outcome = kblaster::publish(*parts_->api, plan);
  if (!outcome) return outcome.error();
  parts_->check_run.reset();
  for (const auto& line : outcome->done) *parts_->progress << "published " << line << "\n";
  for (const auto& line : outcome->notes) *parts_->progress << line << "\n";
  if (!flags.dry_run.empty())
    *parts_->progress << "dry run: nothing was sent; the requests are in " << flags.dry_run << "\n";
  return Ok{};
}

void Publisher::fail(const std::string& reason) {
  if (!parts_->check_run) return;
  if (auto failed = fail_check_run(*parts_->api, *parts_->check_run, reason); !failed)
    *parts_->progress << "warning: the check run could not be marked failed: "
                      << failed.error().describe() << "\n";
  else
    *parts_->progress << "published check run " << parts_->flags.check_name << ": failed ("
                      << reason << ")\n";
  parts_->check_run.reset();
}

}  // namespace kblaster
