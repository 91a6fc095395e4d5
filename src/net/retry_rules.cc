#include "net/retry_rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace kblaster {
namespace {

// The header's value as a whole number, or nullopt when absent or not one.
std::optional<double> number_header(const HttpResponse& response, std::string_view name) {
  const auto value = response.headers.find(name);
  if (!value) return std::nullopt;
  long long n = 0;
  const char* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, n);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return static_cast<double>(n);
}

bool names_secondary_rate_limit(const std::string& body) {
  constexpr std::string_view kPhrase = "secondary rate limit";
  // std::search, not std::ranges::search: clang 14 with libstdc++ 12 (the fuzz build)
  // cannot instantiate the ranges form on a string and a string_view.
  return std::search(body.begin(), body.end(), kPhrase.begin(), kPhrase.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != body.end();
}

bool quota_exhausted(const HttpResponse& response) {
  return number_header(response, "x-ratelimit-remaining") == 0.0;
}

}  // namespace

bool is_rate_limited(const HttpResponse& response) {
  if (response.status == 429) return true;
  return response.status == 403 &&
         (quota_exhausted(response) || response.headers.contains("retry-after") ||
          names_secondary_rate_limit(response.body));
}

bool should_retry(const Delivery& outcome, bool idempotent) {
  if (const auto* error = std::get_if<TransportError>(&outcome)) {
    const bool nothing_sent = error->failure == TransportFailure::connect ||
                              error->failure == TransportFailure::resolve ||
                              error->failure == TransportFailure::tls;
    return is_retryable(error->failure) && (idempotent || nothing_sent);
  }
  const auto& response = std::get<HttpResponse>(outcome);
  return (idempotent && response.status >= 500) || is_rate_limited(response);
}

std::optional<RequestedWait> requested_wait(const HttpResponse& response, double unix_now) {
  if (const auto seconds = number_header(response, "retry-after"))
    return RequestedWait{std::max(0.0, *seconds), "retry-after"};
  if (quota_exhausted(response))
    if (const auto reset = number_header(response, "x-ratelimit-reset"))
      return RequestedWait{std::max(0.0, *reset - unix_now), "x-ratelimit-reset"};
  if (is_rate_limited(response) && names_secondary_rate_limit(response.body))
    return RequestedWait{kSecondaryRateLimitWaitSeconds, "secondary rate limit"};
  return std::nullopt;
}

PlannedWait plan_wait(const RetryPolicy& policy, const Delivery& outcome, int failed_attempts,
                      double unix_now, double jitter) {
  if (const auto* response = std::get_if<HttpResponse>(&outcome))
    if (auto requested = requested_wait(*response, unix_now))
      return {requested->seconds + jitter * policy.first_backoff_seconds, std::move(requested)};
  const double cap = std::min(policy.max_backoff_seconds,
                              policy.first_backoff_seconds * std::ldexp(1.0, failed_attempts - 1));
  return {cap / 2 + cap / 2 * jitter, std::nullopt};
}

}  // namespace kblaster
