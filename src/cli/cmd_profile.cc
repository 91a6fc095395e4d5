// `kblaster profile [REPO]`: each kernel at its timed size under Nsight Compute
// (kblaster's metric list, or --set full), then its profile, roofline and
// performance state. Without ncu, or with counters refused, it times the
// kernel instead, says why, and exits 3.
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/profile_run.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct ProfileOptions {
  CommonOptions common;
  BuildFlags build;
  bool full_set = false;
  double timeout_s = 300.0;
};

Result<ExitCode> profile_command(const ProfileOptions& o, Session& session) {
  auto repo = load_repository(o.common);
  if (!repo) return repo.error();
  NcuProfiler profiler = NcuProfiler::from_environment(o.timeout_s);
  ProfileSettings settings;
  settings.profiler = &profiler;
  settings.metrics = o.full_set ? NcuMetrics::full_set : NcuMetrics::kblaster_list;
  std::ostream& text = o.common.json ? session.progress : session.out;  // stdout stays JSON
  auto run =
      run_profile(*repo, o.build, settings, command_provenance(session, repo->root), text, session);
  if (!run) return run.error();
  if (o.common.json) session.out << to_json(*run).dump(2) << "\n";
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return profile_exit_code(*run);
}

}  // namespace

CommandAction setup_profile(CLI::App& app) {
  auto o = std::make_shared<ProfileOptions>();
  add_common_options(app, o->common);
  add_build_flags(app, o->build);
  app.add_flag("--full-set", o->full_set,
               "Collect ncu's --set full (details page) instead of kblaster's metric list");
  app.add_option("--timeout", o->timeout_s, "Seconds per ncu run (default 300)");
  return [o](Session& session) { return profile_command(*o, session); };
}

}  // namespace kblaster
