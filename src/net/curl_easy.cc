#include "net/curl_easy.h"

#include <string>
#include <string_view>

namespace kblaster {

CURLcode ensure_libcurl() {
  static const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);  // thread-safe static
  return code;
}

TransportError curl_call_error(const char* call, CURLcode code, const char* file, int line) {
  std::string_view where(file);
  if (auto slash = where.rfind("/src/"); slash != std::string_view::npos)
    where.remove_prefix(slash + 1);
  return {TransportFailure::setup, "libcurl call `" + std::string(call) + "` failed at " +
                                       std::string(where) + ":" + std::to_string(line) + ": " +
                                       curl_easy_strerror(code)};
}

TransportFailure failure_for(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
      return TransportFailure::connect;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportFailure::resolve;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::timeout;
    case CURLE_SSL_CONNECT_ERROR:
      return TransportFailure::tls;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return TransportFailure::certificate;
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_FUNCTION_ARGUMENT:
    case CURLE_NOT_BUILT_IN:
    case CURLE_UNKNOWN_OPTION:
    case CURLE_FAILED_INIT:
    case CURLE_OUT_OF_MEMORY:
      return TransportFailure::setup;
    default:  // send and receive errors, an empty reply, HTTP/2 stream errors, …
      return TransportFailure::exchange;
  }
}

}  // namespace kblaster
