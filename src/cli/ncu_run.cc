#include "cli/ncu_run.h"

#include <fstream>
#include <random>
#include <sstream>

#include "cli/gpu_context.h"
#include "gpu/harness_client.h"
#include "gpu/harness_session.h"
#include "profile/metric_list.h"

namespace kblaster {

Result<NcuRun> run_under_ncu(const NcuTool& ncu, const KernelBuild& build, const SizePlan& size,
                             NcuMetrics metrics, const std::filesystem::path& csv,
                             double timeout_s) {
  std::error_code ec;
  std::filesystem::create_directories(csv.parent_path(), ec);
  std::filesystem::remove(csv, ec);
  SandboxPolicy policy;
  policy.network = NetworkIsolation::off;
  policy.max_open_files = 4096;
  policy.wall_timeout_s = timeout_s;
  HarnessSession session(ncu_command(ncu, harness_path(), csv, metrics, profile_metric_names()),
                         policy);
  HarnessClient client(session, {timeout_s, timeout_s});
  if (auto hello = client.hello(); !hello) return hello.error();
  KB_TRY(client.load({build.result.object.string()}, std::nullopt));
  KB_TRY(client.setup(harness_args(*build.spec, size)));
  if (auto t = client.profile(0, std::random_device{}() | 1u); !t) return t.error();
  auto exit = session.finish(timeout_s);
  if (!exit) return exit.error();
  NcuRun run;
  std::ifstream in(csv, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  run.csv = text.str();
  if (!in)
    run.problem = "ncu wrote no log at " + csv.string() + " (exit " + std::to_string(*exit) + ")";
  else
    run.problem = ncu_log_problem(run.csv);
  return run;
}

}  // namespace kblaster
