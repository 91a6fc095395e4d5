// run_filter: a program run once with text on its stdin, its stdout and stderr kept apart,
// a timeout and an output bound that kill its process group, and extra environment entries.
#include "gpu/filter_process.h"

#include <gtest/gtest.h>

#include <chrono>

namespace kblaster {
namespace {

FilterOptions options(double timeout_s = 10) {
  FilterOptions o;
  o.sandbox.network = NetworkIsolation::off;
  o.timeout_s = timeout_s;
  return o;
}

TEST(FilterProcessTest, InputGoesInAndStdoutComesOutApartFromStderr) {
  auto r = run_filter({"/bin/sh", "-c", "echo warn >&2; tr a-z A-Z"}, "hello\n", options());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->output, "HELLO\n");
  EXPECT_EQ(r->stderr_tail, "warn\n");
  EXPECT_FALSE(r->timed_out);
  EXPECT_FALSE(r->input_refused);
}

TEST(FilterProcessTest, AnInputLargerThanAPipeIsWrittenWhileOutputIsRead) {
  const std::string input(1 << 20, 'x');
  auto r = run_filter({"cat"}, input, options());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->output.size(), input.size()) << "no deadlock on full pipes both ways";
}

TEST(FilterProcessTest, AProgramThatReadsNoInputIsNotKilledBySigpipe) {
  auto r =
      run_filter({"/bin/sh", "-c", "exec 0<&-; echo done"}, std::string(1 << 20, 'x'), options());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->output, "done\n");
  EXPECT_TRUE(r->input_refused);
}

TEST(FilterProcessTest, TheTimeoutKillsTheWholeGroup) {
  const auto started = std::chrono::steady_clock::now();
  auto r = run_filter({"/bin/sh", "-c", "sleep 30 & sleep 30"}, "", options(0.3));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, 128 + 9);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(FilterProcessTest, OutputPastTheBoundIsCutAndTheProgramKilled) {
  FilterOptions o = options();
  o.max_output_bytes = 1000;
  auto r = run_filter({"/bin/sh", "-c", "while :; do echo xxxxxxxxxx; done"}, "", o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->output_overflow);
  EXPECT_EQ(r->output.size(), 1000u);
  EXPECT_FALSE(r->timed_out);
}

TEST(FilterProcessTest, ExtraEnvironmentIsAddedAfterScrubbing) {
  FilterOptions o = options();
  o.extra_env = {"SOME_API_KEY=k1"};
  auto r = run_filter({"/bin/sh", "-c", "echo \"$SOME_API_KEY\""}, "", o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->output, "k1\n") << "a name that looks like a secret passes only when asked for";
}

}  // namespace
}  // namespace kblaster
