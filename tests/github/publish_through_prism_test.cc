// kblaster's GitHub client against the loopback GitHub, with Prism checking every request
// and answer against GitHub's OpenAPI description: the sticky comment found across pages
// and edited in place, a check run with its annotations in batches, the claims review,
// and each injected failure retried or named, with nothing lost.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <thread>

#include "github/check_run.h"
#include "github/github_api.h"
#include "github/pr_comment.h"
#include "github/publish.h"
#include "h200_fixtures.h"
#include "support/github_through_prism.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

class PublishThroughPrism : public testing::GitHubApiThroughPrism {
 protected:
  void SetUp() override {
    GitHubApiThroughPrism::SetUp();
    if (!prism) return;
    head_sha = github.push_commit("slower-axpy", {{"kernels/axpy.cu", "// v2\n"}});
    pull = github.open_pull(
        "slower-axpy", "Faster axpy",
        "This makes axpy faster.\n\n- kernel: axpy 12x\n- kernel: axpy_small 3x\n");
  }

  // The real SLOWER check of axpy and axpy_small (H200), located in the PR's sources.
  nlohmann::json slower_check() const {
    auto check = testing::h200_fixture("UncoalescedAccessIsSlower.json");
    check["kernels"][0]["source"] = {{"path", "kernels/axpy.cu"}, {"line", 1}};
    check["kernels"][1]["source"] = {{"path", "kernels/axpy_small.cu"}, {"line", 3}};
    return check;
  }

  PublishPlan plan_for(nlohmann::json result) const {
    return PublishPlan{.pr = pull,
                       .head_sha = "",
                       .results = {std::move(result)},
                       .markdown = "## kblaster: 2 kernels slower\n",
                       .headline = "2 kernels slower",
                       .digest = "d1",
                       .comment = CommentMode::always,
                       .comment_key = "kblaster",
                       .check_run = true,
                       .check_run_id = std::nullopt,
                       .review = false,
                       .request_changes = false};
  }

  std::string head_sha;
  int pull = 0;
};

TEST_F(PublishThroughPrism, TheStickyCommentIsFoundOnThePRsThirdPageAndEditedInPlace) {
  for (int i = 0; i < 230; ++i)
    github.add_comment(pull, "LGTM " + std::to_string(i), testing::Account{});
  auto first =
      publish_sticky_comment(*api, pull, "kblaster", "aaaa", "first report", CommentMode::always);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->action, CommentAction::create);
  for (int i = 0; i < 30; ++i) github.add_comment(pull, "more", testing::Account{});

  auto again =
      publish_sticky_comment(*api, pull, "kblaster", "bbbb", "second report", CommentMode::always);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->action, CommentAction::edit);
  EXPECT_EQ(again->id, first->id);
  auto unchanged = publish_sticky_comment(*api, pull, "kblaster", "bbbb", "third report",
                                          CommentMode::on_change);
  ASSERT_TRUE(unchanged.ok());
  EXPECT_EQ(unchanged->action, CommentAction::leave);

  int sticky = 0;
  for (const auto& c : github.comments(pull))
    if (c.body.find("kblaster:sticky") != std::string::npos) {
      ++sticky;
      EXPECT_THAT(c.body, HasSubstr("second report"));
    }
  EXPECT_EQ(sticky, 1) << "one comment, edited; never a second";
  int pages = 0;
  for (const auto& r : github.requests())
    pages += r.method == "GET" && r.path.ends_with("/comments") ? 1 : 0;
  EXPECT_EQ(pages, 3 + 3 + 3) << "each run read all three pages of 100";
}

