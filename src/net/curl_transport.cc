#include "net/curl_transport.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "net/curl_response.h"

namespace kblaster {
namespace {

// Resets a handle when a transfer ends, so that no option points at a freed header list or
// a finished transfer's buffers; the handle keeps its open connections.
class ResetOnExit {
 public:
  explicit ResetOnExit(CURL* curl) : curl_(curl) {}
  ~ResetOnExit() { curl_easy_reset(curl_); }
  ResetOnExit(const ResetOnExit&) = delete;  // one reset per transfer
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  CURL* curl_;
};

// "https://api.github.com" of "https://api.github.com/repos/o/r?x": the key of a handle.
std::string origin_of(std::string_view url) {
  const auto scheme_end = url.find("://");
  const auto host_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  std::string origin(url.substr(0, url.find_first_of("/?#", host_start)));
  std::ranges::transform(origin, origin.begin(), [](unsigned char c) { return std::tolower(c); });
  return origin;
}

std::optional<TransportError> append(CurlSlistPtr& list, const std::string& line) {
  curl_slist* head = curl_slist_append(list.get(), line.c_str());
  if (!head) return TransportError{TransportFailure::setup, "curl_slist_append: out of memory"};
  static_cast<void>(list.release());  // the same list, now owned through `head`
  list.reset(head);
  return std::nullopt;
}

// The request's headers as curl lines, plus "Expect:" (no 100-continue round trip) and, for
// a body without a Content-Type, "Content-Type:" (else curl would claim a form).
std::optional<TransportError> header_lines(const HttpRequest& request, CurlSlistPtr& list) {
  for (const auto& [name, value] : request.headers.fields()) {
    if (name.empty() || name.find_first_of(":\r\n") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos)
      return TransportError{TransportFailure::setup,
                            "header `" + name.substr(0, 64) + "` has a line break or a colon"};
    if (auto e = append(list, value.empty() ? name + ";" : name + ": " + value)) return e;
  }
  if (auto e = append(list, "Expect:")) return e;
  if (!request.body.empty() && !request.headers.contains("Content-Type"))
    return append(list, "Content-Type:");
  return std::nullopt;
}

std::optional<TransportError> set_method(CURL* curl, const HttpRequest& request) {
  if (request.method == HttpMethod::get) {
    if (!request.body.empty())
      return TransportError{TransportFailure::setup, "a GET request carries no body"};
    KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L));
    return std::nullopt;
  }
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                                static_cast<curl_off_t>(request.body.size())));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data()));
  if (request.method != HttpMethod::post)
    KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method_name(request.method)));
  return std::nullopt;
}

long milliseconds(std::chrono::milliseconds ms) {
  return std::max<long>(1, static_cast<long>(ms.count()));  // 0 would mean "no timeout"
}

}  // namespace

CURL* CurlTransport::handle_for(const std::string& url) {
  auto& handle = handles_[origin_of(url)];
  if (!handle) handle.reset(curl_easy_init());
  return handle.get();
}

Delivery CurlTransport::send(const HttpRequest& request) {
  KB_CURL_CALL(ensure_libcurl());
  CURL* curl = handle_for(request.url);
  if (!curl) return TransportError{TransportFailure::setup, "curl_easy_init failed"};
  curl_easy_reset(curl);
  const ResetOnExit reset(curl);
  char error_text[CURL_ERROR_SIZE] = "";
  ReceivedResponse received;
  received.limit = options_.max_response_bytes;
  CurlSlistPtr headers;
  if (auto e = header_lines(request, headers)) return *e;
  if (auto e = set_method(curl, request)) return *e;
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str()));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https"));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L));
  KB_CURL_CALL(
      curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.timeouts.connect)));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, milliseconds(request.timeouts.total)));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""));  // what libcurl decodes
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str()));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get()));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, receive_body));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, receive_header));
  KB_CURL_CALL(curl_easy_setopt(curl, CURLOPT_HEADERDATA, &received));

  if (const CURLcode rc = curl_easy_perform(curl); rc != CURLE_OK) {
    if (received.over_limit)
      return TransportError{TransportFailure::too_large,
                            "the response passed " + std::to_string(received.limit) + " bytes"};
    return TransportError{failure_for(rc), error_text[0] ? error_text : curl_easy_strerror(rc)};
  }
  long status = 0;
  KB_CURL_CALL(curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status));
  return HttpResponse{.status = static_cast<int>(status),
                      .headers = std::move(received.headers),
                      .body = std::move(received.body)};
}

}  // namespace kblaster
