#include "eval/profile_run.h"

#include "core/result_envelope.h"
#include "eval/ceilings_cache.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"
#include "eval/seed_source.h"

namespace kblaster {
namespace {

KernelProfileResult skipped_kernel(const std::string& name, const std::string& why) {
  return {.kernel = name,
          .status = ProfileStatus::skipped,
          .report = std::nullopt,
          .measurement = std::nullopt,
          .why_no_profile = why};
}

}  // namespace

Result<ProfileRun> run_profile(const LoadedRepo& repo, const BuildFlags& build,
                               ProfileSettings settings, Provenance provenance, std::ostream& text,
                               Session& session) {
  ProfileRun run;
  run.provenance = std::move(provenance);
  run.metrics = settings.metrics;
  auto gpu = start_gpu_run(repo, build, 60.0, run.provenance, session);
  if (!gpu) return gpu.error();
  if (!gpu->gpu) {
    run.skipped = "profiling skipped: " + gpu->why_no_device;
    for (const KernelSpec* spec : repo.selected)
      run.kernels.push_back(skipped_kernel(spec->name, "no CUDA device"));
    stamp_finished(run.provenance);
    return run;
  }
  auto ceilings = measured_ceilings(*gpu->gpu->client, gpu->gpu->harness_device.name,
                                    gpu->builds.cache_dir / "ceilings.json", session);
  if (!ceilings) return ceilings.error();
  run.ceilings = *ceilings;
  settings.csv_dir = gpu->builds.cache_dir / "profiles";
  settings.repo_root = repo.root;
  settings.ceilings = run.ceilings;
  if (settings.seed == 0) settings.seed = draw_seed();
  run.provenance.seeds = {settings.seed};
  std::vector<double> clocks;
  for (const KernelBuild& b : gpu->builds.kernels) {
    if (!b.ok()) {
      session.progress << "profile " << b.spec->name << ": skipped, the build failed\n";
      run.kernels.push_back(skipped_kernel(b.spec->name, "the build failed"));
      continue;
    }
    auto profiled = profile_kernel(b, *gpu->gpu, settings, text, session);
    if (!profiled) return profiled.error();
    if (profiled->measurement) clocks.push_back(profiled->measurement->sm_mhz);
    run.kernels.push_back(std::move(*profiled));
  }
  record_sm_clock(run.provenance, clocks);
  run.builds = std::move(gpu->builds);
  stamp_finished(run.provenance);
  return run;
}

nlohmann::json to_json(const ProfileRun& run) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : run.kernels) kernels.push_back(to_json(k, run.ceilings));
  const MeasuredCeilings& c = run.ceilings;
  nlohmann::json j = result_envelope("profile", kProfileSchemaVersion, run.provenance);
  j["metrics"] = ncu_metrics_name(run.metrics);
  j["ceilings"] = {
      {"dram_bytes_per_s", c.dram_bytes_per_s},
      {"fp32_flops_per_s", c.fp32_flops_per_s},
      {"tensor_flops_per_s",
       c.tensor_flops_per_s ? nlohmann::json(*c.tensor_flops_per_s) : nlohmann::json()}};
  j["kernels"] = kernels;
  add_builds(j, run.builds, run.skipped);
  return j;
}

ExitCode profile_exit_code(const ProfileRun& run) {
  if (!run.skipped.empty()) return ExitCode::missing_environment;
  bool timed_only = false;
  for (const auto& k : run.kernels) {
    if (k.status == ProfileStatus::skipped) return ExitCode::found_problem;
    timed_only = timed_only || k.status == ProfileStatus::timed_only;
  }
  return timed_only ? ExitCode::missing_environment : ExitCode::ok;
}

}  // namespace kblaster
