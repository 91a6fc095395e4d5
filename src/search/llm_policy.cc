#include "search/llm_policy.h"

#include <sstream>

#include "core/spec_json.h"
#include "gpu/shim.h"
#include "llm/answer_code.h"
#include "llm/prose_bound.h"
#include "llm/signature_check.h"
#include "profile/profile_delta.h"

namespace kblaster {
namespace {

std::string lines(const std::vector<std::string>& items, const char* none) {
  if (items.empty()) return none;
  std::string out;
  for (const auto& item : items) out += "- " + item + "\n";
  return out;
}

// What the profile said of the parent: the state's explanation (the numbers its rule read),
// the launch's grid against the SMs, the code features the profile found, and ncu's metrics
// one by one.
std::string profile_summary(const PerfState& state) {
  std::string out = state.explanation;
  if (state.launch.grid_size && state.launch.sm_count)
    out += "\nLaunch: " + std::to_string(static_cast<long long>(*state.launch.grid_size)) +
           " blocks on " + std::to_string(static_cast<long long>(*state.launch.sm_count)) + " SMs";
  if (!state.features.empty()) {
    out += "\nCode features:";
    for (const auto& f : state.features) out += " " + f;
  }
  if (state.profile) {
    std::ostringstream metrics;
    print_profile_metrics(metrics, *state.profile);
    out += "\nMetrics (ncu, the launcher's kernels summed):\n" + metrics.str();
  }
  return out;
}

}  // namespace

void StepTokens::add(const TokenUsage& usage) {
  const std::lock_guard lock(mutex_);
  total_.input += usage.input;
  total_.output += usage.output;
}

TokenUsage StepTokens::total() const {
  const std::lock_guard lock(mutex_);
  return total_;
}

std::vector<ModelCall> LlmPolicy::calls() const {
  const std::lock_guard lock(calls_mutex_);
  return calls_;
}

std::vector<std::string> LlmPolicy::techniques() const {
  std::vector<std::string> out;
  for (const Technique& t : catalogue_.techniques)
    if (t.applier == Applier::llm) out.push_back(t.id);
  return out;
}

PromptValues LlmPolicy::common_values(const Candidate& parent,
                                      const LlmStepContext& context) const {
  const Technique* t = catalogue_.find_technique(context.technique);
  std::string description = t ? t->name + ". " + t->description : context.technique;
  if (t && !t->risks.empty()) description += "\nRisks: " + t->risks;
  return {{PromptSlot::parent_source, parent.source},
          {PromptSlot::launcher_signature, launcher_signature(*context.spec)},
          {PromptSlot::spec, to_json(*context.spec).dump(2)},
          {PromptSlot::state, context.state->key},
          {PromptSlot::profile_summary, profile_summary(*context.state)},
          {PromptSlot::technique, context.technique},
          {PromptSlot::technique_description, description},
          {PromptSlot::lessons, lines(context.lessons, "None yet.")},
          {PromptSlot::prior_failures, lines(context.prior_failures, "None.")}};
}

Result<std::optional<LlmAnswer>> LlmPolicy::ask(PromptKind kind, const PromptValues& values,
                                                const LlmStepContext& context,
                                                std::string& failure) {
  auto request = prompts_.of(kind).render(values);
  if (!request) return request.error();
  request->temperature = options_.temperature;
  request->max_tokens = options_.max_tokens;
  const double start = options_.clock ? options_.clock->now_seconds() : 0.0;
  if (options_.clock && context.deadline_s > 0) {
    if (start >= context.deadline_s) {
      failure = "the " + std::string(prompt_kind_name(kind)) +
                " call was not made: the search's time limit had passed";
      return std::optional<LlmAnswer>();
    }
    request->time_limit_s = context.deadline_s - start;
  }
  auto answer = model_.complete(*request);
  if (options_.clock) {
    const double end = options_.clock->now_seconds();
    const std::lock_guard lock(calls_mutex_);
    calls_.push_back({context.spec->name, std::string(prompt_kind_name(kind)), start, end,
                      answer && answer->seconds > 0 ? answer->seconds : end - start});
  }
  if (!answer) {
    // The model's failure is the step's, not the run's: the search goes on without it.
    if (answer.error().kind != ErrorKind::remote) return answer.error();
    failure =
        "the " + std::string(prompt_kind_name(kind)) + " call failed: " + answer.error().describe();
    return std::optional<LlmAnswer>();
  }
  ledger_.add(context.spec->name, prompt_kind_name(kind), *answer);
  if (context.tokens) context.tokens->add(answer->usage);
  return std::optional<LlmAnswer>(std::move(*answer));
}

Result<LlmChild> LlmPolicy::child_of(PromptKind kind, const Candidate& from,
                                     const PromptValues& values, const LlmStepContext& context) {
  std::string failure;
  auto answer = ask(kind, values, context, failure);
  if (!answer) return answer.error();
  if (!*answer) return LlmChild{std::nullopt, failure};
  const AnswerCode code = extract_code((*answer)->text, context.spec->launcher);
  if (!code.ok()) return LlmChild{std::nullopt, "the answer gave no code: " + code.reason};
  if (auto change = launcher_signature_change(from.source, code.code, context.spec->launcher))
    return LlmChild{std::nullopt, "the answer changes the launcher's signature: " + *change};
  Candidate child = from;
  child.source = code.code;
  if (kind == PromptKind::apply) {
    child.path.push_back(context.technique);
    child.changes.push_back("rewritten by " + std::string(model_.name()) + " (" +
                            context.technique + ")");
  } else {
    child.changes.back() += ", repaired";
  }
  return LlmChild{std::move(child), ""};
}

Result<LlmChild> LlmPolicy::apply(const Candidate& parent, const LlmStepContext& context) {
  return child_of(PromptKind::apply, parent, common_values(parent, context), context);
}

Result<LlmChild> LlmPolicy::repair(const Candidate& failed, const std::string& compile_errors,
                                   const LlmStepContext& context) {
  PromptValues values = common_values(failed, context);
  values[PromptSlot::candidate_source] = failed.source;
  values[PromptSlot::compile_errors] = compile_errors;
  return child_of(PromptKind::repair, failed, values, context);
}

Result<ReviewVerdict> LlmPolicy::review(const Candidate& parent, const Candidate& child,
                                        const LlmStepContext& context) {
  PromptValues values = common_values(parent, context);
  values[PromptSlot::candidate_source] = child.source;
  std::string failure;
  auto answer = ask(PromptKind::review, values, context, failure);
  if (!answer) return answer.error();
  if (!*answer) return ReviewVerdict{ReviewAnswer::unreadable, "unreadable review: " + failure};
  return parse_review((*answer)->text);
}

Result<std::string> LlmPolicy::lesson(const Candidate& parent, const Candidate& child,
                                      const LlmStepContext& context, const std::string& predicted,
                                      const std::string& observed,
                                      const std::string& profile_delta) {
  PromptValues values = common_values(parent, context);
  values[PromptSlot::candidate_source] = child.source;
  values[PromptSlot::predicted_gain] = predicted;
  values[PromptSlot::observed_gain] = observed;
  values[PromptSlot::profile_delta] = profile_delta;
  std::string failure;
  auto answer = ask(PromptKind::gap, values, context, failure);
  if (!answer) return answer.error();
  return *answer ? lesson_text((*answer)->text) : std::string();
}

}  // namespace kblaster
