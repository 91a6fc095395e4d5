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
