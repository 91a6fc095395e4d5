// `kblaster check --event --review` on a real GPU, publishing to the loopback GitHub
// (tests/support/fake_github.h) as a pull_request workflow would: the PR undoes an
// uncoalesced axpy, so axpy and axpy_small get faster, and its body claims 10x for axpy
// (within what the H200 measures: confirmed) and 3x for axpy_small (more than it
// measures: overstated). Prism does not run here (no node); the same requests pass it
// in the CPU suite (tests/cli/check_publish_cli_test.cc). Labelled `gpu`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "git/repo_builder.h"
#include "on_device.h"
#include "scoped_env.h"
#include "support/fake_github.h"
#include "support/webhook_payloads.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using testing::read_text;

constexpr const char* kCoalesced = "  if (i < static_cast<unsigned>(n)) y[i] = a * x[i] + y[i];";
constexpr const char* kUncoalesced =
    "  if (i >= static_cast<unsigned>(n)) return;\n"
    "  const unsigned j = static_cast<unsigned>((4099ull * i) % static_cast<unsigned>(n));\n"
    "  y[j] = a * x[j] + y[j];";

class PublishOnDevice : public testing::OnDevice {
 protected:
  void SetUp() override {
    OnDevice::SetUp();
    if (IsSkipped()) return;
    const fs::path examples = testing::examples_dir();
    for (const auto& e : fs::recursive_directory_iterator(examples)) {
      const fs::path rel = fs::relative(e.path(), examples);
      if (!e.is_regular_file() || *rel.begin() == ".kblaster") continue;
      git.write(rel.generic_string(), read_text(e.path()));
    }
    const std::string axpy = read_text(examples / "kernels/axpy.cu");
    const auto at = axpy.find(kCoalesced);
    ASSERT_NE(at, std::string::npos) << "examples/kernels/axpy.cu changed";
    git.write("kernels/axpy.cu",
              std::string(axpy).replace(at, std::string(kCoalesced).size(), kUncoalesced));
    base = git.commit("main: an uncoalesced axpy");
    git.write("kernels/axpy.cu", axpy);
    head = git.commit("Coalesce axpy's accesses");
  }

  // `kblaster check --event` with `flags`, for the pull request `number`.
  testing::CliResult check(int number, std::vector<std::string> flags) {
    testing::PullFacts pull;
    pull.number = number;
    pull.base_sha = base;
    pull.head_sha = head;
    pull.head_ref = "coalesce-axpy";
    std::ofstream(event) << testing::pull_request_event(
                                testing::GitHubSite(), pull,
                                testing::PullRequestAction::synchronize, base)
                                .dump();
    testing::ScopedEnv env({{"GITHUB_EVENT_NAME", "pull_request"},
                            {"GITHUB_EVENT_PATH", event.string()},
                            {"GITHUB_API_URL", github.url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    std::vector<std::string> args = {"check", repo.path().string(), "--event", "--json"};
    args.insert(args.end(), flags.begin(), flags.end());
    return testing::run_kblaster(args);
  }

  // Writes `text` to NAME in $KBLASTER_DEVICE_LOG_DIR, when it is set.
  static void keep_text(const std::string& name, const std::string& text) {
    if (const char* dir = std::getenv("KBLASTER_DEVICE_LOG_DIR"))
      std::ofstream(fs::path(dir) / name) << text;
  }

  testing::TempDir repo, files;
  testing::RepoBuilder git{repo.path()};
  testing::FakeGitHub github;
  fs::path event = files.path() / "event.json";
  std::string base, head;
};

TEST_F(PublishOnDevice, CheckPublishesItsVerdictsAndReviewsTheClaimedSpeedups) {
  github.mirror_commit("coalesce-axpy", head);
  const int number = github.open_pull("coalesce-axpy", "Coalesce axpy",
                                      "Coalesced accesses.\n\n- kernel: axpy 10x\n"
                                      "- kernel: axpy_small 3x\n");
  auto first = check(number, {"--review", "--report", (files.path() / "report").string()});
  keep("publish_check_review", first);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  const auto result = nlohmann::json::parse(first.out);
  std::map<std::string, nlohmann::json> rows;
  for (const auto& k : result["kernels"]) rows[k["kernel"]] = k;
  EXPECT_EQ(rows["axpy"]["verdict"], "FASTER") << rows["axpy"].dump();
  EXPECT_EQ(rows["axpy_small"]["verdict"], "FASTER") << rows["axpy_small"].dump();

  ASSERT_THAT(github.comments(number), SizeIs(1));
  const auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].head_sha, head);
  EXPECT_EQ(runs[0].status, "completed");
  EXPECT_EQ(runs[0].conclusion, "success");
  EXPECT_EQ(runs[0].writes, 2) << "in progress while measuring, then completed";
  const auto reviews = github.reviews(number);
  ASSERT_THAT(reviews, SizeIs(1));
  EXPECT_EQ(reviews[0].commit_id, head);
  EXPECT_THAT(reviews[0].body, HasSubstr("| axpy | 10.00x |"));
  EXPECT_THAT(reviews[0].body, HasSubstr("**confirmed**"));
  EXPECT_THAT(reviews[0].body, HasSubstr("| axpy\\_small | 3.00x |"));
  EXPECT_THAT(reviews[0].body, HasSubstr("**overstated**"));
  keep_text("publish_review.md", reviews[0].body);
  keep_text("publish_comment.md", github.comments(number)[0].body);
  keep_text("publish_check_run_summary.md", runs[0].summary.value_or(""));

  // A rerun with --comment on-change leaves the comment: the findings did not change.
  auto again = check(number, {"--publish", "--comment", "on-change"});
  keep("publish_check_rerun", again);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("published comment: left as it was"));
  ASSERT_THAT(github.comments(number), SizeIs(1));
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& r : github.requests())
    requests.push_back({{"method", r.method}, {"path", r.path}, {"status", r.status}});
  keep_text("publish_requests.json", requests.dump(2));
  for (const auto& r : {first, again})
    EXPECT_THAT(r.err + r.out, ::testing::Not(HasSubstr(github.options().token)));
}

}  // namespace
}  // namespace kblaster
