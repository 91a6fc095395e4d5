// `kblaster profile [REPO]`: each kernel at its timed size under Nsight Compute
// (kblaster's metric list, or --set full), then its profile, roofline and
// performance state. Without ncu, or with counters refused, it times the
// kernel instead, says why, and exits 3.
#include <nlohmann/json.hpp>

#include "cli/build_step.h"
#include "cli/ceilings_cache.h"
#include "cli/commands.h"
#include "cli/gpu_context.h"
#include "cli/measure_step.h"
#include "cli/ncu_run.h"
#include "cli/profile_report.h"
#include "core/include_scan.h"
#include "core/source_tree.h"
#include "gpu/compiler.h"

namespace kblaster {
namespace {

struct ProfileOptions {
  CommonOptions common;
  BuildFlags build;
  bool full_set = false;
  double timeout_s = 300.0;
};

// Times the kernel with bench's method when there is no profile; the JSON entry.
Result<nlohmann::json> timing_only(GpuRun& run, const KernelBuild& b, const MeasuredCeilings& c,
                                   const std::string& why, Session& session) {
  session.progress << "  no profile: " << why << "; timing only\n";
  KB_TRY(run.gpu.client->load({b.result.object.string()}, reference_object(b)));
  auto m = measure(*run.gpu.client, *b.spec, 0, BenchFlags{}, c, session.clock);
  if (!m) return m.error();
  session.progress << "  " << describe(*m, c) << "\n";
  return nlohmann::json{{"kernel", b.spec->name},
                        {"profile", nullptr},
                        {"why_no_profile", why},
                        {"measurement", to_json(*m, c)}};
}

Result<ExitCode> run_profile(const ProfileOptions& o, Session& session) {
  auto run = start_gpu_run(o.common, o.build, 60.0, session);
  if (!run) return run.error();
  auto ceilings = measured_ceilings(*run->gpu.client, run->gpu.harness_device.name,
                                    run->builds.cache_dir / "ceilings.json", session);
  if (!ceilings) return ceilings.error();
  auto ncu = find_ncu(process_environment);
  const NcuMetrics metrics = o.full_set ? NcuMetrics::full_set : NcuMetrics::kblaster_list;
  bool timing_only_used = false, failed = false;
  std::ostream& text = o.common.json ? session.progress : session.out;  // stdout stays JSON
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelBuild& b : run->builds.kernels) {
    const KernelSpec& spec = *b.spec;
    if (!b.ok()) {
      session.progress << "profile " << spec.name << ": skipped, the build failed\n";
      failed = true;
      continue;
    }
    auto plan = plan_kernel(spec);
    if (!plan) return plan.error();
    const SizePlan& size = plan->sizes.front();
    text << "profile " << spec.name << " at " << size_label(spec, spec.sizes.front())
         << " (not verified here; `kblaster verify` checks it)\n";
    if (!ncu) {
      auto j = timing_only(*run, b, *ceilings, ncu.error().message, session);
      if (!j) return j.error();
      kernels.push_back(*j), timing_only_used = true;
      continue;
    }
    const auto csv =
        run->builds.cache_dir / "profiles" / (spec.name + (o.full_set ? ".full.csv" : ".csv"));
    auto ran = run_under_ncu(*ncu, b, size, metrics, csv, o.timeout_s);
    if (!ran) return ran.error();
    if (ran->problem) {
      auto j = timing_only(*run, b, *ceilings, *ran->problem, session);
      if (!j) return j.error();
      kernels.push_back(*j), timing_only_used = true;
      continue;
    }
    auto report = read_profile(
        ran->csv, csv.string(), signature_of(spec, run->repo.root),
        RooflineInputs{double(size.min_bytes()), double(size.flops.value_or(0)), *ceilings});
    if (!report) return report.error();
    print_profile(text, *report);
    text << "  ncu CSV: " << csv.string() << "\n";
    nlohmann::json j = to_json(*report);
    j["kernel"] = spec.name;
    kernels.push_back(std::move(j));
  }
  if (o.common.json) session.out << nlohmann::json{{"kernels", kernels}}.dump(2) << "\n";
  if (failed) return ExitCode::found_problem;
  return timing_only_used ? ExitCode::missing_environment : ExitCode::ok;
}

}  // namespace

CommandAction setup_profile(CLI::App& app) {
  auto o = std::make_shared<ProfileOptions>();
  add_common_options(app, o->common);
  add_build_flags(app, o->build);
  app.add_flag("--full-set", o->full_set,
               "Collect ncu's --set full (details page) instead of kblaster's metric list");
  app.add_option("--timeout", o->timeout_s, "Seconds per ncu run (default 300)");
  return [o](Session& session) { return run_profile(*o, session); };
}

}  // namespace kblaster
