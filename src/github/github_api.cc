#include "github/github_api.h"

#include "github/link_header.h"
#include "github/permissions.h"

namespace kblaster {
namespace {

// "scheme://host[:port]" of `url`.
std::string_view origin_of(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const std::size_t path = url.find('/', scheme + 3);
  return url.substr(0, path);
}

}  // namespace

std::string GitHubApi::url(std::string_view path) const {
  const std::string repository = target_.api_url + "/repos/" + target_.owner + "/" + target_.repo;
  return path.empty() ? repository : repository + "/" + std::string(path);
}

Result<GitHubReply> GitHubApi::call(HttpMethod method, std::string_view path,
                                    const nlohmann::json& body, std::span<const int> accepted) {
  return send(method, url(path), body, accepted);
}

Result<GitHubReply> GitHubApi::send(HttpMethod method, const std::string& url,
                                    const nlohmann::json& body, std::span<const int> accepted) {
  HttpRequest request{.method = method,
                      .url = url,
                      .headers = {},
                      .body = {},
                      .timeouts = timeouts_,
                      .idempotent = method != HttpMethod::post};
  request.headers.add("Accept", "application/vnd.github+json");
  request.headers.add("X-GitHub-Api-Version", "2022-11-28");
  request.headers.add("Authorization", "Bearer " + target_.token);
  if (!body.is_null()) {
    request.headers.add("Content-Type", "application/json");
    request.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  auto response = http_.send(request, accepted);
  if (!response) {
    Error error = response.error();
    if (error.message.find("Resource not accessible by integration") != std::string::npos)
      error.message =
          permission_advice(method_name(method), url_for_logs(url)) + " (" + error.message + ")";
    return error;
  }
  GitHubReply reply{.status = response->status, .headers = response->headers, .body = nullptr};
  if (response->body.empty()) return reply;
  try {
    reply.body = nlohmann::json::parse(response->body);
  } catch (const nlohmann::json::parse_error& e) {
    return Error::remote("GitHub call " + call_name(request) + " answered " +
                         std::to_string(response->status) +
                         " with a body that is not JSON: " + e.what());
  }
  return reply;
}

Result<std::vector<nlohmann::json>> GitHubApi::list(std::string_view path) {
  std::vector<nlohmann::json> items;
  const std::string separator = path.find('?') == std::string_view::npos ? "?" : "&";
  std::string next = url(path) + separator + "per_page=100";
  const std::string_view home = origin_of(target_.api_url);
  for (std::size_t page = 0; page < kMaxPages; ++page) {
    auto reply = send(HttpMethod::get, next, nullptr, {});
    if (!reply) return reply.error();
    if (!reply->body.is_array())
      return Error::remote("GitHub call GET " + url_for_logs(next) +
                           " answered something that is not a list");
    for (auto& item : reply->body) items.push_back(std::move(item));
    const auto link = reply->headers.find("Link");
    const auto following = link ? next_page_url(*link) : std::nullopt;
    if (!following) return items;
    if (origin_of(*following) != home)
      return Error::remote("GitHub call GET " + url_for_logs(next) + " named a next page on " +
                           std::string(origin_of(*following)) + ", not on " + std::string(home) +
                           "; kblaster sends its token to the API's own host only");
    next = *following;
  }
  return Error::remote("GitHub list " + url_for_logs(url(path)) + " has more than " +
                       std::to_string(kMaxPages) + " pages of 100; kblaster reads no further");
}

}  // namespace kblaster
