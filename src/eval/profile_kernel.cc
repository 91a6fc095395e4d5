#include "eval/profile_kernel.h"

#include "core/launch_plan.h"
#include "eval/measure_step.h"

namespace kblaster {
namespace {

// Times the kernel with bench's method when there is no profile.
Result<KernelProfileResult> timing_only(const KernelBuild& b, GpuContext& gpu,
                                        const ProfileSettings& settings, const std::string& why,
                                        Session& session) {
  session.progress << "  no profile: " << why << "; timing only\n";
  KB_TRY(gpu.client->load({b.result.object.string()}, reference_object(b)));
  BenchFlags flags;
  flags.seed = settings.seed;
  auto m = measure(*gpu.client, *b.spec, 0, flags, settings.ceilings, session.clock);
  if (!m) return m.error();
  session.progress << "  " << describe(*m, settings.ceilings) << "\n";
  return KernelProfileResult{.kernel = b.spec->name,
                             .status = ProfileStatus::timed_only,
                             .report = std::nullopt,
                             .measurement = std::move(*m),
                             .why_no_profile = why};
}

}  // namespace

const char* profile_status_name(ProfileStatus status) {
  switch (status) {
    case ProfileStatus::profiled:
      return "profiled";
    case ProfileStatus::timed_only:
      return "timed_only";
    case ProfileStatus::skipped:
      return "skipped";
  }
  return "?";
}

Result<KernelProfileResult> profile_kernel(const KernelBuild& b, GpuContext& gpu,
                                           const ProfileSettings& settings, std::ostream& text,
                                           Session& session) {
  const KernelSpec& spec = *b.spec;
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  const SizePlan& size = plan->sizes.front();
  text << "profile " << spec.name << " at " << size_label(spec, spec.sizes.front())
       << " (not verified here; `kblaster verify` checks it)\n";
  if (!settings.profiler) return Error::internal("profile_kernel: no Profiler in its settings");
  const bool full = settings.metrics == NcuMetrics::full_set;
  const auto csv = settings.csv_dir / (spec.name + (full ? ".full.csv" : ".csv"));
  auto profiled = settings.profiler->profile(
      {.build = b,
       .size = size,
       .signature = signature_of(spec, settings.repo_root),
       .roofline = {double(size.min_bytes()), double(size.flops.value_or(0)), settings.ceilings},
       .metrics = settings.metrics,
       .csv = csv,
       .seed = settings.seed});
  if (!profiled) return profiled.error();
  if (!profiled->report) return timing_only(b, gpu, settings, profiled->why_none, session);
  std::optional<ProfileReport>& report = profiled->report;
  print_profile(text, *report);
  text << "  ncu CSV: " << csv.string() << "\n";
  return KernelProfileResult{.kernel = spec.name,
                             .status = ProfileStatus::profiled,
                             .report = std::move(*report),
                             .measurement = std::nullopt,
                             .why_no_profile = ""};
}

nlohmann::json to_json(const KernelProfileResult& k, const MeasuredCeilings& ceilings) {
  nlohmann::json j = k.report ? to_json(*k.report) : nlohmann::json{{"profile", nullptr}};
  j["kernel"] = k.kernel;
  j["status"] = profile_status_name(k.status);
  if (!k.report) j["why_no_profile"] = k.why_no_profile;
  if (k.measurement) j["measurement"] = to_json(*k.measurement, ceilings);
  return j;
}

}  // namespace kblaster
