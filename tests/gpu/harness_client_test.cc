#include "gpu/harness_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config_loader.h"
#include "core/launch_plan.h"
#include "eval/fake_harness_runner.h"
#include "eval/verify_step.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeHarnessRunner;
using testing::harness_verdict;

// A kernel with every kind of argument: buffers of each role with explicit and
// default inits, a fixed float scalar, free and fixed integer scalars, and a
// launcher-argument tunable.
constexpr const char* kConfig = R"TOML([[kernel]]
name = "mix"
source = "k/mix.cu"
launcher = "mix"
reference = "k/mix_ref.cpp:mix_ref"
args = [
  { name = "y", type = "f32", shape = "N*C", role = "inout", init = "uniform(-1,1)" },
  { name = "x", type = "f16", shape = "N", init = "normal(2,0.5)" },
  { name = "idx", type = "i32", shape = "C", init = "randint(0,7)" },
  { name = "out", type = "f32", shape = "N", role = "out" },
  { name = "alpha", type = "f32", value = 0.5 },
  { name = "N", type = "i32" },
  { name = "C", type = "i64" },
  { name = "block", type = "i32", tunable = [256, 128, 512] },
  { name = "K", type = "i32", value = 3 },
]
sizes = [ { N = 1024, C = 8 }, { N = 7, C = 3 } ]
)TOML";

class HarnessClientArgs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir.write("k/mix.cu", "void mix() {}\n");
    dir.write("k/mix_ref.cpp", "void mix_ref() {}\n");
    dir.write("kblaster.toml", kConfig);
    auto loaded = load_config(DirectoryTree(dir.path()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    config = std::move(*loaded);
    auto planned = plan_kernel(config.kernels.at(0));
    ASSERT_TRUE(planned.ok()) << planned.error().describe();
    plan = std::move(*planned);
  }
  const KernelSpec& spec() const { return config.kernels.at(0); }

  testing::TempDir dir;
  Config config;
  KernelPlan plan;
};

json buffer(const char* name, const char* type, const char* role, std::int64_t elements,
            const char* kind, double a, double b) {
  return {{"name", name}, {"type", type},         {"to_reference", true},
          {"role", role}, {"elements", elements}, {"init", {{"kind", kind}, {"a", a}, {"b", b}}}};
}
json scalar(const char* name, const char* type, json value, bool to_reference = true) {
  return {{"name", name}, {"type", type}, {"to_reference", to_reference}, {"value", value}};
}

TEST_F(HarnessClientArgs, DescribesEveryArgumentAtTheSize) {
  const json expected = {
      buffer("y", "f32", "inout", 1024 * 8, "uniform", -1, 1),
      buffer("x", "f16", "in", 1024, "normal", 2, 0.5),
      buffer("idx", "i32", "in", 8, "randint", 0, 7),
      buffer("out", "f32", "out", 1024, "normal", 0, 1),
      scalar("alpha", "f32", 0.5),
      scalar("N", "i32", 1024),
      scalar("C", "i64", 8),
      scalar("block", "i32", 256, /*to_reference=*/false),
      scalar("K", "i32", 3),
  };
  const json args = harness_args(spec(), plan.sizes[0]);
  EXPECT_EQ(args, expected) << args.dump(1);
  EXPECT_TRUE(args[4]["value"].is_number_float()) << "a float scalar keeps its fractional value";
  EXPECT_TRUE(args[5]["value"].is_number_integer());
}

TEST_F(HarnessClientArgs, FollowsTheSizeForElementsAndIntegerScalars) {
  const json args = harness_args(spec(), plan.sizes[1]);
  EXPECT_EQ(args[0]["elements"], 21);
  EXPECT_EQ(args[1]["elements"], 7);
  EXPECT_EQ(args[2]["elements"], 3);
  EXPECT_EQ(args[3]["elements"], 7);
  EXPECT_EQ(args[5]["value"], 7);
  EXPECT_EQ(args[6]["value"], 3);
  EXPECT_EQ(args[7]["value"], 256);
}

