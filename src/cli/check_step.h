// The per-kernel verdicts of `kblaster check`: head verified against its
// reference (or against base's output), then timed against base; one row each.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/build_step.h"
#include "cli/compare_step.h"
#include "cli/gpu_context.h"
#include "core/exit_code.h"
#include "core/kernel_spec.h"

namespace kblaster {

// One kernel a revision range hits, with its builds at each end.
struct CheckedKernel {
  std::string name;
  std::string why;                    // why_name of its hit
  const KernelBuild* base = nullptr;  // null: new at head, or its base did not load
  const KernelBuild* head = nullptr;  // null: deleted at head
};

struct CheckRow {
  std::string kernel;
  std::string base;     // base's build outcome; "-" when there is none
  std::string head;     // head's build outcome; "-" when deleted
  std::string ratio;    // "1.031 [1.012, 1.050]" (head / base, with CI); empty when not timed
  std::string verdict;  // FASTER, SLOWER, SAME, AMBIGUOUS, NEW, DELETED, BUILD_FAILED, REGRESSION
                        // (functional), …
  std::string reason;
  enum class Problem { none, slower, error } problem = Problem::none;
};

// The row of a kernel before any GPU work: build failures, deletions, or
// `pending` (verdict empty) when it still needs verifying and timing.
CheckRow build_row(const CheckedKernel& k);

// Verifies head on `gpu` and times it against base; fills `row`'s verdict.
// Errors are harness failures that are not verdicts.
Status check_on_gpu(const CheckedKernel& k, GpuContext& gpu,
                    const std::vector<std::uint64_t>& seeds, const CompareFlags& flags,
                    Session& session, CheckRow& row);

void print_check_table(std::ostream& out, const std::vector<CheckRow>& rows);
nlohmann::json to_json(const CheckRow& row);

// The exit code `fail_on` gives these rows.
ExitCode check_exit_code(const std::vector<CheckRow>& rows, CheckConfig::FailOn fail_on);

}  // namespace kblaster
