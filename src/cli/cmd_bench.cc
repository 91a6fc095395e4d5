// `kblaster bench [REPO]`: verify each kernel, then time it at its timed size
// (nvbench's method; see measure_step.h). Needs a CUDA device.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/bench_step.h"
#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/gpu_run.h"
#include "eval/measure_step.h"
#include "eval/provenance.h"
#include "eval/verify_step.h"

namespace kblaster {
namespace {

struct BenchOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  BenchFlags bench;
};

Result<ExitCode> run_bench(const BenchOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  Provenance provenance = command_provenance(session, repo->root);
  auto run =
      start_gpu_run(*repo, options.build, request_timeout(options.verify), provenance, session);
  if (!run) return run.error();
  if (!run->gpu) return Error::environment(run->why_no_device);
  const BuildReport* builds = &run->builds;
  GpuContext* gpu = &*run->gpu;
  auto outcome = verify_and_bench(*builds, *gpu, options.verify, options.bench, session);
  if (!outcome) return outcome.error();
  if (options.common.json) session.out << outcome->report.dump(2) << "\n";
  return outcome->problem || builds->failed > 0 ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace

CommandAction setup_bench(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 60.0);
  add_bench_flags(app, options->bench);
  return [options](Session& session) { return run_bench(*options, session); };
}

}  // namespace kblaster
