#include "net/http_client.h"

#include <algorithm>
#include <cmath>

#include "net/call_outcome.h"
#include "net/redact.h"

namespace kblaster {
namespace {

std::string whole_seconds(double seconds) {
  return std::to_string(static_cast<long long>(std::ceil(seconds))) + " s";
}

std::string attempts(int n) { return std::to_string(n) + (n == 1 ? " attempt" : " attempts"); }

bool is_accepted(const HttpResponse& response, std::span<const int> accepted) {
  return response.status < 400 || std::ranges::find(accepted, response.status) != accepted.end();
}

// Why the next attempt will not be made: the wait it needs passes the deadline.
std::string past_deadline(const PlannedWait& wait, const std::string& service, double deadline) {
  const std::string limit = "the call's " + whole_seconds(deadline) + " deadline";
  if (wait.requested)
    return service + " asked to wait " + whole_seconds(wait.requested->seconds) + " (" +
           wait.requested->source + "), which passes " + limit;
  return "another attempt after " + whole_seconds(wait.seconds) + " of backoff would pass " + limit;
}

std::chrono::milliseconds time_left(double deadline, double now) {
  return std::chrono::milliseconds(std::max<long long>(1, std::llround((deadline - now) * 1000)));
}

}  // namespace

void HttpClient::log_attempt(const std::string& call, int attempt, const Delivery& outcome,
                             double seconds, std::span<const std::string> secrets) {
  if (!services_.log) return;
  services_.log(redact(options_.service + ": " + call + " attempt " + std::to_string(attempt) +
                           ": " + outcome_for_log(outcome, secrets) + " (" +
                           std::to_string(std::llround(seconds * 1000)) + " ms)",
                       secrets));
}

Result<HttpResponse> HttpClient::send(const HttpRequest& request, std::span<const int> accepted) {
  const std::vector<std::string> secrets = call_secrets(request, options_.secrets);
  const std::string call = call_name(request);
  const RetryPolicy& policy = options_.retry;
  Clock& clock = services_.clock;
  const double limit = request.timeouts.call.count() > 0
                           ? std::min(policy.deadline_seconds,
                                      static_cast<double>(request.timeouts.call.count()) / 1000.0)
                           : policy.deadline_seconds;
  const double deadline = clock.now_seconds() + limit;
  HttpRequest attempt_request = request;
  for (int attempt = 1;; ++attempt) {
    const double started = clock.now_seconds();
    attempt_request.timeouts.total = std::min(request.timeouts.total, time_left(deadline, started));
    Delivery outcome = transport_.send(attempt_request);
    log_attempt(call, attempt, outcome, clock.now_seconds() - started, secrets);
    if (auto* response = std::get_if<HttpResponse>(&outcome);
        response && is_accepted(*response, accepted))
      return std::move(*response);

    const std::string why = options_.service + " call " + call + " failed after " +
                            attempts(attempt) + ": " + describe_outcome(outcome, secrets);
    const auto* error = std::get_if<TransportError>(&outcome);
    if (error && error->failure == TransportFailure::setup)
      return Error::usage(redact(why, secrets));
    if (!should_retry(outcome, request.idempotent))
      return Error::remote(redact(
          why + (should_retry(outcome) ? " (not sent again: it creates, and may have been done)"
                                       : ""),
          secrets));
    if (attempt >= policy.max_attempts)
      return Error::remote(
          redact(why + " (at most " + std::to_string(policy.max_attempts) + " attempts)", secrets));
    const PlannedWait wait =
        plan_wait(policy, outcome, attempt, services_.unix_seconds(), services_.jitter());
    if (clock.now_seconds() + wait.seconds > deadline)
      return Error::remote(
          redact(why + "; " + past_deadline(wait, options_.service, limit), secrets));
    services_.sleep(wait.seconds);
  }
}

}  // namespace kblaster
