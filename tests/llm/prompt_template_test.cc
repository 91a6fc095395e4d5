#include "llm/prompt_template.h"

#include <gtest/gtest.h>

#include <string>

namespace kblaster {
namespace {

constexpr PromptSlot kEverySlot[] = {PromptSlot::parent_source,
                                     PromptSlot::launcher_signature,
                                     PromptSlot::spec,
                                     PromptSlot::profile_summary,
                                     PromptSlot::state,
                                     PromptSlot::technique,
                                     PromptSlot::technique_description,
                                     PromptSlot::lessons,
                                     PromptSlot::prior_failures,
                                     PromptSlot::compile_errors,
                                     PromptSlot::candidate_source,
                                     PromptSlot::predicted_gain,
                                     PromptSlot::observed_gain,
                                     PromptSlot::profile_delta};

TEST(PromptTemplate, RendersEverySlotIntoTheSystemAndUserParts) {
  std::string user;
  PromptValues values;
  for (const auto slot : kEverySlot) {
    const std::string name(prompt_slot_name(slot));
    user += name + "=[{{" + name + "}}]\n";
    values[slot] = "value of " + name;
  }
  const auto t = PromptTemplate::parse(
      "notes for editors, never sent {{not_a_slot\n--- system ---\n\nYou tune {{technique}}.\n\n"
      "--- user ---\n" +
          user,
      "kb/prompts/all.md", "apply");
  ASSERT_TRUE(t.ok()) << t.error().describe();
  EXPECT_EQ(t->slots().size(), std::size(kEverySlot));
  const auto r = t->render(values);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->purpose, "apply");
  EXPECT_EQ(r->system, "You tune value of technique.");
  ASSERT_EQ(r->messages.size(), 1u);
  EXPECT_EQ(r->messages[0].role, "user");
  for (const auto slot : kEverySlot) {
    const std::string name(prompt_slot_name(slot));
    EXPECT_NE(r->messages[0].content.find(name + "=[value of " + name + "]"), std::string::npos)
        << name;
  }
  EXPECT_EQ(r->messages[0].content.find("{{"), std::string::npos);
  EXPECT_EQ(r->system.find("notes"), std::string::npos);
}

// `result` failed with a config error at `where` whose message holds `says`.
template <class T>
void expect_config_error(const Result<T>& result, const std::string& where,
                         const std::string& says) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::config);
  EXPECT_EQ(result.error().where, where);
  EXPECT_NE(result.error().message.find(says), std::string::npos) << result.error().message;
}

TEST(PromptTemplate, UnknownSlotIsAConfigErrorNamingFileLineAndSlot) {
  expect_config_error(
      PromptTemplate::parse("--- system ---\nsys\n--- user ---\nline\n{{kernel_sauce}}\n",
                            "kb/prompts/apply.md", "apply"),
      "kb/prompts/apply.md:5", "unknown slot {{kernel_sauce}}");
}

TEST(PromptTemplate, MalformedSlotAndMissingMarkersAreRefused) {
  expect_config_error(
      PromptTemplate::parse("--- system ---\n{{ spec }}\n--- user ---\nu\n", "t.md", "gap"),
      "t.md:2", "must open a slot");
  expect_config_error(PromptTemplate::parse("--- system ---\nsys\n", "t.md", "gap"), "t.md",
                      "--- user ---");
  expect_config_error(
      PromptTemplate::parse("--- system ---\na\n--- user ---\nb\n--- user ---\nc\n", "t.md", "gap"),
      "t.md:5", "appears twice");
}

TEST(PromptTemplate, MissingValueIsAConfigErrorNamingFileAndSlot) {
  const auto t = PromptTemplate::parse("--- system ---\nsys\n--- user ---\n{{state}} {{lessons}}\n",
                                       "kb/prompts/gap.md", "gap");
  ASSERT_TRUE(t.ok());
  expect_config_error(t->render({{PromptSlot::state, "memory.dram_saturated"}}),
                      "kb/prompts/gap.md", "slot {{lessons}} has no value");
}

TEST(PromptTemplate, ValuesAreInsertedOnceNotExpandedAgain) {
  const auto t =
      PromptTemplate::parse("--- system ---\ns\n--- user ---\n<{{state}}>\n", "t.md", "gap");
  ASSERT_TRUE(t.ok());
  const auto r = t->render({{PromptSlot::state, "{{lessons}}"}});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->messages[0].content, "<{{lessons}}>");
}

TEST(PromptTemplate, CrlfTemplatesReadLikeLf) {
  const auto t = PromptTemplate::parse("--- system ---\r\nsys\r\n--- user ---\r\n{{state}}\r\n",
                                       "t.md", "gap");
  ASSERT_TRUE(t.ok()) << t.error().describe();
  const auto r = t->render({{PromptSlot::state, "s"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->system, "sys");
  EXPECT_EQ(r->messages[0].content, "s");
}

TEST(PromptTemplate, ALongValueIsCutToItsCapWithAVisibleNote) {
  const auto t =
      PromptTemplate::parse("--- system ---\ns\n--- user ---\n{{state}}|end\n", "t.md", "gap");
  ASSERT_TRUE(t.ok());
  const std::size_t cap = prompt_slot_cap(PromptSlot::state);
  const auto r = t->render({{PromptSlot::state, std::string(cap + 100, 'x')}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->messages[0].content, std::string(cap, 'x') + "\n[… cut 100 bytes]|end");
}

TEST(CapSlotText, KeepsShortTextAndNeverSplitsACharacter) {
  EXPECT_EQ(cap_slot_text("short", 5), "short");
  // "é" is two bytes; a cap of 2 falls inside the second one.
  EXPECT_EQ(cap_slot_text("aéb", 2), "a\n[… cut 3 bytes]");
}

}  // namespace
}  // namespace kblaster
