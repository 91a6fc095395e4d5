#include "eval/gpu_context.h"

#include <cstdlib>

#include "core/units.h"

namespace kblaster {

std::filesystem::path harness_path() {
  if (const char* env = std::getenv("KBLASTER_HARNESS"); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::path(".") : self.parent_path()) / "kblaster-harness";
}

Result<std::unique_ptr<HarnessRunner>> start_real_harness(
    const std::filesystem::path& reference_outputs) {
  const auto path = harness_path();
  if (!std::filesystem::exists(path))
    return Error::environment("kblaster-harness not found at " + path.string() +
                              " (build it with scripts/setup.sh, or set KBLASTER_HARNESS)");
  return std::unique_ptr<HarnessRunner>(
      std::make_unique<HarnessSession>(path, SandboxPolicy{}, reference_outputs));
}

std::string no_device_reason(const DeviceInfo& device) {
  return "no CUDA device present (" + device.why_absent + ")";
}

Result<GpuContext> start_gpu(Session& session, const DeviceInfo& device, HarnessTimeouts timeouts) {
  if (!device.present) return Error::environment(no_device_reason(device));
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

}  // namespace kblaster
