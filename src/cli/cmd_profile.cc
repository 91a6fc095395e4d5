// `kblaster profile [REPO]`: each kernel at its timed size under Nsight Compute
// (kblaster's metric list, or --set full), then its profile, roofline and
// performance state. Without ncu, or with counters refused, it times the
// kernel instead, says why, and exits 3.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/ceilings_cache.h"
#include "eval/gpu_run.h"
#include "eval/profile_kernel.h"
#include "eval/provenance.h"
#include "gpu/compiler.h"

namespace kblaster {
namespace {

struct ProfileOptions {
  CommonOptions common;
  BuildFlags build;
  bool full_set = false;
  double timeout_s = 300.0;
};

Result<ExitCode> run_profile(const ProfileOptions& o, Session& session) {
  auto repo = load_repository(o.common);
  if (!repo) return repo.error();
  Provenance provenance = command_provenance(session, repo->root);
  auto run = start_gpu_run(*repo, o.build, 60.0, provenance, session);
  if (!run) return run.error();
  if (!run->gpu) return Error::environment(run->why_no_device);
  auto ceilings = measured_ceilings(*run->gpu->client, run->gpu->harness_device.name,
                                    run->builds.cache_dir / "ceilings.json", session);
  if (!ceilings) return ceilings.error();
  NcuProfiler profiler = NcuProfiler::from_environment(o.timeout_s);
  ProfileSettings settings;
  settings.profiler = &profiler;
  settings.metrics = o.full_set ? NcuMetrics::full_set : NcuMetrics::kblaster_list;
  settings.csv_dir = run->builds.cache_dir / "profiles";
  settings.repo_root = repo->root;
  settings.ceilings = *ceilings;
  bool timing_only_used = false, failed = false;
  std::ostream& text = o.common.json ? session.progress : session.out;  // stdout stays JSON
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelBuild& b : run->builds.kernels) {
    if (!b.ok()) {
      session.progress << "profile " << b.spec->name << ": skipped, the build failed\n";
      failed = true;
      continue;
    }
    auto profiled = profile_kernel(b, *run->gpu, settings, text, session);
    if (!profiled) return profiled.error();
    kernels.push_back(std::move(profiled->json));
    timing_only_used = timing_only_used || profiled->timed_only;
  }
  if (o.common.json) session.out << nlohmann::json{{"kernels", kernels}}.dump(2) << "\n";
  if (failed) return ExitCode::found_problem;
  return timing_only_used ? ExitCode::missing_environment : ExitCode::ok;
}

}  // namespace

CommandAction setup_profile(CLI::App& app) {
  auto o = std::make_shared<ProfileOptions>();
  add_common_options(app, o->common);
  add_build_flags(app, o->build);
  app.add_flag("--full-set", o->full_set,
               "Collect ncu's --set full (details page) instead of kblaster's metric list");
  app.add_option("--timeout", o->timeout_s, "Seconds per ncu run (default 300)");
  return [o](Session& session) { return run_profile(*o, session); };
}

}  // namespace kblaster
