// kblaster's one HTTP client: sends a call through an HttpTransport, retries what may
// succeed later (network failures, timeouts, 5xx, rate limits) with backoff inside a
// deadline, logs every attempt, and turns a final failure into an Error that names the call.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "net/client_services.h"
#include "net/retry_rules.h"
#include "net/transport.h"

namespace kblaster {

struct HttpClientOptions {
  std::string service = "the server";  // the remote in logs and errors: "GitHub", "the LLM API"
  RetryPolicy retry{};
  std::vector<std::string> secrets{};  // never in logs or errors, besides credential headers
};

// Borrows the transport, which must outlive the client. Not thread-safe (nor is CurlTransport).
class HttpClient {
 public:
  HttpClient(HttpTransport& transport, HttpClientServices services, HttpClientOptions options = {})
      : transport_(transport), services_(std::move(services)), options_(std::move(options)) {}

  // The first response whose status is below 400 (no redirect is followed) or in `accepted`
  // (e.g. 404 where absence is an answer), retrying by retry_rules.h; each attempt's total
  // timeout is cut to the time left before the deadline. Otherwise Error::remote naming the
  // call (method, URL without query), the last outcome (status with the service's message,
  // or the transport failure), the attempts made, and a wait that would pass the deadline;
  // Error::usage when the request cannot be sent (a malformed URL). Secrets are redacted.
  Result<HttpResponse> send(const HttpRequest& request, std::span<const int> accepted = {});

 private:
  void log_attempt(const std::string& call, int attempt, const Delivery& outcome, double seconds,
                   std::span<const std::string> secrets);

  HttpTransport& transport_;
  HttpClientServices services_;
  HttpClientOptions options_;
};

}  // namespace kblaster
