// The optimise result: files written, and --apply's contract (the user's source
// is rewritten only for a verified, faster, soft-verified best).
#include "search/optimize_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>

#include "core/between_machines.h"
#include "core/candidate_fingerprint.h"
#include "core/config_loader.h"
#include "core/source_tree.h"
#include "eval/fake_harness_runner.h"
#include "result_schema.h"
#include "search/optimize_result.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Answers the final A/B with a scripted verdict and has no profiles (no ncu).
// The H200's measured ceilings (bench/results/2026-11-30-h200/profile/ceilings.json).
const MeasuredCeilings kCeilings{
    .dram_bytes_per_s = 4.21247e12, .fp32_flops_per_s = 54.2553e12, .tensor_flops_per_s = {}};

class ScriptedProbe final : public ResultProbe {
 public:
  Verdict verdict = Verdict::faster;
  double ratio = 0.8;
  std::string rejected;
  int compares = 0;
  Result<AbResult> compare(const Candidate&, const Candidate&) override {
    ++compares;
    AbResult r;
    r.rejected = rejected;
    r.comparison.verdict = verdict;
    r.comparison.ratio = ratio;
    r.comparison.ci_low = ratio * 0.99, r.comparison.ci_high = ratio * 1.01;
    r.comparison.reason = "scripted";
    r.samples = {.a_s = {1e-3, 1.1e-3},
                 .b_s = {0.8e-3, 0.9e-3},
                 .a_sm_mhz = {1980, 1980},
                 .b_sm_mhz = {1980, 1965}};
    r.sm_mhz = 1980;
    return r;
  }
  // What verify_and_time answers: the source form's check.
  Evaluation form_check{.outcome = StepOutcome::same,
                        .log_speedup = 0.0,
                        .ratio = 1.01,
                        .ci_low = 0.99,
                        .ci_high = 1.03,
                        .detail = "scripted"};
  std::vector<Candidate> verified;  // every child verify_and_time was given
  Result<Evaluation> verify_and_time(const Candidate&, const Candidate& child) override {
    verified.push_back(child);
    return form_check;
  }
  Result<std::optional<ProfileReport>> profile(const Candidate&, std::string& why) override {
    if (!report) why = "no ncu here";
    return report;
  }
  std::optional<ProfileReport> report;  // what profile() answers for every candidate
  double gpu_seconds() const override { return 30.0; }
  double profile_seconds() const override { return ncu_seconds; }
  std::vector<BusySpan> gpu_spans() const override { return spans; }
  std::vector<BusySpan> build_waits() const override { return waits; }
  double ncu_seconds = 0.0;
  std::vector<BusySpan> spans;  // on the clock the search started at 100 s of
  std::vector<BusySpan> waits;  // the search's waits for builds, on the same clock
};

class OptimizeReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A copy of the example, so --apply can rewrite a file of the test's own.
    for (const auto& f : DirectoryTree(testing::examples_dir()).list_files())
      repo.write(f, testing::read_text(testing::examples_dir() / f));
    auto c = load_config(DirectoryTree(repo.path()));
    ASSERT_TRUE(c.ok()) << c.error().message;
    config = std::move(*c);
    for (const auto& k : config.kernels)
      if (k.name == "softmax_slow") spec = &k;
    result.baseline.source = testing::read_text(repo.path() / spec->source);
    result.best = result.baseline;
    result.best.source.replace(result.best.source.find("kThreads = 128"), 14, "kThreads = 64");
    result.best.path = {"launch_geometry_tuning"};
    result.best.changes = {"set kThreads from 128 to 64"};
    result.best_log_speedup = std::log(1.25);
    result.best_so_far = {0.0, std::log(1.25)};
    result.stop_reason = "breadth 1 x depth 2 spent";
  }
  Result<nlohmann::json> write(WriteBack write_back) {
    return write_optimize_result(*spec, repo.path(), result, probe, kCeilings, 60.0, out.path(),
                                 write_back, session);
  }
  testing::TempDir repo, out;
  Config config;
  const KernelSpec* spec = nullptr;
  SearchResult result;
  ScriptedProbe probe;
  std::ostringstream stdout_, progress;
  testing::NoDevice device;
  testing::FakeClock clock;
  Session session{stdout_, progress, device, clock, {}};
};

