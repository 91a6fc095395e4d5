#include "core/file_replace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

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

  // A directory where the file should be: refused, nothing written beside it.
  std::filesystem::create_directories(dir.path() / "taken" / "inner");
  const auto over_dir = replace_file(dir.path() / "taken", "text");
  ASSERT_FALSE(over_dir.ok());
  EXPECT_THAT(over_dir.error().message,
              ::testing::HasSubstr("cannot replace " + (dir.path() / "taken").string() +
                                   ": it is a directory"));
  EXPECT_EQ(entries(dir.path()), 1u) << "only `taken` itself";
}

// `kb export --out /dev/full` once renamed its temporary over the device node (as root)
// or failed only at the rename; either way the backup went nowhere useful.
TEST(ReplaceFile, ADeviceOrFifoIsRefusedAndLeftAsItWas) {
  const auto full = replace_file("/dev/full", "backup");
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().kind, ErrorKind::usage);
  EXPECT_THAT(full.error().message,
              ::testing::HasSubstr("cannot replace /dev/full: it is a character device"));
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));

  testing::TempDir dir;
  const auto fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto to_fifo = replace_file(fifo, "backup");
  ASSERT_FALSE(to_fifo.ok());
  EXPECT_THAT(to_fifo.error().message, ::testing::HasSubstr("it is a FIFO"));
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(ReplaceFile, ALinkIsReplacedNotWrittenThrough) {
  testing::TempDir dir;
  const auto target = dir.path() / "target.txt", link = dir.path() / "link.txt";
  ASSERT_TRUE(replace_file(target, "kept\n").ok());
  std::filesystem::create_symlink(target, link);
  ASSERT_TRUE(replace_file(link, "new\n").ok());
  EXPECT_FALSE(std::filesystem::is_symlink(link));
  EXPECT_EQ(testing::read_text(link), "new\n");
  EXPECT_EQ(testing::read_text(target), "kept\n");
}

}  // namespace
}  // namespace kblaster
