#include "gpu/harness_session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "gpu/fake_harness/fake_harness.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

class HarnessSessionTest : public ::testing::Test {
 protected:
  testing::TempDir dir;
  HarnessSession session{testing::write_executable(dir, "fake-harness", testing::kFakeHarness)};
};

TEST_F(HarnessSessionTest, StartsLazilyAndRoundTripsJson) {
  EXPECT_EQ(session.generation(), 0u);
  EXPECT_EQ(session.pid(), -1);
  auto hello = session.call({{"op", "hello"}}, 5.0);
  ASSERT_TRUE(hello.ok()) << hello.error().message;
  EXPECT_EQ((*hello)["version"], "fake");
  EXPECT_EQ(session.generation(), 1u);
  EXPECT_EQ(session.last_failure(), HarnessFailure::none);

  const json request = {{"op", "verify"},
                        {"candidate", 1},
                        {"seeds", {1, 2, 3}},
                        {"tolerance", {{"rtol", 1e-4}, {"atol", 1e-5}}},
                        {"note", "a\nb \"q\""}};
  auto echoed = session.call(request, 5.0);
  ASSERT_TRUE(echoed.ok()) << echoed.error().message;
  EXPECT_EQ((*echoed)["echo"], request);
  EXPECT_EQ(session.generation(), 1u);
  ASSERT_TRUE(session.sandbox().has_value());
}

TEST_F(HarnessSessionTest, TimeoutKillsTheHarnessAndTheNextCallStartsAFreshOne) {
  auto hello = session.call({{"op", "hello"}}, 5.0);
  ASSERT_TRUE(hello.ok()) << hello.error().message;
  const pid_t first = session.pid();

  const auto start = Clock::now();
  auto hung = session.call({{"op", "hang"}}, 0.3);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_FALSE(hung.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::timeout);
  EXPECT_NE(hung.error().message.find("'hang'"), std::string::npos) << hung.error().message;
  EXPECT_LT(took, 0.8);
  EXPECT_TRUE(testing::process_gone(first));
  const pid_t grandchild = testing::read_pid(dir.path() / "grandchild.pid");
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(testing::process_gone(grandchild)) << "grandchild " << grandchild << " survived";

  auto again = session.call({{"op", "hello"}}, 5.0);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(session.generation(), 2u);
  EXPECT_NE((*again)["pid"], first);
  EXPECT_EQ(session.last_failure(), HarnessFailure::none);
}

TEST_F(HarnessSessionTest, CrashGivesStatusAndStderrThenRestarts) {
  auto died = session.call({{"op", "die"}}, 5.0);
  ASSERT_FALSE(died.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::crashed);
  EXPECT_EQ(died.error().kind, ErrorKind::io);
  EXPECT_NE(died.error().message.find("exited with status 3"), std::string::npos)
      << died.error().message;
  EXPECT_NE(died.error().message.find("fatal: kernel fault at x.cu:12"), std::string::npos);
  EXPECT_EQ(session.pid(), -1);
  EXPECT_TRUE(session.sandbox().has_value())
      << "the ended harness's sandbox is kept, to explain the failure";

  auto hello = session.call({{"op", "hello"}}, 5.0);
  ASSERT_TRUE(hello.ok()) << hello.error().message;
  EXPECT_EQ(session.generation(), 2u);
}

