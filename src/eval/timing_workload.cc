#include "eval/timing_workload.h"

#include <algorithm>
#include <map>

#include "core/launch_plan.h"
#include "eval/compare_step.h"

namespace kblaster {
namespace {

using Size = std::map<std::string, std::int64_t>;

bool contains(const std::vector<Size>& sizes, const Size& size) {
  return std::find(sizes.begin(), sizes.end(), size) != sizes.end();
}

// `spec` with only the sizes in `keep`, declared or accepted.
void narrow(KernelSpec& spec, const std::vector<Size>& keep) {
  std::erase_if(spec.sizes, [&](const Size& s) { return !contains(keep, s); });
  std::erase_if(spec.left_out, [&](const auto& left) { return !contains(keep, left.first); });
  if (!spec.declared_sizes.empty()) spec.declared_sizes = keep;
}

}  // namespace

Result<std::vector<std::string>> align_for_timing(KernelSpec& base, KernelSpec& head) {
  std::vector<std::string> lines;
  std::vector<Size> common;
  for (const Size& size : declared_sizes_of(base)) {
    if (contains(declared_sizes_of(head), size))
      common.push_back(size);
    else
      lines.push_back(size_label(base, size) + " left out of the timing: only base declares it");
  }
  for (const Size& size : declared_sizes_of(head))
    if (!contains(declared_sizes_of(base), size))
      lines.push_back(size_label(head, size) + " left out of the timing: only head declares it");
  if (common.empty())
    return Error::usage(
        "base and head declare no size in common, so they cannot be timed on "
        "one input");
  narrow(base, common);
  narrow(head, common);
  KernelSpec as_head = base;  // tolerances decide what verifies, not what is timed
  as_head.tolerance = head.tolerance;
  KB_TRY(check_same_workload(as_head, head));
  auto accepted = keep_common_sizes(base, head);
  if (!accepted) return accepted.error();
  lines.insert(lines.end(), accepted->begin(), accepted->end());
  return lines;
}

}  // namespace kblaster