TEST_F(HarnessClientArgs, AnOverrideReplacesTheTunablesDefault) {
  const json args = harness_args(spec(), plan.sizes[0], {{"block", 128}});
  EXPECT_EQ(args[7], scalar("block", "i32", 128, /*to_reference=*/false));
  EXPECT_EQ(args[5]["value"], 1024) << "other scalars are untouched";
}

class HarnessClientTest : public ::testing::Test {
 protected:
  FakeHarnessRunner runner;
  HarnessClient client{runner, HarnessTimeouts{5.0, 7.0}};
  const Tolerance tolerance{1e-4, 1e-5};
};

TEST_F(HarnessClientTest, VerifySendsTheProtocolRequestAndParsesTheVerdict) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(false, "wrong_result", "out[17]: got 3, expected 2",
                                            {{"seed", 12}, {"index", 17}})}};
  });
  auto verdict = client.verify(0, {11, 12, 13}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  ASSERT_EQ(runner.requests.size(), 1u);
  const json expected = {{"op", "verify"},
                         {"candidate", 0},
                         {"seeds", {11, 12, 13}},
                         {"tolerance", {{"rtol", 1e-4}, {"atol", 1e-5}}},
                         {"against", "reference"}};
  EXPECT_EQ(runner.requests[0], expected) << runner.requests[0].dump();
  EXPECT_EQ(runner.timeouts[0], 7.0) << "verify runs under the launch timeout";
  EXPECT_FALSE(verdict->passed);
  EXPECT_EQ(verdict->reason, "wrong_result");
  EXPECT_EQ(verdict->message, "out[17]: got 3, expected 2");
  EXPECT_EQ(verdict->detail, (json{{"seed", 12}, {"index", 17}}));
  EXPECT_EQ(runner.restarts, 0);
}

// Issue 22, point 9: the harness says what its reference cost in each verify and bench_prepare
// answer; the client sums it, so a command can report the time spent in references.
TEST_F(HarnessClientTest, TheReferencesWorkIsSummedOverVerifyAndBenchPrepare) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(true, "passed")},
                {"reference", {{"seconds", 1.5}, {"runs", 3}, {"reused", 0}}}};
  });
  runner.on("bench_prepare", [](const json&) -> Result<json> {
    return json{{"reference", {{"seconds", 0.0}, {"runs", 0}, {"reused", 1}, {"shared", 1}}}};
  });
  ASSERT_TRUE(client.verify(0, {1, 2, 3}, tolerance, Against{}).ok());
  ASSERT_TRUE(client.verify(1, {1, 2, 3}, tolerance, Against{}).ok());
  ASSERT_TRUE(client.bench_prepare(9, Against{}).ok());
  EXPECT_EQ(client.reference_work().runs, 6);
  EXPECT_EQ(client.reference_work().reused, 1);
  EXPECT_EQ(client.reference_work().shared, 1);
  EXPECT_DOUBLE_EQ(client.reference_work().seconds, 3.0);
  EXPECT_EQ(describe_reference_work(client.reference_work()),
            "references: ran 6 time(s) in 3.00 s, reused 1 time(s), 1 from an earlier harness's "
            "files (a seed's reference outputs are kept and reused within a command where they "
            "fit)");
}

TEST_F(HarnessClientTest, VerifyAgainstAnotherCandidateNamesIt) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(true, "passed")}};
  });
  auto verdict = client.verify(0, {1}, tolerance, Against{1});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_TRUE(verdict->passed);
  EXPECT_EQ(runner.requests.at(0)["against"], (json{{"candidate", 1}}));
}

