// A GitHub REST API for one repository, served over real HTTP on 127.0.0.1 for one
// test: it keeps state (issue comments, check runs and their annotations, git blobs,
// trees, commits and refs, pull requests, labels, reviews), records every request,
// checks the token, and fails on cue (502, rate limits, a timeout). Its answers carry
// the fields GitHub's OpenAPI description requires, so they also pass through Prism
// (support/prism_proxy.h). Endpoints and faults: tests/support/README.md.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_github_state.h"
#include "support/github_objects.h"
#include "support/github_pull.h"
#include "support/httplib_fwd.h"

namespace kblaster::testing {

// The repository FakeGitHub serves, the token it takes, and what it starts with.
struct FakeGitHubOptions {
  RepositoryFacts repo;                               // acme/kernels, default branch main
  std::string token = "ghs_fake_installation_token";  // Bearer or token
  int default_per_page = 30;  // GitHub's; per_page is capped at 100 as there
  // The default branch's one commit, seeded at start.
  std::map<std::string, std::string> base_files = {
      {"kblaster.toml", "[project]\narch = \"auto\"\n"},
      {"kernels/softmax.cu", "__global__ void softmax(float* x, int n) {}\n"}};
};

enum class FaultKind {
  bad_gateway,           // 502 with a JSON body
  primary_rate_limit,    // 403, x-ratelimit-remaining: 0, x-ratelimit-reset: now + wait
  secondary_rate_limit,  // 403, retry-after: wait, "You have exceeded a secondary rate limit"
  timeout,               // the answer is held back for `delay`
};

// What a timed-out request did: GitHub may have done the write though the client gave up.
enum class TimeoutEffect { dropped, applied };

// One failure, answered instead of the `on_call`-th request (1-based) that `match` selects,
// and the `times - 1` such requests after it. The request is not applied, except a
// timeout with TimeoutEffect::applied. Counting starts when the fault is injected.
struct Fault {
  FaultKind kind = FaultKind::bad_gateway;
  int on_call = 1;
  int times = 1;
  std::string match;      // a prefix of "METHOD /path", e.g. "POST /repos/acme/kernels/check-runs"
  int wait_seconds = 60;  // rate limits: reset or retry-after
  std::chrono::milliseconds delay{5000};          // timeout: how long the answer waits
  TimeoutEffect effect = TimeoutEffect::dropped;  // dropped: then 504, nothing done
};

// Whether the token may write (GITHUB_TOKEN of a fork PR may not): denied answers every
// write with 403 "Resource not accessible by integration".
enum class WriteAccess { granted, denied };

// One request as the fake received it.
struct RecordedRequest {
  std::string method;
  std::string path;    // decoded, without the query
  std::string target;  // as sent: path and query, percent-encoded
  std::multimap<std::string, std::string> query;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  int status = 0;  // the answer's status; 0 while it is being answered
  // The header's value, "" when absent; `name` in any case.
  std::string header(const std::string& name) const;
  // The body as JSON; null when empty or not JSON.
  nlohmann::json json() const;
};

// Starts serving in the constructor (a random port; throws std::runtime_error if it
// cannot bind) and stops in the destructor, which wakes held-back answers. Every method
// is thread-safe. Copy deleted: it owns a server thread.
class FakeGitHub {
 public:
  FakeGitHub() : FakeGitHub(FakeGitHubOptions()) {}
  explicit FakeGitHub(FakeGitHubOptions options);
  ~FakeGitHub();
  FakeGitHub(const FakeGitHub&) = delete;
  FakeGitHub& operator=(const FakeGitHub&) = delete;

  std::string url() const;  // "http://127.0.0.1:PORT", the API root (GITHUB_API_URL)
  int port() const { return port_; }
  const FakeGitHubOptions& options() const { return options_; }
  // The API root that object URLs and Link headers name: url() until a proxy in front
  // (Prism) says otherwise.
  void set_public_url(const std::string& api_url);

  void inject(Fault fault);
  void set_write_access(WriteAccess access);
  // Runs `action` once, just before serving the first request whose "METHOD /path" starts
  // with `match`: what another client did in the meantime (a concurrent run opening a pull
  // request). `action` may call this fake's methods; it runs on the server's thread.
  void before_request(std::string match, std::function<void()> action);

  // Seeding: a commit of `files` (added to, or replacing those of, the branch's tip) on
  // `branch`, created from the default branch when missing; its sha.
  std::string push_commit(const std::string& branch,
                          const std::map<std::string, std::string>& files,
                          const std::string& message = "Change kernels");
  // A commit of the test's own local git repository, known here by its `sha` as if it had
  // been pushed to `branch` (created from the default branch when missing): GitHub then
  // accepts check runs and reviews on it. It keeps the branch tip's files.
  void mirror_commit(const std::string& branch, const std::string& sha);
  // An open pull request from `head_branch` (which must exist) into the default branch.
  int open_pull(const std::string& head_branch, const std::string& title = "Faster softmax",
                const std::string& body = "");
  // A comment by `author` on issue or pull request `number`; its id.
  std::int64_t add_comment(int number, const std::string& body, const Account& author);

  // What was asked, in order, and what the repository now holds (copies).
  std::vector<RecordedRequest> requests() const;
  std::vector<FakeComment> comments(int number) const;
  std::vector<FakeCheckRun> check_runs() const;
  std::vector<PullFacts> pulls() const;
  std::vector<FakeReview> reviews(int number) const;
  std::map<std::string, std::string> refs() const;                   // "refs/heads/main" -> sha
  std::optional<std::string> ref_sha(const std::string& ref) const;  // "heads/main" or full
  std::optional<FakeCommit> commit(const std::string& sha) const;
  // The files of a commit (a sha, or a branch name) by path; empty when unknown.
  std::map<std::string, std::string> files_at(const std::string& revision) const;

 private:
  struct PendingFault {
    Fault fault;
    int seen = 0;
  };
  // The whole answer to one request: record, fault, auth, route, apply.
  void serve(const httplib::Request& request, httplib::Response& response);
  // The fault that answers this request, if one does; counts the request for each.
  std::optional<Fault> take_fault(const std::string& method_and_path);
  // Waits out a timeout's delay (or the destructor); whether the request then goes on.
  bool hold_back(const Fault& fault);

  FakeGitHubOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;

  mutable std::mutex mutex_;  // guards everything below
  FakeGitHubState state_;
  std::vector<RecordedRequest> requests_;
  std::vector<PendingFault> faults_;
  std::vector<std::pair<std::string, std::function<void()>>> before_;
  WriteAccess write_access_ = WriteAccess::granted;
  std::condition_variable stopping_cv_;
  bool stopping_ = false;
};

}  // namespace kblaster::testing
