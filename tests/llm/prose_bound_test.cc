#include "llm/prose_bound.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(BoundProse, ShortTextIsOneParagraphWhole) {
  EXPECT_EQ(bound_prose("  Vector loads\n helped.\n\n", 100), "Vector loads helped.");
}

TEST(BoundProse, CutsAfterTheLastWholeSentence) {
  EXPECT_EQ(bound_prose("First point holds. Second one too. Third is cut here.", 40),
            "First point holds. Second one too.");
}

TEST(BoundProse, WithoutASentenceEndCutsAtAWordWithAnEllipsis) {
  const auto cut = bound_prose("one two three four five six seven", 20);
  EXPECT_EQ(cut, "one two three…");  // "four…" would make 21 bytes
  EXPECT_LE(cut.size(), 20u);
}

TEST(BoundProse, OneLongWordIsCutBetweenCharacters) {
  const std::string word = "é" + std::string(30, 'x');  // no space to cut at
  const auto cut = bound_prose("ééééééé", 9);           // 14 bytes, 2 per character
  EXPECT_EQ(cut, "ééé…");
  EXPECT_LE(bound_prose(word, 10).size(), 10u);
}

TEST(LessonText, LeavesOutTheLabelAndCodeAndBoundsTheLesson) {
  EXPECT_EQ(lesson_text("**Lesson:** Coalescing did not help:\n```\ncode\n```\nDRAM was not the "
                        "limit."),
            "Coalescing did not help: DRAM was not the limit.");
  std::string long_answer;
  for (int i = 0; i < 100; ++i) long_answer += "The observed gain fell short of the prior. ";
  const auto lesson = lesson_text(long_answer);
  EXPECT_LE(lesson.size(), kMaxLessonBytes);
  EXPECT_GT(lesson.size(), kMaxLessonBytes / 2);
  EXPECT_TRUE(lesson.ends_with("prior.")) << lesson;
}

}  // namespace
}  // namespace kblaster
