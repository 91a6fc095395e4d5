#include "eval/compare_step.h"

#include "eval/seed_source.h"
#include "stats/throttle_filter.h"

namespace kblaster {

Result<AbResult> compare_once(HarnessClient& harness, const KernelSpec& spec,
                              const CompareFlags& flags, Clock& clock, const Against& against) {
  // A candidate that brought the harness down in an earlier comparison left it empty.
  KB_TRY(harness.restore_if_lost());
  AbResult result;
  result.seed = flags.seed != 0 ? flags.seed : draw_seed();
  KB_TRY(harness.bench_prepare(result.seed, against));
  auto warmup = harness.sample({0, 1, 0, 1});
  if (!warmup) {
    result.rejected = "a candidate failed while timed: " + warmup.error().message;
    return result;
  }

  // Pairs where either launch ran at a throttled clock are dropped as they
  // arrive, so the pairs that decide when to stop are the ones the verdict uses.
  ThrottleGate gate({flags.throttle_threshold});
  const double start = clock.now_seconds();
  AbSampler sampler(flags.criteria, flags.budget);
  bool a_leads = true;
  while (!sampler.done(clock.now_seconds() - start)) {
    std::vector<int> order;
    for (std::size_t i = 0, n = std::max<std::size_t>(1, sampler.pairs_to_checkpoint()); i < n;
         ++i) {
      order.push_back(a_leads ? 0 : 1);
      order.push_back(a_leads ? 1 : 0);
    }
    a_leads = !a_leads;  // so neither candidate always runs first in its pair
    auto samples = harness.sample(order);
    if (!samples) {
      result.rejected = "a candidate failed while timed: " + samples.error().message;
      return result;
    }
    for (std::size_t i = 0; i + 1 < samples->size(); i += 2) {
      const TimingSample& x = (*samples)[i];
      const TimingSample& y = (*samples)[i + 1];
      const TimingSample& sa = x.candidate == 0 ? x : y;
      const TimingSample& sb = x.candidate == 0 ? y : x;
      ++result.pairs;
      if (!gate.admit(std::min(sa.sm_mhz, sb.sm_mhz))) continue;
      sampler.add_pair(sa.gpu_seconds, sb.gpu_seconds);
      result.samples.a_sm_mhz.push_back(sa.sm_mhz);
      result.samples.b_sm_mhz.push_back(sb.sm_mhz);
    }
  }
  result.end = sampler.state(clock.now_seconds() - start);
  result.throttled_pairs = gate.dropped();
  result.sm_mhz = gate.median_mhz();
  result.comparison = sampler.current();
  result.samples.a_s.assign(sampler.a_samples().begin(), sampler.a_samples().end());
  result.samples.b_s.assign(sampler.b_samples().begin(), sampler.b_samples().end());

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
  return {{"verdict", verdict_name(c.verdict)},
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
}

Status check_same_workload(const KernelSpec& a, const KernelSpec& b) {
  bool same = a.args.size() == b.args.size() && a.stream == b.stream && a.sizes == b.sizes &&
              a.tolerance.rtol == b.tolerance.rtol && a.tolerance.atol == b.tolerance.atol;
  for (std::size_t i = 0; same && i < a.args.size(); ++i) {
    const ArgSpec& x = a.args[i];
    const ArgSpec& y = b.args[i];
    same = x.name == y.name && x.type == y.type && x.role == y.role &&
           x.is_buffer() == y.is_buffer() &&
           (!x.is_buffer() || x.shape->text() == y.shape->text()) && x.value == y.value &&
           x.tunable == y.tunable;
  }
  if (!same)
    return Error::usage("kernels `" + a.name + "` and `" + b.name +
                        "` declare different arguments, sizes or tolerances, so they cannot be "
                        "compared on one input");
  return Ok{};
}

}  // namespace kblaster
