// The command protocol's pure half: the request JSON and reading a program's stdout.
#include "llm/command_protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace kblaster {
namespace {

using ::testing::HasSubstr;

TEST(CommandProtocolTest, TheRequestIsOneLineOfJsonWithEveryField) {
  const LlmRequest request{
      .purpose = "repair",
      .system = "sys",
      .messages = {{.role = "user", .content = "a\nb"}, {.role = "assistant", .content = "c"}},
      .temperature = 0.5,
      .max_tokens = 99};
  const std::string line = command_request_json(request, "m1");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "newlines inside are escaped";
  const auto json = nlohmann::json::parse(line);
  EXPECT_EQ(json["purpose"], "repair");
  EXPECT_EQ(json["system"], "sys");
  EXPECT_EQ(json["messages"][0]["content"], "a\nb");
  EXPECT_EQ(json["messages"][1]["role"], "assistant");
  EXPECT_EQ(json["max_tokens"], 99);
  EXPECT_EQ(json["model"], "m1");
}

TEST(CommandProtocolTest, InvalidUtf8InTheRequestIsReplacedNotThrown) {
  LlmRequest request;
  request.messages = {{.role = "user", .content = std::string("bad \xff byte")}};
  EXPECT_NO_THROW(static_cast<void>(command_request_json(request, "")));
}

TEST(CommandProtocolTest, TextThatOnlyLooksLikeJsonIsPlainText) {
  auto answer = read_command_answer("{ not json, a code block }\n", "tool");
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->text, "{ not json, a code block }\n");
}

TEST(CommandProtocolTest, AJsonObjectWithoutTextIsAnError) {
  auto answer = read_command_answer(R"({"answer": "x"})", "tool");
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, ErrorKind::remote);
  EXPECT_THAT(answer.error().message, HasSubstr("`tool`"));
  EXPECT_THAT(answer.error().message, HasSubstr("`text`"));
}

TEST(CommandProtocolTest, ABadUsageIsAnError) {
  auto answer = read_command_answer(R"({"text": "x", "usage": {"input": -4}})", "tool");
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.error().message, HasSubstr("`input`"));
  EXPECT_FALSE(read_command_answer(R"({"text": "x", "usage": 7})", "tool").ok());
  EXPECT_FALSE(read_command_answer(R"({"text": "x", "model": 7})", "tool").ok());
}

TEST(CommandProtocolTest, AnEmptyJsonTextIsAnError) {
  EXPECT_FALSE(read_command_answer(R"({"text": " \n"})", "tool").ok());
  EXPECT_FALSE(read_command_answer("\n\t ", "tool").ok());
}

TEST(CommandProtocolTest, DeeplyNestedJsonIsReadAsTextWithoutRecursing) {
  const std::string deep = "{\"text\":" + std::string(100000, '[') + "}";
  auto answer = read_command_answer(deep, "tool");
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->text.size(), deep.size());
}

}  // namespace
}  // namespace kblaster