TEST_F(HarnessClientTest, AVerifyTimeoutIsAVerdictNotAnError) {
  runner.fail_next("verify", HarnessFailure::timeout, "harness request 'verify': no answer in 7 s");
  auto verdict = client.verify(0, {1}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_FALSE(verdict->passed);
  EXPECT_EQ(verdict->reason, "timeout");
  EXPECT_NE(verdict->message.find("7 s"), std::string::npos) << verdict->message;
}

TEST_F(HarnessClientTest, AVerifyCrashIsAVerdictNotAnError) {
  runner.fail_next("verify", HarnessFailure::crashed, "harness exited with signal 11");
  auto verdict = client.verify(0, {1}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_FALSE(verdict->passed);
  EXPECT_EQ(verdict->reason, "crashed");
  EXPECT_NE(verdict->message.find("signal 11"), std::string::npos) << verdict->message;
}

TEST_F(HarnessClientTest, ARefusedVerifyStaysAnErrorWithTheHarnessMessage) {
  runner.on("verify", [](const json&) -> Result<json> {
    return Error::io("harness refused 'verify': no candidates loaded");
  });
  auto verdict = client.verify(0, {1}, tolerance, Against{});
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().message, "harness refused 'verify': no candidates loaded");
  EXPECT_EQ(runner.last_failure(), HarnessFailure::refused);
}

// A refusal the reference caused (a GPU reference that faulted, say) may have left the context
// unusable: the next call reaches a fresh harness, not one that answers every request with it.
TEST_F(HarnessClientTest, AReferencesRefusalRestartsTheHarness) {
  runner.on("verify", [](const json&) -> Result<json> {
    return Error::config("",
                         "harness refused 'verify': the GPU reference faulted: "
                         "cudaErrorIllegalAddress");
  });
  auto verdict = client.verify(0, {1}, tolerance, Against{});
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().kind, ErrorKind::config);
  EXPECT_EQ(runner.restarts, 1);
}

TEST_F(HarnessClientTest, ALostContextRestartsTheHarness) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(false, "launch_error", "illegal address",
                                            {{"context_lost", true}})}};
  });
  auto verdict = client.verify(0, {1}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_EQ(verdict->reason, "launch_error");
  EXPECT_EQ(runner.restarts, 1);
  EXPECT_EQ(runner.generation(), 1u);
  ASSERT_TRUE(client.setup(json::array()).ok());
  EXPECT_EQ(runner.generation(), 2u) << "the next call reaches a fresh harness";
}

TEST_F(HarnessClientTest, AFailedVerdictWithItsContextIntactDoesNotRestart) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(false, "launch_error", "invalid argument",
                                            {{"context_lost", false}})}};
  });
  ASSERT_TRUE(client.verify(0, {1}, tolerance, Against{}).ok());
  EXPECT_EQ(runner.restarts, 0);
}

// What a step relies on after a candidate brought the harness down: whether the
// harness still holds the last load, and what restore_if_lost() sends again.
class HarnessClientRestore : public HarnessClientTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(client.load({"a.so", "b.so"}, std::nullopt).ok());
    ASSERT_TRUE(client.setup(json{{"N", 1}}).ok());
    ASSERT_TRUE(client.holds_load());
  }
  // The ops restore_if_lost() sent, and the last load's candidates and setup's args.
  std::vector<std::string> restored() {
    const std::size_t before = runner.requests.size();
    EXPECT_TRUE(client.restore_if_lost().ok());
    std::vector<std::string> ops;
    for (std::size_t i = before; i < runner.requests.size(); ++i)
      ops.push_back(runner.requests[i].value("op", "?"));
    return ops;
  }
  const std::vector<std::string> kLoadAndSetup = {"load", "setup"};
};

TEST_F(HarnessClientRestore, NothingIsSentWhileTheHarnessHoldsTheLoad) {
  EXPECT_TRUE(restored().empty());
}

