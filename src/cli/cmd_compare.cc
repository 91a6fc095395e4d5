// `kblaster compare [REPO] --a KERNEL (--b KERNEL | --b-source FILE)`: verify
// both candidates, then time them interleaved in one process and give the
// verdict for B against A. `--repeat N` repeats the timing (fresh inputs, a
// fresh sampler) N times after one verification, for studies of the verdict.
#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "core/kernel_spec.h"
#include "core/suggest.h"
#include "eval/compare_run.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct CompareOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
  CompareFlags compare{.criteria = {.min_effect = kRegressionMinEffect}};
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

Result<ExitCode> compare_command(CompareOptions options, Session& session) {
  if (options.b.empty() == options.b_source.empty())
    return Error::usage("give B as --b KERNEL or as --b-source FILE (one of them)");
  options.common.kernels.clear();  // compare selects by --a and --b
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  auto a = find_kernel(*repo, "--a", options.a);
  if (!a) return a.error();
  KernelSpec spec_a = **a;
  auto b = options.b.empty() ? Result<const KernelSpec*>(*a) : find_kernel(*repo, "--b", options.b);
  if (!b) return b.error();
  KernelSpec spec_b = **b;
  if (!options.b_source.empty()) {
    spec_b.name = spec_a.name + "@" + options.b_source;
    spec_b.source = options.b_source;
  }
  KB_TRY(check_same_workload(spec_a, spec_b));
  auto left_out = keep_common_sizes(spec_a, spec_b);
  if (!left_out) return left_out.error();
  for (const auto& line : *left_out) session.progress << "compare: " << line << "\n";
  repo->selected = {&spec_a, &spec_b};

  auto run = run_compare(*repo, options.build, options.verify, options.compare, options.repeat,
                         command_provenance(session, repo->root), session);
  if (!run) return run.error();
  if (options.common.json) session.out << to_json(*run).dump(2) << "\n";
  if (!run->skipped.empty()) session.progress << run->skipped << "\n";
  return compare_exit_code(*run);
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
                 "Smallest relative change of the median that counts (default 0.015)");
  app.add_option("--max-pairs", options->compare.budget.max_pairs,
                 "Most AB pairs per comparison (default 2000)");
  app.add_option("--repeat", options->repeat,
                 "Repeat the timed comparison N times after one verification")
      ->check(CLI::Range(1, 1000));
  return [options](Session& session) { return compare_command(*options, session); };
}

}  // namespace kblaster
