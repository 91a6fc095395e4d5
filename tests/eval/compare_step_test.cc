#include "eval/compare_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "core/config_loader.h"
#include "eval/fake_harness_runner.h"
#include "eval/measure_step.h"
#include "result_schema.h"
#include "stats/context_choice.h"
#include "stats/quantile.h"
#include "stats/synthetic.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeClock;
using testing::FakeHarnessRunner;
using testing::harness_verdict;

constexpr const char* kConfig = R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
reference = "k/scale_ref.cpp:scale_ref"
tolerance = { rtol = 1e-3, atol = 1e-6 }
args = [
  { name = "out", type = "f32", shape = "N", role = "out" },
  { name = "inp", type = "f32", shape = "N" },
  { name = "N", type = "i32" },
]
sizes = [ { N = 1048576 } ]
)TOML";
constexpr double kMhz = 1980;

class CompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir.write("k/scale.cu", "void scale() {}\n");
    dir.write("k/scale_ref.cpp", "void scale_ref() {}\n");
    dir.write("kblaster.toml", kConfig);
    auto loaded = load_config(DirectoryTree(dir.path()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    config = std::move(*loaded);
    runner.on("recheck", [](const json&) -> Result<json> {
      return json{{"verdict", harness_verdict(true, "passed")}};
    });
    // Answers launch by launch from `launch`; `pair` counts the (A, B) pairs of
    // the loop, so a test can script a pattern over pairs.
    runner.on("sample", [this](const json& request) -> Result<json> {
      const bool warmup = runner.sent("sample").size() == 1;
      calls = request.value("calls", 1);
      json samples = json::array();
      for (int c : request.at("order")) {
        const TimingSample s = launch(c, pair);
        samples.push_back({{"candidate", c}, {"gpu_s", s.gpu_seconds}, {"sm_mhz", s.sm_mhz}});
        if (!warmup && ++launched % 2 == 0) ++pair;
      }
      return json{{"samples", samples}};
    });
    runner.drive_clock(clock, 30e-6);
  }
  const KernelSpec& spec() const { return config.kernels.at(0); }
  Result<AbResult> run() { return compare_once(client, spec(), flags, clock); }
  // A at `a` seconds and B at `b`, both with relative noise `noise`, at full clock.
  void steady(double a, double b, double noise) {
    launch = [this, a, b, noise](int c, std::size_t) {
      return TimingSample{c, source.timing(c == 0 ? a : b, noise), kMhz};
    };
  }

  testing::TempDir dir;
  Config config;
  FakeHarnessRunner runner;
  HarnessClient client{runner};
  FakeClock clock;
  CompareFlags flags;
  synthetic::TimingSource source{99};
  std::function<TimingSample(int candidate, std::size_t pair)> launch;
  std::size_t launched = 0, pair = 0;
  int calls = 1;  // of the sample request being answered
};

TEST_F(CompareTest, InterleavesPairsAndAlternatesWhichCandidateLeads) {
  steady(30e-6, 30e-6, 0.05);  // noisy, so several batches are needed
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto samples = runner.sent("sample");
  ASSERT_GE(samples.size(), 4u) << "want several batches; got " << samples.size();
  EXPECT_EQ(samples[0]["order"], (json{0, 1, 0, 1})) << "the warm-up";
  std::size_t pairs = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const auto& order = samples[i]["order"];
    ASSERT_EQ(order.size() % 2, 0u) << order.dump();
    const int lead = i % 2 == 1 ? 0 : 1;  // A leads the first batch, then B, then A ...
    for (std::size_t k = 0; k < order.size(); k += 2) {
      ASSERT_EQ(order[k], lead) << "batch " << i << ": " << order.dump();
      ASSERT_EQ(order[k + 1], 1 - lead) << "batch " << i << ": " << order.dump();
    }
    pairs += order.size() / 2;
  }
  EXPECT_EQ(samples[1]["order"].size(), 2 * flags.budget.min_pairs)
      << "the first checkpoint's pairs";
  EXPECT_EQ(r->pairs, pairs);
  EXPECT_EQ(r->comparison.n_a, pairs);
}

