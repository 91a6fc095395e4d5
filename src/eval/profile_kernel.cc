#include "eval/profile_kernel.h"

#include "core/launch_plan.h"
#include "eval/measure_step.h"
#include "eval/profile_report.h"

namespace kblaster {
namespace {

// Times the kernel with bench's method when there is no profile.
Result<KernelProfileResult> timing_only(const KernelBuild& b, GpuContext& gpu,
                                        const MeasuredCeilings& c, const std::string& why,
                                        Session& session) {
  session.progress << "  no profile: " << why << "; timing only\n";
  KB_TRY(gpu.client->load({b.result.object.string()}, reference_object(b)));
  auto m = measure(*gpu.client, *b.spec, 0, BenchFlags{}, c, session.clock);
  if (!m) return m.error();
  session.progress << "  " << describe(*m, c) << "\n";
  return KernelProfileResult{nlohmann::json{{"kernel", b.spec->name},
                                            {"profile", nullptr},
                                            {"why_no_profile", why},
                                            {"measurement", to_json(*m, c)}},
                             true};
}

}  // namespace

Result<KernelProfileResult> profile_kernel(const KernelBuild& b, GpuContext& gpu,
                                           const ProfileSettings& settings, std::ostream& text,
                                           Session& session) {
  const KernelSpec& spec = *b.spec;
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  const SizePlan& size = plan->sizes.front();
  text << "profile " << spec.name << " at " << size_label(spec, spec.sizes.front())
       << " (not verified here; `kblaster verify` checks it)\n";
  const bool full = settings.metrics == NcuMetrics::full_set;
  const auto csv = settings.csv_dir / (spec.name + (full ? ".full.csv" : ".csv"));
  auto profiled = settings.profiler->profile(
      {.build = b,
       .size = size,
       .signature = signature_of(spec, settings.repo_root),
       .roofline = {double(size.min_bytes()), double(size.flops.value_or(0)), settings.ceilings},
       .metrics = settings.metrics,
       .csv = csv});
  if (!profiled) return profiled.error();
  if (!profiled->report) return timing_only(b, gpu, settings.ceilings, profiled->why_none, session);
  const ProfileReport* report = &*profiled->report;
  print_profile(text, *report);
  text << "  ncu CSV: " << csv.string() << "\n";
  nlohmann::json j = to_json(*report);
  j["kernel"] = spec.name;
  return KernelProfileResult{std::move(j), false};
}

}  // namespace kblaster
