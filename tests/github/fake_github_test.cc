// The loopback GitHub (support/fake_github.h) keeps state, pages as GitHub does, and
// fails on cue; a client tested against it is tested against these behaviours.
#include "support/fake_github.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ctime>
#include <regex>
#include <thread>

#include "support/raw_github_client.h"

namespace kblaster::testing {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kRepo = "/repos/acme/kernels";

class FakeGitHubTest : public ::testing::Test {
 protected:
  FakeGitHubTest() : client(github.url(), github.options().token) {
    pull = github.open_pull("faster-softmax");
  }
  // The pull request's head branch, made before the fixture opens it.
  FakeGitHub github;
  const std::string head_sha = github.push_commit("faster-softmax", {{"kernels/softmax.cu", "v2"}});
  RawGitHubClient client;
  int pull = 0;
};

// The URL of the rel="next" link, without the server's root; "" when there is none.
std::string next_link(const RawReply& r, const std::string& root) {
  std::smatch m;
  const std::string link = r.header("link");
  if (!std::regex_search(link, m, std::regex("<([^>]*)>; rel=\"next\""))) return "";
  return m[1].str().substr(root.size());
}

TEST_F(FakeGitHubTest, ListsCommentsInPagesThatLinkToTheNextAndTheLast) {
  for (int i = 0; i < 70; ++i) github.add_comment(pull, "comment " + std::to_string(i), {});
  const std::string first = kRepo + "/issues/" + std::to_string(pull) + "/comments?per_page=30";

  RawReply page = client.get(first);
  ASSERT_EQ(page.status, 200) << page.text;
  EXPECT_EQ(page.body.size(), 30u);
  EXPECT_THAT(page.header("link"), HasSubstr("page=2>; rel=\"next\""));
  EXPECT_THAT(page.header("link"), HasSubstr("page=3>; rel=\"last\""));

  std::vector<std::string> bodies;
  int pages = 0;
  for (std::string path = first; !path.empty(); path = next_link(page, github.url())) {
    page = client.get(path);
    ASSERT_EQ(page.status, 200) << path;
    for (const auto& c : page.body) bodies.push_back(c["body"]);
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  ASSERT_EQ(bodies.size(), 70u);
  EXPECT_EQ(bodies.front(), "comment 0");
  EXPECT_EQ(bodies.back(), "comment 69");
  EXPECT_THAT(page.header("link"), HasSubstr("rel=\"prev\""));
  EXPECT_THAT(page.header("link"), HasSubstr("page=1>; rel=\"first\""));
  EXPECT_THAT(page.header("link"), ::testing::Not(HasSubstr("rel=\"next\"")));
}

TEST_F(FakeGitHubTest, CreatesAndEditsACommentAsTheActionsBot) {
  const std::string comments = kRepo + "/issues/" + std::to_string(pull) + "/comments";
  RawReply created = client.post(comments, {{"body", "<!-- kblaster -->\nfirst"}});
  ASSERT_EQ(created.status, 201) << created.text;
  EXPECT_EQ(created.body["user"]["login"], "github-actions[bot]");
  EXPECT_EQ(created.body["user"]["type"], "Bot");
  EXPECT_EQ(created.header("content-type"), "application/json; charset=utf-8");

  const std::string id = std::to_string(created.body["id"].get<std::int64_t>());
  RawReply edited = client.patch(kRepo + "/issues/comments/" + id, {{"body", "second"}});
  ASSERT_EQ(edited.status, 200) << edited.text;
  EXPECT_GT(edited.body["updated_at"].get<std::string>(), edited.body["created_at"]);
  ASSERT_EQ(github.comments(pull).size(), 1u);
  EXPECT_EQ(github.comments(pull)[0].body, "second");

  EXPECT_EQ(client.post(comments, json::object()).status, 422);
  RawReply too_long = client.post(comments, {{"body", std::string(65537, 'x')}});
  EXPECT_EQ(too_long.status, 422);
  EXPECT_THAT(too_long.body["errors"][0]["message"].get<std::string>(), HasSubstr("too long"));
  EXPECT_EQ(client.patch(kRepo + "/issues/comments/999999", {{"body", "x"}}).status, 404);
  EXPECT_EQ(client.get(kRepo + "/issues/99/comments").status, 404);
}

json annotations(int from, int count) {
  json out = json::array();
  for (int i = from; i < from + count; ++i)
    out.push_back({{"path", "kernels/softmax.cu"},
                   {"start_line", i + 1},
                   {"end_line", i + 1},
                   {"annotation_level", "warning"},
                   {"message", "slower " + std::to_string(i)}});
  return out;
}

TEST_F(FakeGitHubTest, KeepsEveryAnnotationOfACheckRunAcrossBatchesOfAtMost50) {
  RawReply run = client.post(
      kRepo + "/check-runs",
      {{"name", "kblaster"},
       {"head_sha", head_sha},
       {"status", "in_progress"},
       {"output", {{"title", "t"}, {"summary", "s"}, {"annotations", annotations(0, 50)}}}});
  ASSERT_EQ(run.status, 201) << run.text;
  const std::string path = kRepo + "/check-runs/" + std::to_string(run.body["id"].get<int>());
  RawReply too_many = client.patch(
      path, {{"output", {{"title", "t"}, {"summary", "s"}, {"annotations", annotations(50, 51)}}}});
  EXPECT_EQ(too_many.status, 422);
  EXPECT_THAT(too_many.text, HasSubstr("Only 50 annotations"));

  ASSERT_EQ(
      client
          .patch(path, {{"output",
                         {{"title", "t"}, {"summary", "s"}, {"annotations", annotations(50, 50)}}}})
          .status,
      200);
  RawReply done = client.patch(
      path, {{"status", "completed"},
             {"conclusion", "failure"},
             {"output",
              {{"title", "2 slower"}, {"summary", "s"}, {"annotations", annotations(100, 20)}}}});
  ASSERT_EQ(done.status, 200) << done.text;
  EXPECT_EQ(done.body["output"]["annotations_count"], 120);
  EXPECT_EQ(done.body["conclusion"], "failure");

  ASSERT_EQ(github.check_runs().size(), 1u);
  const FakeCheckRun stored = github.check_runs()[0];
  ASSERT_EQ(stored.annotations.size(), 120u);
  for (int i = 0; i < 120; ++i) EXPECT_EQ(stored.annotations[i]["start_line"], i + 1);
  EXPECT_EQ(stored.title, "2 slower");
  EXPECT_EQ(stored.writes, 3);

  RawReply listed = client.get(kRepo + "/commits/faster-softmax/check-runs?check_name=kblaster");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body["total_count"], 1);
  EXPECT_EQ(listed.body["check_runs"][0]["status"], "completed");
  EXPECT_EQ(listed.body["check_runs"][0]["pull_requests"][0]["number"], pull);
  EXPECT_EQ(client.get(path + "/annotations?per_page=100").body.size(), 100u);
  EXPECT_EQ(client.post(kRepo + "/check-runs", {{"name", "kblaster"}}).status, 422);
}

TEST_F(FakeGitHubTest, BuildsABranchThroughTheGitDataApi) {
  const std::string base = *github.ref_sha("heads/main");
  RawReply base_ref = client.get(kRepo + "/git/ref/heads/main");
  ASSERT_EQ(base_ref.status, 200);
  EXPECT_EQ(base_ref.body["object"]["sha"], base);
  const std::string base_tree = github.commit(base)->tree;

  RawReply blob =
      client.post(kRepo + "/git/blobs", {{"content", "ZmFzdGVy"}, {"encoding", "base64"}});
  ASSERT_EQ(blob.status, 201);
  EXPECT_EQ(blob.body["sha"], "9c99ac299b0db8e1d6bf3a8c9ed5e2921f695b20")
      << "git's own id of 'faster'";
  RawReply tree = client.post(kRepo + "/git/trees", {{"base_tree", base_tree},
                                                     {"tree",
                                                      {{{"path", "kernels/softmax.cu"},
                                                        {"mode", "100644"},
                                                        {"type", "blob"},
                                                        {"sha", blob.body["sha"]}}}}});
  ASSERT_EQ(tree.status, 201) << tree.text;
  RawReply commit = client.post(
      kRepo + "/git/commits",
      {{"message", "kblaster: faster softmax"}, {"tree", tree.body["sha"]}, {"parents", {base}}});
  ASSERT_EQ(commit.status, 201) << commit.text;
  const std::string sha = commit.body["sha"];
  ASSERT_EQ(client.post(kRepo + "/git/refs", {{"ref", "refs/heads/kblaster/softmax"}, {"sha", sha}})
                .status,
            201);
  EXPECT_EQ(client.post(kRepo + "/git/refs", {{"ref", "refs/heads/kblaster/softmax"}, {"sha", sha}})
                .body["message"],
            "Reference already exists");

  EXPECT_EQ(github.files_at("kblaster/softmax").at("kernels/softmax.cu"), "faster");
  EXPECT_EQ(github.files_at("kblaster/softmax").at("kblaster.toml"),
            github.files_at("main").at("kblaster.toml"));
  EXPECT_EQ(github.commit(sha)->parents, std::vector<std::string>{base});

  // A ref moves back only by force; the %2F form of the ref is GitHub's too.
  RawReply back = client.patch(kRepo + "/git/refs/heads%2Fkblaster%2Fsoftmax", {{"sha", base}});
  EXPECT_EQ(back.status, 422);
  EXPECT_EQ(back.body["message"], "Update is not a fast forward");
  EXPECT_EQ(
      client.patch(kRepo + "/git/refs/heads/kblaster/softmax", {{"sha", base}, {"force", true}})
          .status,
      200);
  EXPECT_EQ(github.ref_sha("heads/kblaster/softmax"), base);
}

TEST_F(FakeGitHubTest, RefusesASecondOpenPullRequestForTheSameHead) {
  github.push_commit("kblaster/softmax", {{"kernels/softmax.cu", "v3"}});
  const json request = {{"title", "kblaster: softmax 1.4x"},
                        {"head", "kblaster/softmax"},
                        {"base", "main"},
                        {"body", "speedup"}};
  RawReply opened = client.post(kRepo + "/pulls", request);
  ASSERT_EQ(opened.status, 201) << opened.text;
  RawReply again = client.post(kRepo + "/pulls", request);
  EXPECT_EQ(again.status, 422);
  EXPECT_EQ(again.body["errors"][0]["message"],
            "A pull request already exists for acme:kblaster/softmax.");

  RawReply found = client.get(kRepo + "/pulls?head=acme:kblaster/softmax&state=open");
  ASSERT_EQ(found.status, 200);
  ASSERT_EQ(found.body.size(), 1u);
  const int number = found.body[0]["number"];
  EXPECT_EQ(number, opened.body["number"]);
  EXPECT_EQ(client.get(kRepo + "/pulls?head=acme:other&state=open").body.size(), 0u);

  const std::string path = kRepo + "/pulls/" + std::to_string(number);
  EXPECT_EQ(client.patch(path, {{"body", "speedup 1.5x"}}).body["body"], "speedup 1.5x");
  RawReply labels = client.post(kRepo + "/issues/" + std::to_string(number) + "/labels",
                                {{"labels", {"kblaster", "performance"}}});
  ASSERT_EQ(labels.status, 200);
  EXPECT_EQ(labels.body.size(), 2u);
  EXPECT_THAT(github.pulls().back().labels, ElementsAre("kblaster", "performance"));

  RawReply got = client.get(path);
  EXPECT_EQ(got.body["head"]["sha"], *github.ref_sha("heads/kblaster/softmax"));
  EXPECT_EQ(got.body["base"]["sha"], *github.ref_sha("heads/main"));
  EXPECT_EQ(got.body["head"]["repo"]["full_name"], "acme/kernels");
  EXPECT_EQ(client.get(kRepo).body["full_name"], "acme/kernels");
}

TEST_F(FakeGitHubTest, RecordsReviewsWithTheirInlineComments) {
  const std::string reviews = kRepo + "/pulls/" + std::to_string(pull) + "/reviews";
  RawReply review = client.post(
      reviews, {{"event", "REQUEST_CHANGES"},
                {"body", "softmax: claimed 1.5x, measured 1.02x"},
                {"comments", {{{"path", "kernels/softmax.cu"}, {"line", 1}, {"body", "here"}}}}});
  ASSERT_EQ(review.status, 200) << review.text;
  EXPECT_EQ(review.body["state"], "CHANGES_REQUESTED");
  EXPECT_EQ(review.body["commit_id"], head_sha);
  EXPECT_EQ(client
                .post(reviews, {{"event", "COMMENT"},
                                {"body", "x"},
                                {"comments", {{{"path", "nope.cu"}, {"line", 1}, {"body", "b"}}}}})
                .body["errors"][0],
            "Path could not be resolved");
  EXPECT_EQ(client.post(reviews, {{"event", "COMMENT"}}).status, 422);
  EXPECT_EQ(client.get(reviews).body.size(), 1u);
  ASSERT_EQ(github.reviews(pull).size(), 1u);
  EXPECT_EQ(github.reviews(pull)[0].comments[0]["path"], "kernels/softmax.cu");
}

TEST_F(FakeGitHubTest, AsksForTheTokenAndRefusesWritesWithoutWriteAccess) {
  client.set_authorization("");
  EXPECT_EQ(client.get(kRepo).body["message"], "Requires authentication");
  client.set_authorization("Bearer wrong");
  RawReply wrong = client.get(kRepo);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body["message"], "Bad credentials");
  client.set_authorization("token " + github.options().token);
  EXPECT_EQ(client.get(kRepo).status, 200);

