// One attempt's outcome in words, for HttpClient's log lines and errors.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "net/transport.h"

namespace kblaster {

// Bytes of an error body that service_message parses; larger bodies are not parsed.
inline constexpr std::size_t kMaxErrorBodyBytes = 16 * 1024;

// The service's own words in an error body: the JSON `message` (GitHub), `error.message`
// (OpenAI, Anthropic) or a string `error`; nullopt when the body has none.
std::optional<std::string> service_message(std::string_view body);

// "HTTP 422: Validation Failed", "HTTP 502: `<html>...`" (the body's start when it has no
// message) or "timeout: …", with `secrets` redacted before anything is cut short.
std::string describe_outcome(const Delivery& outcome, std::span<const std::string> secrets);

// "502" or "timeout: Operation timed out after 300 milliseconds…": an outcome on a log line,
// with `secrets` redacted.
std::string outcome_for_log(const Delivery& outcome, std::span<const std::string> secrets);

}  // namespace kblaster
