#include "eval/verify_sizes.h"

#include <algorithm>

#include "core/launch_plan.h"

namespace kblaster {
namespace {

// A harness refusal blamed on the reference (a config error, cause "reference" or "base") says
// what the module or function did, but not where the spec is: the kernel's, or for a refused
// setup the argument holding the module's state it names, which is the likeliest culprit; nor at
// which size.
Error located(Error error, const KernelSpec& spec, const std::string& size, bool at_setup) {
  if (error.kind != ErrorKind::config || !error.where.empty()) return error;
  const auto state = std::find_if(spec.args.begin(), spec.args.end(), [](const ArgSpec& a) {
    return a.is_buffer() && a.init.kind == InitDist::Kind::state;
  });
  error.where = at_setup && state != spec.args.end() ? state->where.str() : spec.where.str();
  error.message = "kernel `" + spec.name + "` at " + size + ": " + error.message;
  return error;
}

}  // namespace

Result<std::vector<SizeVerdict>> verify_at_every_size(HarnessClient& harness,
                                                      const KernelSpec& spec, int candidate,
                                                      const std::vector<std::uint64_t>& seeds,
                                                      const Against& against,
                                                      const SizeObserver& observe) {
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  std::vector<SizeVerdict> verdicts;
  for (std::size_t i = 0; i < plan->sizes.size(); ++i) {
    const std::string size = size_label(spec, spec.sizes[i]);
    if (auto set = harness.setup(harness_args(spec, plan->sizes[i])); !set)
      return located(set.error(), spec, size, true);
    auto verdict = harness.verify(candidate, seeds, spec.tolerance, against);
    if (!verdict) return located(verdict.error(), spec, size, false);
    verdicts.push_back({size, std::move(*verdict)});
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
