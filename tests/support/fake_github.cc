#include "support/fake_github.h"

#include <httplib.h>
#include <strings.h>

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* kRateLimitDocs =
    "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api";

Reply get_repository(FakeGitHubState& state, const Call&) {
  return {.body = repository_json(state.site, state.repo)};
}

// The repository's own routes, then each area's.
const std::vector<std::pair<std::regex, const Route*>>& routes() {
  static const std::vector<Route> kRepository = {{"GET", "", Access::read, get_repository}};
  static const auto table = [] {
    std::vector<std::pair<std::regex, const Route*>> all;
    for (const auto* area :
         {&kRepository, &issue_routes(), &check_routes(), &git_routes(), &pull_routes()})
      for (const Route& r : *area) all.emplace_back(std::regex(std::string(r.pattern)), &r);
    return all;
  }();
  return table;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The token of "Bearer T" or "token T"; "" otherwise.
std::string token_of(const std::string& authorization) {
  for (const std::string scheme : {"Bearer ", "token "})
    if (authorization.size() > scheme.size() &&
        strncasecmp(authorization.c_str(), scheme.c_str(), scheme.size()) == 0)
      return authorization.substr(scheme.size());
  return "";
}

Reply fault_reply(const Fault& fault) {
  const std::int64_t now = std::time(nullptr);
  switch (fault.kind) {
    case FaultKind::primary_rate_limit:
      return {
          .status = 403,
          .body = error_json("API rate limit exceeded for installation ID 4242.", kRateLimitDocs),
          .headers = {{"x-ratelimit-remaining", "0"},
                      {"x-ratelimit-used", "5000"},
                      {"x-ratelimit-reset", std::to_string(now + fault.wait_seconds)}}};
    case FaultKind::secondary_rate_limit:
      return {.status = 403,
              .body = error_json(
                  "You have exceeded a secondary rate limit and have been temporarily blocked "
                  "from content creation. Please retry your request again later.",
                  std::string(kRateLimitDocs) + "#about-secondary-rate-limits"),
              .headers = {{"retry-after", std::to_string(fault.wait_seconds)}}};
    case FaultKind::timeout:
      return {.status = 504,
              .body = error_json(
                  "We couldn't respond to your request in time. Sorry about that. Please try "
                  "resubmitting your request and contact us if the problem persists.",
                  "https://docs.github.com/rest")};
    case FaultKind::bad_gateway:
      break;
  }
  return {.status = 502, .body = error_json("Server Error", "https://docs.github.com/rest")};
}

}  // namespace

std::string RecordedRequest::header(const std::string& name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? "" : it->second;
}

json RecordedRequest::json() const {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  return parsed.is_discarded() ? nlohmann::json() : parsed;
}

FakeGitHub::FakeGitHub(FakeGitHubOptions options)
    : options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  state_.repo = options_.repo;
  state_.default_per_page = options_.default_per_page;
  FlatTree tree;
  for (const auto& [path, content] : options_.base_files)
    tree[path] = {.sha = put_blob(state_, content)};
  const std::string base = put_commit(state_, put_tree(state_, tree), {}, "Initial kernels");
  state_.refs["refs/heads/" + options_.repo.default_branch] = base;

  server_->set_keep_alive_timeout(2);  // bounds how long stop() waits for an idle client
  // Every method and path comes to serve(), which routes by its own table (the
  // pre-routing handler would see the request before its body is read).
  const auto handler = [this](const httplib::Request& req, httplib::Response& res) {
    serve(req, res);
  };
  server_->Get(".*", handler).Post(".*", handler).Patch(".*", handler).Put(".*", handler);
  server_->Delete(".*", handler);
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("FakeGitHub: cannot listen on 127.0.0.1");
  state_.site.api_url = url();
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

FakeGitHub::~FakeGitHub() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stopping_cv_.notify_all();
  server_->stop();
  thread_.join();
}

std::string FakeGitHub::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeGitHub::set_public_url(const std::string& api_url) {
  std::lock_guard lock(mutex_);
  state_.site.api_url = api_url;
}

void FakeGitHub::inject(Fault fault) {
  std::lock_guard lock(mutex_);
  faults_.push_back({std::move(fault)});
}

void FakeGitHub::before_request(std::string match, std::function<void()> action) {
  std::lock_guard lock(mutex_);
  before_.emplace_back(std::move(match), std::move(action));
}

void FakeGitHub::set_write_access(WriteAccess access) {
  std::lock_guard lock(mutex_);
  write_access_ = access;
}

