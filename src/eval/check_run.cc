#include "eval/check_run.h"

#include <algorithm>
#include <chrono>

#include "core/bounded_read.h"
#include "core/definition_line.h"
#include "core/input_limits.h"
#include "core/result_envelope.h"
#include "core/text_join.h"
#include "eval/definition_change.h"
#include "eval/gpu_context.h"
#include "eval/seed_source.h"

namespace kblaster {
namespace {

const KernelBuild* find_build(const BuildReport& builds, const std::string& name) {
  for (const auto& b : builds.kernels)
    if (b.spec->name == name) return &b;
  return nullptr;
}

Result<BuildReport> build_side(const CheckSide& side, const BuildFlags& flags,
                               const DeviceInfo& device, Session& session, ReferenceBuilds refs) {
  session.progress << side.label << "\n";
  return build_kernels(side.repo, flags, device, session, refs);
}

// Where head's `spec` lives in the head tree at `root`: its source file and the line
// its launcher is defined on (0 when the file does not read or the launcher is not found).
std::size_t launcher_line(const std::filesystem::path& root, const KernelSpec& spec) {
  auto text = read_bounded(root / spec.source, kMaxSourceBytes, "source");
  return text ? definition_line(*text, spec.launcher) : 0;
}

}  // namespace

std::string deleted_kernels_note(const std::vector<CheckTarget>& targets) {
  std::vector<std::string> names;
  std::size_t count = 0;
  for (const auto& t : targets)
    if (!t.at_head && ++count <= 3) names.push_back("`" + t.kernel + "`");
  if (count == 0) return "";
  if (count > 3) names.push_back("and " + std::to_string(count - 3) + " more");
  return "the change also deletes " + join_texts(names, ", ") +
         ": if this kernel replaces one, it is not compared with it";
}

Result<CheckRun> run_check(const CheckInputs& inputs, const BuildFlags& build,
                           const VerifyFlags& verify, Provenance provenance, Session& session) {
  CheckRun run;
  run.provenance = std::move(provenance);
  run.provenance.started_at = utc_timestamp(std::chrono::system_clock::now());
  const DeviceInfo device = session.device.probe();
  auto head = build_side(inputs.head, build, device, session, ReferenceBuilds::build);
  if (!head) return head.error();
  run.head_builds = std::move(*head);
  run.provenance.nvcc_version = run.head_builds.compiler_version;
  if (inputs.base && !inputs.base->repo.selected.empty()) {
    auto base = build_side(*inputs.base, build, device, session, ReferenceBuilds::skip);
    if (!base) return base.error();
    run.base_builds = std::move(*base);
  }

  std::vector<CheckedKernel> kernels;
  std::vector<std::vector<std::string>> changes;  // per row: how head changed its own check
  const std::string deleted = deleted_kernels_note(inputs.targets);
  for (const auto& t : inputs.targets) {
    CheckedKernel k{t.kernel, t.why, nullptr, nullptr};
    if (t.base_name) k.base = find_build(run.base_builds, *t.base_name);
    if (t.at_head) k.head = find_build(run.head_builds, t.kernel);
    kernels.push_back(k);
    run.rows.push_back(build_row(k));
    changes.push_back(k.base && k.head ? check_definition_changes(*k.base->spec, *k.head->spec)
                                       : std::vector<std::string>{});
    if (!t.base_name && t.at_head && !deleted.empty()) changes.back().push_back(deleted);
    if (k.base && k.head && inputs.base)
      if (auto edit =
              reference_edit(*k.base->spec, *k.head->spec, DirectoryTree(inputs.base->repo.root),
                             DirectoryTree(inputs.head.repo.root)))
        changes.back().push_back(*edit);
    for (const auto& change : changes.back())
      session.progress << "check: " << k.name << ": " << change << "\n";
    if (k.head) {
      run.rows.back().source = k.head->spec->source;
      run.rows.back().line = launcher_line(inputs.head.repo.root, *k.head->spec);
    }
  }
  // Only rows without a verdict from building need the GPU; with none, no device is missed.
  const bool needs_gpu = std::any_of(run.rows.begin(), run.rows.end(), [](const CheckRow& r) {
    return r.verdict == KernelVerdict::pending;
  });
  auto finished = [&run, &changes]() -> CheckRun {
    // Said beside whatever verdict the row got, so a reviewer sees what the PR changed.
    for (std::size_t i = 0; i < run.rows.size(); ++i)
      for (const auto& change : changes[i])
        run.rows[i].reason += (run.rows[i].reason.empty() ? "" : "; ") + change;
    stamp_finished(run.provenance);
    return std::move(run);
  };
  if (!needs_gpu) return finished();
  if (!device.present) {
    run.skipped = "verification and measurement skipped: " + no_device_reason(device);
    skip_pending(run.rows, "no CUDA device");
    return finished();
  }
  run.provenance.gpu = gpu_identity(device);
  auto gpu = start_gpu(session, device, {60.0, request_timeout(verify)});
  if (!gpu) return gpu.error();
  run.seeds = verification_seeds(verify, draw_seed());
  run.provenance.seeds = run.seeds;
  session.progress << "verifying with " << run.seeds.size() << " seed(s) from " << run.seeds.front()
                   << " (repeat with --seed " << run.seeds.front() << ")\n";
  CompareFlags compare;
  compare.criteria.min_effect = inputs.policy.min_effect;
  compare.seed = timing_seed(verify.seed_base, 0);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (run.rows[i].verdict == KernelVerdict::pending)
      KB_TRY(check_on_gpu(kernels[i], *gpu, run.seeds, compare, session, run.rows[i]));
  return finished();
}

nlohmann::json to_json(const CheckInputs& inputs, const CheckRun& run) {
  nlohmann::json rows = nlohmann::json::array();
  nlohmann::json summary = nlohmann::json::object();
  for (const auto& r : run.rows) {
    rows.push_back(to_json(r));
    const std::string name = check_verdict_name(r.verdict);
    summary[name] = summary.value(name, 0) + 1;
  }
  nlohmann::json j = result_envelope("check", kCheckSchemaVersion, run.provenance);
  j["base"] = run.provenance.base_sha ? nlohmann::json(*run.provenance.base_sha) : nlohmann::json();
  j["head"] = run.provenance.head_sha.value_or("");
  j["source"] = inputs.source;
  j["fail_on"] = fail_on_name(inputs.policy.fail_on);
  j["min_effect"] = inputs.policy.min_effect;
  if (!inputs.policy_kept_from_base.empty())
    j["policy_kept_from_base"] = inputs.policy_kept_from_base;
  j["summary"] = summary;
  j["kernels"] = rows;
  j["builds"] = {{"head", to_json(run.head_builds)}, {"base", to_json(run.base_builds)}};
  if (!run.skipped.empty()) j["skipped"] = run.skipped;
  return j;
}

ExitCode check_run_exit_code(const CheckRun& run, CheckConfig::FailOn fail_on) {
  const ExitCode verdicts = check_exit_code(run.rows, fail_on);
  if (run.skipped.empty()) return verdicts;
  return verdicts == ExitCode::found_problem ? verdicts : ExitCode::missing_environment;
}

}  // namespace kblaster
