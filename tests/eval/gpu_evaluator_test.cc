// GpuEvaluator with real nvcc builds and a scripted harness (no GPU): compile
// failures, verification failures, a child the harness cannot load, a build
// made ahead by prefetch, and the A/B reward.
#include "eval/gpu_evaluator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <future>
#include <mutex>
#include <thread>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "eval/fake_harness_runner.h"
#include "eval/fake_ncu.h"
#include "eval/seed_source.h"
#include "gpu/fake_harness/fake_harness.h"
#include "gpu/real_nvcc.h"
#include "stats/synthetic.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

constexpr const char* kConfig = R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
args = [
  { name = "out", type = "f32", shape = "N", role = "out" },
  { name = "inp", type = "f32", shape = "N" },
  { name = "N", type = "i32" },
]
sizes = [ { N = 4096 } ]
)TOML";

constexpr const char* kSource =
    R"CU(__global__ void scale_kernel(float* out, const float* inp, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * inp[i];
}
void scale(float* out, const float* inp, int n) {
  constexpr int kThreads = 256;
  scale_kernel<<<(n + kThreads - 1) / kThreads, kThreads>>>(out, inp, n);
}
)CU";

class GpuEvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("k/scale.cu", kSource);
    repo.write("kblaster.toml", kConfig);
    auto loaded = load_config(DirectoryTree(repo.path()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    config = std::move(*loaded);
    runner.on("verify", [this](const json&) -> Result<json> {
      return json{{"verdict", testing::harness_verdict(verify_passes,
                                                       verify_passes ? "passed" : "wrong_result",
                                                       "`out`[7] is 3, expected 2")}};
    });
    runner.on("recheck", [](const json&) -> Result<json> {
      return json{{"verdict", testing::harness_verdict(true, "passed")}};
    });
    // Candidate 1 (the child) runs at 0.8 of candidate 0 (the parent).
    runner.on("sample", [this](const json& request) -> Result<json> {
      json samples = json::array();
      for (int c : request.at("order"))
        samples.push_back({{"candidate", c},
                           {"gpu_s", source.timing(c == 0 ? 1e-3 : 0.8e-3, 0.002)},
                           {"sm_mhz", 1980.0}});
      return json{{"samples", samples}};
    });
    runner.drive_clock(clock, 1e-3);
    baseline.source = kSource;
  }
  std::unique_ptr<GpuEvaluator> evaluator(Compiler& nvcc) { return evaluator(nvcc, work.path()); }
  std::unique_ptr<GpuEvaluator> evaluator(Compiler& nvcc, const std::filesystem::path& work_dir,
                                          std::optional<NcuTool> ncu = std::nullopt) {
    ncu_profiler = std::make_unique<NcuProfiler>(ncu, ncu ? "" : "no ncu in tests");
    return evaluator(nvcc, work_dir, *ncu_profiler);
  }
  std::unique_ptr<GpuEvaluator> evaluator(Compiler& nvcc, const std::filesystem::path& work_dir,
                                          Profiler& profiler, std::uint64_t timing_seeds = 0,
                                          unsigned build_workers = 0) {
    GpuEvaluatorSetup s{.spec = &config.kernels.at(0),
                        .repo_root = repo.path(),
                        .work_dir = work_dir,
                        .cache_dir = work.path() / "cache",
                        .arch = "sm_90",
                        .reference = std::nullopt,
                        .seeds = {1, 2, 3},
                        .compare = {},
                        .timing_seeds = timing_seeds,
                        .profiler = &profiler,
                        .ceilings = {},
                        .build_workers = build_workers};
    return std::make_unique<GpuEvaluator>(s, nvcc, client, clock);
  }
  Candidate child(const std::string& from, const std::string& to) {
    Candidate c = baseline;
    c.source.replace(c.source.find(from), from.size(), to);
    c.path = {"launch_geometry_tuning"};
    c.changes = {"set kThreads"};
    return c;
  }

  testing::TempDir repo, work;
  Config config;
  testing::FakeHarnessRunner runner;
  HarnessClient client{runner};
  testing::FakeClock clock;
  synthetic::TimingSource source{5};
  Candidate baseline;
  bool verify_passes = true;
  std::unique_ptr<NcuProfiler> ncu_profiler;
};