TEST_F(OptimizeReportTest, WritesTheBestSourceAndTheResultButNotTheUsersFile) {
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ(testing::read_text(out.path() / "softmax_slow" / "softmax_slow.cu"),
            result.best.source);
  const auto saved =
      nlohmann::json::parse(testing::read_text(out.path() / "softmax_slow" / "result.json"));
  EXPECT_EQ(saved["path"], nlohmann::json::array({"launch_geometry_tuning"}));
  EXPECT_NEAR(saved["speedup"]["value"].get<double>(), 1.25, 1e-9) << "1 / ratio 0.8";
  EXPECT_EQ(saved["speedup"]["verdict"], "FASTER");
  EXPECT_EQ(saved["evaluations_to_95_percent"], 2);
  EXPECT_NEAR(saved["gpu_idle_share"].get<double>(), 0.5, 1e-9);
  EXPECT_NEAR(saved["gpu_busy_seconds"].get<double>(), 30.0, 1e-9);
  EXPECT_NEAR(saved["ncu_seconds"].get<double>(), 0.0, 1e-9);
  EXPECT_THAT(progress.str(), HasSubstr("; GPU idle 50%\n")) << "no ncu, nothing to say of it";
  EXPECT_THAT(progress.str(), HasSubstr("\n  " + speedup_caveat() + "\n"))
      << "the speedup the user reads says it is this machine's";
  EXPECT_EQ(saved["profile_delta_missing"], "no ncu here");
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.baseline.source);
  EXPECT_EQ(probe.compares, 1) << "the speedup is a fresh A/B, not the product of steps";
}