// Small checkpoints, so a verdict takes several batches, half of them led by B.
void small_batches(CompareFlags& flags) {
  flags.budget.min_pairs = 2;
  flags.budget.batch = 2;
}

TEST_F(CompareTest, BTenPercentSlowerIsSlower) {
  steady(10e-6, 11e-6, 0.01);
  small_batches(flags);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(runner.sent("sample").size(), 5u) << "the verdict should need B-led batches too";
  EXPECT_EQ(r->comparison.verdict, Verdict::slower) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.10, 0.01);
  EXPECT_EQ(r->end, AbState::decided);
  EXPECT_EQ(r->throttled_pairs, 0u);
}

TEST_F(CompareTest, BTenPercentFasterIsFaster) {
  steady(11e-6, 10e-6, 0.01);
  small_batches(flags);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->comparison.verdict, Verdict::faster) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1 / 1.10, 0.01);
}

TEST_F(CompareTest, IdenticalKernelsAreTheSame) {
  steady(10e-6, 10e-6, 0.01);
  small_batches(flags);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->comparison.verdict, Verdict::same) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.0, 0.01);
  EXPECT_EQ(r->end, AbState::decided);
}

TEST_F(CompareTest, PairsWithAThrottledLaunchAreExcludedAndCounted) {
  // A and B are the same kernel; in 4 pairs of 10 (never the warm-up's, pair 0)
  // B's launch ran at a low clock and took 30% longer. Counted in, those would
  // make B look slower.
  std::size_t throttled = 0;
  launch = [&](int c, std::size_t p) {
    const bool slow = c == 1 && p % 10 >= 6;
    throttled += slow;
    return slow ? TimingSample{c, source.timing(39e-6, 0.03), 1400}
                : TimingSample{c, source.timing(30e-6, 0.03), kMhz};
  };
  flags.budget.max_pairs = 400;
  flags.budget.max_seconds = 1e9;
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GT(throttled, 0u);
  EXPECT_EQ(r->throttled_pairs, throttled);
  EXPECT_EQ(r->comparison.n_a, r->pairs - r->throttled_pairs);
  EXPECT_EQ(r->comparison.n_b, r->pairs - r->throttled_pairs);
  EXPECT_NE(r->comparison.verdict, Verdict::slower) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.0, 0.02) << r->comparison.reason;
  // The result keeps every pair the verdict used, and no other, with its clocks.
  const AbSamples& kept = r->samples;
  ASSERT_EQ(kept.a_s.size(), r->comparison.n_a);
  ASSERT_EQ(kept.b_s.size(), kept.a_s.size());
  ASSERT_EQ(kept.b_sm_mhz.size(), kept.a_s.size());
  for (double b : kept.b_s) EXPECT_LT(b, 36e-6) << "a throttled launch was kept";
  for (double clock : kept.b_sm_mhz) EXPECT_EQ(clock, kMhz);
  EXPECT_EQ(r->sm_mhz, kMhz);
  EXPECT_DOUBLE_EQ(r->comparison.ratio, median_of(kept.b_s) / median_of(kept.a_s))
      << "a report recomputes the ratio of medians from the samples";
  const json j = to_json(*r);
  EXPECT_EQ(j["samples"]["a_s"].size(), kept.a_s.size());
  EXPECT_EQ(j["samples"]["b_sm_mhz"][0], kMhz);
}