TEST_F(HarnessClientRestore, ARefusedSampleRestartsAndTheLoadIsSentAgain) {
  runner.fail_next("sample", HarnessFailure::refused, "candidate 1 failed while timing");
  ASSERT_FALSE(client.sample({0, 1}).ok());
  EXPECT_FALSE(client.holds_load()) << "the client restarted the harness";
  EXPECT_EQ(restored(), kLoadAndSetup);
  EXPECT_TRUE(client.holds_load());
  EXPECT_EQ(runner.sent("setup").back()["args"], (json{{"N", 1}}));
}

TEST_F(HarnessClientRestore, ALostContextInVerifyIsRestoredToo) {
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(false, "launch_error", "illegal address",
                                            {{"context_lost", true}})}};
  });
  ASSERT_TRUE(client.verify(1, {7}, tolerance, Against{}).ok());
  EXPECT_FALSE(client.holds_load());
  EXPECT_EQ(restored(), kLoadAndSetup);
}

TEST_F(HarnessClientRestore, ARefusedLoadOrSetupLeavesNothingHeld) {
  runner.fail_next("setup", HarnessFailure::refused, "out of memory");
  ASSERT_FALSE(client.setup(json{{"N", 2}}).ok());
  EXPECT_FALSE(client.holds_load()) << "the harness dropped its workload before setting up";
  EXPECT_EQ(restored(), kLoadAndSetup);
  EXPECT_EQ(runner.sent("setup").back()["args"], (json{{"N", 2}})) << "the newest setup";

  runner.fail_next("load", HarnessFailure::refused, "dlopen failed");
  ASSERT_FALSE(client.load({"c.so"}, std::nullopt).ok());
  EXPECT_FALSE(client.holds_load()) << "the harness dropped its candidates before loading";
}

TEST_F(HarnessClientRestore, ALoadThatEndsTheHarnessIsTheOneSentAgain) {
  runner.fail_next("load", HarnessFailure::timeout, "no answer");
  ASSERT_FALSE(client.load({"c.so"}, std::nullopt).ok());
  EXPECT_EQ(restored(), std::vector<std::string>{"load"}) << "no setup followed the newest load";
  EXPECT_EQ(runner.sent("load").back()["candidates"], (json{"c.so"}));
}

// A reference that fails beside candidates (loaded, or run in its CUDA context) may have failed
// for damage they did: it runs alone in a harness loaded with nothing else (bench_prepare runs
// just the reference), one seed at a time; passing there, the candidate is verified again in a
// fresh context of the whole load, whose verdict stands.
TEST_F(HarnessClientRestore, AReferenceThatPassesAloneIsTriedAgainBesideTheCandidate) {
  runner.fail_next("verify", HarnessFailure::reference_suspect,
                   "harness refused 'verify': the GPU reference faulted (beside other candidates "
                   "in this CUDA context): cudaErrorIllegalAddress");
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(true, "", "", {{"max_abs_error", 0.0}})}};
  });
  auto verdict = client.verify(1, {7, 8}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_TRUE(verdict->passed) << "the first failure was not this candidate's to carry";
  EXPECT_THAT(runner.ops(),
              ::testing::ElementsAre("load", "setup", "verify", "load", "setup", "bench_prepare",
                                     "bench_prepare", "load", "setup", "verify"));
  const auto loads = runner.sent("load");
  EXPECT_EQ(loads[1]["candidates"], json::array()) << "the reference alone";
  EXPECT_EQ(loads[2]["candidates"], (json{"a.so", "b.so"})) << "then the whole load again";
  EXPECT_EQ(runner.sent("bench_prepare")[1]["seed"], 8);
  EXPECT_TRUE(client.holds_load());
}

// Failing beside the candidate in a fresh context too, while it passes alone: the candidate's.
TEST_F(HarnessClientRestore, AReferenceThatFailsOnlyBesideTheCandidateFailsTheCandidate) {
  runner.fail_next("verify", HarnessFailure::reference_suspect, "the GPU reference faulted");
  runner.fail_next("verify", HarnessFailure::reference_suspect, "the GPU reference faulted again");
  auto verdict = client.verify(1, {7}, tolerance, Against{});
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_FALSE(verdict->passed);
  EXPECT_EQ(verdict->reason, "launch_error");
  EXPECT_THAT(verdict->message, ::testing::HasSubstr("passes alone and fails beside this "
                                                     "candidate"));
  EXPECT_EQ(runner.sent("verify").size(), 2u) << "once more, not a loop";
}

