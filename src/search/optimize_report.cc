#include "search/optimize_report.h"

#include <cmath>

#include "core/between_machines.h"
#include "core/bounded_read.h"
#include "core/file_replace.h"
#include "core/file_write.h"
#include "core/input_limits.h"
#include "profile/profile_delta.h"
#include "search/final_ab.h"
#include "search/model_bound.h"
#include "search/search_budget.h"
#include "search/source_form_check.h"

namespace kblaster {
namespace {

nlohmann::json step_json(const SearchStep& s) {
  const Evaluation& e = s.evaluation;
  return {{"rollout", s.rollout},
          {"step", s.depth},
          {"state", s.state},
          {"technique", s.technique},
          {"mode", choice_mode_name(s.mode)},
          {"change", s.change},
          {"predicted_speedup", std::exp(s.predicted_log_speedup)},
          {"outcome", std::string(outcome_name(e.outcome))},
          {"speedup_vs_parent",
           is_measured(e.outcome) ? nlohmann::json(std::exp(e.log_speedup)) : nlohmann::json()},
          {"detail", e.detail},
          {"best_speedup_after", std::exp(s.best_log_speedup_after)},
          {"candidate", s.candidate},
          {"elapsed_s", s.elapsed_s},
          {"lesson", s.lesson}};
}

// step_json, with what the model did for a step it applied.
nlohmann::json step_with_policy(const SearchStep& s) {
  nlohmann::json j = step_json(s);
  if (s.by_model) {
    j["policy"] = "llm";
    j["repairs"] = s.repairs;
    j["tokens_in"] = s.tokens.input;
    j["tokens_out"] = s.tokens.output;
  }
  return j;
}

// Where a profile sits under the roofline: its arithmetic intensity and the FLOP/s it
// reached in ncu's duration (floor / share of the limit).
nlohmann::json roofline_point(const RooflinePosition& p) {
  const double seconds = p.share_of_limit > 0 ? p.floor_s / p.share_of_limit : 0.0;
  const double flops = p.arithmetic_intensity * p.min_bytes;
  return {{"arithmetic_intensity", p.arithmetic_intensity},
          {"flops_per_s", seconds > 0 ? flops / seconds : 0.0},
          {"seconds", seconds},
          {"share_of_limit", p.share_of_limit},
          {"limit", p.limit}};
}

// The kblaster.toml settings a best candidate needs beyond its source.
std::vector<std::string> settings_needed(const Candidate& best) {
  std::vector<std::string> out;
  for (const auto& f : best.extra_flags) out.push_back("nvcc_flags: add \"" + f + "\"");
  if (!best.arch.empty()) out.push_back("[project] arch = \"" + best.arch + "\"");
  for (const auto& [k, v] : best.macros) out.push_back("tunables: " + k + " = " + v + " first");
  for (const auto& [k, v] : best.launcher_args)
    out.push_back("args: " + k + " tunable = " + std::to_string(v) + " first");
  return out;
}

// Why --apply must not rewrite `file` with the best's source; "" when it may.
std::string reason_not_to_apply(const std::filesystem::path& file, const SearchResult& r,
                                bool verified_faster) {
  if (!verified_faster) return "no verified speedup against the baseline";
  if (!r.soft_verification.empty()) return "the soft verification failed (below)";
  if (r.best.source == r.baseline.source)
    return "the source is unchanged; the speedup comes from build settings only (below)";
  if (!settings_needed(r.best).empty())
    return "the speedup was measured with build settings the source alone does not carry "
           "(below); set them in kblaster.toml and rewrite the source by hand, or rerun";
  const auto now = read_bounded(file, kMaxSourceBytes, "the kernel source");
  if (!now) return now.error().message + "; not overwriting it";
  if (*now != r.baseline.source)
    return file.string() + " changed since the search read it; not overwriting it";
  return "";
}

}  // namespace

namespace {

// The raw timeline behind gpu_idle_share: each stretch the GPU was busy, each call to the
// model and each wait for a build, as [start, end, what] in seconds from the search's start,
// within the search.
nlohmann::json timeline(const SearchResult& r, const ResultProbe& evaluator, double seconds) {
  const auto at = [&](double t) { return std::round((t - r.started_s) * 1e4) / 1e4; };
  const auto within = [&](const std::vector<BusySpan>& spans) {
    nlohmann::json out = nlohmann::json::array();
    for (const BusySpan& b : spans)
      if (b.start_s >= r.started_s && at(b.end_s) <= seconds)
        out.push_back({at(b.start_s), at(b.end_s), b.what});
    return out;
  };
  nlohmann::json model = nlohmann::json::array();
  for (const ModelCall& c : r.model_calls) model.push_back({at(c.start_s), at(c.end_s), c.purpose});
  return {{"gpu", within(evaluator.gpu_spans())},
          {"model", std::move(model)},
          {"build_waits", within(evaluator.build_waits())}};
}

}  // namespace

Result<nlohmann::json> write_optimize_result(const KernelSpec& spec,
                                             const std::filesystem::path& repo_root,
                                             const SearchResult& r, ResultProbe& evaluator,
                                             const MeasuredCeilings& ceilings, double seconds,
                                             const std::filesystem::path& out_dir,
                                             WriteBack write_back, Session& session) {
  const Candidate& best = r.best;
  const bool changed = !best.path.empty();
  nlohmann::json j = {{"kernel", spec.name},
                      {"source", spec.source},
                      {"sizes", spec.sizes},
                      {"baseline_state", r.baseline_state},
                      {"best_state", r.best_state},
                      {"baseline_candidate", r.baseline.fingerprint()},
                      {"best_candidate", best.fingerprint()},
                      {"path", best.path},
                      {"changes", best.changes},
                      {"settings_needed", settings_needed(best)},
                      {"stop_reason", r.stop_reason},
                      {"evaluations", r.best_so_far.size()},
                      {"evaluations_to_95_percent", evaluations_to_reach(r.best_so_far, 0.95)},
                      {"soft_verification", r.soft_verification},
                      {"seconds", seconds},
                      {"gpu_busy_seconds", evaluator.gpu_seconds()},
                      {"ncu_seconds", evaluator.profile_seconds()},
                      {"gpu_idle_share",
                       seconds > 0 ? std::max(0.0, 1.0 - evaluator.gpu_seconds() / seconds) : 0.0}};
  j["timeline"] = timeline(r, evaluator, seconds);
  const auto bound = model_bound(r.model_slots, r.model_calls, evaluator.gpu_seconds());
  if (bound)
    j["model_bound"] = {{"slots", bound->slots},
                        {"calls", bound->calls},
                        {"mean_answer_seconds", bound->mean_answer_s},
                        {"least_wall_seconds", bound->least_wall_s},
                        {"least_idle_share", bound->least_idle_share}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : r.steps) steps.push_back(step_with_policy(s));
  j["steps"] = steps;
  if (r.llm) j["llm"] = to_json(*r.llm);

  bool verified_faster = false;
  if (changed) {
    auto ab = final_ab(evaluator, r.baseline, best);
    if (!ab) return ab.error();
    j["final_ab"] = std::move(ab->final_ab);
    j["speedup"] = std::move(ab->speedup);
    verified_faster = ab->verified_faster;
  } else {
    j["speedup"] = {
        {"value", 1.0}, {"verdict", "SAME"}, {"reason", "no faster verified candidate"}};
    j["final_ab"] = nullptr;
  }
  j["verification"] =
      !changed ? "the baseline"
      : spec.reference.kind != ReferenceSpec::Kind::base_revision
          ? "every size, against the kernel's reference, at each step and in the final A/B"
          : "every size, against the parent's output (no reference), at each step and in the "
            "final A/B";
  std::string why;
  std::optional<ProfileReport> before, after;
  std::optional<ProfileDelta> delta;
  if (changed) {
    auto b = evaluator.profile(r.baseline, why);
    if (!b) return b.error();
    auto a = evaluator.profile(best, why);
    if (!a) return a.error();
    before = *b, after = *a;
  }
  if (before && after) {
    delta = profile_delta(before->total, before->state, after->total, after->state);
    j["profile_delta"] = to_json(*delta);
    if (before->roofline && after->roofline)
      j["roofline"] = {{"dram_bytes_per_s", ceilings.dram_bytes_per_s},
                       {"flops_per_s", ceilings.fp32_flops_per_s},
                       {"before", roofline_point(*before->roofline)},
                       {"after", roofline_point(*after->roofline)}};
  } else {
    j["profile_delta"] = nullptr;
    if (changed) j["profile_delta_missing"] = why;
  }

  const auto dir = out_dir / spec.name;
  const auto best_file = dir / std::filesystem::path(spec.source).filename();
  const auto result_file = dir / "result.json";
  j["best_source_file"] = best_file.string();
  j["best_source"] = best.source;  // the exact text verified and timed: what a PR carries
  j["result_file"] = result_file.string();
  KB_TRY(make_directories(dir));
  KB_TRY(replace_file(best_file, best.source));
  session.progress << "  result: " << j["speedup"]["verdict"].get<std::string>();
  if (j["speedup"]["value"].is_number())
    session.progress << " " << j["speedup"]["value"].get<double>() << "x";
  if (j["speedup"].contains("ci_low"))
    session.progress << " [" << j["speedup"]["ci_low"].get<double>() << ", "
                     << j["speedup"]["ci_high"].get<double>() << "]";
  if (changed) session.progress << " via";
  for (const auto& t : best.path) session.progress << " " << t;
  session.progress << "; " << r.stop_reason << "; GPU idle "
                   << static_cast<int>(j["gpu_idle_share"].get<double>() * 100) << "%";
  if (seconds > 0 && evaluator.profile_seconds() > 0)
    session.progress << " (ncu " << static_cast<int>(evaluator.profile_seconds() / seconds * 100)
                     << "% of the time, counted busy)";
  session.progress << "\n";
  if (verified_faster) session.progress << "  " << speedup_caveat() << "\n";
  // Idle the scheduler could not help: say so, with what would.
  if (bound && bound->least_idle_share >= 0.2)
    session.progress << "  the model bounded the GPU: "
                     << describe_model_bound(*bound, evaluator.gpu_seconds())
                     << "; more requests in flight ([llm] in_flight) would shorten the search\n";
  if (delta) print_profile_delta(session.progress, *delta);
  for (const auto& f : r.soft_verification)
    session.progress << "  soft verification: " << f << "\n";
  if (write_back == WriteBack::if_verified) {
    const std::string why_not = reason_not_to_apply(repo_root / spec.source, r, verified_faster);
    j["applied"] = why_not.empty();
    if (why_not.empty()) {
      KB_TRY(replace_file(repo_root / spec.source, best.source));
      session.progress << "  applied: rewrote " << (repo_root / spec.source).string() << "\n";
    } else {
      session.progress << "  not applied: " << why_not << "\n";
    }
  }
  for (const auto& s : settings_needed(best))
    session.progress << "  the best also needs, in kblaster.toml: " << s << "\n";
  // A best that needs build settings reaches a repository's own build only as source.
  if (verified_faster && !settings_needed(best).empty()) {
    auto form = check_source_form(r, evaluator, dir, best_file.filename(), session.progress);
    if (!form) return form.error();
    j["source_form"] = std::move(*form);
  }
  KB_TRY(replace_file(result_file, j.dump(2) + "\n"));
  session.progress << "  wrote " << best_file.string() << " and " << result_file.string() << "\n";
  // The evaluator keeps each built candidate's tree, and each profiled one's ncu CSV,
  // beside the result, named by its fingerprint. Profiles are named only when ncu ran
  // in this run: the folder may be an earlier run's.
  std::error_code ec;
  if (std::filesystem::is_directory(dir / "trees", ec))
    session.progress << "  candidates' source trees (the baseline, every step's child, and "
                        "children built ahead): "
                     << (dir / "trees").string()
                     << "/<candidate>/, as result.json names them (steps[].candidate)\n";
  if (evaluator.profile_seconds() > 0 && std::filesystem::is_directory(dir / "profiles", ec))
    session.progress << "  ncu CSVs of the candidates profiled: " << (dir / "profiles").string()
                     << "/<candidate>.csv\n";
  return j;
}

}  // namespace kblaster
