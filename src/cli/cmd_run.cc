// `kblaster run [REPO]`: everything for one CI event. Today: validate the config,
// plan, build every kernel; verification and measurement need a CUDA device.
#include <nlohmann/json.hpp>

#include "cli/build_step.h"
#include "cli/commands.h"
#include "core/launch_plan.h"

namespace kblaster {
namespace {

struct RunOptions {
  CommonOptions common;
  BuildFlags build;
};

Result<ExitCode> run_run(const RunOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  session.progress << "config: " << repo->config.kernels.size() << " kernel(s) from "
                   << repo->config.spec_files.size() << " spec file(s) in " << repo->root.string()
                   << "; " << repo->selected.size() << " selected\n";
  for (const KernelSpec* spec : repo->selected)
    if (auto plan = plan_kernel(*spec); !plan)
      return Error::internal("kernel `" + spec->name + "` passed validation but cannot be planned: " +
                             plan.error().message);
  const DeviceInfo device = session.device.probe();
  auto report = build_kernels(*repo, options.build, device, session);
  if (!report) return report.error();

  // Verification and measurement run in kblaster-harness on a CUDA device.
  const std::string skipped = device.present
      ? "verification and measurement skipped: this kblaster has no kblaster-harness yet (GPU " +
            device.name + " present)"
      : "verification and measurement skipped: no CUDA device present (" + device.why_absent + ")";
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
  return [options](Session& session) { return run_run(*options, session); };
}

}  // namespace kblaster
