// The event payloads the tests build (support/webhook_payloads.h) are valid by GitHub's
// own webhook schemas (@octokit/openapi-webhooks), checked with python3's jsonschema.
#include "support/webhook_payloads.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "github/event_payload.h"
#include "gpu/subprocess.h"
#include "support/prism_proxy.h"
#include "test_paths.h"

namespace kblaster::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const std::filesystem::path kSchemas =
    "tools/github-api/node_modules/@octokit/openapi-webhooks/"
    "generated/api.github.com.json";

class WebhookPayloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::filesystem::exists(source_dir() / kSchemas)) return;
    const std::string why = (source_dir() / kSchemas).string() +
                            " is missing (scripts/setup.sh --deps-only runs npm ci there)";
    if (prism_required()) GTEST_FAIL() << "KBLASTER_REQUIRE_PRISM=1: " << why;
    GTEST_SKIP() << why;
  }

  // Success when `payload` is valid as the webhook `name` ("push", "pull-request-opened").
  ::testing::AssertionResult matches_schema(const json& payload, const std::string& name) {
    const auto file = dir.write("payload.json", payload.dump(2));
    auto run = run_process({"python3", (source_dir() / "tests/github/validate_webhook.py").string(),
                            (source_dir() / kSchemas).string(), name, file.string()});
    if (!run) return ::testing::AssertionFailure() << run.error().message;
    if (run->exit_code == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "exit " << run->exit_code << ": " << run->output;
  }

  TempDir dir;
  GitHubSite site;
  PullFacts pull{.number = 42, .base_sha = std::string(40, 'a'), .head_sha = std::string(40, 'b')};
};

TEST_F(WebhookPayloadTest, PullRequestOpenedMatchesItsSchemaAndParses) {
  const json event = pull_request_event(site, pull, PullRequestAction::opened);
  EXPECT_TRUE(matches_schema(event, webhook_name(PullRequestAction::opened)));
  auto revisions = parse_event("pull_request", event.dump(), "event.json");
  ASSERT_TRUE(revisions.ok()) << revisions.error().describe();
  EXPECT_EQ(revisions->base, pull.base_sha);
  EXPECT_EQ(revisions->head, pull.head_sha);
  EXPECT_FALSE(revisions->from_fork);
}

TEST_F(WebhookPayloadTest, PullRequestSynchronizeFromAForkMatchesItsSchema) {
  RepositoryFacts fork;
  fork.owner = {.login = "mallory"};
  pull.head_repo = fork;
  const json event =
      pull_request_event(site, pull, PullRequestAction::synchronize, std::string(40, 'c'));
  EXPECT_TRUE(matches_schema(event, webhook_name(PullRequestAction::synchronize)));
  EXPECT_EQ(event["pull_request"]["head"]["repo"]["full_name"], "mallory/kernels");
  auto revisions = parse_event("pull_request", event.dump(), "event.json");
  ASSERT_TRUE(revisions.ok()) << revisions.error().describe();
  EXPECT_TRUE(revisions->from_fork);
}

TEST_F(WebhookPayloadTest, PushesMatchTheirSchema) {
  PushFacts push;
  push.before = std::string(40, '1');
  push.after = std::string(40, '3');
  push.commits = {
      {.id = std::string(40, '2'),
       .tree_id = std::string(40, 'e'),
       .modified = {"kernels/softmax.cu"}},
      {.id = std::string(40, '3'), .tree_id = std::string(40, 'f'), .added = {"kernels/gelu.cu"}}};
  EXPECT_TRUE(matches_schema(push_event(site, push), "push"));

  push.ref = "refs/heads/kblaster/softmax";
  push.before = std::string(40, '0');
  const json created = push_event(site, push);
  EXPECT_TRUE(created["created"]);
  EXPECT_TRUE(matches_schema(created, "push"));
}

TEST_F(WebhookPayloadTest, TheValidatorCatchesAMissingRequiredField) {
  json event = pull_request_event(site, pull, PullRequestAction::opened);
  event["pull_request"]["head"].erase("sha");
  event["repository"]["owner"].erase("login");
  const auto result = matches_schema(event, webhook_name(PullRequestAction::opened));
  EXPECT_FALSE(result);
  EXPECT_THAT(result.message(), HasSubstr("pull_request/head: 'sha' is a required property"));
  EXPECT_THAT(result.message(), HasSubstr("repository/owner: 'login' is a required property"));
}

}  // namespace
}  // namespace kblaster::testing
