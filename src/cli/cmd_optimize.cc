// `kblaster optimize [REPO]`: the MAIC-RL search with the embedded, LLM-free
// techniques, per kernel: bounded rollouts guided by profiles and the KB, every
// step recorded in the KB, the best verified candidate written to an output
// folder with a JSON result. The user's source is only rewritten with --apply.
#include "cli/commands.h"
#include "cli/gpu_run.h"
#include "cli/kb_location.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/ceilings_cache.h"
#include "search/optimize_kernel.h"
#include "eval/seed_source.h"
#include "eval/verify_step.h"
#include "gpu/compiler.h"
#include "kb/seed.h"
#include "kb/store.h"

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
};

Result<ExitCode> run_optimize(const OptimizeOptions& o, Session& session) {
  auto run = start_gpu_run(o.common, o.build, request_timeout(o.verify), session);
  if (!run) return run.error();
  auto ceilings = measured_ceilings(*run->gpu.client, run->gpu.harness_device.name,
                                    run->builds.cache_dir / "ceilings.json", session);
  if (!ceilings) return ceilings.error();
  NcuProfiler profiler = NcuProfiler::from_environment();
  if (!profiler.available())
    session.progress << "profiles: none (" << profiler.why_unavailable()
                     << "); states from timing only\n";
  auto catalogue = read_catalogue(o.kb);
  if (!catalogue) return catalogue.error();
  const auto kb_file = kb_path(o.common.repo, o.kb);
  auto kb = Store::open(kb_file);
  if (!kb) return kb.error();
  KB_TRY(seed_catalogue(*kb, *catalogue));
  auto compiler = NvccCompiler::find();
  if (!compiler) return compiler.error();
  const auto out_dir =
      o.out.empty() ? run->repo.root / ".kblaster" / "optimize" : std::filesystem::absolute(o.out);
  const std::uint64_t seed = o.seed ? o.seed : draw_seed();
  session.progress << "optimize: KB " << kb_file.string() << ", search seed " << seed
                   << " (repeat with --search-seed " << seed << "), verification seeds from "
                   << verification_seeds(o.verify, seed + 1000).front() << ", budget "
                   << o.budget.breadth << " x " << o.budget.depth << ", " << o.budget.max_seconds
                   << " s per kernel\n";

  const bool source_only = o.source_only || o.apply;
  const WriteBack write_back = o.apply ? WriteBack::if_verified : WriteBack::never;
  if (o.apply)
    session.progress << "optimize: source rewrites only: --apply writes the best back to the "
                        "source, which cannot carry build flags or tunables; without --apply the "
                        "search also tries flags, arch and tunables\n";
  else if (o.source_only)
    session.progress << "optimize: source rewrites only (--source-only)\n";

  OptimizeRun shared{run->repo.root,
                     &run->builds,
                     run->gpu.client.get(),
                     &*compiler,
                     &*kb,
                     &*catalogue,
                     *ceilings,
                     &profiler,
                     out_dir,
                     seed,
                     verification_seeds(o.verify, seed + 1000),
                     o.budget,
                     source_only,
                     write_back};
  bool problem = false;
  nlohmann::json results = nlohmann::json::array();
  for (const KernelBuild& b : run->builds.kernels) {
    if (!b.ok()) {
      session.progress << "optimize " << b.spec->name << ": skipped, the baseline does not build\n";
      problem = true;
      continue;
    }
    session.progress << "optimize " << b.spec->name << ":\n";
    auto written = optimize_kernel(b, shared, session);
    if (!written) return written.error();
    results.push_back(*written);
  }
  if (o.common.json) session.out << nlohmann::json{{"kernels", results}}.dump(2) << "\n";
  return problem ? ExitCode::found_problem : ExitCode::ok;
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
  return [o](Session& session) { return run_optimize(*o, session); };
}

}  // namespace kblaster
