// `kblaster compare [REPO] --a KERNEL (--b KERNEL | --b-source FILE)`: verify
// both candidates, then time them interleaved in one process and give the
// verdict for B against A. `--repeat N` repeats the timing (fresh inputs, a
// fresh sampler) N times after one verification, for studies of the verdict.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "core/launch_plan.h"
#include "core/suggest.h"
#include "eval/build_step.h"
#include "eval/compare_series.h"
#include "eval/compare_step.h"
#include "eval/gpu_context.h"
#include "eval/seed_source.h"
#include "eval/verify_step.h"

namespace kblaster {
namespace {

struct CompareOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  CompareFlags compare;
  std::string a, b, b_source;
  int repeat = 1;
};

// The kernel named by `flag` (--a or --b); a usage error naming the flag if none is.
Result<const KernelSpec*> find_kernel(const LoadedRepo& repo, const std::string& flag,
                                      const std::string& name) {
  std::vector<std::string> names;
  for (const auto& k : repo.config.kernels) {
    if (k.name == name) return &k;
    names.push_back(k.name);
  }
  return Error::usage(flag + " " + name + ": no such kernel" + did_you_mean(name, names));
}

Result<ExitCode> run_compare(CompareOptions options, Session& session) {
  if (options.b.empty() == options.b_source.empty())
    return Error::usage("give B as --b KERNEL or as --b-source FILE (one of them)");
  options.common.kernels.clear();  // compare selects by --a and --b
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  auto a = find_kernel(*repo, "--a", options.a);
  if (!a) return a.error();
  const KernelSpec& spec_a = **a;
  auto b =
      options.b.empty() ? Result<const KernelSpec*>(&spec_a) : find_kernel(*repo, "--b", options.b);
  if (!b) return b.error();
  KernelSpec spec_b = **b;
  if (!options.b_source.empty()) {
    spec_b.name = spec_a.name + "@" + options.b_source;
    spec_b.source = options.b_source;
  }
  KB_TRY(check_same_workload(spec_a, spec_b));
  repo->selected = {&spec_a, &spec_b};

  const DeviceInfo device = session.device.probe();
  if (!device.present)
    return Error::environment("no CUDA device present (" + device.why_absent + ")");
  auto builds = build_kernels(*repo, options.build, device, session, ReferenceBuilds::build);
  if (!builds) return builds.error();
  if (builds->failed > 0) return ExitCode::found_problem;
  auto gpu = start_gpu(session, device, {60.0, request_timeout(options.verify)});
  if (!gpu) return gpu.error();
  auto verified = verify_kernels(*builds, *gpu->client, options.verify, session);
  if (!verified) return verified.error();
  for (const auto& v : *verified)
    if (v.status != KernelVerification::Status::passed) {
      session.progress << "compare: not timed, `" << v.spec->name
                       << "` did not pass verification\n";
      return ExitCode::found_problem;
    }

  KB_TRY(gpu->client->load(
      {builds->kernels[0].result.object.string(), builds->kernels[1].result.object.string()},
      reference_object(builds->kernels[0])));
  auto plan = plan_kernel(spec_a);
  if (!plan) return plan.error();
  KB_TRY(gpu->client->setup(harness_args(spec_a, plan->sizes.front())));
  session.progress << "compare: A = " << spec_a.name << " (" << spec_a.source
                   << "), B = " << spec_b.name << " (" << spec_b.source << ") at "
                   << size_label(spec_a, spec_a.sizes.front()) << "\n";
  options.compare.seed = timing_seed(options.verify.seed_base, 0);
  auto series = compare_series(*gpu->client, spec_a, options.compare, options.repeat, session);
  if (!series) return series.error();
  session.progress << "compare: " << series->summary() << " of " << series->runs.size()
                   << " run(s)\n";
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : series->runs) runs.push_back(to_json(r));
  if (options.common.json)
    session.out << nlohmann::json{{"device", gpu->harness_device.name},
                                  {"a", {{"kernel", spec_a.name}, {"source", spec_a.source}}},
                                  {"b", {{"kernel", spec_b.name}, {"source", spec_b.source}}},
                                  {"size", size_label(spec_a, spec_a.sizes.front())},
                                  {"min_effect", options.compare.criteria.min_effect},
                                  {"runs", runs},
                                  {"tally", series->tally}}
                       .dump(2)
                << "\n";
  return series->slower() || series->rejected() ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace

CommandAction setup_compare(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  add_common_options(app, options->common);
  app.remove_option(app.get_option("--kernel"));  // A and B are named by --a and --b
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify, 120.0);
  app.add_option("--a", options->a, "Kernel A, the baseline")->required();
  app.add_option("--b", options->b,
                 "Kernel B, declared in the same repository with the same arguments");
  app.add_option("--b-source", options->b_source,
                 "B is kernel A built from this source file instead (repository-relative)");
  app.add_option("--min-effect", options->compare.criteria.min_effect,
                 "Smallest relative change that counts (default 0.02)");
  app.add_option("--max-pairs", options->compare.budget.max_pairs,
                 "Most AB pairs per comparison (default 2000)");
  app.add_option("--repeat", options->repeat,
                 "Repeat the timed comparison N times after one verification")
      ->check(CLI::Range(1, 1000));
  return [options](Session& session) { return run_compare(*options, session); };
}

}  // namespace kblaster
