// The verification step of `kblaster verify` and `kblaster run`: each built
// kernel against its reference, at every declared size, in kblaster-harness.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/build_step.h"
#include "gpu/harness_client.h"

namespace kblaster {

struct VerifyFlags {
  int seeds = 3;                // fresh inputs per size
  std::uint64_t seed_base = 0;  // 0 = draw one at random (printed, so a run can be repeated)
  double timeout_s = 60.0;      // per size; a launch that takes longer counts as a hang
};
void add_verify_flags(CLI::App& app, VerifyFlags& flags);

struct SizeVerdict {
  std::string size;  // "N=8192 C=768"
  CheckVerdict verdict;
};

struct KernelVerification {
  const KernelSpec* spec = nullptr;
  enum class Status { passed, failed, skipped } status = Status::skipped;
  std::string skip_reason;
  std::vector<SizeVerdict> sizes;  // in spec order, up to the first failure
};
const char* verification_status_name(KernelVerification::Status s);

// Verifies every kernel of `builds` through `harness`; prints one line per
// kernel and size. Errors are harness failures that are not verdicts.
Result<std::vector<KernelVerification>> verify_kernels(const BuildReport& builds,
                                                       HarnessClient& harness,
                                                       const VerifyFlags& flags, Session& session);

nlohmann::json to_json(const KernelVerification& v);

}  // namespace kblaster
