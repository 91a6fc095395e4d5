// HttpClient over the real CurlTransport and a loopback server that fails on cue: what it
// retries, how long it waits (in fake time), where it stops, and what its errors say.
#include "net/http_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

#include "net/curl_transport.h"
#include "net/fake_time.h"
#include "net/loopback_server.h"

namespace kblaster {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using testing::FakeTime;
using ::testing::HasSubstr;
using testing::LoopbackServer;
using ::testing::Not;
using testing::RefusingPort;

constexpr int kResetIn = 5;  // seconds past FakeTime's unix origin that a rate limit ends

// A server whose /api answers each call with the next scripted failure, then 200 "done";
// `calls` counts what reached it.
struct ScriptedServer {
  using Step = std::function<void(httplib::Response&)>;
  explicit ScriptedServer(std::vector<Step> script)
      : script(std::move(script)), server([this](httplib::Server& s) {
          s.Get("/api", [this](const httplib::Request&, httplib::Response& res) {
            const std::size_t n = calls++;
            if (n < this->script.size()) return this->script[n](res);
            res.set_content("done", "text/plain");
          });
        }) {}

  std::vector<Step> script;
  std::atomic<std::size_t> calls = 0;
  LoopbackServer server;
};

ScriptedServer::Step status(int code, std::string body = "") {
  return [=](httplib::Response& res) {
    res.status = code;
    res.set_content(body, "application/json");
  };
}

ScriptedServer::Step quota_exhausted(double reset) {
  return [=](httplib::Response& res) {
    res.status = 403;
    res.set_header("x-ratelimit-remaining", "0");
    res.set_header("x-ratelimit-reset", std::to_string(static_cast<long long>(reset)));
    res.set_content(R"({"message":"API rate limit exceeded for installation"})",
                    "application/json");
  };
}

// A scripted server, then fake time, a transport and a client, in this order, so the
// transport's connection closes before the server stops.
struct Rig {
  explicit Rig(std::vector<ScriptedServer::Step> script,
               HttpClientOptions options = {.service = "GitHub"})
      : scripted(std::move(script)), client(transport, time.services(), std::move(options)) {}

  Result<HttpResponse> get(const std::string& path_and_query = "/api", HttpHeaders headers = {}) {
    return client.send({.url = scripted.server.url(path_and_query), .headers = std::move(headers)});
  }

  ScriptedServer scripted;
  FakeTime time;
  CurlTransport transport;
  HttpClient client;
};

// A call that creates (a POST of a comment) must not make two: after a 502 it may have been
// done, so it is not sent again; a rate limit proves it was not, so that is retried.
TEST(HttpClient, ACallThatCreatesIsNotSentAgainOnceItMayHaveBeenDone) {
  Rig gateway({status(502, R"({"message":"Server Error"})")});
  auto failed =
      gateway.client.send({.url = gateway.scripted.server.url("/api"), .idempotent = false});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(gateway.scripted.calls, 1u);
  EXPECT_EQ(failed.error().kind, ErrorKind::remote);
  EXPECT_THAT(failed.error().message,
              HasSubstr("(not sent again: it creates, and may have been done)"));

  Rig limited({quota_exhausted(FakeTime().unix_origin + kResetIn)});
  auto retried =
      limited.client.send({.url = limited.scripted.server.url("/api"), .idempotent = false});
  ASSERT_TRUE(retried.ok()) << retried.error().message;
  EXPECT_EQ(limited.scripted.calls, 2u);
}

TEST(HttpClient, RetriesA502WithBackoffThenReturnsTheResponse) {
  Rig rig({status(502, "<html>Bad Gateway</html>")});
  rig.time.jitter = 0.5;
  const auto response = rig.get();
  ASSERT_TRUE(response.ok()) << response.error().describe();
  EXPECT_EQ(response->body, "done");
  EXPECT_EQ(rig.scripted.calls, 2u);
  EXPECT_THAT(rig.time.slept, ElementsAre(0.75)) << "half the first backoff plus half of it x 0.5";
  ASSERT_EQ(rig.time.lines.size(), 2u);
  EXPECT_THAT(rig.time.lines[0], AllOf(HasSubstr("GitHub: GET " + rig.scripted.server.url("/api")),
                                       HasSubstr("attempt 1: 502 ("), HasSubstr(" ms)")));
  EXPECT_THAT(rig.time.lines[1], HasSubstr("attempt 2: 200 ("));
}

TEST(HttpClient, WaitsUntilTheRateLimitResetsThenRetries) {
  Rig rig({quota_exhausted(FakeTime().unix_origin + kResetIn)});
  const auto response = rig.get();
  ASSERT_TRUE(response.ok()) << response.error().describe();
  EXPECT_EQ(rig.scripted.calls, 2u);
  EXPECT_THAT(rig.time.slept, ElementsAre(kResetIn)) << "x-ratelimit-reset, not the backoff";
}

TEST(HttpClient, Honours429RetryAfterAndASecondaryRateLimit) {
  Rig rig({[](httplib::Response& res) {
             res.status = 429;
             res.set_header("Retry-After", "7");
           },
           status(403, R"({"message":"You have exceeded a secondary rate limit."})")});
  const auto response = rig.get();
  ASSERT_TRUE(response.ok()) << response.error().describe();
  EXPECT_EQ(rig.scripted.calls, 3u);
  EXPECT_THAT(rig.time.slept, ElementsAre(7.0, kSecondaryRateLimitWaitSeconds));
}

TEST(HttpClient, AWaitPastTheDeadlineEndsTheCallSayingHowLongGitHubAsked) {
  Rig rig({quota_exhausted(FakeTime().unix_origin + 3600)},
          {.service = "GitHub", .retry = {.deadline_seconds = 120}});
  const auto response = rig.get("/api?per_page=100");
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::remote);
  EXPECT_EQ(response.error().message,
            "GitHub call GET " + rig.scripted.server.url("/api") +
                " failed after 1 attempt: HTTP 403: API rate limit exceeded for installation; "
                "GitHub asked to wait 3600 s (x-ratelimit-reset), which passes the call's 120 s "
                "deadline");
  EXPECT_EQ(rig.scripted.calls, 1u);
  EXPECT_TRUE(rig.time.slept.empty()) << "no wait that cannot end in time";
}