TEST_F(GpuEvaluatorTest, AFasterVerifiedChildEarnsItsLogSpeedup) {
  KB_REQUIRE_NVCC(nvcc);
  auto e = evaluator(*nvcc)->evaluate(baseline, child("kThreads = 256", "kThreads = 128"));
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->outcome, StepOutcome::faster) << e->detail;
  EXPECT_NEAR(e->log_speedup, std::log(1.25), 0.01);
  // Parent is candidate 0, the child 1; the child was verified (against the parent's
  // output: this kernel has no reference) before it was timed.
  const auto loads = runner.sent("load");
  ASSERT_FALSE(loads.empty());
  EXPECT_EQ(loads.back()["candidates"].size(), 2u);
  EXPECT_EQ(runner.sent("verify").at(0)["candidate"], 1);
  EXPECT_EQ(runner.sent("verify").at(0)["against"]["candidate"], 0);
}

TEST_F(GpuEvaluatorTest, ACompileErrorAndAFailedVerificationAreOutcomes) {
  KB_REQUIRE_NVCC(nvcc);
  auto ev = evaluator(*nvcc);
  auto broken = ev->evaluate(baseline, child("2.0f * inp[i]", "2.0f * undefined_name"));
  ASSERT_TRUE(broken.ok()) << broken.error().message;
  EXPECT_EQ(broken->outcome, StepOutcome::compile_failure);
  EXPECT_THAT(broken->detail, HasSubstr("undefined_name"));
  verify_passes = false;
  auto wrong = ev->evaluate(baseline, child("kThreads = 256", "kThreads = 64"));
  ASSERT_TRUE(wrong.ok()) << wrong.error().message;
  EXPECT_EQ(wrong->outcome, StepOutcome::verify_failure);
  EXPECT_THAT(wrong->detail, HasSubstr("wrong_result"));
  EXPECT_TRUE(runner.sent("sample").empty()) << "a wrong child is never timed";
}

TEST_F(GpuEvaluatorTest, AChildTheHarnessCannotLoadIsBlamedOnlyIfTheParentLoads) {
  KB_REQUIRE_NVCC(nvcc);
  auto ev = evaluator(*nvcc);
  runner.fail_next("load", HarnessFailure::refused, "dlopen: undefined symbol");
  auto e = ev->evaluate(baseline, child("kThreads = 256", "kThreads = 512"));
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->outcome, StepOutcome::verify_failure);
  EXPECT_THAT(e->detail, HasSubstr("could not load it: "));
  runner.fail_next("load", HarnessFailure::unavailable, "no harness");
  runner.fail_next("load", HarnessFailure::unavailable, "no harness");
  auto broken_machine = ev->evaluate(baseline, child("kThreads = 256", "kThreads = 1024"));
  EXPECT_FALSE(broken_machine.ok()) << "the machinery failing is an Error, not a finding";
}

TEST_F(GpuEvaluatorTest, APrefetchedChildIsBuiltAheadAndUsed) {
  KB_REQUIRE_NVCC(nvcc);
  auto ev = evaluator(*nvcc);
  const Candidate next = child("kThreads = 256", "kThreads = 32");
  ev->prefetch({next});
  auto e = ev->evaluate(baseline, next);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->outcome, StepOutcome::faster) << e->detail;
  EXPECT_TRUE(std::filesystem::exists(work.path() / "trees" / next.fingerprint() / "k/scale.cu"));
  EXPECT_EQ(testing::read_text(work.path() / "trees" / next.fingerprint() / "k/scale.cu"),
            next.source);
  EXPECT_EQ(testing::read_text(repo.path() / "k/scale.cu"), kSource)
      << "the user's file is untouched";
}

// Issue 21 B2: builds of guesses the search did not follow finish and are never taken. They
// used to count against the pool's queue for good, so after a few steps nothing more was
// built ahead and every child compiled while the GPU waited.
TEST_F(GpuEvaluatorTest, GuessesNobodyTookDoNotStopLaterBuildsAhead) {
  KB_REQUIRE_NVCC(nvcc);
  ncu_profiler = std::make_unique<NcuProfiler>(std::nullopt, "no ncu in tests");
  auto ev = evaluator(*nvcc, work.path(), *ncu_profiler, 0, /*build_workers=*/1);
  auto wait_built = [&](const Candidate& c) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!ev->built(c) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return ev->built(c);
  };
  const Candidate a = child("kThreads = 256", "kThreads = 32"),
                  b = child("kThreads = 256", "kThreads = 64"),
                  c = child("kThreads = 256", "kThreads = 512");
  EXPECT_FALSE(ev->built(a)) << "nothing asked for yet";
  ev->prefetch({a, b});  // one worker: two in flight at most
  ASSERT_TRUE(wait_built(a));
  ASSERT_TRUE(wait_built(b));
  ev->prefetch({c});  // a and b were never taken: the search went elsewhere
  EXPECT_TRUE(wait_built(c)) << "built ahead though two earlier guesses were never taken";
  auto e = ev->evaluate(baseline, c);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->outcome, StepOutcome::faster) << e->detail;
}

