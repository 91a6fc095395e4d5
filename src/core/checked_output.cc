#include "core/checked_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace kblaster {
namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;

}  // namespace

CheckedOutput::CheckedOutput(int fd, OutputBuffering buffering) : fd_(fd), buffering_(buffering) {
  pending_.reserve(kBufferBytes);
}

CheckedOutput::~CheckedOutput() { drain(); }

bool CheckedOutput::drain() {
  std::size_t done = 0;
  while (error_ == 0 && done < pending_.size()) {
    const ssize_t wrote = ::write(fd_, pending_.data() + done, pending_.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      error_ = wrote < 0 ? errno : EIO;  // write(2) returns 0 only for a 0-byte request
      break;
    }
    done += static_cast<std::size_t>(wrote);
  }
  pending_.clear();  // written, or dropped after a failure
  return error_ == 0;
}

bool CheckedOutput::take(std::string_view text) {
  if (error_ != 0) return false;
  pending_.append(text);
  const bool line_ended =
      buffering_ == OutputBuffering::line && text.find('\n') != std::string_view::npos;
  return (pending_.size() < kBufferBytes && !line_ended) || drain();
}

CheckedOutput::int_type CheckedOutput::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char byte = traits_type::to_char_type(c);
  return take(std::string_view(&byte, 1)) ? c : traits_type::eof();
}

std::streamsize CheckedOutput::xsputn(const char* s, std::streamsize n) {
  return take(std::string_view(s, static_cast<std::size_t>(n))) ? n : 0;
}

int CheckedOutput::sync() { return drain() ? 0 : -1; }

std::string output_failure_message(int error) {
  std::string message =
      std::string("writing results to standard output failed: ") + std::strerror(error);
  if (error == ENOSPC || error == EDQUOT)
    message +=
        " (the disk or quota that standard output goes to is full; free space there, "
        "or send the output elsewhere, and run the command again)";
  return message;
}

}  // namespace kblaster
