// The LLM policy in the MAIC-RL loop: the real prompts of kb/prompts, a real OpenAI-compatible
// API on loopback (tests/support/fake_openai.h) answering by what each prompt asks, the real
// catalogue and SQLite KB, and a scripted Evaluator that records every candidate it is sent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "eval/fake_harness_runner.h"
#include "example_kernels.h"
#include "kb/seed.h"
#include "llm/backend_pool.h"
#include "llm/command_backend.h"
#include "llm/exchange_recording.h"
#include "llm/exchange_replay.h"
#include "llm/llm_rig.h"
#include "llm/openai_backend.h"
#include "llm/prompt_set.h"
#include "search/search_loop.h"
#include "search/search_setup.h"
#include "support/fake_openai.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_text;

// Marks the scripted model writes into the code it answers, which the evaluator reads.
constexpr const char* kFast = "// scripted: faster\n";
constexpr const char* kBroken = "// scripted: broken\n";

// Faster when the child carries more kFast marks than its parent; a compile error where it
// carries kBroken; SAME otherwise (the embedded techniques' children).
class MarkEvaluator final : public Evaluator {
 public:
  std::vector<Candidate> evaluated;
  Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) override {
    evaluated.push_back(child);
    Evaluation e;
    const auto marks = [](const std::string& s) {
      std::size_t n = 0;
      for (auto at = s.find(kFast); at != std::string::npos; at = s.find(kFast, at + 1)) ++n;
      return n;
    };
    if (child.source.find(kBroken) != std::string::npos) {
      e.outcome = StepOutcome::compile_failure;
      e.detail = "kernels/softmax_slow.cu(9): error: identifier \"broken\" is undefined";
    } else if (marks(child.source) > marks(parent.source)) {
      e.outcome = StepOutcome::faster, e.log_speedup = std::log(1.25);
      e.ratio = 0.8, e.ci_low = 0.79, e.ci_high = 0.81;
      e.detail = "FASTER: scripted";
    } else {
      e.outcome = StepOutcome::same, e.detail = "SAME: scripted";
    }
    return e;
  }
  Result<PerfState> state_of(const Candidate& c) override {
    PerfState s;
    // ncu's metrics: 100 us for the baseline, 1.25x faster per kFast mark.
    std::size_t marks = 0;
    for (auto at = c.source.find(kFast); at != std::string::npos; at = c.source.find(kFast, at + 1))
      ++marks;
    s.profile.emplace();
    s.profile->duration_s = 1e-4 / std::pow(1.25, static_cast<double>(marks));
    s.profile->dram_throughput_pct = 41.2;
    s.key = "launch.grid_undersized";
    s.bottleneck = "launch";
    s.explanation = "scripted: 64 blocks for 132 SMs";
    s.launch = {64.0, 132.0};
    s.features = {"expf_in_loop"};
    return s;
  }
};

// The user message of an OpenAI request body.
std::string user_text(const nlohmann::json& body) {
  for (const auto& m : body.value("messages", nlohmann::json::array()))
    if (m.value("role", "") == "user") return m.value("content", "");
  return "";
}

// The first ```cuda block of a prompt: the parent's or the candidate's source.
std::string code_in(const std::string& prompt, const std::string& after) {
  const auto from = prompt.find(after);
  const auto open = prompt.find("```cuda\n", from == std::string::npos ? 0 : from);
  if (open == std::string::npos) return "";
  const auto start = open + 8;
  return prompt.substr(start, prompt.find("\n```", start) + 1 - start);
}

std::string fenced(const std::string& code) {
  return "Here is the rewritten file.\n\n```cuda\n" + code + "```\n\nIt does less work per row.";
}

// A model that answers each prompt by its kind: apply adds kFast (or what `apply_with`
// makes of the parent), repair drops kBroken, review approves unless the code special-cases
// a size, gap writes a lesson naming the technique.
struct ScriptedModel {
  std::function<std::string(const std::string& parent, const std::string& technique)> apply_with =
      [](const std::string& parent, const std::string&) { return parent + kFast; };