// A compiler that holds every compile until released, then reports it failed: enough to see
// which builds the evaluator started, and when, without nvcc.
class HeldCompiler final : public Compiler {
 public:
  Result<CompileOutput> compile(const CompileJob& job) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      started_.push_back(job.output.string());
    }
    released_.wait_for(std::chrono::seconds(30));
    return CompileOutput{1, "held: not a real compile", 0.0, std::nullopt};
  }
  const std::string& version() const override { return version_; }
  void release() { release_.set_value(); }
  std::size_t started() {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_.size();
  }

 private:
  std::string version_ = "held 1.0";
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
  std::mutex mutex_;
  std::vector<std::string> started_;
};

// Issue 21 B2: an earlier step's guesses that no worker started give way to the next step's,
// else a queue full of them refuses the new ones; a model's child asked for by build_ahead is
// never dropped that way.
TEST_F(GpuEvaluatorTest, AStepsNewGuessesDisplaceQueuedOldOnesButNotAModelsChild) {
  HeldCompiler held;
  ncu_profiler = std::make_unique<NcuProfiler>(std::nullopt, "no ncu in tests");
  // Two workers: at most four builds in flight before prefetch stops starting more.
  auto ev = evaluator(held, work.path(), *ncu_profiler, 0, /*build_workers=*/2);
  const Candidate first = child("kThreads = 256", "kThreads = 32"),
                  second = child("kThreads = 256", "kThreads = 64"),
                  model = child("kThreads = 256", "kThreads = 128"),
                  stale = child("kThreads = 256", "kThreads = 512"),
                  fresh = child("kThreads = 256", "kThreads = 1024");
  ev->prefetch({first, second});
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (held.started() < 2 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(held.started(), 2u) << "both workers hold a guess";
  ev->build_ahead(model);  // queued behind them
  ev->prefetch({stale});   // queued too: four in flight, the most for two workers
  ev->prefetch({fresh});   // the search moved on: stale gives way, the model's child stays
  held.release();
  auto wait_built = [&](const Candidate& c) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!ev->built(c) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return ev->built(c);
  };
  EXPECT_TRUE(wait_built(first)) << "a started guess is never dropped";
  EXPECT_TRUE(wait_built(model)) << "a model's child is never dropped";
  EXPECT_TRUE(wait_built(fresh)) << "the new guess got in";
  EXPECT_FALSE(ev->built(stale)) << "the old queued guess was dropped";
  EXPECT_EQ(held.started(), 4u) << "and never compiled";
}

TEST_F(GpuEvaluatorTest, AnOutputFolderInsideTheRepositoryIsNotCopiedIntoTrees) {
  KB_REQUIRE_NVCC(nvcc);
  const auto inside = repo.path() / "opt-out";
  auto ev = evaluator(*nvcc, inside);
  const Candidate first = child("kThreads = 256", "kThreads = 128");
  const Candidate second = child("kThreads = 256", "kThreads = 64");
  ASSERT_TRUE(ev->evaluate(baseline, first).ok());
  ASSERT_TRUE(ev->evaluate(baseline, second).ok());
  const auto tree = inside / "trees" / second.fingerprint();
  EXPECT_TRUE(std::filesystem::exists(tree / "k/scale.cu"));
  EXPECT_TRUE(std::filesystem::exists(tree / "kblaster.toml"));
  EXPECT_FALSE(std::filesystem::exists(tree / "opt-out")) << "earlier trees copied into later ones";
}

}  // namespace
}  // namespace kblaster