// Throttled pairs must not decide when sampling stops: they once made B look
// SLOWER at 60 pairs, ending sampling (DECIDED) while the verdict on the clean
// pairs was AMBIGUOUS with 340 pairs of budget unused.
TEST_F(CompareTest, ThrottledPairsDoNotDecideWhenToStop) {
  launch = [&](int c, std::size_t p) {
    return c == 1 && p % 10 >= 6 ? TimingSample{c, source.timing(13e-6, 0.03), 1400}
                                 : TimingSample{c, source.timing(10e-6, 0.03), kMhz};
  };
  flags.budget.max_pairs = 400;
  flags.budget.max_seconds = 1e9;
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  if (r->end == AbState::decided) {
    EXPECT_NE(r->comparison.verdict, Verdict::ambiguous)
        << "ended DECIDED after " << r->pairs << " pairs, but " << r->comparison.reason;
  }
}

TEST_F(CompareTest, RechecksBothCandidatesAtTheEnd) {
  steady(10e-6, 10e-6, 0.01);
  runner.on("recheck", [](const json& request) -> Result<json> {
    const bool b = request.at("candidate") == 1;
    return json{{"verdict", b ? harness_verdict(false, "nonfinite", "out[3] is NaN")
                              : harness_verdict(true, "passed")}};
  });
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& sent = runner.requests;
  ASSERT_GE(sent.size(), 4u);
  const json tolerance = {{"rtol", 1e-3}, {"atol", 1e-6}};
  EXPECT_EQ(sent[sent.size() - 2],
            (json{{"op", "recheck"}, {"candidate", 0}, {"tolerance", tolerance}}));
  EXPECT_EQ(sent[sent.size() - 1],
            (json{{"op", "recheck"}, {"candidate", 1}, {"tolerance", tolerance}}));
  EXPECT_EQ(runner.sent("recheck").size(), 2u);
  EXPECT_TRUE(r->recheck_a.passed);
  EXPECT_FALSE(r->recheck_b.passed);
  EXPECT_EQ(r->recheck_b.reason, "nonfinite");
  EXPECT_EQ(runner.ops().front(), "bench_prepare");
  EXPECT_EQ(runner.sent("bench_prepare").at(0)["against"], "reference");
}

TEST_F(CompareTest, AGivenSeedIsTheSeedOfBothCandidatesTimedInputs) {
  steady(10e-6, 10e-6, 0.01);
  flags.seed = 1042;
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->seed, 1042u);
  EXPECT_EQ(runner.sent("bench_prepare").at(0)["seed"], 1042);
  EXPECT_EQ(to_json(*r)["seed"], 1042);
}

// A crash while A is rechecked ends the harness, and B's last output with it:
// A is rejected for the crash, B is not asked (a fresh harness has nothing
// loaded), and the comparison is a result, not an Error.
TEST_F(CompareTest, ACrashInARecheckRejectsAAndAsksNothingOfTheLostHarness) {
  steady(10e-6, 10e-6, 0.01);
  runner.fail_next("recheck", HarnessFailure::crashed,
                   "harness request 'recheck': exited (signal 11)");
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->recheck_a.reason, "crashed");
  EXPECT_EQ(r->recheck_b.reason, "not_rechecked");
  EXPECT_EQ(runner.sent("recheck").size(), 1u);
  EXPECT_NE(r->rejected.find("A's last timed output could not be rechecked (crashed: the harness "
                             "died while the last timed output was rechecked"),
            std::string::npos)
      << r->rejected;
  const json j = to_json(*r);
  EXPECT_TRUE(j["recheck"]["a"].is_null()) << "A's recheck ended the harness: " << j.dump();
  EXPECT_TRUE(j["recheck"]["b"].is_null()) << "B was never rechecked: " << j.dump();
}

