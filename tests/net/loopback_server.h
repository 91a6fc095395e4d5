// A real HTTP server on 127.0.0.1 for one test (cpp-httplib in a thread), and a port that
// refuses connections. Declare the server before the transport that calls it, so the
// transport's kept-alive connections close first and the server stops at once.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "host_listener.h"
#include "scoped_env.h"

namespace kblaster::testing {

class LoopbackServer {
 public:
  // Registers handlers with `routes`, then serves them on a free port until destroyed.
  explicit LoopbackServer(const std::function<void(httplib::Server&)>& routes) {
    routes(server_);
    server_.set_keep_alive_timeout(1);  // bounds a stop that a client's idle connection delays
    port_ = server_.bind_to_any_port("127.0.0.1");
    EXPECT_GT(port_, 0) << "a port on 127.0.0.1";
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the accept loop runs would be lost, and the join would hang.
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~LoopbackServer() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }
  LoopbackServer(const LoopbackServer&) = delete;  // owns a thread and a socket
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  // Waits up to `limit`, or less once the server is stopping: for a slow handler.
  void nap(std::chrono::milliseconds limit) const {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!stopping_ && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

 private:
  ScopedEnv no_proxy_{{{"no_proxy", "127.0.0.1"}, {"NO_PROXY", "127.0.0.1"}}};
  httplib::Server server_;
  int port_ = 0;
  std::atomic<bool> stopping_ = false;
  std::thread thread_;
};

// A port of 127.0.0.1 bound but not listening, so a connection to it is refused; held until
// destroyed, so no other test takes it.
class RefusingPort {
 public:
  RefusingPort()
      : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)),
        port_(bind_loopback(fd_, Listen::no)) {
    EXPECT_GT(port_, 0) << "a bound port on 127.0.0.1";
  }
  ~RefusingPort() {
    if (fd_ >= 0) ::close(fd_);
  }
  RefusingPort(const RefusingPort&) = delete;  // owns a socket
  RefusingPort& operator=(const RefusingPort&) = delete;

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  int fd_;
  int port_ = 0;
};

}  // namespace kblaster::testing
