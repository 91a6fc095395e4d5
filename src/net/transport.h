// The side effect under every remote call: HttpTransport sends one request and returns
// the server's response (any status) or the transport failure that left none. The real
// one is CurlTransport; tests may pass their own.
#pragma once

#include <string>
#include <variant>

#include "net/http_message.h"

namespace kblaster {

// Why no response came. Stable snake_case names (transport_failure_name) for logs.
enum class TransportFailure {
  connect,      // refused, unreachable, or the proxy refused
  resolve,      // DNS (host or proxy) failed
  tls,          // the TLS handshake failed
  certificate,  // the server's certificate is not trusted by the system CA store
  timeout,      // the connect or total timeout passed
  exchange,     // the connection broke while sending or receiving, or nothing came back
  too_large,    // the response passed the transport's size bound
  setup,        // the request cannot be sent: a malformed URL, an unsupported scheme
};

const char* transport_failure_name(TransportFailure failure);

// Whether another attempt may succeed: network trouble yes; a certificate, an oversized
// answer or a request that cannot be sent, no.
bool is_retryable(TransportFailure failure);

struct TransportError {
  TransportFailure failure = TransportFailure::exchange;
  std::string detail{};  // the library's words, e.g. "Failed to connect to 127.0.0.1 port 9"
};

// "timeout: Operation timed out after 300 milliseconds".
std::string describe(const TransportError& error);

// One attempt's outcome: the server's response, or why there was none.
using Delivery = std::variant<HttpResponse, TransportError>;

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Sends `request` once, honouring its timeouts; never retries and never throws.
  virtual Delivery send(const HttpRequest& request) = 0;
};

}  // namespace kblaster
