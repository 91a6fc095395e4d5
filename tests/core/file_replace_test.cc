#include "core/file_replace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

std::size_t entries(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(ReplaceFile, ReplacesTheWholeFileAndLeavesNoTemporary) {
  testing::TempDir dir;
  const auto file = dir.path() / "result.json";
  ASSERT_TRUE(replace_file(file, "old\n").ok());
  ASSERT_TRUE(replace_file(file, "new\n").ok());
  EXPECT_EQ(testing::read_text(file), "new\n");
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(ReplaceFile, AFailureNamesThePathAndLeavesNothing) {
  testing::TempDir dir;
  const auto file = dir.path() / "missing" / "result.json";
  const auto r = replace_file(file, "text");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, ::testing::HasSubstr((dir.path() / "missing").string()));
  EXPECT_EQ(entries(dir.path()), 0u);

  // A directory where the file should be: the rename fails, the temporary goes.
  std::filesystem::create_directories(dir.path() / "taken" / "inner");
  const auto over_dir = replace_file(dir.path() / "taken", "text");
  ASSERT_FALSE(over_dir.ok());
  EXPECT_THAT(over_dir.error().message,
              ::testing::HasSubstr("cannot replace " + (dir.path() / "taken").string()));
  EXPECT_EQ(entries(dir.path()), 1u) << "only `taken` itself";
}

}  // namespace
}  // namespace kblaster
