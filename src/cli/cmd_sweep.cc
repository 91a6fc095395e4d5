// `kblaster sweep [REPO]`: one shard of a nightly sweep (docs/sweep.md). The shard comes from
// --shard K/N or the environment (KBLASTER_SHARD, a Slurm array, a Kubernetes Indexed Job);
// its kernels are built, verified and timed, then each is optimized within --kernel-time and
// the shard's --deadline. Results go under --out as they are made.
#include "cli/commands.h"
#include "cli/kb_location.h"
#include "cli/llm_flags.h"
#include "cli/local_reports.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "core/file_write.h"
#include "eval/provenance.h"
#include "kb/store.h"
#include "search/sweep.h"

namespace kblaster {
namespace {

struct SweepOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  BenchFlags bench;
  KbFlags kb;
  SearchBudget budget;
  std::string shard;  // --shard K/N; "" = the environment's, else 1/1
  double max_seconds = 3600;
  double kernel_seconds = 300;
  std::uint64_t seed = 0;
  std::string out;     // default REPO/.kblaster/sweep
  std::string report;  // --report DIR; "" = none
  LlmFlags llm;        // the model of the searches, as optimize takes it
};

// The shard the flag or the environment names, and which named it.
Result<std::pair<Shard, std::string>> shard_of(const SweepOptions& o) {
  if (!o.shard.empty()) {
    auto s = parse_shard(o.shard, "--shard");
    if (!s) return s.error();
    return std::pair(*s, std::string("--shard"));
  }
  auto from_env = shard_from_environment(process_environment);
  if (!from_env) return from_env.error();
  if (!*from_env) return std::pair(Shard{}, std::string("no shard named: every kernel"));
  return std::pair(**from_env, std::string("the environment"));
}

Result<ExitCode> sweep_command(const SweepOptions& o, Session& session) {
  if (o.max_seconds <= 0 || o.kernel_seconds <= 0)
    return Error::usage("--deadline and --kernel-time must be above 0 seconds");
  auto repo = load_repository(o.common);
  if (!repo) return repo.error();
  auto shard = shard_of(o);
  if (!shard) return shard.error();
  auto catalogue = read_catalogue(o.kb);
  if (!catalogue) return catalogue.error();
  LlmConnection connection;
  auto llm = open_run_llm(o.llm, *repo, session, connection);
  if (!llm) return llm.error();
  std::vector<std::string> names;
  for (const KernelSpec* k : repo->selected) names.push_back(k->name);
  const std::size_t all = names.size();
  // The kernels' recorded costs balance the split: every shard must read the same KB.
  const auto kb_file = kb_path(o.common.repo, o.kb);
  std::map<std::string, double> costs;
  if (std::filesystem::exists(kb_file)) {
    auto kb = Store::open(kb_file);
    if (!kb) return kb.error();
    auto known = kb->costs(o.build.arch);
    if (!known) return known.error();
    for (const auto& n : names)
      if (const auto it = known->find(n); it != known->end()) costs.insert(*it);
  }
  const std::string digest = split_digest(names, costs, shard->first.count);
  const auto mine = shard_kernels(std::move(names), costs, shard->first);
  std::erase_if(repo->selected, [&](const KernelSpec* k) {
    return std::find(mine.begin(), mine.end(), k->name) == mine.end();
  });
  const auto out = std::filesystem::absolute(o.out.empty() ? repo->root / ".kblaster" / "sweep"
                                                           : std::filesystem::path(o.out));
  SweepSettings settings{.shard = shard->first,
                         .shard_from = shard->second,
                         .split_digest = digest,
                         .costs_known = costs.size(),
                         .max_seconds = o.max_seconds,
                         .kernel_seconds = o.kernel_seconds,
                         .optimize = {.budget = o.budget,
                                      .search_seed = o.seed,
                                      .kb_file = kb_file,
                                      .out_dir = out / "optimize",
                                      .llm = std::move(*llm),
                                      .only_techniques = {}},
                         .out_dir = out};
  Provenance provenance = command_provenance(session, repo->root);
  auto result = run_sweep(std::move(*repo), all, o.build, o.verify, o.bench, *catalogue,
                          std::move(settings), std::move(provenance), session);
  if (!result) return result.error();
  const nlohmann::json value = to_json(*result);
  KB_TRY(write_file(out / "sweep.json", value.dump(2) + "\n"));
  session.progress << "sweep: wrote " << (out / "sweep.json").string() << "\n";
  if (!result->results.empty())
    KB_TRY(
        write_local_reports(std::span<const nlohmann::json>(result->results), o.report, session));
  if (o.common.json) session.out << value.dump(2) << "\n";
  for (const auto& n : result->not_searched)
    session.progress << "sweep: " << n.kernel << " not searched: " << n.why << "\n";
  return result->exit;
}

}  // namespace

CommandAction setup_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  add_common_options(app, o->common);
  add_build_flags(app, o->build);
  add_verify_flags(app, o->verify, 60.0);
  add_bench_flags(app, o->bench);
  add_kb_flags(app, o->kb);
  app.add_option("--shard", o->shard,
                 "This runner's shard K/N, 1-based (default: KBLASTER_SHARD, a Slurm array or a "
                 "Kubernetes Indexed Job; else every kernel)");
  app.add_option("--deadline", o->max_seconds,
                 "The shard's deadline in seconds from its start: no search starts after it "
                 "(default 3600)");
  app.add_option("--kernel-time", o->kernel_seconds,
                 "Seconds of search per kernel at most (default 300)");
  app.add_option("--breadth", o->budget.breadth, "Rollouts per kernel (default 8)");
  app.add_option("--depth", o->budget.depth, "Steps per rollout (default 4)");
  app.add_option("--search-seed", o->seed,
                 "Seed of the technique choices (default: random, printed)");
  app.add_option("--out", o->out, "Output folder (default REPO/.kblaster/sweep)");
  add_report_flag(app, o->report);
  add_llm_flags(app, o->llm);
  return [o](Session& session) { return sweep_command(*o, session); };
}

}  // namespace kblaster
