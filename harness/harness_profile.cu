// Harness's profile-mode op: one launch of a candidate inside the NVTX range
// "kblaster", which `ncu --nvtx --nvtx-include kblaster/` restricts collection to.
#include <nvtx3/nvToolsExt.h>

#include "cuda_check.h"
#include "harness.h"

namespace kblaster::harness {
namespace {

// The candidate the trampoline calls. The rig takes a plain function pointer,
// so the range is opened by a trampoline around the real entry; the harness
// serves one request at a time, so one slot is enough.
EntryFn profiled_entry = nullptr;

int entry_in_range(void** args, cudaStream_t stream) {
  nvtxRangePushA("kblaster");
  const int status = profiled_entry(args, stream);
  nvtxRangePop();
  return status;
}

}  // namespace

nlohmann::json Harness::profile(const nlohmann::json& request) {
  Workload& w = workload();
  EntryFn entry = candidate(request.at("candidate"));
  w.fill_inputs(request.at("seed").get<std::uint64_t>(), rig_->stream());
  // A warm-up outside the range: module loading and first-call work are not profiled.
  LaunchTiming t = launch(entry, w.candidate_args(), kPoisonA, {}, Hold::no);
  if (t.entry_status != 0)
    throw HarnessFailure(std::string("the candidate failed in its warm-up launch: ") +
                         cudaGetErrorName(static_cast<cudaError_t>(t.entry_status)));
  profiled_entry = entry;
  t = launch(entry_in_range, w.candidate_args(), kPoisonB, {}, Hold::no);
  profiled_entry = nullptr;
  if (t.entry_status != 0)
    throw HarnessFailure(std::string("the candidate failed in its profiled launch: ") +
                         cudaGetErrorName(static_cast<cudaError_t>(t.entry_status)));
  return {{"gpu_s", t.gpu_seconds}};
}

}  // namespace kblaster::harness
