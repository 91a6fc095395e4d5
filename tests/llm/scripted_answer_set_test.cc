// bench/llm_answers, the scripted answer set of issue 19's H200 demonstration, through
// kblaster's own checks that run before a candidate is built: every answer keeps its parent's
// launcher signature (launcher_signature_change), and the static soft-verification rules find
// nothing in any of them, the cheats included, which only the harness's dynamic verification can
// reject (bench/llm_answers/README.md). tests/llm/scripted_answers_test.py tests the script.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llm/signature_check.h"
#include "search/soft_verification.h"
#include "test_paths.h"

namespace kblaster {
namespace {

struct Answer {
  std::string launcher, parent, file;
  bool cheat = false;
};

std::vector<Answer> answer_set() {
  const auto dir = testing::source_dir() / "bench" / "llm_answers";
  const std::string text = testing::read_text(dir / "answers.json");
  EXPECT_FALSE(text.empty()) << "bench/llm_answers/answers.json";
  std::vector<Answer> answers;
  if (text.empty()) return answers;
  const nlohmann::json manifest = nlohmann::json::parse(text);
  for (const auto& e : manifest.at("answers"))
    answers.push_back({e.at("launcher").get<std::string>(), e.at("parent").get<std::string>(),
                       (dir / e.at("file").get<std::string>()).string(), e.value("cheat", false)});
  return answers;
}

TEST(ScriptedAnswerSet, EveryAnswerKeepsItsParentsLauncherSignature) {
  const auto answers = answer_set();
  ASSERT_GE(answers.size(), 4u);
  for (const Answer& a : answers) {
    const std::string parent = testing::read_text(testing::source_dir() / a.parent);
    const std::string answer = testing::read_text(a.file);
    ASSERT_FALSE(parent.empty()) << a.parent;
    ASSERT_FALSE(answer.empty()) << a.file;
    EXPECT_EQ(launcher_signature_change(parent, answer, a.launcher), std::nullopt) << a.file;
  }
}

TEST(ScriptedAnswerSet, TheStaticRulesFindNothingSoTheCheatsAreLeftToTheHarness) {
  int cheats = 0;
  for (const Answer& a : answer_set()) {
    const std::string parent = testing::read_text(testing::source_dir() / a.parent);
    const std::string answer = testing::read_text(a.file);
    EXPECT_EQ(soft_verification_findings(parent, answer), std::vector<std::string>{}) << a.file;
    cheats += a.cheat;
  }
  EXPECT_GE(cheats, 1);
}

}  // namespace
}  // namespace kblaster
