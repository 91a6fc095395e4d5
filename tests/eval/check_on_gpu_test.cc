// check_on_gpu over a scripted harness: what check does when the base revision's kernel, run as
// head's reference, fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "core/config_loader.h"
#include "eval/check_step.h"
#include "eval/fake_harness_runner.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeHarnessRunner;

// A kernel with no reference: check verifies head against base's output.
constexpr const char* kConfig = R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
args = [
  { name = "out", type = "f32", shape = "n", role = "out" },
  { name = "x", type = "f32", shape = "n" },
  { name = "n", type = "i32" },
]
sizes = [ { n = 1024 }, { n = 1001 } ]
)TOML";

// A bug of base's own (here a fault at a size head added, which head may fix) is no reason to
// call head a functional regression, nor to end the whole check as kblaster's error (exit 4):
// head is UNVERIFIED, saying why, nothing is timed, and the next kernel reaches a fresh harness.
TEST(CheckOnGpu, ABaseThatFailsAsHeadsReferenceLeavesHeadUnverified) {
  testing::TempDir dir;
  dir.write("k/scale.cu", "void scale() {}\n");
  dir.write("kblaster.toml", kConfig);
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_TRUE(config.ok()) << config.error().describe();
  KernelBuild build{&config->kernels.at(0), {}, std::nullopt};
  build.result.outcome = BuildOutcome::cache_hit;
  build.result.object = "/cache/objects/base.so";
  KernelBuild head_build = build;
  head_build.result.object = "/cache/objects/head.so";

  auto owned = std::make_unique<FakeHarnessRunner>();
  FakeHarnessRunner& runner = *owned;
  runner.on("verify", [](const json& request) -> Result<json> {
    EXPECT_EQ(request["against"], (json{{"candidate", 0}})) << "base is candidate 0";
    return json{{"verdict", testing::harness_verdict(true, "", "", json::object())}};
  });
  // Passes at n=1024; at n=1001 base faults.
  runner.fail_next("verify", HarnessFailure::base_failed,
                   "harness refused 'verify': the candidate used as reference faulted: "
                   "cudaErrorIllegalAddress",
                   /*skip=*/1);
  GpuContext gpu;
  gpu.runner = std::move(owned);
  gpu.client = std::make_unique<HarnessClient>(*gpu.runner);
  std::ostringstream out, progress;
  testing::NoDevice device;
  testing::FakeClock clock;
  Session session{out, progress, device, clock, nullptr};

  const CheckedKernel k{"scale", "source_changed", &build, &head_build};
  CheckRow row = build_row(k);
  ASSERT_EQ(row.verdict, KernelVerdict::pending);
  const Status status = check_on_gpu(k, gpu, {1, 2, 3}, CompareFlags{}, session, row);
  ASSERT_TRUE(status.ok()) << status.error().describe();
  EXPECT_EQ(row.verdict, KernelVerdict::unverified);
  EXPECT_THAT(row.reason, ::testing::HasSubstr("base fails when run as head's reference"));
  EXPECT_THAT(row.reason, ::testing::HasSubstr("cudaErrorIllegalAddress"));
  EXPECT_EQ(problem_of(row.verdict), CheckProblem::none);
  EXPECT_FALSE(row.timing.has_value());
  EXPECT_THAT(runner.ops(), ::testing::Not(::testing::Contains("sample")));
  EXPECT_EQ(runner.restarts, 1) << "base's fault may have lost the CUDA context";

  // Any other refusal is still an error of the check.
  runner.fail_next("verify", HarnessFailure::refused, "harness refused 'verify': no workload");
  CheckRow again = build_row(k);
  EXPECT_FALSE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, again).ok());
}

}  // namespace
}  // namespace kblaster
