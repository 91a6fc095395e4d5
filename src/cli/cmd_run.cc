// `kblaster run [REPO]`: everything for one CI event. Today: validate the config,
// plan, build every kernel, then, on a machine with a CUDA device, verify and
// time each (as `kblaster bench`). Without one it says so and exits 3.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "core/launch_plan.h"
#include "eval/bench_step.h"
#include "eval/build_step.h"

namespace kblaster {
namespace {

struct RunOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  BenchFlags bench;
};

Result<ExitCode> run_run(const RunOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  session.progress << "config: " << repo->config.kernels.size() << " kernel(s) from "
                   << repo->config.spec_files.size() << " spec file(s) in " << repo->root.string()
                   << "; " << repo->selected.size() << " selected\n";
  for (const KernelSpec* spec : repo->selected)
    if (auto plan = plan_validated_kernel(*spec); !plan) return plan.error();
  const DeviceInfo device = session.device.probe();
  auto report = build_kernels(*repo, options.build, device, session, ReferenceBuilds::build);
  if (!report) return report.error();

  if (device.present) {
    auto gpu = start_gpu(session, device, {60.0, request_timeout(options.verify)});
    if (!gpu) return gpu.error();
    auto outcome = verify_and_bench(*report, *gpu, options.verify, options.bench, session);
    if (!outcome) return outcome.error();
    if (options.common.json)
      session.out << nlohmann::json{{"repo", repo->root.string()},
                                    {"build", to_json(*report)},
                                    {"verification", to_json(*outcome)}}
                         .dump(2)
                  << "\n";
    return outcome->problem || report->failed > 0 ? ExitCode::found_problem : ExitCode::ok;
  }
  // Verification and measurement run in kblaster-harness on a CUDA device.
  const std::string skipped = "verification and measurement skipped: " + no_device_reason(device);
  if (options.common.json) {
    nlohmann::json j = {{"repo", repo->root.string()}, {"build", to_json(*report)}};
    j["verification"] = {{"status", "skipped"}, {"reason", skipped}};
    session.out << j.dump(2) << "\n";
  }
  if (report->failed > 0) {
    session.progress << report->failed << " kernel(s) failed to build; " << skipped << "\n";
    return ExitCode::found_problem;
  }
  session.progress << skipped << "\n";
  return ExitCode::missing_environment;
}

}  // namespace

CommandAction setup_run(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 60.0);
  add_bench_flags(app, options->bench);
  return [options](Session& session) { return run_run(*options, session); };
}

}  // namespace kblaster
