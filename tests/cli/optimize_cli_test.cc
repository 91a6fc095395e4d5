// `kblaster optimize` through the real binary on a machine without a GPU: it
// needs one, says so, and exits 3 without touching the user's sources.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "test_paths.h"

namespace kblaster {
namespace {

TEST(OptimizeCli, WithoutAGpuSaysWhatIsMissingAndExitsThree) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  const std::string before = testing::read_text(testing::examples_dir() / "kernels/axpy.cu");
  auto r = testing::run_kblaster({"optimize", "examples/kernels", "--kernel", "axpy", "--apply"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, ::testing::HasSubstr("no CUDA device present"));
  EXPECT_EQ(testing::read_text(testing::examples_dir() / "kernels/axpy.cu"), before);
}

TEST(OptimizeCli, HelpNamesTheBudgetAndTheOutput) {
  auto r = testing::run_kblaster({"optimize", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag :
       {"--breadth", "--depth", "--max-time", "--out", "--apply", "--source-only", "--kb"})
    EXPECT_THAT(r.out, ::testing::HasSubstr(flag));
}

}  // namespace
}  // namespace kblaster
