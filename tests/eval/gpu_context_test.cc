// start_gpu with a real sandboxed child (a /bin/sh stand-in for kblaster-harness):
// the GPU line also says what network the harness was left. No GPU needed.
#include "eval/gpu_context.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "eval/fake_harness_runner.h"
#include "gpu/fake_harness/fake_harness.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// Greets like kblaster-harness on an H200; the test needs nothing else.
constexpr const char* kGreetingHarness = R"sh(#!/bin/sh
while IFS= read -r line; do
  echo '{"ok":true,"device":{"name":"NVIDIA H200","cc":"9.0","sm_count":132,"l2_bytes":52428800}}'
done
)sh";

TEST(StartGpu, TheGpuLineSaysWhatNetworkTheHarnessHas) {
  testing::TempDir dir;
  const auto harness = testing::write_executable(dir, "kblaster-harness", kGreetingHarness);
  std::ostringstream out, progress;
  testing::NoDevice probe;
  testing::FakeClock clock;
  Session session{
      out, progress, probe, clock, [&]() -> Result<std::unique_ptr<HarnessRunner>> {
        return std::unique_ptr<HarnessRunner>(std::make_unique<HarnessSession>(harness));
      }};
  DeviceInfo device;
  device.present = true;
  auto gpu = start_gpu(session, device, {10.0, 10.0});
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  const auto sandbox = gpu->runner->sandbox();
  ASSERT_TRUE(sandbox.has_value());
  EXPECT_THAT(progress.str(), HasSubstr("GPU: NVIDIA H200 (cc 9.0, 132 SMs, 52.4 MB L2) in "
                                        "kblaster-harness; its network: " +
                                        network_summary(*sandbox) + "\n"));
  if (sandbox->network_isolated)
    EXPECT_THAT(progress.str(), HasSubstr("its network: no network (a namespace of its own"));
  else
    EXPECT_THAT(progress.str(), HasSubstr("its network: the host's network (unshare("));
}

}  // namespace
}  // namespace kblaster
