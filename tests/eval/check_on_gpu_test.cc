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

// A scripted harness behind a GpuContext, and a Session whose progress the test reads.
class CheckOnGpu : public ::testing::Test {
 protected:
  CheckOnGpu() {
    auto owned = std::make_unique<FakeHarnessRunner>();
    runner = owned.get();
    gpu.runner = std::move(owned);
    gpu.client = std::make_unique<HarnessClient>(*gpu.runner);
  }
  // A cached build of `spec`'s kernel at `object`.
  static KernelBuild built(const KernelSpec& spec, const char* object) {
    KernelBuild b{&spec, {}, std::nullopt};
    b.result.outcome = BuildOutcome::cache_hit;
    b.result.object = object;
    return b;
  }

  FakeHarnessRunner* runner = nullptr;
  GpuContext gpu;
  std::ostringstream out, progress;
  testing::NoDevice device;
  testing::FakeClock clock;
  Session session{out, progress, device, clock, nullptr};
};

// A bug of base's own (here a fault at a size head added, which head may fix) is no reason to
// call head a functional regression, nor to end the whole check as kblaster's error (exit 4):
// head is UNVERIFIED, saying why, nothing is timed, and the next kernel reaches a fresh harness.
TEST_F(CheckOnGpu, ABaseThatFailsAsHeadsReferenceLeavesHeadUnverified) {
  testing::TempDir dir;
  dir.write("k/scale.cu", "void scale() {}\n");
  dir.write("kblaster.toml", kConfig);
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelBuild build = built(config->kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head_build = built(config->kernels.at(0), "/cache/objects/head.so");
  runner->on("verify", [](const json& request) -> Result<json> {
    EXPECT_EQ(request["against"], (json{{"candidate", 0}})) << "base is candidate 0";
    return json{{"verdict", testing::harness_verdict(true, "", "", json::object())}};
  });
  // Passes at n=1024; at n=1001 base faults.
  runner->fail_next("verify", HarnessFailure::base_failed,
                    "harness refused 'verify': the candidate used as reference faulted: "
                    "cudaErrorIllegalAddress",
                    /*skip=*/1);

  const CheckedKernel k{"scale", "source_changed", &build, &head_build};
  CheckRow row = build_row(k);
  ASSERT_EQ(row.verdict, KernelVerdict::pending);
  const Status status = check_on_gpu(k, gpu, {1, 2, 3}, CompareFlags{}, session, row);
  ASSERT_TRUE(status.ok()) << status.error().describe();
  EXPECT_EQ(row.verdict, KernelVerdict::unverified);
  EXPECT_THAT(row.reason, ::testing::HasSubstr("base cannot serve as head's reference"));
  EXPECT_THAT(row.reason, ::testing::HasSubstr("it fails when run"));
  EXPECT_THAT(row.reason, ::testing::HasSubstr("cudaErrorIllegalAddress"));
  EXPECT_EQ(problem_of(row.verdict), CheckProblem::none);
  EXPECT_FALSE(row.timing.has_value());
  EXPECT_THAT(runner->ops(), ::testing::Not(::testing::Contains("sample")));
  EXPECT_EQ(runner->restarts, 1) << "base's fault may have lost the CUDA context";

  // Any other refusal is still an error of the check.
  runner->fail_next("verify", HarnessFailure::refused, "harness refused 'verify': no workload");
  CheckRow again = build_row(k);
  EXPECT_FALSE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, again).ok());
}

// Head drops a `requires` of base's and adds a size base rejects: verified against base's output
// only where base can run, saying which size was left out and why, then timed at a size both
// accept. With no size base accepts, head is UNVERIFIED before any GPU work.
TEST_F(CheckOnGpu, HeadIsVerifiedAgainstBaseOnlyAtTheSizesBaseAccepts) {
  testing::TempDir base_dir, head_dir;
  const std::string requires_even = "requires = [\"n % 2 == 0\"]\n";
  for (auto* dir : {&base_dir, &head_dir}) dir->write("k/scale.cu", "void scale() {}\n");
  base_dir.write("kblaster.toml", std::string(kConfig) + requires_even);
  head_dir.write("kblaster.toml", kConfig);
  auto base_config = load_config(DirectoryTree(base_dir.path()));
  auto head_config = load_config(DirectoryTree(head_dir.path()));
  ASSERT_TRUE(base_config.ok()) << base_config.error().describe();
  ASSERT_TRUE(head_config.ok()) << head_config.error().describe();
  ASSERT_EQ(base_config->kernels.at(0).sizes.size(), 1u) << "base itself leaves n=1001 out";
  const KernelBuild base = built(base_config->kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head = built(head_config->kernels.at(0), "/cache/objects/head.so");
  runner->max_calls = 40;  // the A/B has no scripted samples: it is refused, after the verify
  runner->on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", testing::harness_verdict(true, "", "", json::object())}};
  });
  const CheckedKernel k{"scale", "source_changed", &base, &head};
  CheckRow row = build_row(k);
  (void)check_on_gpu(k, gpu, {1}, CompareFlags{}, session, row);
  std::vector<std::int64_t> verified_at;
  for (std::size_t i = 0; i < runner->requests.size(); ++i)
    if (runner->requests[i].value("op", "") == "verify")
      verified_at.push_back(runner->requests[i - 1]["args"][0]["elements"].get<std::int64_t>());
  EXPECT_EQ(verified_at, std::vector<std::int64_t>{1024}) << progress.str();
  EXPECT_THAT(progress.str(),
              ::testing::HasSubstr("check: scale n=1001 left out of the verification against "
                                   "base: base requires `n % 2 == 0` (n=1001)"));

  // Base accepting none of head's sizes leaves nothing to verify against.
  head_config->kernels.at(0).sizes = {{{"n", 1001}}};
  CheckRow none = build_row(k);
  const std::size_t sent = runner->requests.size();
  ASSERT_TRUE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, none).ok());
  EXPECT_EQ(none.verdict, KernelVerdict::unverified);
  EXPECT_THAT(none.reason, ::testing::HasSubstr("its `requires` reject every size head declares"));
  EXPECT_EQ(runner->requests.size(), sent) << "no GPU work";
}

}  // namespace
}  // namespace kblaster