// Failing alone too, it is the reference's own failure: the user's to fix.
TEST_F(HarnessClientRestore, AReferenceThatFailsAloneTooIsItsOwnFailure) {
  runner.fail_next("verify", HarnessFailure::reference_suspect, "the GPU reference faulted");
  runner.on("bench_prepare", [](const json&) -> Result<json> {
    return Error::config("",
                         "harness refused 'bench_prepare': the GPU reference faulted: "
                         "cudaErrorIllegalAddress");
  });
  auto verdict = client.verify(0, {7}, tolerance, Against{});
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().kind, ErrorKind::config);
  EXPECT_THAT(verdict.error().message, ::testing::HasSubstr("the GPU reference faulted"));
  EXPECT_EQ(runner.sent("verify").size(), 1u);
}

// Check's base as the reference runs alone as candidate 0 of a load holding only it.
TEST_F(HarnessClientRestore, TheBaseAsReferenceRunsAloneAsTheOnlyCandidate) {
  runner.fail_next("verify", HarnessFailure::reference_suspect,
                   "the candidate used as reference "
                   "faulted");
  runner.on("verify", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(true, "", "", {{"max_abs_error", 0.0}})}};
  });
  ASSERT_TRUE(client.verify(1, {7}, tolerance, Against{1}).ok());
  EXPECT_EQ(runner.sent("load")[1]["candidates"], (json{"b.so"}));
  EXPECT_EQ(runner.sent("bench_prepare")[0]["against"], (json{{"candidate", 0}}));
}

// bench_prepare, beside candidates (an A/B after verify), runs the reference alone, then tries
// once more in a fresh context, whose answer stands.
TEST_F(HarnessClientRestore, ASuspectReferenceInBenchPrepareIsTriedOnceInAFreshContext) {
  runner.fail_next("bench_prepare", HarnessFailure::reference_suspect, "the reference faulted");
  ASSERT_TRUE(client.bench_prepare(5, Against{}).ok());
  EXPECT_THAT(runner.ops(),
              ::testing::ElementsAre("load", "setup", "bench_prepare", "load", "setup",
                                     "bench_prepare", "load", "setup", "bench_prepare"));
  runner.fail_next("bench_prepare", HarnessFailure::reference_suspect, "the reference faulted");
  runner.fail_next("bench_prepare", HarnessFailure::reference_suspect, "again", /*skip=*/1);
  EXPECT_FALSE(client.bench_prepare(5, Against{}).ok()) << "one more try, not a loop";
  EXPECT_EQ(runner.sent("bench_prepare").size(), 6u);
}

// Check's base revision failing as head's reference (cause "base") stays an Error for check to
// read by last_failure(); its CUDA context may be lost, so the next call reaches a fresh one.
TEST_F(HarnessClientRestore, ABaseThatFailsAsTheReferenceRestartsTheHarness) {
  runner.fail_next("verify", HarnessFailure::base_failed,
                   "the candidate used as reference faulted: cudaErrorIllegalAddress");
  auto verdict = client.verify(1, {7}, tolerance, Against{0});
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(client.last_failure(), HarnessFailure::base_failed);
  EXPECT_EQ(runner.restarts, 1);
  EXPECT_FALSE(client.holds_load());
}

TEST_F(HarnessClientRestore, AGarbledRecheckAnswerIsAVerdictThatEndsTheHarness) {
  runner.fail_next("recheck", HarnessFailure::bad_response, "not JSON: hello");
  auto verdict = client.recheck(0, tolerance);
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_EQ(verdict->reason, "bad_response");
  EXPECT_TRUE(ended_the_harness(*verdict));
  EXPECT_FALSE(client.holds_load());
}

