// `kblaster publish RESULT.json… (--pr N | --sha SHA)`: saved results published on
// GitHub (the sticky comment, a check run, with --review the claims review, and an
// optimize result's optimization pull requests); nothing is measured again.
#include "cli/commands.h"
#include "cli/publish_flags.h"
#include "report/result_reader.h"

namespace kblaster {
namespace {

struct PublishOptions {
  std::vector<std::string> files;
  std::int64_t pr = 0;  // 0: none
  std::string sha;
  PublishFlags publish;
};

// The head SHA the results were measured at: the last result's provenance.head_sha.
std::string measured_head(const std::vector<nlohmann::json>& results) {
  std::string head;
  for (const auto& r : results) {
    const auto& p = r.contains("provenance") ? r["provenance"] : nlohmann::json();
    if (p.is_object() && p.contains("head_sha") && p["head_sha"].is_string())
      head = p["head_sha"].get<std::string>();
  }
  return head;
}

Result<ExitCode> run_publish(const PublishOptions& o, Session& session) {
  if (o.pr == 0 && o.sha.empty()) return Error::usage("publish needs --pr N or --sha SHA");
  std::vector<nlohmann::json> results;
  for (const auto& file : o.files) {
    auto view = load_result(file);
    if (!view) return view.error();
    results.push_back(std::move(view->value));
  }
  PublishTarget target{.pr = o.pr > 0 ? std::optional<std::int64_t>(o.pr) : std::nullopt,
                       .head_sha = o.sha.empty() ? measured_head(results) : o.sha,
                       .from_fork = false};
  KB_TRY(publish_results(results, target, o.publish, session));
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_publish(CLI::App& app) {
  auto o = std::make_shared<PublishOptions>();
  app.add_option("results", o->files, "Saved results: the --json output of check or optimize")
      ->required();
  app.add_option("--pr", o->pr, "The pull request to publish on")->check(CLI::PositiveNumber);
  app.add_option("--sha", o->sha,
                 "The commit for the check run (default: the results' head, else the PR's)");
  add_publish_flags(app, o->publish);
  return [o](Session& session) { return run_publish(*o, session); };
}

}  // namespace kblaster
