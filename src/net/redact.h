// Keeping tokens out of what kblaster prints: every log line and error message of a remote
// call passes through redact() with the call's secrets.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_message.h"

namespace kblaster {

inline constexpr std::string_view kRedacted = "***";

// `text` with every occurrence of every non-empty secret replaced by "***"; longer secrets
// are replaced first, so one that contains another leaves nothing of itself behind.
std::string redact(std::string_view text, std::span<const std::string> secrets);

// The secrets of one call: `configured`, and the value of each credential header the request
// carries (Authorization, Proxy-Authorization, X-Api-Key, Api-Key) with its credential alone
// ("Bearer ghp_x" gives "Bearer ghp_x" and "ghp_x").
std::vector<std::string> call_secrets(const HttpRequest& request,
                                      std::span<const std::string> configured);

}  // namespace kblaster
