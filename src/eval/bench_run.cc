#include "eval/bench_run.h"

#include "core/result_envelope.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"
#include "eval/verify_step.h"

namespace kblaster {

BenchOutcome skipped_bench(const LoadedRepo& repo) {
  BenchOutcome outcome;
  for (auto& v : skipped_verifications(repo, "no CUDA device"))
    outcome.kernels.push_back({.verification = std::move(v), .runs = {}, .stopped = {}});
  return outcome;
}

Result<BenchOutcome> bench_builds(const BuildReport& builds, GpuContext& gpu,
                                  const VerifyFlags& verify, const BenchFlags& bench,
                                  Provenance& provenance, Session& session) {
  auto outcome = verify_and_bench(builds, gpu, verify, bench, session);
  if (!outcome) return outcome.error();
  provenance.seeds = outcome->seeds;
  record_sm_clock(provenance, timing_clocks(*outcome));
  return outcome;
}

Result<BenchRun> run_bench(const LoadedRepo& repo, const BuildFlags& build,
                           const VerifyFlags& verify, const BenchFlags& bench,
                           Provenance provenance, Session& session) {
  BenchRun run{.provenance = std::move(provenance), .builds = {}, .outcome = {}, .skipped = {}};
  auto gpu = start_gpu_run(repo, build, request_timeout(verify), run.provenance, session);
  if (!gpu) return gpu.error();
  if (!gpu->gpu) {
    run.skipped = "verification and measurement skipped: " + gpu->why_no_device;
    run.outcome = skipped_bench(repo);
  } else {
    auto outcome = bench_builds(gpu->builds, *gpu->gpu, verify, bench, run.provenance, session);
    if (!outcome) return outcome.error();
    run.outcome = std::move(*outcome);
    run.builds = std::move(gpu->builds);
  }
  stamp_finished(run.provenance);
  return run;
}

nlohmann::json to_json(const BenchRun& run) {
  nlohmann::json j = result_envelope("bench", kBenchSchemaVersion, run.provenance);
  j.update(to_json(run.outcome));
  add_builds(j, run.builds, run.skipped);
  return j;
}

ExitCode bench_exit_code(const BenchRun& run) {
  if (!run.skipped.empty()) return ExitCode::missing_environment;
  return run.outcome.problem || run.builds.failed > 0 ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace kblaster
