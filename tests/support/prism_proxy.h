// Prism (@stoplight/prism-cli, installed in tools/github-api by scripts/setup.sh) as a
// validating proxy in front of a test's upstream (FakeGitHub): every request and every
// answer is checked against GitHub's own OpenAPI description (@octokit/openapi,
// api.github.com.json). A recorder in front of Prism keeps what Prism rejected, so a
// test fails on an invalid request even when the client under test swallows the 422.
//
//   client -> recorder (url()) -> prism proxy --errors -> upstream
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "gpu/subprocess.h"
#include "support/httplib_fwd.h"
#include "test_paths.h"

namespace kblaster::testing {

// One thing Prism rejected: a request the description does not allow (Prism answers 422
// and does not forward it), an operation it does not describe (404), or an answer that
// breaks the description (500).
struct PrismViolation {
  std::string request;  // "POST /repos/acme/kernels/check-runs"
  int status = 0;       // what Prism answered instead
  std::string
      kind;  // Prism's error type: UNPROCESSABLE_ENTITY, VIOLATIONS, NO_PATH_MATCHED_ERROR...
  std::string detail;  // each finding, "location: message", one a line
  std::string describe() const {
    return request + " -> " + std::to_string(status) + " " + kind + "\n" + detail;
  }
};

// The paths of GitHub's description Prism is given (openapi_subset's syntax): the
// repository, issues, check runs, git data and pulls. A request outside them is a
// violation (NO_PATH_MATCHED_ERROR): add its path here when the client starts using it.
const std::vector<std::string>& described_github_paths();

// Why Prism cannot run on this machine (no node on PATH, tools/github-api not installed),
// or "" when it can.
std::string prism_unavailable_reason();

// Whether the environment demands Prism (KBLASTER_REQUIRE_PRISM=1, as scripts/test.sh
// sets): then its absence fails a test instead of skipping it.
bool prism_required();

// Prism running in front of one upstream. The destructor kills Prism's process group and
// stops the recorder. Thread-safe. Copy deleted: it owns a process and a server thread.
class PrismProxy {
 public:
  // Starts Prism on a free port and waits (up to KBLASTER_PRISM_START_SECONDS, default
  // 180) until it listens. Fails with Error::environment naming what is missing, or
  // with Prism's own output when it does not come up.
  static Result<std::unique_ptr<PrismProxy>> start(const std::string& upstream_url);
  ~PrismProxy();
  PrismProxy(const PrismProxy&) = delete;
  PrismProxy& operator=(const PrismProxy&) = delete;

  std::string url() const;  // the recorder's root, for the client under test
  double startup_seconds() const { return startup_seconds_; }
  // Everything Prism rejected so far; take_violations() also forgets it (a test that
  // expects a violation takes it, so that the fixture's check does not fail).
  std::vector<PrismViolation> violations() const;
  std::vector<PrismViolation> take_violations();
  // Prism's warnings ("sl-violations" of severity Warning), e.g. a status the description
  // does not list for the operation, such as an injected 502.
  std::vector<std::string> warnings() const;

 private:
  PrismProxy() = default;
  void forward(const httplib::Request& request, httplib::Response& response);

  TempDir dir_;  // the description's subset and Prism's log
  ProcessGroup prism_;
  int prism_port_ = 0;
  std::unique_ptr<httplib::Server> recorder_;
  std::thread recorder_thread_;
  int port_ = 0;
  double startup_seconds_ = 0;
  mutable std::mutex mutex_;  // guards the two below
  std::vector<PrismViolation> violations_;
  std::vector<std::string> warnings_;
};

}  // namespace kblaster::testing
