#include "cli/version.h"

#include "gpu/compiler.h"
#include "gpu/device_probe.h"

#ifndef KBLASTER_VERSION
#define KBLASTER_VERSION "unknown"
#endif

namespace kblaster {

const char* kblaster_version() { return KBLASTER_VERSION; }

void print_version(std::ostream& out, DeviceProbe& probe) {
  out << "kblaster " << kblaster_version() << "\n";
  auto nvcc = NvccCompiler::find();
  if (nvcc)
    out << "nvcc: " << nvcc->version() << " (" << nvcc->path().string() << ")\n";
  else
    out << "nvcc: none (" << nvcc.error().message << ")\n";
  DeviceInfo device = probe.probe();
  if (device.present)
    out << "GPU: " << device.name << " (" << device.arch() << ", " << device.device_count
        << " device" << (device.device_count == 1 ? "" : "s")
        << (device.uuid.empty() ? "" : ", " + device.uuid)
        << (device.driver_version.empty() ? "" : ", driver " + device.driver_version) << ")\n";
  else
    out << "GPU: none (" << device.why_absent << ")\n";
}

}  // namespace kblaster
