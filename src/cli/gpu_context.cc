#include "cli/gpu_context.h"

#include <cstdlib>

#include "cli/units.h"

namespace kblaster {

std::filesystem::path harness_path() {
  if (const char* env = std::getenv("KBLASTER_HARNESS"); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::path(".") : self.parent_path()) / "kblaster-harness";
}

Result<GpuContext> start_gpu(Session& session, const DeviceInfo& device, HarnessTimeouts timeouts) {
  if (!device.present)
    return Error::environment("no CUDA device present (" + device.why_absent + ")");
  auto runner = session.harness();
  if (!runner) return runner.error();
  GpuContext gpu{device, std::move(*runner), nullptr, {}};
  gpu.client = std::make_unique<HarnessClient>(*gpu.runner, timeouts);
  auto hello = gpu.client->hello();
  if (!hello) return hello.error();
  gpu.harness_device = *hello;
  session.progress << "GPU: " << hello->name << " (cc " << hello->cc << ", " << hello->sm_count
                   << " SMs, " << format_bytes(hello->l2_bytes) << " L2) in kblaster-harness";
  if (const auto sandbox = gpu.runner->sandbox())
    session.progress << "; its network: " << network_summary(*sandbox);
  session.progress << "\n";
  return gpu;
}

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