namespace kblaster {
namespace {

TEST_F(GpuEvaluatorTest, ACandidateIsProfiledOnceAndWithoutCountersTheStateSaysWhy) {
  KB_REQUIRE_NVCC(nvcc);
  testing::TempDir bin;
  const auto ncu = testing::write_executable(bin, "ncu", testing::kRefusingNcu);
  auto e = evaluator(*nvcc, work.path(), NcuTool{ncu});
  for (int i = 0; i < 2; ++i) {
    auto s = e->state_of(baseline);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->key, "latency.no_dominant_bottleneck");
    EXPECT_THAT(s->explanation, ::testing::HasSubstr("ERR_NVGPUCTRPERM"));
  }
  std::string why;
  auto p = e->profile(baseline, why);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(p->has_value());
  EXPECT_THAT(why, ::testing::HasSubstr("ERR_NVGPUCTRPERM"));
  EXPECT_EQ(testing::read_text(bin.path() / "runs"), "run\n") << "one ncu run for three asks";
}

// Given the run's seed, the search's A/Bs time on inputs from it, one seed each, so a
// run repeated with that seed times on the same inputs.
TEST_F(GpuEvaluatorTest, TheSearchsABsTimeOnSeedsFromTheRunsSeed) {
  KB_REQUIRE_NVCC(nvcc);
  NcuProfiler none(std::nullopt, "no ncu in tests");
  auto e = evaluator(*nvcc, work.path(), none, 5000);
  ASSERT_TRUE(e->evaluate(baseline, child("kThreads = 256", "kThreads = 128")).ok());
  ASSERT_TRUE(e->evaluate(baseline, child("kThreads = 256", "kThreads = 512")).ok());
  const auto prepared = runner.sent("bench_prepare");
  ASSERT_EQ(prepared.size(), 2u);
  EXPECT_EQ(prepared[0]["seed"], timing_seed(5000, 0));
  EXPECT_EQ(prepared[1]["seed"], timing_seed(5000, 1));
  EXPECT_EQ(prepared[1]["seed"], 6001u);
}

// A setup without a Profiler is kblaster's own bug: an internal error that says so.
TEST_F(GpuEvaluatorTest, ASetupWithoutAProfilerIsAnInternalErrorNotACrash) {
  KB_REQUIRE_NVCC(nvcc);
  GpuEvaluatorSetup s{.spec = &config.kernels.at(0),
                      .repo_root = repo.path(),
                      .work_dir = work.path(),
                      .cache_dir = work.path() / "cache",
                      .arch = "sm_90",
                      .seeds = {1, 2, 3}};
  GpuEvaluator e(s, *nvcc, client, clock);
  auto state = e.state_of(baseline);
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.error().kind, ErrorKind::internal);
  EXPECT_THAT(state.error().message, ::testing::HasSubstr("no Profiler"));
}

// A profiler that answers with axpy's real H200 profile and records what it was asked.
class RecordingProfiler final : public Profiler {
 public:
  Result<Profiled> profile(const ProfileTarget& t) override {
    asked.push_back({t.size.scalars, t.csv, t.signature.has_value()});
    const auto csv =
        testing::read_text(testing::source_dir() / "tests/profile/fixtures/h200/axpy.csv");
    auto report = read_profile(csv, "axpy.csv", t.signature, t.roofline);
    if (!report) return report.error();
    return Profiled{.report = std::move(*report), .why_none = ""};
  }
  struct Ask {
    std::map<std::string, std::int64_t> size;
    std::filesystem::path csv;
    bool has_signature;
  };
  std::vector<Ask> asked;
};

TEST_F(GpuEvaluatorTest, TheSearchsStatesComeFromThePassedInProfilerOncePerCandidate) {
  KB_REQUIRE_NVCC(nvcc);
  RecordingProfiler profiler;
  auto e = evaluator(*nvcc, work.path(), profiler);
  auto s = e->state_of(baseline);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_NE(s->key, "latency.no_dominant_bottleneck") << "the profile's own state: " << s->key;
  std::string why;
  auto p = e->profile(baseline, why);
  ASSERT_TRUE(p.ok() && p->has_value());
  EXPECT_EQ((*p)->state.key, s->key);
  ASSERT_EQ(profiler.asked.size(), 1u) << "asked once for two questions";
  EXPECT_EQ(profiler.asked[0].csv.parent_path(), work.path() / "profiles");
  EXPECT_TRUE(profiler.asked[0].has_signature);
  EXPECT_EQ(profiler.asked[0].size, config.kernels.at(0).sizes.front()) << "the timed size";
}

}  // namespace
}  // namespace kblaster
