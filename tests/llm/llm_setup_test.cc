// Which model a run asks when the repository's config, a trusted --llm-config and the flags
// each say something: the later overrides the earlier, field by field.
#include "llm/llm_setup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

LlmSettings openai(std::string model) {
  LlmSettings s;
  s.backend = LlmBackendKind::openai;
  s.model = std::move(model);
  return s;
}

TEST(ResolveLlmSettings, NothingConfiguredIsTheEmbeddedPolicyAlone) {
  auto s = resolve_llm_settings(std::nullopt, std::nullopt, {});
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->has_value());
}

TEST(ResolveLlmSettings, ATrustedFileOverridesTheRepositoryAndFlagsOverrideBoth) {
  LlmSettings repo = openai("repo-model");
  repo.temperature = 0.9;
  LlmSettings trusted = openai("trusted-model");
  trusted.base_url = "http://127.0.0.1:8000/v1";
  trusted.prices["flag-model"] = {.input_per_mtok = 1, .output_per_mtok = 2};
  LlmFlags flags;
  flags.model = "flag-model";
  flags.caps.max_cost_usd = 5;
  auto s = resolve_llm_settings(repo, trusted, flags);
  ASSERT_TRUE(s.ok()) << s.error().describe();
  ASSERT_TRUE(s->has_value());
  EXPECT_EQ((*s)->model, "flag-model");
  EXPECT_EQ((*s)->base_url, "http://127.0.0.1:8000/v1") << "the trusted file's";
  EXPECT_EQ((*s)->temperature, 0.2) << "the repository's table is replaced, not merged";
}

TEST(ResolveLlmSettings, AnotherBackendByFlagStartsFreshButKeepsThePrices) {
  LlmSettings trusted = openai("gpt");
  trusted.base_url = "http://127.0.0.1:1/v1";
  trusted.prices["claude"] = {.input_per_mtok = 3, .output_per_mtok = 15};
  LlmFlags flags;
  flags.backend = "anthropic";
  flags.model = "claude";
  auto s = resolve_llm_settings(std::nullopt, trusted, flags);
  ASSERT_TRUE(s.ok()) << s.error().describe();
  EXPECT_EQ((*s)->backend, LlmBackendKind::anthropic);
  EXPECT_EQ((*s)->base_url, "") << "an OpenAI URL does not carry over to Anthropic";
  EXPECT_TRUE((*s)->prices.contains("claude"));
}

TEST(ReadLlmTable, TheRepositorysTableMayNotNameWhereTheKeyGoes) {
  testing::TempDir dir;
  const auto file = dir.write("kblaster.toml",
                              "[llm]\nbackend = \"openai\"\nmodel = \"m\"\n"
                              "base_url = \"https://elsewhere.example/v1\"\n");
  auto untrusted = read_llm_table(file, true);
  ASSERT_FALSE(untrusted.ok());
  EXPECT_EQ(untrusted.error().kind, ErrorKind::config);
  EXPECT_THAT(untrusted.error().describe(), HasSubstr("kblaster.toml: [llm] base_url"));
  auto trusted = read_llm_table(file, false);
  ASSERT_TRUE(trusted.ok()) << trusted.error().describe();
  EXPECT_EQ((**trusted).base_url, "https://elsewhere.example/v1");
}

TEST(ReadLlmTable, TheRepositorysTableMayNotSetThePricesACostCapIsCheckedAgainst) {
  testing::TempDir dir;
  const auto file = dir.write("kblaster.toml",
                              "[llm]\nbackend = \"openai\"\nmodel = \"m\"\n"
                              "[llm.prices.\"m\"]\ninput_per_mtok = 0\noutput_per_mtok = 0\n");
  auto untrusted = read_llm_table(file, true);
  ASSERT_FALSE(untrusted.ok());
  EXPECT_EQ(untrusted.error().kind, ErrorKind::config);
  EXPECT_THAT(untrusted.error().describe(), HasSubstr("kblaster.toml: [llm.prices]"));
  auto trusted = read_llm_table(file, false);
  ASSERT_TRUE(trusted.ok()) << trusted.error().describe();
  EXPECT_TRUE((**trusted).prices.contains("m"));
}

}  // namespace
}  // namespace kblaster
