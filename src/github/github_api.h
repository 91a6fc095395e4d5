// GitHub's REST API for one repository, over kblaster's HttpClient: the headers GitHub
// asks for, JSON bodies, pagination, and errors that say what to do.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "github/github_target.h"
#include "net/http_client.h"
#include "net/http_message.h"

namespace kblaster {

// A response's status and headers with its body parsed (null for an empty body).
struct GitHubReply {
  int status = 0;
  HttpHeaders headers;
  nlohmann::json body;
};

// Borrows `http`, which must outlive it; give `http` the target's token as a secret.
class GitHubApi {
 public:
  GitHubApi(HttpClient& http, GitHubTarget target, HttpTimeouts timeouts = {})
      : http_(http), target_(std::move(target)), timeouts_(timeouts) {}

  // GitHub's pages hold at most 100 items; get_all reads at most this many pages.
  static constexpr std::size_t kMaxPages = 100;

  // `method` on "{api}/repos/{owner}/{repo}/{path}" (path may carry a query; "" is the
  // repository itself), with `body` as JSON unless it is null, within the API's timeouts.
  // A POST creates, so it is not idempotent: it is not sent again once it may have reached
  // GitHub (HttpRequest). A status in `accepted` is an answer, not an error. Errors:
  // HttpClient's (Error::remote naming the call, after its retries); a 403 "Resource not
  // accessible by integration" names the `permissions:` the workflow needs; a body that is
  // not JSON is Error::remote naming the call.
  Result<GitHubReply> call(HttpMethod method, std::string_view path,
                           const nlohmann::json& body = nullptr,
                           std::span<const int> accepted = {});

  // Every item of the list at `path`, 100 per page, following each response's `Link:
  // rel="next"` while it stays on the API's own origin (the token goes nowhere else), for
  // at most kMaxPages pages (more is Error::remote saying so). A page that is not a JSON
  // array is Error::remote naming it.
  Result<std::vector<nlohmann::json>> list(std::string_view path);

  const GitHubTarget& target() const { return target_; }

  // "{api}/repos/{owner}/{repo}/{path}"; "{api}/repos/{owner}/{repo}" for "".
  std::string url(std::string_view path) const;

 private:
  Result<GitHubReply> send(HttpMethod method, const std::string& url, const nlohmann::json& body,
                           std::span<const int> accepted);

  HttpClient& http_;
  GitHubTarget target_;
  HttpTimeouts timeouts_;
};

}  // namespace kblaster
