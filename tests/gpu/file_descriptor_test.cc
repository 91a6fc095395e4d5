#include "gpu/file_descriptor.h"

#include <fcntl.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

TEST(FileDescriptor, ClosesWhenItsOwnerDiesOrOnReset) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  {
    FileDescriptor read_end(fds[0]);
    FileDescriptor write_end(fds[1]);
    EXPECT_EQ(read_end.get(), fds[0]);
    write_end.reset();
    EXPECT_EQ(write_end.get(), -1);
    EXPECT_FALSE(is_open(fds[1]));
    EXPECT_TRUE(is_open(fds[0]));
  }
  EXPECT_FALSE(is_open(fds[0]));
  FileDescriptor none;
  EXPECT_EQ(none.get(), -1);
}

}  // namespace
}  // namespace kblaster
