#include "gpu/ncu.h"

#include <unistd.h>

#include <sstream>

namespace kblaster {
namespace {

bool executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The first line of `log` that contains `marker`, trimmed.
std::string line_with(std::string_view log, std::string_view marker) {
  const auto at = log.find(marker);
  const auto start = log.rfind('\n', at) == std::string_view::npos ? 0 : log.rfind('\n', at) + 1;
  const auto end = log.find('\n', at);
  return std::string(log.substr(start, end == std::string_view::npos ? end : end - start));
}

}  // namespace

const char* ncu_metrics_name(NcuMetrics metrics) {
  return metrics == NcuMetrics::full_set ? "full_set" : "kblaster_list";
}

Result<NcuTool> find_ncu(const std::function<std::optional<std::string>(const std::string&)>& env) {
  std::vector<std::string> looked;
  if (auto given = env("KBLASTER_NCU")) {
    if (executable(*given)) return NcuTool{*given};
    return Error::environment("$KBLASTER_NCU is " + *given + ", which is not an executable file");
  }
  looked.push_back("$KBLASTER_NCU (unset)");
  if (auto path = env("PATH")) {
    std::stringstream dirs(*path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && executable(std::filesystem::path(dir) / "ncu"))
        return NcuTool{std::filesystem::path(dir) / "ncu"};
    looked.push_back("PATH");
  }
  const std::filesystem::path cuda = "/usr/local/cuda/bin/ncu";
  if (executable(cuda)) return NcuTool{cuda};
  looked.push_back(cuda.string());
  std::string where;
  for (const auto& l : looked) where += (where.empty() ? "" : ", ") + l;
  return Error::environment("Nsight Compute (ncu) not found; looked in " + where +
                            "; install it or set KBLASTER_NCU");
}

std::vector<std::string> ncu_command(const NcuTool& ncu, const std::filesystem::path& harness,
                                     const std::filesystem::path& log, NcuMetrics metrics,
                                     const std::vector<std::string>& metric_names) {
  std::vector<std::string> argv = {ncu.path.string(), "--csv",          "--clock-control", "none",
                                   "--nvtx",          "--nvtx-include", "kblaster/"};
  if (metrics == NcuMetrics::full_set) {
    argv.insert(argv.end(), {"--set", "full"});
  } else {
    std::string list;
    for (const auto& m : metric_names) list += (list.empty() ? "" : ",") + m;
    argv.insert(argv.end(), {"--page", "raw", "--metrics", list});
  }
  argv.insert(argv.end(), {"--log-file", log.string(), harness.string()});
  return argv;
}

std::optional<std::string> ncu_log_problem(std::string_view log) {
  if (log.find("ERR_NVGPUCTRPERM") != std::string_view::npos)
    return "GPU performance counters are not accessible to this user (ERR_NVGPUCTRPERM): an "
           "administrator must allow them (NVreg_RestrictProfilingToAdminUsers=0) or run as root";
  if (log.find("==ERROR==") != std::string_view::npos) return line_with(log, "==ERROR==");
  if (log.find("No kernels were profiled") != std::string_view::npos)
    return "ncu profiled no kernel: the launcher started none inside the range `kblaster`";
  if (log.find("\"ID\"") == std::string_view::npos)
    return "ncu wrote no results (its log has no CSV header)";
  return std::nullopt;
}

}  // namespace kblaster
