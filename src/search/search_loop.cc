#include "search/search_loop.h"

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <sstream>

#include "core/stable_hash.h"
#include "core/text_join.h"
#include "kb/prediction.h"
#include "profile/profile_delta.h"
#include "search/embedded_offer.h"
#include "search/lesson.h"
#include "search/llm_step.h"
#include "search/soft_verification.h"
#include "stats/random_source.h"
#include "stats/speedup_text.h"

namespace kblaster {
namespace {

// `offered` less the techniques outside `only` (--techniques); all of them when `only` is empty.
std::map<std::string, Proposal> keep_only(std::map<std::string, Proposal> offered,
                                          const std::set<std::string>& only) {
  if (!only.empty()) std::erase_if(offered, [&](const auto& t) { return !only.contains(t.first); });
  return offered;
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

// What the profile says changed from `before` to the faster child's `after`: the state change
// with the new state's explanation, then ncu's metrics before and after where both were
// profiled (print_profile_delta's table).
std::string measured_delta(const PerfState& before, const PerfState& after) {
  std::string out = "state " + before.key + " -> " + after.key + ": " + after.explanation;
  if (before.profile && after.profile) {
    std::ostringstream table;
    print_profile_delta(table, profile_delta(*before.profile, before, *after.profile, after));
    out += "\n\n" + table.str();
  }
  return out;
}

// The gap prompt's profile delta for a child that was not faster.
std::string unprofiled(const Evaluation& eval) {
  return "not profiled: only a faster child is, and this one was " +
         std::string(outcome_name(eval.outcome));
}

// One rollout's trajectory id: the same task, seed and rollout give the same id.
std::string trajectory_id(const SearchOptions& o, int rollout) {
  return "search-" + stable_hash(o.task + "#" + std::to_string(o.seed) + "#" +
                                 std::to_string(rollout) + "#" + std::to_string(o.now_unix));
}

// A rollout in progress: its parent, what it tried from there, its trajectory, the model's
// step in flight and the model's gap analyses in flight.
struct Lane {
  int rollout = 0;      // 1-based; 0 while the lane holds none
  bool closed = false;  // no rollout may start any more
  bool ending = false;  // the rollout took its last step: collect its lessons, record it
  bool improved = false;
  int depth = 0;  // steps taken
  Candidate parent;
  double parent_log = 0.0;
  PerfState parent_state;
  std::set<std::string> tried_here;  // techniques tried from this parent
  Trajectory trajectory;
  std::vector<std::pair<std::size_t, Prediction>> taken;  // index into result.steps
  std::vector<std::string> failures;  // this rollout's failed steps, for the model's prompts
  struct ModelTurn {
    std::unique_ptr<ModelStep> step;
    TechniqueChoice choice;
    Prediction predicted;
    std::shared_ptr<const PerfState> state;  // the step's, whatever the child does
    std::string parent;                      // the parent's fingerprint
  };
  std::optional<ModelTurn> turn;  // the step the model is applying
  // The step recorded before its review came back (ModelStep::review_pending), settled at the
  // lane's next turn, and its index into result.steps.
  std::optional<ModelTurn> settling;
  std::size_t settling_index = 0;
  std::map<std::size_t, std::future<Result<std::string>>> gap_analyses;  // by result.steps index
  std::map<std::size_t, std::shared_ptr<StepTokens>> tokens;             // by result.steps index
};

// What one step evaluated, for the record.
struct EvaluatedStep {
  TechniqueChoice choice;
  Prediction predicted;
  std::shared_ptr<const PerfState> state;
  Candidate child;
  Evaluation evaluation;
  bool by_model = false;
  int repairs = 0;
  LlmStepContext context;  // the model's, for its gap analysis
  bool reviewed = true;    // false while the model's review is still to come
};

// The search itself: lanes of rollouts advanced in a fixed round, so that the model's calls
// for one rollout are in flight while the GPU measures another's child, and a run with the
// same seed and answers takes the same steps in the same order.
class Search {
 public:
  Search(const Candidate& baseline, const KernelSpec& spec, Evaluator& evaluator, Store& kb,
         const Catalogue& catalogue, const SearchOptions& options, Clock& clock,
         std::ostream& progress)
      : spec_(spec),
        evaluator_(evaluator),
        kb_(kb),
        catalogue_(catalogue),
        options_(options),
        clock_(clock),
        progress_(progress),
        random_(options.seed),
        started_(clock.now_seconds()),
        deadline_(started_ + options.budget.max_seconds),
        budget_(options.budget, started_) {
    result_.baseline = result_.best = baseline;
    result_.started_s = started_;
    seen_ = {baseline.fingerprint()};
  }

  Result<SearchResult> run();

 private:
  enum class Took { model_asked, evaluated, rollout_over };
  Status advance(Lane& lane);
  bool open_rollout(Lane& lane);
  Result<Took> take_step(Lane& lane);
  // `offered` less the techniques --techniques leaves out.
  std::map<std::string, Proposal> choosable(std::map<std::string, Proposal> offered) const;
  // Hands `next` to Evaluator::prefetch and remembers it for pick_child.
  // Hands `next` (its first options_.prefetch) to Evaluator::prefetch, and keeps it as what
  // pick_child may prefer at the next step.
  void ask_ahead(std::vector<Candidate> next);
  Status finish_step(Lane& lane, EvaluatedStep step);
  // Asks the model for the lesson of the measured step result.steps[index] (the textual
  // gradient), which the rollout's end collects.
  void ask_lesson(Lane& lane, std::size_t index, const Candidate& step_parent,
                  const EvaluatedStep& step, std::string profile_delta);
  // Waits for the review of the lane's step recorded before it (Lane::settling): a rejection
  // makes the step a verify_failure; an accepted step's lesson is asked then.
  Status settle_review(Lane& lane);
  Status end_rollout(Lane& lane);
  // What `lane` may not choose: what it tried from its parent, and what other rollouts are
  // applying to the same parent right now (parallel search's "virtual loss": open rollouts
  // on one parent spread over techniques instead of asking the model the same thing).
  std::set<std::string> busy_techniques(const Lane& lane) const;
  // Starts a progress line of `lane`'s step that follows its choice line: "    -> " right after
  // it, else with the rollout and step named, since another rollout's lines came between.
  std::ostream& continued(const Lane& lane, int step);
  std::ostream& line_of(const Lane& lane) {
    last_lane_ = &lane;
    return progress_;
  }

  const KernelSpec& spec_;
  Evaluator& evaluator_;
  Store& kb_;
  const Catalogue& catalogue_;
  const SearchOptions& options_;
  Clock& clock_;
  std::ostream& progress_;
  RandomSource random_;
  const double started_;
  const double deadline_;  // budget.max_seconds after the start: no model call outlives it
  BudgetTracker budget_;
  SearchResult result_;
  PerfState best_state_;
  std::set<std::string> seen_;         // every candidate built so far
  std::set<std::string> asked_ahead_;  // the last step's Evaluator::prefetch
  std::string llm_stop_;  // why the model's caps stopped the search; "" while they have not
  const Lane* last_lane_ = nullptr;           // whose progress line came last
  const std::vector<Lane>* lanes_ = nullptr;  // every lane, while run() runs
};

std::ostream& Search::continued(const Lane& lane, int step) {
  progress_ << "    ";
  if (last_lane_ != &lane) progress_ << "rollout " << lane.rollout << " step " << step << " ";
  progress_ << "-> ";
  last_lane_ = &lane;
  return progress_;
}

std::set<std::string> Search::busy_techniques(const Lane& lane) const {
  std::set<std::string> out = lane.tried_here;
  const std::string parent = lane.parent.fingerprint();
  for (const Lane& other : *lanes_)
    if (&other != &lane && other.turn && other.turn->parent == parent)
      out.insert(other.turn->choice.technique);
  return out;
}

bool Search::open_rollout(Lane& lane) {
  if (!llm_stop_.empty() || !budget_.may_open_rollout(clock_.now_seconds())) {
    lane.closed = true;
    return false;
  }
  const int rollout = budget_.rollouts();
  lane = Lane{};
  lane.rollout = rollout;
  lane.parent = result_.best;
  lane.parent_log = result_.best_log_speedup;
  lane.parent_state = best_state_;
  lane.trajectory = {
      trajectory_id(options_, rollout), options_.task, options_.gpu.arch, options_.now_unix, {}};
  return true;
}

Result<Search::Took> Search::take_step(Lane& lane) {
  if (!budget_.may_take_step(lane.depth, clock_.now_seconds())) return Took::rollout_over;
  if (options_.llm) llm_stop_ = options_.llm->ledger().cap_reached(spec_.name);
  if (!llm_stop_.empty()) return Took::rollout_over;
  auto predictions = predict(kb_, catalogue_, lane.parent_state.key, options_.gpu.arch);
  if (!predictions) return predictions.error();
  auto offered = embedded_offers(lane.parent, lane.parent_state, spec_, options_.source_only,
                                 options_.gpu, seen_);
  std::set<std::string> applicable;
  for (const auto& [t, p] : offered) applicable.insert(t);
  if (options_.llm)
    for (const auto& t : options_.llm->techniques()) applicable.insert(t);
  if (!options_.only_techniques.empty())
    std::erase_if(applicable,
                  [&](const std::string& t) { return !options_.only_techniques.contains(t); });
  auto choice =
      choose_technique(*predictions, applicable, busy_techniques(lane), options_.choice, random_);
  if (!choice) {
    line_of(lane) << "  rollout " << lane.rollout << ": no embedded technique left to try\n";
    return Took::rollout_over;
  }
  lane.tried_here.insert(choice->technique);
  line_of(lane) << "  rollout " << lane.rollout << "/" << options_.budget.breadth << " step "
                << lane.depth + 1 << ": " << describe_choice(*choice) << ": ";
  Prediction predicted;
  for (const auto& p : *predictions)
    if (p.technique == choice->technique) predicted = p;
  auto state = std::make_shared<const PerfState>(lane.parent_state);
  if (!offered.contains(choice->technique)) {
    auto lessons = recent_lessons(kb_, state->key, choice->technique);
    if (!lessons) return lessons.error();
    LlmStepContext context{&spec_,
                           state.get(),
                           choice->technique,
                           std::move(*lessons),
                           lane.failures,
                           std::make_shared<StepTokens>(),
                           deadline_};
    progress_ << "asking " << options_.llm->backend_name() << " to apply it\n";
    lane.turn = Lane::ModelTurn{
        std::make_unique<ModelStep>(*options_.llm, lane.parent, std::move(context), clock_),
        std::move(*choice), std::move(predicted), std::move(state), lane.parent.fingerprint()};
    return Took::model_asked;
  }
  const auto [picked, because] =
      pick_child(offered.at(choice->technique), random_,
                 [this](const Candidate& c) { return asked_ahead_.contains(c.fingerprint()); });
  Candidate child = *picked;
  progress_ << child.changes.back();
  if (!because.empty()) progress_ << " (" << because << ")";
  progress_ << "\n";
  seen_.insert(child.fingerprint());
  // While the GPU measures `child`, build what the next step takes whichever way it goes: if it
  // is not faster, a technique not yet tried at this parent; if it is, one of its own children;
  // if the rollout ends, any technique at the best, where the next one starts.
  auto untried = choosable(offered);
  std::erase_if(untried, [&](const auto& t) { return lane.tried_here.contains(t.first); });
  ask_ahead(build_ahead_list(untried,
                             choosable(embedded_offers(child, lane.parent_state, spec_,
                                                       options_.source_only, options_.gpu, seen_)),
                             choosable(embedded_offers(result_.best, best_state_, spec_,
                                                       options_.source_only, options_.gpu, seen_)),
                             child, options_.prefetch));
  auto eval = evaluator_.evaluate(lane.parent, child);
  if (!eval) return eval.error();
  KB_TRY(finish_step(lane, {std::move(*choice),
                            std::move(predicted),
                            std::move(state),
                            std::move(child),
                            std::move(*eval),
                            false,
                            0,
                            {},
                            true}));
  return Took::evaluated;
}

Status Search::finish_step(Lane& lane, EvaluatedStep s) {
  const Evaluation& eval = s.evaluation;
  const bool measured = is_measured(eval.outcome);
  const bool faster = eval.outcome == StepOutcome::faster;
  // Only a FASTER child moves the best; any other step leaves it where the parent is.
  if (budget_.record_evaluation(faster     ? std::optional(lane.parent_log + eval.log_speedup)
                                : measured ? std::optional(lane.parent_log)
                                           : std::nullopt))
    lane.improved = true;
  continued(lane, lane.depth + 1) << outcome_name(eval.outcome);
  if (measured) progress_ << " " << speedup_times(eval.log_speedup) << " against its parent";
  progress_ << ": " << eval.detail << "\n";
  // The reward is what the step kept: a slower or equal child is discarded, so it
  // earns 0, not its (negative) log speedup. A tuning technique whose children are
  // mostly worse but sometimes much better is then valued by what trying it yields.
  lane.trajectory.steps.push_back({lane.depth, s.state->key, s.choice.technique, eval.outcome,
                                   faster ? eval.log_speedup : 0.0, 0});
  if (!measured)
    lane.failures.push_back(s.choice.technique + ": " + std::string(outcome_name(eval.outcome)) +
                            ": " + first_line(eval.detail));
  const Candidate step_parent = lane.parent;  // `parent` moves to a faster child below
  if (faster) {
    lane.parent = s.child;
    lane.parent_log += eval.log_speedup;
    lane.tried_here.clear();
    auto state = evaluator_.state_of(lane.parent);
    if (!state) return state.error();
    lane.parent_state = *state;
    if (lane.parent_log > result_.best_log_speedup) {
      result_.best = lane.parent, result_.best_log_speedup = lane.parent_log;
      best_state_ = lane.parent_state;
      progress_ << "    best so far: " << speedup_times(lane.parent_log) << " ("
                << percent_gain(lane.parent_log) << "), state " << lane.parent_state.key << "\n";
    }
    // The step before asked for this child's children under its parent's state; its own
    // profile may argue for others (a block size that fills the SMs at its grid). Ask again,
    // with the best's offers for a rollout that ends here. Not with several lanes: the
    // evaluator keeps only the latest ask, so this one would drop the other lanes' guesses.
    if (options_.lanes <= 1)
      ask_ahead(
          build_ahead_list({},
                           choosable(embedded_offers(lane.parent, lane.parent_state, spec_,
                                                     options_.source_only, options_.gpu, seen_)),
                           choosable(embedded_offers(result_.best, best_state_, spec_,
                                                     options_.source_only, options_.gpu, seen_)),
                           lane.parent, options_.prefetch));
  }
  const std::size_t index = result_.steps.size();
  // What changed in the profile: a faster child is profiled (its state above); a slower or
  // equal one is discarded unprofiled.
  if (s.by_model && measured && s.reviewed)
    ask_lesson(lane, index, step_parent, s,
               faster ? measured_delta(*s.state, lane.parent_state) : unprofiled(eval));
  if (s.context.tokens) lane.tokens[index] = s.context.tokens;
  result_.steps.push_back({lane.rollout,
                           lane.depth,
                           s.state->key,
                           s.choice.technique,
                           s.child.changes.back(),
                           s.choice.mode,
                           s.choice.predicted_log_speedup,
                           eval,
                           result_.best_log_speedup,
                           s.child.fingerprint(),
                           clock_.now_seconds() - started_,
                           "",
                           s.by_model,
                           s.repairs,
                           {},
                           ""});
  lane.taken.emplace_back(index, s.predicted);
  ++lane.depth;
  return Ok{};
}

void Search::ask_lesson(Lane& lane, std::size_t index, const Candidate& step_parent,
                        const EvaluatedStep& s, std::string profile_delta) {
  // After the time limit the statistical lesson stays.
  if (clock_.now_seconds() >= deadline_) return;
  const Evaluation& eval = s.evaluation;
  std::string predicted = percent_gain(s.predicted.expected_log_speedup);
  std::string observed =
      percent_gain(eval.log_speedup) + " (" + std::string(outcome_name(eval.outcome)) + ")";
  lane.gap_analyses[index] =
      std::async(std::launch::async,
                 [llm = options_.llm, step_parent, child = s.child, context = s.context,
                  state = s.state, predicted = std::move(predicted), observed = std::move(observed),
                  delta = std::move(profile_delta)]() mutable {
                   context.state = state.get();
                   return llm->lesson(step_parent, child, context, predicted, observed, delta);
                 });
}

Status Search::settle_review(Lane& lane) {
  Lane::ModelTurn turn = std::move(*lane.settling);
  lane.settling.reset();
  auto settled = turn.step->settle_review();
  if (!settled) return settled.error();
  const std::size_t index = lane.settling_index;
  SearchStep& step = result_.steps[index];
  // A step that failed on its own (it did not verify, or was built before) stays as it is.
  if (!is_measured(step.evaluation.outcome)) return Ok{};
  switch (settled->verdict) {
    case ReviewSettled::Verdict::accepted: {
      const LlmStep& done = turn.step->result();
      ask_lesson(lane, index, turn.step->parent(),
                 {turn.choice, turn.predicted, turn.state, done.child, done.evaluation, true,
                  done.repairs, turn.step->context(), true},
                 unprofiled(done.evaluation));
      break;
    }
    case ReviewSettled::Verdict::rejected: {
      step.evaluation.detail = "review: " + settled->reason + " (measured before the review: " +
                               first_line(step.evaluation.detail) + "; discarded)";
      step.evaluation.outcome = StepOutcome::verify_failure;
      for (std::size_t i = 0; i < lane.taken.size(); ++i)
        if (lane.taken[i].first == index)
          lane.trajectory.steps[i].outcome = StepOutcome::verify_failure;
      lane.failures.push_back(step.technique +
                              ": verify_failure: review: " + first_line(settled->reason));
      progress_ << "    rollout " << lane.rollout << " step " << step.depth + 1
                << " review -> no: " << first_line(settled->reason)
                << "; the step is a verify_failure\n";
      last_lane_ = nullptr;
      break;
    }
    case ReviewSettled::Verdict::unreviewed:
      step.evaluation.detail += " (" + settled->reason + ")";
      break;
  }
  return Ok{};
}

Status Search::end_rollout(Lane& lane) {
  for (auto& [index, analysis] : lane.gap_analyses) {
    auto text = analysis.get();
    if (!text) return text.error();
    result_.steps[index].model_lesson = std::move(*text);
  }
  for (std::size_t i = 0; i < lane.taken.size(); ++i)
    if (const auto it = lane.tokens.find(lane.taken[i].first); it != lane.tokens.end()) {
      const TokenUsage used = it->second->total();
      result_.steps[it->first].tokens = used;
      lane.trajectory.steps[i].tokens = used.input + used.output;
    }
  budget_.end_rollout(lane.improved);
  lane.rollout = 0;
  lane.ending = false;
  if (lane.trajectory.steps.empty()) return Ok{};
  KB_TRY(kb_.record_trajectory(lane.trajectory));
  for (const auto& [index, predicted] : lane.taken) {
    SearchStep& step = result_.steps[index];
    auto after = kb_.stats(step.state, step.technique, options_.gpu.arch);
    if (!after) return after.error();
    Lesson lesson =
        statistical_lesson(step.state, step.technique, predicted, step.evaluation.outcome,
                           step.evaluation.log_speedup, *after, options_.now_unix);
    if (!is_measured(step.evaluation.outcome))
      lesson.text += " Reason: " + first_line(step.evaluation.detail);
    if (!step.model_lesson.empty()) lesson.text = step.model_lesson;  // the textual gradient
    KB_TRY(kb_.add_lesson(lesson));
    step.lesson = lesson.text;
  }
  return Ok{};
}

// One turn of `lane`: the review of its last step settled, then at most one wait for the model,
// and at most one evaluation on the GPU of this lane's child before the next lane's turn.
Status Search::advance(Lane& lane) {
  if (lane.settling) KB_TRY(settle_review(lane));
  if (lane.turn) {
    ModelStep& step = *lane.turn->step;
    KB_TRY(step.advance(evaluator_, seen_));
    if (step.repairing()) {
      continued(lane, lane.depth + 1)
          << "compile_failure: " << first_line(step.result().evaluation.detail)
          << "; asking for a repair (" << step.result().repairs << " of "
          << options_.llm->repair_attempts() << ")\n";
      return Ok{};
    }
    if (!step.done()) return Ok{};  // the model reviews the child
    Lane::ModelTurn turn = std::move(*lane.turn);
    lane.turn.reset();
    const LlmStep& done = turn.step->result();
    if (done.cut) {
      continued(lane, lane.depth + 1) << "cut: " << done.evaluation.detail << "; not counted\n";
      lane.ending = true;
      return Ok{};
    }
    const bool pending = turn.step->review_pending();
    KB_TRY(finish_step(lane, {turn.choice, turn.predicted, turn.state, done.child, done.evaluation,
                              true, done.repairs, turn.step->context(), !pending}));
    if (pending) {
      lane.settling = std::move(turn);
      lane.settling_index = result_.steps.size() - 1;
    }
  } else if (lane.ending) {
    KB_TRY(end_rollout(lane));
  }
  if (lane.rollout == 0 && !open_rollout(lane)) return Ok{};
  auto took = take_step(lane);
  if (!took) return took.error();
  if (*took == Took::rollout_over) lane.ending = true;
  return Ok{};
}

void Search::ask_ahead(std::vector<Candidate> next) {
  if (static_cast<int>(next.size()) > options_.prefetch) next.resize(options_.prefetch);
  // Only the latest ask: the evaluator may drop older guesses that no worker started.
  asked_ahead_.clear();
  for (const Candidate& c : next) asked_ahead_.insert(c.fingerprint());
  evaluator_.prefetch(next);
}

std::map<std::string, Proposal> Search::choosable(std::map<std::string, Proposal> offered) const {
  return keep_only(std::move(offered), options_.only_techniques);
}

Result<SearchResult> Search::run() {
  // The first step's children compile while the baseline is profiled. Its state, which decides
  // what some techniques argue for, is not known yet: every child of every technique.
  ask_ahead(first_children(result_.baseline, spec_, options_));
  auto state = evaluator_.state_of(result_.baseline);
  if (!state) return state.error();
  // Now it is: one child per technique, as every later step asks; the guesses no worker started
  // give way.
  auto leads = lead_children(choosable(embedded_offers(result_.baseline, *state, spec_,
                                                       options_.source_only, options_.gpu, seen_)),
                             result_.baseline);
  ask_ahead(std::move(leads));
  result_.baseline_state = result_.best_state = state->key;
  progress_ << "  baseline: " << state->key << " (" << state->explanation << ")\n";
  best_state_ = *state;
  std::vector<Lane> lanes(static_cast<std::size_t>(std::max(1, options_.lanes)));
  lanes_ = &lanes;
  for (bool open = true; open;) {
    open = false;
    for (Lane& lane : lanes) {
      if (lane.closed) continue;
      KB_TRY(advance(lane));
      open = open || !lane.closed;
    }
  }
  result_.best_state = best_state_.key;
  result_.stop_reason = llm_stop_.empty() ? budget_.stop_reason() : llm_stop_;
  result_.best_so_far = budget_.best_so_far();
  result_.soft_verification =
      soft_verification_findings(result_.baseline.source, result_.best.source);
  if (options_.llm) {
    result_.llm = options_.llm->ledger().kernel(spec_.name);
    result_.model_slots = std::max(1, options_.lanes);
    for (ModelCall& call : options_.llm->calls())
      if (call.kernel == spec_.name && call.start_s >= started_)
        result_.model_calls.push_back(std::move(call));
  }
  return std::move(result_);
}

}  // namespace

std::vector<Candidate> first_children(const Candidate& baseline, const KernelSpec& spec,
                                      const SearchOptions& options) {
  auto children =
      every_child(keep_only(embedded_offers(baseline, PerfState{}, spec, options.source_only,
                                            options.gpu, {baseline.fingerprint()}),
                            options.only_techniques));
  if (static_cast<int>(children.size()) > options.prefetch) children.resize(options.prefetch);
  return children;
}

Result<SearchResult> run_search(const Candidate& baseline, const KernelSpec& spec,
                                Evaluator& evaluator, Store& kb, const Catalogue& catalogue,
                                const SearchOptions& options, Clock& clock,
                                std::ostream& progress) {
  return Search(baseline, spec, evaluator, kb, catalogue, options, clock, progress).run();
}

}  // namespace kblaster