  testing::ScriptStep operator()(const nlohmann::json& body) const {
    const std::string text = user_text(body);
    std::smatch m;
    // apply, repair and review say: technique "x"; gap says: ## Technique\nx: …
    const std::regex technique_re("technique \"([a-z_0-9]+)\"|## Technique\n([a-z_0-9]+):");
    const std::string technique = !std::regex_search(text, m, technique_re) ? std::string("?")
                                  : m[1].matched                            ? m[1].str()
                                                                            : m[2].str();
    if (text.find("Apply the technique") != std::string::npos)
      return testing::say(fenced(apply_with(code_in(text, "## The current source"), technique)));
    if (text.find("nvcc refuses it") != std::string::npos) {
      std::string code = code_in(text, "");
      for (auto at = code.find(kBroken); at != std::string::npos; at = code.find(kBroken))
        code.erase(at, std::string(kBroken).size());
      return testing::say(fenced(code + kFast));
    }
    if (text.find("The candidate was written") != std::string::npos)
      return testing::say(text.find("rows == 8192") != std::string::npos
                              ? "VERDICT: no\nIt skips the work for the timed size."
                              : "VERDICT: yes\nIt computes every row as before.");
    return testing::say("Lesson: " + technique + " paid off here because the grid was undersized.");
  }
};

// The rollout, technique and candidate of every step, in order.
std::vector<std::string> path_of(const SearchResult& r) {
  std::vector<std::string> out;
  for (const auto& s : r.steps)
    out.push_back(std::to_string(s.rollout) + " " + s.technique + " " + s.candidate + " " +
                  std::string(outcome_name(s.evaluation.outcome)));
  return out;
}

class LlmSearchTest : public ::testing::Test, protected testing::SearchSetup {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(set_up());
    auto p = load_prompt_set(testing::source_dir() / "kb" / "prompts");
    ASSERT_TRUE(p.ok()) << p.error().describe();
    prompts.emplace(std::move(*p));
    options.budget = {3, 4, 1e9, 0, 0.01};
    options.seed = 11;
    options.source_only = true;  // the embedded techniques that rewrite source, and the model's
    rig.fake->respond_with([this](const nlohmann::json& body) { return model(body); });
  }

  // Searches with `backend`, on `with` (else `evaluator`) and `on` (else the fake clock).
  Result<SearchResult> search(LlmBackend& backend, LlmCaps caps = {}, Evaluator* with = nullptr,
                              Clock* on = nullptr) {
    ledger.emplace(std::map<std::string, ModelPrice, std::less<>>{}, caps);
    policy.emplace(
        backend, *prompts, catalogue, *ledger,
        LlmPolicyOptions{
            .temperature = 0.2, .max_tokens = 4096, .repair_attempts = 2, .clock = &steady});
    options.llm = &*policy;
    return run_search(baseline, *spec, with ? *with : evaluator, *store, catalogue, options,
                      on ? *on : clock, progress);
  }

  // The scripted model's answers, each after `delay`.
  void answer_after(std::chrono::milliseconds delay) {
    rig.fake->respond_with([this, delay](const nlohmann::json& body) {
      testing::ScriptStep step = testing::slow_answer(delay);
      step.text = model(body).text;
      return step;
    });
  }

  // Only the first `n` of the catalogue's model techniques may be chosen.
  void only_model_techniques(std::size_t n) {
    for (const Technique& t : catalogue.techniques)
      if (t.applier == Applier::llm && options.only_techniques.size() < n)
        options.only_techniques.insert(t.id);
  }

  // The user texts of the requests the fake received that contain `marker`.
  std::vector<std::string> asked(const std::string& marker) const {
    std::vector<std::string> out;
    for (const auto& r : rig.fake->requests())
      if (const std::string t = user_text(r.json()); t.find(marker) != std::string::npos)
        out.push_back(t);
    return out;
  }

  std::optional<PromptSet> prompts;
  MarkEvaluator evaluator;
  testing::FakeClock clock{1.0};
  SteadyClock steady;  // the model's calls' times, taken on their threads
  std::ostringstream progress;
  ScriptedModel model;
  testing::LlmRig<OpenAiBackend> rig{testing::start_fake_openai(), testing::kFakeOpenAiKey};
  std::optional<TokenLedger> ledger;
  std::optional<LlmPolicy> policy;
};

