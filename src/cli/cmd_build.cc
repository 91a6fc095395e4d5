// `kblaster build [REPO]`: compile every kernel, and its CPU or GPU reference,
// through the candidate builder. Needs nvcc, not a GPU.
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/build_result.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct BuildOptions {
  CommonOptions common;
  BuildFlags build;
};

Result<ExitCode> run_build(const BuildOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  Provenance provenance = command_provenance(session, repo->root);
  auto report =
      build_kernels(*repo, options.build, session.device.probe(), session, ReferenceBuilds::build);
  if (!report) return report.error();
  if (options.common.json)
    session.out << build_result(*report, std::move(provenance)).dump(2) << "\n";
  return report->failed > 0 ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace

CommandAction setup_build(CLI::App& app) {
  auto options = std::make_shared<BuildOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  return [options](Session& session) { return run_build(*options, session); };
}

}  // namespace kblaster
