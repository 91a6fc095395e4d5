// Prism between a client and the loopback GitHub: a request GitHub's OpenAPI description
// allows is forwarded, one it rejects is a violation that fails the test, and every
// answer the fake gives passes the description too.
#include "support/prism_proxy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "support/github_through_prism.h"
#include "support/raw_github_client.h"

namespace kblaster::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

const std::string kRepo = "/repos/acme/kernels";

class PrismProxyTest : public GitHubThroughPrism {
 protected:
  void SetUp() override {
    GitHubThroughPrism::SetUp();
    if (!prism) return;
    client = std::make_unique<RawGitHubClient>(api_url(), github.options().token);
    head_sha = github.push_commit("faster-softmax", {{"kernels/softmax.cu", "v2"}});
    pull = github.open_pull("faster-softmax");
  }
  std::unique_ptr<RawGitHubClient> client;
  std::string head_sha;
  int pull = 0;
};

TEST_F(PrismProxyTest, AValidRequestIsForwardedAndAnswered) {
  RawReply created =
      client->post(kRepo + "/issues/" + std::to_string(pull) + "/comments", {{"body", "hello"}});
  ASSERT_EQ(created.status, 201) << created.text;
  EXPECT_EQ(created.body["body"], "hello");
  ASSERT_THAT(github.comments(pull), SizeIs(1));
  EXPECT_EQ(github.requests().back().header("authorization"), "Bearer " + github.options().token);
  std::cerr << "Prism came up in " << prism->startup_seconds() << " s\n";
}

TEST_F(PrismProxyTest, ARequestWithoutARequiredFieldIsAViolationAndNeverReachesGitHub) {
  RawReply rejected = client->post(kRepo + "/check-runs", {{"name", "kblaster"}});
  EXPECT_EQ(rejected.status, 422);
  const auto violations = prism->take_violations();
  ASSERT_THAT(violations, SizeIs(1));
  EXPECT_EQ(violations[0].request, "POST " + kRepo + "/check-runs");
  EXPECT_EQ(violations[0].kind, "UNPROCESSABLE_ENTITY");
  EXPECT_THAT(violations[0].detail, HasSubstr("must have required property 'head_sha'"));
  for (const auto& r : github.requests()) EXPECT_NE(r.method, "POST") << r.path;
}

TEST_F(PrismProxyTest, ABodyOfTheWrongTypeIsAViolation) {
  const std::int64_t id = github.add_comment(pull, "old", actions_bot());
  RawReply rejected =
      client->patch(kRepo + "/issues/comments/" + std::to_string(id), {{"body", 5}});
  EXPECT_EQ(rejected.status, 422);
  const auto violations = prism->take_violations();
  ASSERT_THAT(violations, SizeIs(1));
  EXPECT_THAT(violations[0].detail,
              HasSubstr("body.body: Request body property body must be string"));
  EXPECT_EQ(github.comments(pull)[0].body, "old");
}

TEST_F(PrismProxyTest, AnOperationOutsideTheDescribedPathsIsAViolation) {
  client->get(kRepo + "/actions/runs");
  const auto violations = prism->take_violations();
  ASSERT_THAT(violations, SizeIs(1)) << "add its path to described_github_paths()";
  EXPECT_EQ(violations[0].kind, "NO_PATH_MATCHED_ERROR");
}

