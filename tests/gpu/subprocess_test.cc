#include "gpu/subprocess.h"

#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

TEST(Subprocess, CapturesStdoutAndStderrTogetherWithTheExitCode) {
  auto r = run_process({"/bin/sh", "-c", "echo out; echo err 1>&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->output, "out\nerr\n");
  EXPECT_FALSE(r->timed_out);
  EXPECT_GE(r->seconds, 0.0);
}

TEST(Subprocess, FindsProgramsOnPathAndReadsNothingFromStdin) {
  auto r = run_process({"cat"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->output, "");
}

TEST(Subprocess, RunsInTheWorkingDirectory) {
  testing::TempDir dir;
  ProcessOptions options;
  options.working_dir = dir.path();
  auto r = run_process({"/bin/sh", "-c", "pwd -P"}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->output, std::filesystem::canonical(dir.path()).string() + "\n");
}

TEST(Subprocess, PassesOnlyTheExplicitEnvironment) {
  ProcessOptions options;
  options.environment = std::vector<std::string>{"KBLASTER_A=1", "KBLASTER_B=two"};
  auto r = run_process({"/usr/bin/env"}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->output, "KBLASTER_A=1\nKBLASTER_B=two\n");
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  ProcessOptions options;
  options.timeout_seconds = 0.3;
  // The background sleep holds the pipe open too; only a group kill ends it.
  auto r = run_process({"/bin/sh", "-c", "echo started; sleep 30 & sleep 30"}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, 128 + 9);
  EXPECT_EQ(r->output, "started\n");
  EXPECT_LT(r->seconds, 5.0);
}

TEST(Subprocess, OutputPastTheLimitIsReadAndDroppedSoTheChildStillFinishes) {
  ProcessOptions options;
  options.max_output_bytes = 1000;
  options.timeout_seconds = 30;
  // 8 MiB through a 64 KiB pipe: a reader that stopped reading would hang the child.
  auto r = run_process({"/bin/sh", "-c", "head -c 8388608 /dev/zero; echo done >&2"}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->output.size(), 1000u);
  EXPECT_EQ(r->output_dropped, 8388608u + 5u - 1000u);
}

TEST(Subprocess, ReportsDeathBySignal) {
  auto r = run_process({"/bin/sh", "-c", "kill -TERM $$"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 128 + 15);
}

TEST(Subprocess, AProgramThatCannotStartIsAnEnvironmentError) {
  auto r = run_process({"kblaster-no-such-program", "--version"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::environment);
  EXPECT_NE(r.error().message.find("kblaster-no-such-program"), std::string::npos);

  ProcessOptions options;
  options.working_dir = "/kblaster/no/such/dir";
  auto in_missing_dir = run_process({"/bin/true"}, options);
  ASSERT_FALSE(in_missing_dir.ok());
  EXPECT_EQ(in_missing_dir.error().kind, ErrorKind::environment);
}

}  // namespace
}  // namespace kblaster
