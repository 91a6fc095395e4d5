#include "search/search_loop.h"

#include <algorithm>

#include "core/stable_hash.h"
#include "core/text_join.h"
#include "kb/prediction.h"
#include "search/lesson.h"
#include "search/llm_step.h"
#include "search/soft_verification.h"
#include "stats/random_source.h"
#include "stats/speedup_text.h"

namespace kblaster {
namespace {

// The techniques that propose at least one child for `parent` not evaluated yet
// (nor the baseline: a tunable set back to its first value is not new), and those children.
std::map<std::string, Proposal> proposals(const Candidate& parent, const PerfState& parent_state,
                                          const KernelSpec& spec, const SearchOptions& options,
                                          const std::set<std::string>& seen) {
  std::map<std::string, Proposal> out;
  for (const auto& t : embedded_techniques()) {
    if (options.source_only && !rewrites_source_only(t)) continue;
    Proposal p = propose(t, parent, spec, options.gpu, parent_state.launch);
    std::erase_if(p.children, [&](const Candidate& c) { return seen.count(c.fingerprint()); });
    if (!p.children.empty()) out.emplace(t, std::move(p));
  }
  return out;
}

// What the next step may evaluate if this one is not faster: for each offered
// technique the child it argues for first (else its first), then the remaining
// children; never `chosen` itself.
std::vector<Candidate> likely_next(const std::map<std::string, Proposal>& offered,
                                   const Candidate& chosen, int limit) {
  std::vector<Candidate> out;
  const std::string fp = chosen.fingerprint();
  auto lead = [](const Proposal& p) {
    for (std::size_t i = 0; i < p.children.size(); ++i)
      if (std::find(p.preferred.begin(), p.preferred.end(), p.children[i].fingerprint()) !=
          p.preferred.end())
        return i;
    return std::size_t{0};
  };
  for (int round = 0; round < 2; ++round)
    for (const auto& [t, p] : offered) {
      const std::size_t first = lead(p);
      for (std::size_t i = 0; i < p.children.size(); ++i) {
        if (static_cast<int>(out.size()) >= limit) return out;
        if ((round == 0) != (i == first) || p.children[i].fingerprint() == fp) continue;
        out.push_back(p.children[i]);
      }
    }
  return out;
}

// The child to evaluate, and why when the proposal argued for it: drawn among
// the children it argues for while any is on offer, else among all.
struct PickedChild {
  const Candidate* child;
  std::string because;
};
PickedChild pick_child(const Proposal& p, RandomSource& random) {
  std::vector<const Candidate*> argued;
  for (const Candidate& c : p.children)
    if (std::find(p.preferred.begin(), p.preferred.end(), c.fingerprint()) != p.preferred.end())
      argued.push_back(&c);
  if (!argued.empty()) return {argued[random.index(argued.size())], p.because};
  return {&p.children[random.index(p.children.size())], {}};
}

// The KB's lessons for (state, technique), the newest `most`, as a prompt shows them.
Result<std::vector<std::string>> recent_lessons(const Store& kb, const std::string& state,
                                                const std::string& technique) {
  constexpr std::size_t most = 5;
  auto all = kb.lessons(state, technique);
  if (!all) return all.error();
  std::vector<std::string> out;
  for (std::size_t i = all->size() > most ? all->size() - most : 0; i < all->size(); ++i)
    out.push_back((*all)[i].text);
  return out;
}

// Tokens the model used for `kernel` so far.
TokenUsage used(const LlmPolicy* llm, const std::string& kernel) {
  return llm ? llm->ledger().kernel(kernel).usage : TokenUsage{};
}

// One rollout's trajectory id: the same task, seed and rollout give the same id.
std::string trajectory_id(const SearchOptions& o, int rollout) {
  return "search-" + stable_hash(o.task + "#" + std::to_string(o.seed) + "#" +
                                 std::to_string(rollout) + "#" + std::to_string(o.now_unix));
}

}  // namespace

Result<SearchResult> run_search(const Candidate& baseline, const KernelSpec& spec,
                                Evaluator& evaluator, Store& kb, const Catalogue& catalogue,
                                const SearchOptions& options, Clock& clock,
                                std::ostream& progress) {
  SearchResult result;
  result.baseline = result.best = baseline;
  auto state = evaluator.state_of(baseline);
  if (!state) return state.error();
  result.baseline_state = result.best_state = state->key;
  progress << "  baseline: " << state->key << " (" << state->explanation << ")\n";
  PerfState best_state = *state;

  RandomSource random(options.seed);
  std::set<std::string> seen = {baseline.fingerprint()};  // every candidate built so far
  const double started = clock.now_seconds();
  BudgetTracker budget(options.budget, started);
  std::string llm_stop;  // why the model's caps stopped the search; "" while they have not
  while (llm_stop.empty() && budget.may_start_rollout(clock.now_seconds())) {
    const int rollout = budget.rollouts();
    Candidate parent = result.best;
    double parent_log = result.best_log_speedup;
    PerfState parent_state = best_state;
    std::set<std::string> tried_here;  // techniques tried from this parent
    Trajectory trajectory{
        trajectory_id(options, rollout), options.task, options.gpu.arch, options.now_unix, {}};
    std::vector<std::pair<std::size_t, Prediction>> taken;  // index into result.steps
    std::vector<std::string> failures;  // this rollout's failed steps, for the model's prompts
    for (int d = 0; budget.may_take_step(d, clock.now_seconds()); ++d) {
      if (options.llm) llm_stop = options.llm->ledger().cap_reached(spec.name);
      if (!llm_stop.empty()) break;
      auto predictions = predict(kb, catalogue, parent_state.key, options.gpu.arch);
      if (!predictions) return predictions.error();
      auto offered = proposals(parent, parent_state, spec, options, seen);
      std::set<std::string> applicable;
      for (const auto& [t, p] : offered) applicable.insert(t);
      if (options.llm)
        for (const auto& t : options.llm->techniques()) applicable.insert(t);
      if (!options.only_techniques.empty())
        std::erase_if(applicable,
                      [&](const std::string& t) { return !options.only_techniques.contains(t); });
      auto choice = choose_technique(*predictions, applicable, tried_here, options.choice, random);
      if (!choice) {
        progress << "  rollout " << rollout << ": no embedded technique left to try\n";
        break;
      }
      tried_here.insert(choice->technique);
      progress << "  rollout " << rollout << "/" << options.budget.breadth << " step " << d + 1
               << ": " << describe_choice(*choice) << ": ";
      const bool by_model = !offered.contains(choice->technique);
      const TokenUsage tokens_before = used(options.llm, spec.name);
      Candidate child;
      Evaluation evaluation;
      int repairs = 0;
      const PerfState step_state = parent_state;  // the step's, whatever the child does
      LlmStepContext context{&spec, &step_state, choice->technique, {}, failures};
      if (by_model) {
        auto lessons = recent_lessons(kb, parent_state.key, choice->technique);
        if (!lessons) return lessons.error();
        context.lessons = std::move(*lessons);
        progress << "asking " << options.llm->backend_name() << " to apply it\n";
        auto step = run_llm_step(*options.llm, evaluator, parent, context, seen, progress);
        if (!step) return step.error();
        child = std::move(step->child);
        evaluation = std::move(step->evaluation);
        repairs = step->repairs;
      } else {
        const auto [picked, because] = pick_child(offered.at(choice->technique), random);
        child = *picked;
        progress << child.changes.back();
        if (!because.empty()) progress << " (" << because << ")";
        progress << "\n";
        seen.insert(child.fingerprint());
        evaluator.prefetch(likely_next(offered, child, options.prefetch));
        auto eval = evaluator.evaluate(parent, child);
        if (!eval) return eval.error();
        evaluation = std::move(*eval);
      }
      const Evaluation* eval = &evaluation;
      const bool measured = is_measured(eval->outcome);
      const bool faster = eval->outcome == StepOutcome::faster;
      // Only a FASTER child moves the best; any other step leaves it where the parent is.
      budget.record_evaluation(faster     ? std::optional(parent_log + eval->log_speedup)
                               : measured ? std::optional(parent_log)
                                          : std::nullopt);
      progress << "    -> " << outcome_name(eval->outcome);
      if (measured) progress << " " << speedup_times(eval->log_speedup) << " against its parent";
      progress << ": " << eval->detail << "\n";
      // The reward is what the step kept: a slower or equal child is discarded, so it
      // earns 0, not its (negative) log speedup. A tuning technique whose children are
      // mostly worse but sometimes much better is then valued by what trying it yields.
      trajectory.steps.push_back({d, parent_state.key, choice->technique, eval->outcome,
                                  faster ? eval->log_speedup : 0.0, 0});
      Prediction predicted;
      for (const auto& p : *predictions)
        if (p.technique == choice->technique) predicted = p;
      if (!measured)
        failures.push_back(choice->technique + ": " + std::string(outcome_name(eval->outcome)) +
                           ": " + first_line(eval->detail));
      const Candidate step_parent = parent;  // `parent` moves to a faster child below
      if (faster) {
        parent = child;
        parent_log += eval->log_speedup;
        tried_here.clear();
        auto s = evaluator.state_of(parent);
        if (!s) return s.error();
        parent_state = *s;
        if (parent_log > result.best_log_speedup) {
          result.best = parent, result.best_log_speedup = parent_log, best_state = parent_state;
          progress << "    best so far: " << speedup_times(parent_log) << " ("
                   << percent_gain(parent_log) << "), state " << parent_state.key << "\n";
        }
      }
      std::string model_lesson;
      if (by_model && measured) {
        // What changed in the profile: a faster child is profiled (its state above); a slower
        // or equal one is discarded unprofiled.
        const std::string delta = faster
                                      ? "state " + step_state.key + " -> " + parent_state.key +
                                            ": " + parent_state.explanation
                                      : "not profiled: only a faster child is, and this one was " +
                                            std::string(outcome_name(eval->outcome));
        auto lesson = options.llm->lesson(
            step_parent, child, context, percent_gain(predicted.expected_log_speedup),
            percent_gain(eval->log_speedup) + " (" + std::string(outcome_name(eval->outcome)) + ")",
            delta);
        if (!lesson) return lesson.error();
        model_lesson = std::move(*lesson);
      }
      SearchStep step{rollout,
                      d,
                      trajectory.steps.back().state,
                      choice->technique,
                      child.changes.back(),
                      choice->mode,
                      choice->predicted_log_speedup,
                      *eval,
                      result.best_log_speedup,
                      child.fingerprint(),
                      clock.now_seconds() - started,
                      "",
                      by_model,
                      repairs,
                      {},
                      std::move(model_lesson)};
      const TokenUsage tokens_after = used(options.llm, spec.name);
      step.tokens = {tokens_after.input - tokens_before.input,
                     tokens_after.output - tokens_before.output};
      result.steps.push_back(step);
      taken.emplace_back(result.steps.size() - 1, predicted);
    }
    if (trajectory.steps.empty()) continue;
    auto recorded = kb.record_trajectory(trajectory);
    if (!recorded) return recorded.error();
    for (const auto& [index, predicted] : taken) {
      SearchStep& step = result.steps[index];
      auto after = kb.stats(step.state, step.technique, options.gpu.arch);
      if (!after) return after.error();
      Lesson lesson =
          statistical_lesson(step.state, step.technique, predicted, step.evaluation.outcome,
                             step.evaluation.log_speedup, *after, options.now_unix);
      if (!is_measured(step.evaluation.outcome))
        lesson.text += " Reason: " + first_line(step.evaluation.detail);
      if (!step.model_lesson.empty()) lesson.text = step.model_lesson;  // the textual gradient
      KB_TRY(kb.add_lesson(lesson));
      step.lesson = lesson.text;
    }
  }
  result.best_state = best_state.key;
  result.stop_reason = llm_stop.empty() ? budget.stop_reason() : llm_stop;
  result.best_so_far = budget.best_so_far();
  result.soft_verification = soft_verification_findings(baseline.source, result.best.source);
  if (options.llm) result.llm = options.llm->ledger().kernel(spec.name);
  return result;
}

}  // namespace kblaster