TEST_F(LlmSearchTest, TheModelAppliesTechniquesAndItsLessonsGoIntoTheKbAndTheNextPrompts) {
  // An earlier lesson for every model technique in this state: each apply prompt shows it.
  for (const auto& t : catalogue.techniques)
    ASSERT_TRUE(store
                    ->add_lesson({.id = "",
                                  .state = "launch.grid_undersized",
                                  .technique = t.id,
                                  .text = "earlier lesson for " + t.id,
                                  .created_at = 1})
                    .ok());
  auto r = search(rig.pooled());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  std::vector<const SearchStep*> by_model;
  for (const auto& s : r->steps)
    if (s.by_model) by_model.push_back(&s);
  ASSERT_FALSE(by_model.empty()) << progress.str();
  EXPECT_GT(r->best_log_speedup, 0.0);
  EXPECT_THAT(r->best.source, HasSubstr(kFast));
  for (const SearchStep* s : by_model) {
    EXPECT_GT(s->tokens.input, 0) << "tokens counted per step";
    EXPECT_THAT(s->lesson, HasSubstr("paid off here")) << "the model's lesson is the step's";
    auto lessons = store->lessons(s->state, s->technique);
    ASSERT_TRUE(lessons.ok());
    std::vector<std::string> texts;
    for (const auto& l : *lessons) texts.push_back(l.text);
    EXPECT_THAT(texts, Contains(HasSubstr(s->technique + " paid off here")));
  }
  const auto applies = asked("Apply the technique");
  ASSERT_FALSE(applies.empty());
  for (const auto& a : applies) EXPECT_THAT(a, HasSubstr("earlier lesson for "));
  EXPECT_THAT(applies[0], HasSubstr("softmax_slow(float* out, const float* inp"))
      << "the launcher's signature is in the prompt";
  EXPECT_THAT(applies[0], HasSubstr("Launch: 64 blocks on 132 SMs\nCode features: expf_in_loop"))
      << "the profile's launch and features are in the prompt";
  EXPECT_THAT(applies[0], HasSubstr("Metrics (ncu, the launcher's kernels summed):\n"
                                    "- duration: 100 us\n- DRAM throughput: 41.2 %\n"))
      << "ncu's metrics one by one";
  ASSERT_TRUE(r->llm.has_value());
  EXPECT_EQ(r->llm->usage.input, ledger->run().usage.input);
  EXPECT_EQ(r->llm->by_purpose.count("gap"), 1u);
  EXPECT_THAT(progress.str(), HasSubstr("asking openai to apply it"));
  // The gap prompt of a faster step says how the profile's state changed.
  EXPECT_THAT(asked("## Predicted gain"),
              Contains(HasSubstr("state launch.grid_undersized -> launch.grid_undersized: "
                                 "scripted: 64 blocks for 132 SMs")));
  // … and how ncu's metrics changed, metric by metric.
  EXPECT_THAT(asked("## Predicted gain"),
              Contains(AllOf(HasSubstr("| duration | 100 us | 80 us | -20.0% |"),
                             HasSubstr("| DRAM throughput | 41.2 % | 41.2 % | +0.0 pts |"))));
}

TEST_F(LlmSearchTest, ACompileErrorGoesBackToTheModelWithNvccsDiagnostics) {
  model.apply_with = [](const std::string& parent, const std::string&) { return parent + kBroken; };
  auto r = search(rig.pooled());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto repaired = std::find_if(r->steps.begin(), r->steps.end(),
                                     [](const SearchStep& s) { return s.repairs == 1; });
  ASSERT_NE(repaired, r->steps.end()) << progress.str();
  EXPECT_EQ(repaired->evaluation.outcome, StepOutcome::faster);
  const auto repairs = asked("nvcc refuses it");
  ASSERT_FALSE(repairs.empty());
  EXPECT_THAT(repairs[0], HasSubstr("error: identifier \"broken\" is undefined"));
  EXPECT_THAT(progress.str(), HasSubstr("asking for a repair (1 of 2)"));
}

