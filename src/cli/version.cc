#include "cli/version.h"

#include "gpu/compiler.h"
#include "gpu/device_probe.h"

#ifndef KBLASTER_VERSION
#define KBLASTER_VERSION "unknown"
#endif

namespace kblaster {

void print_version(std::ostream& out, DeviceProbe& probe) {
  out << "kblaster " << KBLASTER_VERSION << "\n";
  auto nvcc = NvccCompiler::find();
  if (nvcc)
    out << "nvcc: " << nvcc->version() << " (" << nvcc->path().string() << ")\n";
  else
    out << "nvcc: none (" << nvcc.error().message << ")\n";
  DeviceInfo device = probe.probe();
  if (device.present)
    out << "GPU: " << device.name << " (" << device.arch() << ", " << device.device_count
        << " device" << (device.device_count == 1 ? "" : "s") << ")\n";
  else
    out << "GPU: none (" << device.why_absent << ")\n";
}

}  // namespace kblaster
