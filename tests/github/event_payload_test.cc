#include "github/event_payload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/webhook_payloads.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::GitHubSite;
using testing::pull_request_event;
using testing::PullFacts;
using testing::PullRequestAction;
using testing::push_event;
using testing::PushFacts;
using testing::RepositoryFacts;

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Built to GitHub's webhook schemas (support/webhook_payloads.h, checked against them in
// webhook_payloads_test.cc), with a merge commit sha that must not be mistaken for a side.
std::string pull_request_payload(const PullFacts& pull) {
  json event =
      pull_request_event(GitHubSite(), pull, PullRequestAction::synchronize, std::string(40, 'd'));
  event["pull_request"]["merge_commit_sha"] = std::string(40, 'c');
  return event.dump();
}

PullFacts sample_pull() {
  PullFacts pull;
  pull.number = 42;
  pull.base_sha = std::string(40, 'a');
  pull.head_sha = std::string(40, 'b');
  return pull;
}

const std::string kPullRequest = pull_request_payload(sample_pull());

TEST(EventPayload, PullRequestComparesBaseShaWithHeadShaNotTheMergeCommit) {
  auto r = parse_event("pull_request", kPullRequest, "event.json");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->base, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  EXPECT_EQ(r->head, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
  EXPECT_FALSE(r->from_fork);
}

TEST(EventPayload, PullRequestFromAForkIsMarked) {
  PullFacts pull = sample_pull();
  RepositoryFacts fork;
  fork.owner = {.login = "mallory"};
  pull.head_repo = fork;
  auto r = parse_event("pull_request_target", pull_request_payload(pull), "event.json");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->from_fork);
}

TEST(EventPayload, PushComparesBeforeWithAfter) {
  PushFacts push;
  push.before = std::string(40, '1');
  push.after = std::string(40, '2');
  push.commits = {{.id = push.after, .tree_id = std::string(40, 'e')}};
  auto r = parse_event("push", push_event(GitHubSite(), push).dump(), "event.json");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->base, "1111111111111111111111111111111111111111");
  EXPECT_EQ(r->head, "2222222222222222222222222222222222222222");
}

TEST(EventPayload, PushThatCreatesABranchHasNoBase) {
  auto r = parse_event("push", R"({"before":"0000000000000000000000000000000000000000",
                                   "after":"2222222222222222222222222222222222222222"})",
                       "event.json");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_FALSE(r->base.has_value());
}

TEST(EventPayload, BadPayloadsNameTheFileAndField) {
  auto missing = parse_event("pull_request", R"({"pull_request":{"base":{}}})", "/tmp/event.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "/tmp/event.json: the event payload has no `pull_request.base.sha`");
  EXPECT_EQ(missing.error().kind, ErrorKind::usage);

  auto not_json = parse_event("push", "{not json", "/tmp/event.json");
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.error().message, "/tmp/event.json: the event payload is not valid JSON");

  auto wrong_type = parse_event("push", R"({"before": 3, "after": "x"})", "/tmp/event.json");
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.error().message, "/tmp/event.json: `before` is not a string");
}

TEST(EventPayload, ShaFieldsMustBeObjectIdsNotRevisionExpressions) {
  const std::string after = "2222222222222222222222222222222222222222";
  for (const std::string& before :
       std::vector<std::string>{":/fix the bug", "HEAD@{1}", "main", "HEAD~1", "1111111",
                                std::string(40, 'g'), std::string(41, '1'), std::string()}) {
    auto r = parse_event("push", R"({"before":")" + before + R"(","after":")" + after + R"("})",
                         "event.json");
    ASSERT_FALSE(r.ok()) << before;
    EXPECT_EQ(r.error().kind, ErrorKind::usage);
    EXPECT_THAT(r.error().message,
                StartsWith("event.json: `before` is `" + before + "`, not an object id"));
  }
  PullFacts pull = sample_pull();
  pull.head_sha = "HEAD@{1}";
  auto pr = parse_event("pull_request", pull_request_payload(pull), "event.json");
  ASSERT_FALSE(pr.ok());
  EXPECT_THAT(pr.error().message,
              HasSubstr("`pull_request.head.sha` is `HEAD@{1}`, not an object id"));
}

TEST(EventPayload, Sha256ObjectIdsAreAccepted) {
  const std::string before(64, 'a'), after(64, 'b');
  auto r = parse_event("push", R"({"before":")" + before + R"(","after":")" + after + R"("})",
                       "event.json");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->base, before);
  EXPECT_EQ(r->head, after);
}

TEST(EventPayload, OtherEventsAskForExplicitRevisions) {
  auto r = parse_event("workflow_dispatch", "{}", "event.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--base and --head"), std::string::npos);
}

}  // namespace
}  // namespace kblaster