TEST_F(LlmSearchTest, AChangedLauncherSignatureIsRefusedBeforeAnythingIsBuilt) {
  model.apply_with = [](std::string parent, const std::string&) {
    const std::string from = "int rows, int cols) {\n  if (rows <= 0";
    parent.replace(parent.find(from), from.size(),
                   "int rows, int cols, int extra) {\n  if (rows <= 0");
    return parent + kFast;
  };
  auto r = search(rig.pooled());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  for (const auto& c : evaluator.evaluated)
    EXPECT_THAT(c.source, Not(HasSubstr("int extra"))) << "nothing the model wrote was built";
  int refused = 0;
  for (const auto& s : r->steps)
    if (s.by_model) {
      ++refused;
      EXPECT_EQ(s.evaluation.outcome, StepOutcome::compile_failure);
      EXPECT_THAT(s.evaluation.detail, HasSubstr("changes the launcher's signature"));
    }
  EXPECT_GT(refused, 0) << progress.str();
  EXPECT_THAT(r->best.source, Not(HasSubstr(kFast)));
}

// The static rules refuse before anything is built; the review's "no" may come after the child
// was measured (the GPU does not wait for it), but a rejected child never becomes a parent.
TEST_F(LlmSearchTest, StaticRulesAndTheReviewRejectCheats) {
  int n = 0;
  model.apply_with = [&n](std::string parent, const std::string&) {
    const std::string body = "  if (rows <= 0 || cols <= 0) return;\n";
    if (n++ % 2 == 0)  // a special case for the timed size, which the review refuses
      parent.replace(parent.find(body), body.size(), body + "  if (rows == 8192) return;\n");
    else  // a stream of its own, which the static rules refuse
      parent.replace(parent.find(body), body.size(),
                     body + "  cudaStream_t s;\n  cudaStreamCreate(&s);\n");
    return parent + kFast;
  };
  auto r = search(rig.pooled());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  for (const auto& c : evaluator.evaluated)
    EXPECT_THAT(c.source, Not(HasSubstr("cudaStreamCreate"))) << "the static rules come first";
  EXPECT_THAT(r->best.source, Not(HasSubstr("rows == 8192"))) << "no rejected child is kept";
  for (const auto& s : r->steps)
    EXPECT_NE(s.evaluation.outcome, StepOutcome::faster) << s.evaluation.detail;
  std::string details;
  for (const auto& s : r->steps) {
    if (!s.by_model) continue;
    // The same cheat written again is refused as built before: the first was measured.
    if (s.evaluation.detail == "the answer is a candidate built before" ||
        s.evaluation.detail == "the answer is the parent or a candidate built before")
      continue;
    EXPECT_EQ(s.evaluation.outcome, StepOutcome::verify_failure) << s.evaluation.detail;
    details += s.evaluation.detail + "\n";
  }
  EXPECT_THAT(details, HasSubstr("review: It skips the work for the timed size."));
  EXPECT_THAT(details, HasSubstr("soft verification: "));
  EXPECT_THAT(details, HasSubstr("soft verification: creates or holds a stream of its own"));
}

TEST_F(LlmSearchTest, ATokenCapEndsTheSearchCleanlyAndSaysSo) {
  auto r = search(rig.pooled(), LlmCaps{.max_tokens_per_kernel = 100, .max_cost_usd = 0});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_THAT(r->stop_reason, HasSubstr("the LLM token cap (100 per kernel) is reached"));
  EXPECT_EQ(std::count_if(r->steps.begin(), r->steps.end(),
                          [](const SearchStep& s) { return s.by_model; }),
            1)
      << "one step by the model, then the cap";
  EXPECT_GE(r->llm->usage.input + r->llm->usage.output, 100);
}

