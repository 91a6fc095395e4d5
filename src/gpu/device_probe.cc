#include "gpu/device_probe.h"

#include <dlfcn.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string_view>

namespace kblaster {
namespace {

// The driver API's few entry points this file needs, as in cuda.h.
using CuResult = int;
using CuDevice = int;
constexpr int kAttributeCcMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttributeCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

// Owns a dlopen handle. Copy deleted: two owners would dlclose it twice.
class SharedLibrary {
 public:
  // RTLD_NODELETE: dlclose keeps the driver mapped, as its threads may still run.
  explicit SharedLibrary(const std::string& name)
      : handle_(::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {}
  ~SharedLibrary() {
    if (handle_) ::dlclose(handle_);
  }
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  bool loaded() const { return handle_ != nullptr; }
  template <class Fn>
  Fn* symbol(const char* name) const {
    return reinterpret_cast<Fn*>(::dlsym(handle_, name));
  }

 private:
  void* handle_;
};

// "CUDA_ERROR_NO_DEVICE", or the number when the driver cannot name it.
std::string error_name(const SharedLibrary& lib, CuResult code) {
  using GetErrorName = CuResult(CuResult, const char**);
  const char* name = nullptr;
  auto* get = lib.symbol<GetErrorName>("cuGetErrorName");
  if (get && get(code, &name) == 0 && name) return name;
  return "CUresult " + std::to_string(code);
}

// The 16 bytes of a CUuuid as nvidia-smi shows them: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_text(const unsigned char (&bytes)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 0xf];
  }
  return text;
}

// The driver's version from /proc/driver/nvidia/version; "" without one.
std::string driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line) || line.size() > 4096) return {};
  return driver_version_from(line);
}

DeviceInfo absent(std::string why) {
  DeviceInfo info;
  info.why_absent = std::move(why);
  return info;
}

}  // namespace

std::string driver_version_from(std::string_view proc_line) {
  constexpr std::string_view kMarker = "Kernel Module";
  const auto at = proc_line.find(kMarker);
  if (at == std::string_view::npos) return {};
  std::istringstream words{std::string(proc_line.substr(at + kMarker.size()))};
  for (std::string word; words >> word;)
    if (std::isdigit(static_cast<unsigned char>(word[0]))) return word;
  return {};
}

std::string DeviceInfo::arch() const {
  if (!present) return {};
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}

DeviceInfo CudaDriverProbe::probe() {
  SharedLibrary lib(library_);
  if (!lib.loaded()) {
    const char* detail = ::dlerror();
    return absent(library_ + " not found (no NVIDIA driver)" +
                  (detail ? std::string(": ") + detail : std::string()));
  }
  auto* init = lib.symbol<CuResult(unsigned)>("cuInit");
  auto* get_count = lib.symbol<CuResult(int*)>("cuDeviceGetCount");
  auto* get_device = lib.symbol<CuResult(CuDevice*, int)>("cuDeviceGet");
  auto* get_name = lib.symbol<CuResult(char*, int, CuDevice)>("cuDeviceGetName");
  auto* get_attribute = lib.symbol<CuResult(int*, int, CuDevice)>("cuDeviceGetAttribute");
  if (!init || !get_count || !get_device || !get_name || !get_attribute)
    return absent(library_ + " lacks the driver API entry points (not an NVIDIA driver?)");

  auto failed = [&lib](const char* call, CuResult r) {
    return absent(std::string(call) + " failed: " + error_name(lib, r));
  };
  DeviceInfo info;
  if (CuResult r = init(0)) return failed("cuInit", r);
  if (CuResult r = get_count(&info.device_count)) return failed("cuDeviceGetCount", r);
  if (ordinal_ < 0 || ordinal_ >= info.device_count)
    return absent("no CUDA device " + std::to_string(ordinal_) + " (the driver sees " +
                  std::to_string(info.device_count) + ")");
  CuDevice device = 0;
  if (CuResult r = get_device(&device, ordinal_)) return failed("cuDeviceGet", r);
  char name[256] = {};
  if (CuResult r = get_name(name, sizeof name, device)) return failed("cuDeviceGetName", r);
  if (CuResult r = get_attribute(&info.cc_major, kAttributeCcMajor, device))
    return failed("cuDeviceGetAttribute(major)", r);
  if (CuResult r = get_attribute(&info.cc_minor, kAttributeCcMinor, device))
    return failed("cuDeviceGetAttribute(minor)", r);
  info.name = name;
  // Optional: an older driver without cuDeviceGetUuid still runs kernels.
  using GetUuid = CuResult(unsigned char(*)[16], CuDevice);
  auto* get_uuid = lib.symbol<GetUuid>("cuDeviceGetUuid_v2");
  if (!get_uuid) get_uuid = lib.symbol<GetUuid>("cuDeviceGetUuid");
  unsigned char uuid[16] = {};
  if (get_uuid && get_uuid(&uuid, device) == 0) info.uuid = uuid_text(uuid);
  info.driver_version = driver_version();
  info.present = true;
  return info;
}

}  // namespace kblaster
