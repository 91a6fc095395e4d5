#include "cli/command.h"
#include "cli/commands.h"

namespace kblaster {

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"plan",
       "List each kernel with its resolved spec, sizes, minimum bytes and FLOPs (no GPU needed)",
       &setup_plan},
      {"build", "Compile every kernel through the candidate builder and its cache (no GPU needed)",
       &setup_build},
      {"verify",
       "Check every kernel against its reference at every size, with fresh inputs per seed (GPU)",
       &setup_verify},
      {"bench", "Verify, then time each kernel at its timed size by nvbench's method (GPU)",
       &setup_bench},
      {"compare",
       "Interleave two candidates in one process: FASTER, SLOWER, SAME or AMBIGUOUS (GPU)",
       &setup_compare},
      {"check",
       "Build base and head of a revision range from git, verify head, time it against base (GPU)",
       &setup_check},
      {"profile",
       "Profile each kernel under Nsight Compute: profile, roofline, performance state (GPU, ncu)",
       &setup_profile},
      {"classify", "Profile, roofline and performance state from a saved ncu CSV (no GPU needed)",
       &setup_classify},
      {"optimize",
       "MAIC-RL search with the embedded techniques: best verified candidate, KB updated (GPU)",
       &setup_optimize},
      {"report", "Markdown, HTML (SVG charts) or JSON report of saved results (no GPU needed)",
       &setup_report},
      {"publish",
       "Publish saved results on GitHub: sticky PR comment, check run, claims review (no GPU)",
       &setup_publish},
      {"import",
       "Make a directory of KernelBench problems a kernel repository with PyTorch references",
       &setup_import},
      {"kb", "The Knowledge Base: init, show, stats, export, import, merge", &setup_kb},
      {"run", "Everything for one CI event: validate, plan, build, then verify and measure",
       &setup_run},
      {"sweep",
       "One shard of a nightly sweep: run every kernel of shard K/N, then optimize each (GPU)",
       &setup_sweep},
  };
  return table;
}

void add_common_options(CLI::App& app, CommonOptions& options) {
  app.add_option("repo", options.repo, "Kernel repository (default: the current directory)");
  // One name per --kernel, so a repository after it is not taken for a kernel.
  app.add_option("--kernel", options.kernels, "Only this kernel (repeatable; default: all)")
      ->allow_extra_args(false);
  app.add_flag("--json", options.json, "Machine-readable JSON on stdout");
}

}  // namespace kblaster
