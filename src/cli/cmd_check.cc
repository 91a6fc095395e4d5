// `kblaster check [REPO] --base REV --head REV` (or --event): build both ends of
// a revision range from git objects, verify each hit kernel (of the --kernel
// ones) at head, time it against base, and print one verdict per kernel. [check]
// in kblaster.toml sets the exit-code policy and the minimum effect.
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "cli/check_step.h"
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/revision_flags.h"
#include "cli/verify_step.h"
#include "git/change_plan.h"
#include "git/materialize.h"
#include "github/event_trust.h"

namespace kblaster {
namespace {

struct CheckOptions {
  CommonOptions common;
  RevisionFlags revisions;
  bool allow_untrusted = false;
  BuildFlags build;
  VerifyFlags verify;
};

const KernelSpec* find_spec(const Config& config, const std::string& name) {
  for (const auto& k : config.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

// One end of the range, written to disk and built.
struct Revision {
  LoadedRepo repo;  // root: the materialised tree; selected: the kernels to build
  BuildReport builds;
  const KernelBuild* find(const std::string& name) const {
    for (const auto& b : builds.kernels)
      if (b.spec->name == name) return &b;
    return nullptr;
  }
};

Status build_revision(const Repo& git, const CommitId& commit, const Config& config,
                      const std::vector<std::string>& names, const std::filesystem::path& repo_root,
                      BuildFlags flags, const DeviceInfo& device, Session& session,
                      ReferenceBuilds refs, Revision& out) {
  auto tree = git.tree_at(commit);
  if (!tree) return tree.error();
  auto dir = materialize_tree(**tree, commit, repo_root / ".kblaster" / "trees");
  if (!dir) return dir.error();
  out.repo.root = *dir;
  out.repo.config = config;
  for (const auto& name : names)
    if (const KernelSpec* spec = find_spec(out.repo.config, name))
      out.repo.selected.push_back(spec);
  if (flags.cache_dir.empty()) flags.cache_dir = (repo_root / ".kblaster" / "cache").string();
  session.progress << "revision " << commit.short_hex() << " in " << dir->string() << "\n";
  auto builds = build_kernels(out.repo, flags, device, session, refs);
  if (!builds) return builds.error();
  out.builds = std::move(*builds);
  return Ok{};
}

Result<ExitCode> run_check(const CheckOptions& options, Session& session) {
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
  const RevisionRange* range = &plan->range;
  const CheckConfig& policy = plan->head_config.check;

  std::vector<std::string> head_names, base_names;
  for (const auto& hit : plan->changes.hits) {
    if (hit.why != KernelHit::Why::deleted) head_names.push_back(hit.kernel);
    if (hit.base_name && plan->base_config) base_names.push_back(*hit.base_name);
  }
  if (want.base)
    session.progress << "check: " << plan->changes.hits.size() << " kernel(s) hit from "
                     << range->base.short_hex() << " to " << range->head.short_hex() << " ("
                     << want.source << ")\n";
  else
    session.progress << "check: no base revision (" << want.source
                     << "): the push created its branch, so all " << plan->changes.hits.size()
                     << " kernel(s) at " << range->head.short_hex()
                     << " are new: verified, not timed\n";
  const DeviceInfo device = session.device.probe();
  Revision head, base;
  KB_TRY(build_revision(**git, range->head, plan->head_config, head_names, repo_root, options.build,
                        device, session, ReferenceBuilds::build, head));
  if (plan->base_config && !base_names.empty())
    KB_TRY(build_revision(**git, range->base, *plan->base_config, base_names, repo_root,
                          options.build, device, session, ReferenceBuilds::skip, base));

  std::vector<CheckedKernel> kernels;
  std::vector<CheckRow> rows;
  for (const auto& hit : plan->changes.hits) {
    CheckedKernel k{hit.kernel, why_name(hit.why), nullptr, nullptr};
    if (hit.base_name) k.base = base.find(*hit.base_name);
    if (hit.why != KernelHit::Why::deleted) k.head = head.find(hit.kernel);
    kernels.push_back(k);
    rows.push_back(build_row(k));
  }
  std::string skipped;
  // Only rows without a verdict from building need the GPU; with none, no device is missed.
  const bool needs_gpu =
      std::any_of(rows.begin(), rows.end(), [](const CheckRow& r) { return r.verdict.empty(); });
  if (needs_gpu && !device.present) {
    skipped =
        "verification and measurement skipped: no CUDA device present (" + device.why_absent + ")";
    for (auto& r : rows)
      if (r.verdict.empty()) r.verdict = "SKIPPED", r.reason = "no CUDA device";
  } else if (needs_gpu) {
    auto gpu = start_gpu(session, device, {60.0, request_timeout(options.verify)});
    if (!gpu) return gpu.error();
    const auto seeds = verification_seeds(options.verify, std::random_device{}() | 1u);
    session.progress << "verifying with " << seeds.size() << " seed(s) from " << seeds.front()
                     << " (repeat with --seed " << seeds.front() << ")\n";
    CompareFlags compare;
    compare.criteria.min_effect = policy.min_effect;
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (rows[i].verdict.empty())
        KB_TRY(check_on_gpu(kernels[i], *gpu, seeds, compare, session, rows[i]));
  }

  if (options.common.json) {
    nlohmann::json j_rows = nlohmann::json::array();
    for (const auto& r : rows) j_rows.push_back(to_json(r));
    nlohmann::json j = {
        {"base", want.base ? nlohmann::json(range->base.hex) : nlohmann::json()},
        {"head", range->head.hex},
        {"source", want.source},
        {"fail_on", fail_on_name(policy.fail_on)},
        {"min_effect", policy.min_effect},
        {"kernels", j_rows},
        {"builds", {{"head", to_json(head.builds)}, {"base", to_json(base.builds)}}}};
    if (!skipped.empty()) j["skipped"] = skipped;
    session.out << j.dump(2) << "\n";
  } else {
    print_check_table(session.out, rows);
  }
  const ExitCode verdicts = check_exit_code(rows, policy.fail_on);
  if (skipped.empty()) return verdicts;
  session.progress << skipped << "\n";
  return verdicts == ExitCode::found_problem ? verdicts : ExitCode::missing_environment;
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
  return [options](Session& session) { return run_check(*options, session); };
}

}  // namespace kblaster
