// check_on_gpu over a scripted harness: what check does when the base revision's kernel, run as
// head's reference, fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "core/config_loader.h"
#include "eval/check_step.h"
#include "eval/definition_change.h"
#include "eval/fake_harness_runner.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeHarnessRunner;

// A kernel with no reference: check verifies head against base's output.
constexpr const char* kConfig = R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
args = [
  { name = "out", type = "f32", shape = "n", role = "out" },
  { name = "x", type = "f32", shape = "n" },
  { name = "n", type = "i32" },
]
sizes = [ { n = 1024 }, { n = 1001 } ]
)TOML";

// A scripted harness behind a GpuContext, and a Session whose progress the test reads.
class CheckOnGpu : public ::testing::Test {
 protected:
  CheckOnGpu() {
    auto owned = std::make_unique<FakeHarnessRunner>();
    runner = owned.get();
    gpu.runner = std::move(owned);
    gpu.client = std::make_unique<HarnessClient>(*gpu.runner);
  }
  // A cached build of `spec`'s kernel at `object`.
  static KernelBuild built(const KernelSpec& spec, const char* object) {
    KernelBuild b{&spec, {}, std::nullopt};
    b.result.outcome = BuildOutcome::cache_hit;
    b.result.object = object;
    return b;
  }

  FakeHarnessRunner* runner = nullptr;
  GpuContext gpu;
  std::ostringstream out, progress;
  testing::NoDevice device;
  testing::FakeClock clock;
  Session session{out, progress, device, clock, nullptr};

  // The config of kConfig with `extra` appended, loaded; the test fails if it does not load.
  Config load(const std::string& extra = "") {
    auto dir = std::make_unique<testing::TempDir>();
    dir->write("k/scale.cu", "void scale() {}\n");
    dir->write("k/scale_ref.cpp", "void scale_ref() {}\n");
    dir->write("kblaster.toml", std::string(kConfig) + extra);
    auto config = load_config(DirectoryTree(dir->path()));
    dirs.push_back(std::move(dir));
    EXPECT_TRUE(config.ok()) << config.error().describe();
    return config.ok() ? std::move(*config) : Config{};
  }
  // The element count of `out` at each verify sent, from the setup before it.
  std::vector<std::int64_t> verified_at() const {
    std::vector<std::int64_t> at;
    for (std::size_t i = 1; i < runner->requests.size(); ++i)
      if (runner->requests[i].value("op", "") == "verify")
        at.push_back(runner->requests[i - 1]["args"][0]["elements"].get<std::int64_t>());
    return at;
  }
  // check_on_gpu of head against base with every verify passing (the A/B after it has no
  // scripted samples and is refused); the row it leaves.
  CheckRow check_all_verified(const KernelSpec& base, const KernelSpec& head) {
    const KernelBuild base_build = built(base, "/cache/objects/base.so");
    const KernelBuild head_build = built(head, "/cache/objects/head.so");
    runner->max_calls = 60;
    runner->on("verify", [](const json&) -> Result<json> {
      return json{{"verdict", testing::harness_verdict(true, "", "", json::object())}};
    });
    const CheckedKernel k{"scale", "source_changed", &base_build, &head_build};
    CheckRow row = build_row(k);
    (void)check_on_gpu(k, gpu, {1}, CompareFlags{}, session, row);
    return row;
  }
  std::vector<std::unique_ptr<testing::TempDir>> dirs;
};

const char* const kBaseFaulted =
    "harness refused 'verify': the candidate used as reference faulted: cudaErrorIllegalAddress";