// A searched kernel, with a step and the final A/B's samples, and a skipped one, in an
// optimize result that validates against reports/schema/optimize.schema.json.
TEST_F(OptimizeReportTest, ItsResultIsPartOfAnOptimizeResultThatValidates) {
  const Evaluation faster{.outcome = StepOutcome::faster,
                          .log_speedup = std::log(1.25),
                          .ratio = 0.8,
                          .ci_low = 0.79,
                          .ci_high = 0.81,
                          .detail = "FASTER"};
  const SearchStep step{.rollout = 0,
                        .depth = 0,
                        .state = "memory.dram_saturated",
                        .technique = "launch_geometry_tuning",
                        .change = "set kThreads from 128 to 64",
                        .mode = ChoiceMode::explore,
                        .predicted_log_speedup = 0.1,
                        .evaluation = faster,
                        .best_log_speedup_after = std::log(1.25),
                        .candidate = result.best.fingerprint(),
                        .elapsed_s = 12.5,
                        .lesson = "memory.dram_saturated / launch_geometry_tuning: observed +25.0%",
                        .by_model = false,
                        .repairs = 0,
                        .tokens = {},
                        .model_lesson = ""};
  result.steps.push_back(step);
  // A step the model applied, with its tokens, and the kernel's LLM totals.
  SearchStep by_model = step;
  by_model.technique = "shared_memory_tiling";
  by_model.by_model = true, by_model.repairs = 1, by_model.tokens = {.input = 1200, .output = 800};
  by_model.model_lesson = by_model.lesson = "Tiling paid off: the grid was undersized.";
  result.steps.push_back(by_model);
  result.llm = TokenTotals{.calls = 4,
                           .usage = {.input = 1200, .output = 800},
                           .cost_usd = 0.012,
                           .cost_known = true,
                           .by_purpose = {{"apply", {.input = 900, .output = 700}}}};
  result.model_slots = 2;
  result.model_calls = {{"softmax_slow", "apply", 1.0, 11.0, 10.0}};
  result.baseline_state = "memory.dram_saturated", result.best_state = "memory.dram_saturated";
  // Both ends profiled: softmax_slow's real H200 profile, placed under the ceilings.
  auto profiled = read_profile(
      testing::read_text(testing::source_dir() / "tests/profile/fixtures/h200/softmax_slow.csv"),
      "softmax_slow.csv", std::nullopt,
      RooflineInputs{.min_bytes = 134217728.0, .flops = 335544320.0, .ceilings = kCeilings});
  ASSERT_TRUE(profiled.ok()) << profiled.error().message;
  probe.report = *profiled;
  auto searched = write(WriteBack::never);
  ASSERT_TRUE(searched.ok()) << searched.error().message;
  OptimizeResult run;
  run.provenance = testing::sample_provenance("optimize", {7, 1007, 1008, 1009});
  run.settings = {.budget = {},
                  .search_seed = 7,
                  .kb_file = "kb.sqlite",
                  .out_dir = out.path(),
                  .source_only = false,
                  .write_back = WriteBack::never,
                  .llm = std::nullopt,
                  .only_techniques = {}};
  run.verification_seeds = {1007, 1008, 1009};
  run.kernels = {{"softmax_slow", *searched, ""},
                 {"axpy", std::nullopt, "the baseline does not build"}};
  run.llm = to_json(*result.llm);
  (*run.llm)["backend"] = "openai", (*run.llm)["model"] = "m", (*run.llm)["exchanges"] = "out/llm";
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(j["kernels"][0]["steps"][1]["policy"], "llm");
  EXPECT_EQ(j["kernels"][0]["steps"][1]["tokens_in"], 1200);
  EXPECT_EQ(j["kernels"][0]["llm"]["cost_usd"], 0.012);
  EXPECT_EQ(j["llm"]["by_purpose"]["apply"]["tokens_out"], 700);
  EXPECT_EQ(j["kernels"][0]["status"], "searched");
  EXPECT_EQ(j["kernels"][0]["final_ab"]["samples"]["b_s"][0], 0.8e-3);
  EXPECT_EQ(j["kernels"][1]["status"], "skipped");
  EXPECT_EQ(j["kernels"][0]["steps"][0]["elapsed_s"], 12.5);
  EXPECT_EQ(j["kernels"][0]["steps"][0]["lesson"],
            "memory.dram_saturated / launch_geometry_tuning: observed +25.0%");
  EXPECT_EQ(j["kernels"][0]["best_source"], result.best.source)
      << "the exact text verified, which an optimization PR proposes";
  EXPECT_EQ(candidate_fingerprint(j["kernels"][0]["best_source"].get<std::string>()),
            j["kernels"][0]["best_candidate"])
      << "a best with no build settings is named by its source alone";
  EXPECT_EQ(j["kernels"][0]["sizes"], nlohmann::json(spec->sizes));
  const auto& roofline = j["kernels"][0]["roofline"];
  EXPECT_EQ(roofline["dram_bytes_per_s"], 4.21247e12);
  EXPECT_EQ(roofline["flops_per_s"], 54.2553e12);
  EXPECT_NEAR(roofline["before"]["arithmetic_intensity"].get<double>(), 2.5, 1e-12);
  EXPECT_GT(roofline["after"]["flops_per_s"].get<double>(), 0.0);
  EXPECT_EQ(optimize_exit_code(run), ExitCode::found_problem);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "optimize", dir));

  nlohmann::json bad = j;
  bad["kernels"][0]["steps"][0]["outcome"] = "quicker";
  bad["kernels"][0]["final_ab"]["samples"]["a_s"][1] = -1.0;
  EXPECT_TRUE(testing::is_rejected_naming(
      bad,
      {"kernels/0/steps/0/outcome: 'quicker' is not one of", "kernels/0/final_ab/samples/a_s/1"},
      dir));
}

TEST_F(OptimizeReportTest, EachStepNamesItsCandidateAndTheOutputSaysWhereItsTreeIs) {
  SearchStep step;
  step.technique = "launch_geometry_tuning";
  step.candidate = result.best.fingerprint();
  result.steps = {step};
  std::filesystem::create_directories(out.path() / "softmax_slow" / "trees" / step.candidate);
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ((*j)["steps"][0]["candidate"], result.best.fingerprint());
  EXPECT_EQ((*j)["best_candidate"], result.best.fingerprint());
  EXPECT_EQ((*j)["baseline_candidate"], result.baseline.fingerprint());
  EXPECT_NE((*j)["best_candidate"], (*j)["baseline_candidate"]);
  const std::string trees = (out.path() / "softmax_slow" / "trees").string();
  EXPECT_THAT(progress.str(),
              HasSubstr("candidates' source trees (the baseline, every step's child, and children "
                        "built ahead): " +
                        trees + "/<candidate>/, as result.json names them (steps[].candidate)\n"));
  EXPECT_THAT(progress.str(), Not(HasSubstr("ncu CSV"))) << "no profiles folder was made";
}