// A refusal the harness blames on the spec's reference (its module raised) is a config error
// (exit 2), on what it needs (no torch) an environment one (exit 3); any other stays kblaster's.
TEST(HarnessSession, ARefusalsCauseDecidesWhoseErrorItIs) {
  testing::TempDir dir;
  HarnessSession session(testing::write_executable(
      dir, "cause-harness",
      "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n"
      "*reference*) echo '{\"ok\":false,\"error\":\"the module "
      "raised\",\"cause\":\"reference\"}';;\n"
      "*environment*) echo '{\"ok\":false,\"error\":\"no torch\",\"cause\":\"environment\"}';;\n"
      "*base*) echo '{\"ok\":false,\"error\":\"base faulted\",\"cause\":\"base\"}';;\n"
      "*fresh*) echo '{\"ok\":false,\"error\":\"ref faulted\",\"cause\":\"fresh_context\"}';;\n"
      "*) echo '{\"ok\":false,\"error\":\"cudaMalloc failed\"}';;\nesac; done\n"));
  auto reference = session.call({{"op", "reference"}}, 5.0);
  ASSERT_FALSE(reference.ok());
  EXPECT_EQ(reference.error().kind, ErrorKind::config);
  EXPECT_EQ(reference.error().message, "harness refused 'reference': the module raised");
  auto environment = session.call({{"op", "environment"}}, 5.0);
  ASSERT_FALSE(environment.ok());
  EXPECT_EQ(environment.error().kind, ErrorKind::environment);
  auto base = session.call({{"op", "base"}}, 5.0);
  ASSERT_FALSE(base.ok());
  EXPECT_EQ(base.error().kind, ErrorKind::config) << "the base revision's bug is not kblaster's";
  EXPECT_EQ(session.last_failure(), HarnessFailure::base_failed);
  auto fresh = session.call({{"op", "fresh"}}, 5.0);
  ASSERT_FALSE(fresh.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::reference_suspect);
  const pid_t pid = session.pid();
  auto other = session.call({{"op", "setup"}}, 5.0);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().kind, ErrorKind::io);
  EXPECT_EQ(session.last_failure(), HarnessFailure::refused);
  EXPECT_EQ(session.pid(), pid) << "a refusal of any cause keeps the harness serving";
}

TEST_F(HarnessSessionTest, RefusalCarriesTheHarnessErrorAndKeepsTheHarness) {
  auto refused = session.call({{"op", "refuse"}}, 5.0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::refused);
  EXPECT_NE(refused.error().message.find("cudaMalloc: out of memory (harness.cc:42)"),
            std::string::npos)
      << refused.error().message;
  const pid_t pid = session.pid();
  EXPECT_GT(pid, 0);
  auto hello = session.call({{"op", "hello"}}, 5.0);
  ASSERT_TRUE(hello.ok()) << hello.error().message;
  EXPECT_EQ(session.pid(), pid);
  EXPECT_EQ(session.generation(), 1u);
}

TEST_F(HarnessSessionTest, UnparseableOutputNamesItsFirst200BytesAndRestarts) {
  auto garbage = session.call({{"op", "garbage"}}, 5.0);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::bad_response);
  EXPECT_NE(garbage.error().message.find("this is not json"), std::string::npos)
      << garbage.error().message;

  auto long_garbage = session.call({{"op", "long_garbage"}}, 5.0);
  ASSERT_FALSE(long_garbage.ok());
  EXPECT_EQ(session.generation(), 2u);
  const std::string& message = long_garbage.error().message;
  EXPECT_NE(message.find(std::string(200, 'x')), std::string::npos) << message;
  EXPECT_EQ(message.find(std::string(201, 'x')), std::string::npos) << message;

  auto no_ok = session.call({{"op", "no_ok"}}, 5.0);
  ASSERT_FALSE(no_ok.ok());
  EXPECT_EQ(session.last_failure(), HarnessFailure::bad_response);
  EXPECT_NE(no_ok.error().message.find("{\"answer\":42}"), std::string::npos);
  EXPECT_EQ(session.generation(), 3u);
}

TEST_F(HarnessSessionTest, FinishClosesInputAndWaitsForACleanExit) {
  EXPECT_FALSE(session.finish(5.0).ok()) << "nothing to finish before the first call";
  ASSERT_TRUE(session.call({{"op", "hello"}}, 5.0).ok());
  auto code = session.finish(5.0);
  ASSERT_TRUE(code.ok()) << code.error().message;
  EXPECT_EQ(*code, 0) << "the fake leaves its loop at end of input and exits 0";
  EXPECT_EQ(session.pid(), -1);
}

TEST(HarnessSession, FinishKillsAHarnessThatIgnoresTheEndOfItsInput) {
  testing::TempDir dir;
  HarnessSession stubborn(testing::write_executable(
      dir, "stubborn", "#!/bin/sh\nread -r line\necho '{\"ok\":true}'\nexec sleep 100\n"));
  ASSERT_TRUE(stubborn.call({{"op", "hello"}}, 5.0).ok());
  auto code = stubborn.finish(0.3);
  ASSERT_FALSE(code.ok());
  EXPECT_THAT(code.error().message, ::testing::HasSubstr("did not exit within"));
}

