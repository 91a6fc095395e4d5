#include "eval/ci_run.h"

#include "core/launch_plan.h"
#include "core/result_envelope.h"
#include "eval/bench_run.h"
#include "eval/provenance.h"
#include "eval/verify_step.h"

namespace kblaster {

Result<CiRun> run_ci(const LoadedRepo& repo, const BuildFlags& build, const VerifyFlags& verify,
                     const BenchFlags& bench, Provenance provenance, Session& session) {
  CiRun run{.provenance = std::move(provenance),
            .spec_files = repo.config.spec_files.size(),
            .builds = {},
            .outcome = {},
            .skipped = {}};
  for (const KernelSpec* spec : repo.selected)
    if (auto plan = plan_validated_kernel(*spec); !plan) return plan.error();
  const DeviceInfo device = session.device.probe();
  auto builds = build_kernels(repo, build, device, session, ReferenceBuilds::build);
  if (!builds) return builds.error();
  run.builds = std::move(*builds);
  run.provenance.nvcc_version = run.builds.compiler_version;
  if (!device.present) {
    run.skipped = "verification and measurement skipped: " + no_device_reason(device);
    run.outcome = skipped_bench(repo);
  } else {
    run.provenance.gpu = gpu_identity(device);
    auto gpu = start_gpu(session, device, {60.0, request_timeout(verify)});
    if (!gpu) return gpu.error();
    auto outcome = bench_builds(run.builds, *gpu, verify, bench, run.provenance, session);
    if (!outcome) return outcome.error();
    run.outcome = std::move(*outcome);
  }
  stamp_finished(run.provenance);
  return run;
}

nlohmann::json to_json(const CiRun& run) {
  nlohmann::json j = result_envelope("run", kRunSchemaVersion, run.provenance);
  j.update(to_json(run.outcome));
  j["builds"] = to_json(run.builds);
  if (!run.skipped.empty()) j["skipped"] = run.skipped;
  return j;
}

ExitCode ci_exit_code(const CiRun& run) {
  if (run.outcome.problem || run.builds.failed > 0) return ExitCode::found_problem;
  return run.skipped.empty() ? ExitCode::ok : ExitCode::missing_environment;
}

}  // namespace kblaster
