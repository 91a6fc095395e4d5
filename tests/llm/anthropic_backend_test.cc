// AnthropicBackend over real HTTP against the loopback Messages API
// (support/fake_anthropic.h): the request it sends, the answer it reads, and its failures.
#include "llm/anthropic_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "llm/llm_rig.h"
#include "llm/truncation.h"
#include "support/fake_anthropic.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct AnthropicRig : testing::LlmRig<AnthropicBackend> {
  AnthropicRig() : LlmRig(testing::start_fake_anthropic(), testing::kFakeAnthropicKey) {}
};

TEST(AnthropicBackendTest, SendsTheHeadersAndFieldsTheApiRequiresWithTheSystemTextTopLevel) {
  AnthropicRig rig;
  rig.fake->script({testing::say("tile the loop")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();

  const auto requests = rig.fake->requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].header("x-api-key"), testing::kFakeAnthropicKey);
  EXPECT_EQ(requests[0].header("anthropic-version"), "2023-06-01");
  EXPECT_EQ(requests[0].header("Authorization"), "") << "the key goes in x-api-key alone";
  const auto body = requests[0].json();
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["max_tokens"], 512);
  EXPECT_EQ(body["system"], "You optimise CUDA kernels.");
  ASSERT_EQ(body["messages"].size(), 1u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST(AnthropicBackendTest, JoinsTheTextBlocksAndReadsStopReasonAndUsage) {
  AnthropicRig rig;
  rig.fake->script({testing::say("tile the loop by 32")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "tile the loop by 32") << "two text blocks joined, thinking left out";
  EXPECT_EQ(answer->stop_reason, "end_turn");
  EXPECT_FALSE(truncated(*answer));
  EXPECT_EQ(answer->model, "test-model");
  EXPECT_EQ(answer->usage.input, testing::kFakeInputTokensPerMessage);
  EXPECT_EQ(answer->usage.output, static_cast<std::int64_t>(answer->text.size()));
}

TEST(AnthropicBackendTest, NoSystemTextSendsNoSystemField) {
  AnthropicRig rig;
  LlmRequest request = testing::sample_request();
  request.system.clear();
  ASSERT_TRUE(rig.backend.complete(request).ok());
  EXPECT_FALSE(rig.fake->requests().at(0).json().contains("system"));
}

TEST(AnthropicBackendTest, AnAnswerStoppedAtMaxTokensIsTruncated) {
  AnthropicRig rig;
  rig.fake->script({testing::truncated_answer("for (int i = 0;")});
  auto answer = rig.backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->stop_reason, "max_tokens");
  EXPECT_TRUE(truncated(*answer));
}

TEST(AnthropicBackendTest, ATemperatureAboveOneIsRefusedByTheApiNotRetried) {
  AnthropicRig rig;
  LlmRequest request = testing::sample_request();
  request.temperature = 1.5;
  auto answer = rig.backend.complete(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("400"));
  EXPECT_THAT(answer.error().message, HasSubstr("temperature"));
  EXPECT_EQ(rig.fake->requests().size(), 1u);
}

}  // namespace
}  // namespace kblaster
