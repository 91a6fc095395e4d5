#include "eval/provenance.h"

#include "eval/session.h"
#include "stats/quantile.h"

namespace kblaster {

std::optional<GpuIdentity> gpu_identity(const DeviceInfo& device) {
  if (!device.present) return std::nullopt;
  return GpuIdentity{.name = device.name,
                     .uuid = device.uuid,
                     .driver_version = device.driver_version,
                     .arch = device.arch(),
                     .clocks_locked = "unknown",
                     .sm_clock_mhz = std::nullopt};
}

void record_sm_clock(Provenance& p, const std::vector<double>& clocks_mhz) {
  std::vector<double> known;
  for (double c : clocks_mhz)
    if (c > 0) known.push_back(c);
  if (p.gpu && !known.empty()) p.gpu->sm_clock_mhz = median_of(known);
}

Provenance command_provenance(const Session& session, const std::filesystem::path& repo) {
  Provenance p;
  p.kblaster_version = session.kblaster_version;
  p.command_line = session.command_line;
  p.repository = std::filesystem::absolute(repo).lexically_normal().string();
  p.started_at = utc_timestamp(std::chrono::system_clock::now());
  return p;
}

}  // namespace kblaster
