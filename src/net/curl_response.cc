#include "net/curl_response.h"

#include <string_view>

namespace kblaster {
namespace {

bool take(ReceivedResponse& r, std::size_t n) {
  r.bytes += n;
  r.over_limit = r.bytes > r.limit;
  return !r.over_limit;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::size_t receive_body(char* data, std::size_t size, std::size_t count, void* response) {
  auto& r = *static_cast<ReceivedResponse*>(response);
  const std::size_t n = size * count;
  if (!take(r, n)) return 0;
  r.body.append(data, n);
  return n;
}

std::size_t receive_header(char* data, std::size_t size, std::size_t count, void* response) {
  auto& r = *static_cast<ReceivedResponse*>(response);
  const std::size_t n = size * count;
  if (!take(r, n)) return 0;
  const std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {
    r.headers = {};  // a new response: the final one after a 100 Continue or a proxy's CONNECT
    return n;
  }
  if (const auto colon = line.find(':'); colon != std::string_view::npos)
    r.headers.add(std::string(trim(line.substr(0, colon))),
                  std::string(trim(line.substr(colon + 1))));
  return n;
}

}  // namespace kblaster
