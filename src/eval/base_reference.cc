#include "eval/base_reference.h"

#include <algorithm>

#include "core/launch_plan.h"
#include "core/precondition.h"
#include "eval/compare_step.h"
#include "eval/definition_change.h"

namespace kblaster {
namespace {

constexpr const char* kLeftOut = " left out of the verification against base: ";

}  // namespace

std::string why_base_cannot_be_the_reference(const KernelSpec& base, const KernelSpec& head) {
  // check_same_workload compares sizes and tolerances too: give base head's, so only the
  // arguments, the stream and the constants decide.
  KernelSpec as_head = base;
  as_head.sizes = head.sizes;
  as_head.declared_sizes = head.declared_sizes;
  as_head.tolerance = head.tolerance;
  if (!check_same_workload(as_head, head))
    return "base and head declare different arguments (names, types, roles, shapes, fills or "
           "scalars), stream use or constants, so base cannot be called as head is";
  return "";
}

BaseCheckSizes sizes_to_check_against_base(const KernelSpec& base, const KernelSpec& head) {
  std::vector<std::map<std::string, std::int64_t>> candidates = head.sizes;
  BaseCheckSizes out;
  for (const auto& size : base.sizes) {
    if (std::find(candidates.begin(), candidates.end(), size) != candidates.end()) continue;
    if (auto why = first_broken(head.preconditions, precondition_scalars(head, size)))
      out.left_out.push_back(size_label(head, size) + kLeftOut + "head requires " + *why);
    else
      candidates.push_back(size);
  }
  for (const auto& size : candidates) {
    if (auto why = first_broken(base.preconditions, precondition_scalars(base, size)))
      out.left_out.push_back(size_label(head, size) + kLeftOut + "base requires " + *why);
    else
      out.sizes.push_back(size);
  }
  return out;
}

BaseCheckSizes sizes_to_verify_with_reference(const KernelSpec& base, const KernelSpec& head) {
  BaseCheckSizes out{head.sizes, {}};
  // Only where both have a reference: a reference the pull request adds has never been run at
  // base's sizes, which may be far beyond what a CPU reference finishes. And only where base's
  // sizes bind the scalars head takes.
  if (head.reference.kind == ReferenceSpec::Kind::base_revision ||
      base.reference.kind == ReferenceSpec::Kind::base_revision ||
      !why_base_cannot_be_the_reference(base, head).empty())
    return out;
  for (const auto& size : base.sizes) {
    if (std::find(out.sizes.begin(), out.sizes.end(), size) != out.sizes.end()) continue;
    const std::string label = size_label(head, size) + " left out of the verification: head ";
    if (auto why = first_broken(head.preconditions, precondition_scalars(head, size)))
      out.left_out.push_back(label + "requires " + *why + ", where base was checked");
    else if (auto plan = plan_size(head, size); !plan)
      out.left_out.push_back(label + "cannot be set up there (" + plan.error().message +
                             "), where base was checked");
    else
      out.sizes.push_back(size);
  }
  return out;
}

Result<BaseCheck> verify_against_base(HarnessClient& harness, const KernelSpec& base,
                                      const KernelSpec& head, const BaseCheckSizes& sizes,
                                      const std::vector<std::uint64_t>& seeds) {
  BaseCheck out;
  // The pull request sets head's tolerance: base's, where it is stricter, still holds.
  KernelSpec checked = head;
  checked.tolerance = stricter_tolerance(base.tolerance, head.tolerance);
  for (const auto& size : sizes.sizes) {
    KB_TRY(harness.restore_if_lost());  // a base that failed left a fresh, empty harness
    KernelSpec one = checked;
    one.sizes = {size};
    auto verdicts = verify_at_every_size(harness, one, 1, seeds, Against{0});
    if (!verdicts && harness.last_failure() == HarnessFailure::base_failed) {
      out.base_failed.push_back(size_label(head, size) + kLeftOut +
                                "base fails there: " + verdicts.error().message);
      continue;
    }
    if (!verdicts) return verdicts.error();
    out.verdicts.insert(out.verdicts.end(), verdicts->begin(), verdicts->end());
    if (first_failure(*verdicts)) break;
  }
  return out;
}

}  // namespace kblaster
