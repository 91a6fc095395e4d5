// run_under_ncu with a fake ncu (a shell script): when ncu cannot profile, the
// run comes back with ncu's reason as its problem, not as an Error, so callers
// fall back to timing. No GPU needed.
#include "eval/ncu_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/launch_plan.h"
#include "eval/fake_ncu.h"
#include "example_kernels.h"
#include "gpu/child_process.h"
#include "gpu/fake_harness/fake_harness.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// The first example kernel run under the fake ncu in `dir` (no GPU, no object).
Result<NcuRun> run_under_fake_ncu(const testing::TempDir& dir) {
  const auto ncu = testing::write_executable(dir, "ncu", testing::kRefusingNcu);
  const KernelSpec& spec = testing::example_config().kernels.at(0);
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  KernelBuild build{&spec, {}, std::nullopt};
  build.result.object = dir.path() / "never-loaded.so";
  return run_under_ncu(NcuTool{ncu}, build, plan->sizes.front(), NcuMetrics::kblaster_list,
                       dir.path() / "profiles" / "axpy.csv", 10.0, 7);
}

TEST(NcuRun, RefusedCountersComeBackAsTheRunsProblem) {
  testing::TempDir dir;
  auto run = run_under_fake_ncu(dir);
  ASSERT_TRUE(run.ok()) << "a failed ncu run is not an Error: " << run.error().message;
  ASSERT_TRUE(run->problem.has_value());
  EXPECT_THAT(*run->problem, HasSubstr("the harness under ncu failed"));
  EXPECT_THAT(*run->problem, HasSubstr("not accessible to this user (ERR_NVGPUCTRPERM)"));
}

// Whether this machine gives a sandboxed child a network namespace of its own.
bool network_isolation_available(std::string& why_not) {
  ChildSpec spec;
  spec.argv = {"/bin/true"};
  auto child = ChildProcess::start(spec);
  if (!child) {
    why_not = child.error().message;
    return false;
  }
  why_not = child->sandbox().why_not;
  return child->sandbox().network_isolated;
}

// ncu (and so the harness it starts) runs in the harness's sandbox, network
// namespace included: it sees only its own loopback, never the host's interfaces.
TEST(NcuRun, NcuRunsWithoutTheHostsNetwork) {
  std::string why_not;
  if (!network_isolation_available(why_not))
    GTEST_SKIP() << "network isolation unavailable here: " << why_not;
  testing::TempDir dir;
  auto run = run_under_fake_ncu(dir);
  ASSERT_TRUE(run.ok()) << run.error().message;
  std::ifstream net(dir.path() / "net");
  std::string interfaces, loopback;
  std::getline(net, interfaces);
  std::getline(net, loopback);
  EXPECT_EQ(interfaces, "lo");
  EXPECT_EQ(loopback, "loopback works") << "ncu talks to its target over loopback";
}

}  // namespace
}  // namespace kblaster
