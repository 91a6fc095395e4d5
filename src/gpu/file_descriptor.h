// An owned POSIX file descriptor, closed when its owner dies.
#pragma once

#include <unistd.h>

namespace kblaster {

// Owns `fd` (-1 = none). Copy deleted: two owners would close it twice.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) adopt(other.release());
    return *this;
  }
  int get() const { return fd_; }
  // Closes the descriptor it holds, then owns `fd`.
  void adopt(int fd) {
    reset();
    fd_ = fd;
  }
  // Closes the descriptor now; get() is -1 afterwards.
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Gives the descriptor up without closing it; get() is -1 afterwards.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace kblaster
