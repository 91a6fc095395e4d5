#include "core/checked_output.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <ostream>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// Both ends of a pipe, closed when the test ends.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
    read = fds[0], write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
  }
  std::string drain() const {
    char buffer[256];
    const ssize_t n = ::read(read, buffer, sizeof buffer);
    return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
  }
};

TEST(CheckedOutput, KeepsTheErrnoOfAFullDisk) {
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(full, 0);
  {
    CheckedOutput buffer(full, OutputBuffering::full);
    std::ostream out(&buffer);
    out << "results\n";
    EXPECT_EQ(buffer.error(), 0) << "held in the buffer until a flush";
    out.flush();
    EXPECT_FALSE(out.good());
    EXPECT_EQ(buffer.error(), ENOSPC);
    out.clear();
    out << "more" << std::flush;
    EXPECT_EQ(buffer.error(), ENOSPC) << "the first error is kept";
  }
  ::close(full);
  EXPECT_EQ(output_failure_message(ENOSPC),
            "writing results to standard output failed: No space left on device (the disk or "
            "quota that standard output goes to is full; free space there, or send the output "
            "elsewhere, and run the command again)");
}

TEST(CheckedOutput, FullBufferingWritesAtFlushAndLineBufferingAtEachNewline) {
  Pipe pipe;
  CheckedOutput full(pipe.write, OutputBuffering::full);
  std::ostream to_file(&full);
  to_file << "a\nb";
  EXPECT_EQ(pipe.drain(), "");
  to_file.flush();
  EXPECT_EQ(pipe.drain(), "a\nb");

  CheckedOutput line(pipe.write, OutputBuffering::line);
  std::ostream to_terminal(&line);
  to_terminal << "one\ntw";
  EXPECT_EQ(pipe.drain(), "one\ntw");
  to_terminal << 'o';
  EXPECT_EQ(pipe.drain(), "");
  to_terminal << '\n';
  EXPECT_EQ(pipe.drain(), "o\n");
  EXPECT_EQ(line.error(), 0);
}

TEST(CheckedOutput, OutputLongerThanTheBufferArrivesWholeAndInOrder) {
  testing::TempDir dir;
  const auto file = dir.path() / "out";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  std::string text;
  for (int i = 0; text.size() < 300 * 1024; ++i) text += std::to_string(i) + ",";
  {
    CheckedOutput buffer(fd, OutputBuffering::full);
    std::ostream out(&buffer);
    out << text.substr(0, 1000);
    for (char c : text.substr(1000, 70 * 1024)) out << c;  // one character at a time
    out << text.substr(1000 + 70 * 1024) << std::flush;
    EXPECT_EQ(buffer.error(), 0);
  }
  ::close(fd);
  EXPECT_EQ(testing::read_text(file), text);
}

// Where SIGPIPE is ignored (a parent may do that), a closed reader is EPIPE, kept
// and reported like any other failure instead of dropped.
TEST(CheckedOutput, AClosedPipeWithSigpipeIgnoredIsKeptAsEpipe) {
  Pipe pipe;
  ::close(pipe.read);
  pipe.read = -1;
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &before), 0);
  {
    CheckedOutput buffer(pipe.write, OutputBuffering::full);
    std::ostream out(&buffer);
    out << "lost" << std::flush;
    EXPECT_EQ(buffer.error(), EPIPE);
  }
  ::sigaction(SIGPIPE, &before, nullptr);
  EXPECT_THAT(output_failure_message(EPIPE), HasSubstr("Broken pipe"));
}

}  // namespace
}  // namespace kblaster