TEST_F(PublishThroughPrism, ACheckRunCompletesWithEveryAnnotationFiftyPerRequest) {
  auto id = start_check_run(*api, kCheckRunName, head_sha);
  ASSERT_TRUE(id.ok()) << id.error().message;
  ASSERT_THAT(github.check_runs(), SizeIs(1));
  EXPECT_EQ(github.check_runs()[0].status, "in_progress");

  CheckRunReport report{.conclusion = "failure",
                        .title = "120 kernels slower",
                        .summary = "## kblaster\n",
                        .annotations = {}};
  for (int i = 0; i < 120; ++i)
    report.annotations.push_back({.path = "kernels/k" + std::to_string(i) + ".cu",
                                  .start_line = 1,
                                  .end_line = 1,
                                  .level = "failure",
                                  .title = "k: SLOWER",
                                  .message = "slower"});
  ASSERT_TRUE(finish_check_run(*api, *id, report).ok());
  const auto run = github.check_runs()[0];
  EXPECT_EQ(run.name, "kblaster / check");
  EXPECT_EQ(run.head_sha, head_sha);
  EXPECT_EQ(run.status, "completed");
  EXPECT_EQ(run.conclusion, "failure");
  EXPECT_THAT(run.annotations, SizeIs(120));
  int patches = 0;
  for (const auto& r : github.requests()) patches += r.method == "PATCH" ? 1 : 0;
  EXPECT_EQ(patches, 3);
}

TEST_F(PublishThroughPrism, PublishPostsTheCommentTheCheckRunAndAReviewOfTheClaims) {
  auto plan = plan_for(slower_check());
  plan.review = true;
  plan.request_changes = true;
  auto done = publish(*api, plan);
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_THAT(done->done, SizeIs(3));
  EXPECT_THAT(github.comments(pull), SizeIs(1));
  const auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].head_sha, head_sha) << "the PR's head, read from the PR";
  EXPECT_EQ(runs[0].conclusion, "failure");
  EXPECT_THAT(runs[0].annotations, SizeIs(2));
  const auto reviews = github.reviews(pull);
  ASSERT_THAT(reviews, SizeIs(1));
  EXPECT_EQ(reviews[0].state, "COMMENTED") << "nothing failed verification";
  EXPECT_EQ(reviews[0].commit_id, head_sha);
  EXPECT_THAT(reviews[0].body, HasSubstr("| axpy | 12.00x |"));
  EXPECT_THAT(reviews[0].body, HasSubstr("**not faster**"));
}

// A rerun on the same head edits kblaster's review of it: one review per head, not one per run.
TEST_F(PublishThroughPrism, ARerunEditsItsReviewOfTheSameHead) {
  auto plan = plan_for(slower_check());
  plan.review = true;
  ASSERT_TRUE(publish(*api, plan).ok());
  auto again = publish(*api, plan);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_THAT(again->done.back(), HasSubstr("(its earlier review of this head edited)"));
  ASSERT_THAT(github.reviews(pull), SizeIs(1));
  int puts = 0;
  for (const auto& r : github.requests()) puts += r.method == "PUT" ? 1 : 0;
  EXPECT_EQ(puts, 1);
}

TEST_F(PublishThroughPrism, A502OnAnUpdateAndARateLimitedCreateAreRetriedAndNothingIsLost) {
  github.inject({.kind = testing::FaultKind::bad_gateway,
                 .on_call = 1,
                 .times = 1,
                 .match = "PATCH /repos/acme/kernels/check-runs/"});
  github.inject({.kind = testing::FaultKind::secondary_rate_limit,
                 .on_call = 1,
                 .times = 1,
                 .match = "POST /repos/acme/kernels/check-runs",
                 .wait_seconds = 7});
  auto done = publish(*api, plan_for(slower_check()));
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_THAT(github.comments(pull), SizeIs(1));
  ASSERT_THAT(github.check_runs(), SizeIs(1)) << "a rate-limited create is sent again, once";
  EXPECT_EQ(github.check_runs()[0].status, "completed") << "completed after the 502";
  EXPECT_THAT(time.slept, ::testing::Contains(7.0)) << "retry-after was honoured";
}