// A profiles folder an earlier run left is not named when this run ran no ncu.
TEST_F(OptimizeReportTest, ProfilesAreNamedOnlyWhenThisRunProfiled) {
  std::filesystem::create_directories(out.path() / "softmax_slow" / "profiles");
  ASSERT_TRUE(write(WriteBack::never).ok());
  EXPECT_THAT(progress.str(), Not(HasSubstr("ncu CSV"))) << "the folder is an earlier run's";
  progress.str("");
  probe.ncu_seconds = 12.0;
  ASSERT_TRUE(write(WriteBack::never).ok());
  EXPECT_THAT(progress.str(), HasSubstr("ncu CSVs of the candidates profiled: " +
                                        (out.path() / "softmax_slow" / "profiles").string() +
                                        "/<candidate>.csv\n"));
}

TEST_F(OptimizeReportTest, TheIdleShareSaysHowMuchOfTheBusyTimeWasNcu) {
  probe.ncu_seconds = 12.0;  // of the 30 busy seconds, in a 60 s search
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_NEAR((*j)["ncu_seconds"].get<double>(), 12.0, 1e-9);
  EXPECT_NEAR((*j)["gpu_idle_share"].get<double>(), 0.5, 1e-9);
  EXPECT_THAT(progress.str(), HasSubstr("GPU idle 50% (ncu 20% of the time, counted busy)\n"));
}

// The raw timeline behind the idle share: GPU spans and model calls from the search's start,
// the GPU's before the search (another kernel's) left out.
TEST_F(OptimizeReportTest, TheTimelineKeepsEachGpuSpanAndModelCallOfTheSearch) {
  result.started_s = 100.0;
  probe.spans = {{90.0, 95.0, "A/B"}, {101.0, 103.5, "verify and A/B"}, {104.0, 110.0, "ncu"}};
  result.model_calls = {{"softmax_slow", "apply", 100.5, 110.5},
                        {"softmax_slow", "review", 111.0, 121.0}};
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ((*j)["timeline"]["gpu"],
            nlohmann::json::parse(R"([[1.0, 3.5, "verify and A/B"], [4.0, 10.0, "ncu"]])"));
  EXPECT_EQ((*j)["timeline"]["model"],
            nlohmann::json::parse(R"([[0.5, 10.5, "apply"], [11.0, 21.0, "review"]])"));
  EXPECT_EQ((*j)["timeline"]["build_waits"], nlohmann::json::array()) << "none waited for";
}

// Issue 21 B2: what kept the GPU idle while candidates compiled, with the candidate waited for.
TEST_F(OptimizeReportTest, TheTimelineKeepsEachWaitForABuild) {
  result.started_s = 100.0;
  probe.waits = {
      {98.0, 99.0, "before the search"}, {100.25, 103.0, "3f2a"}, {110.0, 110.5, "9c1d"}};
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ((*j)["timeline"]["build_waits"],
            nlohmann::json::parse(R"([[0.25, 3.0, "3f2a"], [10.0, 10.5, "9c1d"]])"));
}

