#include "kernelbench/problem_describer.h"

#include "core/scratch_folder.h"
#include "gpu/filter_process.h"
#include "kernelbench/describe_problem_script.h"

namespace kblaster {

Result<KernelBenchProblem> describe_problem(const std::filesystem::path& path,
                                            const DescribeOptions& options) {
  const std::string file = path.filename().string();
  // Python writes nowhere but a directory of its own, removed after it.
  const ScratchFolder folder("kblaster-describe");
  if (folder.path().empty())
    return Error::environment("cannot create a directory to describe " + file +
                              " in: " + folder.why());
  const std::string scratch = folder.path().string();
  FilterOptions filter;
  filter.working_dir = scratch;
  filter.sandbox.filesystem = FilesystemIsolation::when_available;
  filter.sandbox.files.read = {"/"};  // python, torch and the problem, wherever they are
  // /dev/shm: an OpenMP runtime that torch links (libiomp5) registers itself there, and
  // aborts when it cannot.
  filter.sandbox.files.write = {scratch, "/dev/null", "/dev/shm"};
  filter.sandbox.env_set = {"TMPDIR=" + scratch};
  filter.sandbox.wall_timeout_s = options.timeout_s;
  filter.timeout_s = options.timeout_s;
  filter.extra_env = options.extra_env;
  filter.max_output_bytes = 1 << 20;
  filter.stderr_tail_bytes = 1000;
  auto run =
      run_filter({options.python, "-B", "-c", kDescribeProblemScript, path.string()}, "", filter);
  if (!run)
    return Error::environment(
        "`" + options.python + "` could not be started to describe " + file +
        " (set KBLASTER_PYTHON to an interpreter with torch): " + run.error().message);
  if (run->timed_out)
    return Error::config(file, "describing it took more than " +
                                   std::to_string(static_cast<int>(options.timeout_s)) + " s");
  const auto answer = nlohmann::json::parse(run->output, nullptr, false);
  if (run->exit_code == 127 && run->output.empty())
    return Error::environment("`" + options.python + "` could not be started to describe " + file +
                              " (set KBLASTER_PYTHON to an interpreter with torch)");
  if (answer.is_discarded() || !answer.is_object())
    return Error::config(file, "describing it gave no answer (exit " +
                                   std::to_string(run->exit_code) +
                                   "); its stderr ends with: " + run->stderr_tail);
  return problem_from_description(answer, file);
}

}  // namespace kblaster