std::optional<Fault> FakeGitHub::take_fault(const std::string& method_and_path) {
  std::lock_guard lock(mutex_);
  std::optional<Fault> chosen;
  for (PendingFault& pending : faults_) {
    const Fault& f = pending.fault;
    if (method_and_path.rfind(f.match, 0) != 0) continue;
    ++pending.seen;
    if (!chosen && pending.seen >= f.on_call && pending.seen < f.on_call + f.times) chosen = f;
  }
  return chosen;
}

bool FakeGitHub::hold_back(const Fault& fault) {
  std::unique_lock lock(mutex_);
  const bool stopped = stopping_cv_.wait_for(lock, fault.delay, [this] { return stopping_; });
  return fault.effect == TimeoutEffect::applied && !stopped;
}

void FakeGitHub::serve(const httplib::Request& req, httplib::Response& res) {
  RecordedRequest record{
      .method = req.method, .path = req.path, .target = req.target, .body = req.body};
  for (const auto& [name, value] : req.params) record.query.emplace(name, value);
  for (const auto& [name, value] : req.headers) record.headers[lower(name)] = value;
  std::size_t index = 0;
  std::function<void()> before;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(record);
    index = requests_.size() - 1;
    const std::string method_and_path = req.method + " " + req.path;
    for (auto it = before_.begin(); it != before_.end(); ++it)
      if (method_and_path.rfind(it->first, 0) == 0) {
        before = std::move(it->second);
        before_.erase(it);
        break;
      }
  }
  if (before) before();

  Reply reply = [&]() -> Reply {
    if (auto fault = take_fault(req.method + " " + req.path))
      if (fault->kind != FaultKind::timeout || !hold_back(*fault)) return fault_reply(*fault);
    const std::string authorization = record.header("authorization");
    if (authorization.empty())
      return problem(401, "Requires authentication", "https://docs.github.com/rest");
    if (token_of(authorization) != options_.token)
      return problem(401, "Bad credentials", "https://docs.github.com/rest");

    const std::string prefix = "/repos/" + options_.repo.full_name();
    if (lower(req.path.substr(0, prefix.size())) != lower(prefix)) return not_found();
    const std::string rest = req.path.substr(prefix.size());
    for (const auto& [pattern, route] : routes()) {
      std::smatch m;
      if (req.method != route->method || !std::regex_match(rest, m, pattern)) continue;
      Call call{.method = req.method, .path = req.path, .query = record.query};
      for (std::size_t i = 1; i < m.size(); ++i) call.params.push_back(m[i]);
      if (!req.body.empty()) {
        call.body = json::parse(req.body, nullptr, false);
        if (call.body.is_discarded())
          return problem(400, "Problems parsing JSON", "https://docs.github.com/rest");
      }
      std::lock_guard lock(mutex_);
      if (route->access == Access::write && write_access_ == WriteAccess::denied)
        return problem(
            403, "Resource not accessible by integration",
            "https://docs.github.com/rest/overview/permissions-required-for-github-apps");
      try {
        return route->handle(state_, call);
      } catch (const std::exception& e) {  // a body the route did not expect: say so, loudly
        return problem(500, std::string("FakeGitHub could not handle this request: ") + e.what(),
                       "tests/support/README.md");
      }
    }
    return not_found();
  }();

  const std::int64_t now = std::time(nullptr);
  const int remaining = std::max<int>(0, 5000 - static_cast<int>(index) - 1);
  std::map<std::string, std::string> headers = {
      {"x-github-api-version-selected", "2022-11-28"},
      {"x-github-request-id", "FAKE:" + std::to_string(index + 1)},
      {"x-ratelimit-limit", "5000"},
      {"x-ratelimit-remaining", std::to_string(remaining)},
      {"x-ratelimit-used", std::to_string(5000 - remaining)},
      {"x-ratelimit-reset", std::to_string(now + 3600)},
      {"x-ratelimit-resource", "core"}};
  for (const auto& [name, value] : reply.headers) headers[name] = value;
  for (const auto& [name, value] : headers) res.set_header(name, value);
  res.status = reply.status;
  if (reply.status != 204) res.set_content(reply.body.dump(), "application/json; charset=utf-8");

  std::lock_guard lock(mutex_);
  requests_[index].status = reply.status;
}

