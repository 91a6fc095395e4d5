// `kblaster optimize [REPO]`: the MAIC-RL search with the embedded, LLM-free
// techniques, per kernel: bounded rollouts guided by profiles and the KB, every
// step recorded in the KB, the best verified candidate written to an output
// folder with a JSON result. The user's source is only rewritten with --apply;
// --publish proposes the verified speedups as pull requests.
#include "cli/commands.h"
#include "cli/kb_location.h"
#include "cli/llm_flags.h"
#include "cli/local_reports.h"
#include "cli/publish_flags.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/provenance.h"
#include "search/optimize_result.h"

namespace kblaster {
namespace {

struct OptimizeOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  KbFlags kb;
  SearchBudget budget;
  std::uint64_t seed = 0;
  std::string out;  // default REPO/.kblaster/optimize
  bool apply = false;
  bool source_only = false;  // --source-only (--apply implies it in run_optimize)
  std::string report;        // --report DIR; "" = none
  bool publish = false;      // --publish: optimization PRs on GitHub
  PublishFlags publish_flags;
  LlmFlags llm;
  std::vector<std::string> techniques;  // --techniques
};

Result<ExitCode> optimize_command(const OptimizeOptions& o, Session& session) {
  auto repo = load_repository(o.common);
  if (!repo) return repo.error();
  auto publisher = o.publish ? open_publisher(o.publish_flags, {}, session)
                             : Result<std::unique_ptr<Publisher>>(nullptr);
  if (!publisher) return publisher.error();
  auto catalogue = read_catalogue(o.kb);
  if (!catalogue) return catalogue.error();
  for (const auto& t : o.techniques)
    if (!catalogue->find_technique(t))
      return Error::usage("--techniques: `" + t + "` is no technique of the catalogue");
  LlmConnection connection;
  auto llm = open_run_llm(o.llm, *repo, session, connection);
  if (!llm) return llm.error();
  OptimizeSettings settings{
      .budget = o.budget,
      .search_seed = o.seed,
      .kb_file = kb_path(o.common.repo, o.kb),
      .out_dir = o.out.empty() ? std::filesystem::path() : std::filesystem::absolute(o.out),
      .source_only = o.source_only,
      .write_back = o.apply ? WriteBack::if_verified : WriteBack::never,
      .llm = std::move(*llm),
      .only_techniques = {o.techniques.begin(), o.techniques.end()}};
  auto result = run_optimize(*repo, o.build, o.verify, *catalogue, std::move(settings),
                             command_provenance(session, repo->root), session);
  if (!result) return result.error();
  const nlohmann::json value = to_json(*result);
  KB_TRY(write_local_reports(value, o.report, session));
  if (o.common.json) session.out << value.dump(2) << "\n";
  if (!result->skipped.empty()) session.progress << result->skipped << "\n";
  if (*publisher) KB_TRY(publish_with(**publisher, {value}));
  return optimize_exit_code(*result);
}

}  // namespace

CommandAction setup_optimize(CLI::App& app) {
  auto o = std::make_shared<OptimizeOptions>();
  add_common_options(app, o->common);
  add_build_flags(app, o->build);
  add_verify_flags(app, o->verify, 60.0);
  app.get_option("--seed")->description(
      "First verification seed (default: the search seed + 1000, printed)");
  add_kb_flags(app, o->kb);
  app.add_option("--breadth", o->budget.breadth, "Rollouts per kernel (default 8)");
  app.add_option("--depth", o->budget.depth, "Steps per rollout (default 4)");
  app.add_option("--max-time", o->budget.max_seconds,
                 "Wall-clock seconds per kernel (default 900)");
  app.add_option("--patience", o->budget.patience,
                 "Stop after this many rollouts without improvement (default 2; 0: never)");
  app.add_option("--search-seed", o->seed,
                 "Seed of the technique choices (default: random, printed)");
  app.add_option("--out", o->out, "Output folder (default REPO/.kblaster/optimize)");
  app.add_flag("--apply", o->apply,
               "Overwrite the kernel's source with the best verified, faster candidate "
               "(implies --source-only)");
  app.add_flag("--source-only", o->source_only,
               "Try only source rewrites (restrict, launch bounds, unrolling, launch "
               "constants), not flags, arch or tunables");
  add_report_flag(app, o->report);
  app.add_flag("--publish", o->publish,
               "Propose each verified speedup as a pull request on GitHub (docs/publishing.md)");
  add_publish_flags(app, o->publish_flags);
  add_llm_flags(app, o->llm);
  app.add_option("--techniques", o->techniques,
                 "Choose only among these technique ids (comma-separated; default: all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  return [o](Session& session) { return optimize_command(*o, session); };
}

}  // namespace kblaster
