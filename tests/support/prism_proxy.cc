#include "support/prism_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/openapi_subset.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

std::filesystem::path tools_dir() { return source_dir() / "tools" / "github-api"; }
std::filesystem::path prism_script() { return tools_dir() / "node_modules" / ".bin" / "prism"; }
std::filesystem::path description_file() {
  return tools_dir() / "node_modules/@octokit/openapi/generated/api.github.com.json";
}

// The program's path in a PATH directory; "" when it is in none.
std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0, end; start <= dirs.size(); start = end + 1) {
    end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const auto candidate = std::filesystem::path(dirs.substr(start, end - start)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

// A port nobody listens on now (the kernel's pick for port 0); 0 on failure.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  int port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0)
    port = ntohs(address.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

bool listening(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok =
      fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}

// Starts `argv` (argv[0] a path) in a process group of its own, stdin from /dev/null,
// stdout and stderr into `log`. The child gets SIGKILL when this thread's process dies,
// so that a test killed by ctest's timeout leaves no Prism behind.
Result<pid_t> spawn(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return Error::environment(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {  // only async-signal-safe calls from here to exec
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so that the group exists before anyone signals it
  return pid;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The last `bytes` of a file, for an error message.
std::string tail_of(const std::filesystem::path& file, std::size_t bytes = 3000) {
  const std::string text = read_text(file);
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

// Prism's findings in `validation`, "location: message" a line.
std::string findings(const json& validation) {
  std::string out;
  for (const json& v : validation) {
    std::string where;
    for (const json& part : v.value("location", json::array())) {
      if (!where.empty()) where += '.';
      where += part.is_string() ? part.get<std::string>() : part.dump();
    }
    out += where + ": " + v.value("message", "") + " (" + v.value("severity", "") + ")\n";
  }
  return out;
}

}  // namespace

const std::vector<std::string>& described_github_paths() {
  static const std::vector<std::string> kPaths = {
      "/repos/{owner}/{repo}",
      "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      "/repos/{owner}/{repo}/issues/{issue_number}/labels",
      "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      "/repos/{owner}/{repo}/check-runs*",
      "/repos/{owner}/{repo}/commits/{ref}/check-runs",
      "/repos/{owner}/{repo}/git/*",
      "/repos/{owner}/{repo}/pulls",
      "/repos/{owner}/{repo}/pulls/{pull_number}",
      "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
      "/rate_limit",
  };
  return kPaths;
}

std::string prism_unavailable_reason() {
  if (find_on_path("node").empty())
    return "node is not on PATH (scripts/setup.sh installs nodejs and npm)";
  if (!std::filesystem::exists(prism_script()) || !std::filesystem::exists(description_file()))
    return "Prism and GitHub's OpenAPI description are not installed in " + tools_dir().string() +
           " (scripts/setup.sh --deps-only runs npm ci there)";
  return "";
}

bool prism_required() {
  const char* v = std::getenv("KBLASTER_REQUIRE_PRISM");
  return v && std::string(v) == "1";
}

Result<std::unique_ptr<PrismProxy>> PrismProxy::start(const std::string& upstream_url) {
  if (const std::string why = prism_unavailable_reason(); !why.empty())
    return Error::environment(why);
  const auto began = std::chrono::steady_clock::now();
  std::unique_ptr<PrismProxy> proxy(new PrismProxy());

  std::ifstream in(description_file());
  const json description = json::parse(in, nullptr, false);
  if (description.is_discarded())
    return Error::environment(description_file().string() + " is not JSON; run npm ci again");
  const auto spec = proxy->dir_.write("api.github.com.subset.json",
                                      openapi_subset(description, described_github_paths()).dump());

  proxy->prism_port_ = free_port();
  const auto log = proxy->dir_.path() / "prism.log";
  auto pid = spawn({find_on_path("node"), std::filesystem::canonical(prism_script()).string(),
                    "proxy", spec.string(), upstream_url, "--errors", "--host", "127.0.0.1",
                    "--port", std::to_string(proxy->prism_port_), "--verboseLevel", "warn"},
                   log);
  if (!pid) return pid.error();
  proxy->prism_ = ProcessGroup(*pid);

  const char* limit_text = std::getenv("KBLASTER_PRISM_START_SECONDS");
  const double limit = limit_text ? std::atof(limit_text) : 180.0;
  while (!listening(proxy->prism_port_)) {
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (proxy->prism_.exited() || waited > limit)
      return Error::environment("Prism did not come up" +
                                (waited > limit ? " in " + std::to_string(limit) + " s" : "") +
                                "; its output:\n" + tail_of(log));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  proxy->startup_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();

  proxy->recorder_ = std::make_unique<httplib::Server>();
  PrismProxy* self = proxy.get();
  const auto handler = [self](const httplib::Request& req, httplib::Response& res) {
    self->forward(req, res);
  };
  proxy->recorder_->Get(".*", handler).Post(".*", handler).Patch(".*", handler);
  proxy->recorder_->Put(".*", handler).Delete(".*", handler);
  proxy->recorder_->set_keep_alive_timeout(2);
  proxy->port_ = proxy->recorder_->bind_to_any_port("127.0.0.1");
  if (proxy->port_ <= 0) return Error::environment("the Prism recorder cannot listen");
  proxy->recorder_thread_ = std::thread([self] { self->recorder_->listen_after_bind(); });
  while (!proxy->recorder_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return proxy;
}

PrismProxy::~PrismProxy() {
  prism_.kill_group();  // first, so that a forward waiting on Prism ends now
  static_cast<void>(prism_.wait());
  if (recorder_) {
    recorder_->stop();
    if (recorder_thread_.joinable()) recorder_thread_.join();
  }
}

std::string PrismProxy::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

std::vector<PrismViolation> PrismProxy::violations() const {
  std::lock_guard lock(mutex_);
  return violations_;
}

std::vector<PrismViolation> PrismProxy::take_violations() {
  std::lock_guard lock(mutex_);
  return std::exchange(violations_, {});
}

std::vector<std::string> PrismProxy::warnings() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

// Sends the request on to Prism as it came (target still percent-encoded), hands back
// Prism's answer, and keeps what Prism said about either.
void PrismProxy::forward(const httplib::Request& req, httplib::Response& res) {
  httplib::Client prism("127.0.0.1", prism_port_);
  prism.set_url_encode(false);
  prism.set_read_timeout(std::chrono::minutes(5));
  httplib::Headers headers;
  for (const auto& [name, value] : req.headers) {
    const std::string n = lower(name);
    if (n != "host" && n != "content-length" && n != "content-type" && n != "connection" &&
        n != "accept-encoding" && n != "remote_addr" && n != "remote_port" && n != "local_addr" &&
        n != "local_port")
      headers.emplace(name, value);
  }
  const std::string type = req.get_header_value("Content-Type");
  httplib::Result r = req.method == "GET"      ? prism.Get(req.target, headers)
                      : req.method == "DELETE" ? prism.Delete(req.target, headers, req.body, type)
                      : req.method == "POST"   ? prism.Post(req.target, headers, req.body, type)
                      : req.method == "PATCH"  ? prism.Patch(req.target, headers, req.body, type)
                                               : prism.Put(req.target, headers, req.body, type);
  const std::string request = req.method + " " + req.target;
  if (!r) {
    res.status = 502;
    res.set_content(
        json{{"message", "Prism did not answer: " + httplib::to_string(r.error())}}.dump(),
        "application/json");
    return;
  }
  for (const auto& [name, value] : r->headers) {
    const std::string n = lower(name);
    if (n != "content-length" && n != "transfer-encoding" && n != "connection" &&
        n != "keep-alive" && n != "content-encoding" && n != "content-type")
      res.headers.emplace(name, value);
  }
  res.status = r->status;
  const std::string content_type = r->get_header_value("Content-Type");
  if (r->status != 204)
    res.set_content(r->body, content_type.empty() ? "text/plain" : content_type);

  std::lock_guard lock(mutex_);
  if (content_type.rfind("application/problem+json", 0) == 0) {
    const json problem = json::parse(r->body, nullptr, false);
    const std::string kind = problem.is_object() ? problem.value("type", "") : "";
    if (kind.find("stoplight.io/prism/errors#") != std::string::npos) {
      violations_.push_back({.request = request,
                             .status = r->status,
                             .kind = kind.substr(kind.find('#') + 1),
                             .detail = problem.value("title", "") + ": " +
                                       problem.value("detail", "") + "\n" +
                                       findings(problem.value("validation", json::array()))});
      return;
    }
  }
  // With --errors Prism turns every error into a problem answer; this keeps any it did not.
  const json said = json::parse(r->get_header_value("sl-violations"), nullptr, false);
  if (!said.is_array()) return;
  for (const json& v : said) {
    if (v.value("severity", "") == "Error")
      violations_.push_back({.request = request,
                             .status = r->status,
                             .kind = "sl-violations",
                             .detail = findings(json::array({v}))});
    else
      warnings_.push_back(request + ": " + findings(json::array({v})));
  }
}

}  // namespace kblaster::testing