TEST_F(HarnessClientTest, SampleSendsTheOrderAndParsesSamplesInOrder) {
  runner.on("sample", [](const json&) -> Result<json> {
    return json{{"samples",
                 {{{"candidate", 0}, {"gpu_s", 1e-5}, {"sm_mhz", 1980}},
                  {{"candidate", 1}, {"gpu_s", 2e-5}, {"sm_mhz", 1975}},
                  {{"candidate", 1}, {"gpu_s", 3e-5}, {"sm_mhz", 1500}},
                  {{"candidate", 0}, {"gpu_s", 4e-5}, {"sm_mhz", 1990}}}}};
  });
  auto samples = client.sample({0, 1, 1, 0});
  ASSERT_TRUE(samples.ok()) << samples.error().message;
  EXPECT_EQ(runner.requests.at(0), (json{{"op", "sample"}, {"order", {0, 1, 1, 0}}}));
  EXPECT_EQ(runner.timeouts.at(0), 7.0);
  ASSERT_EQ(samples->size(), 4u);
  const int candidates[] = {0, 1, 1, 0};
  const double seconds[] = {1e-5, 2e-5, 3e-5, 4e-5};
  const double clocks[] = {1980, 1975, 1500, 1990};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ((*samples)[i].candidate, candidates[i]) << i;
    EXPECT_DOUBLE_EQ((*samples)[i].gpu_seconds, seconds[i]) << i;
    EXPECT_DOUBLE_EQ((*samples)[i].sm_mhz, clocks[i]) << i;
  }
}

// An "ok": true answer that lacks the field the op promises ("samples",
// "verdict", "device") is an Error, not a nlohmann::json exception.
template <class Call>
void expect_error_not_exception(const char* what, Call call) {
  try {
    EXPECT_FALSE(call().ok()) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " threw: " << e.what();
  }
}

TEST_F(HarnessClientTest, AnAnswerWithoutItsFieldIsAnErrorNotAnException) {
  runner.otherwise([](const json&) -> Result<json> { return json{{"ok", true}}; });
  expect_error_not_exception("sample", [&] { return client.sample({0, 1}); });
  expect_error_not_exception("verify", [&] { return client.verify(0, {1}, tolerance, Against{}); });
  expect_error_not_exception("recheck", [&] { return client.recheck(0, tolerance); });
  expect_error_not_exception("hello", [&] { return client.hello(); });
}

TEST_F(HarnessClientTest, FewerSamplesThanLaunchesIsAnError) {
  runner.on("sample", [](const json&) -> Result<json> {
    return json{
        {"samples", json::array({{{"candidate", 0}, {"gpu_s", 1e-5}, {"sm_mhz", 1980.0}}})}};
  });
  auto r = client.sample({0, 1});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, ::testing::HasSubstr("1 samples for 2 launches"));
}

TEST_F(HarnessClientTest, RecheckAndBenchPrepareSendTheirFields) {
  runner.on("recheck", [](const json&) -> Result<json> {
    return json{{"verdict", harness_verdict(false, "output_cached", "same bytes as launch 3")}};
  });
  ASSERT_TRUE(client.bench_prepare(77, Against{1}).ok());
  auto verdict = client.recheck(1, tolerance);
  ASSERT_TRUE(verdict.ok()) << verdict.error().message;
  EXPECT_EQ(runner.requests.at(0),
            (json{{"op", "bench_prepare"}, {"seed", 77}, {"against", {{"candidate", 1}}}}));
  EXPECT_EQ(
      runner.requests.at(1),
      (json{{"op", "recheck"}, {"candidate", 1}, {"tolerance", {{"rtol", 1e-4}, {"atol", 1e-5}}}}));
  EXPECT_EQ(verdict->reason, "output_cached");
  EXPECT_FALSE(verdict->passed);
}

}  // namespace
}  // namespace kblaster
