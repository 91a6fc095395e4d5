#include "cli/repository.h"

namespace kblaster {

Result<ChangePlan> load_change_plan(const CommonOptions& options, const Repo& git,
                                    const RequestedRange& want, BaseMode mode) {
  auto plan = plan_revisions(git, want.base, want.head, mode);
  if (!plan) return prefix_config_paths(plan.error(), options.repo);
  auto& base_error = plan->changes.base_config_error;
  if (base_error) base_error = prefix_config_paths(*base_error, options.repo);
  auto selected = select_kernels(plan->head_config, options.kernels);
  if (!selected) return at_head_revision(selected.error(), plan->range.head);
  keep_kernels(*plan, options.kernels);
  return plan;
}

}  // namespace kblaster
