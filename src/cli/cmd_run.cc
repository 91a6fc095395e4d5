// `kblaster run [REPO]`: everything for one CI event. Today: validate the config,
// plan, build every kernel, then, on a machine with a CUDA device, verify and
// time each (as `kblaster bench`). Without one it says so and exits 3.
#include "cli/commands.h"
#include "cli/local_reports.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/ci_run.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct RunOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  BenchFlags bench;
  std::string report;  // --report DIR; "" = none
};

Result<ExitCode> run_command(const RunOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  session.progress << "config: " << repo->config.kernels.size() << " kernel(s) from "
                   << repo->config.spec_files.size() << " spec file(s) in " << repo->root.string()
                   << "; " << repo->selected.size() << " selected\n";
  auto run = run_ci(*repo, options.build, options.verify, options.bench,
                    command_provenance(session, repo->root), session);
  if (!run) return run.error();
  const nlohmann::json value = to_json(*run);
  KB_TRY(write_local_reports(value, options.report, session));
  if (options.common.json) session.out << value.dump(2) << "\n";
  if (run->builds.failed > 0)
    session.progress << run->builds.failed << " kernel(s) failed to build\n";
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return ci_exit_code(*run);
}

}  // namespace

CommandAction setup_run(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 60.0);
  add_bench_flags(app, options->bench);
  add_report_flag(app, options->report);
  return [options](Session& session) { return run_command(*options, session); };
}

}  // namespace kblaster
