// make_llm_backend: the backend [llm] names, its key from the environment, and the errors
// when the key is missing.
#include "llm/llm_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "net/curl_transport.h"
#include "net/fake_time.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

LlmSettings settings(LlmBackendKind backend, std::string model = "", std::string api_key_env = "",
                     std::vector<std::string> command = {}) {
  LlmSettings s;
  s.backend = backend;
  s.model = std::move(model);
  s.api_key_env = std::move(api_key_env);
  s.command = std::move(command);
  return s;
}

EnvironmentLookup environment(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

struct LlmFactoryTest : ::testing::Test {
  Result<std::unique_ptr<LlmBackend>> make(const LlmSettings& s,
                                           std::map<std::string, std::string> vars) {
    return make_llm_backend(s, environment(std::move(vars)), transport, time.services());
  }
  testing::FakeTime time;
  CurlTransport transport;
};

TEST_F(LlmFactoryTest, BuildsTheBackendTheSettingsName) {
  LlmSettings s = settings(LlmBackendKind::openai, "m");
  auto openai = make(s, {{"OPENAI_API_KEY", "sk-1"}});
  ASSERT_TRUE(openai.ok()) << openai.error().describe();
  EXPECT_EQ((*openai)->name(), "openai");
  s.backend = LlmBackendKind::anthropic;
  auto anthropic = make(s, {{"ANTHROPIC_API_KEY", "sk-2"}});
  ASSERT_TRUE(anthropic.ok()) << anthropic.error().describe();
  EXPECT_EQ((*anthropic)->name(), "anthropic");
  s = settings(LlmBackendKind::command, "", "", {"/bin/cat"});
  auto command = make(s, {});
  ASSERT_TRUE(command.ok()) << command.error().describe();
  EXPECT_EQ((*command)->name(), "command");
}

TEST_F(LlmFactoryTest, AMissingKeyIsAnEnvironmentErrorNamingTheVariable) {
  auto got = make(settings(LlmBackendKind::anthropic, "m"), {{"OPENAI_API_KEY", "x"}});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::environment);
  EXPECT_THAT(got.error().message, HasSubstr("$ANTHROPIC_API_KEY"));
}

TEST_F(LlmFactoryTest, ANamedKeyVariableIsTheOneRead) {
  const LlmSettings s = settings(LlmBackendKind::openai, "m", "VLLM_KEY");
  auto got = make(s, {{"OPENAI_API_KEY", "sk-not-this-one"}});
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(got.error().message, HasSubstr("$VLLM_KEY"));
  EXPECT_TRUE(make(s, {{"VLLM_KEY", "k"}}).ok());
}

TEST_F(LlmFactoryTest, AnEmptyKeyIsRefusedWithoutShowingAnyValue) {
  const LlmSettings s = settings(LlmBackendKind::command, "", "CMD_KEY", {"x"});
  auto got = make(s, {{"CMD_KEY", ""}});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::environment);
  EXPECT_THAT(got.error().message, HasSubstr("$CMD_KEY, which is empty"));
}

TEST_F(LlmFactoryTest, NoModelOrNoCommandIsAUsageError) {
  auto got = make(settings(LlmBackendKind::openai), {{"OPENAI_API_KEY", "k"}});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::usage);
  got = make(settings(LlmBackendKind::command), {});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::usage);
  EXPECT_THAT(got.error().message, Not(HasSubstr("key")));
}

}  // namespace
}  // namespace kblaster
