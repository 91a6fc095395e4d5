// A result's provenance (core/provenance.h) as the eval layer fills it in: the GPU
// from the device probe, and what the command knows before it runs.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "core/provenance.h"
#include "gpu/device_probe.h"

namespace kblaster {

// The GPU `device` describes; nullopt when none is present.
std::optional<GpuIdentity> gpu_identity(const DeviceInfo& device);

// Sets the GPU's sm_clock_mhz in `p` to the median of the known (positive) clocks of
// the run's timings, one per timing; leaves it unset without a GPU or a known clock.
void record_sm_clock(Provenance& p, const std::vector<double>& clocks_mhz);

// What the command knows before it runs: the tool's version and command line from
// `session`, the repository `repo` (made absolute), and started_at now.
struct Session;
Provenance command_provenance(const Session& session, const std::filesystem::path& repo);

}  // namespace kblaster
