// When a remote call is worth another attempt and how long to wait first: pure decisions
// over one attempt's outcome, tested without a server or a clock.
#pragma once

#include <optional>
#include <string>

#include "net/transport.h"

namespace kblaster {

// How hard HttpClient tries one call.
struct RetryPolicy {
  int max_attempts = 5;
  double first_backoff_seconds = 1.0;  // doubled after each failed attempt
  double max_backoff_seconds = 30.0;   // caps the backoff, not a wait the server asks for
  double deadline_seconds = 300.0;     // every attempt and wait of one call together
};

// GitHub's advice after a secondary rate limit that names no wait: at least a minute.
inline constexpr double kSecondaryRateLimitWaitSeconds = 60;

// A wait the server asked for, and what asked: "retry-after", "x-ratelimit-reset" or
// "secondary rate limit".
struct RequestedWait {
  double seconds = 0;
  std::string source{};
};

// 429, or a 403 that is a rate limit: x-ratelimit-remaining 0, a retry-after header, or a
// body that names a secondary rate limit.
bool is_rate_limited(const HttpResponse& response);

// A retryable transport failure, a 5xx, or a rate limit. For a call that is not
// `idempotent`, only what proves the server did nothing: a rate limit, or a failure to
// connect, resolve or shake hands.
bool should_retry(const Delivery& outcome, bool idempotent = true);

// The wait the response asks for: retry-after (seconds), else x-ratelimit-reset (unix
// seconds, against `unix_now`) when x-ratelimit-remaining is 0, else a minute for a
// secondary rate limit; nullopt when it asks for none. Never negative.
std::optional<RequestedWait> requested_wait(const HttpResponse& response, double unix_now);

// The wait before the next attempt, after `failed_attempts` (>= 1) failures.
struct PlannedWait {
  double seconds = 0;
  std::optional<RequestedWait> requested{};  // set when the server named the wait
};

// The server's wait plus up to one first backoff of jitter, or else exponential backoff with
// jitter: half of min(max, first * 2^(failed - 1)), plus that half times `jitter` in [0, 1).
PlannedWait plan_wait(const RetryPolicy& policy, const Delivery& outcome, int failed_attempts,
                      double unix_now, double jitter);

}  // namespace kblaster
