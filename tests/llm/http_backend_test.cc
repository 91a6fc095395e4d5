// What both HTTP backends must do alike, against each one's loopback API: malformed, empty
// and slow answers are errors naming the backend and call; 429 and 500 are retried; the key
// is in no log line and no error, even when the server echoes it.
#include "llm/http_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "llm/anthropic_backend.h"
#include "llm/llm_rig.h"
#include "llm/openai_backend.h"
#include "support/fake_anthropic.h"
#include "support/fake_openai.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ScriptStep;

struct OpenAiApi {
  using Backend = OpenAiBackend;
  static constexpr const char* kName = "`openai`";
  static constexpr const char* kPath = "/v1/chat/completions";
  static constexpr const char* kKey = testing::kFakeOpenAiKey;
  static std::unique_ptr<testing::FakeLlmApi> start() { return testing::start_fake_openai(); }
};

struct AnthropicApi {
  using Backend = AnthropicBackend;
  static constexpr const char* kName = "`anthropic`";
  static constexpr const char* kPath = "/v1/messages";
  static constexpr const char* kKey = testing::kFakeAnthropicKey;
  static std::unique_ptr<testing::FakeLlmApi> start() { return testing::start_fake_anthropic(); }
};

template <class Api>
struct LlmHttpBackendTest : ::testing::Test {
  using Rig = testing::LlmRig<typename Api::Backend>;
  static std::unique_ptr<Rig> rig(double timeout_s = 10) {
    return std::make_unique<Rig>(Api::start(), Api::kKey, timeout_s);
  }
};

using Apis = ::testing::Types<OpenAiApi, AnthropicApi>;
TYPED_TEST_SUITE(LlmHttpBackendTest, Apis);

TYPED_TEST(LlmHttpBackendTest, AnEmptyAnswerIsARemoteErrorNamingTheBackendAndCall) {
  auto rig = this->rig();
  rig->fake->script({testing::empty_answer()});
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr(TypeParam::kName));
  EXPECT_THAT(answer.error().message, HasSubstr(TypeParam::kPath));
  EXPECT_THAT(answer.error().message, HasSubstr("no text"));
}

TYPED_TEST(LlmHttpBackendTest, MalformedJsonIsARemoteErrorNotACrash) {
  auto rig = this->rig();
  rig->fake->script({testing::malformed_answer()});
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("not JSON"));
}

TYPED_TEST(LlmHttpBackendTest, A429IsRetriedAfterTheWaitItAsksFor) {
  auto rig = this->rig();
  rig->fake->script({testing::rate_limit(7), testing::say("ok")});
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "ok");
  ASSERT_EQ(rig->fake->requests().size(), 2u);
  EXPECT_EQ(rig->fake->requests()[0].status, 429);
  ASSERT_EQ(rig->time.slept.size(), 1u);
  EXPECT_GE(rig->time.slept[0], 7.0);
}

TYPED_TEST(LlmHttpBackendTest, A500IsRetriedAndTheNextAnswerCounts) {
  auto rig = this->rig();
  rig->fake->script({testing::server_error("boom"), testing::say("ok")});
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->text, "ok");
  EXPECT_EQ(rig->fake->requests().size(), 2u);
  ASSERT_FALSE(rig->time.lines.empty());
  EXPECT_THAT(rig->time.lines[0], HasSubstr("500"));
}

TYPED_TEST(LlmHttpBackendTest, AnAnswerSlowerThanTheTimeoutFailsAsATimeout) {
  auto rig = this->rig(/*timeout_s=*/0.3);
  rig->fake->script(std::vector<ScriptStep>(5, testing::slow_answer(std::chrono::seconds(5))));
  const auto started = std::chrono::steady_clock::now();
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("timeout"));
  EXPECT_GE(rig->fake->requests().size(), 2u) << "a timeout is retried";
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
}

TYPED_TEST(LlmHttpBackendTest, ARequestsTimeLimitEndsTheCallWithItsRetries) {
  auto rig = this->rig(/*timeout_s=*/60);
  rig->fake->script(std::vector<ScriptStep>(5, testing::slow_answer(std::chrono::seconds(5))));
  LlmRequest request = testing::sample_request();
  request.time_limit_s = 0.5;  // the search's time left
  const auto started = std::chrono::steady_clock::now();
  auto answer = rig->backend.complete(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("deadline")) << "no retry past the time left";
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3))
      << "the 60-s timeout was cut to the half second left";
}

TYPED_TEST(LlmHttpBackendTest, TheKeyIsInNoLogLineNorErrorEvenWhenTheServerEchoesIt) {
  auto rig = this->rig();
  const std::string echoed = std::string("invalid key ") + TypeParam::kKey;
  rig->fake->script(std::vector<ScriptStep>(6, testing::server_error(echoed)));
  auto answer = rig->backend.complete(testing::sample_request());
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("invalid key"));
  EXPECT_EQ(rig->time.lines.size(), 5u) << "one line per attempt";
  EXPECT_THAT(rig->everything_said(answer), Not(HasSubstr(TypeParam::kKey)));
}

}  // namespace
}  // namespace kblaster