// The fresh harness after the crash holds nothing; a later comparison (compare
// --repeat, bench --repeat) must load and set up again rather than fail on it.
TEST_F(CompareTest, AComparisonAfterACrashLoadsAndSetsUpAgain) {
  steady(30e-6, 30e-6, 0.01);
  std::uint64_t workload_in = 0;  // the harness generation that was last set up
  runner.on("setup", [&](const json&) -> Result<json> {
    workload_in = runner.generation();
    return json::object();
  });
  runner.on("bench_prepare", [&](const json&) -> Result<json> {
    if (workload_in != runner.generation()) return Error::io("no workload: send `setup` first");
    return json::object();
  });
  const json args = {{"N", 1048576}};
  ASSERT_TRUE(client.load({"a.so", "b.so"}, std::nullopt).ok());
  ASSERT_TRUE(client.setup(args).ok());
  runner.fail_next("recheck", HarnessFailure::crashed,
                   "harness request 'recheck': exited (signal 11)");
  auto first = run();
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE(first->rejected.empty());
  EXPECT_FALSE(client.holds_load());

  auto second = run();
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second->rejected.empty()) << second->rejected;
  EXPECT_TRUE(client.holds_load());
  ASSERT_EQ(runner.sent("load").size(), 2u);
  EXPECT_EQ(runner.sent("load")[1]["candidates"], (json{"a.so", "b.so"}));
  ASSERT_EQ(runner.sent("setup").size(), 2u);
  EXPECT_EQ(runner.sent("setup")[1]["args"], args);

  auto third = run();  // nothing lost this time: nothing sent again
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(runner.sent("load").size(), 2u);
}

TEST_F(CompareTest, AKernelWithoutAReferenceIsRecheckedAgainstTheBase) {
  steady(10e-6, 10e-6, 0.01);
  auto r = compare_once(client, spec(), flags, clock, Against{0});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(runner.sent("bench_prepare").at(0)["against"], (json{{"candidate", 0}}));
}

// Issue 22, point 8: a launcher that waits for the GPU cannot be timed behind a held stream, so
// both sides are timed unheld, by one method, on the same inputs; the result says so.
TEST_F(CompareTest, ALauncherThatWaitsForTheGpuIsComparedUnheldAndSaysSo) {
  steady(100e-6, 110e-6, 0.002);
  runner.fail_next("sample", HarnessFailure::refused,
                   "harness request 'sample': candidate 1 failed while timing: the launcher "
                   "waited for the GPU");
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->rejected.empty()) << r->rejected;
  EXPECT_TRUE(r->unheld);
  EXPECT_EQ(r->comparison.verdict, Verdict::slower) << r->comparison.reason;
  const auto samples = runner.sent("sample");
  ASSERT_GE(samples.size(), 3u);
  EXPECT_FALSE(samples[0].contains("unheld")) << "held first";
  for (std::size_t i = 1; i < samples.size(); ++i)
    EXPECT_EQ(samples[i].value("unheld", false), true) << samples[i].dump();
  const auto prepared = runner.sent("bench_prepare");
  ASSERT_EQ(prepared.size(), 2u);
  EXPECT_EQ(prepared[1].at("seed"), r->seed) << "the same inputs again";
  auto run_json = to_json(*r);
  EXPECT_NE(run_json.value("timing_method", "").find("unheld: a launcher waits for the GPU"),
            std::string::npos);
  auto result = nlohmann::json::parse(
      testing::read_text(testing::source_dir() / "tests/eval/fixtures/h200/compare_slower_5.json"));
  for (const auto& [key, value] : result["runs"][0].items())
    if (!run_json.contains(key)) run_json[key] = value;  // fields compare_series adds
  result["runs"][0] = run_json;
  EXPECT_TRUE(testing::is_valid_result(result, "compare", dir));
}

TEST_F(CompareTest, AnUndecidedComparisonStopsAtTheTimeLimit) {
  steady(10e-6, 10.2e-6, 0.2);  // 2% apart under 20% noise: not decidable quickly
  flags.budget.max_seconds = 0.05;
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->end, AbState::time_limit);
  EXPECT_EQ(r->comparison.verdict, Verdict::ambiguous) << r->comparison.reason;
  EXPECT_LT(r->pairs, flags.budget.max_pairs);
  EXPECT_EQ(runner.sent("recheck").size(), 2u) << "rechecked even when undecided";
}

}  // namespace
}  // namespace kblaster

