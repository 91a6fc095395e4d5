// `kblaster bench [REPO]`: verify each kernel, then time it at its timed size
// (nvbench's method; see measure_step.h). Needs a CUDA device.
#include "cli/commands.h"
#include "cli/local_reports.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/bench_run.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct BenchOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  BenchFlags bench;
  std::string report;  // --report DIR; "" = none
};

Result<ExitCode> bench_command(const BenchOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  auto run = run_bench(*repo, options.build, options.verify, options.bench,
                       command_provenance(session, repo->root), session);
  if (!run) return run.error();
  const nlohmann::json value = to_json(*run);
  KB_TRY(write_local_reports(value, options.report, session));
  if (options.common.json) session.out << value.dump(2) << "\n";
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return bench_exit_code(*run);
}

}  // namespace

CommandAction setup_bench(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 60.0);
  add_bench_flags(app, options->bench);
  add_report_flag(app, options->report);
  return [options](Session& session) { return bench_command(*options, session); };
}

}  // namespace kblaster
