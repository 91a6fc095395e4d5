// `kblaster publish` through the real binary: saved results to the loopback GitHub behind
// Prism, the claims review answered from a real H200 check (CoalescingIsFaster.json), a dry run that sends nothing and
// writes no token, and the usage errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_run.h"
#include "h200_fixtures.h"
#include "scoped_env.h"
#include "support/github_through_prism.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class PublishCli : public testing::GitHubThroughPrism {
 protected:
  void SetUp() override {
    GitHubThroughPrism::SetUp();
    if (!prism) return;
    github.mirror_commit("faster-axpy", head_sha);
    number = github.open_pull("faster-axpy", "Faster axpy",
                              "Two kernels made faster.\n\n"
                              "- kernel: axpy 10x\n"
                              "- kernel: axpy_small 3x\n");
    std::ofstream(result)
        << testing::h200_fixture("CoalescingIsFaster.json").dump();
  }

  testing::CliResult publish(std::vector<std::string> extra) const {
    testing::ScopedEnv env({{"GITHUB_API_URL", api_url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    std::vector<std::string> args = {"publish", result.string(), "--pr", std::to_string(number)};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::run_kblaster(args);
  }

  testing::TempDir dir;
  std::filesystem::path result = dir.path() / "check.json";
  std::string head_sha = testing::h200_fixture("CoalescingIsFaster.json")["head"];
  int number = 0;
};

TEST_F(PublishCli, AReviewNamesAConfirmedAndAnOverstatedClaim) {
  auto r = publish({"--review"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("published review: 2 claim(s) answered"));
  const auto reviews = github.reviews(number);
  ASSERT_THAT(reviews, SizeIs(1));
  EXPECT_EQ(reviews[0].commit_id, head_sha);
  EXPECT_THAT(reviews[0].body, HasSubstr("1 of 2 claimed speedup(s) confirmed"));
  EXPECT_THAT(reviews[0].body, HasSubstr("| axpy | 10.00x | 12.73x (12.65–12.90) | **confirmed**"));
  EXPECT_THAT(reviews[0].body,
              HasSubstr("| axpy\\_small | 3.00x | 1.57x (1.52–1.66) | **overstated**"));
  const auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].conclusion, "success");
  EXPECT_EQ(runs[0].title, "2 kernels faster");
}

TEST_F(PublishCli, ADryRunSendsNothingAndWritesEachRequestWithoutTheToken) {
  const auto requests = dir.path() / "requests.jsonl";
  auto r = publish({"--dry-run", requests.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(github.requests(), SizeIs(0)) << "nothing reached GitHub";
  const std::string text = read(requests);
  EXPECT_THAT(text, HasSubstr("\"method\":\"POST\""));
  EXPECT_THAT(text, HasSubstr("/repos/acme/kernels/check-runs"));
  EXPECT_THAT(text, HasSubstr("\"Authorization\":\"***\""));
  EXPECT_THAT(text, ::testing::Not(HasSubstr(github.options().token)));
  EXPECT_THAT(r.err, HasSubstr("dry run: nothing was sent; the requests are in "));
}

TEST_F(PublishCli, UsageErrorsNameWhatIsMissing) {
  testing::ScopedEnv env({{std::string("GITHUB_TOKEN"), std::string("")}});
  auto no_target = testing::run_kblaster({"publish", result.string()});
  EXPECT_EQ(no_target.exit_code, 2);
  EXPECT_THAT(no_target.err, HasSubstr("publish needs --pr N or --sha SHA"));
  auto no_token = testing::run_kblaster({"publish", result.string(), "--pr", "1"});
  EXPECT_EQ(no_token.exit_code, 3);
  EXPECT_THAT(no_token.err, HasSubstr("no GitHub token: $GITHUB_TOKEN is not set"));
  auto changes = publish({"--request-changes"});
  EXPECT_EQ(changes.exit_code, 2);
  EXPECT_THAT(changes.err, HasSubstr("--request-changes needs --review"));
}

}  // namespace
}  // namespace kblaster
