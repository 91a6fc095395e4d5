// What one launch of a kernel must do at each declared size: the element count
// of every buffer, the fewest bytes it must move, and its FLOPs where declared.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

struct BufferPlan {
  std::string name;
  DType type = DType::f32;
  ArgRole role = ArgRole::in;
  std::int64_t elements = 0;
  std::int64_t bytes = 0;
  std::vector<std::int64_t> dims;  // the declared dimensions' values; empty: one, `elements`
};

struct SizePlan {
  std::map<std::string, std::int64_t> scalars;  // every integer scalar's value at this size
  std::vector<BufferPlan> buffers;              // in argument order
  std::int64_t bytes_read = 0;                  // each read buffer read once
  std::int64_t bytes_written = 0;               // each written buffer written once
  std::optional<std::int64_t> flops;
  std::optional<std::int64_t> declared_min_bytes;  // the spec's min_bytes at this size

  // The roofline floor's numerator: the spec's min_bytes where declared, else bytes read plus
  // bytes written.
  std::int64_t min_bytes() const {
    return declared_min_bytes ? *declared_min_bytes : bytes_read + bytes_written;
  }
};

struct KernelPlan {
  std::string kernel;
  std::vector<SizePlan> sizes;  // sizes[0] is the timed one
};

// The scalars `requires` is checked with at one entry of `sizes`: bind_scalars's, each -D
// tunable whose value is an integer, and a candidate's tunables (`launcher_args`, `macros`)
// over the defaults.
std::map<std::string, std::int64_t> precondition_scalars(
    const KernelSpec& spec, const std::map<std::string, std::int64_t>& size,
    const std::map<std::string, std::int64_t>& launcher_args = {},
    const std::map<std::string, std::string>& macros = {});

// Why a candidate with these tunables breaks `requires` at one of the sizes `spec` accepts:
// "`C >= block_size` (C=768, block_size=1024) at C=768"; nullopt when it breaks none.
std::optional<std::string> broken_by_tunables(
    const KernelSpec& spec, const std::map<std::string, std::int64_t>& launcher_args,
    const std::map<std::string, std::string>& macros);

// The integer scalars of `spec` bound for one entry of `sizes`: the entry's
// values, the kernel's constants, fixed integer `value`s, and each tunable argument's default.
std::map<std::string, std::int64_t> bind_scalars(const KernelSpec& spec,
                                                 const std::map<std::string, std::int64_t>& size);

// Evaluates every shape (and flops) at one binding. Fails, naming the argument,
// on overflow, a negative count, or a byte total beyond int64.
Result<SizePlan> plan_size(const KernelSpec& spec, const std::map<std::string, std::int64_t>& size);

// "N=8192 C=768": a size's scalars in argument order, as the user declared them.
std::string size_label(const KernelSpec& spec, const std::map<std::string, std::int64_t>& size);

// plan_size for every entry of spec.sizes; the Error's message names the entry.
Result<KernelPlan> plan_kernel(const KernelSpec& spec);

// plan_kernel of a spec the config loader accepted: a failure there is a bug in
// kblaster's validation, so it is Error::internal naming the kernel.
Result<KernelPlan> plan_validated_kernel(const KernelSpec& spec);

}  // namespace kblaster
