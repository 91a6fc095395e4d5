// A kernel's profile as `classify` and `profile` print it: ncu's kernels one by
// one and summed, the source's code signature, the roofline when the workload
// and ceilings are known, and the performance state with its explanation.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "profile/code_signature.h"
#include "profile/kernel_profile.h"
#include "profile/perf_state.h"
#include "profile/roofline.h"

namespace kblaster {

// What the roofline needs besides the profile: the workload's minimum bytes and
// FLOPs, and the GPU's measured ceilings.
struct RooflineInputs {
  double min_bytes = 0.0;
  double flops = 0.0;
  MeasuredCeilings ceilings;
};

struct ProfileReport {
  std::string csv_origin;  // the CSV file the profile was read from
  std::vector<KernelProfile> kernels;
  KernelProfile total;
  CodeSignature signature;
  bool has_source = false;
  std::optional<RooflinePosition> roofline;
  PerfState state;
};

// The signature of `spec`'s source under `root` together with every repository
// file it includes, so helpers in shared headers count.
CodeSignature signature_of(const KernelSpec& spec, const std::filesystem::path& root);

// Parses ncu's CSV (`origin` names it in errors), sums the kernels, places the
// total under the roofline (timed by ncu's duration) and classifies it. A CSV
// with no kernel is Error::config naming `origin`.
Result<ProfileReport> read_profile(std::string_view csv, const std::string& origin,
                                   const std::optional<CodeSignature>& signature,
                                   const std::optional<RooflineInputs>& roofline);

// The report as text: one block, kernel lines, SOL, occupancy, pipes, top
// stalls, roofline, code features, and the state with its explanation.
void print_profile(std::ostream& out, const ProfileReport& report);

nlohmann::json to_json(const ProfileReport& report);

}  // namespace kblaster
