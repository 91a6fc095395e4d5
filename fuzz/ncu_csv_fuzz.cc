// libFuzzer target: parse_ncu_csv on the input as a saved `ncu --csv` file (what
// `kblaster classify --ncu-csv FILE` reads), then profile_from_ncu on every kernel.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "profile/kernel_profile.h"
#include "profile/ncu_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  const std::string origin = "fuzz.csv";
  Result<std::vector<NcuKernel>> kernels =
      parse_ncu_csv(std::string_view(reinterpret_cast<const char*>(data), size), origin);
  if (!kernels) {
    expect_input_error(kernels.error());
    return 0;
  }
  for (const NcuKernel& kernel : *kernels) {
    Result<KernelProfile> profile = profile_from_ncu(kernel, origin);
    if (!profile) expect_input_error(profile.error());
  }
  return 0;
}