// What the model's throughput allowed: 8 answers of 10 s through 2 slots need 40 s, so a GPU
// busy for 30 s was idle at least 25 % of them. A call's wait for a slot is not its answer time.
TEST_F(OptimizeReportTest, TheModelsBoundOnTheIdleShareIsRecordedAndSaidWhenItMatters) {
  result.model_slots = 2;
  for (int i = 0; i < 8; ++i)
    result.model_calls.push_back({"softmax_slow", "apply", 5.0 * i, 5.0 * i + 14.0, 10.0});
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ((*j)["model_bound"],
            nlohmann::json::parse(R"({"slots": 2, "calls": 8, "mean_answer_seconds": 10.0,
                                      "least_wall_seconds": 40.0, "least_idle_share": 0.25})"));
  EXPECT_THAT(progress.str(),
              HasSubstr("  the model bounded the GPU: 8 calls of 10.0 s on average through 2 "
                        "slot(s) need at least 40 s, so the GPU (30.0 s busy) was idle at least "
                        "25 %; more requests in flight ([llm] in_flight) would shorten the "
                        "search\n"));

  // Through 8 slots the same calls need 10 s, less than the GPU's 30: no bound, no line.
  progress.str("");
  result.model_slots = 8;
  auto wide = write(WriteBack::never);
  ASSERT_TRUE(wide.ok()) << wide.error().message;
  EXPECT_EQ((*wide)["model_bound"]["least_idle_share"], 0.0);
  EXPECT_THAT(progress.str(), Not(HasSubstr("the model bounded the GPU")));

  // Without a model there is nothing to bound.
  result.model_slots = 0, result.model_calls.clear();
  auto embedded = write(WriteBack::never);
  ASSERT_TRUE(embedded.ok()) << embedded.error().message;
  EXPECT_FALSE(embedded->contains("model_bound"));
}

TEST_F(OptimizeReportTest, ApplyRewritesTheSourceForAVerifiedSpeedup) {
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_TRUE((*j)["applied"].get<bool>());
  const auto saved =
      nlohmann::json::parse(testing::read_text(out.path() / "softmax_slow" / "result.json"));
  EXPECT_TRUE(saved["applied"].get<bool>()) << "result.json is written last, with the outcome";
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.best.source);
  EXPECT_THAT(progress.str(), HasSubstr("applied: rewrote"));
}

TEST_F(OptimizeReportTest, ApplyLeavesTheSourceAloneWithoutAVerifiedSpeedup) {
  probe.verdict = Verdict::same, probe.ratio = 0.99;
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.baseline.source);
  EXPECT_THAT(progress.str(), HasSubstr("not applied: no verified speedup"));
}

TEST_F(OptimizeReportTest, ARejectedFinalComparisonHasNoSpeedupAndIsNotApplied) {
  probe.rejected = "candidate 1 failed while timing";
  probe.ratio = 0.0;
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_TRUE((*j)["speedup"]["value"].is_null());
  EXPECT_EQ((*j)["speedup"]["verdict"], "REJECTED");
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.baseline.source);
}

TEST_F(OptimizeReportTest, ApplyNeverOverwritesASourceEditedDuringTheSearch) {
  repo.write(spec->source, result.baseline.source + "// edited meanwhile\n");
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_THAT(progress.str(), HasSubstr("changed since the search read it"));
  EXPECT_THAT(testing::read_text(repo.path() / spec->source), HasSubstr("edited meanwhile"));
}

// The source is reread before --apply; one swapped for a FIFO must not block it.
TEST_F(OptimizeReportTest, ApplyLeavesASourceThatIsNoLongerARegularFileAlone) {
  const auto source = repo.path() / spec->source;
  std::filesystem::remove(source);
  ASSERT_EQ(::mkfifo(source.c_str(), 0600), 0);
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_THAT(progress.str(), HasSubstr("a FIFO, not a regular file"));
  EXPECT_TRUE(std::filesystem::is_fifo(source));
}

TEST_F(OptimizeReportTest, ApplyRefusesASpeedupThatNeedsBuildSettings) {
  result.best.extra_flags = {"-use_fast_math"};
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_THAT(progress.str(), HasSubstr("measured with build settings the source alone"));
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.baseline.source);
}

TEST_F(OptimizeReportTest, ApplyLeavesTheSourceAloneWhenSoftVerificationFails) {
  result.soft_verification = {"creates or holds a stream of its own, which the baseline does not"};
  auto j = write(WriteBack::if_verified);
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE((*j)["applied"].get<bool>());
  EXPECT_EQ(testing::read_text(repo.path() / spec->source), result.baseline.source);
  EXPECT_THAT(progress.str(), HasSubstr("soft verification: creates or holds a stream"));
}

