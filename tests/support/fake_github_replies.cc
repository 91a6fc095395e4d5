// The answers FakeGitHub's routes share: errors as GitHub words them, and pages.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "support/fake_github_state.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

int int_param(const Call& call, const std::string& name, int fallback) {
  const std::string text = call.query_value(name);
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit) || text.size() > 6)
    return fallback;
  return std::stoi(text);
}

std::string encode_query_value(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

}  // namespace

std::string Call::query_value(const std::string& name, const std::string& fallback) const {
  auto it = query.find(name);
  return it == query.end() ? fallback : it->second;
}

PullFacts* FakeGitHubState::pull(int number) {
  for (PullFacts& p : pulls)
    if (p.number == number) return &p;
  return nullptr;
}

Reply problem(int status, const std::string& message, const std::string& documentation_url) {
  json body = error_json(message, documentation_url);
  body["status"] = std::to_string(status);
  return {.status = status, .body = body};
}

Reply not_found() { return problem(404, "Not Found", "https://docs.github.com/rest"); }

Reply invalid(const std::string& resource, const std::string& field, const std::string& code,
              const std::string& documentation_url, const std::string& message) {
  json error = {{"resource", resource}, {"field", field}, {"code", code}};
  if (!message.empty()) error["message"] = message;
  return {.status = 422, .body = validation_failed_json(json::array({error}), documentation_url)};
}

// GitHub's Link header: prev, next, last and first, each the same query on another page.
Reply page_of(const FakeGitHubState& state, const Call& call, const json& items) {
  const int per_page = std::clamp(int_param(call, "per_page", state.default_per_page), 1, 100);
  const int page = std::max(1, int_param(call, "page", 1));
  const int total = static_cast<int>(items.size());
  const int last = std::max(1, (total + per_page - 1) / per_page);
  json slice = json::array();
  for (int i = (page - 1) * per_page; i < std::min(total, page * per_page); ++i)
    slice.push_back(items[i]);
  Reply reply{.body = slice};
  if (last == 1) return reply;

  std::string others;
  for (const auto& [name, value] : call.query)
    if (name != "page" && name != "per_page")
      others += '&' + encode_query_value(name) + '=' + encode_query_value(value);
  const auto link = [&](int n, const char* rel) {
    std::string text = "<";
    text += state.site.api_url + call.path + "?per_page=" + std::to_string(per_page);
    text += "&page=";
    text += std::to_string(n) + others + ">; rel=\"" + rel + "\"";
    return text;
  };
  std::vector<std::string> links;
  if (page > 1) links.push_back(link(std::min(page - 1, last), "prev"));
  if (page < last) links.push_back(link(page + 1, "next"));
  if (page < last) links.push_back(link(last, "last"));
  if (page > 1) links.push_back(link(1, "first"));
  std::string header;
  for (const auto& l : links) {
    if (!header.empty()) header += ", ";
    header += l;
  }
  reply.headers.emplace_back("link", header);
  return reply;
}

}  // namespace kblaster::testing
