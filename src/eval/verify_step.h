// The verification step of `kblaster verify` and `kblaster run`: each built
// kernel against its reference, at every declared size, in kblaster-harness.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "eval/build_step.h"
#include "eval/verify_sizes.h"
#include "gpu/harness_client.h"

namespace kblaster {

struct VerifyFlags {
  int seeds = 3;                // fresh inputs per size
  std::uint64_t seed_base = 0;  // 0 = draw one at random (printed, so a run can be repeated)
  double timeout_s = 60.0;      // per size; a launch that takes longer counts as a hang
  double timeout_floor_s = 0;   // the command's minimum: its timing requests run longer
};

// The harness request timeout: --timeout, raised to the command's floor.
double request_timeout(const VerifyFlags& flags);

// The verification seeds: --seeds of them, counting up from --seed, or from
// `default_first` without it (verify and check draw one at random; optimize
// passes the search seed + 1000, so a search seed repeats its inputs too).
std::vector<std::uint64_t> verification_seeds(const VerifyFlags& flags,
                                              std::uint64_t default_first);

// `flags` with a first seed: --seed's, else one drawn now, so the run records the seeds it
// used and derives its timed inputs' seeds from it, as a rerun with --seed would.
VerifyFlags seeded(VerifyFlags flags);

// One size's verdict for progress output: "passed (max abs error 1.2e-07, max
// rel error 3.4e-06)", or "FAILED reason: message [seed N]".
std::string describe_verdict(const CheckVerdict& verdict);

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

// Each selected kernel of `repo`, its verification skipped for `reason` ("no CUDA device").
std::vector<KernelVerification> skipped_verifications(const LoadedRepo& repo,
                                                      const std::string& reason);

nlohmann::json to_json(const KernelVerification& v);

// "references: ran 6 time(s) in 4.21 s, reused 6 time(s), 2 from an earlier harness's files (…)":
// the reference's share of a verification or a timing, for the progress stream.
std::string describe_reference_work(const ReferenceWork& work);
// That line after `prefix` ("bench "), when the reference ran or was reused at all.
void say_reference_work(std::ostream& progress, std::string_view prefix, const ReferenceWork& work);

}  // namespace kblaster
