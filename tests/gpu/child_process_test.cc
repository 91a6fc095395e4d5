#include "gpu/child_process.h"

#include <gtest/gtest.h>

#include <chrono>

#include "gpu/fake_harness/fake_harness.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A started `/bin/sh -c script arg`; the test fails if it cannot start.
ChildProcess shell(const std::string& script, const std::string& arg = "", ChildSpec spec = {}) {
  spec.argv = {"/bin/sh", "-c", script, "sh", arg};
  auto child = ChildProcess::start(spec);
  EXPECT_TRUE(child.ok()) << child.error().message;
  return std::move(child).value();
}

TEST(ChildProcess, AnswersOneLinePerRequestInOrder) {
  ChildProcess child = shell("while IFS= read -r l; do echo \"got:$l\"; done");
  EXPECT_TRUE(child.running());
  EXPECT_GT(child.pid(), 0);
  for (const char* line : {"first", "{\"op\":\"hello\"}", ""}) {
    auto reply = child.request(line, 5.0);
    ASSERT_TRUE(reply.ok()) << reply.failure->message;
    EXPECT_EQ(reply.line, std::string("got:") + line);
  }
}

TEST(ChildProcess, MovedChildKeepsWorking) {
  ChildProcess first = shell("while read -r l; do echo \"$l\"; done");
  ChildProcess second = std::move(first);
  EXPECT_FALSE(first.running());  // NOLINT: checking the moved-from state on purpose
  EXPECT_FALSE(first.request("x", 1.0).ok());
  auto reply = second.request("still here", 5.0);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, "still here");
}

TEST(ChildProcess, TimeoutKillsTheWholeGroupByTheDeadline) {
  testing::TempDir dir;
  const auto pid_file = dir.path() / "grandchild.pid";
  ChildProcess child = shell("read -r _; sleep 1000 & echo $! > \"$1\"; wait", pid_file.string());
  const pid_t leader = child.pid();
  const auto start = Clock::now();
  auto reply = child.request("hang", 0.3);
  const double took = seconds_since(start);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->failure, ChildFailure::timeout);
  EXPECT_NE(reply.failure->message.find("no answer within 0.30 s"), std::string::npos)
      << reply.failure->message;
  EXPECT_GE(took, 0.3);
  EXPECT_LT(took, 0.8);
  EXPECT_FALSE(child.running());
  EXPECT_TRUE(testing::process_gone(leader));
  const pid_t grandchild = testing::read_pid(pid_file);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(testing::process_gone(grandchild)) << "grandchild " << grandchild << " survived";

  auto later = child.request("again", 1.0);
  ASSERT_FALSE(later.ok());
  EXPECT_EQ(later.failure->failure, ChildFailure::exited);
  EXPECT_NE(later.failure->message.find("not running"), std::string::npos);
}

TEST(ChildProcess, ThePolicyCapsTheCallersTimeout) {
  ChildSpec spec;
  spec.sandbox.wall_timeout_s = 0.2;
  ChildProcess child = shell("read -r _; sleep 1000", "", spec);
  const auto start = Clock::now();
  auto reply = child.request("hang", 60.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->failure, ChildFailure::timeout);
  EXPECT_LT(seconds_since(start), 1.0);
}

TEST(ChildProcess, ExitBeforeAnsweringGivesItsStatusAndStderrTail) {
  ChildProcess child = shell("read -r _; echo 'boom: device lost' >&2; exit 3");
  auto reply = child.request("go", 5.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->failure, ChildFailure::exited);
  EXPECT_EQ(reply.failure->exit_code, 3);
  EXPECT_EQ(reply.failure->stderr_tail, "boom: device lost\n");
  EXPECT_NE(reply.failure->message.find("exited with status 3 before answering"), std::string::npos)
      << reply.failure->message;
  EXPECT_NE(reply.failure->message.find("boom: device lost"), std::string::npos);
  EXPECT_FALSE(child.running());
}