// A size where base fails (a fault of its own, which head may fix; or a size a pull request
// adds so that base fails there) is left out and said, and head is checked at the others: its
// wrong result there is still a REGRESSION (found in review: one such size used to turn the whole
// kernel UNVERIFIED, exit 0).
TEST_F(CheckOnGpu, ASizeWhereBaseFailsIsLeftOutAndHeadIsCheckedAtTheRest) {
  const Config base = load(), head = load();
  const KernelBuild base_build = built(base.kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head_build = built(head.kernels.at(0), "/cache/objects/head.so");
  runner->on("verify", [](const json& request) -> Result<json> {
    EXPECT_EQ(request["against"], (json{{"candidate", 0}})) << "base is candidate 0";
    return json{{"verdict", testing::harness_verdict(false, "wrong_result",
                                                     "`out`[3] is 1, "
                                                     "expected 2",
                                                     json::object())}};
  });
  runner->fail_next("verify", HarnessFailure::base_failed, kBaseFaulted);  // at n=1024
  const CheckedKernel k{"scale", "source_changed", &base_build, &head_build};
  CheckRow row = build_row(k);
  ASSERT_EQ(row.verdict, KernelVerdict::pending);
  const Status status = check_on_gpu(k, gpu, {1, 2, 3}, CompareFlags{}, session, row);
  ASSERT_TRUE(status.ok()) << status.error().describe();
  EXPECT_EQ(verified_at(), (std::vector<std::int64_t>{1024, 1001}));
  EXPECT_THAT(runner->ops(),
              ::testing::ElementsAre("load", "setup", "verify", "load", "setup", "setup", "verify"))
      << "the harness base's failure ended is given the load again before the next size";
  EXPECT_EQ(row.verdict, KernelVerdict::regression) << row.reason;
  EXPECT_THAT(progress.str(), ::testing::HasSubstr("check: scale n=1024 left out of the "
                                                   "verification against base: base fails "
                                                   "there: "));
  EXPECT_THAT(progress.str(), ::testing::HasSubstr("cudaErrorIllegalAddress"));
  EXPECT_EQ(runner->restarts, 1) << "base's fault may have lost the CUDA context";

  // Any other refusal is still an error of the check.
  runner->fail_next("verify", HarnessFailure::refused, "harness refused 'verify': no workload");
  CheckRow again = build_row(k);
  EXPECT_FALSE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, again).ok());
}

// Base failing at every size it can be run at is base's bug, not head's: UNVERIFIED, why said,
// nothing timed, and the check goes on (it was exit 4, or head's REGRESSION, before). A changed
// kernel nothing could check fails the check all the same.
TEST_F(CheckOnGpu, ABaseThatFailsAtEverySizeLeavesHeadUnverified) {
  const Config base = load(), head = load();
  const KernelBuild base_build = built(base.kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head_build = built(head.kernels.at(0), "/cache/objects/head.so");
  runner->fail_next("verify", HarnessFailure::base_failed, kBaseFaulted);
  runner->fail_next("verify", HarnessFailure::base_failed, kBaseFaulted);
  const CheckedKernel k{"scale", "source_changed", &base_build, &head_build};
  CheckRow row = build_row(k);
  ASSERT_TRUE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, row).ok());
  EXPECT_EQ(row.verdict, KernelVerdict::unverified);
  EXPECT_THAT(row.reason, ::testing::HasSubstr("base cannot serve as head's reference"));
  EXPECT_THAT(row.reason, ::testing::HasSubstr("it fails at every size it accepts"));
  EXPECT_THAT(row.reason, ::testing::HasSubstr("cudaErrorIllegalAddress"));
  EXPECT_EQ(problem_of(row.verdict), CheckProblem::error);
  EXPECT_FALSE(row.timing.has_value());
  EXPECT_THAT(runner->ops(), ::testing::Not(::testing::Contains("sample")));
}

// Head's tolerance is the pull request's: against base's output, base's holds where stricter.
TEST_F(CheckOnGpu, APullRequestCannotLoosenTheToleranceHeadIsCheckedAgainstBaseWith) {
  const Config base = load(), head = load("tolerance = { rtol = 1e30, atol = 1e30 }\n");
  check_all_verified(base.kernels.at(0), head.kernels.at(0));
  const auto sent = runner->sent("verify");
  ASSERT_FALSE(sent.empty());
  EXPECT_EQ(sent[0]["tolerance"]["rtol"], base.kernels.at(0).tolerance.rtol);
  EXPECT_EQ(sent[0]["tolerance"]["atol"], base.kernels.at(0).tolerance.atol);
}

