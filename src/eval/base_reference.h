// check's verification of a kernel with no reference of its own: head against base's output.
// Base is the trusted revision, and head's spec is the pull request's, so head is verified at
// base's own sizes as well as head's, and a size where base cannot run (its `requires` reject
// it, or it fails there) is left out and said, never taken as head's failure or pass.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "eval/verify_sizes.h"
#include "gpu/harness_client.h"

namespace kblaster {

// Why base's output cannot be head's reference, or "" when it can: base is called with head's
// arguments, so both must declare the same ones (names, types, roles, shapes, fills, scalars),
// the same stream use and the same constants. Sizes and tolerances may differ.
std::string why_base_cannot_be_the_reference(const KernelSpec& base, const KernelSpec& head);

// The sizes head is checked against base at: head's, then base's own that head lacks, each of
// them accepted by both kernels' `requires`. `left_out` says each size dropped and why.
struct BaseCheckSizes {
  std::vector<std::map<std::string, std::int64_t>> sizes;
  // "n=1001 left out of the verification against base: base requires `n % 2 == 0` (n=1001)"
  std::vector<std::string> left_out;
};
BaseCheckSizes sizes_to_check_against_base(const KernelSpec& base, const KernelSpec& head);

// The sizes head is verified at against its own reference: head's, then, where base had a
// reference too and takes the same arguments (why_base_cannot_be_the_reference is empty), each of
// base's that head's `requires` accepts and head can be set up at, so a pull request cannot drop
// from its kblaster.toml the size its kernel fails at. `left_out` names each of base's sizes
// left out ("n=31 left out of the verification: head requires …, where base was checked").
// Only head's sizes, and nothing left out, when head has no reference.
BaseCheckSizes sizes_to_verify_with_reference(const KernelSpec& base, const KernelSpec& head);

// Head's verification against base (candidate 0 of `harness`'s load; head is candidate 1).
struct BaseCheck {
  std::vector<SizeVerdict> verdicts;  // in order, up to the first size head fails
  // "n=0 left out of the verification against base: base fails there: …", one per size
  std::vector<std::string> base_failed;
};
// Verifies head at each of `sizes`, one size at a time, so a size where base fails (the harness
// says HarnessFailure::base_failed) is left out and the next one tried; at the stricter of base's
// and head's tolerances, since head's is the pull request's. Errors are harness failures that
// are neither head's verdicts nor base's failures.
Result<BaseCheck> verify_against_base(HarnessClient& harness, const KernelSpec& base,
                                      const KernelSpec& head, const BaseCheckSizes& sizes,
                                      const std::vector<std::uint64_t>& seeds);

}  // namespace kblaster
