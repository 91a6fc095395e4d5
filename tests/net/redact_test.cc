// Tokens kept out of logs and errors, and the names calls go by there.
#include "net/redact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "net/call_outcome.h"

namespace kblaster {
namespace {

using ::testing::UnorderedElementsAre;

const std::string kToken = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";

TEST(Redact, ReplacesATokenInAQueryAHeaderAndAnEchoedBody) {
  const std::vector<std::string> secrets = {kToken};
  EXPECT_EQ(redact("GET https://api.github.com/user?access_token=" + kToken + "&x=1", secrets),
            "GET https://api.github.com/user?access_token=***&x=1");
  EXPECT_EQ(redact("Authorization: token " + kToken + "\r\n", secrets),
            "Authorization: token ***\r\n");
  EXPECT_EQ(redact(R"({"message":"bad credentials )" + kToken + kToken + R"("})", secrets),
            R"({"message":"bad credentials ******"})");
  EXPECT_EQ(redact("nothing secret", secrets), "nothing secret");
  EXPECT_EQ(redact("a b", std::vector<std::string>{""}), "a b") << "an empty secret is no secret";
}

TEST(Redact, ALongerSecretGoesWholeBeforeOneItContains) {
  const std::vector<std::string> secrets = {"abc", "abcdef"};
  EXPECT_EQ(redact("xabcdefx abc", secrets), "x***x ***");
}

TEST(Redact, ACallsSecretsAreItsCredentialHeadersAndTheConfiguredOnes) {
  const HttpRequest request{.headers = {{"authorization", "Bearer " + kToken},
                                        {"x-api-key", "sk-ant-1"},
                                        {"Accept", "application/json"}}};
  const std::vector<std::string> configured = {"webhook-secret"};
  EXPECT_THAT(call_secrets(request, configured),
              UnorderedElementsAre("webhook-secret", "Bearer " + kToken, kToken, "sk-ant-1"));
}

TEST(CallName, DropsTheQueryTheFragmentAndUserInformation) {
  EXPECT_EQ(call_name({.method = HttpMethod::patch,
                       .url = "https://user:" + kToken +
                              "@api.github.com/repos/o/r?token=" + kToken + "#f"}),
            "PATCH https://api.github.com/repos/o/r");
  EXPECT_EQ(url_for_logs("http://127.0.0.1:8080/a@b?c"), "http://127.0.0.1:8080/a@b");
}

TEST(HttpHeaders, LooksUpAnyCaseAndSetReplacesEveryField) {
  HttpHeaders headers{{"Retry-After", "3"}, {"retry-after", "4"}};
  EXPECT_EQ(headers.find("RETRY-AFTER"), "3");
  headers.set("Retry-after", "5");
  EXPECT_EQ(headers.fields().size(), 1u);
  EXPECT_EQ(headers.find("retry-after"), "5");
}

TEST(ServiceMessage, ReadsGitHubsAndLlmApisErrorBodies) {
  EXPECT_EQ(service_message(R"({"message":"Not Found","documentation_url":"x"})"), "Not Found");
  EXPECT_EQ(service_message(R"({"error":{"message":"Incorrect API key","type":"x"}})"),
            "Incorrect API key");
  EXPECT_EQ(service_message(
                R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
            "Overloaded");
  EXPECT_EQ(service_message(R"({"error":"model not found"})"), "model not found");
  EXPECT_FALSE(service_message("<html>502 Bad Gateway</html>"));
  EXPECT_FALSE(service_message(R"({"message":42})"));
  EXPECT_FALSE(service_message(R"(["message"])"));
}

TEST(DescribeOutcome, RedactsBeforeCuttingABodyShort) {
  const std::string body = std::string(190, '.') + kToken;  // the cut falls inside the token
  const std::vector<std::string> secrets = {kToken};
  const std::string text = describe_outcome(HttpResponse{.status = 500, .body = body}, secrets);
  EXPECT_EQ(text, "HTTP 500: `" + std::string(190, '.') + "***`");
  EXPECT_EQ(describe_outcome(TransportError{TransportFailure::timeout, "after 300 ms"}, secrets),
            "timeout: after 300 ms");
}

}  // namespace
}  // namespace kblaster