// Base is called with head's arguments: a pull request that changes them leaves nothing base's
// output can check, said before any GPU work.
TEST_F(CheckOnGpu, HeadWithOtherArgumentsCannotBeCheckedAgainstBase) {
  Config base = load(), head = load();
  head.kernels.at(0).args.at(1).name = "input";
  const KernelBuild base_build = built(base.kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head_build = built(head.kernels.at(0), "/cache/objects/head.so");
  const CheckedKernel k{"scale", "source_changed", &base_build, &head_build};
  CheckRow row = build_row(k);
  ASSERT_TRUE(check_on_gpu(k, gpu, {1}, CompareFlags{}, session, row).ok());
  EXPECT_EQ(row.verdict, KernelVerdict::unverified);
  EXPECT_THAT(row.reason, ::testing::HasSubstr("declare different arguments"));
  EXPECT_TRUE(runner->requests.empty());
}

// Head drops a `requires` of base's and adds a size base rejects: verified against base's output
// only where base can run, saying which size was left out and why. Declaring only sizes base
// rejects does not escape the check: base's own sizes are checked too.
TEST_F(CheckOnGpu, HeadIsVerifiedAgainstBaseOnlyAtTheSizesBaseAccepts) {
  const Config base = load("requires = [\"n % 2 == 0\"]\n");
  Config head = load();
  ASSERT_EQ(base.kernels.at(0).sizes.size(), 1u) << "base itself leaves n=1001 out";
  const KernelBuild base_build = built(base.kernels.at(0), "/cache/objects/base.so");
  const KernelBuild head_build = built(head.kernels.at(0), "/cache/objects/head.so");
  runner->max_calls = 60;  // the A/B has no scripted samples: it is refused, after the verify
  runner->on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", testing::harness_verdict(true, "", "", json::object())}};
  });
  const CheckedKernel k{"scale", "source_changed", &base_build, &head_build};
  CheckRow row = build_row(k);
  (void)check_on_gpu(k, gpu, {1}, CompareFlags{}, session, row);
  EXPECT_EQ(verified_at(), std::vector<std::int64_t>{1024}) << progress.str();
  EXPECT_THAT(progress.str(),
              ::testing::HasSubstr("check: scale n=1001 left out of the verification against "
                                   "base: base requires `n % 2 == 0` (n=1001)"));

  head.kernels.at(0).sizes = {{{"n", 1001}}};
  head.kernels.at(0).declared_sizes = head.kernels.at(0).sizes;
  runner->requests.clear();
  CheckRow only_odd = build_row(k);
  (void)check_on_gpu(k, gpu, {1}, CompareFlags{}, session, only_odd);
  EXPECT_EQ(verified_at(), std::vector<std::int64_t>{1024}) << "base's own size, checked anyway";
}

// With a reference, head's tolerance and sizes are the pull request's too: it is verified at base's
// tolerance where stricter, and at base's sizes as well as its own, so dropping the size it fails
// at from kblaster.toml, or loosening its tolerance, does not pass a wrong result (found in
// review). A size head's `requires` rejects is left out, and said.
TEST_F(CheckOnGpu, WithAReferenceHeadIsVerifiedAtBasesToleranceAndSizesToo) {
  const std::string reference = "reference = \"k/scale_ref.cpp:scale_ref\"\n";
  const Config base = load(reference);
  Config head = load(reference + "tolerance = { rtol = 1e30, atol = 1e30 }\n");
  head.kernels.at(0).sizes = head.kernels.at(0).declared_sizes = {{{"n", 1024}}};
  check_all_verified(base.kernels.at(0), head.kernels.at(0));
  EXPECT_EQ(verified_at(), (std::vector<std::int64_t>{1024, 1001})) << progress.str();
  const auto sent = runner->sent("verify");
  ASSERT_FALSE(sent.empty());
  EXPECT_EQ(sent[0]["tolerance"]["rtol"], base.kernels.at(0).tolerance.rtol);
  EXPECT_EQ(sent[0]["tolerance"]["atol"], base.kernels.at(0).tolerance.atol);

  const Config strict = load(reference + "requires = [\"n % 2 == 0\"]\n");
  runner->requests.clear();
  check_all_verified(base.kernels.at(0), strict.kernels.at(0));
  EXPECT_EQ(verified_at(), std::vector<std::int64_t>{1024});
  // Said beside the verdict, in the table, the comment and the check run (check_run.cc).
  EXPECT_THAT(check_definition_changes(base.kernels.at(0), strict.kernels.at(0)),
              ::testing::Contains("n=1001 left out of the verification: head requires `n % 2 == "
                                  "0` (n=1001), where base was checked"));

  // A reference the pull request adds has never run at base's sizes: only head's are verified.
  const Config without = load();
  runner->requests.clear();
  check_all_verified(without.kernels.at(0), head.kernels.at(0));
  EXPECT_EQ(verified_at(), std::vector<std::int64_t>{1024});
}

}  // namespace
}  // namespace kblaster
