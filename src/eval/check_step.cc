#include "eval/check_step.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "core/launch_plan.h"
#include "eval/base_reference.h"
#include "eval/definition_change.h"
#include "eval/timing_workload.h"
#include "eval/verify_sizes.h"

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

}  // namespace

const char* check_verdict_name(KernelVerdict v) {
  switch (v) {
    case KernelVerdict::pending:
      return "";
    case KernelVerdict::faster:
      return "FASTER";
    case KernelVerdict::slower:
      return "SLOWER";
    case KernelVerdict::same:
      return "SAME";
    case KernelVerdict::ambiguous:
      return "AMBIGUOUS";
    case KernelVerdict::new_kernel:
      return "NEW";
    case KernelVerdict::deleted:
      return "DELETED";
    case KernelVerdict::build_failed:
      return "BUILD_FAILED";
    case KernelVerdict::regression:
      return "REGRESSION";
    case KernelVerdict::unverified:
      return "UNVERIFIED";
    case KernelVerdict::not_compared:
      return "NOT_COMPARED";
    case KernelVerdict::rejected:
      return "REJECTED";
    case KernelVerdict::skipped:
      return "SKIPPED";
  }
  return "?";
}

CheckProblem problem_of(KernelVerdict v) {
  // By the enum, not by name: tests/core/failing_verdict_test.cc holds this list and
  // core/failing_verdict (which GitHub's check run reads saved results with) to each other.
  switch (v) {
    case KernelVerdict::slower:
    case KernelVerdict::not_compared:  // a slowdown the check could not rule out
      return CheckProblem::slower;
    case KernelVerdict::build_failed:
    case KernelVerdict::regression:
    case KernelVerdict::rejected:
    case KernelVerdict::unverified:  // a changed kernel nothing could check: fail closed
      return CheckProblem::error;
    default:
      return CheckProblem::none;
  }
}

CheckDecision decide_check(const CheckEvidence& e) {
  if (!e.has_reference && !e.has_base)
    return e.base_declared
               ? CheckDecision{KernelVerdict::unverified, "no reference, and base did not build"}
               : CheckDecision{KernelVerdict::new_kernel, "new kernel with no reference"};
  if (!e.base_failure.empty())
    return {KernelVerdict::unverified,
            "no reference, and base cannot serve as head's reference, so head's output has "
            "nothing to be checked against (declare a reference): " +
                e.base_failure};
  if (!e.verified) return {KernelVerdict::pending, ""};
  if (e.head_failure)
    return {KernelVerdict::regression,
            std::string(e.has_reference ? "functional regression: head fails its reference: "
                                        : "functional regression: head's output differs from "
                                          "base's: ") +
                e.head_failure->reason + ": " + e.head_failure->message};
  if (!e.has_base)
    return {KernelVerdict::new_kernel, "verified against its reference; no base to time against"};
  if (!e.not_comparable.empty())
    return {KernelVerdict::not_compared, "verified; " + e.not_comparable};
  if (!e.ab) return {KernelVerdict::pending, ""};
  if (!e.ab->rejected.empty()) return {KernelVerdict::rejected, e.ab->rejected};
  const Comparison& c = e.ab->comparison;
  switch (c.verdict) {
    case Verdict::faster:
      return {KernelVerdict::faster, c.reason};
    case Verdict::slower:
      return {KernelVerdict::slower, c.reason};
    case Verdict::same:
      return {KernelVerdict::same, c.reason};
    case Verdict::ambiguous:
      return {KernelVerdict::ambiguous, c.reason};
  }
  return {KernelVerdict::ambiguous, c.reason};
}

CheckRow build_row(const CheckedKernel& k) {
  CheckRow row{
      k.name, k.why, outcome(k.base), outcome(k.head), KernelVerdict::pending, "", std::nullopt,
      "",     0};
  if (!k.head) {
    row.verdict = KernelVerdict::deleted;
    row.reason = "declared at base only";
  } else if (!k.head->ok()) {
    row.verdict = KernelVerdict::build_failed;
    row.reason =
        k.head->result.ok() ? "reference: " + k.head->reference->summary : k.head->result.summary;
  }
  return row;
}

