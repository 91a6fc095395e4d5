// The generated translation unit that turns a kernel source into a loadable
// candidate: it #includes the source and exports a C entry point that calls the
// spec's launcher with typed arguments (DESIGN.md, "The harness").
#pragma once

#include <string>

#include "core/kernel_spec.h"

namespace kblaster {

// The shim for `spec`, which #includes `source_path` verbatim (absolute, so the
// source's own "..." includes resolve beside it). It exports
//   extern "C" int kblaster_entry(void** args, cudaStream_t stream);
//   extern "C" const char* kblaster_entry_signature();
// args[i] points at argument i of spec.args: a device buffer, or host memory
// holding a scalar's value. kblaster_entry returns a cudaError_t: the
// launcher's, else the object's pending launch error. A `main` in the source is
// renamed to kblaster_user_main.
std::string generate_shim(const KernelSpec& spec, const std::string& source_path);

// The spec whose "launcher" is `spec`'s reference function, for building the
// reference with the same machinery: source = the reference file, launcher =
// its function, args = spec's args less tunable ones, no stream, no tunables.
KernelSpec reference_spec(const KernelSpec& spec);

// The shim for a CPU reference (`spec` as made by reference_spec). It exports
//   extern "C" int kblaster_reference(void** args);
// which calls the function with host pointers for buffers and scalars by
// value, and returns 0.
std::string generate_cpu_reference_shim(const KernelSpec& spec, const std::string& source_path);

// Which entry point an object exports: a candidate's kblaster_entry (also used
// for GPU references) or a CPU reference's kblaster_reference.
enum class ShimKind { candidate, cpu_reference };

// generate_shim or generate_cpu_reference_shim, by `kind`.
std::string generate_shim_of_kind(ShimKind kind, const KernelSpec& spec,
                                  const std::string& source_path);

// How the shim calls the launcher, for messages:
// "ns::launch(float* out, const float* in, int32_t n, cudaStream_t stream)".
// An input buffer parameter may be T* or const T*.
std::string launcher_signature(const KernelSpec& spec);

}  // namespace kblaster