namespace kblaster {
namespace {

// Issue 21 B: on the H200 each kernel's launch-bound time falls in one of two modes ~5 % apart
// per CUDA context, so one process read the same pair as B/A 1.041 and the next as 1.000. Here A
// is in its slow mode in every third harness and B in every third from the first: in the first
// harness alone B reads 5.5 % slower than A, though they are equally fast.
class LaunchBoundCompareTest : public CompareTest {
 protected:
  void modes(double a, double b) {
    launch = [this, a, b](int c, std::size_t) {
      const std::uint64_t g = runner.generation();
      const bool slow = c == 0 ? g % 3 == 2 : g % 3 == 1;
      return TimingSample{c, source.timing((c == 0 ? a : b) * (slow ? 1.055 : 1.0), 0.004), kMhz};
    };
  }
  void SetUp() override {
    CompareTest::SetUp();
    ASSERT_TRUE(client.load({"a.so", "b.so"}, std::nullopt).ok());
    ASSERT_TRUE(client.setup(json{{"N", 1048576}}).ok());
  }
};

TEST_F(LaunchBoundCompareTest, EquallyFastKernelsAreTheSameThoughOneContextSaysSlower) {
  modes(4e-6, 4e-6);
  // One context (the first harness), as compare timed such a pair before.
  std::vector<double> a, b;
  for (int i = 0; i < 200; ++i) {
    a.push_back(launch(0, 0).gpu_seconds);
    b.push_back(launch(1, 0).gpu_seconds);
  }
  EXPECT_EQ(compare(a, b, flags.criteria).verdict, Verdict::slower) << "the bias this removes";

  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->rejected.empty()) << r->rejected;
  EXPECT_EQ(r->comparison.verdict, Verdict::same) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.0, 0.01);
  ASSERT_EQ(r->contexts.size(), static_cast<std::size_t>(kTimingContexts));
  EXPECT_EQ(runner.restarts, kTimingContexts - 1);
  const auto prepared = runner.sent("bench_prepare");
  ASSERT_EQ(prepared.size(), static_cast<std::size_t>(kTimingContexts));
  for (const auto& p : prepared) EXPECT_EQ(p.at("seed"), r->seed) << "the same inputs in each";
  // The verdict's samples are A's typical fast context's and B's.
  std::vector<double> a_medians, b_medians;
  for (const AbContext& c : r->contexts) {
    a_medians.push_back(c.a_median);
    b_medians.push_back(c.b_median);
  }
  EXPECT_EQ(r->a_context, typical_fast_context(a_medians));
  EXPECT_EQ(r->b_context, typical_fast_context(b_medians));
  EXPECT_LT(r->contexts[r->a_context].a_median, 4.1e-6) << "in A's fast mode";
  EXPECT_LT(r->contexts[r->b_context].b_median, 4.1e-6) << "in B's fast mode";
  EXPECT_EQ(r->samples.a_s, r->contexts[r->a_context].samples.a_s);
  EXPECT_EQ(r->samples.b_s, r->contexts[r->b_context].samples.b_s);
  EXPECT_EQ(runner.ops().back(), "recheck");
  // In a real H200 compare result in place of its first run, it validates.
  auto result = nlohmann::json::parse(
      testing::read_text(testing::source_dir() / "tests/eval/fixtures/h200/compare_slower_5.json"));
  auto run_json = to_json(*r);
  EXPECT_EQ(run_json["contexts"]["runs"].size(), static_cast<std::size_t>(kTimingContexts));
  EXPECT_NE(run_json["contexts"]["method"].get<std::string>().find("16 fresh CUDA contexts"),
            std::string::npos);
  for (const auto& [key, value] : result["runs"][0].items())
    if (!run_json.contains(key)) run_json[key] = value;  // fields compare_series adds
  result["runs"][0] = run_json;
  EXPECT_TRUE(testing::is_valid_result(result, "compare", dir));
}

