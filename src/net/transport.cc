#include "net/transport.h"

namespace kblaster {

const char* transport_failure_name(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::connect:
      return "connect";
    case TransportFailure::resolve:
      return "resolve";
    case TransportFailure::tls:
      return "tls";
    case TransportFailure::certificate:
      return "certificate";
    case TransportFailure::timeout:
      return "timeout";
    case TransportFailure::exchange:
      return "exchange";
    case TransportFailure::too_large:
      return "too_large";
    case TransportFailure::setup:
      return "setup";
  }
  return "exchange";
}

bool is_retryable(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::connect:
    case TransportFailure::resolve:
    case TransportFailure::tls:
    case TransportFailure::timeout:
    case TransportFailure::exchange:
      return true;
    case TransportFailure::certificate:
    case TransportFailure::too_large:
    case TransportFailure::setup:
      return false;
  }
  return false;
}

std::string describe(const TransportError& error) {
  std::string text = transport_failure_name(error.failure);
  if (!error.detail.empty()) text += ": " + error.detail;
  return text;
}

}  // namespace kblaster
