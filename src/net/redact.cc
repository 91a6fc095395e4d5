#include "net/redact.h"

#include <algorithm>

namespace kblaster {
namespace {

// Headers whose value is a credential: GitHub's and OpenAI's Authorization, Anthropic's
// x-api-key, Azure OpenAI's api-key.
constexpr std::string_view kCredentialHeaders[] = {"Authorization", "Proxy-Authorization",
                                                   "X-Api-Key", "Api-Key"};

bool is_credential_header(std::string_view name) {
  return std::ranges::any_of(kCredentialHeaders,
                             [&](std::string_view h) { return equals_ignoring_case(h, name); });
}

}  // namespace

std::string redact(std::string_view text, std::span<const std::string> secrets) {
  std::vector<std::string_view> ordered(secrets.begin(), secrets.end());
  std::erase_if(ordered, [](std::string_view s) { return s.empty(); });
  std::ranges::sort(ordered, [](auto a, auto b) { return a.size() > b.size(); });
  std::string out(text);
  for (std::string_view secret : ordered) {
    for (auto at = out.find(secret); at != std::string::npos;
         at = out.find(secret, at + kRedacted.size()))
      out.replace(at, secret.size(), kRedacted);
  }
  return out;
}

std::vector<std::string> call_secrets(const HttpRequest& request,
                                      std::span<const std::string> configured) {
  std::vector<std::string> secrets(configured.begin(), configured.end());
  for (const auto& [name, value] : request.headers.fields()) {
    if (!is_credential_header(name)) continue;
    secrets.push_back(value);
    if (const auto space = value.rfind(' '); space != std::string::npos)
      secrets.push_back(value.substr(space + 1));
  }
  return secrets;
}

}  // namespace kblaster
