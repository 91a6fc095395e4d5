#include "cli/check_step.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "core/launch_plan.h"

namespace kblaster {
namespace {

std::string outcome(const KernelBuild* b) {
  if (!b) return "-";
  if (!b->result.ok()) return build_outcome_name(b->result.outcome);
  if (b->reference && !b->reference->ok()) return "reference_failed";
  return build_outcome_name(b->result.outcome);
}

std::string ratio_text(const Comparison& c) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << c.ratio << " [" << c.ci_low << ", " << c.ci_high
    << "]";
  return s.str();
}

// Verifies head (candidate `head`) at every size; the first failing verdict, or nullopt.
Result<std::optional<CheckVerdict>> verify_head(const KernelSpec& spec, HarnessClient& harness,
                                                int head, const Against& against,
                                                const std::vector<std::uint64_t>& seeds) {
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  for (const auto& size : plan->sizes) {
    KB_TRY(harness.setup(harness_args(spec, size)));
    auto verdict = harness.verify(head, seeds, spec.tolerance, against);
    if (!verdict) return verdict.error();
    if (!verdict->passed) return std::optional<CheckVerdict>(*verdict);
  }
  return std::optional<CheckVerdict>();
}

}  // namespace

CheckRow build_row(const CheckedKernel& k) {
  CheckRow row{k.name, outcome(k.base), outcome(k.head), "", "", "", CheckRow::Problem::none};
  if (!k.head) {
    row.verdict = "DELETED";
    row.reason = "declared at base only";
  } else if (!k.head->ok()) {
    row.verdict = "BUILD_FAILED";
    row.reason =
        k.head->result.ok() ? "reference: " + k.head->reference->summary : k.head->result.summary;
    row.problem = CheckRow::Problem::error;
  }
  return row;
}

Status check_on_gpu(const CheckedKernel& k, GpuContext& gpu,
                    const std::vector<std::uint64_t>& seeds, const CompareFlags& flags,
                    Session& session, CheckRow& row) {
  const KernelSpec& spec = *k.head->spec;
  const bool has_base = k.base && k.base->result.ok();
  const bool has_reference = spec.reference.kind != ReferenceSpec::Kind::base_revision;
  if (!has_reference && !has_base) {
    row.verdict = k.base ? "UNVERIFIED" : "NEW";
    row.reason = k.base ? "no reference, and base did not build" : "new kernel with no reference";
    return Ok{};
  }
  std::vector<std::string> objects;
  if (has_base) objects.push_back(k.base->result.object.string());
  objects.push_back(k.head->result.object.string());
  const int head = has_base ? 1 : 0;
  KB_TRY(gpu.client->load(objects, reference_object(*k.head)));
  auto failed = verify_head(spec, *gpu.client, head, has_reference ? Against{} : Against{0}, seeds);
  if (!failed) return failed.error();
  if (*failed) {
    row.verdict = "REGRESSION";
    row.reason = std::string(has_reference ? "functional regression: head fails its reference: "
                                           : "functional regression: head's output differs from "
                                             "base's: ") +
                 (*failed)->reason + ": " + (*failed)->message;
    row.problem = CheckRow::Problem::error;
    return Ok{};
  }
  if (!has_base) {
    row.verdict = "NEW";
    row.reason = "verified against its reference; no base to time against";
    return Ok{};
  }
  if (auto same = check_same_workload(*k.base->spec, spec); !same) {
    row.verdict = "NOT_COMPARED";
    row.reason = "verified; " + same.error().message;
    return Ok{};
  }
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  KB_TRY(gpu.client->setup(harness_args(spec, plan->sizes.front())));
  session.progress << "check: timing " << k.name << " base against head at "
                   << size_label(spec, spec.sizes.front()) << "\n";
  auto r =
      compare_once(*gpu.client, spec, flags, session.clock, has_reference ? Against{} : Against{0});
  if (!r) return r.error();
  if (!r->rejected.empty()) {
    row.verdict = "REJECTED";
    row.reason = r->rejected;
    row.problem = CheckRow::Problem::error;
    return Ok{};
  }
  row.ratio = ratio_text(r->comparison);
  row.verdict = verdict_name(r->comparison.verdict);
  row.reason = r->comparison.reason;
  if (r->comparison.verdict == Verdict::slower) row.problem = CheckRow::Problem::slower;
  return Ok{};
}

void print_check_table(std::ostream& out, const std::vector<CheckRow>& rows) {
  const std::vector<std::string> header = {"kernel", "base", "head", "ratio (CI)", "verdict"};
  std::vector<std::size_t> width;
  for (const auto& h : header) width.push_back(h.size());
  for (const auto& r : rows) {
    const std::string cells[] = {r.kernel, r.base, r.head, r.ratio, r.verdict};
    for (std::size_t i = 0; i < width.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells, const std::string& reason) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << std::left << std::setw(static_cast<int>(width[i]) + 2) << cells[i];
    out << reason << "\n";
  };
  line(header, "reason");
  for (const auto& r : rows) line({r.kernel, r.base, r.head, r.ratio, r.verdict}, r.reason);
}

nlohmann::json to_json(const CheckRow& r) {
  return {{"kernel", r.kernel}, {"base", r.base},       {"head", r.head},
          {"ratio", r.ratio},   {"verdict", r.verdict}, {"reason", r.reason}};
}

ExitCode check_exit_code(const std::vector<CheckRow>& rows, CheckConfig::FailOn fail_on) {
  if (fail_on == CheckConfig::FailOn::never) return ExitCode::ok;
  for (const auto& r : rows)
    if (r.problem == CheckRow::Problem::error ||
        (r.problem == CheckRow::Problem::slower && fail_on == CheckConfig::FailOn::slower))
      return ExitCode::found_problem;
  return ExitCode::ok;
}

}  // namespace kblaster