TEST(ChildProcess, ALineWrittenJustBeforeExitIsStillTheAnswer) {
  ChildProcess child = shell("echo early; exit 0");  // never reads its stdin
  auto reply = child.request("go", 5.0);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, "early");
  auto next = child.request("go", 5.0);
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.failure->failure, ChildFailure::exited);
  EXPECT_EQ(next.failure->exit_code, 0);
}

TEST(ChildProcess, DeathBySignalIsNamed) {
  ChildProcess child = shell("read -r _; kill -SEGV $$");
  auto reply = child.request("go", 5.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->exit_code, 128 + 11);
  EXPECT_NE(reply.failure->message.find("killed by signal 11"), std::string::npos)
      << reply.failure->message;
}

TEST(ChildProcess, ExitIsSeenEvenWhileAGrandchildHoldsThePipes) {
  testing::TempDir dir;
  const auto pid_file = dir.path() / "grandchild.pid";
  ChildProcess child = shell("read -r _; sleep 1000 & echo $! > \"$1\"; exit 4", pid_file.string());
  const auto start = Clock::now();
  auto reply = child.request("go", 10.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->failure, ChildFailure::exited);
  EXPECT_EQ(reply.failure->exit_code, 4);
  EXPECT_LT(seconds_since(start), 2.0);
  EXPECT_TRUE(testing::process_gone(testing::read_pid(pid_file)));
}

TEST(ChildProcess, KeepsOnlyTheTailOfStderr) {
  ChildSpec spec;
  spec.stderr_tail_bytes = 100;
  ChildProcess child =
      shell("read -r _; head -c 100000 /dev/zero | tr '\\0' x >&2; echo END >&2; exit 1", "", spec);
  auto reply = child.request("go", 5.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->stderr_tail.size(), 100u);
  EXPECT_EQ(reply.failure->stderr_tail, std::string(96, 'x') + "END\n");
}

TEST(ChildProcess, AnOverlongLineKillsTheChild) {
  ChildSpec spec;
  spec.max_line_bytes = 1000;
  ChildProcess child =
      shell("read -r _; head -c 100000 /dev/zero | tr '\\0' a; sleep 1000", "", spec);
  auto reply = child.request("go", 5.0);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.failure->failure, ChildFailure::oversized);
  EXPECT_FALSE(child.running());
}

TEST(ChildProcess, DestructionKillsTheGroup) {
  testing::TempDir dir;
  const auto pid_file = dir.path() / "grandchild.pid";
  pid_t leader = -1;
  {
    ChildProcess child =
        shell("read -r _; sleep 1000 & echo $! > \"$1\"; echo ready; wait", pid_file.string());
    leader = child.pid();
    auto reply = child.request("go", 5.0);
    ASSERT_TRUE(reply.ok()) << reply.failure->message;
  }
  EXPECT_TRUE(testing::process_gone(leader));
  EXPECT_TRUE(testing::process_gone(testing::read_pid(pid_file)));
}

TEST(ChildProcess, AProgramThatCannotStartIsAnEnvironmentError) {
  ChildSpec spec;
  spec.argv = {"kblaster-no-such-program"};
  auto missing = ChildProcess::start(spec);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::environment);
  EXPECT_NE(missing.error().message.find("kblaster-no-such-program"), std::string::npos);
  EXPECT_NE(missing.error().message.find("exec failed"), std::string::npos)
      << missing.error().message;

  spec.argv = {"/bin/true"};
  spec.working_dir = "/kblaster/no/such/dir";
  auto bad_dir = ChildProcess::start(spec);
  ASSERT_FALSE(bad_dir.ok());
  EXPECT_NE(bad_dir.error().message.find("chdir failed"), std::string::npos)
      << bad_dir.error().message;
}

TEST(ChildProcess, RunsInTheWorkingDirectory) {
  testing::TempDir dir;
  ChildSpec spec;
  spec.working_dir = dir.path();
  ChildProcess child = shell("pwd -P", "", spec);
  auto reply = child.request("go", 5.0);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, std::filesystem::canonical(dir.path()).string());
}

}  // namespace
}  // namespace kblaster
