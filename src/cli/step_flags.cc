#include "cli/step_flags.h"

#include <string>

#include "cli/flag_checks.h"

namespace kblaster {

void add_build_flags(CLI::App& app, BuildFlags& flags) {
  app.add_option("--arch", flags.arch,
                 "GPU architecture to build for, e.g. sm_90 (default: [project].arch)")
      ->check(arch_validator());
  app.add_option("--cache-dir", flags.cache_dir,
                 "Compile cache directory (default: REPO/.kblaster/cache)");
}

void add_verify_flags(CLI::App& app, VerifyFlags& flags, double timeout_floor_s) {
  flags.timeout_floor_s = timeout_floor_s;
  app.add_option("--seeds", flags.seeds, "Fresh random inputs per size (default 3, at least 3)")
      ->check(CLI::Range(3, 1000));
  app.add_option(
      "--seed", flags.seed_base,
      "First verification seed (default: drawn at random and printed); it also fixes the "
      "timed inputs, from seed + 1000");
  std::string timeout_help =
      "Seconds one size may take before the kernel counts as hung (default 60";
  if (timeout_floor_s > 0)
    timeout_help += "; this command waits at least " +
                    std::to_string(static_cast<int>(timeout_floor_s)) +
                    ", because timing a size takes longer than verifying it";
  app.add_option("--timeout", flags.timeout_s, timeout_help + ")")->check(positive_validator());
}

void add_bench_flags(CLI::App& app, BenchFlags& flags) {
  app.add_option("--max-noise", flags.stop.max_noise,
                 "Stop once the median's relative 95% half-width is below this (default 0.005)");
  app.add_option("--min-samples", flags.stop.min_samples, "Fewest samples (default 10)");
  app.add_option("--min-time", flags.stop.min_gpu_seconds,
                 "Least summed GPU time in seconds (default 0.5)");
  app.add_option("--max-time", flags.stop.max_seconds,
                 "Wall-clock limit per kernel in seconds (default 15)");
  app.add_option(
         "--repeat", flags.repeat,
         "Measure each kernel N times (fresh inputs each) and report the spread of the medians")
      ->check(CLI::Range(1, 1000));
  app.add_option_function<std::string>(
         "--baseline", [&flags](const std::string& v) { flags.torch_baseline = v == "torch"; },
         "torch: also time each kernel's PyTorch reference, eager and under torch.compile, by the "
         "same method, and give the speedup against each")
      ->check(CLI::IsMember({"torch"}));
}

void add_report_flag(CLI::App& app, std::string& dir) {
  app.add_option("--report", dir, "Also write the result as report.md, .html and .json into DIR");
}

}  // namespace kblaster
