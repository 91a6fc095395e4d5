// Results that cannot be written are not lost silently: stdout on a full disk
// (/dev/full) is exit 3 with a message, through the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_run.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;
using testing::run_kblaster_to;

constexpr const char* kFullStdout =
    "kblaster: error: writing results to standard output failed: No space left on device";

void expect_lost_output_reported(const std::vector<std::string>& args) {
  SCOPED_TRACE(args.front());
  ASSERT_EQ(run_kblaster(args).exit_code, 0) << "the command itself succeeds";
  const testing::CliResult r = run_kblaster_to(args, "/dev/full");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr(kFullStdout));
  EXPECT_THAT(r.err, HasSubstr("free space there, or send the output elsewhere"));
}

TEST(OutputFailureCli, KbExportToAFullDiskExitsThreeAndSaysSo) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  expect_lost_output_reported({"kb", "export", repo.path().string()});
}

// --out names a file that is replaced whole; a device there is refused, not renamed over.
TEST(OutputFailureCli, KbExportOutToADeviceIsRefusedWithExitTwo) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  const testing::CliResult r =
      run_kblaster({"kb", "export", repo.path().string(), "--out", "/dev/full"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cannot replace /dev/full: it is a character device"));
}

TEST(OutputFailureCli, PlanJsonToAFullDiskExitsThreeAndSaysSo) {
  expect_lost_output_reported({"plan", "--json", "examples/kernels"});
  expect_lost_output_reported({"plan", "examples/kernels"});
}

TEST(OutputFailureCli, ClassifyToAFullDiskExitsThreeAndSaysSo) {
  expect_lost_output_reported(
      {"classify", "--ncu-csv", "tests/profile/fixtures/h200/axpy.full.csv"});
  expect_lost_output_reported(
      {"classify", "--json", "--ncu-csv", "tests/profile/fixtures/h200/axpy.full.csv"});
}

TEST(OutputFailureCli, HelpToAFullDiskExitsThree) {
  const testing::CliResult r = run_kblaster_to({"help"}, "/dev/full");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr(kFullStdout));
}

// Output that was never written cannot be lost: a failed command keeps its own exit code.
TEST(OutputFailureCli, AFailureThatWroteNothingKeepsItsExitCode) {
  const testing::CliResult r =
      run_kblaster_to({"classify", "--ncu-csv", "/no/such.csv"}, "/dev/full");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/no/such.csv"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("standard output")));
}

}  // namespace
}  // namespace kblaster
