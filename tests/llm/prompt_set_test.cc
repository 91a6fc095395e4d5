#include "llm/prompt_set.h"

#include <gtest/gtest.h>

#include "example_kernels.h"
#include "gpu/shim.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::source_dir;

PromptValues every_value(const std::string& source, const std::string& signature) {
  PromptValues v;
  for (int i = 0; i <= static_cast<int>(PromptSlot::profile_delta); ++i) {
    const auto slot = static_cast<PromptSlot>(i);
    v[slot] = std::string(prompt_slot_name(slot)).append(" value");
  }
  v[PromptSlot::parent_source] = source;
  v[PromptSlot::candidate_source] = source;
  v[PromptSlot::launcher_signature] = signature;
  return v;
}

TEST(PromptSet, TheShippedTemplatesLoadAndRenderWithTheExampleKernel) {
  const auto set = load_prompt_set(source_dir() / "kb/prompts");
  ASSERT_TRUE(set.ok()) << set.error().describe();
  const auto* spec = testing::example_kernel("axpy");
  ASSERT_NE(spec, nullptr);
  const std::string source = testing::read_text(testing::examples_dir() / spec->source);
  ASSERT_FALSE(source.empty());
  const std::string signature = launcher_signature(*spec);
  const auto values = every_value(source, signature);
  for (const auto kind :
       {PromptKind::apply, PromptKind::repair, PromptKind::review, PromptKind::gap}) {
    const auto request = set->of(kind).render(values);
    ASSERT_TRUE(request.ok()) << request.error().describe();
    EXPECT_EQ(request->purpose, prompt_kind_name(kind));
    ASSERT_EQ(request->messages.size(), 1u);
    const auto& user = request->messages[0].content;
    EXPECT_EQ(user.find("{{"), std::string::npos) << prompt_kind_name(kind);
    EXPECT_EQ(request->system.find("--- system ---"), std::string::npos);
    if (kind != PromptKind::gap) {
      EXPECT_NE(user.find(signature), std::string::npos) << prompt_kind_name(kind);
      EXPECT_NE(user.find("axpy_kernel<<<"), std::string::npos) << prompt_kind_name(kind);
    }
  }
  const auto apply = set->of(PromptKind::apply).render(values);
  EXPECT_NE(apply->system.find("```cuda"), std::string::npos);  // asks for one cuda block
  EXPECT_NE(set->of(PromptKind::review).render(values)->system.find("VERDICT: yes"),
            std::string::npos);
}

TEST(PromptSet, ATemplateWithoutARequiredSlotIsRefused) {
  testing::TempDir dir;
  for (const auto* name : {"apply", "repair", "review", "gap"})
    std::filesystem::copy_file(source_dir() / "kb/prompts" / (std::string(name) + ".md"),
                               dir.path() / (std::string(name) + ".md"));
  dir.write("apply.md", "--- system ---\ns\n--- user ---\n{{technique}} {{launcher_signature}}\n");
  const auto set = load_prompt_set(dir.path());
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().kind, ErrorKind::config);
  EXPECT_EQ(set.error().where, (dir.path() / "apply.md").string());
  EXPECT_NE(set.error().message.find("{{parent_source}}"), std::string::npos);
}

TEST(PromptSet, AMissingDirectoryNamesTheFile) {
  const auto set = load_prompt_set("/no/such/prompts");
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.error().message.find("/no/such/prompts/apply.md"), std::string::npos);
}

TEST(PromptsDir, GivenThenEnvironmentThenInstalled) {
  const EnvironmentLookup none = [](const std::string&) { return std::nullopt; };
  const EnvironmentLookup set = [](const std::string& name) -> std::optional<std::string> {
    if (name == "KBLASTER_PROMPTS") return "/from/env";
    return std::nullopt;
  };
  EXPECT_EQ(prompts_dir("/given", set), "/given");
  EXPECT_EQ(prompts_dir("", set), "/from/env");
  EXPECT_EQ(prompts_dir("", none), source_dir() / "kb/prompts");
}

}  // namespace
}  // namespace kblaster