TEST_F(LlmSearchTest, ARecordedSearchReplaysWithoutTheModel) {
  RecordingBackend recording(rig.pooled(), ExchangeStore(tmp.path() / "llm"));
  auto first = search(recording);
  ASSERT_TRUE(first.ok()) << first.error().describe();
  const auto sent = rig.fake->requests().size();
  ASSERT_GT(sent, 0u);
  // The same search from the stored answers, on a fresh KB: the same steps, no request.
  ASSERT_NO_FATAL_FAILURE(open_store("kb2.sqlite"));
  evaluator.evaluated.clear();
  ReplayBackend replay{ExchangeStore(tmp.path() / "llm")};
  auto again = search(replay);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(rig.fake->requests().size(), sent) << "the replay asked no model";
  ASSERT_EQ(again->steps.size(), first->steps.size());
  for (std::size_t i = 0; i < first->steps.size(); ++i) {
    EXPECT_EQ(again->steps[i].candidate, first->steps[i].candidate);
    EXPECT_EQ(again->steps[i].evaluation.outcome, first->steps[i].evaluation.outcome);
  }
}

TEST_F(LlmSearchTest, ASearchWithRolloutsAtOnceReplaysTheSameSteps) {
  options.lanes = 3;
  options.budget = {3, 3, 1e9, 0, 0.01};
  RecordingBackend recording(rig.pooled(), ExchangeStore(tmp.path() / "llm"));
  auto first = search(recording);
  ASSERT_TRUE(first.ok()) << first.error().describe();
  const auto sent = rig.fake->requests().size();
  ASSERT_NO_FATAL_FAILURE(open_store("kb2.sqlite"));
  evaluator.evaluated.clear();
  BackendPool pooled_replay(std::make_unique<ReplayBackend>(ExchangeStore(tmp.path() / "llm")), 3);
  auto again = search(pooled_replay);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(rig.fake->requests().size(), sent) << "the replay asked no model";
  EXPECT_EQ(path_of(*again), path_of(*first));
}

TEST_F(LlmSearchTest, TheCommandBackendTakesASearchStepToo) {
  const auto script = tmp.path() / "model.py";
  std::ofstream(script) << "#!/usr/bin/env python3\n"
                           "import json, sys\n"
                           "req = json.load(sys.stdin)\n"
                           "text = req['messages'][-1]['content']\n"
                           "if 'Apply the technique' in text:\n"
                           "    src = text.split('## The current source')[1].split('```cuda\\n')[1]"
                           ".split('\\n```')[0] + '\\n'\n"
                           "    print('```cuda\\n' + src + '// scripted: faster\\n```')\n"
                           "elif 'The candidate was written' in text:\n"
                           "    print('VERDICT: yes\\nfine')\n"
                           "else:\n"
                           "    print('Lesson: the command model helped.')\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  CommandBackend command({.argv = {"python3", script.string()},
                          .model = "",
                          .timeout_s = 30,
                          .key_variable = "",
                          .key = "",
                          .working_dir = {}});
  options.budget = {1, 2, 1e9, 0, 0.01};
  auto r = search(command);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto step = std::find_if(r->steps.begin(), r->steps.end(),
                                 [](const SearchStep& s) { return s.by_model; });
  ASSERT_NE(step, r->steps.end()) << progress.str();
  EXPECT_EQ(step->evaluation.outcome, StepOutcome::faster) << progress.str();
  EXPECT_THAT(step->lesson, HasSubstr("the command model helped"));
}

// MarkEvaluator's verdicts, each evaluation taking `seconds` of real time as a GPU would, with
// when each ran on `clock`.
class TimedEvaluator final : public Evaluator {
 public:
  TimedEvaluator(MarkEvaluator& marks, Clock& clock, double seconds)
      : marks_(marks), clock_(clock), seconds_(seconds) {}
  std::vector<std::pair<double, double>> ran;
  Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) override {
    const double start = clock_.now_seconds();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds_));
    ran.emplace_back(start, clock_.now_seconds());
    return marks_.evaluate(parent, child);
  }
  Result<PerfState> state_of(const Candidate& c) override { return marks_.state_of(c); }

 private:
  MarkEvaluator& marks_;
  Clock& clock_;
  double seconds_;
};