  github.set_write_access(WriteAccess::denied);
  RawReply denied = client.post(kRepo + "/issues/1/comments", {{"body", "x"}});
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.body["message"], "Resource not accessible by integration");
  EXPECT_EQ(client.get(kRepo + "/issues/1/comments").status, 200);
  EXPECT_TRUE(github.comments(1).empty());
}

TEST_F(FakeGitHubTest, Answers502OnTheNthCallWithoutDoingIt) {
  github.inject(
      {.kind = FaultKind::bad_gateway, .on_call = 2, .match = "POST " + kRepo + "/issues/"});
  const std::string comments = kRepo + "/issues/" + std::to_string(pull) + "/comments";
  EXPECT_EQ(client.get(comments).status, 200) << "a GET is not a match";
  EXPECT_EQ(client.post(comments, {{"body", "one"}}).status, 201);
  RawReply failed = client.post(comments, {{"body", "two"}});
  EXPECT_EQ(failed.status, 502);
  EXPECT_EQ(failed.body["message"], "Server Error");
  EXPECT_EQ(client.post(comments, {{"body", "two"}}).status, 201) << "the retry";
  ASSERT_EQ(github.comments(pull).size(), 2u);
  EXPECT_EQ(github.comments(pull)[1].body, "two");
  std::vector<int> statuses;
  for (const auto& r : github.requests()) statuses.push_back(r.status);
  EXPECT_THAT(statuses, ElementsAre(200, 201, 502, 201));
}

