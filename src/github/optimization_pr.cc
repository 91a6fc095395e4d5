#include "github/optimization_pr.h"

#include "core/candidate_fingerprint.h"
#include "core/config_loader.h"
#include "github/body_limit.h"
#include "github/git_data.h"
#include "github/optimization_selection.h"
#include "github/pull_request.h"

namespace kblaster {
namespace {

using nlohmann::json;

// The folders of `base` that hold a kblaster.toml: "" for the root, else "a/b/".
std::vector<std::string> config_dirs(const BranchSnapshot& base) {
  std::vector<std::string> dirs;
  for (const auto& [path, file] : base.files)
    if (path == kConfigFile || path.ends_with(std::string("/") + kConfigFile))
      dirs.push_back(path.substr(0, path.size() - std::string_view(kConfigFile).size()));
  return dirs;
}

std::string repository_of(const json& result) {
  const json p = result.is_object() ? result.value("provenance", json()) : json();
  return p.is_object() && p.contains("repository") && p["repository"].is_string()
             ? p["repository"].get<std::string>()
             : "";
}

// The changes whose file on `base` (under `dir`) is the source their search started from;
// the others are left out, saying why.
Result<std::vector<VerifiedChange>> on_their_base(GitHubApi& api, const BranchSnapshot& base,
                                                  const std::string& dir,
                                                  std::vector<VerifiedChange> changes,
                                                  std::vector<LeftOut>& left_out) {
  std::vector<VerifiedChange> kept;
  for (VerifiedChange& c : changes) {
    const std::string path = dir + c.source;
    const auto file = base.files.find(path);
    std::string why = path + " is not on " + base.branch;
    if (file != base.files.end()) {
      auto text = read_blob(api, file->second.sha);
      if (!text) return text.error();
      if (candidate_fingerprint(*text) == c.baseline) {
        kept.push_back(std::move(c));
        continue;
      }
      why = base.branch + "'s " + path + " changed since the search read it; optimize it again";
    }
    left_out.push_back({.kernel = c.kernel, .reason = LeftOutReason::base_differs, .detail = why});
  }
  return kept;
}

// One pull request made or brought up to date; its line for the user.
Result<std::string> make_pr(GitHubApi& api, const json& result,
                            const OptimizationPrRequest& request, const BranchSnapshot& base,
                            const std::string& dir, const PublishConfig& config,
                            const PlannedPr& pr, const std::vector<LeftOut>& left_out) {
  OptimizationPrFacts facts{.kernels = {},
                            .branch = pr.branch,
                            .base_branch = base.branch,
                            .repo_dir = dir.empty() ? "" : dir.substr(0, dir.size() - 1),
                            .left_out = {}};
  std::vector<FileWrite> files;
  std::string kernels;
  for (const VerifiedChange& c : pr.changes) {
    facts.kernels.push_back(c.kernel);
    files.push_back(
        {.path = dir + c.source, .content = c.text, .mode = base.files.at(dir + c.source).mode});
    kernels += (kernels.empty() ? "" : ", ") + c.kernel;
  }
  if (config.optimization_prs == PrGrouping::per_sweep)
    for (const LeftOut& l : left_out) facts.left_out.emplace_back(l.kernel, l.why());
  auto body = request.body(result, facts);
  if (!body) return body.error();
  auto commit = commit_to_branch(api, base, files, pr.commit_message, pr.branch);
  if (!commit) return commit.error();
  auto pull = open_or_update_pull(api, pr.branch, base.branch,
                                  {.title = pr.title, .body = fit_body(*body, kMaxPullBodyChars)},
                                  config.labels);
  if (!pull) return pull.error();
  return "optimization PR #" + std::to_string(pull->number) + " " +
         (pull->opened ? "opened" : "updated") + " for " + kernels + ": " + pull->html_url +
         " (branch " + pr.branch + " at " + commit->substr(0, 12) + ", base " + base.branch + ")";
}

// `error` with the pull requests already made said in its message.
Error after(Error error, const OptimizationPrReport& report) {
  for (const auto& line : report.done) error.message += "; before it: " + line;
  return error;
}

}  // namespace

Result<OptimizationPrReport> publish_optimization_prs(GitHubApi& api, const json& result,
                                                      const OptimizationPrRequest& request) {
  OptimizationSelection selection = select_verified_changes(result);
  OptimizationPrReport report;
  const auto finish = [&](std::vector<LeftOut> left_out) {
    for (const LeftOut& l : left_out)
      report.notes.push_back("optimization PR: " + l.kernel + " left out: " + l.why());
    return report;
  };
  if (selection.changes.empty()) return finish(std::move(selection.left_out));
  if (request.dry_run) {
    for (const VerifiedChange& c : selection.changes)
      report.notes.push_back("optimization PR: " + c.kernel +
                             " qualifies; a dry run reads nothing from GitHub, so it neither "
                             "compares the base branch's source nor plans the calls");
    return finish(std::move(selection.left_out));
  }
  auto base_name =
      request.base_branch.empty() ? default_branch(api) : Result<std::string>(request.base_branch);
  if (!base_name) return base_name.error();
  auto base = read_branch(api, *base_name);
  if (!base) return base.error();
  const std::string repository = repository_of(result);
  const auto dir = kernel_repository_dir(config_dirs(*base), repository);
  if (!dir) {
    for (const VerifiedChange& c : selection.changes)
      selection.left_out.push_back({.kernel = c.kernel,
                                    .reason = LeftOutReason::base_differs,
                                    .detail = base->branch + " has no kblaster.toml in a folder " +
                                              "that the result's repository " + repository +
                                              " ends with"});
    return finish(std::move(selection.left_out));
  }
  auto config_text = read_blob(api, base->files.at(*dir + kConfigFile).sha);
  if (!config_text) return config_text.error();
  const GitHubTarget& t = api.target();
  auto config = load_publish_config(
      *config_text, t.owner + "/" + t.repo + "@" + base->branch + ":" + *dir + kConfigFile);
  if (!config) return config.error();
  auto kept = on_their_base(api, *base, *dir, std::move(selection.changes), selection.left_out);
  if (!kept) return kept.error();
  const auto prs =
      plan_optimization_prs(std::move(*kept), config->optimization_prs, selection.left_out);
  for (const PlannedPr& pr : prs) {
    auto line = make_pr(api, result, request, *base, *dir, *config, pr, selection.left_out);
    if (!line) return after(line.error(), report);
    report.done.push_back(*line);
  }
  return finish(std::move(selection.left_out));
}

}  // namespace kblaster
