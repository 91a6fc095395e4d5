// Nsight Compute (`ncu`) as the harness's wrapper in profile mode: where it is,
// the command line that profiles only the NVTX range "kblaster", and what its
// log says when it produced no profile.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kblaster {

struct NcuTool {
  std::filesystem::path path;
};

// Which metrics ncu collects: kblaster's fixed list (`--metrics`, raw page), or
// `--set full` (the default details page, as a user would save it).
enum class NcuMetrics { kblaster_list, full_set };

// "kblaster_list" or "full_set".
const char* ncu_metrics_name(NcuMetrics metrics);

// Finds ncu: $KBLASTER_NCU, else `ncu` on PATH, else /usr/local/cuda/bin/ncu.
// Error::environment naming every place it looked. `env` reads the environment.
Result<NcuTool> find_ncu(const std::function<std::optional<std::string>(const std::string&)>& env);

// `ncu … --log-file LOG HARNESS`: CSV to `log`, clocks left alone
// (--clock-control none), only kernels launched inside the range "kblaster".
std::vector<std::string> ncu_command(const NcuTool& ncu, const std::filesystem::path& harness,
                                     const std::filesystem::path& log, NcuMetrics metrics,
                                     const std::vector<std::string>& metric_names);

// Why a finished ncu run has no profile, read from its log: counters refused
// (ERR_NVGPUCTRPERM), no kernel in the range, another ==ERROR==; nullopt when
// the log holds results.
std::optional<std::string> ncu_log_problem(std::string_view log);

}  // namespace kblaster