TEST_F(LaunchBoundCompareTest, AFivePercentSlowdownIsSlowerAcrossTheModes) {
  modes(4e-6, 4.2e-6);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->comparison.verdict, Verdict::slower) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.05, 0.01);
}

// On the H200 single cold launches of a 4.7-us kernel fell in two clusters ~3.5 % apart within
// one context (4480-4512 and 4640-4704 ns, about half in each), in whole ticks of the 32-ns
// event timer, so a context's median jumped between them and 12 of 20 identical pairs came out
// AMBIGUOUS (bench/results/2026-12-03-h200-rule2.md). Here each launch is in either cluster at
// even odds and a sample is whole ticks of its batch: hot batches average what single launches
// cannot.
class TickBoundCompareTest : public LaunchBoundCompareTest {
 protected:
  void ticks(double a, double b) {
    launch = [this, a, b](int c, std::size_t) {
      constexpr double kTick = 32e-9;
      double batch = 0;
      for (int i = 0; i < calls; ++i)
        batch += source.timing(c == 0 ? a : b, 0.004) * (coin() ? 1.035 : 1.0);
      return TimingSample{c, std::round(batch / kTick) * kTick / calls, kMhz};
    };
  }
  bool coin() { return std::uniform_int_distribution<int>(0, 1)(bits); }
  std::mt19937 bits{7};
};

TEST_F(TickBoundCompareTest, PairsAreHotBatchesSizedToTheKernel) {
  ticks(4.7e-6, 4.7e-6);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  // ~100 us of GPU time a sample, from the slower warm-up median (4.7 or 4.86 us).
  EXPECT_GE(r->calls, hot_batch_calls(4.7e-6 * 1.035));
  EXPECT_LE(r->calls, hot_batch_calls(4.7e-6));
  const auto sent = runner.sent("sample");
  EXPECT_FALSE(sent.front().contains("calls")) << "the warm-up that finds it launch-bound is cold";
  for (std::size_t i = 1; i + 1 < sent.size(); ++i) EXPECT_EQ(sent[i].at("calls"), r->calls) << i;
  EXPECT_EQ(ab_method_note(*r), "hot batches of " + std::to_string(r->calls) +
                                    " calls in 16 CUDA contexts (launch-bound)");
  // The recheck needs each candidate's last single-call output: a cold pair comes last.
  const auto ops = runner.ops();
  ASSERT_GE(ops.size(), 3u);
  EXPECT_EQ(ops[ops.size() - 3], "sample");
  EXPECT_FALSE(sent.back().contains("calls"));
  EXPECT_EQ(sent.back().at("order"), (json{0, 1}));
  // Only the last context computes the expected outputs the recheck compares against.
  const auto prepared = runner.sent("bench_prepare");
  ASSERT_EQ(prepared.size(), 16u);
  for (std::size_t i = 1; i + 1 < prepared.size(); ++i)
    EXPECT_EQ(prepared[i].value("expected", true), false) << i;
  EXPECT_FALSE(prepared.front().contains("expected"));
  EXPECT_FALSE(prepared.back().contains("expected"));
  EXPECT_EQ(to_json(*r)["contexts"]["calls"], r->calls);
}

TEST_F(TickBoundCompareTest, IdenticalKernelsAreTheSameThoughALaunchIsAFewTicks) {
  for (int i = 0; i < 5; ++i) {
    ticks(4.7e-6, 4.7e-6);
    auto r = run();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->comparison.verdict, Verdict::same) << i << ": " << r->comparison.reason;
  }
}

TEST_F(TickBoundCompareTest, ATwoPercentSlowdownIsSlower) {
  ticks(4.7e-6, 4.7e-6 * 1.025);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->comparison.verdict, Verdict::slower) << r->comparison.reason;
  EXPECT_NEAR(r->comparison.ratio, 1.025, 0.005);
}

