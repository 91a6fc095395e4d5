// The measured ceilings of each GPU model, kept in a JSON file so that they are
// measured once per model and then read back (roofline positions, bandwidth
// and FLOP/s shares). The file maps the GPU's name to its ceilings.
#pragma once

#include <filesystem>
#include <string>

#include "core/status.h"
#include "eval/session.h"
#include "gpu/harness_client.h"
#include "profile/roofline.h"

namespace kblaster {

// The ceilings of `gpu_name` from `file` if it has them, else measured with
// `harness` (DRAM copy, FP32 FMA, bf16 tensor MMA) and added to `file`
// (written whole through a temporary, so a kill cannot leave half a file).
// Says on session.progress which it did and where the file is. A file that does
// not parse is replaced, and says so; a harness failure is its Error.
Result<MeasuredCeilings> measured_ceilings(HarnessClient& harness, const std::string& gpu_name,
                                           const std::filesystem::path& file, Session& session);

}  // namespace kblaster
