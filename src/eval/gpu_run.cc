#include "eval/gpu_run.h"

#include "eval/provenance.h"

namespace kblaster {

Result<GpuRun> start_gpu_run(const LoadedRepo& repo, const BuildFlags& build,
                             double launch_timeout_s, Provenance& provenance, Session& session) {
  GpuRun run;
  const DeviceInfo device = session.device.probe();
  if (!device.present) {
    run.why_no_device = no_device_reason(device);
    return run;
  }
  auto builds = build_kernels(repo, build, device, session, ReferenceBuilds::build);
  if (!builds) return builds.error();
  run.builds = std::move(*builds);
  provenance.nvcc_version = run.builds.compiler_version;
  provenance.gpu = gpu_identity(device);
  auto gpu = start_gpu(session, device, {60.0, launch_timeout_s});
  if (!gpu) return gpu.error();
  run.gpu = std::move(*gpu);
  return run;
}

void add_builds(nlohmann::json& j, const BuildReport& builds, const std::string& skipped) {
  j["builds"] = skipped.empty() ? to_json(builds) : nlohmann::json::object();
  if (!skipped.empty()) j["skipped"] = skipped;
}

}  // namespace kblaster
