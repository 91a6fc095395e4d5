// The real HttpTransport, over libcurl. TLS is verified against the system CA store and
// the proxy environment variables (https_proxy, no_proxy, …) apply, both libcurl's
// defaults. Redirects are not followed: a 3xx comes back as the response, so a caller
// never sends its Authorization header somewhere it did not name.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "core/input_limits.h"
#include "net/curl_easy.h"
#include "net/transport.h"

namespace kblaster {

struct CurlOptions {
  // Bytes of headers and (decoded) body one response may hold; more is TransportFailure::too_large.
  std::size_t max_response_bytes = 64 * kMiB;
  std::string user_agent = "kblaster";  // sent unless the request sets User-Agent
};

// Keeps one libcurl easy handle per scheme://host[:port], so calls to one host reuse its
// connection (and TLS session). Not thread-safe: one per thread. Copy is deleted: the
// handles are owned.
class CurlTransport final : public HttpTransport {
 public:
  explicit CurlTransport(CurlOptions options = {}) : options_(std::move(options)) {}
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  // Sends once with no signals (CURLOPT_NOSIGNAL), within the request's connect and total
  // timeouts. A GET with a body, or a header with a line break, is TransportFailure::setup.
  Delivery send(const HttpRequest& request) override;

 private:
  CURL* handle_for(const std::string& url);  // null when curl_easy_init fails

  CurlOptions options_;
  std::map<std::string, CurlEasyPtr> handles_;  // by origin
};

}  // namespace kblaster
