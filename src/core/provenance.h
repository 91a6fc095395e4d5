// Where a result came from: the tool, the command line, the repository and its
// revisions, the GPU, the compiler, the seeds and the time. Enough to repeat a run,
// and to refuse to compare two results that were not measured alike.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace kblaster {

// The GPU a result was measured on.
struct GpuIdentity {
  std::string name;            // "NVIDIA H200"
  std::string uuid;            // "GPU-…"; "" when the driver did not say
  std::string driver_version;  // "580.65.06"; "" when unknown
  std::string arch;            // "sm_90"
  // Whether the SM clock was locked (nvidia-smi -lgc). kblaster leaves clocks alone and
  // cannot read the lock without NVML, so it says "unknown"; each timing records the
  // SM clock it ran at instead.
  std::string clocks_locked = "unknown";
  // The median SM clock of the run's timed samples (MHz); nullopt when nothing was timed.
  std::optional<double> sm_clock_mhz;
};

// Where one result came from; see the file comment.
struct Provenance {
  std::string kblaster_version;
  std::vector<std::string> command_line;  // argv, the program included
  std::string repository;                 // absolute path of the kernel repository
  std::optional<std::string> base_sha;    // 40 hex digits; nullopt when there is none
  std::optional<std::string> head_sha;
  std::optional<GpuIdentity> gpu;  // nullopt: nothing ran on a GPU
  std::string nvcc_version;        // "release 13.0, V13.0.48"; "" when nothing was built
  std::vector<std::uint64_t> seeds;
  std::string started_at, finished_at;  // ISO 8601 UTC, "2026-12-02T03:12:39Z"
};

nlohmann::json to_json(const Provenance& p);
// A provenance read back from a saved result; Error::usage naming the field that is
// missing or of the wrong type.
Result<Provenance> provenance_from_json(const nlohmann::json& j);

// Why results with provenances `a` and `b` cannot be compared, naming what differs (a
// different GPU model, driver or nvcc release); nullopt when they can be.
std::optional<std::string> not_comparable(const Provenance& a, const Provenance& b);

// `t` as ISO 8601 UTC with whole seconds: "2026-12-02T03:12:39Z".
std::string utc_timestamp(std::chrono::system_clock::time_point t);

// Sets `p.finished_at` to now; a result calls it last, when it is complete.
void stamp_finished(Provenance& p);

}  // namespace kblaster