// A search's time left (HttpTimeouts::call) cuts the client's deadline for that call alone.
TEST(HttpClient, ARequestsOwnTimeLimitCutsTheDeadlineForThatCall) {
  Rig rig({quota_exhausted(FakeTime().unix_origin + kResetIn)},
          {.service = "GitHub", .retry = {.deadline_seconds = 3600}});
  auto cut = rig.client.send({.url = rig.scripted.server.url("/api"),
                              .timeouts = {.call = std::chrono::milliseconds(2'000)}});
  ASSERT_FALSE(cut.ok());
  EXPECT_THAT(cut.error().message, HasSubstr("which passes the call's 2 s deadline"));
  EXPECT_TRUE(rig.time.slept.empty()) << "no wait that cannot end in time";
  auto whole = rig.client.send({.url = rig.scripted.server.url("/api")});
  ASSERT_TRUE(whole.ok()) << "without it, the client's deadline holds: "
                          << whole.error().describe();
}

TEST(HttpClient, StopsAfterTheMostAttemptsAndSaysSo) {
  Rig rig({status(503), status(503), status(503)},
          {.service = "GitHub", .retry = {.max_attempts = 3}});
  const auto response = rig.get();
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::remote);
  EXPECT_THAT(response.error().message,
              HasSubstr("failed after 3 attempts: HTTP 503 (at most 3 attempts)"));
  EXPECT_EQ(rig.scripted.calls, 3u);
  EXPECT_THAT(rig.time.slept, ElementsAre(0.5, 1.0)) << "backoff doubles; jitter 0";
}

TEST(HttpClient, DoesNotRetryAClientError) {
  for (int code : {404, 422, 401}) {
    Rig rig({status(code, R"({"message":"Validation Failed","errors":[]})")});
    const auto response = rig.get();
    ASSERT_FALSE(response.ok()) << code;
    EXPECT_EQ(rig.scripted.calls, 1u) << code;
    EXPECT_THAT(response.error().message, HasSubstr("failed after 1 attempt: HTTP " +
                                                    std::to_string(code) + ": Validation Failed"));
    EXPECT_TRUE(rig.time.slept.empty());
  }
}

TEST(HttpClient, AnAcceptedStatusIsAnAnswerNotAnError) {
  Rig rig({status(404, R"({"message":"Not Found"})")});
  const int accepted[] = {404};
  const auto response = rig.client.send({.url = rig.scripted.server.url("/api")}, accepted);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 404);
}

TEST(HttpClient, ATokenNeverReachesTheLogOrTheError) {
  const std::string token = "ghp_SeCrEt0123456789";
  Rig rig({status(422, R"({"message":"token ghp_SeCrEt0123456789 is not valid"})")},
          {.service = "GitHub", .secrets = {"configured-secret"}});
  const auto response = rig.get("/api?access_token=" + token + "&k=configured-secret",
                                {{"Authorization", "Bearer " + token}});
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message,
              AllOf(HasSubstr("HTTP 422: token *** is not valid"), Not(HasSubstr(token)),
                    Not(HasSubstr("configured-secret"))));
  ASSERT_EQ(rig.time.lines.size(), 1u);
  EXPECT_THAT(rig.time.lines[0], AllOf(Not(HasSubstr(token)), Not(HasSubstr("access_token")),
                                       Not(HasSubstr("configured-secret"))));
}

TEST(HttpClient, RetriesARefusedConnectionThenNamesTheFailure) {
  RefusingPort port;
  FakeTime time;
  CurlTransport transport;
  HttpClient client(transport, time.services(),
                    {.service = "the LLM API", .retry = {.max_attempts = 2}});
  const auto response = client.send({.method = HttpMethod::post, .url = port.url("/v1/chat")});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::remote);
  EXPECT_THAT(response.error().message, HasSubstr("the LLM API call POST " + port.url("/v1/chat") +
                                                  " failed after 2 attempts: connect: "));
  EXPECT_EQ(time.lines.size(), 2u);
}

TEST(HttpClient, ATimeoutIsRetriedAndEachAttemptKeepsToTheDeadline) {
  std::atomic<int> calls = 0;
  LoopbackServer server([&](httplib::Server& s) {
    s.Get("/slow", [&](const httplib::Request&, httplib::Response& res) {
      if (calls++ == 0) server.nap(std::chrono::milliseconds(2000));
      res.set_content("in time", "text/plain");
    });
  });
  FakeTime time;
  CurlTransport transport;
  HttpClient client(transport, time.services());
  const auto response = client.send(
      {.url = server.url("/slow"), .timeouts = {.total = std::chrono::milliseconds(300)}});
  ASSERT_TRUE(response.ok()) << response.error().describe();
  EXPECT_EQ(response->body, "in time");
  EXPECT_THAT(time.lines[0], HasSubstr("attempt 1: timeout: "));
}

TEST(HttpClient, AMalformedUrlIsAUsageErrorNotRetried) {
  FakeTime time;
  CurlTransport transport;
  HttpClient client(transport, time.services());
  const auto response = client.send({.url = "ftp://example.invalid/x"});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::usage);
  EXPECT_EQ(time.lines.size(), 1u);
}

}  // namespace
}  // namespace kblaster
