#include "eval/compare_run.h"

#include "core/launch_plan.h"
#include "core/result_envelope.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"
#include "eval/seed_source.h"

namespace kblaster {
namespace {

// Why A and B cannot be timed after building and verifying them; "" when they can.
std::string why_not_timed(const CompareRun& run) {
  if (run.builds.failed > 0) return "a candidate did not build";
  for (const auto& v : run.verification)
    if (v.status != KernelVerification::Status::passed)
      return "`" + v.spec->name + "` did not pass verification";
  return "";
}

nlohmann::json side(const KernelSpec* spec) {
  return {{"kernel", spec->name}, {"source", spec->source}};
}

}  // namespace

Result<CompareRun> run_compare(const LoadedRepo& repo, const BuildFlags& build,
                               const VerifyFlags& flags, CompareFlags compare, int repeat,
                               Provenance provenance, Session& session) {
  CompareRun run;
  run.provenance = std::move(provenance);
  run.a = repo.selected.at(0), run.b = repo.selected.at(1);
  run.min_effect = compare.criteria.min_effect;
  const VerifyFlags verify = seeded(flags);
  auto gpu = start_gpu_run(repo, build, request_timeout(verify), run.provenance, session);
  if (!gpu) return gpu.error();
  if (!gpu->gpu) {
    run.skipped = "verification and measurement skipped: " + gpu->why_no_device;
    run.verification = skipped_verifications(repo, "no CUDA device");
    stamp_finished(run.provenance);
    return run;
  }
  run.builds = std::move(gpu->builds);
  HarnessClient& harness = *gpu->gpu->client;
  if (run.builds.failed == 0) {
    auto verified = verify_kernels(run.builds, harness, verify, session);
    if (!verified) return verified.error();
    run.verification = std::move(*verified);
    run.provenance.seeds = verification_seeds(verify, verify.seed_base);
  }
  run.not_timed = why_not_timed(run);
  if (!run.not_timed.empty()) {
    session.progress << "compare: not timed, " << run.not_timed << "\n";
  } else {
    KB_TRY(harness.load({run.builds.kernels[0].result.object.string(),
                         run.builds.kernels[1].result.object.string()},
                        reference_object(run.builds.kernels[0])));
    auto plan = plan_kernel(*run.a);
    if (!plan) return plan.error();
    KB_TRY(harness.setup(harness_args(*run.a, plan->sizes.front())));
    session.progress << "compare: A = " << run.a->name << " (" << run.a->source
                     << "), B = " << run.b->name << " (" << run.b->source << ") at "
                     << size_label(*run.a, run.a->sizes.front()) << "\n";
    compare.seed = timing_seed(verify.seed_base, 0);
    const ReferenceWork before = harness.reference_work();
    auto series = compare_series(harness, *run.a, compare, repeat, session);
    if (!series) return series.error();
    say_reference_work(session.progress, "compare: ", harness.reference_work() - before);
    run.series = std::move(*series);
    session.progress << "compare: " << run.series.summary() << " of " << run.series.runs.size()
                     << " run(s)\n";
    std::vector<double> clocks;
    for (const auto& r : run.series.runs) {
      run.provenance.seeds.push_back(r.seed);
      clocks.push_back(r.sm_mhz);
    }
    record_sm_clock(run.provenance, clocks);
  }
  stamp_finished(run.provenance);
  return run;
}

nlohmann::json to_json(const CompareRun& run) {
  nlohmann::json verification = nlohmann::json::array();
  for (const auto& v : run.verification) verification.push_back(to_json(v));
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : run.series.runs) runs.push_back(to_json(r));
  nlohmann::json j = result_envelope("compare", kCompareSchemaVersion, run.provenance);
  j["a"] = side(run.a);
  j["b"] = side(run.b);
  j["size"] = size_label(*run.a, run.a->sizes.front());
  j["min_effect"] = run.min_effect;
  j["verification"] = verification;
  j["runs"] = runs;
  j["tally"] = run.series.tally;
  add_builds(j, run.builds, run.skipped);
  if (!run.series.stopped.empty()) j["stopped"] = run.series.stopped;
  if (!run.not_timed.empty()) j["not_timed"] = run.not_timed;
  return j;
}

ExitCode compare_exit_code(const CompareRun& run) {
  if (!run.skipped.empty()) return ExitCode::missing_environment;
  const bool problem = !run.not_timed.empty() || run.series.slower() || run.series.rejected();
  return problem ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace kblaster
