// One HTTP request and the response to it, as plain values: what every HttpTransport
// sends and what the retrying HttpClient decides on.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "net/http_headers.h"

namespace kblaster {

enum class HttpMethod { get, post, put, patch, delete_ };

// "GET", "POST", "PUT", "PATCH", "DELETE".
const char* method_name(HttpMethod method);

// How long one attempt may take. Defaults suit a REST API; an LLM call wants a longer total.
struct HttpTimeouts {
  std::chrono::milliseconds connect{10'000};  // TCP and TLS set-up
  std::chrono::milliseconds total{60'000};    // the whole exchange, connect included
  // When above 0: every attempt and wait of the call together, where that is shorter than
  // the client's deadline (RetryPolicy::deadline_seconds), e.g. a search's time left.
  std::chrono::milliseconds call{0};
};

struct HttpRequest {
  HttpMethod method = HttpMethod::get;
  std::string url{};  // absolute: http(s)://host[:port]/path[?query]
  HttpHeaders headers{};
  std::string body{};  // sent as is; set a Content-Type header for it
  HttpTimeouts timeouts{};
  // false for a call that creates something (a POST of a comment, a check run): once it
  // may have reached the server (a timeout, a broken exchange, a 5xx) it is not sent again,
  // so a retry never makes a second one. Rate limits and failures to connect are retried.
  bool idempotent = true;
};

// What the server answered, whatever the status.
struct HttpResponse {
  int status = 0;
  HttpHeaders headers{};
  std::string body{};
};

// The URL without user information, query or fragment ("https://api.github.com/repos/o/r"):
// how logs and errors name a call, so a secret in the query never reaches them.
std::string url_for_logs(std::string_view url);

// "PATCH https://api.github.com/repos/o/r/issues/comments/7": a call's name in logs and errors.
std::string call_name(const HttpRequest& request);

}  // namespace kblaster
