// `kblaster verify [REPO]`: every kernel against its reference, at every size,
// with fresh inputs per seed, in the sandboxed harness. Needs a CUDA device.
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/provenance.h"
#include "eval/verify_run.h"

namespace kblaster {
namespace {

struct VerifyOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
};

Result<ExitCode> verify_command(const VerifyOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  auto run = run_verify(*repo, options.build, options.verify,
                        command_provenance(session, repo->root), session);
  if (!run) return run.error();
  if (options.common.json) session.out << to_json(*run).dump(2) << "\n";
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return verify_exit_code(*run);
}

}  // namespace

CommandAction setup_verify(CLI::App& app) {
  auto options = std::make_shared<VerifyOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify);
  return [options](Session& session) { return verify_command(*options, session); };
}

}  // namespace kblaster
