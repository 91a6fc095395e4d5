#include "cli/gpu_run.h"

namespace kblaster {

Result<GpuRun> start_gpu_run(const CommonOptions& common, const BuildFlags& build,
                             double launch_timeout_s, Session& session) {
  auto repo = load_repository(common);
  if (!repo) return repo.error();
  const DeviceInfo device = session.device.probe();
  if (!device.present)
    return Error::environment("no CUDA device present (" + device.why_absent + ")");
  auto builds = build_kernels(*repo, build, device, session, ReferenceBuilds::build);
  if (!builds) return builds.error();
  auto gpu = start_gpu(session, device, {60.0, launch_timeout_s});
  if (!gpu) return gpu.error();
  return GpuRun{std::move(*repo), std::move(*builds), std::move(*gpu)};
}

}  // namespace kblaster
