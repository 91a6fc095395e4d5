// `kblaster optimize --llm openai|anthropic` end to end on a real GPU, the model a loopback
// API (tests/support/fake_openai.h, fake_anthropic.h) that answers by what each prompt asks:
// apply with the scripted set's warp-per-row softmax (bench/llm_answers/softmax_warp.cu,
// written by hand, not by a model), review with yes, gap with a lesson. Labelled `gpu`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "on_device.h"
#include "scoped_env.h"
#include "support/fake_anthropic.h"
#include "support/fake_openai.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// The user text of a request of either API (OpenAI's messages or Anthropic's).
std::string user_text(const nlohmann::json& body) {
  for (const auto& m : body.value("messages", nlohmann::json::array()))
    if (m.value("role", "") == "user") {
      const auto& c = m["content"];
      if (c.is_string()) return c.get<std::string>();
      std::string all;
      for (const auto& block : c) all += block.value("text", "");
      return all;
    }
  return "";
}

testing::ScriptStep answer(const nlohmann::json& body) {
  const std::string text = user_text(body);
  if (text.find("Apply the technique") != std::string::npos)
    return testing::say(
        "```cuda\n" +
        testing::read_text(testing::source_dir() / "bench/llm_answers/softmax_warp.cu") +
        "```\nOne warp per row.");
  if (text.find("The candidate was written") != std::string::npos)
    return testing::say("VERDICT: yes\nEvery row is still computed.");
  return testing::say("Lesson: a warp per row fixed the undersized grid.");
}

class LlmOptimizeOnDevice : public testing::OnDevice {
 protected:
  testing::CliResult optimize(const std::string& backend, const std::string& base_url,
                              const std::string& name) const {
    return testing::run_kblaster({"optimize",
                                  "examples/kernels",
                                  "--kernel",
                                  "softmax_slow",
                                  "--search-seed",
                                  "7",
                                  "--breadth",
                                  "1",
                                  "--depth",
                                  "1",
                                  "--techniques",
                                  "warp_shuffle_reduction",
                                  "--llm",
                                  backend,
                                  "--llm-model",
                                  "test-model",
                                  "--llm-base-url",
                                  base_url,
                                  "--json",
                                  "--kb",
                                  (work.path() / (name + ".sqlite")).string(),
                                  "--out",
                                  (work.path() / name).string()});
  }
  void expect_a_verified_model_step(const testing::CliResult& r, testing::FakeLlmApi& api) const {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto result = nlohmann::json::parse(r.out);
    const auto& k = result["kernels"][0];
    EXPECT_EQ(k["speedup"]["verdict"], "FASTER") << r.err;
    ASSERT_FALSE(k["steps"].empty());
    EXPECT_EQ(k["steps"][0]["policy"], "llm");
    EXPECT_THAT(k["steps"][0]["lesson"].get<std::string>(), HasSubstr("a warp per row"));
    EXPECT_EQ(result["llm"]["calls"], 3) << "apply, review, gap";
    ASSERT_EQ(api.requests().size(), 3u);
    for (const auto& req : api.requests()) EXPECT_EQ(req.json()["model"], "test-model");
  }
  testing::TempDir work;
};

TEST_F(LlmOptimizeOnDevice, OpenAiCompatibleEndToEnd) {
  auto api = testing::start_fake_openai();
  api->respond_with(answer);
  testing::ScopedEnv key(std::vector<std::pair<std::string, std::string>>{
      {"OPENAI_API_KEY", testing::kFakeOpenAiKey}});
  const auto r = optimize("openai", api->base_url(), "openai");
  keep("llm_optimize_openai", r);
  expect_a_verified_model_step(r, *api);
  EXPECT_THAT(r.err + r.out, ::testing::Not(HasSubstr(testing::kFakeOpenAiKey)));
}

TEST_F(LlmOptimizeOnDevice, AnthropicEndToEnd) {
  auto api = testing::start_fake_anthropic();
  api->respond_with(answer);
  testing::ScopedEnv key(std::vector<std::pair<std::string, std::string>>{
      {"ANTHROPIC_API_KEY", testing::kFakeAnthropicKey}});
  const auto r = optimize("anthropic", api->base_url(), "anthropic");
  keep("llm_optimize_anthropic", r);
  expect_a_verified_model_step(r, *api);
  EXPECT_THAT(r.err + r.out, ::testing::Not(HasSubstr(testing::kFakeAnthropicKey)));
}

}  // namespace
}  // namespace kblaster
