#include "net/http_message.h"

namespace kblaster {

const char* method_name(HttpMethod method) {
  switch (method) {
    case HttpMethod::get:
      return "GET";
    case HttpMethod::post:
      return "POST";
    case HttpMethod::put:
      return "PUT";
    case HttpMethod::patch:
      return "PATCH";
    case HttpMethod::delete_:
      return "DELETE";
  }
  return "GET";
}

std::string url_for_logs(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  const auto scheme_end = url.find("://");
  const auto host_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const auto path_start = std::min(url.find('/', host_start), url.size());
  const auto at = url.substr(host_start, path_start - host_start).rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, host_start)) + std::string(url.substr(host_start + at + 1));
}

std::string call_name(const HttpRequest& request) {
  return std::string(method_name(request.method)) + " " + url_for_logs(request.url);
}

}  // namespace kblaster
