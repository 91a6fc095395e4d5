// Standard output that remembers why it failed. std::cout over stdio loses the
// errno of a failed write, and a flush at exit that nobody checks turns a full
// disk into exit 0; this buffer keeps the first error, so main can report it.
#pragma once

#include <streambuf>
#include <string>
#include <string_view>

namespace kblaster {

// When CheckedOutput hands its bytes to the descriptor.
enum class OutputBuffering {
  full,  // when the buffer fills, and at flush (a file or a pipe)
  line,  // also after each newline (a terminal, so results appear as they come)
};

// A streambuf writing to file descriptor `fd` (not owned) with write(2), retried
// on EINTR and short writes. After the first failure it drops further output and
// keeps that errno. A closed pipe raises SIGPIPE as any write does; where SIGPIPE
// is ignored, EPIPE is kept like any other error. Copy deleted: one owner of the buffer.
class CheckedOutput final : public std::streambuf {
 public:
  explicit CheckedOutput(int fd, OutputBuffering buffering);
  CheckedOutput(const CheckedOutput&) = delete;
  CheckedOutput& operator=(const CheckedOutput&) = delete;
  ~CheckedOutput() override;

  // 0 while every write succeeded, else the errno of the first that failed.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  // Writes the pending bytes out; false (and error_ set) when that failed.
  bool drain();
  // Appends `text` to the pending bytes and drains them as `buffering_` says;
  // false once a write failed. No put area: every character comes through here,
  // so a newline put with sputc is seen too.
  bool take(std::string_view text);

  int fd_;
  OutputBuffering buffering_;
  std::string pending_;
  int error_ = 0;
};

// "writing results to standard output failed: No space left on device", with a
// hint for a full disk; `error` is an errno.
std::string output_failure_message(int error);

}  // namespace kblaster
