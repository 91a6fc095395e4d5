// Verification at every size: the one loop that `verify`, `check` and the search's
// evaluator share. A candidate is set up at each declared size in turn and its
// outputs checked on every seed, until a size fails.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "gpu/harness_client.h"

namespace kblaster {

// One size's verdict.
struct SizeVerdict {
  std::string size;  // "N=8192 C=768"
  CheckVerdict verdict;
};

// Told of each size's verdict as it comes, for progress lines.
using SizeObserver = std::function<void(const SizeVerdict&)>;

// Verifies loaded candidate `candidate` of `harness` at every size of `spec`, in
// spec order, on `seeds`, against the loaded reference or another candidate
// (`against`). Stops after the first size that fails. The verdicts, that one
// included; errors are harness failures that are not verdicts, and sizes that do not plan.
Result<std::vector<SizeVerdict>> verify_at_every_size(HarnessClient& harness,
                                                      const KernelSpec& spec, int candidate,
                                                      const std::vector<std::uint64_t>& seeds,
                                                      const Against& against,
                                                      const SizeObserver& observe = {});

// The verdict of the size that failed, or nullptr when every size passed.
const CheckVerdict* first_failure(const std::vector<SizeVerdict>& sizes);

}  // namespace kblaster