// B writes out of bounds while timed in the fifth context: seen before that harness ends.
TEST_F(TickBoundCompareTest, GuardDamageInAnEarlierContextRejectsTheComparison) {
  ticks(4.7e-6, 4.7e-6);
  runner.on("guard_damage", [this](const json& request) -> Result<json> {
    if (runner.generation() != 5 || request.at("candidate") != 1) return json{{"verdict", nullptr}};
    return json{{"verdict", testing::harness_verdict(false, "out_of_bounds_write",
                                                     "out: 4 bytes after the end changed")}};
  });
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->rejected,
            "B while timed in CUDA context 5: out_of_bounds_write: out: 4 bytes after the end "
            "changed");
  EXPECT_EQ(r->recheck_b.reason, "out_of_bounds_write") << "B is blamed";
  EXPECT_EQ(r->recheck_a.why(), VerdictReason::not_rechecked) << "A is not";
  EXPECT_TRUE(to_json(*r)["recheck"]["a"].is_null());
}

TEST_F(LaunchBoundCompareTest, AKernelOf20UsOrMoreIsComparedInOneContext) {
  modes(25e-6, 25e-6);
  auto r = run();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->contexts.empty());
  EXPECT_EQ(runner.restarts, 0);
  EXPECT_FALSE(to_json(*r).contains("contexts"));
  EXPECT_EQ(r->calls, 1);
  for (const auto& s : runner.sent("sample")) EXPECT_FALSE(s.contains("calls")) << "cold";
  EXPECT_EQ(ab_method_note(*r), "");
}

}  // namespace
}  // namespace kblaster

namespace kblaster {
namespace {

// Issue 22, point 3: A accepts every size, B (vectorized) needs n % 4 == 0. compare and check
// time both on the sizes both accept, and say which were left out.
TEST(KeepCommonSizes, BothKernelsRunOnTheSizesBothAcceptAndTheRestAreSaid) {
  KernelSpec a, b;
  a.name = "plain", b.name = "vectorized";
  a.args = b.args = {ArgSpec{.name = "n", .type = DType::i32}};
  a.sizes = a.declared_sizes = b.declared_sizes = {{{"n", 1024}}, {{"n", 1001}}, {{"n", 64}}};
  b.sizes = {{{"n", 1024}}, {{"n", 64}}};
  b.left_out = {{{{"n", 1001}}, "requires `n % 4 == 0` (n=1001)"}};
  ASSERT_TRUE(check_same_workload(a, b).ok()) << "the same declared sizes";
  KernelSpec other_vocabulary = b;
  other_vocabulary.constants = {{"V", 32000}};
  EXPECT_FALSE(check_same_workload(a, other_vocabulary).ok())
      << "buffers sized by another constant are another workload";
  auto lines = keep_common_sizes(a, b);
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  EXPECT_EQ(*lines, std::vector<std::string>{
                        "n=1001 left out: `vectorized` requires `n % 4 == 0` (n=1001)"});
  EXPECT_EQ(a.sizes,
            (std::vector<std::map<std::string, std::int64_t>>{{{"n", 1024}}, {{"n", 64}}}));
  EXPECT_EQ(b.sizes, a.sizes);
  ASSERT_EQ(a.left_out.size(), 1u);
  EXPECT_EQ(a.left_out[0].second, "`vectorized` requires `n % 4 == 0` (n=1001)");

  b.sizes = {{{"n", 1024}}};
  b.left_out.push_back({{{"n", 64}}, "requires `n >= 128` (n=64)"});
  a.sizes = {{{"n", 1001}}, {{"n", 64}}};  // as if A required n to be odd or small
  a.left_out = {{{{"n", 1024}}, "requires `n % 2 == 1` (n=1024)"}};
  auto none = keep_common_sizes(a, b);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message,
            "kernels `plain` and `vectorized` accept no size in common: n=1024 left out: `plain` "
            "requires `n % 2 == 1` (n=1024)");
}

}  // namespace
}  // namespace kblaster
