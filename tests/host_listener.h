// A TCP listener on the host's 127.0.0.1 for one test: what a sandboxed child
// must not reach. Non-blocking, so drain() counts who reached it without waiting.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kblaster::testing {

// Whether a socket bound to the loopback also listens; one that does not refuses connections.
enum class Listen { yes, no };

// Binds `fd` to a free port of the host's 127.0.0.1, listening if asked; the port, or 0.
inline int bind_loopback(int fd, Listen listen) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  const bool ok = fd >= 0 &&
                  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                  (listen == Listen::no || ::listen(fd, 64) == 0) &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  return ok ? ntohs(address.sin_port) : 0;
}

class HostListener {
 public:
  HostListener()
      : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)),
        port_(bind_loopback(fd_, Listen::yes)) {
    EXPECT_GT(port_, 0) << "a listener on the host's loopback";
  }
  ~HostListener() {
    if (fd_ >= 0) ::close(fd_);
  }
  HostListener(const HostListener&) = delete;
  HostListener& operator=(const HostListener&) = delete;

  int port() const { return port_; }
  // Accepts (and closes) every connection made so far; how many there were.
  int drain() {
    int n = 0;
    for (int c; (c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0; ++n) ::close(c);
    return n;
  }

 private:
  int fd_;
  int port_ = 0;
};

}  // namespace kblaster::testing
