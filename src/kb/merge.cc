#include "kb/merge.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace kblaster {

namespace {

bool same_steps(const TrajectoryStep& a, const TrajectoryStep& b) {
  return std::tie(a.step, a.state, a.action, a.outcome, a.tokens) ==
             std::tie(b.step, b.state, b.action, b.outcome, b.tokens) &&
         a.reward == b.reward;
}

bool same(const Trajectory& a, const Trajectory& b) {
  return std::tie(a.task, a.arch, a.created_at) == std::tie(b.task, b.arch, b.created_at) &&
         std::equal(a.steps.begin(), a.steps.end(), b.steps.begin(), b.steps.end(), same_steps);
}

bool same(const Lesson& a, const Lesson& b) {
  return std::tie(a.state, a.technique, a.text, a.created_at) ==
         std::tie(b.state, b.technique, b.text, b.created_at);
}

// Merges two sorted vectors by `key`; on a shared key `pick` decides or fails.
template <class Row, class Key>
Result<std::vector<Row>> union_by(const std::vector<Row>& a, const std::vector<Row>& b, Key key,
                                  const std::function<Result<Row>(const Row&, const Row&)>& pick) {
  std::map<decltype(key(a.front())), Row> rows;
  for (const Row& r : a) rows.emplace(key(r), r);
  for (const Row& r : b) {
    auto [it, inserted] = rows.emplace(key(r), r);
    if (inserted) continue;
    Result<Row> chosen = pick(it->second, r);
    if (!chosen) return chosen.error();
    it->second = std::move(*chosen);
  }
  std::vector<Row> out;
  out.reserve(rows.size());
  for (auto& [k, r] : rows) out.push_back(std::move(r));
  return out;
}

// Keeps the row with the smaller tuple, so the choice does not depend on order.
template <class Row, class Tie>
std::function<Result<Row>(const Row&, const Row&)> smaller(Tie tie) {
  return [tie](const Row& x, const Row& y) -> Result<Row> { return tie(y) < tie(x) ? y : x; };
}

// Ids must name one content; anything else is a corrupt KB.
template <class Row>
std::function<Result<Row>(const Row&, const Row&)> identical(const char* what) {
  return [what](const Row& x, const Row& y) -> Result<Row> {
    if (!same(x, y))
      return Error::usage(std::string("KB merge: ") + what + " " + x.id +
                          " differs between the two KBs");
    return x;
  };
}

// True when `x` beats `y` as a task's best kernel.
bool better(const BestKernel& x, const BestKernel& y) {
  if (x.speedup != y.speedup) return x.speedup > y.speedup;
  return std::tie(x.source, x.result_json) < std::tie(y.source, y.result_json);
}

}  // namespace

std::vector<StatsRow> derive_stats(const std::vector<Trajectory>& trajectories) {
  std::vector<const Trajectory*> order;
  for (const Trajectory& t : trajectories) order.push_back(&t);
  std::sort(order.begin(), order.end(),
            [](const Trajectory* x, const Trajectory* y) { return x->id < y->id; });
  std::map<std::tuple<std::string, std::string, std::string>, TechniqueStats> sums;
  for (const Trajectory* t : order)
    for (const TrajectoryStep& s : t->steps) {
      // Mirrors store.cc's add_step_stats: the first step sets the row, later ones add.
      const bool measured = is_measured(s.outcome);
      const double x = measured ? s.reward : 0.0;
      auto [it, first] = sums.try_emplace({s.state, s.action, t->arch});
      TechniqueStats& st = it->second;
      st.attempts += 1;
      st.compile_failures += s.outcome == StepOutcome::compile_failure;
      st.verify_failures += s.outcome == StepOutcome::verify_failure;
      st.slower += s.outcome == StepOutcome::slower;
      st.faster += s.outcome == StepOutcome::faster;
      st.measured += measured;
      if (first) {
        st.sum_log_speedup = x;
        st.sum_sq_log_speedup = x * x;
        st.last_seen = t->created_at;
      } else {
        st.sum_log_speedup = st.sum_log_speedup + x;
        st.sum_sq_log_speedup = st.sum_sq_log_speedup + x * x;
        st.last_seen = std::max(st.last_seen, t->created_at);
      }
    }
  std::vector<StatsRow> out;
  out.reserve(sums.size());
  for (auto& [key, st] : sums)
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), st});
  return out;
}

Result<KbContents> merge_contents(const KbContents& a, const KbContents& b) {
  KbContents out;
  Result<std::vector<TechniqueRow>> techniques = union_by(
      a.techniques, b.techniques, [](const TechniqueRow& r) { return r.id; },
      smaller<TechniqueRow>(
          [](const TechniqueRow& r) { return std::tie(r.category, r.description, r.applier); }));
  if (!techniques) return techniques.error();
  out.techniques = std::move(*techniques);
  Result<std::vector<StateRow>> states = union_by(
      a.states, b.states, [](const StateRow& r) { return r.key; },
      smaller<StateRow>([](const StateRow& r) { return std::tie(r.bottleneck, r.description); }));
  if (!states) return states.error();
  out.states = std::move(*states);
  Result<std::vector<Trajectory>> trajectories = union_by(
      a.trajectories, b.trajectories, [](const Trajectory& t) { return t.id; },
      identical<Trajectory>("trajectory"));
  if (!trajectories) return trajectories.error();
  out.trajectories = std::move(*trajectories);
  Result<std::vector<Lesson>> lessons = union_by(
      a.lessons, b.lessons, [](const Lesson& l) { return l.id; }, identical<Lesson>("lesson"));
  if (!lessons) return lessons.error();
  out.lessons = std::move(*lessons);
  Result<std::vector<BestKernel>> best = union_by(
      a.best_kernels, b.best_kernels, [](const BestKernel& k) { return k.task; },
      std::function<Result<BestKernel>(const BestKernel&, const BestKernel&)>(
          [](const BestKernel& x, const BestKernel& y) -> Result<BestKernel> {
            return better(y, x) ? y : x;
          }));
  if (!best) return best.error();
  out.best_kernels = std::move(*best);
  // A kernel's cost: the newest record of (task, arch); on a tie the larger, so merging in
  // either order gives one answer.
  Result<std::vector<KernelCost>> costs = union_by(
      a.kernel_costs, b.kernel_costs,
      [](const KernelCost& c) { return std::make_pair(c.task, c.arch); },
      std::function<Result<KernelCost>(const KernelCost&, const KernelCost&)>(
          [](const KernelCost& x, const KernelCost& y) -> Result<KernelCost> {
            if (x.recorded_at != y.recorded_at) return x.recorded_at > y.recorded_at ? x : y;
            return x.seconds >= y.seconds ? x : y;
          }));
  if (!costs) return costs.error();
  out.kernel_costs = std::move(*costs);
  out.stats = derive_stats(out.trajectories);
  return out;
}

Status merge_into(Store& target, const Store& source) {
  Result<KbContents> theirs = [&]() -> Result<KbContents> {
    Result<Transaction> read = Transaction::begin(source.database());
    if (!read) return read.error();
    return read_kb(source.database());
  }();
  if (!theirs) return theirs.error();
  const Database& db = target.database();
  Result<Transaction> tx = Transaction::begin(db);
  if (!tx) return tx.error();
  Result<KbContents> ours = read_kb(db);  // under the write lock: no write is lost
  if (!ours) return ours.error();
  Result<KbContents> merged = merge_contents(*ours, *theirs);
  if (!merged) return merged.error();
  KB_TRY(clear_kb(db));
  KB_TRY(write_kb(db, *merged));
  return tx->commit();
}

}  // namespace kblaster
