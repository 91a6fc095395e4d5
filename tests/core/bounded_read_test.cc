#include "core/bounded_read.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

TEST(BoundedRead, ReadsARegularFileUpToTheLimit) {
  TempDir dir;
  const auto file = dir.write("a.txt", "12345");
  auto text = read_bounded(file, 5, "--flag");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "12345");
}

TEST(BoundedRead, AFileOverTheLimitIsAUsageErrorNamingIt) {
  TempDir dir;
  const auto file = dir.write("a.txt", "123456");
  auto text = read_bounded(file, 5, "--flag");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().kind, ErrorKind::usage);
  EXPECT_EQ(text.error().message,
            "--flag " + file.string() + ": the file has 6 bytes, over the limit of 5 bytes");
}

// A sparse file: its size is over the limit, and nothing is read to find that out.
TEST(BoundedRead, AHugeSparseFileIsRefusedByItsSizeInMiB) {
  TempDir dir;
  const auto file = dir.write("big.csv", "");
  std::filesystem::resize_file(file, 64 * 1024 * 1024 + 1);
  auto text = read_bounded(file, 64 * 1024 * 1024, "--ncu-csv");
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(text.error().message,
              HasSubstr("has 67108865 bytes, over the limit of 67108864 bytes (64 MiB)"));
}

// Reading /dev/zero read without end, then failed with bad_alloc (exit 4); a FIFO
// with no writer blocked forever.
TEST(BoundedRead, DevicesFifosAndDirectoriesAreRefusedWithoutReading) {
  TempDir dir;
  const auto fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  struct Case {
    std::filesystem::path path;
    const char* type;
  };
  for (const Case& c : {Case{"/dev/zero", "a character device"}, Case{fifo, "a FIFO"},
                        Case{dir.path(), "a directory"}}) {
    auto text = read_bounded(c.path, 1024, "$GITHUB_EVENT_PATH");
    ASSERT_FALSE(text.ok()) << c.path;
    EXPECT_EQ(text.error().kind, ErrorKind::usage);
    EXPECT_EQ(text.error().message, "$GITHUB_EVENT_PATH " + c.path.string() + ": " + c.type +
                                        ", not a regular file; kblaster reads only regular files");
  }
}

TEST(BoundedRead, ASymlinkToADeviceIsRefusedAsTheDevice) {
  TempDir dir;
  const auto link = dir.path() / "event.json";
  std::filesystem::create_symlink("/dev/zero", link);
  auto text = read_bounded(link, 1024, "--from");
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(text.error().message, HasSubstr("a character device, not a regular file"));
}

TEST(BoundedRead, AMissingFileIsAUsageErrorNamingTheFlagAndPath) {
  auto text = read_bounded("/nonexistent/x.csv", 1024, "--ncu-csv");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().kind, ErrorKind::usage);
  EXPECT_EQ(text.error().message,
            "--ncu-csv /nonexistent/x.csv: cannot read it: No such file or directory");
}

}  // namespace
}  // namespace kblaster
