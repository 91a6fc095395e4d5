// Checked CUDA calls for the harness: a failed call becomes a HarnessFailure
// naming the call, the file and the line (nvbench's NVBENCH_CUDA_CALL habit).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace kblaster::harness {

// Any failure while serving one request; main's request loop turns it into an
// {"ok": false, "error": …} response.
struct HarnessFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failure of what the outputs are checked against, not of the harness. The answer carries the
// cause, so kblaster knows whose it is:
// - "reference": the spec's reference failed (its module raised, its function returned non-zero,
//   its GPU launch failed or faulted); the user's to fix;
// - "environment": what the reference needs is missing (python, torch);
// - "base": the candidate used as the reference (check's base revision) failed;
// - "fresh_context": a GPU launch of either failed after a candidate had run in this CUDA
//   context, so the candidate may have left the damage: run it again in a fresh context.
struct ReferenceFailure : HarnessFailure {
  ReferenceFailure(const std::string& what, const char* why) : HarnessFailure(what), cause(why) {}
  const char* cause;
};
inline constexpr const char* kCauseReference = "reference";
inline constexpr const char* kCauseEnvironment = "environment";
inline constexpr const char* kCauseBase = "base";
inline constexpr const char* kCauseFreshContext = "fresh_context";

[[noreturn]] void cuda_failed(cudaError_t error, const char* call, const char* file, int line);

}  // namespace kblaster::harness

#define KBH_CUDA(call)                                                          \
  do {                                                                          \
    const cudaError_t kbh_status_ = (call);                                     \
    if (kbh_status_ != cudaSuccess)                                             \
      ::kblaster::harness::cuda_failed(kbh_status_, #call, __FILE__, __LINE__); \
  } while (0)
