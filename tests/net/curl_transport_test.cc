// CurlTransport against a real HTTP server on loopback: methods, bodies and headers both
// ways, connection reuse, timeouts, refused connections, and what it will not send.
#include "net/curl_transport.h"

#include <gtest/gtest.h>

#include <chrono>

#include "net/loopback_server.h"

namespace kblaster {
namespace {

using std::chrono::milliseconds;
using testing::LoopbackServer;
using testing::RefusingPort;

// The response of a delivery that must have one.
const HttpResponse& response_of(const Delivery& delivery) {
  if (const auto* error = std::get_if<TransportError>(&delivery))
    ADD_FAILURE() << "no response: " << describe(*error);
  static const HttpResponse none;
  const auto* response = std::get_if<HttpResponse>(&delivery);
  return response ? *response : none;
}

// The failure of a delivery that must have failed; a response there is a test failure.
TransportError error_of(const Delivery& delivery) {
  if (const auto* error = std::get_if<TransportError>(&delivery)) return *error;
  ADD_FAILURE() << "a response came: HTTP " << std::get<HttpResponse>(delivery).status;
  return {TransportFailure::exchange, "(a response came)"};
}

// Echoes a request as "METHOD content-type body"; its port answers which connection came.
void echo_routes(httplib::Server& server) {
  auto echo = [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Echo-Method", req.method);
    res.set_content(req.method + " " + req.get_header_value("Content-Type") + " " + req.body,
                    "text/plain");
  };
  server.Post("/echo", echo);
  server.Patch("/echo", echo);
  server.Put("/echo", echo);
  server.Delete("/echo", echo);
  server.Get("/headers", [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-RateLimit-Remaining", "41");
    res.set_content(req.get_header_value("Authorization") + "|" +
                        req.get_header_value("User-Agent") + "|" + req.get_header_value("Accept"),
                    "text/plain");
  });
  server.Get("/port", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(std::to_string(req.remote_port), "text/plain");
  });
  server.Get("/moved", [](const httplib::Request&, httplib::Response& res) {
    res.set_redirect("/headers", 302);
  });
}

TEST(CurlTransport, SendsHeadersAndReadsResponseHeadersInAnyCase) {
  LoopbackServer server(echo_routes);
  CurlTransport transport;
  const auto delivery = transport.send(
      {.url = server.url("/headers"),
       .headers = {{"Authorization", "Bearer t0k"}, {"Accept", "application/vnd.github+json"}}});
  const HttpResponse& response = response_of(delivery);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, "Bearer t0k|kblaster|application/vnd.github+json");
  EXPECT_EQ(response.headers.find("x-ratelimit-remaining"), "41");
  EXPECT_EQ(response.headers.find("X-RATELIMIT-REMAINING"), "41");
  EXPECT_FALSE(response.headers.find("x-absent"));
}

TEST(CurlTransport, PostPatchPutAndDeleteCarryTheirBodies) {
  LoopbackServer server(echo_routes);
  CurlTransport transport;
  auto echo = [&](HttpMethod method, HttpHeaders headers, std::string body) {
    return response_of(transport.send({.method = method,
                                       .url = server.url("/echo"),
                                       .headers = std::move(headers),
                                       .body = std::move(body)}))
        .body;
  };
  const HttpHeaders json{{"Content-Type", "application/json"}};
  EXPECT_EQ(echo(HttpMethod::post, json, R"({"body":"hi"})"),
            R"(POST application/json {"body":"hi"})");
  EXPECT_EQ(echo(HttpMethod::patch, json, R"({"state":"closed"})"),
            R"(PATCH application/json {"state":"closed"})");
  const std::string big(100'000, 'x');  // past curl's 1 KiB Expect: 100-continue threshold
  EXPECT_EQ(echo(HttpMethod::put, {}, big), "PUT  " + big)
      << "a body without a Content-Type is sent without one, not as a form";
  const auto deleted = transport.send({.method = HttpMethod::delete_, .url = server.url("/echo")});
  EXPECT_EQ(response_of(deleted).headers.find("x-echo-method"), "DELETE");
}

TEST(CurlTransport, ReusesOneConnectionPerHost) {
  LoopbackServer server(echo_routes);
  CurlTransport transport;
  const std::string first = response_of(transport.send({.url = server.url("/port")})).body;
  const std::string second = response_of(transport.send({.url = server.url("/port")})).body;
  EXPECT_EQ(first, second) << "the second call came from the same client port: one connection";
  CurlTransport other;
  EXPECT_NE(response_of(other.send({.url = server.url("/port")})).body, first)
      << "another transport opens its own connection, so the check above can fail";
}

TEST(CurlTransport, ReturnsARedirectInsteadOfFollowingIt) {
  LoopbackServer server(echo_routes);
  CurlTransport transport;
  const HttpResponse response = response_of(transport.send({.url = server.url("/moved")}));
  EXPECT_EQ(response.status, 302);
  EXPECT_EQ(response.headers.find("location"), "/headers");
}

TEST(CurlTransport, TimesOutASlowServerWithinTheTotalTimeout) {
  LoopbackServer server([&](httplib::Server& s) {
    s.Get("/slow", [&](const httplib::Request&, httplib::Response& res) {
      server.nap(milliseconds(2000));
      res.set_content("late", "text/plain");
    });
  });
  CurlTransport transport;
  const auto start = std::chrono::steady_clock::now();
  const auto delivery =
      transport.send({.url = server.url("/slow"), .timeouts = {.total = milliseconds(300)}});
  const auto took = std::chrono::steady_clock::now() - start;
  const TransportError error = error_of(delivery);
  EXPECT_EQ(error.failure, TransportFailure::timeout) << describe(error);
  EXPECT_GE(took, milliseconds(250));
  EXPECT_LT(took, milliseconds(1500));
}

TEST(CurlTransport, AConnectionRefusedIsAConnectFailure) {
  RefusingPort port;
  CurlTransport transport;
  const TransportError error = error_of(transport.send({.url = port.url("/")}));
  EXPECT_EQ(error.failure, TransportFailure::connect) << describe(error);
  EXPECT_TRUE(is_retryable(error.failure));
}

TEST(CurlTransport, AResponseLargerThanTheBoundIsRefused) {
  LoopbackServer server([](httplib::Server& s) {
    s.Get("/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(64 * 1024, 'b'), "application/octet-stream");
    });
  });
  CurlTransport transport({.max_response_bytes = 4096});
  const TransportError error = error_of(transport.send({.url = server.url("/big")}));
  EXPECT_EQ(error.failure, TransportFailure::too_large) << describe(error);
  EXPECT_FALSE(is_retryable(error.failure));
}

TEST(CurlTransport, RefusesRequestsItCannotSendFaithfully) {
  CurlTransport transport;
  auto failure_of = [&](const HttpRequest& request) {
    return error_of(transport.send(request)).failure;
  };
  EXPECT_EQ(failure_of({.url = "http://127.0.0.1:1/x", .headers = {{"X-A", "1\r\nX-B: 2"}}}),
            TransportFailure::setup)
      << "a line break in a header would inject another header";
  EXPECT_EQ(failure_of({.url = "http://127.0.0.1:1/x", .body = "data"}), TransportFailure::setup)
      << "a GET carries no body";
  EXPECT_EQ(failure_of({.url = "ftp://127.0.0.1/x"}), TransportFailure::setup);
  EXPECT_EQ(failure_of({.url = "not a url"}), TransportFailure::setup);
}

}  // namespace
}  // namespace kblaster
