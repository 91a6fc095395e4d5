// What the GPU commands (verify, bench, compare, run) share: a CUDA device,
// a running kblaster-harness, and a client for it.
#pragma once

#include <memory>
#include <string>

#include "eval/build_step.h"
#include "eval/session.h"
#include "gpu/device_probe.h"
#include "gpu/harness_client.h"
#include "gpu/harness_session.h"

namespace kblaster {

struct GpuContext {
  DeviceInfo device;
  std::unique_ptr<HarnessRunner> runner;
  std::unique_ptr<HarnessClient> client;  // over `runner`
  HarnessDevice harness_device;
};

// Starts the harness and greets it, printing which GPU it found and what
// network the harness's sandbox left it (network_summary). Fails with
// Error::environment when there is no CUDA device or no harness program.
Result<GpuContext> start_gpu(Session& session, const DeviceInfo& device, HarnessTimeouts timeouts);

// "no CUDA device present (<why>)": why GPU work was skipped on a machine without one.
std::string no_device_reason(const DeviceInfo& device);

// Where kblaster-harness is: $KBLASTER_HARNESS, else beside this executable.
std::filesystem::path harness_path();

// The real harness at harness_path(), sandboxed (HarnessSession), keeping reference outputs in
// `reference_outputs` (the command's folder, shared by each harness it starts; empty: the
// session's own); Error::environment saying how to get it when it is not there. What
// Session::harness is in kblaster.
Result<std::unique_ptr<HarnessRunner>> start_real_harness(
    const std::filesystem::path& reference_outputs = {});

}  // namespace kblaster
