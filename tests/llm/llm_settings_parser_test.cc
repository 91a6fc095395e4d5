// The [llm] table: every field read, the defaults, and bad fields named at file:line:col.
#include "llm/llm_settings_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::HasSubstr;

Result<std::optional<LlmSettings>> parse(std::string_view text) {
  return parse_llm(toml::parse(text, std::string_view("kblaster.toml")), "kblaster.toml");
}

// The error of parsing `text`, which must fail.
Error failure(std::string_view text) {
  auto got = parse(text);
  EXPECT_FALSE(got.ok()) << text;
  return got.ok() ? Error{} : got.error();
}

TEST(LlmSettingsParserTest, NoLlmTableIsNoLlm) {
  auto got = parse("[project]\narch = \"auto\"\n");
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
}

TEST(LlmSettingsParserTest, ReadsEveryField) {
  auto got = parse(R"([llm]
backend = "openai"
model = "gpt-4o"
base_url = "http://127.0.0.1:8000/v1/"
api_key_env = "VLLM_KEY"
temperature = 0.7
max_tokens = 2048
timeout_s = 90
in_flight = 4
repair_attempts = 2
[llm.prices."gpt-4o"]
input_per_mtok = 2.5
output_per_mtok = 10
)");
  ASSERT_TRUE(got.ok()) << got.error().describe();
  const LlmSettings& s = **got;
  EXPECT_EQ(s.backend, LlmBackendKind::openai);
  EXPECT_EQ(s.model, "gpt-4o");
  EXPECT_EQ(base_url_of(s), "http://127.0.0.1:8000/v1");
  EXPECT_EQ(key_variable(s), "VLLM_KEY");
  EXPECT_DOUBLE_EQ(s.temperature, 0.7);
  EXPECT_EQ(s.max_tokens, 2048);
  EXPECT_DOUBLE_EQ(s.timeout_s, 90);
  EXPECT_EQ(s.in_flight, 4);
  EXPECT_EQ(s.repair_attempts, 2);
  ASSERT_EQ(s.prices.count("gpt-4o"), 1u);
  EXPECT_DOUBLE_EQ(s.prices.at("gpt-4o").input_per_mtok, 2.5);
  EXPECT_DOUBLE_EQ(s.prices.at("gpt-4o").output_per_mtok, 10);
}

TEST(LlmSettingsParserTest, DefaultsPerBackend) {
  auto openai = parse("[llm]\nbackend = \"openai\"\nmodel = \"m\"\n");
  ASSERT_TRUE(openai.ok());
  EXPECT_EQ(base_url_of(**openai), "https://api.openai.com/v1");
  EXPECT_EQ(key_variable(**openai), "OPENAI_API_KEY");
  EXPECT_EQ((*openai)->max_tokens, 4096);
  auto anthropic = parse("[llm]\nbackend = \"anthropic\"\nmodel = \"m\"\n");
  ASSERT_TRUE(anthropic.ok());
  EXPECT_EQ(base_url_of(**anthropic), "https://api.anthropic.com");
  EXPECT_EQ(key_variable(**anthropic), "ANTHROPIC_API_KEY");
  auto command = parse("[llm]\nbackend = \"command\"\ncommand = [\"./llm.py\", \"--fast\"]\n");
  ASSERT_TRUE(command.ok()) << command.error().describe();
  EXPECT_EQ((*command)->command, (std::vector<std::string>{"./llm.py", "--fast"}));
  EXPECT_EQ(key_variable(**command), "") << "a command gets no key unless one is named";
}

TEST(LlmSettingsParserTest, AnUnknownBackendIsNamedWithASuggestionAtItsPlace) {
  const Error e = failure("[llm]\nbackend = \"anthropik\"\nmodel = \"m\"\n");
  EXPECT_EQ(e.kind, ErrorKind::config);
  EXPECT_EQ(e.where, "kblaster.toml:2:11");
  EXPECT_THAT(e.message, HasSubstr("field `backend`"));
  EXPECT_THAT(e.message, HasSubstr("did you mean `anthropic`"));
}

TEST(LlmSettingsParserTest, AnUnknownFieldIsNamed) {
  const Error e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nmax_token = 5\n");
  EXPECT_EQ(e.where, "kblaster.toml:4:1");
  EXPECT_THAT(e.message, HasSubstr("unknown field `max_token`"));
  EXPECT_THAT(e.message, HasSubstr("did you mean `max_tokens`"));
}