TEST_F(OptimizeReportTest, SettingsBeyondTheSourceAreListedNotWritten) {
  result.best.extra_flags = {"-use_fast_math"};
  result.best.launcher_args = {{"block_size", 256}};
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok());
  ASSERT_EQ((*j)["settings_needed"].size(), 2u);
  EXPECT_EQ((*j)["settings_needed"][0], "nvcc_flags: add \"-use_fast_math\"");
  EXPECT_THAT(progress.str(), HasSubstr("args: block_size tunable = 256 first"));
}

TEST_F(OptimizeReportTest, AFlagGainIsWrittenAsSourceThenVerifiedAndTimedInThatForm) {
  result.best.extra_flags = {"-use_fast_math"};
  probe.form_check.outcome = StepOutcome::same;  // verified; the form times like the flag build
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok()) << j.error().message;
  const nlohmann::json& form = (*j)["source_form"];
  EXPECT_EQ(form["status"], "verified");
  ASSERT_EQ(probe.verified.size(), 1u) << "the form is built and verified like a search step";
  const Candidate& checked = probe.verified[0];
  EXPECT_TRUE(checked.extra_flags.empty()) << "the form is built without the flag";
  EXPECT_THAT(checked.source, HasSubstr("s += __expf(x[c] - m);"));
  EXPECT_THAT(checked.source, HasSubstr("kThreads = 64")) << "on top of the best's source";
  EXPECT_EQ(form["candidate"], checked.fingerprint());
  EXPECT_EQ(form["source"], checked.source);
  EXPECT_EQ(probe.compares, 2) << "the best's final A/B, then the form's";
  EXPECT_EQ(form["speedup"]["verdict"], "FASTER");
  EXPECT_NEAR(form["against_best"]["ratio"].get<double>(), 1.01, 1e-9);
  EXPECT_EQ(testing::read_text(form["source_file"].get<std::string>()), checked.source);
  EXPECT_THAT(progress.str(), HasSubstr("source form: nvcc_flags \"-use_fast_math\": "
                                        "fast-math intrinsics written in the source: expf -> "
                                        "__expf (2); verifying and timing it"));
  EXPECT_THAT(progress.str(), HasSubstr("source form: FASTER 1.250x against the baseline"));
  const auto saved =
      nlohmann::json::parse(testing::read_text(out.path() / "softmax_slow" / "result.json"));
  EXPECT_EQ(saved["source_form"], form);
}

TEST_F(OptimizeReportTest, ASourceFormThatFailsVerificationIsRecordedNotTimed) {
  result.best.extra_flags = {"-use_fast_math"};
  probe.form_check = {.outcome = StepOutcome::verify_failure, .detail = "max error 2e-2 at 17"};
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["source_form"]["status"], "fails verification");
  EXPECT_EQ((*j)["source_form"]["verification"]["detail"], "max error 2e-2 at 17");
  EXPECT_EQ(probe.compares, 1) << "only the best's final A/B";
  EXPECT_FALSE((*j)["source_form"].contains("speedup"));
}

TEST_F(OptimizeReportTest, SettingsWithNoSourceFormBuildNothingAndSayWhy) {
  result.best.extra_flags = {"-use_fast_math"};
  result.best.launcher_args = {{"block_size", 256}};
  auto j = write(WriteBack::never);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["source_form"]["status"], "incomplete");
  EXPECT_TRUE(probe.verified.empty());
  EXPECT_THAT(progress.str(), HasSubstr("source form: none: launcher argument block_size = 256: "
                                        "its value is chosen by whoever calls the launcher"));
}

TEST_F(OptimizeReportTest, NoSourceFormIsMadeForASourceOnlyOrUnverifiedBest) {
  auto plain = write(WriteBack::never);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->contains("source_form"));
  result.best.extra_flags = {"-use_fast_math"};
  probe.verdict = Verdict::same;
  auto same = write(WriteBack::never);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->contains("source_form")) << "nothing to carry without a verified gain";
  EXPECT_TRUE(probe.verified.empty());
}

}  // namespace
}  // namespace kblaster
