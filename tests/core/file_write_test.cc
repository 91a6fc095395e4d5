#include "core/file_write.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

TEST(WriteFailure, TheMachinesConditionsAreEnvironmentErrorsSayingWhatToDo) {
  const Error full = write_failure("/r/.kblaster/x", "write", ENOSPC);
  EXPECT_EQ(full.kind, ErrorKind::environment);
  EXPECT_EQ(full.message,
            "cannot write /r/.kblaster/x: No space left on device (the disk is full; free space "
            "on it and run again)");
  EXPECT_THAT(write_failure("/q", "write", EDQUOT).message, HasSubstr("the disk is full"));
  const Error read_only = write_failure("/r/.kblaster", "create the directory", EROFS);
  EXPECT_EQ(read_only.kind, ErrorKind::environment);
  EXPECT_EQ(read_only.message,
            "cannot create the directory /r/.kblaster: Read-only file system (the file system "
            "is read-only; give a writable location and run again)");
  EXPECT_EQ(write_failure("/r", "write", EACCES).kind, ErrorKind::environment);
  EXPECT_EQ(write_failure("/r", "write", EPERM).kind, ErrorKind::environment);
  for (int error : {ENOENT, ENOTDIR, EISDIR, EEXIST})
    EXPECT_EQ(write_failure("/proc/x/report", "create the directory", error).kind,
              ErrorKind::environment)
        << "a path that cannot hold the file is the user's to fix, not kblaster's bug: " << error;
  const Error other = write_failure("/r", "write", EIO);
  EXPECT_EQ(other.kind, ErrorKind::io);
  EXPECT_EQ(other.message, "cannot write /r: Input/output error");
  EXPECT_EQ(write_failure("/r", "write", std::make_error_code(std::errc::no_space_on_device)).kind,
            ErrorKind::environment);
}

TEST(WriteFile, WritesTheWholeTextAndReplacesWhatWasThere) {
  testing::TempDir dir;
  const auto file = dir.path() / "f.txt";
  ASSERT_TRUE(write_file(file, std::string(100000, 'a')).ok());
  ASSERT_TRUE(write_file(file, "short\n", FileSync::to_disk).ok());
  EXPECT_EQ(testing::read_text(file), "short\n");
}

// /dev/full fails every write with ENOSPC, as a full disk does.
TEST(WriteFile, AFullDiskIsAnEnvironmentErrorNamingThePath) {
  const Status s = write_file("/dev/full", "results\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::environment);
  EXPECT_THAT(s.error().message, HasSubstr("cannot write /dev/full: No space left on device"));
}

TEST(MakeDirectories, CreatesParentsAndNamesTheDirectoryItCouldNotMake) {
  testing::TempDir dir;
  ASSERT_TRUE(make_directories(dir.path() / "a" / "b").ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() / "a" / "b"));
  const auto file = dir.write("plain", "x");
  const Status s = make_directories(file / "sub");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message,
              HasSubstr("cannot create the directory " + (file / "sub").string()));
}

}  // namespace
}  // namespace kblaster
