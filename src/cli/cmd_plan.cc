// `kblaster plan [REPO]`: the kernels and their resolved specs; with --base and
// --head (or --event), the kernels that revision range hits and why. Needs no GPU.
#include "cli/change_report.h"
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/revision_flags.h"
#include "core/plan_text.h"
#include "eval/provenance.h"
#include "git/plan_result.h"
#include "git/repo.h"
#include "git/revision_range.h"

namespace kblaster {
namespace {

struct PlanOptions {
  CommonOptions common;
  RevisionFlags revisions;
};

// `plan --base … --head …`: the kernels the range hits (of the --kernel ones), from
// git objects alone.
Result<ExitCode> run_change_plan(const PlanOptions& options, const RequestedRange& requested,
                                 Session& session) {
  auto git = GitRepo::open(options.common.repo);
  if (!git) return git.error();
  auto plan =
      load_change_plan(options.common, **git, requested,
                       options.revisions.merge_base ? BaseMode::merge_base : BaseMode::as_given);
  if (!plan) return plan.error();
  if (options.common.json)
    session.out << plan_result(*plan, requested.source,
                               command_provenance(session, options.common.repo))
                       .dump(2)
                << "\n";
  else
    print_change_plan(session.out, *plan, requested.source);
  return ExitCode::ok;
}

Result<ExitCode> run_plan(const PlanOptions& options, Session& session) {
  auto requested = requested_range(options.revisions);
  if (!requested) return requested.error();
  if (*requested) return run_change_plan(options, **requested, session);
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  if (options.common.json) {
    auto j = plan_result(repo->root, repo->config, repo->selected,
                         command_provenance(session, repo->root));
    if (!j) return j.error();
    session.out << j->dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "kernel repository " << repo->root.string() << ": " << repo->config.kernels.size()
              << " kernels from " << repo->config.spec_files.size() << " spec file(s)\n\n";
  for (const KernelSpec* spec : repo->selected) {
    auto plan = plan_validated_kernel(*spec);
    if (!plan) return plan.error();
    print_kernel_plan(session.out, *spec, *plan);
    session.out << "\n";
  }
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_plan(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  add_common_options(app, options->common);
  add_revision_flags(app, options->revisions);
  return [options](Session& session) { return run_plan(*options, session); };
}

}  // namespace kblaster