std::string FakeGitHub::push_commit(const std::string& branch,
                                    const std::map<std::string, std::string>& files,
                                    const std::string& message) {
  std::lock_guard lock(mutex_);
  const auto parent = resolve_commit(state_, branch)
                          .value_or(*resolve_commit(state_, options_.repo.default_branch));
  FlatTree tree = state_.trees.at(state_.commits.at(parent).tree);
  for (const auto& [path, content] : files) tree[path] = {.sha = put_blob(state_, content)};
  const std::string sha = put_commit(state_, put_tree(state_, tree), {parent}, message);
  set_ref(state_, "refs/heads/" + branch, sha);
  return sha;
}

void FakeGitHub::mirror_commit(const std::string& branch, const std::string& sha) {
  std::lock_guard lock(mutex_);
  const auto parent = resolve_commit(state_, branch)
                          .value_or(*resolve_commit(state_, options_.repo.default_branch));
  state_.commits[sha] = FakeCommit{.sha = sha,
                                   .tree = state_.commits.at(parent).tree,
                                   .parents = {parent},
                                   .message = "Pushed from a local clone",
                                   .time = state_.tick()};
  set_ref(state_, "refs/heads/" + branch, sha);
}

int FakeGitHub::open_pull(const std::string& head_branch, const std::string& title,
                          const std::string& body) {
  std::lock_guard lock(mutex_);
  const auto head = resolve_commit(state_, "refs/heads/" + head_branch);
  if (!head) throw std::invalid_argument("FakeGitHub::open_pull: no branch " + head_branch);
  const std::string base = options_.repo.default_branch;
  PullFacts pull;
  pull.number = state_.next_number++;
  pull.title = title;
  pull.body = body;
  pull.base_repo = options_.repo;
  pull.base_ref = base;
  pull.base_sha = *resolve_commit(state_, "refs/heads/" + base);
  pull.head_ref = head_branch;
  pull.head_sha = *head;
  pull.created_at = pull.updated_at = state_.tick();
  state_.pulls.push_back(pull);
  return pull.number;
}

std::int64_t FakeGitHub::add_comment(int number, const std::string& body, const Account& author) {
  std::lock_guard lock(mutex_);
  if (!state_.pull(number))
    throw std::invalid_argument("FakeGitHub::add_comment: no pull request " +
                                std::to_string(number));
  const std::int64_t t = state_.tick();
  state_.comments.push_back({.id = state_.new_id(),
                             .number = number,
                             .body = body,
                             .author = author,
                             .created_at = t,
                             .updated_at = t});
  return state_.comments.back().id;
}

std::vector<RecordedRequest> FakeGitHub::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::vector<FakeComment> FakeGitHub::comments(int number) const {
  std::lock_guard lock(mutex_);
  std::vector<FakeComment> out;
  for (const auto& c : state_.comments)
    if (c.number == number) out.push_back(c);
  return out;
}

std::vector<FakeCheckRun> FakeGitHub::check_runs() const {
  std::lock_guard lock(mutex_);
  return state_.check_runs;
}

std::vector<PullFacts> FakeGitHub::pulls() const {
  std::lock_guard lock(mutex_);
  return state_.pulls;
}

std::vector<FakeReview> FakeGitHub::reviews(int number) const {
  std::lock_guard lock(mutex_);
  std::vector<FakeReview> out;
  for (const auto& r : state_.reviews)
    if (r.number == number) out.push_back(r);
  return out;
}

std::map<std::string, std::string> FakeGitHub::refs() const {
  std::lock_guard lock(mutex_);
  return state_.refs;
}

std::optional<std::string> FakeGitHub::ref_sha(const std::string& ref) const {
  std::lock_guard lock(mutex_);
  auto it = state_.refs.find(ref.rfind("refs/", 0) == 0 ? ref : "refs/" + ref);
  return it == state_.refs.end() ? std::nullopt : std::optional(it->second);
}

std::optional<FakeCommit> FakeGitHub::commit(const std::string& sha) const {
  std::lock_guard lock(mutex_);
  auto it = state_.commits.find(sha);
  return it == state_.commits.end() ? std::nullopt : std::optional(it->second);
}

std::map<std::string, std::string> FakeGitHub::files_at(const std::string& revision) const {
  std::lock_guard lock(mutex_);
  std::map<std::string, std::string> files;
  const auto sha = resolve_commit(state_, revision);
  if (!sha) return files;
  for (const auto& [path, entry] : state_.trees.at(state_.commits.at(*sha).tree))
    if (entry.type == "blob") files[path] = state_.blobs.at(entry.sha);
  return files;
}

}  // namespace kblaster::testing