// Each session's harnesses get a TMPDIR of its own, removed with the session: a PyTorch
// reference's worker leaves its files there when the harness is killed.
TEST(HarnessSession, ItsHarnessesShareAPrivateTmpdirRemovedWithTheSession) {
  testing::TempDir dir;
  std::string tmpdir;
  {
    HarnessSession session(testing::write_executable(
        dir, "tmpdir-harness",
        "#!/bin/sh\nread -r line\nmkdir \"$TMPDIR/kblaster-pyref-left\"\n"
        "echo \"{\\\"ok\\\":true,\\\"tmpdir\\\":\\\"$TMPDIR\\\",\\\"outputs\\\":"
        "\\\"$KBLASTER_REFERENCE_OUTPUTS\\\"}\"\nexec sleep 100\n"));
    auto answer = session.call({{"op", "hello"}}, 5.0);
    ASSERT_TRUE(answer.ok()) << answer.error().message;
    tmpdir = answer->at("tmpdir").get<std::string>();
    EXPECT_THAT(tmpdir, ::testing::HasSubstr("kblaster-harness-"));
    EXPECT_TRUE(std::filesystem::is_directory(tmpdir + "/kblaster-pyref-left"));
    // Issue 22, point 9: the session's reference outputs live in it, for every later harness.
    EXPECT_EQ(answer->at("outputs").get<std::string>(), tmpdir + "/reference-outputs");
    EXPECT_TRUE(std::filesystem::is_directory(tmpdir + "/reference-outputs"));
  }
  EXPECT_FALSE(std::filesystem::exists(tmpdir)) << "removed after its harness was killed";
}

// Issue 22, point 9: the command's folder, given, is where every session of the command keeps its
// reference outputs, so a sweep's searches reuse what its run step computed; it outlives them.
TEST(HarnessSession, SessionsGivenTheCommandsFolderShareItAndLeaveIt) {
  testing::TempDir dir, command;
  const auto harness = testing::write_executable(
      dir, "outputs-harness",
      "#!/bin/sh\nread -r line\n"
      "echo \"{\\\"ok\\\":true,\\\"tmpdir\\\":\\\"$TMPDIR\\\",\\\"outputs\\\":"
      "\\\"$KBLASTER_REFERENCE_OUTPUTS\\\"}\"\nexec sleep 100\n");
  std::string own;
  for (int i = 0; i < 2; ++i) {
    HarnessSession session(harness, SandboxPolicy{}, command.path());
    auto answer = session.call({{"op", "hello"}}, 5.0);
    ASSERT_TRUE(answer.ok()) << answer.error().message;
    EXPECT_EQ(answer->at("outputs").get<std::string>(), command.path().string());
    own = answer->at("tmpdir").get<std::string>();
    EXPECT_NE(own, command.path().string()) << "each session still has a TMPDIR of its own";
  }
  EXPECT_TRUE(std::filesystem::is_directory(command.path())) << "the command's, not the session's";
  EXPECT_FALSE(std::filesystem::exists(own));
}

TEST(HarnessSession, AMissingHarnessIsUnavailable) {
  HarnessSession session("/kblaster/no/such/harness");
  auto hello = session.call({{"op", "hello"}}, 5.0);
  ASSERT_FALSE(hello.ok());
  EXPECT_EQ(hello.error().kind, ErrorKind::environment);
  EXPECT_EQ(session.last_failure(), HarnessFailure::unavailable);
  EXPECT_EQ(session.generation(), 0u);
  EXPECT_STREQ(harness_failure_name(session.last_failure()), "unavailable");
}

TEST_F(HarnessSessionTest, RestartStartsAFreshHarnessOnTheNextCall) {
  ASSERT_TRUE(session.call({{"op", "hello"}}, 5.0).ok());
  const pid_t first = session.pid();
  session.restart();
  EXPECT_TRUE(testing::process_gone(first));
  ASSERT_TRUE(session.call({{"op", "hello"}}, 5.0).ok());
  EXPECT_EQ(session.generation(), 2u);
}

}  // namespace
}  // namespace kblaster