TEST_F(FakeGitHubTest, APrimaryRateLimitSaysWhenItResets) {
  github.inject({.kind = FaultKind::primary_rate_limit, .wait_seconds = 7});
  RawReply limited = client.get(kRepo);
  EXPECT_EQ(limited.status, 403);
  EXPECT_EQ(limited.header("x-ratelimit-remaining"), "0");
  const long reset = std::stol(limited.header("x-ratelimit-reset"));
  EXPECT_NEAR(reset, std::time(nullptr) + 7, 2);
  EXPECT_THAT(limited.body["message"].get<std::string>(), HasSubstr("API rate limit exceeded"));
  EXPECT_EQ(client.get(kRepo).status, 200) << "one call only";
  EXPECT_NE(client.get(kRepo).header("x-ratelimit-remaining"), "0");
}

TEST_F(FakeGitHubTest, ASecondaryRateLimitSaysRetryAfter) {
  github.inject({.kind = FaultKind::secondary_rate_limit, .times = 2, .wait_seconds = 3});
  RawReply limited = client.post(kRepo + "/check-runs", {{"name", "k"}, {"head_sha", head_sha}});
  EXPECT_EQ(limited.status, 403);
  EXPECT_EQ(limited.header("retry-after"), "3");
  EXPECT_THAT(limited.body["message"].get<std::string>(),
              HasSubstr("You have exceeded a secondary rate limit"));
  EXPECT_EQ(client.get(kRepo).status, 403) << "the second of two";
  EXPECT_EQ(client.get(kRepo).status, 200);
  EXPECT_TRUE(github.check_runs().empty());
}