// Every route of the fake, as kblaster's publisher will call them: Prism finds nothing
// wrong in the requests or in the answers (TearDown fails the test otherwise).
TEST_F(PrismProxyTest, EveryAnswerOfTheFakeMatchesTheDescription) {
  const std::string number = std::to_string(pull);
  EXPECT_EQ(client->get(kRepo).status, 200);
  EXPECT_EQ(client->get(kRepo + "/pulls/" + number).status, 200);
  EXPECT_EQ(client->get(kRepo + "/pulls?head=acme:faster-softmax&state=open").status, 200);
  for (int i = 0; i < 3; ++i) github.add_comment(pull, "comment " + std::to_string(i), {});
  RawReply page = client->get(kRepo + "/issues/" + number + "/comments?per_page=2");
  EXPECT_EQ(page.status, 200);
  EXPECT_THAT(page.header("link"), HasSubstr(std::string("<") + api_url() + kRepo))
      << "links lead to Prism";
  RawReply comment = client->post(kRepo + "/issues/" + number + "/comments", {{"body", "b"}});
  EXPECT_EQ(comment.status, 201);
  EXPECT_EQ(client
                ->patch(kRepo + "/issues/comments/" +
                            std::to_string(comment.body["id"].get<std::int64_t>()),
                        {{"body", "c"}})
                .status,
            200);
  EXPECT_EQ(
      client->post(kRepo + "/issues/" + number + "/labels", {{"labels", {"kblaster"}}}).status,
      200);

  RawReply run = client->post(kRepo + "/check-runs", {{"name", "kblaster"},
                                                      {"head_sha", head_sha},
                                                      {"status", "in_progress"},
                                                      {"output",
                                                       {{"title", "t"},
                                                        {"summary", "s"},
                                                        {"annotations",
                                                         {{{"path", "kernels/softmax.cu"},
                                                           {"start_line", 1},
                                                           {"end_line", 1},
                                                           {"annotation_level", "failure"},
                                                           {"message", "slower"},
                                                           {"title", "softmax"}}}}}}});
  ASSERT_EQ(run.status, 201) << run.text;
  const std::string run_path = kRepo + "/check-runs/" + std::to_string(run.body["id"].get<int>());
  EXPECT_EQ(client->patch(run_path, {{"status", "completed"}, {"conclusion", "failure"}}).status,
            200);
  EXPECT_EQ(client->get(run_path + "/annotations").status, 200);
  EXPECT_EQ(client->get(kRepo + "/commits/" + head_sha + "/check-runs").status, 200);

  const std::string base = *github.ref_sha("heads/main");
  // Prism matches {ref} as one path segment: the slash is sent as %2F, as Octokit does.
  EXPECT_EQ(client->get(kRepo + "/git/ref/heads%2Fmain").status, 200);
  // A tree entry may carry its content instead of a blob's sha.
  RawReply tree = client->post(kRepo + "/git/trees", {{"base_tree", github.commit(base)->tree},
                                                      {"tree",
                                                       {{{"path", "kernels/softmax.cu"},
                                                         {"mode", "100644"},
                                                         {"type", "blob"},
                                                         {"content", "faster"}}}}});
  ASSERT_EQ(tree.status, 201) << tree.text;
  RawReply commit =
      client->post(kRepo + "/git/commits",
                   {{"message", "faster"}, {"tree", tree.body["sha"]}, {"parents", {base}}});
  ASSERT_EQ(commit.status, 201) << commit.text;
  EXPECT_EQ(client
                ->post(kRepo + "/git/refs",
                       {{"ref", "refs/heads/kblaster/softmax"}, {"sha", commit.body["sha"]}})
                .status,
            201);
  EXPECT_EQ(client
                ->patch(kRepo + "/git/refs/heads%2Fkblaster%2Fsoftmax",
                        {{"sha", commit.body["sha"]}, {"force", true}})
                .status,
            200);
  RawReply opened = client->post(kRepo + "/pulls", {{"title", "kblaster: softmax"},
                                                    {"head", "kblaster/softmax"},
                                                    {"base", "main"},
                                                    {"body", "1.4x"}});
  ASSERT_EQ(opened.status, 201) << opened.text;
  RawReply again = client->post(
      kRepo + "/pulls",
      {{"title", "kblaster: softmax"}, {"head", "kblaster/softmax"}, {"base", "main"}});
  EXPECT_EQ(again.status, 422) << "GitHub's own 422 passes: the description lists it";
  EXPECT_EQ(client
                ->patch(kRepo + "/pulls/" + std::to_string(opened.body["number"].get<int>()),
                        {{"body", "1.5x"}})
                .status,
            200);
  EXPECT_EQ(
      client
          ->post(kRepo + "/pulls/" + number + "/reviews",
                 {{"event", "COMMENT"},
                  {"body", "measured 1.02x"},
                  {"comments", {{{"path", "kernels/softmax.cu"}, {"line", 1}, {"body", "here"}}}}})
          .status,
      200);
  EXPECT_EQ(client->get(kRepo + "/pulls/" + number + "/reviews").status, 200);
  EXPECT_THAT(prism->warnings(), IsEmpty());
}

TEST_F(PrismProxyTest, InjectedFailuresPassThroughWithTheirHeaders) {
  github.inject({.kind = FaultKind::bad_gateway});
  github.inject({.kind = FaultKind::primary_rate_limit, .on_call = 2, .wait_seconds = 30});
  github.inject({.kind = FaultKind::secondary_rate_limit, .on_call = 3, .wait_seconds = 4});
  EXPECT_EQ(client->get(kRepo).status, 502);
  RawReply primary = client->get(kRepo);
  EXPECT_EQ(primary.status, 403);
  EXPECT_EQ(primary.header("x-ratelimit-remaining"), "0");
  RawReply secondary = client->get(kRepo);
  EXPECT_EQ(secondary.status, 403);
  EXPECT_EQ(secondary.header("retry-after"), "4");
  EXPECT_EQ(client->get(kRepo).status, 200);
  // The description lists no 502 for this operation: Prism says so, as a warning only.
  EXPECT_THAT(prism->warnings(), SizeIs(1));
}

}  // namespace
}  // namespace kblaster::testing
