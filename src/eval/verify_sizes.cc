#include "eval/verify_sizes.h"

#include <algorithm>

#include "core/launch_plan.h"

namespace kblaster {

Result<std::vector<SizeVerdict>> verify_at_every_size(HarnessClient& harness,
                                                      const KernelSpec& spec, int candidate,
                                                      const std::vector<std::uint64_t>& seeds,
                                                      const Against& against,
                                                      const SizeObserver& observe) {
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  std::vector<SizeVerdict> verdicts;
  for (std::size_t i = 0; i < plan->sizes.size(); ++i) {
    if (auto set = harness.setup(harness_args(spec, plan->sizes[i])); !set) {
      // A refused setup of a kernel handed its PyTorch module's state is the spec naming a
      // tensor the module does not have, or of another shape: the config's mistake, said there.
      const auto state = std::find_if(spec.args.begin(), spec.args.end(), [](const ArgSpec& a) {
        return a.is_buffer() && a.init.kind == InitDist::Kind::state;
      });
      if (state != spec.args.end() && harness.last_failure() == HarnessFailure::refused &&
          set.error().kind != ErrorKind::environment)
        return Error::config(state->where.str(),
                             "kernel `" + spec.name + "`: " + set.error().message);
      return set.error();
    }
    auto verdict = harness.verify(candidate, seeds, spec.tolerance, against);
    if (!verdict) return verdict.error();
    verdicts.push_back({size_label(spec, spec.sizes[i]), std::move(*verdict)});
    if (observe) observe(verdicts.back());
    if (!verdicts.back().verdict.passed) break;
  }
  return verdicts;
}

const CheckVerdict* first_failure(const std::vector<SizeVerdict>& sizes) {
  for (const auto& s : sizes)
    if (!s.verdict.passed) return &s.verdict;
  return nullptr;
}

}  // namespace kblaster
