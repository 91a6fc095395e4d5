// `kblaster check [REPO] --base REV --head REV` (or --event): build both ends of
// a revision range from git objects, verify each hit kernel (of the --kernel
// ones) at head, time it against base, and print one verdict per kernel. [check]
// in kblaster.toml sets the exit-code policy and the minimum effect: head's, except where it
// loosens base's (check_policy).
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/local_reports.h"
#include "cli/publish_flags.h"
#include "cli/repository.h"
#include "cli/revision_flags.h"
#include "cli/step_flags.h"
#include "core/check_policy.h"
#include "eval/check_run.h"
#include "git/change_plan.h"
#include "git/materialize.h"
#include "git/state_folder.h"
#include "github/event_trust.h"

namespace kblaster {
namespace {

struct CheckOptions {
  CommonOptions common;
  RevisionFlags revisions;
  bool allow_untrusted = false;
  BuildFlags build;
  VerifyFlags verify;
  std::string report;    // --report DIR; "" = none
  bool publish = false;  // --publish: on GitHub, as `kblaster publish` does
  std::int64_t pr = 0;   // --pr: the pull request when the range is not from its event
  PublishFlags publish_flags;
};

// The Publisher of a --publish run on the range `want` resolved to `head`; nullptr without
// --publish, or for a fork's PR that gets no write calls.
Result<std::unique_ptr<Publisher>> open_publisher(const CheckOptions& options,
                                                  const RequestedRange& want, const CommitId& head,
                                                  Session& session) {
  const PublishFlags& f = options.publish_flags;
  if (!options.publish && !f.review) {  // --review publishes the review, and so the rest
    if (options.pr > 0 || !f.dry_run.empty())
      return Error::usage("--pr and --dry-run are for publishing: give --publish with them");
    return std::unique_ptr<Publisher>();
  }
  PublishTarget target{.pr = std::nullopt, .head_sha = head.hex, .from_fork = false};
  if (want.event) {
    target.pr = want.event->number;
    target.from_fork = want.event->from_fork;
  }
  if (options.pr > 0) target.pr = options.pr;
  auto publisher = open_publisher(options.publish_flags, target, session);
  if (!publisher || !*publisher) return publisher;
  // The check goes on without its in-progress run: publishing at the end makes the run, or
  // fails (exit 5) once the result is out.
  if (auto started = (*publisher)->start_check_run(); !started)
    session.progress << "warning: the check run could not be started, so none shows while "
                        "measuring: "
                     << started.error().describe() << "\n";
  return publisher;
}

// One end of the range written to disk: `names` of `config` selected, under the
// shared compile cache of `repo_root`.
Status materialize_side(const Repo& git, const CommitId& commit, const Config& config,
                        const std::vector<std::string>& names,
                        const std::filesystem::path& repo_root, CheckSide& side) {
  auto tree = git.tree_at(commit);
  if (!tree) return tree.error();
  auto dir = materialize_tree(**tree, commit, repo_root / kStateFolder / "trees");
  if (!dir) return dir.error();
  side.repo.root = *dir;
  side.repo.config = config;
  for (const auto& name : names)
    for (const auto& k : side.repo.config.kernels)
      if (k.name == name) side.repo.selected.push_back(&k);
  side.label = "revision " + commit.short_hex() + " in " + dir->string();
  return Ok{};
}

// What check found: its result value, and the exit code its verdicts give.
struct Checked {
  nlohmann::json result;
  ExitCode exit_code = ExitCode::ok;
};

// Materialises both ends of `plan`, builds, verifies and times its hit kernels, writes the
// local reports and prints the result.
Result<Checked> check_plan(const CheckOptions& options, const RequestedRange& want,
                           const ChangePlan& plan, const std::filesystem::path& repo_root,
                           const Repo& git, Session& session) {
  const RevisionRange* range = &plan.range;
  const CheckPolicy chosen =
      check_policy(plan.head_config.check, plan.base_config ? &plan.base_config->check : nullptr);
  const CheckConfig& policy = chosen.config;

  CheckInputs inputs;
  inputs.source = want.source;
  inputs.policy = policy;
  inputs.policy_kept_from_base = chosen.kept_from_base;
  for (const auto& kept : chosen.kept_from_base)
    session.progress << "check: " << kept
                     << " (a looser [check] applies once a base revision carries it)\n";
  std::vector<std::string> head_names, base_names;
  for (const auto& hit : plan.changes.hits) {
    const bool at_head = hit.why != KernelHit::Why::deleted;
    inputs.targets.push_back({hit.kernel, why_name(hit.why), hit.base_name, at_head});
    if (at_head) head_names.push_back(hit.kernel);
    if (hit.base_name && plan.base_config) base_names.push_back(*hit.base_name);
  }
  if (want.base)
    session.progress << "check: " << plan.changes.hits.size() << " kernel(s) hit from "
                     << range->base.short_hex() << " to " << range->head.short_hex() << " ("
                     << want.source << ")\n";
  else
    session.progress << "check: no base revision (" << want.source
                     << "): the push created its branch, so all " << plan.changes.hits.size()
                     << " kernel(s) at " << range->head.short_hex()
                     << " are new: verified, not timed\n";
  KB_TRY(check_state_folder_untouched(git, range->head));
  KB_TRY(check_checkout_state(git, repo_root));
  KB_TRY(materialize_side(git, range->head, plan.head_config, head_names, repo_root, inputs.head));
  if (plan.base_config && !base_names.empty()) {
    inputs.base.emplace();
    KB_TRY(
        materialize_side(git, range->base, *plan.base_config, base_names, repo_root, *inputs.base));
  }
  BuildFlags build = options.build;
  if (build.cache_dir.empty()) build.cache_dir = (repo_root / kStateFolder / "cache").string();
  Provenance provenance = command_provenance(session, repo_root);
  if (want.base) provenance.base_sha = range->base.hex;
  provenance.head_sha = range->head.hex;
  auto run = run_check(inputs, build, options.verify, std::move(provenance), session);
  if (!run) return run.error();
  const std::vector<CheckRow>& rows = run->rows;

  Checked checked{to_json(inputs, *run), check_run_exit_code(*run, policy.fail_on)};
  KB_TRY(write_local_reports(checked.result, options.report, session));
  if (options.common.json) {
    session.out << checked.result.dump(2) << "\n";
  } else {
    print_check_table(session.out, rows);
  }
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return checked;
}

Result<ExitCode> check_command(const CheckOptions& options, Session& session) {
  auto requested = requested_range(options.revisions);
  if (!requested) return requested.error();
  if (!*requested)
    return Error::usage(
        "check needs a revision range: give --base and --head, or --event for a pull request "
        "or a push");
  const RequestedRange& want = **requested;
  if (want.event)
    KB_TRY(check_event_trust(
        *want.event, options.allow_untrusted ? UntrustedCode::allow : UntrustedCode::refuse));
  const auto repo_root = std::filesystem::absolute(options.common.repo).lexically_normal();
  auto git = GitRepo::open(repo_root);
  if (!git) return git.error();
  auto plan =
      load_change_plan(options.common, **git, want,
                       options.revisions.merge_base ? BaseMode::merge_base : BaseMode::as_given);
  if (!plan) return plan.error();
  auto publisher = open_publisher(options, want, plan->range.head, session);
  if (!publisher) return publisher.error();
  auto checked = check_plan(options, want, *plan, repo_root, **git, session);
  if (!checked) {
    if (*publisher) (*publisher)->fail(checked.error().describe());
    return checked.error();
  }
  if (*publisher) KB_TRY(publish_with(**publisher, {checked->result}));
  return checked->exit_code;
}

}  // namespace

CommandAction setup_check(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  add_common_options(app, options->common);
  add_revision_flags(app, options->revisions);
  app.add_flag("--allow-untrusted", options->allow_untrusted,
               "Build and run the code of a fork's pull request or a pull_request_target event "
               "on this runner (refused by default: that code would run beside the runner's "
               "secrets; docs/security.md)");
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 120.0);
  add_report_flag(app, options->report);
  app.add_flag("--publish", options->publish,
               "Publish on GitHub: the sticky PR comment, a check run (in progress while "
               "measuring) and, with --review, the claims review");
  app.add_option("--pr", options->pr, "With --publish: the pull request (default: the event's)")
      ->check(CLI::PositiveNumber);
  add_publish_flags(app, options->publish_flags);
  return [options](Session& session) { return check_command(*options, session); };
}

}  // namespace kblaster
