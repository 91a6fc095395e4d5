// `bench --baseline torch` (issue 22): the PyTorch reference timed by kblaster's stopping rule,
// through the harness protocol (a scripted harness: the worker itself is tested in
// tests/harness/python_reference_test.cc, and on the H200).
#include "eval/baseline_step.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/fake_harness_runner.h"
#include "stats/synthetic.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeClock;
using testing::FakeHarnessRunner;
using ::testing::HasSubstr;

class BaselineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        client.load({"a.so"}, ReferenceObject{ReferenceObject::Kind::python, "r.py", "Model"})
            .ok());
    runner.on("baseline_sample", [this](const json& request) -> Result<json> {
      // The first request imports torch and compiles: 20 s, past bench's 15-s time limit.
      if (runner.sent("baseline_sample").size() == 1) clock.advance(20.0);
      json samples = json::array();
      for (int i = 0; i < request.at("count").get<int>(); ++i) {
        samples.push_back(source.timing(10e-6, 0.01));
        clock.advance(10e-6);
      }
      return json{{"samples", samples}, {"runtime", "torch 2.5.1 on cuda"}};
    });
  }
  FakeHarnessRunner runner;
  HarnessClient client{runner};
  FakeClock clock;
  BenchFlags flags;
  synthetic::TimingSource source{7};
};

TEST_F(BaselineTest, EachModeIsSampledUntilTheStoppingRuleEndsIt) {
  auto b = measure_baseline(client, "compile", 5e-6, 11, flags, clock);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_TRUE(b->failed.empty()) << b->failed;
  EXPECT_NE(b->stop.reason, StopReason::time_limit) << "the compile's 20 s is not the samples'";
  EXPECT_NEAR(b->summary.median, 10e-6, 0.2e-6);
  EXPECT_NEAR(b->speedup, 2.0, 0.05) << "torch's median over the kernel's";
  EXPECT_NE(b->stop.reason, StopReason::keep_going);
  EXPECT_GE(b->samples.size(), static_cast<std::size_t>(flags.stop.min_samples));
  const auto sent = runner.sent("baseline_sample");
  ASSERT_GE(sent.size(), 2u);
  EXPECT_EQ(sent[0].at("count"), 3) << "a first small request, then ~20 ms of work each";
  EXPECT_EQ(sent[1].at("count"), 1000);
  for (const auto& r : sent) EXPECT_EQ(r.at("mode"), "compile");
  EXPECT_EQ(runner.timeouts.back(), HarnessTimeouts{}.baseline_s) << "compiling may take minutes";
  EXPECT_THAT(describe(*b), HasSubstr("torch compile 10"));
  EXPECT_THAT(describe(*b), HasSubstr("torch 2.5.1 on cuda): the kernel 2.0"));
  EXPECT_THAT(describe(*b), HasSubstr("x faster"));
  const json j = to_json(*b);
  EXPECT_EQ(j["mode"], "compile");
  EXPECT_EQ(j["samples"].size(), b->samples.size());
}

TEST_F(BaselineTest, AModuleThatFailsIsSaidAndTheBenchGoesOn) {
  runner.on("baseline_sample", [](const json&) -> Result<json> {
    return Error::io("the PyTorch reference r.py:Model: BackendCompilerFailed: inductor");
  });
  auto b = measure_baseline(client, "compile", 5e-6, 11, flags, clock);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_THAT(b->failed, HasSubstr("BackendCompilerFailed"));
  EXPECT_THAT(describe(*b), HasSubstr("torch compile not timed: "));
  EXPECT_EQ(to_json(*b), (json{{"mode", "compile"}, {"failed", b->failed}}));
}

TEST_F(BaselineTest, AWorkerPastItsTimeEndsTheHarnessWhichIsRestoredForWhatFollows) {
  runner.fail_next("baseline_sample", HarnessFailure::timeout, "no answer within 600 s");
  auto b = measure_baseline(client, "compile", 5e-6, 11, flags, clock);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_THAT(b->failed, HasSubstr("no answer within 600 s"));
  EXPECT_TRUE(client.holds_load());
  const auto ops = runner.ops();
  EXPECT_EQ(ops[ops.size() - 2], "load") << "the load sent again";
  EXPECT_EQ(ops.back(), "bench_prepare") << "and the same inputs for the next mode";
  EXPECT_EQ(runner.sent("bench_prepare").back().at("seed"), 11);
}

}  // namespace
}  // namespace kblaster
