// The per-kernel verdicts of `kblaster check`: head verified against its
// reference (or against base's output), then timed against base; one row each.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/kernel_spec.h"
#include "eval/build_step.h"
#include "eval/compare_step.h"
#include "eval/gpu_context.h"

namespace kblaster {

// One kernel a revision range hits, with its builds at each end.
struct CheckedKernel {
  std::string name;
  std::string why;                    // why_name of its hit
  const KernelBuild* base = nullptr;  // null: new at head, or its base did not load
  const KernelBuild* head = nullptr;  // null: deleted at head
};

// check's verdict on one kernel; check_verdict_name gives each its stable name.
enum class KernelVerdict {
  pending,       // built, not yet verified or timed
  faster,        // head verified, and significantly faster than base
  slower,        // head verified, and significantly slower than base
  same,          // head verified, and within min_effect of base
  ambiguous,     // head verified; the A/B ran out of budget undecided
  new_kernel,    // NEW: no base to time against (verified when it has a reference)
  deleted,       // declared at base only
  build_failed,  // head, or its reference, did not build
  regression,    // head fails its reference, or its output differs from base's
  unverified,    // no reference, and base did not build or failed when run as head's reference
  not_compared,  // verified; base and head take different workloads
  rejected,      // the timing cannot be trusted (a candidate failed while timed)
  skipped,       // no CUDA device
};

// "FASTER", "SLOWER", "SAME", "AMBIGUOUS", "NEW", "DELETED", "BUILD_FAILED", "REGRESSION",
// "UNVERIFIED", "NOT_COMPARED", "REJECTED", "SKIPPED"; "" for pending.
const char* check_verdict_name(KernelVerdict v);

// What a verdict means for check's exit code.
enum class CheckProblem { none, slower, error };
CheckProblem problem_of(KernelVerdict v);

struct CheckRow {
  std::string kernel;
  std::string why;   // why the range hits it, e.g. "source_changed"
  std::string base;  // base's build outcome; "-" when there is none
  std::string head;  // head's build outcome; "-" when deleted
  KernelVerdict verdict = KernelVerdict::pending;
  std::string reason;
  std::optional<AbResult> timing;  // base (A) against head (B), when timed and trusted
  std::string source;              // head's source file, from the repository root; "" when deleted
  std::size_t line = 0;            // the launcher's definition in it (definition_line); 0: unknown
};

// What check found out about a kernel on the GPU, in the order it finds it out.
struct CheckEvidence {
  bool base_declared = false;  // the kernel exists at base, built or not
  bool has_base = false;       // base built, so head can be verified and timed against it
  bool has_reference = false;  // a reference other than the base revision
  bool verified = false;       // head was verified at every size (head_failure says how)
  std::string base_failure;    // why base cannot serve as head's reference; head is unverified
  const CheckVerdict* head_failure = nullptr;  // the size head failed at; null: passed
  std::string not_comparable;                  // why the two cannot be timed; "" if they can
  const AbResult* ab = nullptr;                // base (A) against head (B), when it ran
};

// The verdict and reason that `evidence` supports. Pure: check_on_gpu gathers the
// evidence and asks this at each point where it can stop.
struct CheckDecision {
  KernelVerdict verdict = KernelVerdict::pending;
  std::string reason;
};
CheckDecision decide_check(const CheckEvidence& evidence);

// The row of a kernel before any GPU work: build failures, deletions, or
// `pending` (verdict empty) when it still needs verifying and timing.
CheckRow build_row(const CheckedKernel& k);

// Verifies head on `gpu` and times it against base; fills `row`'s verdict.
// Errors are harness failures that are not verdicts.
Status check_on_gpu(const CheckedKernel& k, GpuContext& gpu,
                    const std::vector<std::uint64_t>& seeds, const CompareFlags& flags,
                    Session& session, CheckRow& row);

// Every pending row becomes SKIPPED, with `reason`.
void skip_pending(std::vector<CheckRow>& rows, const std::string& reason);

void print_check_table(std::ostream& out, const std::vector<CheckRow>& rows);
nlohmann::json to_json(const CheckRow& row);

// The exit code `fail_on` gives these rows.
ExitCode check_exit_code(const std::vector<CheckRow>& rows, CheckConfig::FailOn fail_on);

}  // namespace kblaster