TEST_F(LlmSearchTest, RolloutsAtOnceKeepTheModelAskingWhileTheGpuMeasures) {
  // A model that takes 150 ms to answer, and a GPU that takes 100 ms per child.
  answer_after(std::chrono::milliseconds(150));
  TimedEvaluator gpu(evaluator, steady, 0.1);
  options.lanes = 3;
  options.budget = {3, 2, 1e9, 0, 0.01};
  auto r = search(rig.pooled(4), {}, &gpu);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_FALSE(gpu.ran.empty()) << progress.str();
  // While the GPU measured one rollout's child, the model answered for another.
  int overlapping = 0;
  for (const ModelCall& call : policy->calls())
    for (const auto& [start, end] : gpu.ran)
      if (call.start_s < end && start < call.end_s) ++overlapping;
  EXPECT_GT(overlapping, 0) << progress.str();
  // The rollouts were open at once: one's first step ended before another's last.
  std::map<int, std::pair<std::size_t, std::size_t>> span;  // rollout -> first, last step
  for (std::size_t i = 0; i < r->steps.size(); ++i) {
    auto [it, fresh] = span.try_emplace(r->steps[i].rollout, i, i);
    it->second.second = i;
  }
  ASSERT_EQ(span.size(), 3u) << progress.str();
  EXPECT_LT(span[2].first, span[1].second) << progress.str();
  EXPECT_LT(span[3].first, span[2].second) << progress.str();
  EXPECT_THAT(progress.str(), HasSubstr("rollout 2 step 1 -> ")) << "lines say whose step it is";
  // Rollouts opened together on the baseline asked the model for different techniques.
  std::set<std::string> first_asks;
  for (const auto& step : r->steps) {
    if (step.by_model && step.depth == 0) {
      EXPECT_TRUE(first_asks.insert(step.technique).second) << step.technique << progress.str();
    }
  }
  // No candidate is evaluated twice, even when two rollouts' models wrote the same code.
  std::set<std::string> evaluated;
  for (const auto& c : evaluator.evaluated)
    EXPECT_TRUE(evaluated.insert(c.fingerprint()).second) << progress.str();
  // Every step's tokens are its own, and they add up to the kernel's.
  std::int64_t tokens = 0;
  for (const auto& s : r->steps) tokens += s.tokens.input;
  EXPECT_EQ(tokens, r->llm->usage.input);
  // The same seed and answers take the same steps in the same order, however the calls raced.
  const auto first = path_of(*r);
  ASSERT_NO_FATAL_FAILURE(open_store("kb2.sqlite"));
  gpu.ran.clear();
  evaluator.evaluated.clear();
  auto again = search(rig.pooled(4), {}, &gpu);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(path_of(*again), first);
}

TEST_F(LlmSearchTest, TheTimeLimitCutsTheModelsStepsInFlightSoTheSearchEndsOnTime) {
  // A model that takes 2 s to answer and a 3-s search: the first applies come back at 2 s
  // and their children are measured (faster), their reviews would come at 4 s, and the
  // lessons at 6 s. (The 1 s between the applies and the limit leaves room for a loaded CI
  // machine: at 1 s and 1.5 s this once failed under `ctest -j2`.)
  model.apply_with = [](const std::string& parent, const std::string& technique) {
    return parent + "// " + technique + "\n" + kFast;
  };
  answer_after(std::chrono::milliseconds(2000));
  only_model_techniques(2);
  TimedEvaluator gpu(evaluator, steady, 0.05);
  options.lanes = 2;
  options.budget = {4, 4, 3.0, 0, 0.01};
  const double started = steady.now_seconds();
  auto r = search(rig.pooled(4), {}, &gpu, &steady);
  const double took = steady.now_seconds() - started;
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_GE(took, 2.9) << progress.str();
  EXPECT_LT(took, 3.8) << "it ended at the limit, not when the reviews answered\n"
                       << progress.str();
  EXPECT_THAT(progress.str(), HasSubstr("-> cut: the search's time limit passed while the model "
                                        "reviewed it; not counted"));
  EXPECT_THAT(r->stop_reason, HasSubstr("time limit"));
  EXPECT_TRUE(r->steps.empty()) << "a cut step is no step of the search, and teaches the KB "
                                   "nothing";
  EXPECT_EQ(r->best_log_speedup, 0.0) << "a faster child the review did not accept is not kept";
  EXPECT_EQ(gpu.ran.size(), 2u) << "each rollout's child was measured while it was reviewed";
  for (const auto& [start, end] : gpu.ran)
    EXPECT_LT(start, started + 3.0) << "nothing is measured once the limit has passed";
  ASSERT_FALSE(policy->calls().empty());
  for (const ModelCall& call : policy->calls())
    EXPECT_LT(call.end_s, started + 3.6) << call.purpose << " outlived the limit";
}