// GitHub did the create but its answer came too late: the POST is not sent again, so there
// is never a second comment; the comment is adopted, or found by the next run and edited.
TEST_F(PublishThroughPrism, ACreateWhoseAnswerTimedOutIsNeverPostedTwice) {
  github.inject({.kind = testing::FaultKind::timeout,
                 .on_call = 1,
                 .times = 1,
                 .match = "POST /repos/acme/kernels/issues/",
                 .delay = std::chrono::milliseconds(600),
                 .effect = testing::TimeoutEffect::applied});
  GitHubApi impatient(*http, api->target(),
                      HttpTimeouts{.connect = std::chrono::milliseconds(2000),
                                   .total = std::chrono::milliseconds(200)});
  auto first =
      publish_sticky_comment(impatient, pull, "kblaster", "d1", "report", CommentMode::always);
  if (!first.ok()) {
    EXPECT_THAT(first.error().message, HasSubstr("not sent again: it creates"));
  }
  for (int i = 0; i < 40 && github.comments(pull).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_THAT(github.comments(pull), SizeIs(1)) << "GitHub did the create";
  auto second =
      publish_sticky_comment(*api, pull, "kblaster", "d2", "report 2", CommentMode::always);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->action, CommentAction::edit);
  ASSERT_THAT(github.comments(pull), SizeIs(1)) << "never a second comment";
  EXPECT_THAT(github.comments(pull)[0].body, HasSubstr("report 2"));
  int posts = 0;
  for (const auto& r : github.requests()) posts += r.method == "POST" ? 1 : 0;
  EXPECT_EQ(posts, 1) << "the create was sent once";
}

// A primary rate limit names when it resets; the client waits until then and goes on.
// A 502 on a create may hide a create that was done, so it is not sent again: the publish
// fails naming the call, and the next run posts the one comment.
TEST_F(PublishThroughPrism, A502OnACreateFailsClearlyAndTheRerunPostsOnce) {
  github.inject({.kind = testing::FaultKind::bad_gateway,
                 .on_call = 1,
                 .times = 1,
                 .match = "POST /repos/acme/kernels/issues/"});
  auto failed = publish(*api, plan_for(slower_check()));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::remote);
  EXPECT_THAT(failed.error().message,
              HasSubstr("GitHub call POST " + api_url() + "/repos/acme/kernels/issues/"));
  EXPECT_THAT(failed.error().message, HasSubstr("HTTP 502"));
  EXPECT_THAT(github.comments(pull), SizeIs(0));
  auto again = publish(*api, plan_for(slower_check()));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_THAT(github.comments(pull), SizeIs(1));
}

TEST_F(PublishThroughPrism, APrimaryRateLimitIsWaitedOutUntilItsReset) {
  time.unix_origin = static_cast<double>(std::time(nullptr));
  github.inject({.kind = testing::FaultKind::primary_rate_limit,
                 .on_call = 1,
                 .times = 1,
                 .match = "GET /repos/acme/kernels/issues/",
                 .wait_seconds = 40});
  auto made = publish_sticky_comment(*api, pull, "kblaster", "d", "report", CommentMode::always);
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_THAT(github.comments(pull), SizeIs(1));
  ASSERT_THAT(time.slept, SizeIs(1));
  EXPECT_NEAR(time.slept[0], 40.0, 2.0) << "until x-ratelimit-reset";
}

TEST_F(PublishThroughPrism, AReadOnlyTokenGetsAnErrorNamingThePermissionToGrant) {
  github.set_write_access(testing::WriteAccess::denied);
  auto done = publish(*api, plan_for(slower_check()));
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.error().kind, ErrorKind::remote);
  EXPECT_THAT(done.error().message, HasSubstr("`permissions:` with `issues: write`"));
  EXPECT_THAT(done.error().message, ::testing::Not(HasSubstr(github.options().token)));
}

}  // namespace
}  // namespace kblaster
