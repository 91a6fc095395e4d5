#include "cuda_check.h"

namespace kblaster::harness {

void cuda_failed(cudaError_t error, const char* call, const char* file, int line) {
  throw HarnessFailure(std::string(call) + " failed with " + cudaGetErrorName(error) + " (" +
                       cudaGetErrorString(error) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace kblaster::harness
