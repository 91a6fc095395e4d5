// The retry decisions on synthetic outcomes: what is retried, what wait the server asked
// for, and the backoff.
#include "net/retry_rules.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

constexpr double kNow = 1'700'000'000;

HttpResponse response(int status, HttpHeaders headers = {}, std::string body = "") {
  return {.status = status, .headers = std::move(headers), .body = std::move(body)};
}

TEST(RetryRules, RetriesServerErrorsRateLimitsAndNetworkTroubleOnly) {
  EXPECT_TRUE(should_retry(response(500)));
  EXPECT_TRUE(should_retry(response(502)));
  EXPECT_TRUE(should_retry(response(429)));
  EXPECT_TRUE(should_retry(response(403, {{"X-RateLimit-Remaining", "0"}})));
  EXPECT_TRUE(should_retry(response(403, {{"retry-after", "30"}})));
  EXPECT_TRUE(should_retry(response(403, {}, "You have exceeded a Secondary Rate Limit")));
  EXPECT_FALSE(should_retry(response(403, {{"x-ratelimit-remaining", "12"}}, "Forbidden")))
      << "a 403 that is no rate limit is a missing permission";
  for (int status : {200, 301, 400, 401, 404, 409, 422})
    EXPECT_FALSE(should_retry(response(status)));
  EXPECT_TRUE(should_retry(TransportError{TransportFailure::timeout, ""}));
  EXPECT_TRUE(should_retry(TransportError{TransportFailure::connect, ""}));
  EXPECT_TRUE(should_retry(TransportError{TransportFailure::resolve, ""}));
  EXPECT_FALSE(should_retry(TransportError{TransportFailure::certificate, ""}));
  EXPECT_FALSE(should_retry(TransportError{TransportFailure::setup, ""}));
}

TEST(RetryRules, TheServersWaitComesFromRetryAfterThenTheReset) {
  EXPECT_EQ(requested_wait(response(429, {{"Retry-After", "12"}}), kNow)->seconds, 12);
  const auto reset = requested_wait(
      response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000090"}}), kNow);
  ASSERT_TRUE(reset);
  EXPECT_EQ(reset->seconds, 90);
  EXPECT_EQ(reset->source, "x-ratelimit-reset");
  EXPECT_EQ(requested_wait(response(403, {{"x-ratelimit-remaining", "0"},
                                          {"x-ratelimit-reset", "1699999990"},
                                          {"retry-after", "3"}}),
                           kNow)
                ->source,
            "retry-after");
  EXPECT_EQ(requested_wait(response(403, {{"x-ratelimit-remaining", "0"},
                                          {"x-ratelimit-reset", "1699999990"}}),
                           kNow)
                ->seconds,
            0)
      << "a reset already past asks for no wait, never a negative one";
  EXPECT_EQ(requested_wait(response(403, {}, "secondary rate limit"), kNow)->seconds,
            kSecondaryRateLimitWaitSeconds);
  EXPECT_FALSE(requested_wait(response(502), kNow));
  EXPECT_FALSE(
      requested_wait(response(429, {{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"}}), kNow))
      << "an HTTP-date is not read; the backoff applies";
}

TEST(RetryRules, BackoffDoublesUpToItsCapWithJitterInTheUpperHalf) {
  const RetryPolicy policy{.first_backoff_seconds = 1, .max_backoff_seconds = 6};
  const Delivery failure = response(502);
  EXPECT_EQ(plan_wait(policy, failure, 1, kNow, 0).seconds, 0.5);
  EXPECT_EQ(plan_wait(policy, failure, 1, kNow, 0.999).seconds, 0.5 + 0.5 * 0.999);
  EXPECT_EQ(plan_wait(policy, failure, 2, kNow, 0).seconds, 1);
  EXPECT_EQ(plan_wait(policy, failure, 3, kNow, 0).seconds, 2);
  EXPECT_EQ(plan_wait(policy, failure, 4, kNow, 0).seconds, 3) << "capped at 6";
  EXPECT_EQ(plan_wait(policy, failure, 30, kNow, 1).seconds, 6);
  EXPECT_FALSE(plan_wait(policy, failure, 1, kNow, 0).requested);
}

TEST(RetryRules, AServerWaitIsKeptWhateverTheCapAndJitteredUpward) {
  const RetryPolicy policy{.first_backoff_seconds = 2, .max_backoff_seconds = 4};
  const PlannedWait wait = plan_wait(policy, response(429, {{"retry-after", "100"}}), 1, kNow, 0.5);
  EXPECT_EQ(wait.seconds, 101);
  ASSERT_TRUE(wait.requested);
  EXPECT_EQ(wait.requested->seconds, 100);
}

}  // namespace
}  // namespace kblaster
