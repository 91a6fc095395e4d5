// CommandBackend running small scripts written into a temp dir: the request on stdin, plain
// and JSON answers, and every way a command can fail; and what its environment holds.
#include "llm/command_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "llm/llm_rig.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kKey = "llm-k3y-for-the-command-only";

// A script at dir/name, executable, holding `body` after a sh shebang.
std::string script(const testing::TempDir& dir, const std::string& name, const std::string& body,
                   const std::string& shebang = "#!/bin/sh\n") {
  const auto path = dir.write(name, shebang + body);
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

CommandBackend backend_for(const std::string& program, double timeout_s = 10) {
  return CommandBackend({.argv = {program},
                         .model = "local-model",
                         .timeout_s = timeout_s,
                         .key_variable = "MY_LLM_KEY",
                         .key = kKey,
                         .working_dir = {}});
}

TEST(CommandBackendTest, APlainTextAnswerIsTheWholeStdout) {
  testing::TempDir dir;
  auto backend =
      backend_for(script(dir, "plain", "cat >/dev/null\nprintf 'line one\\nline two\\n'\n"));
  auto answer = backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "line one\nline two\n");
  EXPECT_EQ(answer->stop_reason, "stop");
  EXPECT_EQ(answer->model, "local-model");
  EXPECT_EQ(backend.name(), "command");
}

TEST(CommandBackendTest, TheRequestArrivesOnStdinAsJson) {
  testing::TempDir dir;
  const auto saved = dir.path() / "request.json";
  auto backend = backend_for(script(dir, "saver", "cat > '" + saved.string() + "'\necho ok\n"));
  ASSERT_TRUE(backend.complete(testing::sample_request()).ok());
  const auto request = nlohmann::json::parse(testing::read_text(saved));
  EXPECT_EQ(request["purpose"], "apply");
  EXPECT_EQ(request["system"], "You optimise CUDA kernels.");
  ASSERT_EQ(request["messages"].size(), 1u);
  EXPECT_EQ(request["messages"][0]["role"], "user");
  EXPECT_DOUBLE_EQ(request["temperature"].get<double>(), 0.3);
  EXPECT_EQ(request["max_tokens"], 512);
  EXPECT_EQ(request["model"], "local-model");
}

TEST(CommandBackendTest, AJsonAnswerGivesTextUsageAndStopReason) {
  testing::TempDir dir;
  const std::string python =
      "import json, sys\n"
      "request = json.load(sys.stdin)\n"
      "print(json.dumps({'text': 'echo: ' + request['purpose'], 'stop_reason': 'max_tokens',\n"
      "                  'usage': {'input': 12, 'output': 34}}))\n";
  auto backend = backend_for(script(dir, "answer.py", python, "#!/usr/bin/env python3\n"));
  auto answer = backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "echo: apply");
  EXPECT_EQ(answer->usage.input, 12);
  EXPECT_EQ(answer->usage.output, 34);
  EXPECT_EQ(answer->stop_reason, "max_tokens");
}

TEST(CommandBackendTest, ANonZeroExitIsARemoteErrorNamingTheCommandAndItsStderr) {
  testing::TempDir dir;
  const auto program =
      script(dir, "failing", "cat >/dev/null\necho 'model not loaded' >&2\nexit 3\n");
  auto answer = backend_for(program).complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr(program));
  EXPECT_THAT(answer.error().message, HasSubstr("status 3"));
  EXPECT_THAT(answer.error().message, HasSubstr("model not loaded"));
}

TEST(CommandBackendTest, ACommandPastItsTimeoutIsKilledAndAnError) {
  testing::TempDir dir;
  const auto program = script(dir, "sleepy", "sleep 30\necho late\n");
  const auto started = std::chrono::steady_clock::now();
  auto answer = backend_for(program, /*timeout_s=*/0.5).complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("no answer within 0.5 s"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5))
      << "the sleep in its process group was killed too";
}

TEST(CommandBackendTest, ARequestsTimeLimitCutsItsTimeout) {
  testing::TempDir dir;
  const auto program = script(dir, "sleepy", "sleep 30\necho late\n");
  LlmRequest request = testing::sample_request();
  request.time_limit_s = 0.5;  // the search's time left
  const auto started = std::chrono::steady_clock::now();
  auto answer = backend_for(program, /*timeout_s=*/60).complete(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("no answer within 0.5 s"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(CommandBackendTest, AnEmptyAnswerIsARemoteError) {
  testing::TempDir dir;
  auto answer = backend_for(script(dir, "silent", "cat >/dev/null\necho '  '\n"))
                    .complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("nothing on its stdout"));
}

TEST(CommandBackendTest, AnOversizedAnswerIsKilledAndAnError) {
  testing::TempDir dir;
  auto answer = backend_for(script(dir, "flood",
                                   "cat >/dev/null\nwhile :; do echo aaaaaaaaaaaaaaaaaaaa; done\n"))
                    .complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("bytes on its stdout"));
}

TEST(CommandBackendTest, ItGetsItsKeyVariableButNoGitHubTokenNorOtherSecrets) {
  testing::ScopedEnv env({{"GITHUB_TOKEN", "ghs_parent_token_must_not_leak"},
                          {"OPENAI_API_KEY", "sk-other-key-must-not-leak"},
                          {"MY_LLM_KEY", "the parent's value is not what counts"}});
  testing::TempDir dir;
  auto answer =
      backend_for(script(dir, "env", "cat >/dev/null\nenv\n")).complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_THAT(answer->text, HasSubstr(std::string("MY_LLM_KEY=") + kKey));
  EXPECT_THAT(answer->text, Not(HasSubstr("GITHUB_TOKEN")));
  EXPECT_THAT(answer->text, Not(HasSubstr("ghs_parent_token_must_not_leak")));
  EXPECT_THAT(answer->text, Not(HasSubstr("OPENAI_API_KEY")));
  EXPECT_THAT(answer->text, HasSubstr("PATH="));
}

TEST(CommandBackendTest, TheKeyIsRedactedFromItsStderrInTheError) {
  testing::TempDir dir;
  auto answer =
      backend_for(script(dir, "leaky", "cat >/dev/null\necho \"key is $MY_LLM_KEY\" >&2\nexit 1\n"))
          .complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("key is ***"));
  EXPECT_THAT(answer.error().describe(), Not(HasSubstr(kKey)));
}

TEST(CommandBackendTest, AMissingProgramIsAnEnvironmentErrorNamingIt) {
  auto answer = backend_for("/nonexistent/llm-wrapper").complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::environment);
  EXPECT_THAT(answer.error().message, HasSubstr("/nonexistent/llm-wrapper"));
}

}  // namespace
}  // namespace kblaster