TEST_F(LlmSearchTest, TheNextApplyIsAskedWhileTheModelReviewsAChildThatWasNotFaster) {
  // Children that are no faster and special-case the timed size, which the review refuses;
  // each answer takes 200 ms.
  model.apply_with = [](std::string parent, const std::string& technique) {
    const std::string body = "  if (rows <= 0 || cols <= 0) return;\n";
    parent.replace(parent.find(body), body.size(), body + "  if (rows == 8192) return;\n");
    return parent + "// " + technique + "\n";
  };
  answer_after(std::chrono::milliseconds(200));
  only_model_techniques(3);
  options.budget = {1, 3, 1e9, 0, 0.01};
  auto r = search(rig.pooled(2));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->steps.size(), 3u) << progress.str();
  for (const auto& s : r->steps) {
    EXPECT_EQ(s.evaluation.outcome, StepOutcome::verify_failure) << s.evaluation.detail;
    EXPECT_EQ(s.evaluation.detail,
              "review: It skips the work for the timed size. (measured before the review: "
              "SAME: scripted; discarded)");
  }
  EXPECT_EQ(evaluator.evaluated.size(), 3u) << "each child was measured while it was reviewed";
  EXPECT_THAT(progress.str(), HasSubstr("rollout 1 step 1 review -> no: It skips the work for "
                                        "the timed size.; the step is a verify_failure"));
  // The second apply was asked while the first review was in flight.
  std::vector<ModelCall> applies, reviews;
  for (const ModelCall& c : policy->calls())
    (c.purpose == "apply" ? applies : reviews).push_back(c);
  ASSERT_GE(applies.size(), 2u);
  ASSERT_GE(reviews.size(), 1u);
  std::sort(applies.begin(), applies.end(),
            [](const ModelCall& a, const ModelCall& b) { return a.start_s < b.start_s; });
  std::sort(reviews.begin(), reviews.end(),
            [](const ModelCall& a, const ModelCall& b) { return a.start_s < b.start_s; });
  EXPECT_LT(applies[1].start_s, reviews[0].end_s) << "the GPU and the model did not wait for it";
  // The rejection reaches a later prompt of the rollout, and the KB records a failure.
  EXPECT_THAT(asked("Apply the technique").back(),
              HasSubstr(r->steps[0].technique + ": verify_failure: review: It skips"));
  auto stats = store->stats(r->steps[0].state, r->steps[0].technique, options.gpu.arch);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->verify_failures, 1) << "the trajectory holds the review's verdict";
  EXPECT_EQ(stats->measured, 0);
}

TEST_F(LlmSearchTest, AStepThatFailedOnItsOwnKeepsItsReasonWhateverItsReviewSays) {
  // Two rollouts at once whose model writes the same special-cased code: one is measured (then
  // the review's no makes it a verify_failure), the other is refused as built before, and the
  // review's no for it changes nothing.
  model.apply_with = [](std::string parent, const std::string&) {
    const std::string body = "  if (rows <= 0 || cols <= 0) return;\n";
    parent.replace(parent.find(body), body.size(), body + "  if (rows == 8192) return;\n");
    return parent;
  };
  only_model_techniques(2);
  options.lanes = 2;
  options.budget = {2, 1, 1e9, 0, 0.01};
  auto r = search(rig.pooled(2));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->steps.size(), 2u) << progress.str();
  EXPECT_EQ(r->steps[0].evaluation.outcome, StepOutcome::verify_failure);
  EXPECT_THAT(r->steps[0].evaluation.detail, HasSubstr("review: It skips the work"));
  EXPECT_EQ(r->steps[1].evaluation.outcome, StepOutcome::compile_failure);
  EXPECT_EQ(r->steps[1].evaluation.detail, "the answer is a candidate built before");
  EXPECT_EQ(evaluator.evaluated.size(), 1u);
}

}  // namespace
}  // namespace kblaster
