// `kblaster --version`: the tool's version, the nvcc it would use, and the GPU found.
#pragma once

#include <ostream>

namespace kblaster {

class DeviceProbe;

// kblaster's version, e.g. "0.1.0".
const char* kblaster_version();

// Never fails: a missing nvcc or GPU is printed as such, with the reason.
void print_version(std::ostream& out, DeviceProbe& probe);

}  // namespace kblaster
