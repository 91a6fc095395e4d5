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

// A failure of the reference the spec names, not of the harness: its module raised or its
// function returned non-zero ("reference"), or what it needs is missing: python, torch
// ("environment"). The answer carries the cause, so kblaster says it as the user's to fix.
struct ReferenceFailure : HarnessFailure {
  ReferenceFailure(const std::string& what, const char* why) : HarnessFailure(what), cause(why) {}
  const char* cause;
};
inline constexpr const char* kCauseReference = "reference";
inline constexpr const char* kCauseEnvironment = "environment";

[[noreturn]] void cuda_failed(cudaError_t error, const char* call, const char* file, int line);

}  // namespace kblaster::harness

#define KBH_CUDA(call)                                                          \
  do {                                                                          \
    const cudaError_t kbh_status_ = (call);                                     \
    if (kbh_status_ != cudaSuccess)                                             \
      ::kblaster::harness::cuda_failed(kbh_status_, #call, __FILE__, __LINE__); \
  } while (0)