TEST_F(FakeGitHubTest, ATimeoutHoldsTheAnswerPastTheClientsPatience) {
  github.inject({.kind = FaultKind::timeout, .delay = std::chrono::milliseconds(1500)});
  RawGitHubClient impatient(github.url(), github.options().token, std::chrono::milliseconds(200));
  const std::string comments = kRepo + "/issues/" + std::to_string(pull) + "/comments";
  RawReply gave_up = impatient.post(comments, {{"body", "lost"}});
  EXPECT_EQ(gave_up.status, 0);
  EXPECT_EQ(gave_up.error, httplib::Error::Read);
  EXPECT_EQ(impatient.post(comments, {{"body", "kept"}}).status, 201);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_EQ(github.comments(pull).size(), 1u) << "a dropped request does nothing";
  EXPECT_EQ(github.comments(pull)[0].body, "kept");
}

TEST_F(FakeGitHubTest, ATimeoutMayStillHaveDoneTheWrite) {
  github.inject({.kind = FaultKind::timeout,
                 .delay = std::chrono::milliseconds(400),
                 .effect = TimeoutEffect::applied});
  RawGitHubClient impatient(github.url(), github.options().token, std::chrono::milliseconds(100));
  const std::string comments = kRepo + "/issues/" + std::to_string(pull) + "/comments";
  EXPECT_EQ(impatient.post(comments, {{"body", "done anyway"}}).status, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  ASSERT_EQ(github.comments(pull).size(), 1u) << "a retry here would post it twice";
  EXPECT_EQ(github.requests().back().status, 201);
}

TEST_F(FakeGitHubTest, ABodyARouteDidNotExpectIsA500ThatSaysSo) {
  github.push_commit("other", {{"kernels/softmax.cu", "v3"}});
  RawReply r = client.post(kRepo + "/pulls",
                           {{"title", "t"}, {"head", "other"}, {"base", "main"}, {"draft", "yes"}});
  EXPECT_EQ(r.status, 500);
  EXPECT_THAT(r.body["message"].get<std::string>(), HasSubstr("FakeGitHub could not handle"));
  EXPECT_EQ(client.get(kRepo).status, 200) << "and goes on serving";
}

TEST_F(FakeGitHubTest, RecordsEveryRequestAsSent) {
  client.post(kRepo + "/issues/" + std::to_string(pull) + "/comments?x=1", {{"body", "hi"}});
  client.get("/repos/someone/else");
  const auto requests = github.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].path, kRepo + "/issues/" + std::to_string(pull) + "/comments");
  EXPECT_EQ(requests[0].query.find("x")->second, "1");
  EXPECT_EQ(requests[0].header("Authorization"), "Bearer " + github.options().token);
  EXPECT_EQ(requests[0].header("x-github-api-version"), "2022-11-28");
  EXPECT_EQ(requests[0].json()["body"], "hi");
  EXPECT_EQ(requests[1].status, 404);
}

}  // namespace
}  // namespace kblaster::testing
