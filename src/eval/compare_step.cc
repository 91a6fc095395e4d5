#include "eval/compare_step.h"

#include <algorithm>
#include <optional>

#include "core/launch_plan.h"
#include "eval/measure_step.h"
#include "eval/seed_source.h"
#include "stats/context_choice.h"
#include "stats/quantile.h"
#include "stats/throttle_filter.h"

namespace kblaster {
namespace {

// Pairs each context of a launch-bound A/B takes, at most: enough for a median within a few
// tenths of a percent on a 4-us kernel, a fraction of a second of GPU time.
constexpr std::size_t kMaxPairsPerContext = 250;
// Pairs per sample request in a launch-bound A/B.
constexpr std::size_t kContextBatchPairs = 50;

// The slower of A's and B's warm-up medians when both are launch-bound (under
// kHotBelowSeconds); nothing otherwise.
std::optional<double> launch_bound_time(const std::vector<TimingSample>& warmup) {
  std::vector<double> a, b;
  for (const auto& s : warmup) (s.candidate == 0 ? a : b).push_back(s.gpu_seconds);
  if (a.empty() || b.empty()) return std::nullopt;
  const double slower = std::max(median_of(a), median_of(b));
  if (slower <= 0 || slower >= kHotBelowSeconds) return std::nullopt;
  return slower;
}

// `pairs` interleaved (A, B) pairs, A first when `a_leads`: the order of a sample request.
std::vector<int> pair_order(std::size_t pairs, bool a_leads) {
  std::vector<int> order;
  for (std::size_t i = 0; i < pairs; ++i) {
    order.push_back(a_leads ? 0 : 1);
    order.push_back(a_leads ? 1 : 0);
  }
  return order;
}

// Calls keep(a, b) for each pair of `samples` (answered in pair_order) that `gate` admits, each
// pair counted in result.pairs, the throttled ones too.
template <class Keep>
void for_each_kept_pair(const std::vector<TimingSample>& samples, ThrottleGate& gate,
                        AbResult& result, Keep keep) {
  for (std::size_t i = 0; i + 1 < samples.size(); i += 2) {
    const TimingSample& x = samples[i];
    const TimingSample& y = samples[i + 1];
    const TimingSample& sa = x.candidate == 0 ? x : y;
    const TimingSample& sb = x.candidate == 0 ? y : x;
    ++result.pairs;
    if (gate.admit(std::min(sa.sm_mhz, sb.sm_mhz))) keep(sa, sb);
  }
}

// Takes `pairs` interleaved pairs (the lead alternating per request) of hot batches of
// result.calls each within `seconds`, throttled pairs dropped through `gate`, into `out`. An
// Error is a candidate's failure while timed.
Status take_pairs(HarnessClient& harness, std::size_t pairs, double seconds, ThrottleGate& gate,
                  Clock& clock, AbResult& result, AbSamples& out) {
  const double start = clock.now_seconds();
  bool a_leads = true;
  while (out.a_s.size() < pairs && clock.now_seconds() - start < seconds) {
    auto samples = harness.sample(
        pair_order(std::min(kContextBatchPairs, pairs - out.a_s.size()), a_leads), result.calls);
    a_leads = !a_leads;
    if (!samples) return samples.error();
    for_each_kept_pair(*samples, gate, result, [&](const TimingSample& a, const TimingSample& b) {
      out.a_s.push_back(a.gpu_seconds);
      out.b_s.push_back(b.gpu_seconds);
      out.a_sm_mhz.push_back(a.sm_mhz);
      out.b_sm_mhz.push_back(b.sm_mhz);
    });
  }
  return Ok{};
}

// The launch-bound A/B: kTimingContexts contexts (the first is the harness as it is, warmed
// up), each taking its share of the pairs of hot batches and of the time; then A's typical fast
// context against B's.
Status compare_over_contexts(HarnessClient& harness, const CompareFlags& flags, Clock& clock,
                             const Against& against, AbResult& result) {
  const auto contexts = static_cast<std::size_t>(kTimingContexts);
  const std::size_t pairs =
      std::clamp(flags.budget.max_pairs / contexts,
                 std::max<std::size_t>(flags.budget.min_pairs, 1), kMaxPairsPerContext);
  const double seconds = flags.budget.max_seconds / static_cast<double>(contexts);
  ThrottleGate gate({flags.throttle_threshold});
  for (std::size_t c = 0; c < contexts; ++c) {
    if (c > 0) {
      // The harness about to end saw its context's launches: an out-of-bounds write there is
      // asked for now, as the recheck at the end sees only the last context's.
      const CheckVerdict unchecked{false,
                                   verdict_reason_name(VerdictReason::not_rechecked),
                                   "the comparison ended in an earlier CUDA context",
                                   {}};
      for (const auto& [index, name] : {std::pair{0, "A"}, std::pair{1, "B"}}) {
        auto damage = harness.guard_damage(index);
        if (!damage && harness.holds_load()) return damage.error();
        if (!damage || *damage) {
          // The damaged side's recheck is the damage; the other was not rechecked. A harness a
          // candidate took down after its samples answered ends the comparison the same way.
          const CheckVerdict found =
              damage ? **damage
                     : CheckVerdict{false,
                                    verdict_reason_name(VerdictReason::not_rechecked),
                                    "the harness ended after CUDA context " + std::to_string(c) +
                                        ": " + damage.error().message,
                                    {}};
          result.recheck_a = index == 0 ? found : unchecked;
          result.recheck_b = index == 1 ? found : unchecked;
          result.rejected = std::string(name) + " while timed in CUDA context " +
                            std::to_string(c) + ": " + found.reason + ": " + found.message;
          return Ok{};
        }
      }
      KB_TRY(harness.fresh_context());
      // Only the last context's outputs are rechecked: the others skip the reference.
      KB_TRY(harness.bench_prepare(result.seed, against, /*expected=*/c + 1 == contexts));
      if (auto warm = harness.sample({0, 1, 0, 1}, result.calls); !warm) {
        result.rejected = "a candidate failed while timed in CUDA context " +
                          std::to_string(c + 1) + ": " + warm.error().message;
        return Ok{};
      }
    }
    AbContext context;
    if (auto taken = take_pairs(harness, pairs, seconds, gate, clock, result, context.samples);
        !taken) {
      result.rejected = "a candidate failed while timed: " + taken.error().message;
      return Ok{};
    }
    if (!context.samples.a_s.empty()) {
      context.a_median = median_of(context.samples.a_s);
      context.b_median = median_of(context.samples.b_s);
    }
    result.contexts.push_back(std::move(context));
  }
  // The harness rechecks a candidate's last single-call timed output, which hot batches do not
  // leave: one cold pair, untaken into the verdict, gives each one.
  if (auto last = harness.sample({0, 1}); !last) {
    result.rejected = "a candidate failed while timed: " + last.error().message;
    return Ok{};
  }
  // Each kernel's typical fast context, among those that kept samples (their medians are 0).
  auto typical = [&](double AbContext::*median) {
    std::vector<double> medians;
    for (const AbContext& c : result.contexts) medians.push_back(c.*median);
    return typical_fast_context(medians);
  };
  result.a_context = typical(&AbContext::a_median);
  result.b_context = typical(&AbContext::b_median);
  const AbSamples& a = result.contexts[result.a_context].samples;
  const AbSamples& b = result.contexts[result.b_context].samples;
  result.samples = {a.a_s, b.b_s, a.a_sm_mhz, b.b_sm_mhz};
  result.comparison = compare(result.samples.a_s, result.samples.b_s, flags.criteria);
  result.end = result.comparison.verdict != Verdict::ambiguous ? AbState::decided
               : result.pairs >= pairs * contexts              ? AbState::pair_limit
                                                               : AbState::time_limit;
  result.throttled_pairs = gate.dropped();
  result.sm_mhz = gate.median_mhz();
  return Ok{};
}

// Rechecks both candidates' last timed outputs; a failed one rejects the result.
Result<AbResult> recheck_both(HarnessClient& harness, const KernelSpec& spec, AbResult result) {
  auto ra = harness.recheck(0, spec.tolerance);
  if (!ra) return ra.error();
  result.recheck_a = *ra;
  if (ended_the_harness(*ra)) {
    // The harness, and B's last output with it, is gone: A is rejected either way.
    result.recheck_b = {false,
                        verdict_reason_name(VerdictReason::not_rechecked),
                        "the harness ended while A was rechecked",
                        {}};
  } else {
    auto rb = harness.recheck(1, spec.tolerance);
    if (!rb) return rb.error();
    result.recheck_b = *rb;
  }
  for (const auto& [name, check] :
       {std::pair{"A", &result.recheck_a}, std::pair{"B", &result.recheck_b}})
    if (!check->passed && result.rejected.empty())
      result.rejected = std::string(name) +
                        (ended_the_harness(*check) ? "'s last timed output could not be rechecked ("
                                                   : "'s last timed output is wrong (") +
                        check->reason + ": " + check->message + ")";
  return result;
}

}  // namespace

Result<AbResult> compare_once(HarnessClient& harness, const KernelSpec& spec,
                              const CompareFlags& flags, Clock& clock, const Against& against) {
  // A candidate that brought the harness down in an earlier comparison left it empty.
  KB_TRY(harness.restore_if_lost());
  AbResult result;
  result.seed = flags.seed != 0 ? flags.seed : draw_seed();
  KB_TRY(harness.bench_prepare(result.seed, against));
  auto warmup = harness.sample({0, 1, 0, 1});
  if (!warmup && launcher_waited_for_the_gpu(warmup.error())) {
    // A launcher that waits for the GPU: both are timed unheld, by the same method, in the fresh
    // harness the failed sample left (wall time of each call and a device synchronize).
    result.unheld = true;
    KB_TRY(harness.restore_if_lost());
    KB_TRY(harness.bench_prepare(result.seed, against));
    warmup = harness.sample({0, 1, 0, 1}, 1, true);
  }
  if (!warmup) {
    result.rejected = "a candidate failed while timed: " + warmup.error().message;
    return result;
  }
  if (const auto seconds = launch_bound_time(*warmup); !result.unheld && seconds) {
    result.calls = hot_batch_calls(*seconds);
    KB_TRY(compare_over_contexts(harness, flags, clock, against, result));
    if (!result.rejected.empty()) return result;
    return recheck_both(harness, spec, std::move(result));
  }

  // Pairs where either launch ran at a throttled clock are dropped as they
  // arrive, so the pairs that decide when to stop are the ones the verdict uses.
  ThrottleGate gate({flags.throttle_threshold});
  const double start = clock.now_seconds();
  AbSampler sampler(flags.criteria, flags.budget);
  bool a_leads = true;
  while (!sampler.done(clock.now_seconds() - start)) {
    auto samples =
        harness.sample(pair_order(std::max<std::size_t>(1, sampler.pairs_to_checkpoint()), a_leads),
                       1, result.unheld);
    a_leads = !a_leads;  // so neither candidate always runs first in its pair
    if (!samples) {
      result.rejected = "a candidate failed while timed: " + samples.error().message;
      return result;
    }
    for_each_kept_pair(*samples, gate, result, [&](const TimingSample& a, const TimingSample& b) {
      sampler.add_pair(a.gpu_seconds, b.gpu_seconds);
      result.samples.a_sm_mhz.push_back(a.sm_mhz);
      result.samples.b_sm_mhz.push_back(b.sm_mhz);
    });
  }
  result.end = sampler.state(clock.now_seconds() - start);
  result.throttled_pairs = gate.dropped();
  result.sm_mhz = gate.median_mhz();
  result.comparison = sampler.current();
  result.samples.a_s.assign(sampler.a_samples().begin(), sampler.a_samples().end());
  result.samples.b_s.assign(sampler.b_samples().begin(), sampler.b_samples().end());

  return recheck_both(harness, spec, std::move(result));
}

std::string ab_method_note(const AbResult& r) {
  if (r.unheld) return "unheld (a launcher waits for the GPU: wall time of a call and a sync)";
  if (r.contexts.empty()) return "";
  return "hot batches of " + std::to_string(r.calls) + " calls in " +
         std::to_string(r.contexts.size()) + " CUDA contexts (launch-bound)";
}

namespace {

// Whether a candidate's last timed output passed its recheck; null when it was not
// checked: the recheck ended the harness, or (B) never ran because A's did.
nlohmann::json recheck_json(const CheckVerdict& v) {
  if (ended_the_harness(v) || v.why() == VerdictReason::not_rechecked) return nullptr;
  return v.passed;
}

}  // namespace

nlohmann::json to_json(const AbResult& r) {
  const Comparison& c = r.comparison;
  nlohmann::json j = {
      {"verdict", verdict_name(c.verdict)},
      {"ratio", c.ratio},
      {"ci_low", c.ci_low},
      {"ci_high", c.ci_high},
      {"mann_whitney_p", c.mann_whitney_p},
      {"pairs", r.pairs},
      {"seed", r.seed},
      {"throttled_pairs", r.throttled_pairs},
      {"ended", ab_state_name(r.end)},
      {"reason", c.reason},
      {"recheck", {{"a", recheck_json(r.recheck_a)}, {"b", recheck_json(r.recheck_b)}}},
      {"trusted", r.rejected.empty()},
      {"rejected", r.rejected},
      {"sm_mhz", r.sm_mhz},
      {"samples",
       {{"a_s", r.samples.a_s},
        {"b_s", r.samples.b_s},
        {"a_sm_mhz", r.samples.a_sm_mhz},
        {"b_sm_mhz", r.samples.b_sm_mhz}}}};
  if (r.unheld)
    j["timing_method"] =
        "unheld: a launcher waits for the GPU, so the stream cannot be held; each sample of A and "
        "B is the wall time of one launcher call and a device synchronize after an L2 flush";
  if (!r.contexts.empty()) {
    nlohmann::json runs = nlohmann::json::array();
    for (const AbContext& x : r.contexts)
      runs.push_back({{"a_median_s", x.a_median},
                      {"b_median_s", x.b_median},
                      {"a_s", x.samples.a_s},
                      {"b_s", x.samples.b_s},
                      {"a_sm_mhz", x.samples.a_sm_mhz},
                      {"b_sm_mhz", x.samples.b_sm_mhz}});
    j["contexts"] = {
        {"method", "launch-bound: interleaved pairs of hot batches (" + std::to_string(r.calls) +
                       " launcher calls back to back, L2 warm, time per call) in " +
                       std::to_string(r.contexts.size()) +
                       " fresh CUDA contexts (harness processes); the verdict compares A's "
                       "typical fast context with B's (the median of the contexts within 2% of "
                       "the fastest), as a kernel's launch-bound time falls in one of two modes "
                       "about 5% apart per context"},
        {"calls", r.calls},
        {"a_context", r.a_context},
        {"b_context", r.b_context},
        {"runs", runs}};
  }
  return j;
}

Result<std::vector<std::string>> keep_common_sizes(KernelSpec& a, KernelSpec& b) {
  std::vector<std::string> lines;
  auto why_not = [](const KernelSpec& k,
                    const std::map<std::string, std::int64_t>& size) -> std::optional<std::string> {
    for (const auto& [left, why] : k.left_out)
      if (left == size) return "`" + k.name + "` " + why;
    return std::nullopt;
  };
  std::vector<std::map<std::string, std::int64_t>> common;
  for (const auto& size : declared_sizes_of(a)) {
    const auto why = why_not(a, size) ? why_not(a, size) : why_not(b, size);
    if (!why) {
      common.push_back(size);
      continue;
    }
    lines.push_back(size_label(a, size) + " left out: " + *why);
    for (KernelSpec* k : {&a, &b})
      if (!why_not(*k, size)) k->left_out.emplace_back(size, *why);
  }
  if (common.empty())
    return Error::usage("kernels `" + a.name + "` and `" + b.name +
                        "` accept no size in common: " + (lines.empty() ? "" : lines.front()));
  a.sizes = b.sizes = common;
  return lines;
}

Status check_same_workload(const KernelSpec& a, const KernelSpec& b) {
  bool same = a.args.size() == b.args.size() && a.stream == b.stream &&
              declared_sizes_of(a) == declared_sizes_of(b) && a.constants == b.constants &&
              a.tolerance.rtol == b.tolerance.rtol && a.tolerance.atol == b.tolerance.atol;
  for (std::size_t i = 0; same && i < a.args.size(); ++i) {
    const ArgSpec& x = a.args[i];
    const ArgSpec& y = b.args[i];
    same = x.name == y.name && x.type == y.type && x.role == y.role &&
           x.is_buffer() == y.is_buffer() &&
           (!x.is_buffer() || x.shape->text() == y.shape->text()) && x.value == y.value &&
           x.init.text == y.init.text && x.reference_type == y.reference_type &&
           x.tunable == y.tunable;
  }
  if (!same)
    return Error::usage("kernels `" + a.name + "` and `" + b.name +
                        "` declare different arguments, sizes or tolerances, so they cannot be "
                        "compared on one input");
  return Ok{};
}

}  // namespace kblaster