Status check_on_gpu(const CheckedKernel& k, GpuContext& gpu,
                    const std::vector<std::uint64_t>& seeds, const CompareFlags& flags,
                    Session& session, CheckRow& row) {
  const KernelSpec& spec = *k.head->spec;
  CheckEvidence evidence;
  evidence.base_declared = k.base != nullptr;
  evidence.has_base = k.base && k.base->result.ok();
  evidence.has_reference = spec.reference.kind != ReferenceSpec::Kind::base_revision;
  // Stops when the evidence so far decides the verdict.
  auto decided = [&] {
    auto d = decide_check(evidence);
    row.verdict = d.verdict;
    row.reason = std::move(d.reason);
    return d.verdict != KernelVerdict::pending;
  };
  if (decided()) return Ok{};  // nothing to verify against
  std::vector<std::string> objects;
  if (evidence.has_base) objects.push_back(k.base->result.object.string());
  objects.push_back(k.head->result.object.string());
  const int head = evidence.has_base ? 1 : 0;
  const Against against = evidence.has_reference ? Against{} : Against{0};
  std::vector<SizeVerdict> sizes;
  if (evidence.has_reference) {
    KB_TRY(gpu.client->load(objects, reference_object(*k.head)));
    // The pull request sets head's tolerance and sizes: base's tolerance, where it is stricter,
    // still holds, and base's sizes are verified too where head's arguments can take them.
    // The sizes left out are said beside the verdict (check_definition_changes).
    KernelSpec verified_as = spec;
    if (k.base) {
      const KernelSpec& base = *k.base->spec;
      verified_as.tolerance = stricter_tolerance(base.tolerance, spec.tolerance);
      verified_as.sizes = sizes_to_verify_with_reference(base, spec).sizes;
    }
    auto verified = verify_at_every_size(*gpu.client, verified_as, head, seeds, against);
    if (!verified) return verified.error();
    sizes = std::move(*verified);
  } else {  // against base's output (decide_check stopped above without a base)
    const KernelSpec& base = *k.base->spec;
    if (std::string why = why_base_cannot_be_the_reference(base, spec); !why.empty()) {
      evidence.base_failure = why;
      decided();
      return Ok{};
    }
    const BaseCheckSizes plan = sizes_to_check_against_base(base, spec);
    for (const auto& line : plan.left_out)
      session.progress << "check: " << k.name << " " << line << "\n";
    KB_TRY(gpu.client->load(objects, reference_object(*k.head)));
    auto checked = verify_against_base(*gpu.client, base, spec, plan, seeds);
    if (!checked) return checked.error();
    // A bug of base's own (one head may fix) is no reason to stop the check, nor head's failure.
    for (const auto& line : checked->base_failed)
      session.progress << "check: " << k.name << " " << line << "\n";
    if (checked->verdicts.empty()) {
      evidence.base_failure =
          checked->base_failed.empty()
              ? "it accepts none of the sizes to check (" + std::to_string(plan.left_out.size()) +
                    " left out)"
              : "it fails at every size it accepts; " + checked->base_failed.front();
      decided();
      return Ok{};
    }
    sizes = std::move(checked->verdicts);
  }
  evidence.verified = true;
  evidence.head_failure = first_failure(sizes);
  // Base and head are timed at the first size both declare and accept (`requires`), whatever
  // head did to its tolerance or to the other sizes.
  KernelSpec timed = spec;
  if (evidence.has_base) {
    KernelSpec base = *k.base->spec;
    if (auto aligned = align_for_timing(base, timed); !aligned) {
      evidence.not_comparable = aligned.error().message;
    } else {
      for (const auto& line : *aligned)
        session.progress << "check: " << k.name << " " << line << "\n";
    }
  }
  if (decided()) return Ok{};
  auto plan = plan_kernel(timed);
  if (!plan) return plan.error();
  KB_TRY(gpu.client->setup(harness_args(timed, plan->sizes.front())));
  session.progress << "check: timing " << k.name << " base against head at "
                   << size_label(timed, timed.sizes.front()) << "\n";
  auto ab = compare_once(*gpu.client, timed, flags, session.clock, against);
  if (!ab) return ab.error();
  if (const std::string how = ab_method_note(*ab); !how.empty())
    session.progress << "check: " << k.name << " timed " << how << "\n";
  evidence.ab = &*ab;
  decided();
  if (ab->rejected.empty()) row.timing = std::move(*ab);
  return Ok{};
}

void skip_pending(std::vector<CheckRow>& rows, const std::string& reason) {
  for (auto& r : rows)
    if (r.verdict == KernelVerdict::pending) r.verdict = KernelVerdict::skipped, r.reason = reason;
}

void print_check_table(std::ostream& out, const std::vector<CheckRow>& rows) {
  const std::vector<std::string> header = {"kernel", "base", "head", "ratio (CI)", "verdict"};
  std::vector<std::size_t> width;
  for (const auto& h : header) width.push_back(h.size());
  auto ratio = [](const CheckRow& r) {
    return r.timing ? ratio_text(r.timing->comparison) : std::string();
  };
  for (const auto& r : rows) {
    const std::string cells[] = {r.kernel, r.base, r.head, ratio(r), check_verdict_name(r.verdict)};
    for (std::size_t i = 0; i < width.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells, const std::string& reason) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << std::left << std::setw(static_cast<int>(width[i]) + 2) << cells[i];
    out << reason << "\n";
  };
  line(header, "reason");
  for (const auto& r : rows)
    line({r.kernel, r.base, r.head, ratio(r), check_verdict_name(r.verdict)}, r.reason);
}

nlohmann::json to_json(const CheckRow& r) {
  nlohmann::json j = {{"kernel", r.kernel},
                      {"why", r.why},
                      {"base", r.base},
                      {"head", r.head},
                      {"verdict", check_verdict_name(r.verdict)},
                      {"reason", r.reason},
                      {"timing", r.timing ? to_json(*r.timing) : nlohmann::json()}};
  if (!r.source.empty()) {
    j["source"] = {{"path", r.source}};
    if (r.line > 0) j["source"]["line"] = r.line;
  }
  return j;
}

ExitCode check_exit_code(const std::vector<CheckRow>& rows, CheckConfig::FailOn fail_on) {
  if (fail_on == CheckConfig::FailOn::never) return ExitCode::ok;
  for (const auto& r : rows) {
    const CheckProblem problem = problem_of(r.verdict);
    if (problem == CheckProblem::error ||
        (problem == CheckProblem::slower && fail_on == CheckConfig::FailOn::slower))
      return ExitCode::found_problem;
  }
  return ExitCode::ok;
}

}  // namespace kblaster