TEST(LlmSettingsParserTest, NumbersOutsideTheirBoundsAreNamedAtTheValue) {
  Error e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\ntemperature = 2.5\n");
  EXPECT_EQ(e.where, "kblaster.toml:4:15");
  EXPECT_THAT(e.message, HasSubstr("field `temperature`: 2.5 is outside 0 to 2"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nmax_tokens = 0\n");
  EXPECT_THAT(e.message, HasSubstr("field `max_tokens`"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nin_flight = 1000\n");
  EXPECT_THAT(e.message, HasSubstr("field `in_flight`"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\ntimeout_s = 0\n");
  EXPECT_THAT(e.message, HasSubstr("field `timeout_s`"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nrepair_attempts = 11\n");
  EXPECT_THAT(e.message, HasSubstr("field `repair_attempts`"));
}

TEST(LlmSettingsParserTest, CountsMustBeIntegers) {
  const Error e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nmax_tokens = 10.5\n");
  EXPECT_EQ(e.where, "kblaster.toml:4:14");
  EXPECT_THAT(e.message, HasSubstr("expected an integer, got a float"));
}

TEST(LlmSettingsParserTest, AnthropicTemperatureStopsAtOne) {
  const Error e = failure("[llm]\nbackend = \"anthropic\"\nmodel = \"m\"\ntemperature = 1.5\n");
  EXPECT_THAT(e.message, HasSubstr("Anthropic"));
  EXPECT_EQ(e.where, "kblaster.toml:4:15");
}

TEST(LlmSettingsParserTest, AModelIsRequiredForTheHttpBackends) {
  const Error e = failure("[llm]\nbackend = \"openai\"\n");
  EXPECT_THAT(e.message, HasSubstr("missing required field `model`"));
  EXPECT_EQ(e.where, "kblaster.toml:1:1");
}

TEST(LlmSettingsParserTest, FieldsABackendDoesNotTakeAreRefused) {
  Error e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\ncommand = [\"x\"]\n");
  EXPECT_THAT(e.message, HasSubstr("only the command backend takes a command"));
  EXPECT_EQ(e.where, "kblaster.toml:4:11");
  e = failure("[llm]\nbackend = \"command\"\ncommand = [\"x\"]\nbase_url = \"http://h\"\n");
  EXPECT_THAT(e.message, HasSubstr("takes no base_url"));
  e = failure("[llm]\nbackend = \"command\"\n");
  EXPECT_THAT(e.message, HasSubstr("missing required field `command`"));
}

TEST(LlmSettingsParserTest, BadBaseUrlKeyVariableAndCommandWords) {
  Error e =
      failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nbase_url = \"file:///etc/passwd\"\n");
  EXPECT_THAT(e.message, HasSubstr("not an http:// or https:// URL"));
  EXPECT_EQ(e.where, "kblaster.toml:4:12");
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\napi_key_env = \"1BAD-NAME\"\n");
  EXPECT_THAT(e.message, HasSubstr("field `api_key_env`"));
  e = failure("[llm]\nbackend = \"command\"\ncommand = [\"ok\", 3]\n");
  EXPECT_EQ(e.where, "kblaster.toml:3:18");
  EXPECT_THAT(e.message, HasSubstr("field `command`[1]"));
  e = failure("[llm]\nbackend = \"command\"\ncommand = [\"\"]\n");
  EXPECT_THAT(e.message, HasSubstr("the program is empty"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"" + std::string(300, 'm') + "\"\n");
  EXPECT_THAT(e.message, HasSubstr("field `model`"));
}

TEST(LlmSettingsParserTest, APriceNeedsBothRatesWithinBounds) {
  Error e =
      failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\n[llm.prices.m]\ninput_per_mtok = 1\n");
  EXPECT_THAT(e.message, HasSubstr("missing required field `output_per_mtok`"));
  EXPECT_EQ(e.where, "kblaster.toml:4:1");
  e = failure(
      "[llm]\nbackend = \"openai\"\nmodel = \"m\"\n[llm.prices.m]\ninput_per_mtok = -1\n"
      "output_per_mtok = 1\n");
  EXPECT_EQ(e.where, "kblaster.toml:5:18");
  EXPECT_THAT(e.message, HasSubstr("field `input_per_mtok`"));
  e = failure("[llm]\nbackend = \"openai\"\nmodel = \"m\"\nprices = { m = 3 }\n");
  EXPECT_THAT(e.message, HasSubstr("[llm.prices]"));
}

}  // namespace
}  // namespace kblaster
