// OpenAiBackend over real HTTP against the loopback OpenAI API (support/fake_openai.h): the
// request it sends, the answer it reads, and every way an answer can fail.
#include "llm/openai_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "llm/llm_rig.h"
#include "llm/truncation.h"
#include "support/fake_openai.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ScriptStep;

struct OpenAiRig : testing::LlmRig<OpenAiBackend> {
  explicit OpenAiRig(double timeout_s = 10)
      : LlmRig(testing::start_fake_openai(), testing::kFakeOpenAiKey, timeout_s) {}
};

TEST(OpenAiBackendTest, SendsTheFieldsTheApiRequiresWithTheSystemTextFirst) {
  OpenAiRig rig;
  rig.fake->script({testing::say("use shared memory")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();

  const auto requests = rig.fake->requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].header("Authorization"), std::string("Bearer ") + testing::kFakeOpenAiKey);
  EXPECT_THAT(requests[0].header("Content-Type"), HasSubstr("application/json"));
  const auto body = requests[0].json();
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["max_tokens"], 512);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.3);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "You optimise CUDA kernels.");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_FALSE(body.contains("purpose")) << "purpose is kblaster's, not the model's";
}

TEST(OpenAiBackendTest, ReadsTheTextStopReasonUsageAndModel) {
  OpenAiRig rig;
  rig.fake->script({testing::say("use shared memory")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "use shared memory");
  EXPECT_EQ(answer->stop_reason, "stop");
  EXPECT_FALSE(truncated(*answer));
  EXPECT_EQ(answer->model, "test-model");
  EXPECT_EQ(answer->usage.input, 2 * testing::kFakePromptTokensPerMessage);
  EXPECT_EQ(answer->usage.output, static_cast<std::int64_t>(answer->text.size()));
}

TEST(OpenAiBackendTest, NoSystemTextSendsNoSystemMessage) {
  OpenAiRig rig;
  LlmRequest request = testing::sample_request();
  request.system.clear();
  ASSERT_TRUE(rig.backend.complete(request).ok());
  const auto body = rig.fake->requests().at(0).json();
  ASSERT_EQ(body["messages"].size(), 1u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST(OpenAiBackendTest, ATruncatedAnswerIsAnAnswerThatSaysSo) {
  OpenAiRig rig;
  rig.fake->script({testing::truncated_answer("__global__ void k() { for (")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->stop_reason, "length");
  EXPECT_TRUE(truncated(*answer));
}

TEST(OpenAiBackendTest, AnEmptyAnswerIsARemoteErrorNamingTheBackendAndCall) {
  OpenAiRig rig;
  rig.fake->script({testing::empty_answer()});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("`openai`"));
  EXPECT_THAT(answer.error().message, HasSubstr("/v1/chat/completions"));
  EXPECT_THAT(answer.error().message, HasSubstr("no text"));
}

TEST(OpenAiBackendTest, MalformedJsonIsARemoteErrorNotACrash) {
  OpenAiRig rig;
  rig.fake->script({testing::malformed_answer()});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("not JSON"));
}

TEST(OpenAiBackendTest, A429IsRetriedAfterTheWaitItAsksFor) {
  OpenAiRig rig;
  rig.fake->script({testing::rate_limit(7), testing::say("ok")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "ok");
  ASSERT_EQ(rig.fake->requests().size(), 2u);
  EXPECT_EQ(rig.fake->requests()[0].status, 429);
  ASSERT_EQ(rig.time.slept.size(), 1u);
  EXPECT_GE(rig.time.slept[0], 7.0);
}

TEST(OpenAiBackendTest, A500IsRetriedAndTheNextAnswerCounts) {
  OpenAiRig rig;
  rig.fake->script({testing::server_error("boom"), testing::say("ok")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "ok");
  EXPECT_EQ(rig.fake->requests().size(), 2u);
  ASSERT_FALSE(rig.time.lines.empty());
  EXPECT_THAT(rig.time.lines[0], HasSubstr("500"));
}

TEST(OpenAiBackendTest, AnAnswerSlowerThanTheTimeoutFailsAsATimeout) {
  OpenAiRig rig(/*timeout_s=*/0.3);
  std::vector<ScriptStep> slow(5, testing::slow_answer(std::chrono::seconds(5)));
  rig.fake->script(slow);
  const auto started = std::chrono::steady_clock::now();
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("timeout"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
}

TEST(OpenAiBackendTest, TheKeyIsInNoLogLineNorErrorEvenWhenTheServerEchoesIt) {
  OpenAiRig rig;
  const std::string echoed = std::string("invalid key ") + testing::kFakeOpenAiKey;
  rig.fake->script(std::vector<ScriptStep>(6, testing::server_error(echoed)));
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("invalid key"));
  EXPECT_THAT(rig.everything_said(answer), Not(HasSubstr(testing::kFakeOpenAiKey)));
}

TEST(OpenAiBackendTest, AWrongKeyIsRefusedOnceWithTheApisMessageAndNotRetried) {
  auto fake = testing::start_fake_openai("sk-the-right-one");
  testing::FakeTime time;
  CurlTransport transport;
  OpenAiBackend backend(
      {.base_url = fake->base_url(), .model = "m", .api_key = "sk-wrong-key", .timeout_s = 10},
      transport, time.services());
  auto answer = backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("401"));
  EXPECT_THAT(answer.error().message, HasSubstr("Incorrect API key"));
  EXPECT_THAT(answer.error().message, Not(HasSubstr("sk-wrong-key")));
  EXPECT_EQ(fake->requests().size(), 1u);
}

}  // namespace
}  // namespace kblaster
