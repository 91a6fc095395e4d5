#include "eval/bench_run.h"

#include "core/result_envelope.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"

namespace kblaster {

Result<BenchRun> run_bench(const LoadedRepo& repo, const BuildFlags& build,
                           const VerifyFlags& verify, const BenchFlags& bench,
                           Provenance provenance, Session& session) {
  BenchRun run{.provenance = std::move(provenance), .builds = {}, .outcome = {}, .skipped = {}};
  auto gpu = start_gpu_run(repo, build, request_timeout(verify), run.provenance, session);
  if (!gpu) return gpu.error();
  if (!gpu->gpu) {
    run.skipped = "verification and measurement skipped: " + gpu->why_no_device;
    for (auto& v : skipped_verifications(repo, "no CUDA device"))
      run.outcome.kernels.push_back({.verification = std::move(v), .runs = {}, .stopped = {}});
  } else {
    auto outcome = verify_and_bench(gpu->builds, *gpu->gpu, verify, bench, session);
    if (!outcome) return outcome.error();
    run.outcome = std::move(*outcome);
    run.builds = std::move(gpu->builds);
    run.provenance.seeds = run.outcome.seeds;
    record_sm_clock(run.provenance, timing_clocks(run.outcome));
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
